"""The rows of the linalg agents' reduced system, kept across moves (``linalg_inc.py``).

Columns are numbered by cell: column c is frontier cell c, column N the aggregate column of
the unconstrained cells (see ``linalg.py``), so the column order is the cell order of the
full reduction and a cell keeps its column while the frontier grows around it.

Each row is stored as a band: its entries in columns ``lo..hi`` (the rest are 0) lie in a
pool, densely, in a segment covering columns ``base..base + cap - 1`` (slack left and
right, so a band that widens a little stays in place). Rows are slots of a row table; a
slot is free, live (a row of the reduced row echelon form: ``piv`` its pivot column, and
``PIV[piv]`` the slot), pending (a row of the system that is not reduced yet) or new.

Rows are primitive integer vectors (entries and right-hand side divided by their gcd), as
in the full reduction, and held below ``LIMIT`` in magnitude: an update that would leave
that range reports an overflow and the caller falls back to the full reduction.

The workspace is a typed list of int64 arrays, allocated on first use and grown when full:
the family makes it once per batch for every agent of the family, and only the linalg
agents need the storage (its size follows the frontier, not the board).

* ``W_META``: the header (``H_*``), then each cell's class at the last analysis
  (``K_*``, N ints), ``PIV`` (N + 1 ints: the live slot whose pivot is the column, or -1)
  and scratch (N + 1 ints);
* ``W_ROWS``: the row table, ``RF`` ints a slot (``F_*``);
* ``W_FREE``: the stack of free slots;
* ``W_POOL``: the rows' entries.
"""
import numpy as np
from numba.typed import List

from ...jit import njit
from .linalg import LIMIT, gcd

W_META = 0
W_ROWS = 1
W_FREE = 2
W_POOL = 3

H_VALID = 0  # 1: the rows are the reduced system of the classes in CLS
H_U = 1  # unconstrained hidden cells at the last analysis
H_UCOL = 2  # 1: column N (the unconstrained cells' aggregate) is a column of the system
H_TOLD = 3  # 1: the mine total is told
H_HW = 4  # slots used so far (high-water mark)
H_NFREE = 5  # free slots on the stack
H_TOP = 6  # end of the pool's used part
H_RC = 7  # slots in the row table
H_LEN = 8

# a cell's class (CLS)
K_FREE = 0  # hidden, no revealed neighbour (an unconstrained cell)
K_FRONT = 1  # hidden next to a revealed cell: a column
K_SAFE = 2  # revealed
K_MINE = 3  # flagged or detonated

RF = 8
F_START = 0
F_BASE = 1
F_CAP = 2
F_LO = 3
F_HI = 4
F_RHS = 5
F_PIV = 6
F_ST = 7

ST_FREE = 0
ST_LIVE = 1
ST_PEND = 2
ST_NEW = 3


@njit(cache=True)
def new_workspace(n):
    """The reports family's workspace: empty until a linalg agent first moves."""
    ws = List()
    for _ in range(4):
        ws.append(np.zeros(0, np.int64))
    return ws


@njit(cache=True, inline="always")
def cls_at(n):
    return H_LEN


@njit(cache=True, inline="always")
def piv_at(n):
    return H_LEN + n


@njit(cache=True, inline="always")
def scr_at(n):
    return H_LEN + 2 * n + 1


@njit(cache=True)
def prepare(ws, n):
    """Allocate the storage for an N-cell board (once; again if the board changes)."""
    if ws[W_META].shape[0] == H_LEN + 3 * n + 2:
        return
    ws[W_META] = np.zeros(H_LEN + 3 * n + 2, np.int64)
    ws[W_ROWS] = np.zeros(64 * RF, np.int64)
    ws[W_FREE] = np.zeros(64, np.int64)
    ws[W_POOL] = np.zeros(4096, np.int64)
    ws[W_META][H_RC] = 64


@njit(cache=True)
def clear(ws, n):
    """No rows, no pivots, not valid."""
    meta = ws[W_META]
    meta[H_VALID] = 0
    meta[H_HW] = 0
    meta[H_NFREE] = 0
    meta[H_TOP] = 0
    p0 = piv_at(n)
    for j in range(n + 1):
        meta[p0 + j] = -1


@njit(cache=True)
def new_slot(ws):
    """A slot for a new row (empty band, state ST_NEW); the table grows when full."""
    meta = ws[W_META]
    if meta[H_NFREE] > 0:
        meta[H_NFREE] -= 1
        s = ws[W_FREE][meta[H_NFREE]]
    else:
        rc = meta[H_RC]
        if meta[H_HW] == rc:
            rows = np.zeros(2 * rc * RF, np.int64)
            rows[:rc * RF] = ws[W_ROWS]
            ws[W_ROWS] = rows
            ws[W_FREE] = np.zeros(2 * rc, np.int64)  # (empty: no slot was free)
            meta[H_RC] = 2 * rc
        s = meta[H_HW]
        meta[H_HW] += 1
    R = ws[W_ROWS]
    o = s * RF
    R[o + F_START] = 0
    R[o + F_BASE] = 0
    R[o + F_CAP] = 0
    R[o + F_LO] = 1
    R[o + F_HI] = 0
    R[o + F_RHS] = 0
    R[o + F_PIV] = -1
    R[o + F_ST] = ST_NEW
    return s


@njit(cache=True)
def free_slot(ws, s):
    """Give slot ``s`` back (its pool segment becomes garbage, reclaimed by compaction)."""
    meta = ws[W_META]
    ws[W_ROWS][s * RF + F_ST] = ST_FREE
    ws[W_FREE][meta[H_NFREE]] = s
    meta[H_NFREE] += 1


@njit(cache=True)
def _compact(ws, extra):
    """Copy every row's band into a new pool (tight, in slot order) with room for
    ``extra`` more entries; the pool at least doubles its used part."""
    meta = ws[W_META]
    R = ws[W_ROWS]
    old = ws[W_POOL]
    used = 0
    for s in range(meta[H_HW]):
        o = s * RF
        if R[o + F_ST] != ST_FREE and R[o + F_LO] <= R[o + F_HI]:
            used += R[o + F_HI] - R[o + F_LO] + 1
    pool = np.empty(max(old.shape[0], 2 * (used + extra)), np.int64)
    top = 0
    for s in range(meta[H_HW]):
        o = s * RF
        if R[o + F_ST] == ST_FREE:
            continue
        lo = R[o + F_LO]
        hi = R[o + F_HI]
        if lo > hi:
            R[o + F_CAP] = 0
            continue
        src = R[o + F_START] - R[o + F_BASE]
        for k in range(lo, hi + 1):
            pool[top + k - lo] = old[src + k]
        R[o + F_START] = top
        R[o + F_BASE] = lo
        R[o + F_CAP] = hi - lo + 1
        top += hi - lo + 1
    ws[W_POOL] = pool
    meta[H_TOP] = top


@njit(cache=True)
def widen(ws, r, nlo, nhi, n):
    """Make row ``r``'s band cover ``nlo..nhi`` as well (new entries 0). May move the
    pool: callers re-read ``ws[W_POOL]`` and every row's start afterwards."""
    R = ws[W_ROWS]
    o = r * RF
    lo = R[o + F_LO]
    hi = R[o + F_HI]
    if lo <= hi:
        nlo = min(nlo, lo)
        nhi = max(nhi, hi)
    base = R[o + F_BASE]
    if base <= nlo and nhi < base + R[o + F_CAP]:  # room in place: zero the new part
        pool = ws[W_POOL]
        off = R[o + F_START] - base
        if lo > hi:
            for k in range(nlo, nhi + 1):
                pool[off + k] = 0
        else:
            for k in range(nlo, lo):
                pool[off + k] = 0
            for k in range(hi + 1, nhi + 1):
                pool[off + k] = 0
        R[o + F_LO] = nlo
        R[o + F_HI] = nhi
        return
    # a new segment with slack (a band that widened once tends to widen again)
    extra = (nhi - nlo + 1) // 4 + 8
    nb = max(0, nlo - extra)
    cap = min(n, nhi + extra) - nb + 1
    meta = ws[W_META]
    if meta[H_TOP] + cap > ws[W_POOL].shape[0]:
        _compact(ws, cap)  # (moves row r's band too: read it below)
    pool = ws[W_POOL]
    start = meta[H_TOP]
    meta[H_TOP] += cap
    off = start - nb
    for k in range(nlo, nhi + 1):
        pool[off + k] = 0
    if lo <= hi:
        src = R[o + F_START] - R[o + F_BASE]
        for k in range(lo, hi + 1):
            pool[off + k] = pool[src + k]
    R[o + F_START] = start
    R[o + F_BASE] = nb
    R[o + F_CAP] = cap
    R[o + F_LO] = nlo
    R[o + F_HI] = nhi


@njit(cache=True, inline="always")
def entry(R, pool, r, k):
    """Row ``r``'s coefficient in column ``k``."""
    o = r * RF
    if R[o + F_LO] <= k <= R[o + F_HI]:
        return pool[R[o + F_START] - R[o + F_BASE] + k]
    return 0


@njit(cache=True)
def normalize(ws, r):
    """Divide row ``r`` by the gcd of its entries and right-hand side and trim its band
    to its nonzero entries. Returns 1 if it has no nonzero entry (right-hand side kept),
    -1 if an entry or the right-hand side reaches LIMIT, else 0."""
    R = ws[W_ROWS]
    pool = ws[W_POOL]
    o = r * RF
    off = R[o + F_START] - R[o + F_BASE]
    first = -1
    last = -1
    gg = 0
    for k in range(R[o + F_LO], R[o + F_HI] + 1):
        x = pool[off + k]
        if x != 0:
            if first < 0:
                first = k
            last = k
            if gg != 1:
                gg = gcd(gg, x)
    return _finish(R, pool, o, off, first, last, gg, R[o + F_RHS])


@njit(cache=True, inline="always")
def _finish(R, pool, o, off, first, last, gg, y):
    """The end of an update of the row at table offset ``o``: divide by the gcd ``gg``
    of the entries ``first..last`` (and of ``y``), set the band and right-hand side."""
    if first < 0:
        R[o + F_LO] = 1
        R[o + F_HI] = 0
        R[o + F_RHS] = y
        return 1
    gg = gcd(gg, y)
    if gg > 1:
        y //= gg
        for k in range(first, last + 1):
            pool[off + k] //= gg
    R[o + F_LO] = first
    R[o + F_HI] = last
    R[o + F_RHS] = y
    if abs(y) >= LIMIT:
        return -1
    for k in range(first, last + 1):
        if abs(pool[off + k]) >= LIMIT:
            return -1
    return 0


@njit(cache=True)
def combine(ws, q, a, p, b, n):
    """Row ``q`` becomes ``a * q - b * p``, divided by its gcd (``normalize``'s return)."""
    R = ws[W_ROWS]
    op = p * RF
    plo = R[op + F_LO]
    phi = R[op + F_HI]
    widen(ws, q, plo, phi, n)
    pool = ws[W_POOL]
    oq = q * RF
    qo = R[oq + F_START] - R[oq + F_BASE]
    po = R[op + F_START] - R[op + F_BASE]
    lo = R[oq + F_LO]
    hi = R[oq + F_HI]
    first = -1
    last = -1
    gg = 0
    # three runs: before p's band, p's band, after it (no test per entry)
    for k in range(lo, plo):
        x = a * pool[qo + k]
        pool[qo + k] = x
        if x != 0:
            if first < 0:
                first = k
            last = k
            if gg != 1:
                gg = gcd(gg, x)
    for k in range(plo, phi + 1):
        x = a * pool[qo + k] - b * pool[po + k]
        pool[qo + k] = x
        if x != 0:
            if first < 0:
                first = k
            last = k
            if gg != 1:
                gg = gcd(gg, x)
    for k in range(phi + 1, hi + 1):
        x = a * pool[qo + k]
        pool[qo + k] = x
        if x != 0:
            if first < 0:
                first = k
            last = k
            if gg != 1:
                gg = gcd(gg, x)
    y = a * R[oq + F_RHS] - b * R[op + F_RHS]
    return _finish(R, pool, oq, qo, first, last, gg, y)


@njit(cache=True)
def insert(ws, r, n):
    """Bring row ``r`` (pending or new) into the reduced row echelon form of the live
    rows: reduce it by their pivots; if anything is left, its leading column becomes a
    pivot and is eliminated from the other live rows. Returns 0 (a new live row), 1 (it
    reduced to 0 = 0: slot freed), 2 (to 0 = y, y != 0: the knowledge is contradictory;
    impossible with exact clues), -1 (overflow)."""
    meta = ws[W_META]
    p0 = piv_at(n)
    s0 = scr_at(n)
    st = normalize(ws, r)
    if st < 0:
        return -1
    R = ws[W_ROWS]
    o = r * RF
    if st == 0:
        # the pivot columns it touches (a pivot row is 0 in the other pivot columns, so
        # subtracting one changes no other pivot column's entry: one pass suffices)
        pool = ws[W_POOL]
        off = R[o + F_START] - R[o + F_BASE]
        m = 0
        for k in range(R[o + F_LO], R[o + F_HI] + 1):
            if pool[off + k] != 0 and meta[p0 + k] >= 0:
                meta[s0 + m] = k
                m += 1
        for i in range(m):
            k = meta[s0 + i]
            p = meta[p0 + k]
            pool = ws[W_POOL]
            x = entry(R, pool, r, k)
            pv = entry(R, pool, p, k)
            g = gcd(pv, x)
            st = combine(ws, r, pv // g, p, x // g, n)
            if st != 0:
                break
        if st < 0:
            return -1
    if st == 1:
        y = R[o + F_RHS]
        free_slot(ws, r)
        return 2 if y != 0 else 1
    lead = R[o + F_LO]
    meta[p0 + lead] = r
    R[o + F_PIV] = lead
    R[o + F_ST] = ST_LIVE
    pool = ws[W_POOL]
    pv = entry(R, pool, r, lead)
    for s in range(meta[H_HW]):
        if s == r or R[s * RF + F_ST] != ST_LIVE:
            continue
        pool = ws[W_POOL]
        x = entry(R, pool, s, lead)
        if x == 0:
            continue
        g = gcd(pv, x)
        if combine(ws, s, pv // g, r, x // g, n) < 0:  # (its pivot entry stays: never 1)
            return -1
    return 0

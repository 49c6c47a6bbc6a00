"""The rows of the linalg agents' reduced system, kept across moves (``linalg_inc.py``).

Columns are numbered by cell: column c is frontier cell c, column N the aggregate column of
the unconstrained cells (see ``linalg.py``), so the column order is the cell order of the
full reduction and a cell keeps its column while the frontier grows around it.

Rows are sparse: a row's nonzero entries are (column, value) pairs in increasing column
order, in a pool segment of ``cap`` pairs (a dense band in cell coordinates would span
every cell between a row's first and last column: for the total's row, the whole board).
Rows are slots of a row table; a slot is free, live (a row of the reduced row echelon
form: ``piv`` its pivot column, its first, and ``PIV[piv]`` the slot), pending (a row of
the system not reduced yet) or new.

Rows are primitive integer vectors (entries and right-hand side divided by their gcd), as
in the full reduction, and held below ``LIMIT`` in magnitude: an update that would leave
that range reports an overflow and the caller falls back to the full reduction.

The workspace is a typed list of int64 arrays, allocated on first use and grown when full:
the family makes it once per batch for every agent of the family, and only the linalg
agents need the storage (its size follows the rows, not the board).

* ``W_META``: the header (``H_*``), each cell's class at the last analysis (``K_*``, N
  ints), ``PIV`` (N + 1 ints: the live slot whose pivot is the column, or -1), scratch
  (N + 1 ints) and the merge buffer (2 (N + 1) pairs);
* ``W_ROWS``: the row table, ``RF`` ints a slot (``F_*``);
* ``W_FREE``: the stack of free slots;
* ``W_POOL``: the rows' pairs.
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
H_FULL = 8  # moves by the full reduction since the workspace was made (tests read it)
H_LEN = 9

# a cell's class (CLS)
K_FREE = 0  # hidden, no revealed neighbour (an unconstrained cell)
K_FRONT = 1  # hidden next to a revealed cell: a column
K_SAFE = 2  # revealed
K_MINE = 3  # flagged or detonated

RF = 6
F_START = 0  # the segment's first int (pair i: column at start + 2i, value at + 2i + 1)
F_CAP = 1  # pairs the segment holds
F_LEN = 2  # pairs in the row
F_RHS = 3
F_PIV = 4
F_ST = 5

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


@njit(cache=True, inline="always")
def buf_at(n):
    return H_LEN + 3 * n + 2


@njit(cache=True)
def prepare(ws, n):
    """Allocate the storage for an N-cell board (once; again if the board changes)."""
    size = buf_at(n) + 4 * (n + 1)
    if ws[W_META].shape[0] == size:
        return
    ws[W_META] = np.zeros(size, np.int64)
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
    """A slot for a new row (no pairs, state ST_NEW); the table grows when full."""
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
    R[o + F_CAP] = 0
    R[o + F_LEN] = 0
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
    """Copy every row into a new pool (tight, in slot order) with room for ``extra``
    more ints; the pool at least doubles its used part."""
    meta = ws[W_META]
    R = ws[W_ROWS]
    old = ws[W_POOL]
    used = 0
    for s in range(meta[H_HW]):
        if R[s * RF + F_ST] != ST_FREE:
            used += 2 * R[s * RF + F_LEN]
    pool = np.empty(max(old.shape[0], 2 * (used + extra)), np.int64)
    top = 0
    for s in range(meta[H_HW]):
        o = s * RF
        if R[o + F_ST] == ST_FREE:
            continue
        m = 2 * R[o + F_LEN]
        src = R[o + F_START]
        for j in range(m):
            pool[top + j] = old[src + j]
        R[o + F_START] = top
        R[o + F_CAP] = R[o + F_LEN]
        top += m
    ws[W_POOL] = pool
    meta[H_TOP] = top


@njit(cache=True)
def reserve(ws, r, m):
    """Make row ``r``'s segment hold ``m`` pairs (its pairs kept). May move the pool:
    callers re-read ``ws[W_POOL]`` and every row's start afterwards."""
    R = ws[W_ROWS]
    o = r * RF
    if m <= R[o + F_CAP]:
        return
    cap = m + m // 4 + 4  # slack: a row that grew once tends to grow again
    meta = ws[W_META]
    if meta[H_TOP] + 2 * cap > ws[W_POOL].shape[0]:
        _compact(ws, 2 * cap)  # (moves row r's pairs too: read them below)
    pool = ws[W_POOL]
    start = meta[H_TOP]
    meta[H_TOP] += 2 * cap
    src = R[o + F_START]
    for j in range(2 * R[o + F_LEN]):
        pool[start + j] = pool[src + j]
    R[o + F_START] = start
    R[o + F_CAP] = cap


@njit(cache=True, inline="always")
def entry(R, pool, r, k):
    """Row ``r``'s coefficient in column ``k`` (binary search of its pairs)."""
    o = r * RF
    base = R[o + F_START]
    a = 0
    b = R[o + F_LEN]
    while a < b:
        mid = (a + b) >> 1
        c = pool[base + 2 * mid]
        if c < k:
            a = mid + 1
        elif c > k:
            b = mid
        else:
            return pool[base + 2 * mid + 1]
    return 0


@njit(cache=True)
def normalize(ws, r):
    """Drop row ``r``'s zero pairs and divide it by the gcd of its entries and
    right-hand side. Returns 1 if no pair is left (right-hand side kept), -1 if an entry
    or the right-hand side reaches LIMIT, else 0."""
    R = ws[W_ROWS]
    pool = ws[W_POOL]
    o = r * RF
    base = R[o + F_START]
    m = 0
    gg = 0
    for i in range(R[o + F_LEN]):
        x = pool[base + 2 * i + 1]
        if x != 0:
            pool[base + 2 * m] = pool[base + 2 * i]
            pool[base + 2 * m + 1] = x
            m += 1
            if gg != 1:
                gg = gcd(gg, x)
    R[o + F_LEN] = m
    return _finish(R, pool, o, base, m, gg, R[o + F_RHS])


@njit(cache=True, inline="always")
def _finish(R, pool, o, base, m, gg, y):
    """The end of an update of the row at table offset ``o`` (``m`` pairs from
    ``base``): divide by the gcd ``gg`` of the entries (and of ``y``), set its
    right-hand side; ``normalize``'s return."""
    R[o + F_RHS] = y
    if m == 0:
        return 1
    gg = gcd(gg, y)
    if gg > 1:
        y //= gg
        R[o + F_RHS] = y
        for i in range(m):
            pool[base + 2 * i + 1] //= gg
    if abs(y) >= LIMIT:
        return -1
    for i in range(m):
        if abs(pool[base + 2 * i + 1]) >= LIMIT:
            return -1
    return 0


@njit(cache=True)
def put(ws, r, src, m, y):
    """Row ``r`` becomes the ``m`` nonzero pairs at ``ws[W_META][src:]`` with right-hand
    side ``y``, divided by their gcd (``normalize``'s return)."""
    reserve(ws, r, m)
    meta = ws[W_META]
    pool = ws[W_POOL]
    R = ws[W_ROWS]
    o = r * RF
    base = R[o + F_START]
    gg = 0
    for j in range(2 * m):
        pool[base + j] = meta[src + j]
    for i in range(m):
        if gg == 1:
            break
        gg = gcd(gg, pool[base + 2 * i + 1])
    R[o + F_LEN] = m
    return _finish(R, pool, o, base, m, gg, y)


@njit(cache=True)
def combine(ws, q, a, p, b, n):
    """Row ``q`` becomes ``a * q - b * p``, divided by its gcd (``normalize``'s return).
    The sum is merged into the buffer, then stored back."""
    R = ws[W_ROWS]
    pool = ws[W_POOL]
    meta = ws[W_META]
    out = buf_at(n)
    oq = q * RF
    op = p * RF
    qb = R[oq + F_START]
    pb = R[op + F_START]
    nq = R[oq + F_LEN]
    np_ = R[op + F_LEN]
    i = 0
    j = 0
    m = 0
    while i < nq or j < np_:
        cq = pool[qb + 2 * i] if i < nq else n + 1
        cp = pool[pb + 2 * j] if j < np_ else n + 1
        if cq < cp:
            c = cq
            x = a * pool[qb + 2 * i + 1]
            i += 1
        elif cp < cq:
            c = cp
            x = -b * pool[pb + 2 * j + 1]
            j += 1
        else:
            c = cq
            x = a * pool[qb + 2 * i + 1] - b * pool[pb + 2 * j + 1]
            i += 1
            j += 1
        if x != 0:
            meta[out + 2 * m] = c
            meta[out + 2 * m + 1] = x
            m += 1
    return put(ws, q, out, m, a * R[oq + F_RHS] - b * R[op + F_RHS])


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
        base = R[o + F_START]
        m = 0
        for i in range(R[o + F_LEN]):
            k = pool[base + 2 * i]
            if meta[p0 + k] >= 0:
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
    pool = ws[W_POOL]
    lead = pool[R[o + F_START]]
    pv = pool[R[o + F_START] + 1]
    meta[p0 + lead] = r
    R[o + F_PIV] = lead
    R[o + F_ST] = ST_LIVE
    for s in range(meta[H_HW]):
        if s == r or R[s * RF + F_ST] != ST_LIVE:
            continue
        x = entry(R, ws[W_POOL], s, lead)
        if x == 0:
            continue
        g = gcd(pv, x)
        if combine(ws, s, pv // g, r, x // g, n) < 0:  # (its pivot entry stays: never 1)
            return -1
    return 0

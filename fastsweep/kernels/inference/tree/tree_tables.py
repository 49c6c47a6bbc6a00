"""The tree DP's tables: one pool of states with polynomial values, and leaf tables.

A state of table t is the number of mines the table's boxes put in each of its open
clues (4 bits per clue in two int64 words, see ``count_tree.py``); its value is a dense
vector of coefficients over the mine counts [lo, hi] of the layouts reaching it (one
coefficient when the mine total is not used), each with an exact "exists" flag (and,
after the backward pass, "alive": a feasible completion exists). One hash table over
(table, key) finds a state; every array grows on demand.
"""
from collections import namedtuple

import numpy as np

from ..count_path import _hash, weights
from ..frontier import CB_K, CB_NK, CB_SIZE, CK_B, CK_NB, clue_bounds, is_soft
from ...jit import njit

# int64 columns of a state
T_K0 = 0
T_K1 = 1
T_TAB = 2  # the table it belongs to
T_LO = 3  # fewest / most mines of the layouts reaching the state
T_HI = 4
T_OFF = 5  # its coefficients: PV[off:off + len], coefficient j is for lo + j mines
T_LEN = 6  # (one coefficient when the total is not used)
T_COLS = 7
X_EXISTS = 1  # PX bits: a layout (inside) with this many mines exists ...
X_ALIVE = 2  # ... and it has a feasible completion
MAX_OPEN = 32  # open clues per table (two words of 4-bit counts)
MAX_CLOSE = 16  # clues closed by one join (one word)
#: A product of soft clues' likelihoods (rows normalised to a largest entry of 1 by the
#: API) below this, or underflowed to 0 from nonzero entries, makes the component
#: approximated (exact deduction by search, sampled probabilities in log space): a
#: weight that small would lose its digits in the products of the counting, or vanish
#: and read as "no layout".
SOFT_TINY = 1e-250

#: The tables of one analysis: states (TI), their coefficients (PV inside weights, PB
#: outside weights, PX flags; ``ptop`` the first free), the hash table over (table, key)
#: (tab, entries are state + 1) and the first free state (top); per table its first and
#: last state (trange), its open clues (tclue, ntc) with their cells inside (tin); the
#: compatible pairs of every join (pairs: rows a-state, b-state, result; ``qtop`` the
#: first free) and each table's first and last pair (qrange, for join results); each
#: table's log scale (tls: its true weights are the stored ones times exp(tls)); each
#: pair's factor from the soft clues the join closes (pf, 1 without soft clues).
TreePool = namedtuple(
    "TreePool", "TI PV PB PX tab top ptop trange tclue ntc tin pairs qtop qrange tls pf")


@njit(cache=True)
def new_tree_pool(ntables):
    cap = 1024 if ntables > 0 else 1  # (an analysis without wide components: no cost)
    return TreePool(np.empty((cap, T_COLS), np.int64), np.empty(4 * cap, np.float64),
                    np.empty(4 * cap, np.float64), np.empty(4 * cap, np.uint8),
                    np.zeros(2 * cap, np.int64), 0, 0, np.zeros((ntables, 2), np.int64),
                    np.zeros((ntables, MAX_OPEN), np.int32), np.zeros(ntables, np.int32),
                    np.zeros((ntables, MAX_OPEN), np.int32), np.empty((cap, 3), np.int64),
                    0, np.zeros((ntables, 2), np.int64), np.zeros(ntables, np.float64),
                    np.empty(cap, np.float64))


@njit(cache=True)
def _grow1(a, n):
    b = np.empty(max(2 * a.shape[0], n), a.dtype)
    b[:a.shape[0]] = a
    return b


@njit(cache=True)
def _grow2(a, n):
    b = np.empty((max(2 * a.shape[0], n), a.shape[1]), a.dtype)
    b[:a.shape[0]] = a
    return b


# (inlined, on the two arrays of the pool it touches, which the caller made room in
# before its loop: a call per state that passed the whole pool, sixteen fields, and built
# a new one made half the time of the noise-aware count reference counting, a perf
# profile of 2026-12-02; an array re-bound inside a loop costs reference counting too)
@njit(cache=True, inline="always")
def put_state(TI, tab, top, t, k0, k1, lo, hi):
    """The state (t, key) with its mine range widened to [lo, hi], created if new, among
    the pool's states ``TI`` with hash table ``tab`` and first free state ``top``, which
    must have room for it (:func:`state_room`): returns (new top, index)."""
    mask = tab.shape[0] - 1
    h = _hash(k0, k1, t, mask)
    while tab[h] != 0:
        j = tab[h] - 1
        if TI[j, T_K0] == k0 and TI[j, T_K1] == k1 and TI[j, T_TAB] == t:
            if lo < TI[j, T_LO]:
                TI[j, T_LO] = lo
            if hi > TI[j, T_HI]:
                TI[j, T_HI] = hi
            return top, j
        h = (h + 1) & mask
    j = top
    TI[j, T_K0] = k0
    TI[j, T_K1] = k1
    TI[j, T_TAB] = t
    TI[j, T_LO] = lo
    TI[j, T_HI] = hi
    tab[h] = j + 1
    return top + 1, j


@njit(cache=True)
def state_room(TI, tab, top, n):
    """(TI, tab) with room for ``n`` more states after ``top``: TI grown, and the hash
    table at most half full afterwards (rebuilt larger)."""
    if top + n > TI.shape[0]:
        TI = _grow2(TI, top + n)
    if 2 * (top + n) > tab.shape[0]:
        size = tab.shape[0]
        while 2 * (top + n) > size:
            size *= 2
        tab = _rehash(TI, top, size)
    return TI, tab


@njit(cache=True)
def _rehash(TI, top, size):
    """A hash table of ``size`` slots over states 0..top-1 of ``TI``."""
    tab = np.zeros(size, np.int64)
    mask = size - 1
    for e in range(top):
        h = _hash(TI[e, T_K0], TI[e, T_K1], TI[e, T_TAB], mask)
        while tab[h] != 0:
            h = (h + 1) & mask
        tab[h] = e + 1
    return tab


@njit(cache=True)
def _coefficients(tp, e0, e1, bym):
    """Give states e0..e1-1 their zeroed coefficient vectors. Returns the pool."""
    TI = tp.TI
    n = 0
    for e in range(e0, e1):
        n += TI[e, T_HI] - TI[e, T_LO] + 1 if bym else 1
    PV = tp.PV
    PB = tp.PB
    PX = tp.PX
    if tp.ptop + n > PV.shape[0]:
        PV = _grow1(PV, tp.ptop + n)
        PB = _grow1(PB, tp.ptop + n)
        PX = _grow1(PX, tp.ptop + n)
    off = tp.ptop
    for e in range(e0, e1):
        ln = TI[e, T_HI] - TI[e, T_LO] + 1 if bym else 1
        TI[e, T_OFF] = off
        TI[e, T_LEN] = ln
        for j in range(off, off + ln):
            PV[j] = 0.0
            PX[j] = 0
        off += ln
    return TreePool(TI, PV, PB, PX, tp.tab, tp.top, off, tp.trange, tp.tclue, tp.ntc, tp.tin,
                    tp.pairs, tp.qtop, tp.qrange, tp.tls, tp.pf)


@njit(cache=True, inline="always")
def _nib(k0, k1, s):
    if s < 16:
        return (k0 >> (4 * s)) & 15
    return (k1 >> (4 * (s - 16))) & 15


# (small helpers called per clue or per count are inlined: a call passes the frontier,
# six arrays, each counted in and out; the 2026-12-02 profile of the noise-aware count
# spent a quarter of its time in reference counting)
@njit(cache=True, inline="always")
def _clue_cells(fr, k):
    cap = 0
    for r in range(fr.con[k, CK_NB]):
        cap += fr.box[fr.con[k, CK_B + r], CB_SIZE]
    return cap


@njit(cache=True)
def leaf(fr, tp, t, b, x, bym):
    """Table ``t``: the leaf of box ``b``. Returns (pool, status): 1 if no count of
    the box fits its clues, 2 if a soft weight is too small to count (SOFT_TINY)."""
    box = fr.box
    con = fr.con
    s = box[b, CB_SIZE]
    wt = np.empty(9, np.float64)
    weights(wt, s, x)
    mlo = 0
    mhi = s
    nt = 0
    for q in range(box[b, CB_NK]):
        k = box[b, CB_K + q]
        lo, hi = clue_bounds(fr, k)
        rest = _clue_cells(fr, k) - s
        mhi = min(mhi, hi)
        mlo = max(mlo, lo - rest)
        if con[k, CK_NB] > 1:
            tp.tclue[t, nt] = k
            tp.tin[t, nt] = s
            nt += 1
    tp.ntc[t] = nt
    tp.tls[t] = 0.0
    e0 = tp.top
    tp.trange[t, 0] = e0
    TI, tab = state_room(tp.TI, tp.tab, tp.top, max(mhi - mlo + 1, 0))
    top = tp.top
    for m in range(mlo, mhi + 1):
        f = _closing_factor(fr, b, m)
        if f < 0.0:
            return tp, 2
        if f == 0.0:
            continue
        # a box has at most 8 clues (slots 0..7 of k0); k1 holds m itself, so that counts
        # no open clue tells apart (a soft clue closed here) stay separate states
        k0 = np.int64(0)
        for q in range(nt):
            k0 += np.int64(m) << (4 * q)
        top, _ = put_state(TI, tab, top, t, k0, np.int64(m), m, m)
    tp = TreePool(TI, tp.PV, tp.PB, tp.PX, tab, top, tp.ptop, tp.trange, tp.tclue, tp.ntc,
                  tp.tin, tp.pairs, tp.qtop, tp.qrange, tp.tls, tp.pf)
    tp.trange[t, 1] = tp.top
    tp = _coefficients(tp, e0, tp.top, bym)
    for e in range(e0, tp.top):
        o = tp.TI[e, T_OFF]
        m = tp.TI[e, T_LO]
        tp.PV[o] = wt[m] * _closing_factor(fr, b, m)
        tp.PX[o] = X_EXISTS
    return tp, 1 if tp.top == e0 else 0


@njit(cache=True, inline="always")  # (see _clue_cells)
def _closing_factor(fr, b, m):
    """The likelihood of m mines in box ``b`` from the soft clues that touch only it;
    -1 when it is positive but below SOFT_TINY (see there)."""
    f = 1.0
    for q in range(fr.box[b, CB_NK]):
        k = fr.box[b, CB_K + q]
        if fr.con[k, CK_NB] == 1 and is_soft(fr, k):
            if fr.lik[k, m] == 0.0:
                return 0.0
            f *= fr.lik[k, m]
    return -1.0 if f < SOFT_TINY else f

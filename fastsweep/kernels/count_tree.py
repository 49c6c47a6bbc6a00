"""The tree DP: exact counting of one frontier component along a bucket tree.

For components whose linear (path) order keeps too many clues open, the boxes are
eliminated in a min-fill order (``treedec.py``) and counted bottom-up along its bucket
tree. A table is a set of states over a set T of boxes (a subtree): a state is the
number of mines T puts in every clue that is *open* at T (it has boxes inside and
outside T), 4 bits per clue in two int64 words; its value is the total weight of T's
layouts reaching it. So the tables are sparse factors that keep only feasible
assignments, keyed by what the rest of the component can still see. When the mine total
is known, the value is a polynomial in the mines T holds (a dense vector over
[lo, hi], with an exact "exists" flag per coefficient): the joins convolve them.

* A box's leaf table: m = 0..size mines, weight C(size, m) x^m.
* A join of two tables over disjoint box sets: every compatible pair of states (a clue
  both see gets at most its value, and can still reach it) gives the sum of their counts;
  a clue whose boxes are now all inside is *closed*: its count must equal its value and
  it leaves the key. Bucket v joins v's leaf with its children's messages in turn.
* The root's table (every clue closed) is the component's weight by mine count.
* Backward, each join hands its result's outside weights (the weight of every completion,
  times the caller's global factor of the component's mine count) and "alive" flags to
  both operands; at the leaves they give each box's expected mines and deduction.

A join first finds its compatible pairs (the operand ``b`` is sorted by the counts of the
clues the join closes, which must add up exactly, so each state of ``a`` meets only its
matching run of ``b``), keeps them as a list, then convolves; the backward pass walks
the same list. Every table is rescaled by its maximum.
"""
from collections import namedtuple

import numpy as np
from numba import njit

from .count_path import weights
from .frontier import CB_DED, CB_K, CB_NK, CB_SIZE, CK_B, CK_NB, CK_VAL, span

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

#: The tables of one analysis: states (TI), their coefficients (PV inside weights, PB
#: outside weights, PX flags; ``ptop`` the first free), the hash table over (table, key)
#: (tab, entries are state + 1) and the first free state (top); per table its first and
#: last state (trange), its open clues (tclue, ntc) with their cells inside (tin); the
#: compatible pairs of every join (pairs: rows a-state, b-state, result; ``qtop`` the
#: first free) and each table's first and last pair (qrange, for join results).
TreePool = namedtuple(
    "TreePool", "TI PV PB PX tab top ptop trange tclue ntc tin pairs qtop qrange")


@njit(cache=True)
def new_tree_pool(ntables):
    cap = 1024 if ntables > 0 else 1  # (an analysis without wide components: no cost)
    return TreePool(np.empty((cap, T_COLS), np.int64), np.empty(4 * cap, np.float64),
                    np.empty(4 * cap, np.float64), np.empty(4 * cap, np.uint8),
                    np.zeros(2 * cap, np.int64), 0, 0, np.zeros((ntables, 2), np.int64),
                    np.zeros((ntables, MAX_OPEN), np.int32), np.zeros(ntables, np.int32),
                    np.zeros((ntables, MAX_OPEN), np.int32), np.empty((cap, 3), np.int64),
                    0, np.zeros((ntables, 2), np.int64))


@njit(cache=True, inline="always")
def _hash(t, k0, k1, mask):
    h = np.uint64(k0) * np.uint64(0x9E3779B97F4A7C15)
    h ^= np.uint64(k1) * np.uint64(0xC2B2AE3D27D4EB4F) + np.uint64(t) * np.uint64(0x165667B19E3779F9)
    h ^= h >> np.uint64(29)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(32)
    return np.int64(h & np.uint64(mask))


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


@njit(cache=True)
def _state(tp, t, k0, k1, lo, hi):
    """The state (t, key) with its mine range widened to [lo, hi], created if new.
    Returns (pool, index)."""
    TI = tp.TI
    tab = tp.tab
    mask = tab.shape[0] - 1
    h = _hash(t, k0, k1, mask)
    while tab[h] != 0:
        j = tab[h] - 1
        if TI[j, T_K0] == k0 and TI[j, T_K1] == k1 and TI[j, T_TAB] == t:
            if lo < TI[j, T_LO]:
                TI[j, T_LO] = lo
            if hi > TI[j, T_HI]:
                TI[j, T_HI] = hi
            return tp, j
        h = (h + 1) & mask
    top = tp.top
    if top + 1 > TI.shape[0]:
        TI = _grow2(TI, top + 1)
    j = top
    TI[j, T_K0] = k0
    TI[j, T_K1] = k1
    TI[j, T_TAB] = t
    TI[j, T_LO] = lo
    TI[j, T_HI] = hi
    top += 1
    if 2 * top > tab.shape[0]:
        tab = np.zeros(2 * tab.shape[0], np.int64)
        mask = tab.shape[0] - 1
        for e in range(top):
            h = _hash(TI[e, T_TAB], TI[e, T_K0], TI[e, T_K1], mask)
            while tab[h] != 0:
                h = (h + 1) & mask
            tab[h] = e + 1
    else:
        tab[h] = j + 1
    return TreePool(TI, tp.PV, tp.PB, tp.PX, tab, top, tp.ptop, tp.trange, tp.tclue, tp.ntc,
                    tp.tin, tp.pairs, tp.qtop, tp.qrange), j


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
                    tp.pairs, tp.qtop, tp.qrange)


@njit(cache=True, inline="always")
def _nib(k0, k1, s):
    if s < 16:
        return (k0 >> (4 * s)) & 15
    return (k1 >> (4 * (s - 16))) & 15


@njit(cache=True)
def _clue_cells(fr, k):
    cap = 0
    for r in range(fr.con[k, CK_NB]):
        cap += fr.box[fr.con[k, CK_B + r], CB_SIZE]
    return cap


@njit(cache=True)
def leaf(fr, tp, t, b, x, bym):
    """Table ``t``: the leaf of box ``b``. Returns (pool, status): 1 if no count of
    the box fits its clues."""
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
        val = con[k, CK_VAL]
        rest = _clue_cells(fr, k) - s
        mhi = min(mhi, val)
        mlo = max(mlo, val - rest)
        if con[k, CK_NB] > 1:
            tp.tclue[t, nt] = k
            tp.tin[t, nt] = s
            nt += 1
    tp.ntc[t] = nt
    e0 = tp.top
    tp.trange[t, 0] = e0
    for m in range(mlo, mhi + 1):
        k0 = np.int64(0)
        k1 = np.int64(0)
        for q in range(nt):
            if q < 16:
                k0 += np.int64(m) << (4 * q)
            else:
                k1 += np.int64(m) << (4 * (q - 16))
        tp, _ = _state(tp, t, k0, k1, m, m)
    tp.trange[t, 1] = tp.top
    tp = _coefficients(tp, e0, tp.top, bym)
    for e in range(e0, tp.top):
        o = tp.TI[e, T_OFF]
        tp.PV[o] = wt[tp.TI[e, T_LO]]
        tp.PX[o] = X_EXISTS
    return tp, 1 if mhi < mlo else 0


@njit(cache=True)
def _plan(fr, tp, a, b, o):
    """The layout of table ``o`` = join of tables ``a`` and ``b``: writes o's open clues.
    Returns (dest, shared, valcl, nshared, ok): ``dest[side, slot]`` is the slot of
    the operand's clue in o (>= 0), or -1 - its closing slot; ``shared`` rows are
    (o slot, value, cells outside) of the open clues both operands see; ``valcl`` the
    packed values of the closing clues; ok 0 when o would exceed MAX_OPEN / MAX_CLOSE."""
    dest = np.full((2, MAX_OPEN), 0, np.int64)
    shared = np.zeros((MAX_OPEN, 3), np.int64)
    nsh = 0
    no = 0
    ncl = 0
    valcl = np.int64(0)
    # merge the two sorted clue lists
    ia = 0
    ib = 0
    na = tp.ntc[a]
    nb = tp.ntc[b]
    while ia < na or ib < nb:
        ka = tp.tclue[a, ia] if ia < na else 1 << 30
        kb = tp.tclue[b, ib] if ib < nb else 1 << 30
        k = min(ka, kb)
        cin = 0
        if ka == k:
            cin += tp.tin[a, ia]
        if kb == k:
            cin += tp.tin[b, ib]
        cap = _clue_cells(fr, k)
        if cin == cap:
            if ncl >= MAX_CLOSE:
                return dest, shared, valcl, nsh, 0
            d = -1 - ncl
            valcl += np.int64(fr.con[k, CK_VAL]) << (4 * ncl)
            ncl += 1
        else:
            if no >= MAX_OPEN:
                return dest, shared, valcl, nsh, 0
            d = no
            tp.tclue[o, no] = k
            tp.tin[o, no] = cin
            if ka == k and kb == k:
                shared[nsh, 0] = no
                shared[nsh, 1] = fr.con[k, CK_VAL]
                shared[nsh, 2] = cap - cin
                nsh += 1
            no += 1
        if ka == k:
            dest[0, ia] = d
            ia += 1
        if kb == k:
            dest[1, ib] = d
            ib += 1
    tp.ntc[o] = no
    return dest, shared, valcl, nsh, 1


@njit(cache=True)
def _remap(tp, t, dest, side):
    """Each state of table ``t`` re-keyed in the join's layout: (k0, k1, closing word)."""
    e0 = tp.trange[t, 0]
    e1 = tp.trange[t, 1]
    out = np.zeros((e1 - e0, 3), np.int64)
    n = tp.ntc[t]
    for e in range(e0, e1):
        k0 = tp.TI[e, T_K0]
        k1 = tp.TI[e, T_K1]
        r0 = np.int64(0)
        r1 = np.int64(0)
        rc = np.int64(0)
        for s in range(n):
            c = _nib(k0, k1, s)
            d = dest[side, s]
            if d >= 0:
                if d < 16:
                    r0 += c << (4 * d)
                else:
                    r1 += c << (4 * (d - 16))
            else:
                rc += c << (4 * (-1 - d))
        out[e - e0, 0] = r0
        out[e - e0, 1] = r1
        out[e - e0, 2] = rc
    return out


@njit(cache=True, inline="always")
def _fits(a0, a1, b0, b1, shared, nsh):
    """Whether two re-keyed states agree on their shared open clues."""
    for q in range(nsh):
        s = shared[q, 0]
        c = _nib(a0, a1, s) + _nib(b0, b1, s)
        if c > shared[q, 1] or c + shared[q, 2] < shared[q, 1]:
            return False
    return True


@njit(cache=True)
def join(fr, tp, ab, o, bym, limits):
    """Table ``o`` = the join of tables ``ab`` = (a, b). ``limits`` = (most pairs, most
    coefficient products) allowed. Returns (pool, status, work): status 0 ok, 1 no
    compatible pair, 2 too wide or over a limit; work the coefficient products done."""
    a, b = ab
    dest, shared, valcl, nsh, ok = _plan(fr, tp, a, b, o)
    if ok == 0:
        return tp, 2, 0
    ra = _remap(tp, a, dest, 0)
    rb = _remap(tp, b, dest, 1)
    ea0 = tp.trange[a, 0]
    eb0 = tp.trange[b, 0]
    byc = np.argsort(rb[:, 2], kind="mergesort")
    rcs = rb[byc, 2]
    # pass 1: the compatible pairs and the result states (with their mine ranges)
    tp.trange[o, 0] = tp.top
    tp.qrange[o, 0] = tp.qtop
    pairs = tp.pairs
    q = tp.qtop
    for i in range(ra.shape[0]):
        want = valcl - ra[i, 2]
        lo = np.searchsorted(rcs, want)
        ea = ea0 + i
        for jj in range(lo, rcs.shape[0]):
            if rcs[jj] != want:
                break
            j = byc[jj]
            if not _fits(ra[i, 0], ra[i, 1], rb[j, 0], rb[j, 1], shared, nsh):
                continue
            eb = eb0 + j
            tp, eo = _state(tp, o, ra[i, 0] + rb[j, 0], ra[i, 1] + rb[j, 1],
                            tp.TI[ea, T_LO] + tp.TI[eb, T_LO], tp.TI[ea, T_HI] + tp.TI[eb, T_HI])
            if q + 1 > pairs.shape[0]:
                pairs = _grow2(pairs, q + 1)
            if q >= limits[0]:
                return tp, 2, 0
            pairs[q, 0] = ea
            pairs[q, 1] = eb
            pairs[q, 2] = eo
            q += 1
    tp = TreePool(tp.TI, tp.PV, tp.PB, tp.PX, tp.tab, tp.top, tp.ptop, tp.trange, tp.tclue,
                  tp.ntc, tp.tin, pairs, q, tp.qrange)
    tp.trange[o, 1] = tp.top
    tp.qrange[o, 1] = q
    if tp.top == tp.trange[o, 0]:
        return tp, 1, 0
    tp = _coefficients(tp, tp.trange[o, 0], tp.top, bym)
    # pass 2: convolve the coefficient vectors of every pair into its result
    TI = tp.TI
    PV = tp.PV
    PX = tp.PX
    work = 0
    for p in range(tp.qrange[o, 0], q):
        ea = pairs[p, 0]
        eb = pairs[p, 1]
        eo = pairs[p, 2]
        oa = TI[ea, T_OFF]
        ob = TI[eb, T_OFF]
        base = TI[eo, T_OFF] + (TI[ea, T_LO] + TI[eb, T_LO] - TI[eo, T_LO] if bym else 0)
        la = TI[ea, T_LEN]
        lb = TI[eb, T_LEN]
        work += la * lb
        for ja in range(la):
            if PX[oa + ja] == 0:
                continue
            va = PV[oa + ja]
            for jb in range(lb):
                if PX[ob + jb] != 0:
                    PV[base + ja + jb] += va * PV[ob + jb]
                    PX[base + ja + jb] = X_EXISTS
        if work > limits[1]:
            return tp, 2, work
    fmax = 0.0
    for j in range(TI[tp.trange[o, 0], T_OFF], tp.ptop):
        fmax = max(fmax, PV[j])
    if fmax > 0.0:
        inv = 1.0 / fmax
        for j in range(TI[tp.trange[o, 0], T_OFF], tp.ptop):
            PV[j] *= inv
    return tp, 0, work


@njit(cache=True)
def join_back(tp, a, b, o, bym):
    """Backward through ``o`` = join(a, b): the outside weights and alive flags of a's
    and b's coefficients from o's (then each operand rescaled by its maximum)."""
    TI = tp.TI
    PV = tp.PV
    PB = tp.PB
    PX = tp.PX
    spans = ((TI[tp.trange[a, 0], T_OFF], TI[tp.trange[a, 1] - 1, T_OFF]
              + TI[tp.trange[a, 1] - 1, T_LEN]),
             (TI[tp.trange[b, 0], T_OFF], TI[tp.trange[b, 1] - 1, T_OFF]
              + TI[tp.trange[b, 1] - 1, T_LEN]))
    for j0, j1 in spans:
        for j in range(j0, j1):
            PB[j] = 0.0
            PX[j] &= X_EXISTS
    pairs = tp.pairs
    for p in range(tp.qrange[o, 0], tp.qrange[o, 1]):
        ea = pairs[p, 0]
        eb = pairs[p, 1]
        eo = pairs[p, 2]
        oa = TI[ea, T_OFF]
        ob = TI[eb, T_OFF]
        base = TI[eo, T_OFF] + (TI[ea, T_LO] + TI[eb, T_LO] - TI[eo, T_LO] if bym else 0)
        for ja in range(TI[ea, T_LEN]):
            if PX[oa + ja] == 0:
                continue
            va = PV[oa + ja]
            for jb in range(TI[eb, T_LEN]):
                if PX[ob + jb] == 0:
                    continue
                bo = PB[base + ja + jb]
                PB[oa + ja] += PV[ob + jb] * bo
                PB[ob + jb] += va * bo
                if PX[base + ja + jb] & X_ALIVE:
                    PX[oa + ja] |= X_ALIVE
                    PX[ob + jb] |= X_ALIVE
    for j0, j1 in spans:
        m = 0.0
        for j in range(j0, j1):
            m = max(m, PB[j])
        if m > 0.0:
            inv = 1.0 / m
            for j in range(j0, j1):
                PB[j] *= inv


#: Where each tree-counted component's tables and joins are: per table the box of a leaf
#: (-1 for a join), the joins as rows (a, b, o), and per component (first table, first
#: join, number of joins, root table); ``next`` holds the next free table and join.
TreePlan = namedtuple("TreePlan", "leafbox steps crange next")


@njit(cache=True)
def new_tree_plan(nbox, ncomp):
    return TreePlan(np.full(2 * nbox, -1, np.int32), np.zeros((max(nbox, 1), 3), np.int64),
                    np.zeros((max(ncomp, 1), 4), np.int64), np.zeros(2, np.int64))


@njit(cache=True)
def _route(tp, t, cpos, head, nxt):
    """Put table ``t`` in the bucket of its first clue to close (``head``: each bucket's
    first table; ``nxt[t - t0]``: the table after t in its bucket, with the component's
    first table t0 in the last entry of ``nxt``); returns False if it has no open clue (it is the
    component's root)."""
    first = -1
    for q in range(tp.ntc[t]):
        p = cpos[tp.tclue[t, q]]
        if first < 0 or p < first:
            first = p
    if first < 0:
        return False
    t0 = nxt[nxt.shape[0] - 1]
    nxt[t - t0] = head[first]
    head[first] = t
    return True


@njit(cache=True)
def forward_tree(fr, i, x, bym, budget, tp, plan, cpos):
    """Count component ``i`` on the bucket tree of its clue order (``cpos``: each clue's
    position, from ``treedec.clue_order``); its tables join the pool ``tp``. At clue k's
    turn, the tables with k open are joined, smallest first. Returns (pool, status):
    0 ok, 1 no layout, 2 too wide or over the budget: at most ``budget`` states,
    2 x ``budget`` compatible pairs and 8 x ``budget`` coefficients are kept (about 250
    bytes per unit of budget) and 256 x ``budget`` coefficient products done."""
    b0, nb, _ = span(fr, i)
    t0 = plan.next[0]
    s0 = plan.next[1]
    plan.crange[i, 0] = t0
    plan.crange[i, 1] = s0
    plan.next[0] = t0 + 2 * nb  # its table ids, used or not (they are keys of the hash)
    top0 = tp.top
    p0 = tp.ptop
    nk = 0
    for j in range(nb):
        b = fr.order[b0 + j]
        for q in range(fr.box[b, CB_NK]):
            nk = max(nk, cpos[fr.box[b, CB_K + q]] + 1)
    hrel = np.full(nk, -1, np.int64)
    nxt = np.full(2 * nb + 1, -1, np.int64)  # (indexed by table - t0; t0 in the last)
    nxt[2 * nb] = t0
    root = -1
    for j in range(nb):
        t = t0 + j
        plan.leafbox[t] = fr.order[b0 + j]
        tp, st = leaf(fr, tp, t, fr.order[b0 + j], x, bym)
        if st:
            return tp, 1
        if not _route(tp, t, cpos, hrel, nxt):
            root = t
    nt = t0 + nb
    ns = s0
    work = 256 * budget
    qmax = tp.qtop + 2 * budget
    ins = np.empty(2 * nb, np.int64)
    for k in range(nk):
        n = 0
        t = hrel[k]
        while t >= 0:
            ins[n] = t
            n += 1
            t = nxt[t - t0]
        if n == 0:
            continue
        sizes = np.empty(n, np.int64)
        for j in range(n):
            sizes[j] = tp.trange[ins[j], 1] - tp.trange[ins[j], 0]
        by = np.argsort(sizes, kind="mergesort")
        cur = ins[by[0]]
        for j in range(1, n):
            b = ins[by[j]]
            tp, st, done = join(fr, tp, (cur, b), nt, bym, (qmax, work))
            if st != 0:
                return tp, st
            work -= done
            if tp.top - top0 > budget or tp.ptop - p0 > 8 * budget:
                return tp, 2
            plan.leafbox[nt] = -1
            plan.steps[ns, 0] = cur
            plan.steps[ns, 1] = b
            plan.steps[ns, 2] = nt
            cur = nt
            nt += 1
            ns += 1
        if not _route(tp, cur, cpos, hrel, nxt):
            root = cur
    plan.crange[i, 2] = ns - s0
    plan.crange[i, 3] = root
    plan.next[1] = ns
    return tp, 0


@njit(cache=True)
def root_states(tp, plan, i):
    """(first, last) state of component ``i``'s root table: its weight by mine count
    (one state: every clue is closed)."""
    r = plan.crange[i, 3]
    return tp.trange[r, 0], tp.trange[r, 1]


@njit(cache=True)
def backward_tree(fr, i, tp, plan, G, Gex, bym, bprob):
    """Backward pass of tree-counted component ``i`` given the global factor ``G[k]`` of
    its mine count (``Gex[k]``: a feasible completion exists); as ``count_path.backward``:
    fills ``bprob`` and CB_DED of its boxes, returns 0 ok, 1 no feasible layout,
    2 the weights underflowed."""
    TI = tp.TI
    PV = tp.PV
    PB = tp.PB
    PX = tp.PX
    r0, r1 = root_states(tp, plan, i)
    for e in range(r0, r1):
        for j in range(TI[e, T_LEN]):
            kc = TI[e, T_LO] + j if bym else 0
            o = TI[e, T_OFF] + j
            PB[o] = G[kc]
            PX[o] &= X_EXISTS
            if PX[o] and Gex[kc]:
                PX[o] |= X_ALIVE
    s0 = plan.crange[i, 1]
    for s in range(s0 + plan.crange[i, 2] - 1, s0 - 1, -1):
        join_back(tp, plan.steps[s, 0], plan.steps[s, 1], plan.steps[s, 2], bym)
    code = 0
    t0 = plan.crange[i, 0]
    for t in range(t0, t0 + plan.crange[i, 2] + 1):
        b = plan.leafbox[t]
        s = fr.box[b, CB_SIZE]
        num = 0.0
        den = 0.0
        mmin = 9
        mmax = -1
        for e in range(tp.trange[t, 0], tp.trange[t, 1]):
            m = TI[e, T_LO]
            o = TI[e, T_OFF]  # a leaf state has one coefficient
            v = PV[o] * PB[o]
            num += m * v
            den += v
            if PX[o] & X_ALIVE:
                mmin = min(mmin, m)
                mmax = max(mmax, m)
        if mmax < 0:
            return 1
        fr.box[b, CB_DED] = 1 if mmax == 0 else (2 if mmin == s else 0)
        if den > 0.0:
            bprob[b] = num / (s * den)
        else:
            code = 2
            bprob[b] = np.nan
    return code

"""The tree DP: exact counting of one frontier component along a bucket tree.

For components whose linear (path) order keeps too many clues open, the boxes are
eliminated in a min-fill order (``treedec.py``) and counted bottom-up along its bucket
tree. A table is a set of states over a set T of boxes (a subtree): a state is the
number of mines T puts in every clue that is *open* at T (it has boxes inside and
outside T), 4 bits per clue in two int64 words, plus, when the mine total is known, the
mines T holds; its value is the total weight of T's layouts reaching it. So the tables
are sparse factors that keep only feasible assignments, keyed by what the rest of the
component can still see.

* A box's leaf table: m = 0..size mines, weight C(size, m) x^m.
* A join of two tables over disjoint box sets: every compatible pair of states (a clue
  both see gets at most its value, and can still reach it) gives the sum of their counts;
  a clue whose boxes are now all inside is *closed*: its count must equal its value and
  it leaves the key. Bucket v joins v's leaf with its children's messages in turn.
* The root's table (every clue closed) is the component's weight by mine count.
* Backward, each join hands its result's outside weights (the weight of every completion,
  times the caller's global factor of the component's mine count) and "alive" flags to
  both operands; at the leaves they give each box's expected mines and deduction.

Every table is rescaled by its maximum. States live in one pool with one hash table over
(table, key), kept until the backward pass.
"""
from collections import namedtuple

import numpy as np
from numba import njit

from .count_path import weights
from .frontier import CB_DED, CB_K, CB_NK, CB_SIZE, CK_B, CK_NB, CK_VAL

# int64 columns of a state
T_K0 = 0
T_K1 = 1
T_KC = 2  # mines inside the table's boxes (0 when the total is not used)
T_TAB = 3  # the table it belongs to
T_LO = 4  # fewest / most mines of the layouts reaching the state
T_HI = 5
T_ALIVE = 6
T_LEN = 7
# float64 columns
V_F = 0  # inside weight
V_B = 1  # outside weight
MAX_OPEN = 32  # open clues per table (two words of 4-bit counts)
MAX_CLOSE = 16  # clues closed by one join (one word)

#: The tables of one component: states (TI, TV), the hash table over (table, key) (tab,
#: entries are state + 1), the first free state (top); per table its first and last
#: state (trange), its open clues (tclue, ntc) with their cells inside (tin).
TreePool = namedtuple("TreePool", "TI TV tab top trange tclue ntc tin")


@njit(cache=True)
def new_tree_pool(ntables):
    cap = 1024 if ntables > 0 else 1  # (an analysis without wide components: no cost)
    return TreePool(np.empty((cap, T_LEN), np.int64), np.empty((cap, 2), np.float64),
                    np.zeros(2 * cap, np.int64), 0, np.zeros((ntables, 2), np.int64),
                    np.zeros((ntables, MAX_OPEN), np.int32), np.zeros(ntables, np.int32),
                    np.zeros((ntables, MAX_OPEN), np.int32))


@njit(cache=True, inline="always")
def _hash(t, k0, k1, kc, mask):
    h = np.uint64(k0) * np.uint64(0x9E3779B97F4A7C15)
    h ^= np.uint64(k1) * np.uint64(0xC2B2AE3D27D4EB4F) + np.uint64(kc) * np.uint64(0x165667B19E3779F9)
    h ^= np.uint64(t) * np.uint64(0xD6E8FEB86659FD93)
    h ^= h >> np.uint64(29)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(32)
    return np.int64(h & np.uint64(mask))


@njit(cache=True)
def _find(tp, t, k0, k1, kc):
    """The state of table ``t`` with this key, or -1."""
    TI = tp.TI
    mask = tp.tab.shape[0] - 1
    h = _hash(t, k0, k1, kc, mask)
    while tp.tab[h] != 0:
        j = tp.tab[h] - 1
        if TI[j, T_K0] == k0 and TI[j, T_K1] == k1 and TI[j, T_KC] == kc and TI[j, T_TAB] == t:
            return j
        h = (h + 1) & mask
    return -1


@njit(cache=True)
def _add(tp, t, k0, k1, kc, lo, hi, f):
    """Add weight ``f`` to the state (t, key), creating it. Returns the pool."""
    j = _find(tp, t, k0, k1, kc)
    if j >= 0:
        tp.TV[j, V_F] += f
        if lo < tp.TI[j, T_LO]:
            tp.TI[j, T_LO] = lo
        if hi > tp.TI[j, T_HI]:
            tp.TI[j, T_HI] = hi
        return tp
    TI = tp.TI
    TV = tp.TV
    tab = tp.tab
    top = tp.top
    if top + 1 > TI.shape[0]:
        TI2 = np.empty((2 * TI.shape[0], T_LEN), np.int64)
        TI2[:top] = TI[:top]
        TV2 = np.empty((2 * TV.shape[0], 2), np.float64)
        TV2[:top] = TV[:top]
        TI = TI2
        TV = TV2
    j = top
    TI[j, T_K0] = k0
    TI[j, T_K1] = k1
    TI[j, T_KC] = kc
    TI[j, T_TAB] = t
    TI[j, T_LO] = lo
    TI[j, T_HI] = hi
    TI[j, T_ALIVE] = 0
    TV[j, V_F] = f
    top += 1
    if 2 * top > tab.shape[0]:
        tab = np.zeros(2 * tab.shape[0], np.int64)
        for e in range(top):
            h = _hash(TI[e, T_TAB], TI[e, T_K0], TI[e, T_K1], TI[e, T_KC], tab.shape[0] - 1)
            while tab[h] != 0:
                h = (h + 1) & (tab.shape[0] - 1)
            tab[h] = e + 1
    else:
        mask = tab.shape[0] - 1
        h = _hash(t, k0, k1, kc, mask)
        while tab[h] != 0:
            h = (h + 1) & mask
        tab[h] = j + 1
    return TreePool(TI, TV, tab, top, tp.trange, tp.tclue, tp.ntc, tp.tin)


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
    tp.trange[t, 0] = tp.top
    for m in range(mlo, mhi + 1):
        k0 = np.int64(0)
        k1 = np.int64(0)
        for q in range(nt):
            if q < 16:
                k0 += np.int64(m) << (4 * q)
            else:
                k1 += np.int64(m) << (4 * (q - 16))
        tp = _add(tp, t, k0, k1, m if bym else 0, m, m, wt[m])
    tp.trange[t, 1] = tp.top
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
def _fits(ka, kb, shared, nsh):
    """Whether two re-keyed states agree on their shared open clues."""
    for q in range(nsh):
        s = shared[q, 0]
        c = _nib(ka[0], ka[1], s) + _nib(kb[0], kb[1], s)
        if c > shared[q, 1] or c + shared[q, 2] < shared[q, 1]:
            return False
    return True


@njit(cache=True)
def join(fr, tp, a, b, o, work):
    """Table ``o`` = the join of tables ``a`` and ``b``. ``work``: the most state pairs
    allowed. Returns (pool, status): 0 ok, 1 no compatible pair, 2 too wide or too much
    work."""
    dest, shared, valcl, nsh, ok = _plan(fr, tp, a, b, o)
    na = tp.trange[a, 1] - tp.trange[a, 0]
    nb = tp.trange[b, 1] - tp.trange[b, 0]
    if ok == 0 or na * nb > work:
        return tp, 2
    ra = _remap(tp, a, dest, 0)
    rb = _remap(tp, b, dest, 1)
    tp.trange[o, 0] = tp.top
    a0 = tp.trange[a, 0]
    b0 = tp.trange[b, 0]
    for i in range(na):
        for j in range(nb):
            if ra[i, 2] + rb[j, 2] != valcl or not _fits(ra[i], rb[j], shared, nsh):
                continue
            ea = a0 + i
            eb = b0 + j
            tp = _add(tp, o, ra[i, 0] + rb[j, 0], ra[i, 1] + rb[j, 1],
                      tp.TI[ea, T_KC] + tp.TI[eb, T_KC], tp.TI[ea, T_LO] + tp.TI[eb, T_LO],
                      tp.TI[ea, T_HI] + tp.TI[eb, T_HI], tp.TV[ea, V_F] * tp.TV[eb, V_F])
    tp.trange[o, 1] = tp.top
    if tp.top == tp.trange[o, 0]:
        return tp, 1
    fmax = 0.0
    for e in range(tp.trange[o, 0], tp.top):
        fmax = max(fmax, tp.TV[e, V_F])
    if fmax > 0.0:
        for e in range(tp.trange[o, 0], tp.top):
            tp.TV[e, V_F] /= fmax
    return tp, 0


@njit(cache=True)
def join_back(fr, tp, a, b, o):
    """Backward through ``o`` = join(a, b): the outside weights and alive flags of a's
    and b's states from o's (then each operand rescaled by its maximum)."""
    dest, shared, valcl, nsh, ok = _plan(fr, tp, a, b, o)
    ra = _remap(tp, a, dest, 0)
    rb = _remap(tp, b, dest, 1)
    a0 = tp.trange[a, 0]
    b0 = tp.trange[b, 0]
    na = tp.trange[a, 1] - a0
    nb = tp.trange[b, 1] - b0
    TI = tp.TI
    TV = tp.TV
    for e in range(a0, a0 + na):
        TV[e, V_B] = 0.0
        TI[e, T_ALIVE] = 0
    for e in range(b0, b0 + nb):
        TV[e, V_B] = 0.0
        TI[e, T_ALIVE] = 0
    for i in range(na):
        for j in range(nb):
            if ra[i, 2] + rb[j, 2] != valcl or not _fits(ra[i], rb[j], shared, nsh):
                continue
            ea = a0 + i
            eb = b0 + j
            e = _find(tp, o, ra[i, 0] + rb[j, 0], ra[i, 1] + rb[j, 1],
                      TI[ea, T_KC] + TI[eb, T_KC])
            bo = TV[e, V_B]
            TV[ea, V_B] += TV[eb, V_F] * bo
            TV[eb, V_B] += TV[ea, V_F] * bo
            if TI[e, T_ALIVE]:
                TI[ea, T_ALIVE] = 1
                TI[eb, T_ALIVE] = 1
    for t0, n in ((a0, na), (b0, nb)):
        m = 0.0
        for e in range(t0, t0 + n):
            m = max(m, TV[e, V_B])
        if m > 0.0:
            for e in range(t0, t0 + n):
                TV[e, V_B] /= m


#: Where each tree-counted component's tables and joins are: per table the box of a leaf
#: (-1 for a join), the joins as rows (a, b, o), and per component (first table, first
#: join, number of joins, root table); ``next`` holds the next free table and join.
TreePlan = namedtuple("TreePlan", "leafbox steps crange next")


@njit(cache=True)
def new_tree_plan(nbox, ncomp):
    return TreePlan(np.full(2 * nbox, -1, np.int32), np.zeros((max(nbox, 1), 3), np.int64),
                    np.zeros((max(ncomp, 1), 4), np.int64), np.zeros(2, np.int64))


@njit(cache=True)
def forward_tree(fr, i, x, bym, budget, tp, plan, elim_parent):
    """Count component ``i`` along the bucket tree ``elim_parent`` = (elim, parent) of
    ``treedec.elimination_tree``. Its states join the pool ``tp``. ``budget`` bounds the
    states kept (memory) and, times 64, the state pairs tried (time). Returns (pool,
    status): 0 ok, 1 no layout, 2 over budget or too wide."""
    elim, parent = elim_parent
    nb = elim.shape[0]
    t0 = plan.next[0]
    s0 = plan.next[1]
    plan.crange[i, 0] = t0
    plan.crange[i, 1] = s0
    plan.next[0] = t0 + 2 * nb  # its table ids, used or not (they are keys of the hash)
    top0 = tp.top
    cur = np.empty(nb, np.int64)
    for t in range(nb):
        plan.leafbox[t0 + t] = elim[t]
        tp, st = leaf(fr, tp, t0 + t, elim[t], x, bym)
        if st:
            return tp, 1
        cur[t] = t0 + t
    nt = t0 + nb
    ns = s0
    work = 64 * budget
    for t in range(nb):
        p = parent[t]
        if p < 0:
            continue
        a = cur[p]
        b = cur[t]
        na = tp.trange[a, 1] - tp.trange[a, 0]
        nbb = tp.trange[b, 1] - tp.trange[b, 0]
        work -= na * nbb
        tp, st = join(fr, tp, a, b, nt, max(work + na * nbb, 0))
        if st != 0:
            return tp, st
        if tp.top - top0 > budget or work < 0:
            return tp, 2
        plan.leafbox[nt] = -1
        plan.steps[ns, 0] = a
        plan.steps[ns, 1] = b
        plan.steps[ns, 2] = nt
        cur[p] = nt
        nt += 1
        ns += 1
    plan.crange[i, 2] = ns - s0
    plan.crange[i, 3] = cur[nb - 1]
    plan.next[1] = ns
    return tp, 0


@njit(cache=True)
def root_states(tp, plan, i):
    """(first, last) state of component ``i``'s root table: its weight by mine count."""
    r = plan.crange[i, 3]
    return tp.trange[r, 0], tp.trange[r, 1]


@njit(cache=True)
def backward_tree(fr, i, tp, plan, G, Gex, bprob):
    """Backward pass of tree-counted component ``i`` given the global factor ``G[k]`` of
    its mine count (``Gex[k]``: a feasible completion exists); as ``count_path.backward``:
    fills ``bprob`` and CB_DED of its boxes, returns 0 ok, 1 no feasible layout,
    2 the weights underflowed."""
    TI = tp.TI
    TV = tp.TV
    r0, r1 = root_states(tp, plan, i)
    for e in range(r0, r1):
        TV[e, V_B] = G[TI[e, T_KC]]
        TI[e, T_ALIVE] = Gex[TI[e, T_KC]]
    s0 = plan.crange[i, 1]
    for s in range(s0 + plan.crange[i, 2] - 1, s0 - 1, -1):
        join_back(fr, tp, plan.steps[s, 0], plan.steps[s, 1], plan.steps[s, 2])
    code = 0
    t0 = plan.crange[i, 0]
    t = t0
    nleaf = plan.crange[i, 2] + 1
    for t in range(t0, t0 + nleaf):
        b = plan.leafbox[t]
        s = fr.box[b, CB_SIZE]
        num = 0.0
        den = 0.0
        mmin = 9
        mmax = -1
        for e in range(tp.trange[t, 0], tp.trange[t, 1]):
            m = TI[e, T_LO]
            v = TV[e, V_F] * TV[e, V_B]
            num += m * v
            den += v
            if TI[e, T_ALIVE]:
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

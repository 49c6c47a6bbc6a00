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

Modules: ``tree_tables.py`` (the pool of states, leaves), ``tree_join.py`` (joins and
their backward pass), this one (the bucket tree: which tables to join when, and the
box marginals at the end). Every table is rescaled by its maximum.
"""
from collections import namedtuple

import numpy as np

from ..frontier import CB_DED, CB_K, CB_NK, CB_SIZE, span
from ...jit import njit
from .tree_join import join, join_back
from .tree_tables import T_LEN, T_LO, T_OFF, X_ALIVE, X_EXISTS, leaf, new_tree_pool

__all__ = ["TreePlan", "new_tree_plan", "new_tree_pool", "forward_tree", "root_states",
           "backward_tree"]


#: Where each tree-counted component's tables and joins are: per table the box of a leaf
#: (-1 for a join), the joins as rows (a, b, o), and per component (first table, first
#: join, number of joins, root table); ``next`` holds the next free table and join.
TreePlan = namedtuple("TreePlan", "leafbox steps crange next")


@njit(cache=True)
def new_tree_plan(nbox, ncomp):
    return TreePlan(np.full(2 * nbox, -1, np.int32), np.zeros((max(nbox, 1), 3), np.int64),
                    np.zeros((max(ncomp, 1), 4), np.int64), np.zeros(2, np.int64))


@njit(cache=True, inline="always")  # (per table: a call would pass the whole pool)
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
            return tp, st
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
            tp, st, done = join(fr, tp, (cur, b), nt, bym, (qmax, work, top0 + budget + 1))
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
        join_back(tp, (plan.steps[s, 0], plan.steps[s, 1]), plan.steps[s, 2], bym)
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

"""Exact endgame search: the reveal that wins the most mine layouts, playing optimally after.

Classic rules with the mine total told: every layout consistent with the knowledge is
equally likely, so a move's win probability is (layouts it wins) / (layouts). As in
D. Hill's JSMinesweeper "brute force deep analysis", when few layouts remain the whole
game tree is searched:

* ``layouts_enum.solutions`` lists the layouts (per layout and hidden cell: 9 for a
  mine, else the clue the cell would show), capped at ``max_solutions``.
* :func:`best_move` searches the game tree on that table. A node is the set of layouts
  still possible (a bitset); win(node) = 1 with one layout left; a cell safe in every
  layout of the node whose clue differs across them is revealed for free (the sum over
  its values: more information never hurts, so this is the max, and it is tested against
  the plain max); otherwise the max over cells that are a mine in some but not all
  layouts of the sum over shown values of win(child). Pruning is exact: a cell wins at
  most its safe layouts, cells are tried by fewest mines (most safe layouts) and a cell
  is dropped once its partial sum plus the layouts left to split cannot beat the best.
  A transposition table keyed by the full bitset (exact comparison) shares subtrees.
  Recursion is an explicit stack (one frame per move along the current line).
* Tests run both on a typed-in view through ``tests/views.py`` (``endgame_view``).
"""
import numpy as np
from numba import types
from numba.extending import intrinsic

from ...jit import njit
from .layouts_enum import MINE

NVAL = 9  # clue values 0..8
TT_WORDS = 1 << 23  # the transposition table's keys: at most this many uint64 (64 MB)


@intrinsic
def _popcount(typingctx, x):
    """Number of set bits of integer ``x`` (one ``popcnt``)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@njit(cache=True, inline="always")
def _tt_slot(keys, used, node, cap):
    """The slot of ``node`` in the transposition table (linear probing from its hash):
    the slot holding it, or the first empty one."""
    nw = node.shape[0]
    h = np.uint64(0)
    for i in range(nw):
        h = (h ^ node[i]) * np.uint64(0x9E3779B97F4A7C15)
        h ^= h >> np.uint64(29)
    s = np.int64(h & np.uint64(cap - 1))
    while used[s]:
        same = True
        for i in range(nw):
            if keys[s, i] != node[i]:
                same = False
                break
        if same:
            return s
        s = (s + 1) & (cap - 1)
    return s


@njit(cache=True)
def _tt_grow(keys, vals, used, cap):
    """The table's entries rehashed into one of twice the capacity."""
    k2 = np.zeros((2 * cap, keys.shape[1]), np.uint64)
    v2 = np.zeros(2 * cap, np.int64)
    u2 = np.zeros(2 * cap, np.bool_)
    for s in range(cap):
        if used[s]:
            t = _tt_slot(k2, u2, keys[s], 2 * cap)
            k2[t] = keys[s]
            v2[t] = vals[s]
            u2[t] = True
    return k2, v2, u2


@njit(cache=True)
def _frame(d, node, cnt, M, V, nc, root, order, mode, curj, vi, sm, rem, best, bestj):
    """Set up the frame of depth ``d`` for ``node`` (``cnt`` layouts, at least 2): a free
    reveal (the lowest candidate safe in every layout whose clue differs across them;
    not at the root, where every splitting cell is an option) or the max over the cells,
    ordered by fewest mines then index. Returns the number of cells to try."""
    nw = node.shape[0]
    no = 0
    for i in range(nc):
        mi = 0
        for w in range(nw):
            mi += _popcount(node[w] & M[i, w])
        if mi == 0:
            split = False
            for v in range(NVAL):
                cv = 0
                for w in range(nw):
                    cv += _popcount(node[w] & V[i, v, w])
                if 0 < cv < cnt:
                    split = True
                    break
            if not split:
                continue
            if not root:
                mode[d] = 0
                curj[d] = i
                vi[d] = 0
                sm[d] = 0
                rem[d] = cnt
                return 1
        elif mi >= cnt:
            continue
        order[d, no] = mi * nc + i
        no += 1
    if no == 0:
        raise ValueError("table: rows must be distinct layouts")
    order[d, :no] = np.sort(order[d, :no])
    mode[d] = 1
    curj[d] = order[d, 0] % nc
    vi[d] = 0
    sm[d] = 0
    rem[d] = cnt - order[d, 0] // nc
    best[d] = 0
    bestj[d] = -1
    return no


@njit(cache=True)
def best_move(table, node_budget):
    """The root move of most winning layouts on ``table`` (from ``layouts_enum.solutions``).

    Returns (j, wins, nodes): ``j`` the column (index into ``cells``) to reveal, ``wins``
    the layouts it wins with optimal play after, ``nodes`` the nodes expanded. Ties:
    fewer mines among the layouts, then lower j. More than ``node_budget`` expansions:
    j = -1 (no partial answer). One layout: the lowest safe column (-1 if none), wins 1.

    >>> import numpy as np
    >>> t = np.array([[9, 1], [1, 9]], np.int8)  # a 50:50: two layouts, one cell each
    >>> best_move(t, 100)
    (0, 1, 1)
    """
    nsol, nh = table.shape
    if nsol < 1:
        raise ValueError("table: needs at least one layout")
    if node_budget < 1:
        raise ValueError("node_budget: must be at least 1")
    if nsol == 1:
        for j in range(nh):
            if table[0, j] != MINE:
                return j, 1, 0
        return -1, 1, 0
    nw = (nsol + 63) // 64
    # candidate cells: those that split the root (every later split is one of them)
    cj = np.empty(nh, np.int64)
    nc = 0
    for j in range(nh):
        first = table[0, j]
        for s in range(1, nsol):
            if table[s, j] != first:
                cj[nc] = j
                nc += 1
                break
    M = np.zeros((nc, nw), np.uint64)
    V = np.zeros((nc, NVAL, nw), np.uint64)
    for i in range(nc):
        for s in range(nsol):
            bit = np.uint64(1) << np.uint64(s & 63)
            x = table[s, cj[i]]
            if x == MINE:
                M[i, s >> 6] |= bit
            else:
                V[i, x, s >> 6] |= bit
    depth = nc + 2  # a line of play reveals each candidate at most once
    nodes_ = np.zeros((depth, nw), np.uint64)
    for s in range(nsol):
        nodes_[0, s >> 6] |= np.uint64(1) << np.uint64(s & 63)
    cnt = np.zeros(depth, np.int64)
    order = np.zeros((depth, max(nc, 1)), np.int64)
    nord = np.zeros(depth, np.int64)
    ci = np.zeros(depth, np.int64)
    mode = np.zeros(depth, np.int64)
    curj = np.zeros(depth, np.int64)
    vi = np.zeros(depth, np.int64)
    sm = np.zeros(depth, np.int64)
    rem = np.zeros(depth, np.int64)
    best = np.zeros(depth, np.int64)
    bestj = np.zeros(depth, np.int64)
    # transposition table: full keys; it doubles from 1024 slots (a small search
    # allocates little) up to a fixed capacity (2 x the budget, at most TT_WORDS keys'
    # words), then takes no more entries once 3/4 full
    maxcap = 1024
    while maxcap < 2 * node_budget and 2 * maxcap * nw <= TT_WORDS:
        maxcap *= 2
    cap = 1024
    keys = np.zeros((cap, nw), np.uint64)
    vals = np.zeros(cap, np.int64)
    used = np.zeros(cap, np.bool_)
    stored = 0
    child = np.empty(nw, np.uint64)
    nodes = 1
    cnt[0] = nsol
    nord[0] = _frame(0, nodes_[0], nsol, M, V, nc, True, order, mode, curj, vi, sm, rem,
                     best, bestj)
    ci[0] = 0
    d = 0
    while True:
        # next child of frame d, or its value when it has none left
        pushed = False
        while True:
            if vi[d] >= NVAL:  # the current cell is done (or dropped)
                if mode[d] == 0:
                    break
                if sm[d] > best[d]:
                    best[d] = sm[d]
                    bestj[d] = curj[d]
                ci[d] += 1
                if ci[d] >= nord[d]:
                    break
                key = order[d, ci[d]]
                if cnt[d] - key // nc <= best[d]:  # no later cell can beat the best
                    break
                curj[d] = key % nc
                vi[d] = 0
                sm[d] = 0
                rem[d] = cnt[d] - key // nc
                continue
            v = vi[d]
            vi[d] += 1
            i = curj[d]
            c = 0
            for w in range(nw):
                child[w] = nodes_[d, w] & V[i, v, w]
                c += _popcount(child[w])
            if c == 0:
                continue
            rem[d] -= c
            if c == 1:
                val = 1
            else:
                s = _tt_slot(keys, used, child, cap)
                if used[s]:
                    val = vals[s]
                else:
                    nodes += 1
                    if nodes > node_budget:
                        return -1, 0, nodes
                    d += 1
                    nodes_[d] = child
                    cnt[d] = c
                    nord[d] = _frame(d, child, c, M, V, nc, False, order, mode, curj, vi,
                                     sm, rem, best, bestj)
                    ci[d] = 0
                    pushed = True
                    break
            sm[d] += val
            if mode[d] == 1 and sm[d] + rem[d] <= best[d]:
                vi[d] = NVAL  # cannot beat the best: drop the cell
        if pushed:
            continue
        # frame d is done: its value goes to the parent
        r = sm[d] if mode[d] == 0 else best[d]
        if d == 0:
            return cj[bestj[0]], r, nodes
        if stored * 4 >= cap * 3 and cap < maxcap:
            keys, vals, used = _tt_grow(keys, vals, used, cap)
            cap *= 2
        if stored * 4 < cap * 3:
            s = _tt_slot(keys, used, nodes_[d], cap)
            if not used[s]:
                used[s] = True
                keys[s] = nodes_[d]
                vals[s] = r
                stored += 1
        d -= 1
        sm[d] += r
        if mode[d] == 1 and sm[d] + rem[d] <= best[d]:
            vi[d] = NVAL


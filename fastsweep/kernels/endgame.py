"""Exact endgame search: the reveal that wins the most mine layouts, playing optimally after.

Classic rules with the mine total told: every layout consistent with the knowledge is
equally likely, so a move's win probability is (layouts it wins) / (layouts). As in
D. Hill's JSMinesweeper "brute force deep analysis", when few layouts remain the whole
game tree is searched:

* :func:`solutions` lists the layouts: a frontier search (hidden cells a clue touches,
  each clue's mines still to place kept between 0 and its unassigned cells) times every
  choice of the remaining mines among the hidden cells no clue touches. It first counts
  (the off-frontier combinations by binomials, saturated at the cap) and stops as soon
  as the count exceeds ``max_solutions``, so a huge position costs little. The table
  holds, per layout and hidden cell, 9 for a mine, else the clue the cell would show.
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
* :func:`endgame_view` is both on a typed-in view (tests, measurements).
"""
import numpy as np
from numba import njit, types
from numba.extending import intrinsic

from .env import mines_left, mines_left_known, nb_mines, ncells, new_state, status, word
from .env import w_is_clue
from .layout import C_KMINES, F_NBR, F_NNB, HIDDEN
from .view import fill_state

MINE = 9  # a table entry: the cell is a mine in that layout
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


@njit(cache=True)
def _binom_row(u, top, cap):
    """C(u, r) for r = 0..top, each saturated at cap + 1 (Pascal's rule, no overflow)."""
    row = np.zeros(top + 1, np.int64)
    row[0] = 1
    for i in range(1, u + 1):
        for r in range(min(i, top), 0, -1):
            row[r] = min(row[r] + row[r - 1], cap + 1)
    return row


@njit(cache=True)
def _frontier_order(fr, cl_of, cl_cells, ncl_cells):
    """An order of the frontier cells that completes clues early: next, the lowest
    unordered cell of the started clue with the fewest unordered cells (none started:
    the lowest unordered cell), so the DFS's clue checks prune near the top."""
    m = fr.shape[0]
    ncl = ncl_cells.shape[0]
    left = ncl_cells.copy()
    started = np.zeros(ncl, np.bool_)
    done = np.zeros(m, np.bool_)
    order = np.empty(m, np.int64)
    for t in range(m):
        pick = -1
        bestleft = 1 << 30
        for q in range(ncl):
            if started[q] and 0 < left[q] < bestleft:
                for k in range(ncl_cells[q]):
                    x = cl_cells[q, k]
                    if not done[x]:
                        pick = x
                        bestleft = left[q]
                        break
        if pick < 0:
            for x in range(m):
                if not done[x]:
                    pick = x
                    break
        done[pick] = True
        order[t] = pick
        for k in range(8):
            q = cl_of[pick, k]
            if q >= 0:
                left[q] -= 1
                started[q] = True
    return order


@njit(cache=True)
def _frontier_dfs(order, cl_of, need0, rem0, lmines, u, binom, cap, fill, fmines, table,
                  offpos):
    """Every frontier assignment agreeing with the clues, in a fixed order (safe before
    mine, cells in ``order``). Count mode (``fill`` False): return the layouts, or -1 as
    soon as they exceed ``cap``. Fill mode: write each layout's mines (9) into ``table``
    (frontier cell x at column ``fmines[x]``, off-frontier cells at ``offpos``), one row
    per choice of the remaining mines among the ``u`` off-frontier cells, in
    lexicographic order; return the rows written."""
    m = order.shape[0]
    need = need0.copy()
    rem = rem0.copy()
    for q in range(need.shape[0]):
        if need[q] < 0 or need[q] > rem[q]:
            return 0
    val = np.full(m + 1, -1, np.int64)
    total = 0
    k = 0  # frontier mines placed
    comb = np.empty(max(lmines, 1), np.int64)
    d = 0
    while d >= 0:
        if d == m:
            r = lmines - k
            if 0 <= r <= u:
                if not fill:
                    total += binom[r]
                    if total > cap:
                        return -1
                else:
                    for i in range(r):
                        comb[i] = i
                    while True:  # every r-subset of the off-frontier cells
                        row = table[total]
                        for t in range(m):
                            if val[t] == 1:
                                row[fmines[order[t]]] = MINE
                        for i in range(r):
                            row[offpos[comb[i]]] = MINE
                        total += 1
                        i = r - 1
                        while i >= 0 and comb[i] == u - r + i:
                            i -= 1
                        if i < 0:
                            break
                        comb[i] += 1
                        for j in range(i + 1, r):
                            comb[j] = comb[j - 1] + 1
            d -= 1
            continue
        x = order[d]
        v = val[d]
        if v >= 0:  # undo the previous value of this depth
            k -= v
            for t in range(8):
                q = cl_of[x, t]
                if q >= 0:
                    need[q] += v
                    rem[q] += 1
        if v == 1:
            val[d] = -1
            d -= 1
            continue
        v += 1
        val[d] = v
        k += v
        ok = k <= lmines and k + (m - d - 1) + u >= lmines
        for t in range(8):
            q = cl_of[x, t]
            if q >= 0:
                need[q] -= v
                rem[q] -= 1
                if need[q] < 0 or need[q] > rem[q]:
                    ok = False
        if ok:
            d += 1
            val[d] = -1
    return total


@njit(cache=True)
def solutions(S, max_solutions):
    """The mine layouts consistent with knowledge ``S`` (classic rules, total told).

    Returns (count, cells, table): ``cells`` the hidden cells in increasing index;
    ``table`` int8 (count, len(cells)), per layout and cell 9 for a mine, else the clue it
    would show (known-mine neighbours plus the layout's). More than ``max_solutions``
    layouts: count -1 and an empty table (found without listing them). Inconsistent
    knowledge: count 0."""
    n = ncells(S)
    if S[n, C_KMINES] < 0:
        raise ValueError("S: the mine total must be told (S[ncells(S), C_KMINES] >= 0)")
    if max_solutions < 1:
        raise ValueError("max_solutions: must be at least 1")
    lmines = mines_left_known(S)
    col = np.full(n, -1, np.int64)
    nh = 0
    for c in range(n):
        if status(S, c) == HIDDEN:
            col[c] = nh
            nh += 1
    cells = np.empty(nh, np.int64)
    for c in range(n):
        if col[c] >= 0:
            cells[col[c]] = c
    # clues: revealed cells with a usable clue; one with no hidden neighbour must be 0
    clue_id = np.full(n, -1, np.int64)
    ncl = 0
    bad = lmines < 0 or lmines > nh
    for c in range(n):
        w = word(S, c)
        if w_is_clue(w):
            h = 0
            for k in range(S[c, F_NNB]):
                if col[S[c, F_NBR + k]] >= 0:
                    h += 1
            if h > 0:
                clue_id[c] = ncl
                ncl += 1
            elif mines_left(w) != 0:
                bad = True
    if bad:
        return 0, cells, np.zeros((0, nh), np.int8)
    # frontier cells (a clue touches them) and their clues
    fidx = np.full(nh, -1, np.int64)
    m = 0
    for j in range(nh):
        c = cells[j]
        for k in range(S[c, F_NNB]):
            if clue_id[S[c, F_NBR + k]] >= 0:
                fidx[j] = m
                m += 1
                break
    u = nh - m
    fcol = np.empty(m, np.int64)  # frontier cell -> table column
    offpos = np.empty(u, np.int64)  # off-frontier cell -> table column
    a = 0
    for j in range(nh):
        if fidx[j] >= 0:
            fcol[fidx[j]] = j
        else:
            offpos[a] = j
            a += 1
    cl_of = np.full((max(m, 1), 8), -1, np.int64)
    cl_cells = np.full((max(ncl, 1), 8), -1, np.int64)
    ncl_cells = np.zeros(ncl, np.int64)
    need = np.zeros(ncl, np.int64)
    for c in range(n):
        q = clue_id[c]
        if q >= 0:
            need[q] = mines_left(word(S, c))
            for k in range(S[c, F_NNB]):
                j = col[S[c, F_NBR + k]]
                if j >= 0:
                    x = fidx[j]
                    cl_cells[q, ncl_cells[q]] = x
                    ncl_cells[q] += 1
                    t = 0
                    while cl_of[x, t] >= 0:
                        t += 1
                    cl_of[x, t] = q
    order = _frontier_order(fcol, cl_of, cl_cells, ncl_cells)
    binom = _binom_row(u, max(lmines, 0), max_solutions)
    empty = np.zeros((0, nh), np.int8)
    count = _frontier_dfs(order, cl_of, need, ncl_cells, lmines, u, binom, max_solutions,
                          False, fcol, empty, offpos)
    if count <= 0:
        return count, cells, empty
    table = np.zeros((count, nh), np.int8)
    _frontier_dfs(order, cl_of, need, ncl_cells, lmines, u, binom, max_solutions, True,
                  fcol, table, offpos)
    # the clue each safe cell would show: known-mine neighbours plus the layout's mines
    base = np.empty(nh, np.int64)
    hn = np.full((nh, 8), -1, np.int64)
    for j in range(nh):
        c = cells[j]
        base[j] = nb_mines(S, c)
        t = 0
        for k in range(S[c, F_NNB]):
            jj = col[S[c, F_NBR + k]]
            if jj >= 0:
                hn[j, t] = jj
                t += 1
    for s in range(count):
        row = table[s]
        for j in range(nh):
            if row[j] != MINE:
                v = base[j]
                for t in range(8):
                    jj = hn[j, t]
                    if jj < 0:
                        break
                    if row[jj] == MINE:
                        v += 1
                row[j] = v
    return count, cells, table


@njit(cache=True)
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
    """The root move of most winning layouts on ``table`` (from :func:`solutions`).

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


@njit(cache=True)
def endgame_view(v, mines, max_solutions, node_budget):
    """:func:`solutions` and :func:`best_move` on view ``v`` (int8 H x W: -1 hidden, -2
    known mine, 0..8 a clue), told the mine total ``mines``. Returns (row, col, wins,
    count): count -1 (and the rest -1) over ``max_solutions`` layouts; row = col = wins
    = -1 over ``node_budget``.

    >>> import numpy as np
    >>> v = np.array([[-1, 1], [-1, 1]], np.int8)  # one mine on the left: a 50:50
    >>> endgame_view(v, 1, 100, 100)
    (0, 0, 1, 2)
    """
    h, w = v.shape
    for r in range(h):
        for c in range(w):
            if v[r, c] < -2 or v[r, c] > 8:
                raise ValueError("v: each value must be -2 (known mine), -1 (hidden) or 0..8")
    S = new_state(h, w)
    code, _, known, hidden = fill_state(v, S)
    if code != 0:
        raise ValueError("v: a clue is larger than its neighbours, smaller than its known "
                         "mines or needs more mines than its hidden neighbours")
    if mines < known or mines > known + hidden:
        raise ValueError("mines: must be between the known mines and known + hidden cells")
    S[h * w, C_KMINES] = mines
    count, cells, table = solutions(S, max_solutions)
    if count < 0:
        return -1, -1, -1, -1
    if count == 0:
        raise ValueError("v: no mine layout agrees with the view and mines")
    j, wins, _ = best_move(table, node_budget)
    if j < 0:
        return -1, -1, -1 if count > 1 else 1, count
    return cells[j] // w, cells[j] % w, wins, count

"""Every mine layout consistent with the knowledge, as a table (for the endgame search).

:func:`solutions` lists the layouts of a position whose mine total is told: a frontier
search (hidden cells a clue touches, each clue's mines still to place kept between 0 and
its unassigned cells) times every choice of the remaining mines among the hidden cells no
clue touches. It first counts (the off-frontier combinations by binomials, saturated at
the cap) and stops as soon as the count exceeds ``max_solutions``, so a huge position
costs little. The table holds, per layout and hidden cell, ``MINE`` (9) for a mine, else
the clue the cell would show. ``endgame.py`` searches the game tree on it.
"""
import numpy as np

from ...engine.env import mines_left, mines_left_known, nb_mines, ncells, status, word
from ...engine.env import w_is_clue
from ...jit import njit
from ...engine.layout import C_KMINES, F_NBR, F_NNB, HIDDEN

MINE = 9  # a table entry: the cell is a mine in that layout


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

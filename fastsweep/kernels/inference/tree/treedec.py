"""Tree decompositions of a frontier component: a min-fill elimination order over its clues.

The tree DP of ``count_tree.py`` keys its tables by the mine counts of the clues that are
still open (some of their boxes inside the table, some outside), so its width is counted
in clues: two clues interact when they share a box. Eliminating the clues one at a time,
each time joining the remaining neighbours of the eliminated clue into a clique ("fill"),
gives the order in which the DP closes them: at clue k's turn it joins every table that
still has k open, which closes k; the result stays open only on k's remaining neighbours.
The largest neighbour set is the width of the order (an upper bound on the treewidth of
the clue graph). The path DP of ``count_path.py`` instead pays for every clue open across
a cut of one linear order of the boxes, which grows much faster on branching frontiers.

Min-fill (eliminate the box whose neighbours need the fewest new edges; ties: fewest
neighbours, then the earliest box) is the usual greedy heuristic for narrow orders.
Neighbour sets are bitsets, so a step costs O(boxes x degree x words).
"""
import numpy as np

from ..frontier import CB_K, CB_NK, component_clues, span
from ...jit import njit


@njit(cache=True, inline="always")
def _popcount(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True)
def _members(row, out):
    """The set bits of bitset ``row`` (uint64 words) as indices into ``out``; returns
    their number."""
    n = 0
    for w in range(row.shape[0]):
        m = row[w]
        while m:
            low = m & (~m + np.uint64(1))
            out[n] = w * 64 + _popcount(low - np.uint64(1))
            n += 1
            m ^= low
    return n


@njit(cache=True)
def _fill(adj, alive, v, idx):
    """Edges missing among the alive neighbours of ``v`` (each pair counted twice) and
    the number of those neighbours; ``idx`` is scratch (64 x words ints)."""
    words = adj.shape[1]
    deg = 0
    miss = 0
    for w in range(words):
        deg += _popcount(adj[v, w] & alive[w])
    for j in range(_members(adj[v] & alive, idx)):
        u = idx[j]
        cnt = 0
        for w2 in range(words):
            cnt += _popcount(adj[v, w2] & alive[w2] & ~adj[u, w2])
        miss += cnt - 1  # u itself is in v's set but not in its own
    return miss, deg


@njit(cache=True)
def min_fill(adj):
    """Min-fill elimination order of the graph with bitset adjacency ``adj`` (n x words,
    symmetric, no self loops; modified). Returns (order, width): vertex indices in
    elimination order, and the most neighbours a vertex had when eliminated."""
    nb = adj.shape[0]
    words = adj.shape[1]
    alive = np.zeros(words, np.uint64)
    for j in range(nb):
        alive[j >> 6] |= np.uint64(1) << np.uint64(j & 63)
    fill = np.empty(nb, np.int64)
    deg = np.empty(nb, np.int64)
    idx = np.empty(64 * words, np.int64)
    sc = np.empty(64 * words, np.int64)  # _fill's own scratch (idx is iterated over it)
    for j in range(nb):
        fill[j], deg[j] = _fill(adj, alive, j, sc)
    nbrs = np.zeros(words, np.uint64)
    elim = np.empty(nb, np.int32)
    dirty = np.zeros(words, np.uint64)
    width = 0
    for t in range(nb):
        best = -1
        for j in range(nb):
            if (alive[j >> 6] >> np.uint64(j & 63)) & np.uint64(1) == 0:
                continue
            if best < 0 or fill[j] < fill[best] or (fill[j] == fill[best] and deg[j] < deg[best]):
                best = j
        v = best
        elim[t] = v
        alive[v >> 6] &= ~(np.uint64(1) << np.uint64(v & 63))
        for w in range(words):
            nbrs[w] = adj[v, w] & alive[w]
        if deg[v] > width:
            width = deg[v]
        # the neighbours become a clique; their fill (and their neighbours') changes
        for w in range(words):
            dirty[w] = nbrs[w]
        nn = _members(nbrs, idx)
        for j in range(nn):
            u = idx[j]
            for w2 in range(words):
                adj[u, w2] |= nbrs[w2]
            adj[u, u >> 6] &= ~(np.uint64(1) << np.uint64(u & 63))
        for j in range(nn):
            u = idx[j]
            for w2 in range(words):
                dirty[w2] |= adj[u, w2] & alive[w2]
        for j in range(_members(dirty, idx)):
            u = idx[j]
            fill[u], deg[u] = _fill(adj, alive, u, sc)
    return elim, width


#: Bytes of the clue graph's bitsets allowed per unit of the work budget: its n x n bits
#: (and min-fill's time, which grows faster still) follow the square of the component's
#: clues, so a component of more than sqrt(256 x budget) clues (16,384 at the default
#: budget) is over the budget before any table is made.
ORDER_BYTES = 32


@njit(cache=True)
def clue_order(fr, i, cpos, budget):
    """Min-fill elimination order of the clues of component ``i`` (two clues interact
    when they share a box). Writes each clue's position into ``cpos`` (int32, at least
    ``fr.ncon``). Returns (clues in order, width); width -1 (and no order) when the clue
    graph would take more than ORDER_BYTES x ``budget`` bytes."""
    b0, nb, _ = span(fr, i)
    box = fr.box
    # the component's clues, numbered locally in first-seen order
    clues = component_clues(fr, i, cpos)
    nk = clues.shape[0]
    words = (nk + 63) // 64
    if nk * words * 8 > ORDER_BYTES * budget:
        return np.empty(0, np.int32), -1
    adj = np.zeros((nk, words), np.uint64)
    for j in range(nb):
        b = fr.order[b0 + j]
        for q in range(box[b, CB_NK]):
            u = cpos[box[b, CB_K + q]]
            for r in range(box[b, CB_NK]):
                v = cpos[box[b, CB_K + r]]
                if u != v:
                    adj[u, v >> 6] |= np.uint64(1) << np.uint64(v & 63)
    elim, width = min_fill(adj)
    out = np.empty(nk, np.int32)
    for t in range(nk):
        out[t] = clues[elim[t]]
        cpos[out[t]] = t
    return out, width

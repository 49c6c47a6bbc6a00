"""Tree decompositions of a frontier component: a min-fill elimination order over its boxes.

Two boxes interact when they share a clue. Eliminating the boxes one at a time, each
time joining the remaining neighbours of the eliminated box into a clique ("fill"),
gives a bucket tree: box v's bucket sends its message to the bucket of the first box
eliminated after v among those neighbours. The largest neighbour set is the width of the
order, an upper bound on the treewidth; the tree DP of ``count_tree.py`` costs roughly
(number of consistent assignments of a width-sized box set) per bucket, where the path DP
of ``count_path.py`` pays for every clue open across a cut of a linear order.

Min-fill (eliminate the box whose neighbours need the fewest new edges; ties: fewest
neighbours, then the earliest box) is the usual greedy heuristic for narrow orders.
Neighbour sets are bitsets, so a step costs O(boxes x degree x words).
"""
import numpy as np
from numba import njit

from .frontier import CB_K, CB_NK, CK_B, CK_NB, span


@njit(cache=True, inline="always")
def _popcount(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True)
def _fill(adj, alive, v, words):
    """Edges missing among the alive neighbours of ``v`` (each pair counted twice) and
    the number of those neighbours."""
    deg = 0
    miss = 0
    for w in range(words):
        deg += _popcount(adj[v, w] & alive[w])
    for w in range(words):
        m = adj[v, w] & alive[w]
        while m:
            low = m & (~m + np.uint64(1))
            u = w * 64 + _popcount(low - np.uint64(1))
            m ^= low
            cnt = 0
            for w2 in range(words):
                cnt += _popcount(adj[v, w2] & alive[w2] & ~adj[u, w2])
            miss += cnt - 1  # u itself is in v's set but not in its own
    return miss, deg


@njit(cache=True)
def elimination_tree(fr, i, loc):
    """Min-fill elimination order of component ``i`` of frontier ``fr`` and its bucket tree.

    ``loc`` (int32, at least ``fr.nbox``) is scratch. Returns (elim, parent, width):
    ``elim[t]`` the box eliminated t-th, ``parent[t]`` the position of the bucket that
    receives its message (-1 for the last, the root), ``width`` the largest number of
    neighbours a box had when it was eliminated.
    """
    b0, nb, _ = span(fr, i)
    box = fr.box
    con = fr.con
    for j in range(nb):
        loc[fr.order[b0 + j]] = j
    words = (nb + 63) // 64
    adj = np.zeros((nb, words), np.uint64)
    for j in range(nb):
        b = fr.order[b0 + j]
        for q in range(box[b, CB_NK]):
            k = box[b, CB_K + q]
            for r in range(con[k, CK_NB]):
                u = loc[con[k, CK_B + r]]
                if u != j:
                    adj[j, u >> 6] |= np.uint64(1) << np.uint64(u & 63)
    alive = np.zeros(words, np.uint64)
    for j in range(nb):
        alive[j >> 6] |= np.uint64(1) << np.uint64(j & 63)
    fill = np.empty(nb, np.int64)
    deg = np.empty(nb, np.int64)
    for j in range(nb):
        fill[j], deg[j] = _fill(adj, alive, j, words)
    nbrs = np.zeros((nb, words), np.uint64)
    pos = np.empty(nb, np.int64)
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
        elim[t] = fr.order[b0 + v]
        pos[v] = t
        alive[v >> 6] &= ~(np.uint64(1) << np.uint64(v & 63))
        for w in range(words):
            nbrs[v, w] = adj[v, w] & alive[w]
        if deg[v] > width:
            width = deg[v]
        # the neighbours become a clique; their fill (and their neighbours') changes
        for w in range(words):
            dirty[w] = nbrs[v, w]
        for w in range(words):
            m = nbrs[v, w]
            while m:
                low = m & (~m + np.uint64(1))
                u = w * 64 + _popcount(low - np.uint64(1))
                m ^= low
                for w2 in range(words):
                    adj[u, w2] |= nbrs[v, w2]
                adj[u, u >> 6] &= ~(np.uint64(1) << np.uint64(u & 63))
        for w in range(words):
            m = nbrs[v, w]
            while m:
                low = m & (~m + np.uint64(1))
                u = w * 64 + _popcount(low - np.uint64(1))
                m ^= low
                for w2 in range(words):
                    dirty[w2] |= adj[u, w2] & alive[w2]
        for w in range(words):
            m = dirty[w]
            while m:
                low = m & (~m + np.uint64(1))
                u = w * 64 + _popcount(low - np.uint64(1))
                m ^= low
                fill[u], deg[u] = _fill(adj, alive, u, words)
    parent = np.full(nb, -1, np.int32)
    for j in range(nb):
        p = nb
        for w in range(words):
            m = nbrs[j, w]
            while m:
                low = m & (~m + np.uint64(1))
                u = w * 64 + _popcount(low - np.uint64(1))
                m ^= low
                if pos[u] < p:
                    p = pos[u]
        if p < nb:
            parent[pos[j]] = p
    return elim, parent, width

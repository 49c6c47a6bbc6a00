"""An upper bound on any policy's classic win rate from unavoidable swap pairs.

Throwaway research script behind the design notes' item "How much of a row's loss no
policy can avoid" (docs/DESIGN.md). Not part of the package, not tested by CI.

Two layouts L, L' are a swap pair when they differ only in one mine moved from cell a to
cell b (both outside the opening's mine-free cells) and every other cell next to exactly
one of a, b is a mine. Until a policy clicks a or b, every clue, cascade and the mine
counter read the same in L and L', so it clicks the same one of them first in both: a mine
in one. So it wins at most one of each pair, its won layouts are an independent set of
the pair graph G, and its loss is at least G's minimum vertex cover over the number of
layouts, at least any fractional matching's: the edge weight 1 / max(deg L, deg L') is
one. Averaged over uniformly drawn layouts this is

    loss >= E_L[ 1/2 sum over L' paired with L of 1 / max(deg L, deg L') ],

estimated here with its 95% half-width (the draws are independent).

    python pair_bound.py H W MINES safe|zero ROW COL GAMES
    python pair_bound.py 9 9 10 zero 2 2 100000
"""
import sys
import time

import numba as nb
import numpy as np


@nb.njit(cache=True)
def neighbours(h, w):
    out = -np.ones((h * w, 8), np.int64)
    cnt = np.zeros(h * w, np.int64)
    for r in range(h):
        for c in range(w):
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    rr, cc = r + dr, c + dc
                    if (dr or dc) and 0 <= rr < h and 0 <= cc < w:
                        out[r * w + c, cnt[r * w + c]] = rr * w + cc
                        cnt[r * w + c] += 1
    return out, cnt


@nb.njit(cache=True)
def _adjacent(nbr, cnt, a, b):
    for k in range(cnt[a]):
        if nbr[a, k] == b:
            return True
    return False


@nb.njit(cache=True)
def _one_sided_all_mines(mine, nbr, cnt, a, b):
    """Every cell other than a, b next to exactly one of them is a mine."""
    for x, y in ((a, b), (b, a)):
        for k in range(cnt[x]):
            c = nbr[x, k]
            if c != y and not mine[c] and not _adjacent(nbr, cnt, y, c):
                return False
    return True


@nb.njit(cache=True)
def pairs(mine, free, nbr, cnt, out):
    """The swap pairs (mine a, safe b) of layout ``mine`` into ``out``; their number."""
    n = mine.size
    k = 0
    for a in range(n):
        if mine[a] and not free[a]:
            for b in range(n):
                if not mine[b] and not free[b] and _one_sided_all_mines(mine, nbr, cnt, a, b):
                    out[k, 0], out[k, 1] = a, b
                    k += 1
    return k


@nb.njit(cache=True)
def loss_bound_terms(h, w, m, free, games, seed):
    """Per drawn layout: its share of the fractional matching, and whether it has a pair."""
    np.random.seed(seed)
    nbr, cnt = neighbours(h, w)
    n = h * w
    cells = np.array([i for i in range(n) if not free[i]])
    out = np.zeros((n * n, 2), np.int64)
    out2 = np.zeros((n * n, 2), np.int64)
    xs = np.zeros(games)
    has = np.zeros(games, np.bool_)
    for g in range(games):
        mine = np.zeros(n, np.bool_)
        perm = np.random.permutation(cells)
        for i in range(m):
            mine[perm[i]] = True
        d = pairs(mine, free, nbr, cnt, out)
        has[g] = d > 0
        for e in range(d):
            a, b = out[e, 0], out[e, 1]
            mine[a], mine[b] = False, True
            d2 = pairs(mine, free, nbr, cnt, out2)
            mine[a], mine[b] = True, False
            xs[g] += 0.5 / max(d, d2)
    return xs, has


def free_cells(h, w, rule, cell):
    f = np.zeros(h * w, np.bool_)
    r0, c0 = cell
    span = 0 if rule == "safe" else 1
    for r in range(max(0, r0 - span), min(h, r0 + span + 1)):
        for c in range(max(0, c0 - span), min(w, c0 + span + 1)):
            f[r * w + c] = True
    return f


def main():
    h, w, m, rule, r0, c0, games = sys.argv[1:8]
    h, w, m, r0, c0, games = int(h), int(w), int(m), int(r0), int(c0), int(games)
    t = time.time()
    xs, has = loss_bound_terms(h, w, m, free_cells(h, w, rule, (r0, c0)), games, 1)
    mu, hw = xs.mean(), 1.96 * xs.std(ddof=1) / np.sqrt(games)
    print(f"{h}x{w}/{m} {rule} ({r0},{c0}), {games} layouts: {has.mean():.3%} hold a pair; "
          f"loss >= {mu:.3%} +- {hw:.3%}, so win <= {1 - mu:.3%} (+ {hw:.3%}); "
          f"{time.time() - t:.0f} s")


if __name__ == "__main__":
    main()

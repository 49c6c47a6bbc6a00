"""The long-term risk kernel (fastsweep/kernels/ltr.py) against brute force: for every
hidden cell of random small views, P(the cell is safe in a forming 50/50 pattern) summed
over its pairs plus the largest over its 2x2 blocks, counted over every layout."""
import doctest

import numpy as np

import naive
from fastsweep.kernels import ltr
from fastsweep.kernels.ltr import MAX_MISSING, influence_view


def _inside(h, w, r, c):
    return 0 <= r < h and 0 <= c < w


def _prob(view, mines, lay, mined, safe):
    """P(every cell of ``mined`` is a mine and every cell of ``safe`` is safe)."""
    hid, col, bits, _, ok = lay
    keep = ok.copy()
    for r, c in mined:
        if view[r, c] == -1:
            keep &= bits[:, col[r * view.shape[1] + c]] == 1
    for r, c in safe:
        keep &= bits[:, col[r * view.shape[1] + c]] == 0
    return keep.sum() / ok.sum()


def _walls(view, cells):
    """The cells that must be mines, or None if one is revealed or too many are hidden."""
    h, w = view.shape
    cells = [(r, c) for r, c in cells if _inside(h, w, r, c)]
    if any(view[r, c] >= 0 for r, c in cells):
        return None
    if sum(view[r, c] == -1 for r, c in cells) > MAX_MISSING:
        return None
    return cells


def reference(view, mines, r, c):
    """(pairs, block) parts of the influence of hidden cell (r, c), by enumeration."""
    h, w = view.shape
    hid, col, bits, wts, ok, _ = naive._layouts(view, mines, 0.5, None)
    lay = (hid, col, bits, wts, ok)
    pairs = 0.0
    for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
        u = (r + dr, c + dc)
        if not _inside(h, w, *u) or view[u] != -1:
            continue
        if dr == 0:
            ends = [(r + s, x) for x in (min(c, u[1]) - 1, max(c, u[1]) + 1) for s in (-1, 0, 1)]
        else:
            ends = [(y, c + s) for y in (min(r, u[0]) - 1, max(r, u[0]) + 1) for s in (-1, 0, 1)]
        walls = _walls(view, ends)
        if walls is not None:
            pairs += _prob(view, mines, lay, walls + [u], [(r, c)])
    block = 0.0
    for R in (r - 1, r):
        for C in (c - 1, c):
            if not (_inside(h, w, R, C) and _inside(h, w, R + 1, C + 1)):
                continue
            d = (2 * R + 1 - r, 2 * C + 1 - c)
            others = [(r, 2 * C + 1 - c), (2 * R + 1 - r, c)]
            if view[d] != -1 or any(view[o] >= 0 for o in others):
                continue
            walls = _walls(view, [(R - 1, C - 1), (R - 1, C + 2), (R + 2, C - 1),
                                  (R + 2, C + 2)])
            if walls is not None:
                block = max(block, _prob(view, mines, lay, walls + others, [(r, c), d]))
    return pairs, block


def test_influence_is_the_brute_force_pattern_probability():
    rng = np.random.default_rng(31)
    seen_pairs = seen_blocks = cells = 0
    for _ in range(120):
        h, w = [(3, 4), (4, 4), (4, 5), (5, 5)][rng.integers(4)]
        view, mines = naive.random_view(rng, h, w, rng.choice([0.2, 0.3, 0.4]),
                                        rng.choice([0.15, 0.3, 0.45]), rng.choice([0.0, 0.5]),
                                        max_hidden=14)
        got = influence_view(view.astype(np.int8), mines)
        for r, c in np.argwhere(view == -1):
            pairs, block = reference(view, mines, r, c)
            assert abs(got[r, c] - (pairs + block)) < 1e-9, (view, mines, r, c, got[r, c],
                                                              pairs, block)
            seen_pairs += pairs > 0
            seen_blocks += block > 0
            cells += 1
        assert np.isnan(got[view != -1]).all()
    # the patterns are not rare in these views: both kinds are checked many times
    assert seen_pairs > 50 and seen_blocks > 20, (seen_pairs, seen_blocks, cells)


def test_doctest():
    assert doctest.testmod(ltr).failed == 0

"""The look-ahead's ``offedge_limit`` (kernels/offedge.py): off the frontier it scores only
the cells D. Hill's solver scores. The kernel's candidates equal a plain-Python reading of
the rule (on top of the exact probabilities of ``fastsweep.mine_probabilities``) on many
random views; the opening it was written for; full games keep the contract."""
import numpy as np

import fastsweep
from fastsweep.studies.positions import random_view
from test_pseq import CASES, full_games
from views import candidates_view


def neighbours(r, c, h, w):
    return [(i, j) for i in range(max(r - 1, 0), min(r + 2, h))
            for j in range(max(c - 1, 0), min(c + 2, w)) if (i, j) != (r, c)]


def reference(view, mines, p, cut, limit):
    """The candidates as a set of (row, col), by the rule's own words, given the mine
    probabilities ``p`` (H x W)."""
    h, w = view.shape
    hidden = [(r, c) for r in range(h) for c in range(w) if view[r, c] == -1]
    top = max(1 - p[x] for x in hidden)
    cand = {x for x in hidden if 1 - p[x] >= cut * top}
    if not limit:
        return cand
    edge = {x for x in hidden if any(view[y] >= 0 for y in neighbours(*x, h, w))}
    off = [x for x in hidden if x not in edge]
    if not off or not edge:
        return cand
    best_on = max(1 - p[x] for x in edge)
    include = best_on < 1 and 1 - p[off[0]] > 0.95 * best_on
    left = mines - int((view == -2).sum())
    ring = left * 5 > len(hidden) * 2

    def witness(r, c):
        return (0 <= r < h and 0 <= c < w and view[r, c] >= 0
                and any(view[y] == -1 for y in neighbours(r, c, h, w)))

    def promising(r, c):
        steps = [(dr, dc) for dr in range(-2, 3) for dc in range(-2, 3)
                 if 2 in (abs(dr), abs(dc)) and (ring or dr == 0 or dc == 0)]
        if any(witness(r + dr, c + dc) for dr, dc in steps):
            return True
        return 1 < sum(view[y] == -1 for y in neighbours(r, c, h, w)) < 4

    kept = {x for x in cand if x in edge
            or (include and (len(off) < 30 or promising(*x)))}
    return kept or cand


def test_the_candidates_equal_the_rule_read_plainly():
    rng = np.random.default_rng(16)
    limited = 0
    for i in range(60):
        h, w = [(16, 30), (12, 14), (9, 9), (16, 16)][i % 4]
        mines = [99, 40, 10, 40][i % 4]
        view, total = random_view(h, w, mines, int(rng.integers(1, 12)), seed=i)
        order = np.arange(h * w)
        exact = fastsweep.mine_probabilities(view, mines=total)
        for cut in (0.9, 1.0):
            for limit in (0, 1):
                got, p = candidates_view(view, mines=total, order=order, cut=cut, offedge=limit)
                p = p.reshape(h, w)
                assert np.allclose(p[view == -1], exact[view == -1], atol=1e-12)
                cells = {divmod(int(c), w) for c in got}
                want = reference(view, total, p, cut, limit)
                assert cells == want, (i, cut, limit, sorted(cells ^ want))
            full, _ = candidates_view(view, mines=total, order=order, cut=cut, offedge=False)
            part, _ = candidates_view(view, mines=total, order=order, cut=cut, offedge=True)
            limited += part.size < full.size
    assert limited >= 10  # the rule narrowed the choice on many views (18 of 120)


def test_after_a_corner_number_hills_five_cells():
    v = np.full((16, 30), -1, np.int8)
    v[0, 0] = 1
    order = np.arange(480)
    got, p = candidates_view(v, mines=99, order=order, cut=0.9, offedge=True)
    # two steps from the 1, and the three untouched corners (3 hidden neighbours each)
    assert sorted(int(c) for c in got) == [2, 29, 60, 450, 479]
    full, _ = candidates_view(v, mines=99, order=order, cut=0.9, offedge=False)
    assert full.size == 476  # every cell off the frontier, all as safe
    assert np.allclose(p[got], p[full].min())


def test_no_cell_off_the_frontier_when_it_is_much_less_safe():
    # a 3 x 3 block opened in the middle of 9 x 9 with 30 mines: the frontier's safest
    # beats the cells off it by more than 5%, so none of those is scored
    v = np.full((9, 9), -1, np.int8)
    v[3:6, 3:6] = [[1, 1, 1], [1, 0, 1], [1, 1, 1]]
    order = np.arange(81)
    got, p = candidates_view(v, mines=30, order=order, cut=0.5, offedge=True)
    off = [r * 9 + c for r in range(9) for c in range(9)
           if not (2 <= r <= 6 and 2 <= c <= 6)]  # outside the block and its frontier
    full, _ = candidates_view(v, mines=30, order=order, cut=0.5, offedge=False)
    assert set(off) & set(int(c) for c in full)  # without the limit they compete
    assert not set(off) & set(int(c) for c in got)
    assert got.size > 0


def test_full_games_keep_the_contract():
    full_games("lookahead", CASES, offedge_limit=True)

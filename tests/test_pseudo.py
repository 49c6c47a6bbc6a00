"""Pseudo-50/50s (``kernels/pseudo.py``), against brute force over every layout.

* on random small positions with nothing certain, the kernel's pseudo-50/50 cells are
  exactly the hidden cells a brute-force check finds: a shape (an orthogonal pair, a 2 x 2
  block) through the cell, no tell revealed, at most one hidden tell (pair) or none
  (block), and in every consistent layout where the cell is a mine the shape holds the
  50/50 pattern and every tell is a mine; listed safest first;
* a hand-made position where a pseudo-50/50 is guessed before a safer cell;
* ``pseudo_fifty=True`` games pass the contract and say why they guessed.
"""
import numpy as np
import pytest

import fastsweep
from fastsweep.options import make_config
import naive
from fastsweep.kernels.engine import layout as kl
from test_pseq import CASES
from views import lookahead_view, pseudo_view


def shapes(h, w, a):
    """(cells, mines in the pattern) of the shapes through ``a``, in the kernel's order:
    pairs with the cell right, left, below, above; blocks with ``a`` at the top-left,
    top-right, bottom-left, bottom-right corner."""
    r, c = divmod(a, w)
    out = []
    for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
        if 0 <= r + dr < h and 0 <= c + dc < w:
            out.append(([a, (r + dr) * w + c + dc], 1))
    for dr, dc in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
        if 0 <= r + dr < h and 0 <= c + dc < w:
            out.append(([a, (r + dr) * w + c + dc, (r + dr) * w + c, r * w + c + dc], 2))
    return out


def tells(h, w, cells):
    """Cells next to exactly one cell of ``cells`` (not in it)."""
    count = {}
    for s in cells:
        for d in naive.neighbours(h, w, s):
            if d not in cells:
                count[d] = count.get(d, 0) + 1
    return sorted(d for d, k in count.items() if k == 1)


def reference(view, mines):
    """{cell: [partners of the shapes that make it a pseudo-50/50]}, by brute force."""
    h, w = view.shape
    flat = view.ravel()
    hid, col, bits, wts, ok, _ = naive._layouts(view, mines, 0.5, None)
    good = bits[ok]
    out = {}
    for a in hid:
        for cells, nmines in shapes(h, w, a):
            if any(flat[x] != -1 for x in cells):
                continue
            t = tells(h, w, cells)
            if any(flat[d] >= 0 for d in t):
                continue
            if sum(flat[d] == -1 for d in t) > (1 if len(cells) == 2 else 0):
                continue
            rows = good[good[:, col[a]] == 1]  # every layout with ``a`` a mine
            if rows.shape[0] == 0:
                continue
            want = [1 if i < nmines else 0 for i in range(len(cells))]
            holds = all((rows[:, col[x]] == v).all() for x, v in zip(cells, want))
            holds &= all((rows[:, col[d]] == 1).all() for d in t if flat[d] == -1)
            if holds:
                out.setdefault(a, []).append(cells[1])
    return out


def positions(rng, count):
    out = []
    while len(out) < count:
        h, w = [(4, 4), (3, 5), (4, 5), (5, 5), (3, 6)][rng.integers(5)]
        view, mines = naive.random_view(rng, h, w, rng.choice([0.25, 0.35, 0.45]),
                                        rng.choice([0.3, 0.5]), rng.choice([0.5, 0.8]),
                                        max_hidden=13)
        if int((view == -1).sum()) < 3:
            continue
        safe, mine, _ = naive.brute_force_view(view, mines)
        if not safe.any() and not mine.any():
            out.append((view, mines))
    return out


@pytest.mark.slow
def test_pseudo_cells_are_exactly_the_brute_force_ones():
    rng = np.random.default_rng(11)
    found = {"pair": 0, "block": 0, "none": 0}
    for k, (view, mines) in enumerate(positions(rng, 400)):
        h, w = view.shape
        order = rng.permutation(view.size)
        got = pseudo_view(view, mines=mines, order=order)
        ref = reference(view, mines)
        assert sorted(int(c) for c in got[:, 0]) == sorted(ref), (k, view, got, ref)
        _, _, p = naive.brute_force_view(view, mines)
        rank = {int(c): i for i, c in enumerate(order)}
        for x, y in zip(got[:-1, 0], got[1:, 0]):  # safest first, then the guess order
            px, py = p.flat[int(x)], p.flat[int(y)]
            assert px < py - 1e-9 or (abs(px - py) <= 1e-9 and rank[int(x)] < rank[int(y)])
        for c, partner, size in got:
            assert int(partner) == ref[int(c)][0] and size in (2, 4)
            found["pair" if size == 2 else "block"] += 1
        found["none"] += got.shape[0] == 0
    print(found)
    assert found["pair"] >= 20 and found["block"] >= 3 and found["none"] >= 100, found


def test_a_pseudo_fifty_fifty_is_guessed_before_a_safer_cell():
    # 3 x 5, 8 mines, six known (-2). The 6 at (1,2) needs one more mine among (0,2),
    # (0,3), (1,3); the 1 at (0,4) one among (0,3), (1,3), (1,4). Were (1,0) a mine (the
    # eighth), (2,0) would be safe, and (1,0) / (2,0) a 50/50 for good: every cell next to
    # just one of them, (0,0) and (0,1), is a known mine (and so the other way round).
    # So (1,0), at 2/7, is guessed before the cells at 1/7: it loses only where that
    # 50/50 would be lost anyway.
    view = np.array([[-2, -2, -1, -1, 1],
                     [-1, -2, 6, -1, -1],
                     [-1, -2, -2, -2, -1]], np.int8)
    safe, sure, p = naive.brute_force_view(view, 8)
    assert not safe.any() and not sure.any()
    assert p[1, 0] == pytest.approx(2 / 7) and p[0, 2] == pytest.approx(1 / 7)
    assert reference(view, 8) == {5: [10], 10: [5]}  # (2,0) likewise: the guess order
    for order in (np.arange(15), np.arange(15)[::-1].copy()):
        first, other = (5, 10) if order[0] == 0 else (10, 5)
        cell, why, ref, a = lookahead_view(view, mines=8, order=order, cut=0.9, pseudo=True)
        assert (cell, why, ref, a) == (first, kl.R_PSEUDO_GUESS, other, 2)
        cell, why, _, _ = lookahead_view(view, mines=8, order=order, cut=0.9, pseudo=False)
        assert why == kl.R_LOOKAHEAD_GUESS and p.flat[cell] == pytest.approx(1 / 7)


def test_full_games_pass_the_contract_and_say_why():
    # on by default: test_lookahead plays these very games (the same configs); not again here
    assert all(make_config("lookahead", **c, pseudo_fifty=True) == make_config("lookahead", **c)
               for c in CASES)
    said = []
    for g in range(200):  # about one Expert game in fifty has one: up to the first such
        t = fastsweep.play("lookahead", (16, 30), mines=99, rules="classic",
                           mine_count=True, seed=4, game=g, pseudo_fifty=True)
        said += list(t.moves[t.moves.reason.str.startswith("pseudo-50/50")].reason)
        if said:
            break
    assert said and all("that no reveal can resolve; guessed now" in r for r in said), said

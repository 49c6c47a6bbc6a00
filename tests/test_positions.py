"""fastsweep.studies.positions.random_view: determinism, reveal count, clues, known mines, errors."""

import numpy as np
import pytest

import fastsweep
from fastsweep.studies.positions import random_view

CASES = [(30, 30, 270, 100), (30, 30, 270, 400), (16, 30, 99, 50), (5, 7, 0, 1),
         (6, 6, 35, 1), (4, 4, 3, 13), (1, 1, 0, 0), (100, 100, 2000, 3000)]


def true_clues(mine):
    h, w = mine.shape
    out = np.zeros((h, w), int)
    for r in range(h):
        for c in range(w):
            out[r, c] = mine[max(r - 1, 0):r + 2, max(c - 1, 0):c + 2].sum() - mine[r, c]
    return out


@pytest.mark.parametrize("h,w,m,rev", CASES)
def test_deterministic_per_seed(h, w, m, rev):
    a, ta = random_view(h, w, m, rev, seed=7)
    b, tb = random_view(h, w, m, rev, seed=7)
    assert a.dtype == np.int8 and a.shape == (h, w)
    assert (a == b).all() and ta == tb == m
    if h * w > 100:  # big enough that two seeds giving the same view would be a bug
        assert not (random_view(h, w, m, rev, seed=8)[0] == a).all()


@pytest.mark.parametrize("h,w,m,rev", CASES)
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.filterwarnings("ignore::fastsweep.inference.ApproximationWarning")
def test_view_matches_its_board(h, w, m, rev, seed):
    view, total, mine = random_view(h, w, m, rev, seed, board=True)
    assert total == m == mine.sum() and mine.shape == (h, w)
    shown = view >= 0
    assert shown.sum() >= rev  # revealed count reached
    assert not (shown & mine).any()  # only safe cells are revealed
    assert (view[shown] == true_clues(mine)[shown]).all()
    # a revealed 0 has all its neighbours revealed (the flood fill)
    for r, c in np.argwhere(view == 0):
        assert (view[max(r - 1, 0):r + 2, max(c - 1, 0):c + 2] >= 0).all()
    # known mines are mines next to a revealed cell, about 20% of them
    known = view == -2
    assert mine[known].all()
    near = true_clues(shown) > 0
    assert known.sum() == round(0.2 * (mine & near).sum())
    assert (view[~shown & ~known] == -1).all()
    # consistent with its total (no ValueError); a small budget keeps this quick
    fastsweep.deduce(view, total, budget=1 << 12)


def test_known_mine_frac_extremes():
    v0, _, mine = random_view(20, 20, 80, 150, 1, known_mine_frac=0.0, board=True)
    assert not (v0 == -2).any()
    v1, _ = random_view(20, 20, 80, 150, 1, known_mine_frac=1.0)
    near = true_clues(v1 >= 0) > 0
    assert ((v1 == -2) == (mine & near)).all()
    # the fraction is drawn last: reveals are the same
    assert ((v0 >= 0) == (v1 >= 0)).all()


@pytest.mark.parametrize("kwargs,name", [
    (dict(height=0), "height"), (dict(width=-3), "width"), (dict(height=2.5), "height"),
    (dict(width=True), "width"), (dict(mines=-1), "mines"), (dict(mines=901), "mines"),
    (dict(revealed=631), "revealed"), (dict(revealed=-1), "revealed"),
    (dict(seed=-1), "seed"), (dict(seed="a"), "seed"),
    (dict(known_mine_frac=1.5), "known_mine_frac"),
    (dict(known_mine_frac=-0.1), "known_mine_frac"),
    (dict(known_mine_frac=None), "known_mine_frac"),
])
def test_argument_errors(kwargs, name):
    args = dict(height=30, width=30, mines=270, revealed=100, seed=0)
    args.update(kwargs)
    with pytest.raises(ValueError, match=rf"^{name}: .*(\[|got)"):
        random_view(**args)


def test_error_names_range():
    with pytest.raises(ValueError, match=r"revealed: must be in \[0, 630\], got 631"):
        random_view(30, 30, 270, 631, 0)

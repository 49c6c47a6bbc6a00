"""Deduction under one-sided noise without counting (kernels/inference/one_sided.py):
on random positions whose clues a one-sided detector showed, its certain cells equal the
counting analysis's (``method="tree"`` forces the count) with and without the mine
total, and brute force's on small boards; it is taken on most such positions (else the
comparison would say little), and never when the clues are two-sided."""
import numpy as np
import pytest

import fastsweep
from fastsweep import inference as fi
from fastsweep.kernels.engine.env import hidden_left, mines_left_known
from fastsweep.kernels.inference import noisy
from fastsweep.kernels.inference.frontier import informative
from fastsweep.kernels.inference.one_sided import DOWN, UP, one_sided_deduction
from fastsweep.noise import parse_noise
from naive import brute_force_view, neighbours

ONE_SIDED = {"detector:p_neg=0,p_pos=0.3": DOWN, "detector:p_neg=0.3,p_pos=0": UP}


def _position(rng, noise, h, w, density=0.2, revealed=0.5, hard=0.0):
    """(view, likelihood, true mines) with clues shown by the detector ``noise`` (the
    agent's known mines at the reveal: those of the view), a share ``hard`` of them
    shown exactly (hard clues)."""
    nz = parse_noise(noise)
    n = h * w
    mine = rng.random(n) < density
    known = mine & (rng.random(n) < 0.3)
    view = np.full(n, -1, np.int64)
    view[known] = -2
    L = np.full((n, 9), np.nan)
    row = np.zeros(9)
    for c in np.flatnonzero(~mine & (rng.random(n) < revealed)):
        nb = neighbours(h, w, c)
        t = int(mine[nb].sum())
        if rng.random() < hard:
            view[c] = t
            continue
        s = t - rng.binomial(t, nz.a) + rng.binomial(len(nb) - t, nz.b)
        view[c] = s
        m = int(known[nb].sum())
        noisy.likelihood(nz.model, nz.a, nz.b, s, len(nb), m, len(nb) - m, row)
        L[c] = row
    return view.reshape(h, w), L.reshape(h, w, 9), int(mine.sum())


def _kind(view, L, mines):
    """What one_sided_deduction answers on the position (DOWN, UP or -1; with no
    constraint left both kinds hold and it says DOWN: 0 here)."""
    v, soft, _ = fi._soft(fi._as_view(view), L)
    S = fi._state(v, mines)
    fr = informative(S, soft)
    kind = one_sided_deduction(fr, mines is not None, hidden_left(S), mines_left_known(S))
    return 0 if kind > 0 and fr.ncon == 0 else kind


@pytest.mark.parametrize("noise", sorted(ONE_SIDED))
def test_equals_the_counting_analysis(noise):
    rng = np.random.default_rng(58)
    taken = certain = 0
    for i in range(150):
        h, w = rng.integers(5, 10, size=2)
        view, L, mines = _position(rng, noise, h, w)
        hidden = int((view == -1).sum())
        known = int((view == -2).sum())
        # the true total, and totals at the edges of the witnesses' room
        for m in (None, mines, known + 1, known + hidden - 1):
            try:
                want_safe, want_mine = fastsweep.deduce(view, m, likelihood=L, method="tree")
            except ValueError:
                continue  # a made-up total that no layout agrees with
            safe, mine = fastsweep.deduce(view, m, likelihood=L)
            assert (safe == want_safe).all() and (mine == want_mine).all(), (i, m)
            kind = _kind(view, L, m)
            assert kind in (ONE_SIDED[noise], 0, -1)
            taken += kind > 0
            certain += int(want_safe.sum() + want_mine.sum()) if kind > 0 else 0
        assert _kind(view, L, None) in (ONE_SIDED[noise], 0)  # (without the total: always)
    assert taken > 200 and certain > 100, (taken, certain)


@pytest.mark.parametrize("noise", sorted(ONE_SIDED))
def test_equals_brute_force(noise):
    rng = np.random.default_rng(59)
    checked = 0
    while checked < 80:
        view, L, mines = _position(rng, noise, 4, 5, density=0.3)
        if (view == -1).sum() > 14:
            continue
        for m in (None, mines):
            want_safe, want_mine, _ = brute_force_view(view, m, 0.5, likelihood=L)
            safe, mine = fastsweep.deduce(view, m, likelihood=L)
            assert (safe == want_safe).all() and (mine == want_mine).all(), (view, m)
            checked += 1


def test_mixed_bounds_are_counted():
    # a hard clue with a mine left to place is a bound of both sides: with one-sided soft
    # clues the layouts are then closed neither way, and the position must be counted
    rng = np.random.default_rng(60)
    mixed = 0
    for _ in range(60):
        view, L, mines = _position(rng, "detector:p_neg=0,p_pos=0.3", 7, 7, hard=0.3)
        kind = _kind(view, L, None)
        want_safe, want_mine = fastsweep.deduce(view, likelihood=L, method="tree")
        safe, mine = fastsweep.deduce(view, likelihood=L)
        assert (safe == want_safe).all() and (mine == want_mine).all()
        mixed += kind == -1
    assert mixed > 30

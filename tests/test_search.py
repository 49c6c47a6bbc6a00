"""Deduction by search (kernels/search.py): where counting gives up (a tiny budget
forces it), the certain cells must still be exactly the counting path's (the oracle's on
small views), so `deduce` and the agents' certain moves never depend on the budget."""
import warnings

import numpy as np
import pytest

import fastsweep
from fastsweep.inference import ApproximationWarning
from fastsweep.studies.positions import random_view as board_view
from naive import brute_force_view, random_view


def _by_search(view, mines, likelihood=None):
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        safe, mine = fastsweep.deduce(view, mines, budget=1, likelihood=likelihood)
    texts = [str(w.message) for w in got if issubclass(w.category, ApproximationWarning)]
    return safe, mine, texts


@pytest.mark.parametrize("seed", range(3))
def test_search_equals_oracle_without_total(seed):
    rng = np.random.default_rng(90 + seed)
    for _ in range(60):
        h, w = (int(v) for v in rng.integers(1, 7, 2))
        view, mines = random_view(rng, h, w, rng.uniform(0.1, 0.6), rng.uniform(0.1, 0.9),
                                  rng.uniform(0.0, 0.5), max_hidden=14)
        s0, m0, _ = brute_force_view(view)
        s1, m1, texts = _by_search(view, None)
        assert (s1 == s0).all() and (m1 == m0).all(), view
        assert all("complete (by search)" in t for t in texts)


@pytest.mark.parametrize("seed", range(3))
def test_search_with_total_is_sound_and_complete_on_one_component(seed):
    """With the total, the search holds a component's own total to what the others'
    ranges leave: sound always; complete when one component is searched (the others are
    counted) -- here every view whose frontier is one component."""
    rng = np.random.default_rng(95 + seed)
    checked = 0
    for _ in range(80):
        h, w = (int(v) for v in rng.integers(2, 7, 2))
        view, mines = random_view(rng, h, w, rng.uniform(0.1, 0.6), rng.uniform(0.1, 0.9),
                                  rng.uniform(0.0, 0.5), max_hidden=14)
        s0, m0, _ = brute_force_view(view, mines)
        s1, m1, _ = _by_search(view, mines)
        assert not (s1 & ~s0).any() and not (m1 & ~m0).any(), view
        p, info = fastsweep.mine_probabilities(view, mines, info=True)
        # frontier of one component: the search alone decides, with the exact range
        if info["approx_steps"] == 0 and _one_component(view):
            assert (s1 == s0).all() and (m1 == m0).all(), view
            checked += 1
    assert checked > 10


def _one_component(view):
    """Whether the view's frontier is one component (the kernels' own split)."""
    from fastsweep.inference import _state
    from fastsweep.kernels.inference.frontier import frontier
    return frontier(_state(view, None)).ncomp == 1


def test_search_on_hard_views_is_sound_and_says_when_cut_short():
    """30x30 views with every component forced to the search (budget 1): what it deduces
    is what the tree DP counts where the warning says "complete", and a subset of it
    where the search stopped at its limit (the warning says so)."""
    complete = 0
    for seed in (200, 202):
        view, mines = board_view(30, 30, 270, 250, seed)
        s0, m0 = fastsweep.deduce(view)
        s1, m1, texts = _by_search(view, None)
        assert len(texts) == 1
        assert not (s1 & ~s0).any() and not (m1 & ~m0).any()
        if "complete (by search)" in texts[0]:
            assert (s1 == s0).all() and (m1 == m0).all()
            complete += 1
        else:
            assert "stopped at its limit" in texts[0]
    assert complete >= 1


def test_search_on_soft_clues_matches_oracle():
    rng = np.random.default_rng(7)
    for _ in range(40):
        view, _ = random_view(rng, 4, 5, 0.3, 0.6, 0.3, max_hidden=12)
        L = np.full(view.shape + (9,), np.nan)
        for r, c in np.argwhere(view >= 0):
            if rng.random() < 0.5:
                L[r, c] = rng.random(9) * (rng.random(9) < 0.6)
                L[r, c, int(rng.integers(9))] = 1.0
        try:
            s0, m0, _ = brute_force_view(view, likelihood=L)
        except ValueError:
            continue
        s1, m1, _ = _by_search(view, None, likelihood=L)
        assert (s1 == s0).all() and (m1 == m0).all()


@pytest.mark.parametrize("mc", [False, True])
def test_sampled_probabilities_are_consistent_estimates(mc):
    """Over budget, probabilities are sequential-importance-sampling estimates: the
    warning states the method, the effective sample size and the largest standard error;
    every estimate is within 5 standard errors (+ 0.01) of the exact value; certain cells
    are exactly 0 or 1; with the total, expected mines sum to the mines left."""
    import re
    rng = np.random.default_rng(31 + mc)
    checked = 0
    for _ in range(40):
        view, mines = random_view(rng, 5, 6, 0.3, 0.5, 0.2, max_hidden=14)
        m = mines if mc else None
        exact = brute_force_view(view, m)
        with warnings.catch_warnings(record=True) as got:
            warnings.simplefilter("always")
            p = fastsweep.mine_probabilities(view, m, budget=1)
        texts = [str(w.message) for w in got]
        if not texts:
            continue
        assert "sequential importance sampling" in texts[0]
        se = float(re.search(r"largest standard error ([0-9.e+-]+|inf|nan)", texts[0])[1])
        assert np.abs(p - exact[2]).max() <= 5 * se + 0.01, (view, texts)
        assert (p[exact[0]] == 0).all() and (p[exact[1]] == 1).all()
        if mc:
            hidden = view == -1
            assert abs(p[hidden].sum() - (mines - (view == -2).sum())) < 1e-9
        checked += 1
    assert checked > 10

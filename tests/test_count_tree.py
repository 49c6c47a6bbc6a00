"""The tree DP (kernels/count_tree.py) on positions too wide for the brute-force oracle:
it must agree with the path DP wherever that one is exact, stay exact where the path DP
gives up, and keep its promises (sums, deductions, budget) on large boards.

(Small views against the oracle, for both methods: tests/test_inference.py.)"""
import warnings

import numpy as np
import pytest

import fastsweep
from fastsweep.inference import ApproximationWarning
from fastsweep.studies.positions import random_view


def _exact(view, mines, method, prior=0.5):
    with warnings.catch_warnings():
        warnings.simplefilter("error", ApproximationWarning)
        p = fastsweep.mine_probabilities(view, mines, prior, method=method)
        safe, mine = fastsweep.deduce(view, mines, method=method)
    return p, safe, mine


@pytest.mark.parametrize("seed", range(6))
def test_tree_equals_path_on_mid_size_views(seed):
    """Random 10x12 positions (many cells, several components): same deductions and
    probabilities (to 1e-9) by both methods, with and without the total."""
    rng = np.random.default_rng(seed)
    for _ in range(8):
        revealed = int(rng.integers(10, 60))
        view, mines = random_view(10, 12, int(rng.integers(15, 40)), revealed,
                                  int(rng.integers(1 << 30)))
        for m in (None, mines):
            p0, s0, k0 = _exact(view, m, "path")
            p1, s1, k1 = _exact(view, m, "tree")
            assert (s0 == s1).all() and (k0 == k1).all()
            assert np.abs(p0 - p1).max() < 1e-9


@pytest.mark.parametrize("seed", range(4))
def test_hard_30x30_views_are_exact(seed):
    """The views where the path DP ran out of budget or slots (30x30, 270 mines, 100-400
    safe cells revealed): the tree DP counts them exactly; probabilities sum to the
    mines left; a deduced cell's probability is exactly 0 or 1; without the total too."""
    rng = np.random.default_rng(100 + seed)
    view, mines = random_view(30, 30, 270, int(rng.integers(100, 401)), 100 + seed)
    hidden = view == -1
    left = mines - int((view == -2).sum())
    p, safe, mine = _exact(view, mines, "tree")
    assert abs(p[hidden].sum() - left) < 1e-6
    assert (p[safe] == 0).all() and (p[mine] == 1).all()
    assert ((p[hidden] > 0) | safe[hidden]).all() and ((p[hidden] < 1) | mine[hidden]).all()
    pa, sa, ma = _exact(view, mines, "auto")
    assert (sa == safe).all() and (ma == mine).all() and np.abs(pa - p).max() < 1e-9
    q, s2, m2 = _exact(view, None, "tree")
    assert np.isfinite(q).all() and not (s2 & ~safe).any() and not (m2 & ~mine).any()


def test_100x100_with_2000_mines_exact_and_finite():
    view, mines = random_view(100, 100, 2000, 3000, 7)
    p, safe, mine = _exact(view, mines, "auto")
    hidden = view == -1
    assert np.isfinite(p).all()
    assert abs(p[hidden].sum() - (mines - int((view == -2).sum()))) < 1e-6 * mines


def test_tree_budget_is_reported():
    """Over its budget the tree DP says so (and falls back), never silently."""
    view, mines = random_view(30, 30, 270, 300, 3)
    with pytest.warns(ApproximationWarning):
        _, info = fastsweep.mine_probabilities(view, mines, budget=50, method="tree",
                                               info=True)
    assert info["approx_steps"] > 0


def test_method_is_validated():
    with pytest.raises(ValueError, match="method"):
        fastsweep.mine_probabilities(np.full((2, 2), -1, np.int8), method="fast")


def test_many_components_with_the_total():
    """A 300x300 view with thousands of components and the total: exact, finite, summing
    to the mines left (the combination used to hold a components x cells table: 2.2 GB at
    500x500; 1000x1000 now peaks at 373 MB of process memory here)."""
    view, mines = random_view(300, 300, 13_500, 4_500, 1)
    p, info = fastsweep.mine_probabilities(view, mines, info=True)
    hidden = view == -1
    assert info["approx_steps"] == 0 and np.isfinite(p).all()
    assert abs(p[hidden].sum() - (mines - int((view == -2).sum()))) < 1e-6 * mines


def test_forced_path_on_a_component_too_wide_for_it_is_approximated():
    """Seed 29's view has one component whose path order keeps 34 clues open, more than
    the path DP's 32 residual slots: forcing the path must report it over the budget at
    any budget (it once ran on a garbage slot and called the view inconsistent)."""
    from fastsweep.inference import _state
    from fastsweep.kernels.inference import count as kc
    from fastsweep.kernels.inference import frontier as kf
    rev = int(np.random.default_rng([29, 1]).integers(100, 401))  # as bench_hard_views
    view, mines = random_view(30, 30, 270, rev, 29)
    fr = kf.frontier(_state(view, mines))
    assert fr.ncomp == 1 and fr.width[0] > kf.MAX_SLOTS
    for budget in (1 << 20, kc.MAX_BUDGET):
        status, approx, _, cm = kc._count_components(fr, 1.0, True, budget, kc.METHOD_PATH)
        assert (status, approx) == (kc.ST_OK, 1)


def test_every_kernel_caches_in_the_source_keyed_folder():
    """A kernel cached in __pycache__ is checked only against its own file, so an edit to
    a module it calls would load a stale kernel: every dispatcher of every kernel module
    must cache under kernels.cache_dir()."""
    import importlib
    import pkgutil

    import fastsweep.kernels as fk
    want = fk.cache_dir()
    seen = 0
    # every kernel module at any depth (kernels/engine, inference, agents and below)
    for m in pkgutil.walk_packages(fk.__path__, prefix="fastsweep.kernels."):
        mod = importlib.import_module(m.name)
        for name, f in vars(mod).items():
            cache = getattr(f, "_cache", None)
            if getattr(f, "__module__", None) == mod.__name__ and hasattr(cache, "_cache_path"):
                seen += 1
                assert cache._cache_path.startswith(want), (mod.__name__, name)
    assert seen > 50

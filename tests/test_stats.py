"""Statistics from sufficient statistics: they must equal the same numbers computed from
the raw values, and the intervals must have their textbook edge behaviour."""
import math

import numpy as np
import pytest

from fastsweep import stats


@pytest.mark.parametrize("n", [2, 3, 17, 500])
def test_moments_equal_raw_computation(n):
    rng = np.random.default_rng(n)
    x = rng.integers(0, 40, n)  # integers, as the sweep stores flagged-mine counts
    mean, sd = stats.moments(n, int(x.sum()), int((x * x).sum()), scale=40)
    assert mean == pytest.approx((x / 40).mean(), rel=1e-13)
    assert sd == pytest.approx((x / 40).std(ddof=1), rel=1e-12)


def test_moments_edge_cases():
    assert all(math.isnan(v) for v in stats.moments(0, 0, 0))
    m, s = stats.moments(1, 3, 9)
    assert m == 3 and math.isnan(s)
    assert stats.moments(5, 10, 20) == (2.0, 0.0)  # constant values: no negative variance
    assert math.isnan(stats.half_width(1, 0.3))


def test_half_width_matches_mean_ci():
    x = np.random.default_rng(1).random(200)
    m, lo, hi = stats.mean_ci(x)
    assert stats.half_width(200, x.std(ddof=1)) == pytest.approx((hi - lo) / 2, rel=1e-12)


def test_paired_diff_equals_raw_and_is_tighter_than_unpaired():
    rng = np.random.default_rng(5)
    board = rng.integers(0, 60, 300)  # shared board difficulty: strongly correlated scores
    a = board + rng.integers(0, 5, 300)
    b = board + rng.integers(1, 7, 300)
    d = b - a
    m, sd, lo, hi = stats.paired_diff(300, int(d.sum()), int((d * d).sum()), scale=60)
    assert m == pytest.approx((d / 60).mean(), rel=1e-12)
    assert sd == pytest.approx((d / 60).std(ddof=1), rel=1e-12)
    assert (hi - lo) / 2 == pytest.approx(1.959963984540054 * sd / math.sqrt(300))
    unpaired = 1.96 * math.sqrt(((a / 60).var(ddof=1) + (b / 60).var(ddof=1)) / 300)
    assert (hi - lo) / 2 < unpaired / 5


def test_wilson_edges_are_exact():
    assert stats.wilson(0, 50)[0] == 0.0
    assert stats.wilson(50, 50)[1] == 1.0
    lo, hi = stats.wilson(0, 50)
    assert 0.05 < hi < 0.09  # 0 of 50 still allows a rate of ~7%
    assert all(math.isnan(v) for v in stats.wilson(0, 0))


def test_ci_method_is_stated():
    from fastsweep.sweep.stopping import CI_METHOD
    assert "Gaffke" in CI_METHOD and "Clopper-Pearson" in CI_METHOD

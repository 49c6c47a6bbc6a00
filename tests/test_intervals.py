"""Gaffke's bound (fastsweep.stats.bounded_ci, kernels/intervals.py) against exact
references: the Clopper-Pearson bound for 0/1 values, Monte Carlo over the Dirichlet
weights for any histogram, and coverage by simulation where the normal approximation
fails."""
import math

import numpy as np
import pytest

from fastsweep import stats


def _binom_cdf(k, n, p):
    return sum(math.exp(math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1)
                        + i * math.log(p) + (n - i) * math.log1p(-p)) for i in range(k + 1))


def _cp_upper(k, n, a=0.025):
    """Exact Clopper-Pearson upper bound by bisection on the binomial CDF."""
    if k == n:
        return 1.0
    lo, hi = k / n, 1.0
    for _ in range(80):
        m = (lo + hi) / 2
        lo, hi = (m, hi) if _binom_cdf(k, n, m) > a else (lo, m)
    return (lo + hi) / 2


@pytest.mark.parametrize("n", [1, 2, 5, 10, 30, 207, 1000])
def test_win_rate_is_clopper_pearson(n):
    for k in sorted({0, 1, 2, n // 3, n // 2, n - 1, n} & set(range(n + 1))):
        r = stats.win_ci(k, n)
        up, low = _cp_upper(k, n), 1 - _cp_upper(n - k, n)
        # within 2% of the exact bound's distance from the estimate (the saddlepoint errs
        # wide at a pile, by a hair either way inside)
        assert abs(r.high - up) <= 0.02 * (up - k / n) + 1e-12, (k, n, r, up)
        assert abs(r.low - low) <= 0.02 * (k / n - low) + 1e-12, (k, n, r, low)
        if k < n:  # the tail beyond our bound: the nominal 2.5%, to 0.1% of itself
            assert _binom_cdf(k, n, r.high) <= 0.025 * 1.001
        if k > 0:
            assert 1 - _binom_cdf(k - 1, n, r.low) <= 0.025 * 1.001


def _mc_tail(v, c, hi, t, draws, rng):
    """P(sum W v > t) for W ~ Dirichlet(c, 1) on (v, hi), by Monte Carlo."""
    vv, cc = np.append(v, hi), np.append(c, 1.0)
    g = rng.standard_gamma(cc, size=(draws, cc.size))
    return float(np.mean(g @ vv / g.sum(axis=1) > t))


def _histograms(rng):
    """Piles at a bound or inside the range with a few games off them, and spread ones."""
    yield np.array([0.9, 1.0]), np.array([1.0, 206.0]), (0.0, 1.0)
    yield np.array([0.0, 0.3, 0.5]), np.array([2.0, 300.0, 1.0]), (0.0, 1.0)
    yield np.array([-0.05, 0.0, 0.02]), np.array([1.0, 500.0, 3.0]), (-1.0, 1.0)
    yield np.array([-1.0, 0.0, 1.0]), np.array([4.0, 190.0, 9.0]), (-1.0, 1.0)
    for _ in range(8):
        k = int(rng.integers(2, 40))
        v = np.sort(rng.choice(np.arange(41) / 40, size=k, replace=False))
        c = rng.integers(1, 60, size=k).astype(float)
        yield v, c, (0.0, 1.0)


def test_tail_beyond_each_bound_matches_monte_carlo():
    rng = np.random.default_rng(7)
    draws = 200_000
    for v, c, (lo, hi) in _histograms(rng):
        r = stats.bounded_ci(v, c, lo, hi)
        up = _mc_tail(v, c, hi, r.high, draws, rng)
        # the lower bound: the upper bound of the mirrored values
        down = _mc_tail((lo + hi - v)[::-1], c[::-1], hi, lo + hi - r.low, draws, rng)
        for tail in (up, down):  # 2.5% nominal; the MC standard error is 0.00035
            assert 0.0215 <= tail <= 0.0265, (v, c, r, up, down)


def test_no_game_off_the_pile_is_the_rule_of_three_not_a_point():
    r = stats.bounded_ci([1.0], [207], 0.0, 1.0)
    assert r.high == 1.0 and r.low < 1.0
    assert 1 - r.low == pytest.approx(1 - 0.025 ** (1 / 207), rel=0.01)  # exact for this case
    d = stats.bounded_ci([0.0], [207], -1.0, 1.0)  # 207 paired games, none differing
    assert d.low == -d.high and d.high == pytest.approx(1 - 0.025 ** (1 / 207), rel=0.01)
    m = stats.bounded_ci([0.4], [500], 0.0, 1.0)  # a pile inside the range
    assert m.low < 0.4 < m.high


def _coverage(draw, truth, reps, rng, **kw):
    hit_g = hit_n = 0
    for _ in range(reps):
        x = draw(rng)
        u, c = np.unique(x, return_counts=True)
        g = stats.bounded_ci(u, c, **kw)
        m, lo, hi = stats.mean_ci(x)
        hit_g += g.low <= truth <= g.high
        hit_n += lo <= truth <= hi
    return hit_g / reps, hit_n / reps


def test_covers_where_the_normal_approximation_does_not():
    """A score piled at 1 with 1 game in 400 far below (the basic agent at low density):
    the normal interval misses about half the time at n=207; Gaffke's keeps 95%."""
    rng = np.random.default_rng(3)
    p, low_value = 1 / 400, 0.2

    def draw(r):
        return np.where(r.random(207) < p, low_value, 1.0)

    truth = 1 - p * (1 - low_value)
    g, n = _coverage(draw, truth, 1500, rng, lo=0.0, hi=1.0)
    assert n < 0.75  # the failure this interval exists for
    assert g >= 0.94, g  # (its own binomial standard error is 0.006)


def test_hist_ci_bounds_within_the_values_seen_once_enough_games_are_off_the_pile():
    # 19 games off a pile of 1.0: the whole range [0, 1] (too few to say how far unseen
    # games may lie); 20: within the values seen, far narrower
    k = stats.OFF_PILE
    few = stats.hist_ci([0.9, 1.0], [k - 1, 400], 0, 1)
    enough = stats.hist_ci([0.9, 1.0], [k, 400], 0, 1)
    assert few == stats.bounded_ci([0.9, 1.0], [k - 1, 400], 0, 1)
    assert enough == stats.bounded_ci([0.9, 1.0], [k, 400], 0.9, 1.0)
    assert enough.half < few.half / 2
    assert stats.hist_ci([1.0], [400], 0, 1).low < 1.0  # a pile alone: never a point


def test_a_difference_is_bounded_within_the_values_seen_and_zero():
    # all games one side of 0: below twenty off the pile the whole range [-1, 1] (the
    # sign test for differences of the whole range: 5 of 5 does not exclude 0, 6 of 6
    # does); from twenty, the values seen extended to 0 -- never beyond them, never short
    # of "no game on the other side"
    k = stats.OFF_PILE
    for n, excluded in ((5, False), (6, True)):
        r = stats.hist_ci([0.0, 1.0], [200, n], -1, 1, about=0)
        assert r == stats.bounded_ci([0.0, 1.0], [200, n], -1, 1)
        assert (r.low > 0) is excluded
    one_side = stats.hist_ci([0.0, 0.05, 0.1], [300, k, 5], -1, 1, about=0)
    assert one_side == stats.bounded_ci([0.0, 0.05, 0.1], [300, k, 5], 0.0, 0.1)
    assert one_side.low > 0
    # all games off 0 (agents that differ in every game): 0 is still in the range
    spread = stats.hist_ci([0.1, 0.2], [100, 100], -1, 1, about=0)
    assert spread == stats.bounded_ci([0.1, 0.2], [100, 100], 0.0, 0.2)
    both = stats.hist_ci([-0.2, 0.0, 0.1], [30, 300, 40], -1, 1, about=0)
    assert both == stats.bounded_ci([-0.2, 0.0, 0.1], [30, 300, 40], -0.2, 0.1)


def test_hist_ci_covers_a_pile_with_a_few_games_off_it():
    """Scores piled at 1 with 1 game in 80 off it by one or two mines in 40 (a keep-going
    score at low density): the normal interval misses often at n=200, hist_ci does not."""
    rng = np.random.default_rng(9)

    def draw(r):
        off = r.random(200) < 1 / 80
        return np.where(off, 1 - r.integers(1, 3, 200) / 40, 1.0)

    truth = 1 - (1 / 80) * 1.5 / 40
    hit_h = hit_n = 0
    for _ in range(1500):
        x = draw(rng)
        h = stats.sample_ci(x, 0, 1)
        m, lo, hi = stats.mean_ci(x)
        hit_h += h.low <= truth <= h.high
        hit_n += lo <= truth <= hi
    assert hit_n / 1500 < 0.92 and hit_h / 1500 >= 0.94, (hit_n, hit_h)


def test_moderate_data_width_is_the_normal_one():
    rng = np.random.default_rng(5)
    x = rng.integers(0, 41, size=5000) / 40
    u, c = np.unique(x, return_counts=True)
    g = stats.bounded_ci(u, c, 0.0, 1.0)
    m, lo, hi = stats.mean_ci(x)
    assert g.estimate == pytest.approx(m)
    assert 1.0 <= (g.high - g.low) / (hi - lo) < 1.02


@pytest.mark.parametrize("args, match", [
    (([0.5], [3], 0.0, 1.0, 0.4), "level"),
    (([0.5], [3, 4], 0.0, 1.0), "one count per value"),
    (([1.5], [3], 0.0, 1.0), r"values: must lie in \[0.0, 1.0\]"),
    (([0.5], [-1], 0.0, 1.0), "counts"),
    (([0.5], [3], 1.0, 1.0), "lo, hi"),
])
def test_bad_arguments_are_named(args, match):
    with pytest.raises(ValueError, match=match):
        stats.bounded_ci(*args)


def test_empty_and_win_edge_cases():
    assert all(math.isnan(v) for v in stats.bounded_ci([], [], 0.0, 1.0))
    assert all(math.isnan(v) for v in stats.win_ci(0, 0))
    with pytest.raises(ValueError, match="wins"):
        stats.win_ci(5, 4)

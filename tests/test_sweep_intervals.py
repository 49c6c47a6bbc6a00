"""The sweep's intervals at the extremes (issue 62): a pile of equal scores or a pair that
never differs gets an honest interval, never [x, x]; the adaptive rule stops on the
interval it reports; where scores spread, the width is about the normal interval's."""
import math

import numpy as np
import pytest

import fastsweep
from fastsweep import stats
from fastsweep.sweep.stopping import Stopping, Tally


@pytest.fixture(scope="module")
def piled():
    # 30x30 at 3 mines: nearly every game scores 1 and basic never differs from itself + total
    return fastsweep.sweep(["basic"], 30, mines=[3], ci=0.005, min_games=200,
                           max_games=2000, workers=1, quiet=True, seed=3)


def test_a_pile_stops_on_its_interval_not_on_a_zero_variance(piled):
    s = piled.summary
    assert not s.hit_cap.any()
    for _, r in s.iterrows():
        assert r.ci_half <= 0.005
        # with (almost) every game at 1, Gaffke's lower end needs about 1.85/ci games;
        # the normal interval of 207 games all at 1 would have stopped at min_games
        assert r.games >= 1.85 / 0.005 - 1, r.games
        assert r.ci_low < r.mean_score <= r.ci_high <= 1.0


def test_a_pair_that_never_differs_is_not_a_point(piled):
    p = piled.pairs.iloc[0]
    assert p.differ == 0 and p.mean_diff == 0.0
    n = p.games
    assert p.ci_low < 0 < p.ci_high
    assert p.ci_high == pytest.approx(1 - 0.025 ** (1 / n), rel=0.02)  # rule of three
    assert p.win_differ == 0 and p.win_diff_low < 0 < p.win_diff_high


def test_spread_scores_get_about_the_normal_width():
    r = fastsweep.sweep(["basic"], 16, densities=[0.2], games=400, workers=1, quiet=True,
                        seed=5)
    row = r.summary.iloc[0]
    h = stats.half_width(row.games, row.std_score)
    # Gaffke's bound within the scores seen: the normal width, a little more at 400 games
    assert 1.0 < row.ci_half / h < 1.2
    assert row.ci_low < row.mean_score < row.ci_high
    from fastsweep.sweep.results.table import table
    assert f"{row.mean_score:.4f} [{row.ci_low:.4f}, {row.ci_high:.4f}]" in table(r, ci=True,
                                                                                 digits=4)
    # and the win rate is Clopper-Pearson's
    wins = round(row.win_rate * row.games)
    assert (row.win_low, row.win_high) == pytest.approx(tuple(stats.win_ci(wins, row.games))[1:])


def test_table_prints_the_ends_of_an_asymmetric_interval(piled):
    from fastsweep.sweep.results.table import table
    text = table(piled, value="mean_score", ci=True, digits=4)
    assert "[" in text and "±" not in text


def test_the_rule_stops_where_the_interval_first_meets_the_target():
    """Stopping, fed chunk by chunk, stops at the first chunk whose interval (the one the
    summary reports) has half-width <= ci with min_games games: checked against a direct
    evaluation of every prefix."""
    rng = np.random.default_rng(11)
    scale, chunk, ci = 40, 50, 0.004
    x = np.where(rng.random(4000) < 0.01, rng.integers(0, 40, 4000), 40)
    st = Stopping(1, scale, ci, 200, kmax=80)
    k = 0
    while st.kstar[0] is None:
        st.feed(0, x[k * chunk:(k + 1) * chunk])
        k += 1
    first = None
    for kk in range(1, 81):
        t = Tally(scale)
        t.add(x[:kk * chunk])
        if kk * chunk >= 200 and t.interval(scale, 0.0, 1.0).half <= ci:
            first = kk
            break
    assert st.kstar[0] == first and not st.capped[0]
    assert math.isfinite(st.games_needed(0))

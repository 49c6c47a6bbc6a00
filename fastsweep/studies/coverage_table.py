"""The coverage study's verdicts against issue 62's targets, and its summaries, from the
rows of :func:`fastsweep.studies.coverage.study` (its CSV).

Each target is judged per cell (a board, a game count, one interval):

* coverage: the reported interval holds the true value in >= 94% of the replications,
  and the lower end of that coverage's own 95% Clopper-Pearson interval is >= 93%;
* width: at the moderate densities (0.1-0.3), where the normal approximation covers
  (the same test) and is not a point (median width > 0), the reported interval's median
  width is <= 1.2x the normal one's;
* games: at the moderate densities, in the adaptive cells of a member's mean score (the
  number the rule stops on) where the normal approximation covers, the adaptive rule's
  median games are <= 1.2x the old rule's.

A cell whose pool holds one value only (every game at one score, or two members that
never differ) is degenerate: every resample is that value, so coverage says nothing.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .. import stats

MODERATE = (0.1, 0.2, 0.3)
COVERAGE, COVERAGE_LOW, RATIO = 0.94, 0.93, 1.2
KIND_NAMES = {"score": "mean score", "win": "win rate", "diff": "paired score difference",
              "win_diff": "paired win difference"}


def covers(covered, reps) -> bool:
    """The coverage target: ``covered / reps`` >= 94% and its Clopper-Pearson lower end
    >= 93%.

    >>> covers(950, 1000), covers(945, 1000), covers(1890, 2000)
    (True, False, True)
    """
    return covered / reps >= COVERAGE and stats.win_ci(covered, reps).low >= COVERAGE_LOW


def chance_miss(reps, coverage=0.95) -> float:
    """The probability that a cell whose interval covers exactly ``coverage`` fails
    :func:`covers` at ``reps`` replications (by chance: the binomial's spread).

    >>> round(chance_miss(1000), 2), round(chance_miss(2000), 3)
    (0.25, 0.039)
    """
    k = next(k for k in range(int(COVERAGE * reps), reps + 1) if covers(k, reps))
    logp = [math.lgamma(reps + 1) - math.lgamma(i + 1) - math.lgamma(reps - i + 1)
            + i * math.log(coverage) + (reps - i) * math.log1p(-coverage) for i in range(k)]
    return float(sum(math.exp(v) for v in logp))


def verdicts(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with the verdict columns: ``meets_coverage`` and ``normal_meets`` (the
    coverage target, for the reported interval and the normal one), ``degenerate``,
    ``width_judged``/``meets_width``, ``games_judged``/``meets_games`` (False where not
    judged) and ``meets`` (every target judged in the cell met)."""
    df = df.copy()
    moderate = np.isclose(df.density.to_numpy()[:, None], MODERATE).any(axis=1)
    df["meets_coverage"] = [covers(c, r) for c, r in zip(df.covered, df.reps)]
    df["normal_meets"] = [covers(c, r) for c, r in zip(df.normal_covered, df.reps)]
    df["degenerate"] = df.pool_off == 0
    df["width_judged"] = moderate & df.normal_meets & (df.normal_width > 0)
    df["meets_width"] = df.width_judged & (df.width_ratio <= RATIO)
    df["games_judged"] = (moderate & df.normal_meets & (df["count"].astype(str) == "adaptive")
                          & (df.kind == "score"))
    df["meets_games"] = df.games_judged & (df.games_ratio <= RATIO)
    df["meets"] = (df.meets_coverage & (df.meets_width | ~df.width_judged)
                   & (df.meets_games | ~df.games_judged))
    return df


def cell_name(r) -> str:
    """A cell in words: its board, game count and interval.

    >>> cell_name(dict(rules="classic", size=30, density=0.05, who="basic", count="200"))
    'classic 30x30 density 0.05, basic, 200 games'
    """
    games = "adaptive" if str(r["count"]) == "adaptive" else f"{r['count']} games"
    return f"{r['rules']} {r['size']}x{r['size']} density {r['density']:g}, {r['who']}, {games}"


def summary(df: pd.DataFrame) -> pd.DataFrame:
    """One row per interval type: cells meeting the coverage target of all cells (and
    the normal approximation's), the lowest coverage and its cell, and the width and
    games ratios where they are judged."""
    df = verdicts(df) if "meets" not in df else df
    rows = []
    for kind, g in df.groupby("kind", sort=False):
        live = g[~g.degenerate]
        low = live.loc[live.coverage.idxmin()] if len(live) else None
        nlow = live.loc[live.normal_coverage.idxmin()] if len(live) else None
        w, n = g[g.width_judged], g[g.games_judged]
        rows.append(dict(
            kind=kind, cells=len(g), degenerate=int(g.degenerate.sum()),
            meets_coverage=int(g.meets_coverage.sum()),
            normal_meets=int(g.normal_meets.sum()),
            lowest=None if low is None else low.coverage,
            lowest_ci=None if low is None else (low.coverage_low, low.coverage_high),
            lowest_cell=None if low is None else cell_name(low),
            normal_lowest=None if nlow is None else nlow.normal_coverage,
            normal_lowest_cell=None if nlow is None else cell_name(nlow),
            width_judged=len(w), meets_width=int(w.meets_width.sum()),
            width_ratio_median=w.width_ratio.median() if len(w) else None,
            width_ratio_max=w.width_ratio.max() if len(w) else None,
            games_judged=len(n), meets_games=int(n.meets_games.sum()),
            games_ratio_median=n.games_ratio.median() if len(n) else None,
            games_ratio_max=n.games_ratio.max() if len(n) else None))
    return pd.DataFrame(rows)

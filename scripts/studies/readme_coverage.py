"""The coverage page's tables (results/coverage/coverage.csv, scripts/studies/coverage_study.py).

Renderers for :mod:`readme_tables`: ``coverage-verdict`` (per interval type: the cells
meeting each of issue 62's targets, the lowest coverage and where), ``coverage-boards``
(per board and interval type: the lowest coverage of the reported interval and of the
normal approximation) and ``coverage-misses`` (every cell that misses a target, with its
figures). Coverage in percent; ``[a, b]`` is its own 95% Clopper-Pearson interval.
"""
from __future__ import annotations

import json
import os

import pandas as pd

from fastsweep.studies.coverage_table import (COVERAGE, COVERAGE_LOW, KIND_NAMES, RATIO,
                                              cell_name, chance_miss, summary, verdicts)
from readme_reports import _md

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COV = os.path.join(ROOT, "results", "coverage")


def _load():
    df = pd.read_csv(os.path.join(COV, "coverage.csv"), dtype={"count": str})
    return verdicts(df)


def _pct(v, digits=1):
    return f"{100 * v:.{digits}f}"


def coverage_verdict():
    df = _load()
    with open(os.path.join(COV, "run.json")) as f:
        run = json.load(f)
    s = summary(df)
    reps = int(df.reps.min())
    live = int((~df.degenerate).sum())
    rows, rows2 = [], []
    for r in s.itertuples():
        rows.append([KIND_NAMES[r.kind], f"{r.meets_coverage} / {r.cells}",
                     r.degenerate,
                     f"{_pct(r.lowest, 2)} [{_pct(r.lowest_ci[0], 2)}, "
                     f"{_pct(r.lowest_ci[1], 2)}]",
                     r.lowest_cell, f"{r.normal_meets} / {r.cells}",
                     f"{_pct(r.normal_lowest)}", r.normal_lowest_cell])
        rows2.append([KIND_NAMES[r.kind], f"{r.meets_width} / {r.width_judged}",
                      _ratio(r.width_ratio_median), _ratio(r.width_ratio_max),
                      f"{r.meets_games} / {r.games_judged}" if r.games_judged else "",
                      _ratio(r.games_ratio_median), _ratio(r.games_ratio_max)])
    chance = chance_miss(reps)
    boards = df.groupby(["rules", "size", "density"]).ngroups
    head = (f"{reps:,} replications a cell, {len(df):,} cells ({boards} boards x "
            f"{df['count'].nunique()} game counts x 22 intervals), "
            f"{run.get('date', '?')[:10]}, {run.get('seconds', 0) / 60:.0f} min on "
            f"{run.get('machine', '?')}; `results/coverage/coverage.csv`. Coverage target: "
            f">= {COVERAGE:.0%} with the lower end of its own interval >= {COVERAGE_LOW:.0%}. "
            f"At {reps:,} replications a cell whose interval covers exactly 95% misses it by "
            f"chance with probability {chance:.1%}: about {chance * live:.0f} of the "
            f"{live:,} cells that are not degenerate.")
    return (head + "\n\n"
            + _md(["interval", "cells meeting the target", "of them degenerate",
                   "lowest coverage", "where", "normal approximation: cells meeting",
                   "its lowest", "where"], rows)
            + f"\n\nAt the moderate densities (0.1-0.3), where the normal approximation "
            f"covers and is not a point: the reported interval's median width against "
            f"the normal one's (target <= {RATIO}x), and in the adaptive cells of the mean "
            f"score the median games of the adaptive rule against the old rule's (target "
            f"<= {RATIO}x).\n\n"
            + _md(["interval", "width within target", "median ratio", "largest",
                   "games within target", "median ratio", "largest"], rows2))


def _ratio(v):
    return "" if v is None or v != v else f"{v:.2f}x"


def coverage_boards():
    df = _load()
    rows = []
    for (rules, size, d), g in df.groupby(["rules", "size", "density"], sort=False):
        r = [f"{rules} {size}x{size}", f"{d:g}", f"{int(g.pool.iloc[0]):,}"]
        for kind in KIND_NAMES:
            k = g[g.kind == kind]
            r.append(f"{_pct(k.coverage.min())} / {_pct(k.normal_coverage.min())}")
        rows.append(r)
    return ("Lowest coverage over the board's members (or pairs) and game counts: the "
            "reported interval / the normal approximation, in percent.\n\n"
            + _md(["board", "density", "pool"] + list(KIND_NAMES.values()), rows))


def coverage_misses():
    df = _load()
    miss = df[~df.meets]
    if not len(miss):
        return "Every cell meets every target judged in it."
    rows = []
    for _, r in miss.iterrows():
        what = []
        if not r.meets_coverage:
            what.append(f"coverage {_pct(r.coverage, 2)} [{_pct(r.coverage_low, 2)}, "
                        f"{_pct(r.coverage_high, 2)}] (normal: {_pct(r.normal_coverage, 2)})")
        if r.width_judged and not r.meets_width:
            what.append(f"width {r.width:.4f} vs normal {r.normal_width:.4f} "
                        f"({r.width_ratio:.2f}x)")
        if r.games_judged and not r.meets_games:
            what.append(f"games {r.games:.0f} vs old rule {r.normal_games:.0f} "
                        f"({r.games_ratio:.2f}x)")
        rows.append([cell_name(r), KIND_NAMES[r.kind], "; ".join(what),
                     _pct(r.whole_share, 0), _pct(r.pool_off)])
    return (f"{len(miss)} of {len(df):,} cells miss a target.\n\n"
            + _md(["cell", "interval", "missed", "bounded within [0, 1] or [-1, 1] in % of replications",
                   "pool games off the most common value, %"], rows))


BLOCKS = {"coverage-verdict": coverage_verdict, "coverage-boards": coverage_boards,
          "coverage-misses": coverage_misses}

"""A profile's tables from its raw rows: time per game and per move with intervals
(``summary``), the growth exponents (``fits``), and its ``run.json``."""
from __future__ import annotations

import json
import os

import numpy as np
import pandas as pd

from .fit import fit_power, local_exponents, mean_interval
from .measure import WORK_COLUMNS

SETTING = ["agent", "rules", "mine_count", "density"]
QUANTITIES = ("time", "time_per_move") + WORK_COLUMNS + ("allocs",)


def summary_table(timing, work) -> pd.DataFrame:
    """One row per agent and board: games, time per game and per move (means over the
    repeats, 95% t intervals), moves and guesses per game, the work pass's counters."""
    rows = []
    for key, t in timing.groupby(SETTING + ["size", "cells"], sort=True):
        per_game = t["secs"] / t["games"]
        per_move = t["secs"] / t["moves"].clip(lower=1)
        m, lo, hi = mean_interval(per_game)
        mm, mlo, mhi = mean_interval(per_move)
        row = dict(zip(SETTING + ["size", "cells"], key), repeats=len(t),
                   games=int(t["games"].sum()), us_per_game=m * 1e6,
                   us_per_game_lo=lo * 1e6, us_per_game_hi=hi * 1e6,
                   us_per_move=mm * 1e6, us_per_move_lo=mlo * 1e6, us_per_move_hi=mhi * 1e6,
                   moves=float(t["moves"].sum() / t["games"].sum()),
                   guesses=float(t["guesses"].sum() / t["games"].sum()),
                   score=float(t["score"].sum() / t["games"].sum()))
        w = _match(work, row)
        if w is not None:
            for c in WORK_COLUMNS + ("allocs",):
                row[c] = float(w[c])
            row["split"] = w["kind"]
            row["us_per_game_clocked"] = float(w["secs"]) * 1e6
        rows.append(row)
    return pd.DataFrame(rows)


def _match(work, row):
    if work is None or work.empty:
        return None
    sel = np.ones(len(work), bool)
    for k in SETTING + ["size"]:
        col = work[k].to_numpy()
        v = row[k]
        sel &= (np.abs(col - v) < 1e-12) if isinstance(v, float) else (col == v)
    return work[sel].iloc[0] if sel.any() else None


def _values(setting_t, setting_w, q):
    """(cells, values) of quantity ``q``: per repeat for the times, per board for the
    work pass's counters (one value each)."""
    if q == "time":
        return setting_t["cells"], setting_t["secs"] / setting_t["games"]
    if q == "time_per_move":
        return setting_t["cells"], setting_t["secs"] / setting_t["moves"].clip(lower=1)
    if setting_w is None or q not in setting_w:
        return [], []
    return setting_w["cells"], setting_w[q]


def fits_table(timing, work) -> pd.DataFrame:
    """One row per agent, setting, density and quantity (``QUANTITIES``): the exponent of
    its growth with the cells and its interval over the range where the law holds
    (``fit.fit_power``), and the local exponents between consecutive sizes."""
    rows = []
    for key, t in timing.groupby(SETTING, sort=True):
        w = None
        if work is not None and not work.empty:
            w = work.merge(pd.DataFrame([dict(zip(SETTING, key))]), on=SETTING)
        for q in QUANTITIES:
            cells, vals = _values(t, w, q)
            f = fit_power(cells, vals)
            if f is None:
                continue
            loc = local_exponents(cells, vals)
            rows.append(dict(zip(SETTING, key), quantity=q, exponent=f.exponent,
                             lo=f.lo, hi=f.hi, cells_lo=f.cells_lo, cells_hi=f.cells_hi,
                             holds=f.holds, max_dev=f.max_dev, points=f.points,
                             broken=f.broken,
                             local=" ".join(f"{a}-{b}:{e:.2f}" for a, b, e in loc)))
    return pd.DataFrame(rows)


def write_run(folder, spec, seconds):
    """``run.json``: the command, the spec, machine and versions, seconds taken."""
    import sys

    from ..studies.script_args import provenance

    rec = dict(command=" ".join(sys.argv), seconds=round(seconds, 1),
               spec={k: v for k, v in spec.items() if k != "block"}, **provenance())
    with open(os.path.join(folder, "run.json"), "w") as f:
        json.dump(rec, f, indent=1, default=str)

"""README tables of the noise studies (results/noise/*.csv, scripts/studies/noise_study.py).

Renderers for :mod:`readme_tables` (blocks ``noise-bonus`` and ``noise-report000``):
numbers in percent, ``m ± h`` = mean and 95% CI half-width (``m [lo, hi]`` for an interval
that is not symmetric to the digits shown).
"""
from __future__ import annotations

import os

import numpy as np
import pandas as pd

from readme_reports import _md, _pm

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NOISE = os.path.join(ROOT, "results", "noise")
WHO = (("basic", ""), ("inference", "noise_aware=False"), ("probability", "noise_aware=False"),
       ("inference", "aware"), ("probability", "aware"), ("probability", "flag_threshold"))


def _load(name):
    df = pd.read_csv(os.path.join(NOISE, f"{name}.csv"), keep_default_na=False,
                     na_values=[""], dtype={"options": str})
    df["options"] = df["options"].fillna("")
    df["noise"] = df.options.str.extract(r"noise=([^;]*)")[0]
    return df


def _who(df, agent, how):
    sub = df[df.agent == agent]
    if how == "aware":
        return sub[~sub.options.str.contains("noise_aware|flag_threshold")]
    return sub[sub.options.str.contains(how)] if how else sub


def _label(agent, how):
    return {"": agent, "noise_aware=False": f"{agent}, trusting", "aware": f"{agent}, aware",
            "flag_threshold": f"{agent}, aware, flags at 0.9"}[how]


def noise_bonus():
    df = _load("bonus")
    rows = []
    for width in (30, 16):
        for noise in ("none", "detector:p_neg=0.0,p_pos=0.2", "detector:p_neg=0.2,p_pos=0.0",
                      "detector:p_neg=0.2,p_pos=0.2"):
            for agent, how in WHO:
                sub = _who(df[(df.width == width) & (df.noise == noise)], agent, how)
                if not len(sub):
                    continue
                who = agent if noise == "none" else _label(agent, how)
                r = [f"{width}x{width}", noise.replace("detector:", ""), who]
                for dens in (0.05, 0.1, 0.15, 0.2, 0.25):
                    x = sub[np.isclose(sub.density, dens, atol=0.005)]
                    r.append(f"{_pm(x.iloc[0])} / {100 * x.iloc[0].wrong_rate:.1f}"
                             if len(x) else "")
                rows.append(r)
    n = f"{int(df.games.min()):,}" if df.games.nunique() == 1 else \
        f"{int(df.games.min()):,}-{int(df.games.max()):,}"
    return (f"keep-going, no mine total, {n} games a cell (seed {int(df.seed.iloc[0])}); "
            "each cell: score ± 95% CI / wrong flags per 100 mines; "
            "`results/noise/bonus.csv`.\n\n"
            + _md(["board", "noise", "agent", "0.05", "0.1", "0.15", "0.2", "0.25"], rows))


def noise_report000():
    df = _load("report000")
    base = df[df.noise == "none"].iloc[0]
    rows = []
    for noise, what in (("none", "no noise"), ("reveal:p=0.98", "2% of clues not shown"),
                        ("reveal:p=0.02", "98% of clues not shown"),
                        ("optimistic", "optimistic clues"),
                        ("cautious", "cautious clues")):
        x = df[df.noise == noise]
        if not len(x):
            continue
        x = x.iloc[0]
        flags = x.score + x.wrong_rate  # the report's count: every flag, right or wrong
        rows.append([what, f"`{noise}`", _pm(x), f"{100 * (x.score / base.score - 1):+.0f}%",
                     f"{100 * x.wrong_rate:.1f}", f"{100 * flags:.1f}"])
    return (f"basic agent, 10x10 at density 0.2, keep-going, {int(df.games.min()):,} games "
            "a cell; `results/noise/report000.csv`.\n\n"
            + _md(["sensor", "spec", "score (correct flags / mines)", "vs no noise",
                   "wrong flags / mines", "all flags / mines (the report's count)"], rows))


BLOCKS = {"noise-bonus": noise_bonus, "noise-report000": noise_report000}

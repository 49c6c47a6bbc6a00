"""README tables of the hard-board study (results/hard/*.csv, scripts/studies/hard_study.py).

Renderers for :mod:`readme_tables` (blocks ``hard-search``, ``hard-cluster`` and
``hard-exhaustive``): drops in percent of the random layout's score, ``m (lo-hi)`` = the
mean and the range over a cell's searches.
"""
from __future__ import annotations

import os

import pandas as pd

from readme_reports import _md, interval_text

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HARD = os.path.join(ROOT, "results", "hard")
SERIES = (("basic", "16"), ("probability", "16"), ("basic", "all"))


def _load(name):
    return pd.read_csv(os.path.join(HARD, f"{name}.csv"),
                       dtype={"tries": str, "layout": str, "start_layout": str,
                              "hardest": str, "easiest": str})


def _label(agent, tries):
    return f"{agent}, every move a round" if tries == "all" else agent


def hard_search():
    df = _load("search")
    rows = []
    for (dens, dim), g in df.groupby(["density", "dim"]):
        row = [f"{dens:g}", f"{dim}x{dim}", int(g.mines.iloc[0])]
        for agent, tries in SERIES:
            s = g[(g.agent == agent) & (g.tries == tries)].rel_drop
            row.append(f"{s.mean():.1f} ({s.min():.1f}-{s.max():.1f})" if len(s) else "")
        rows.append(row)
    n = {k: int(v) for k, v in df.groupby(["agent", "tries"]).rep.nunique().items()}
    head = (f"Score drop (%) from the random layout to the searched one, on "
            f"{int(df.eval_plays.max()):,} held-out games, paired: mean (range) over "
            + ", ".join(f"{n.get(s, 0)} searches ({_label(*s)})" for s in SERIES)
            + f"; {len(df)} searches, `results/hard/search.csv`.")
    return head + "\n\n" + _md(["density", "board", "mines"] + [_label(*s) for s in SERIES],
                               rows)


def hard_cluster():
    df = _load("search")
    rows = []
    for agent, tries in SERIES:
        for dens, g in df[(df.agent == agent) & (df.tries == tries)].groupby("density"):
            moved = g[g.steps > 0]
            rows.append([_label(agent, tries), f"{dens:g}", len(moved),
                         f"{moved.border_random.mean():.2f}",
                         f"{moved.border_start.mean():.2f} -> {moved.border.mean():.2f}",
                         f"{moved.nb_random.mean():.2f}",
                         f"{moved.nb_start.mean():.2f} -> {moved.nb.mean():.2f}"])
    return ("Means over the searches that kept at least one move, all board sizes "
            "(`results/hard/search.csv`).\n\n"
            + _md(["search", "density", "searches", "border share, expected",
                   "border share, start -> searched", "mine neighbours, expected",
                   "mine neighbours, start -> searched"], rows))


def hard_exhaustive():
    ex = _load("exhaustive")
    rows = []
    for (board, mines), g in ex.groupby(["board", "mines"]):  # 3x3 first, fewest mines first
        g = g.set_index("agent")
        row = [board, mines, int(g.layouts.iloc[0]), int(g.orbits.iloc[0])]
        for agent in ("basic", "probability"):
            r = g.loc[agent]
            row += [f"{100 * r.mean_all:.1f}",
                    interval_text(r.held_score, r.held_low, r.held_high),
                    f"`{r.hardest}`"]
        rows.append(row)
    plays = {a: int(ex[ex.agent == a].plays.iloc[0]) for a in ("basic", "probability")}
    head = (f"Mean score (%) over every layout, and the hardest layout with its score on "
            f"held-out games (± 95% CI half-width); basic {plays['basic']:,} games a layout, "
            f"probability {plays['probability']:,}; layouts as rows top to bottom, 1 = mine "
            "(`results/hard/exhaustive.csv`).")
    return head + "\n\n" + _md(["board", "mines", "layouts", "classes", "basic: all",
                                "basic: hardest", "layout", "probability: all",
                                "probability: hardest", "layout"], rows)


BLOCKS = {"hard-search": hard_search, "hard-cluster": hard_cluster,
          "hard-exhaustive": hard_exhaustive}

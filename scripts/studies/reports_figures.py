"""Figures of the reports' studies (scripts/studies/reports.py): one per report, from its
CSV.

Encodings as in every fastsweep figure (``fastsweep.viz.style``): colour and marker =
the agent, solid = not told the mine total, dashed = told; shaded = 95% CI. Here also:
dotted with x markers = the report's own published numbers (in the agent's colour), and
dash-dot = the risk agent deciding its look-ahead by the single-clue rules (the report's
variant).

Usage: python3 scripts/studies/reports_figures.py [--data results/reports] [--out DIR]
                                                 [--only NAMES]
(reports.py draws them too, into its own folder)
"""
from __future__ import annotations

import os

import numpy as np
import pandas as pd

from fastsweep.studies.published import DHURANDHAR, RELE, RELE_DENSITIES
from fastsweep.studies.script_args import figures_main
from fastsweep.viz import style as ps


def _curve(ax, g, x, y, lo, hi, kw, bands, scale=1.0):
    g = g.sort_values(x)
    ax.plot(g[x], g[y] * scale, lw=ps.LINEWIDTH, **kw)
    if lo is not None:
        ax.fill_between(g[x], g[lo] * scale, g[hi] * scale, color=kw["color"],
                        alpha=ps.BAND_ALPHA, lw=0)
        bands.append((ax, g[x], g[lo] * scale, g[hi] * scale))


def _grid(nrows, ncols, height):
    """Panels with their own y axes (the curves of different densities lie far apart)."""
    fig, grid = ps.plt.subplots(nrows, ncols, figsize=(ps.WIDE, height), sharex=True,
                                squeeze=False, layout="constrained")
    return fig, list(grid.ravel())


def fig_rele2019(df):
    df = df[df.width <= 40]  # (50x50 is the timing board: see the README's time table)
    fig, axes = _grid(2, 2, 5.6)
    bands = []
    for ax, dens in zip(axes, RELE_DENSITIES):
        sub = df[np.isclose(df.density, dens, atol=0.005)]
        for agent, mc in ps.members(sub):
            g = sub[(sub.agent == agent) & (sub.mine_count == mc)]
            _curve(ax, g, "width", "score", "score_low", "score_high",
                   ps.line_kw(agent, mc), bands, 100)
        for agent, table in RELE.items():
            j = RELE_DENSITIES.index(dens)
            dims = sorted(table)
            c, _ = ps.agent_style(agent)
            ax.plot(dims, [table[d][j] for d in dims], color=c, ls=":", marker="x", ms=4,
                    lw=ps.LINEWIDTH, label=f"{agent} (report)", zorder=4)
        ax.set_title(f"density {dens:g}")
        ax.set_xticks([10, 20, 30, 40])
    ps.label_axes(axes, "board side (d x d)", "mines flagged (%)")
    ps.finish(fig, axes, "Rele et al. 2019, Table 1 redone",
              "keep-going, random opening, d x d boards",
              notes=["dotted x: the report's numbers (about 100 games each)"], bands=bands)
    return fig


def _risk_gap(df):
    """Largest difference (points) between the two risk variants' cost or guess share."""
    r = df[df.agent == "risk"]
    a = r[r.options == ""].set_index("density")
    b = r[r.options != ""].set_index("density")
    return 100 * max((a.cost - b.cost).abs().max(), (a.guess_share - b.guess_share).abs().max())


def fig_cs440(df):
    fig, axes = _grid(1, 3, 4.2)
    bands = []
    first = df[df.agent.isin(["basic", "linalg-plus"])]
    for agent, mc in ps.members(first):
        g = first[(first.agent == agent) & (first.mine_count == mc)]
        _curve(axes[0], g, "density", "score", "score_low", "score_high",
               ps.line_kw(agent, mc), bands, 100)
    axes[0].set_title("score: % mines flagged")
    follow = df[df.agent.isin(["linalg-plus", "probability", "risk"]) & ~df.mine_count
                & df.density.between(0.19, 0.81)]
    for (agent, opts), g in follow.groupby(["agent", "options"]):
        kw = ps.line_kw(agent, False)
        if opts:  # risk_rules=basic
            kw.update(ls="-.", label=f"{agent} (basic rules)")
        _curve(axes[1], g, "density", "cost", "cost_low", "cost_high", kw, bands, 100)
        _curve(axes[2], g, "density", "guess_share", "guess_low", "guess_high", dict(kw),
               bands, 100)
    axes[1].set_title("cost: % mines detonated")
    axes[2].set_title("risk: % moves guessed")
    ps.label_axes(axes, "mine density", "percent")
    ps.finish(fig, axes, "CS440 report and its follow-up redone", "20x20, keep-going",
              notes=["cost and risk without the mine total (the follow-up's agents)",
                     f"risk and risk (basic rules) lie within {_risk_gap(df):.1f} points of "
                     "each other"],
              bands=bands)
    return fig


def fig_patel2020(df):
    sizes = sorted(df.width.unique())
    fig, axes = ps.panels(len(sizes))
    bands = []
    for ax, d in zip(axes, sizes):
        sub = df[df.width == d]
        for agent, mc in ps.members(sub):
            g = sub[(sub.agent == agent) & (sub.mine_count == mc)]
            _curve(ax, g, "density", "score", "score_low", "score_high",
                   ps.line_kw(agent, mc), bands, 100)
        ax.set_title(f"{d} x {d}")
    ps.label_axes(axes, "mine density", "mines flagged (%)")
    both = df[df.agent.isin(["probability", "threshold"])].pivot_table(
        index=["width", "density"], columns="agent", values="score")
    gap = 100 * (both["probability"] - both["threshold"]).abs().max()
    ps.finish(fig, axes, "Patel et al. 2020 redone", "keep-going, no mine total",
              notes=[f"threshold is drawn over probability: they differ by at most "
                     f"{gap:.1f} points"], bands=bands)
    return fig


def fig_dhurandhar(df):
    boards = [(9, 10), (16, 40), (30, 185)]
    agents = sorted(set(df.agent), key=lambda a: ps.member_key(a, False))[::-1]
    fig, grid = ps.plt.subplots(1, len(boards), figsize=(ps.WIDE, 3.0), sharey=True,
                                layout="constrained")
    for ax, (d, m) in zip(grid, boards):
        sub = df[(df.width == d) & (df.mines == m)].set_index("agent")
        for i, a in enumerate(agents):
            if a not in sub.index:
                continue
            r = sub.loc[a]
            c, mk = ps.agent_style(a)
            ax.errorbar([100 * r.win_rate], [i],
                        xerr=[[100 * (r.win_rate - r.win_low)], [100 * (r.win_high - r.win_rate)]],
                        color=c, marker=mk, ms=4, lw=ps.LINEWIDTH, capsize=2)
        ax.axvline(100 * DHURANDHAR[(d, m)] / 50, color="0.3", ls=":", lw=ps.LINEWIDTH)
        ax.set_title(f"{d}x{d}, {m} mines")
        ax.set_xlim(0, 100)
        ax.set_xlabel("games won (%)")
        ax.grid(True, axis="x")
    grid[0].set_yticks(range(len(agents)))
    grid[0].set_yticklabels(agents)
    lo, hi = int(df.games.min()), int(df.games.max())
    games = f"{hi:,}" if lo == hi else f"{lo:,}-{hi:,}"
    fig.suptitle("Dhurandhar report redone: classic rules, first cell (0,0), no mine total\n"
                 f"bars: 95% Clopper-Pearson interval over {games} games; dotted: the report's wins "
                 "of 50", fontsize=ps.STYLE["figure.titlesize"])
    return fig


FIGURES = {"rele2019": fig_rele2019, "cs440": fig_cs440, "patel2020": fig_patel2020,
           "dhurandhar": fig_dhurandhar}


def draw_all(data, names=None, out=None):
    """The figures of the reports ``names`` (default all) whose CSVs are in ``data``,
    into ``out`` (default ``data``); returns the files written."""
    files = []
    for name in names or FIGURES:
        path = os.path.join(data, f"{name}.csv")
        if not os.path.exists(path):
            continue
        df = pd.read_csv(path, keep_default_na=False, na_values=[""], dtype={"options": str})
        df["options"] = df["options"].fillna("").astype(str)
        df["mine_count"] = df["mine_count"].astype(str) == "True"
        fig = FIGURES[name](df)
        files += ps.save(fig, os.path.join(out or data, f"fig_{name}"), ("png", "pdf"))
    return files


def main(argv=None):
    figures_main(argv, "reports_figures", __doc__, "reports", draw_all, tuple(FIGURES))


if __name__ == "__main__":
    main()

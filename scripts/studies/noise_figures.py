"""Figures of the noise studies (scripts/studies/noise_study.py), from their CSVs.

Encodings: colour and marker = the agent (as in every fastsweep figure); line style = how
it reads the clues: solid = noise-aware (exact posterior; basic: its rules), dashed =
trusting the shown clues, dash-dot = noise-aware flagging at posterior 0.9; shaded = 95%
CI. No agent here is told the mine total.

Usage: python3 scripts/studies/noise_figures.py [--data results/noise] [--out DIR]
                                               [--only bonus,levels]
(bonus: fig_bonus.png, the assignment's 30x30 board, and fig_bonus16.png; noise_study.py
draws them too, into its own folder)
"""
from __future__ import annotations

import os

import numpy as np
import pandas as pd

from fastsweep.studies.script_args import figures_main
from fastsweep.viz import style as ps

MODELS = ("detector", "reveal", "optimistic", "cautious")


def player(options):
    """(label, line style) of a cell's options string."""
    if "noise_aware=False" in options:
        return "trusting", "--"
    if "flag_threshold" in options:
        return "aware, flags at 0.9", "-."
    return "aware", "-"


def _line(ax, g, x, y, agent, opts, bands, scale=100.0):
    how, ls = player(opts)
    c, mk = ps.agent_style(agent)
    label = agent if agent == "basic" else f"{agent}, {how}"
    g = g.sort_values(x)
    ax.plot(g[x], g[y] * scale, color=c, marker=mk, ls=ls, ms=3, lw=ps.LINEWIDTH,
            label=label, mfc="none" if ls != "-" else c)
    lo, hi = (f"{y}_low", f"{y}_high") if y != "score" else ("score_low", "score_high")
    if y == "wrong_rate":
        lo, hi = "wrong_low", "wrong_high"
    ax.fill_between(g[x], g[lo] * scale, g[hi] * scale, color=c, alpha=ps.BAND_ALPHA, lw=0)
    bands.append((ax, g[x], g[lo] * scale, g[hi] * scale))


def _finish(fig, axes, title, notes, bands):
    for ax in axes:
        ax.grid(True)
    handles, labels = axes[0].get_legend_handles_labels()
    seen = dict(zip(labels, handles))
    for ax in axes[1:]:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            seen.setdefault(lab, h)
    fig.legend(seen.values(), seen.keys(), loc="outside lower center", ncols=3,
               fontsize=ps.STYLE["legend.fontsize"])
    size = ps.STYLE["figure.titlesize"]
    lines = [w for t in [title, *notes, ps.band_note(fig, bands)] if t
             for w in ps.wrap_text(fig, t, size)]  # (the shared helper that measures widths)
    fig.suptitle("\n".join(lines), fontsize=size)


def fig_bonus(df, width=30):
    df = df[df.options.str.contains("detector") & (df.width == width)]
    board = f"{width}x{width}"
    cases = sorted(df.options.str.extract(r"(detector:[^;]*)")[0].unique())
    if not cases:  # (a --quick run plays the smallest board only)
        return None
    fig, grid = ps.plt.subplots(2, len(cases), figsize=(ps.WIDE, 5.6), sharex=True,
                                sharey="row", squeeze=False, layout="constrained")
    bands = []
    for j, case in enumerate(cases):
        sub = df[df.options.str.contains(case, regex=False)]
        for (agent, opts), g in sub.groupby(["agent", "options"], sort=False):
            _line(grid[0, j], g, "density", "score", agent, opts, bands)
            _line(grid[1, j], g, "density", "wrong_rate", agent, opts, bands)
        a, b = case.split(":")[1].split(",")
        grid[0, j].set_title(f"{a}, {b}".replace("=", " ").replace(",", ",  "))
        grid[1, j].set_xlabel("mine density")
    grid[0, 0].set_ylabel("mines flagged correctly (%)")
    grid[1, 0].set_ylabel("wrong flags per mine (%)")
    lo, hi = int(df.games.min()), int(df.games.max())
    n = f"{lo:,}" if lo == hi else f"{lo:,}-{hi:,}"
    notes = [f"{board}, keep-going, no mine total; {n} games a point"]
    aware = df[(df.agent != "basic") & ~df.options.str.contains("noise_aware|flag_threshold")]
    if aware.agent.nunique() > 1:  # both noise-aware agents: their zero lines coincide
        notes.append("with p_pos 0.2 both noise-aware agents flag nothing: their lines at 0 "
                     "lie on each other")
    _finish(fig, list(grid.ravel()), "The assignment's bonus: a detector that misses mines "
            "(p_neg) and sees mines that are not there (p_pos)", notes, bands)
    return fig


def fig_levels(df):
    dens = sorted(df.density.unique())
    fig, grid = ps.plt.subplots(len(dens), len(MODELS), figsize=(ps.WIDE, 5.6), sharex=True,
                                sharey=True, squeeze=False, layout="constrained")
    bands = []
    df = df.copy()
    df["model"] = df.options.str.extract(r"noise=(\w+)")[0]
    df["level"] = df.options.str.extract(r"p(?:_neg)?=([0-9.]+)")[0].astype(float)
    df.loc[df.model == "reveal", "level"] = 1 - df.loc[df.model == "reveal", "level"]
    df["level"] = df.level.round(6)
    df["how"] = df.options.str.replace(r"noise=[^;]*;?", "", regex=True)
    for i, d in enumerate(dens):
        for j, m in enumerate(MODELS):
            ax = grid[i, j]
            sub = df[np.isclose(df.density, d) & (df.model == m)]
            for (agent, how), g in sub.groupby(["agent", "how"], sort=False):
                _line(ax, g, "level", "score", agent, how, bands)
            if i == 0:
                ax.set_title(m)
            if i == len(dens) - 1:
                ax.set_xlabel({"detector": "p_neg = p_pos", "reveal": "1 - p",
                               "optimistic": "p", "cautious": "p"}[m])
        grid[i, 0].set_ylabel(f"density {d:g}\nmines flagged (%)")
    _finish(fig, list(grid.ravel()), "Score against the noise level, each model",
            [f"10x10, keep-going, no mine total; {int(df.games.min()):,} games a point",
             "x: the share of clues not shown (reveal), perturbed (optimistic: lowered, "
             "cautious: raised) or the detector's error rates; under reveal both readings "
             "of the clues are the same agent (their lines coincide)"], bands)
    return fig


# figure name: (study, drawing)
FIGURES = {"bonus": ("bonus", fig_bonus),
           "bonus16": ("bonus", lambda df: fig_bonus(df, 16)),
           "levels": ("levels", fig_levels)}


def load(data, name):
    df = pd.read_csv(os.path.join(data, f"{name}.csv"), keep_default_na=False, na_values=[""])
    df["options"] = df["options"].fillna("").astype(str)
    return df


def draw_all(data, names=None, out=None):
    """The figures of the studies ``names`` (default all) whose CSVs are in ``data``,
    into ``out`` (default ``data``); returns the files written."""
    files = []
    for name, (study, draw) in FIGURES.items():
        if (names and study not in names
                or not os.path.exists(os.path.join(data, f"{study}.csv"))):
            continue
        fig = draw(load(data, study))
        if fig is not None:
            files += ps.save(fig, os.path.join(out or data, f"fig_{name}"), ("png", "pdf"))
    return files


def main(argv=None):
    figures_main(argv, "noise_figures", __doc__, "noise", draw_all, ("bonus", "levels"))


if __name__ == "__main__":
    main()

"""Publication figures from sweep summaries (matplotlib, Agg backend).

One-column size (3.4 in wide), vector PDF plus 300 dpi PNG, the same colour *and* marker
for an agent in every figure (Okabe-Ito colours, readable by colour-blind readers; the
markers and line styles keep the lines apart in greyscale), solid lines for agents that
do not know the mine total and dashed for those that do.
"""
from __future__ import annotations

import os

import matplotlib

matplotlib.use("Agg")  # files only: no display needed, same output everywhere
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker as ticker  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from .agents import AGENTS  # noqa: E402

KINDS = ("score", "diff", "win", "time")
FORMATS = ("pdf", "png", "svg")
WIDTH = 3.4  # inches: one column of a two-column paper
HEIGHT = 2.5
COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"]
MARKERS = ["o", "s", "^", "D", "v", "P", "X"]
DENSITY_STYLES = ["-", "--", "-.", ":"]
STYLE = {
    "font.size": 8, "axes.labelsize": 8, "axes.titlesize": 8, "legend.fontsize": 6.5,
    "xtick.labelsize": 7, "ytick.labelsize": 7, "lines.linewidth": 1.0, "lines.markersize": 3,
    "axes.linewidth": 0.6, "grid.linewidth": 0.4, "grid.alpha": 0.4,
    "pdf.fonttype": 42, "svg.fonttype": "none",  # real text, editable in the output
    "savefig.dpi": 300,
}
BOARD_KEYS = ["height", "width", "rules", "first_click", "first_cell"]


def agent_style(agent):
    """(colour, marker) of an agent: fixed by its place in the registry, so it is the same
    in every figure and every run.

    >>> agent_style("basic")
    ('#0072B2', 'o')
    """
    names = list(AGENTS)
    i = names.index(agent) if agent in names else len(names) + sum(map(ord, agent))
    return COLOURS[i % len(COLOURS)], MARKERS[i % len(MARKERS)]


def _label(agent, mine_count, with_mc=True):
    if not with_mc:
        return agent
    return f"{agent}, {'mine total known' if mine_count else 'no mine total'}"


def _save(fig, base, formats):
    files = []
    for fmt in formats:
        path = f"{base}.{fmt}"
        meta = {"CreationDate": None} if fmt == "pdf" else {}
        fig.savefig(path, bbox_inches="tight", metadata=meta)
        files.append(path)
    plt.close(fig)
    return files


def _groups(df):
    """One figure per board shape and rules; the file suffix names it when there are several."""
    keys = [k for k in BOARD_KEYS if k in df]
    groups = list(df.groupby(keys, sort=False))
    for key, g in groups:
        d = dict(zip(keys, key))
        name = f"{d['height']}x{d['width']}_{d['rules']}"
        title = f"{d['height']}\u00d7{d['width']} board, {d['rules']} rules"
        yield (f"_{name}" if len(groups) > 1 else ""), title, g


def _curves(ax, df, y, lo, hi, with_mc):
    for (agent, mc), g in df.groupby(["agent", "mine_count"], sort=False):
        g = g.sort_values("density")
        c, m = agent_style(agent)
        ls = "--" if mc else "-"
        ax.plot(g.density, g[y], color=c, marker=m, ls=ls, label=_label(agent, mc, with_mc),
                mfc="white" if mc else c)
        ax.fill_between(g.density, g[lo], g[hi], color=c, alpha=0.2, lw=0)


def plot_score(summary, base, formats=("pdf", "png"), kind="score"):
    """Mean score (or win rate with ``kind="win"``) vs mine density, one line per agent and
    mine_count, 95% CI as a shaded band. Returns the files written.

    >>> plot_score(load("results/headline").summary, "fig_score")  # doctest: +SKIP
    """
    files = []
    with_mc = summary.mine_count.nunique() > 1
    y, lo, hi, ylab = (("mean_score", "ci_low", "ci_high",
                        "Score (mines flagged / mines)") if kind == "score" else
                       ("win_rate", "win_low", "win_high", "Win rate (no detonation)"))
    with plt.rc_context(STYLE):
        for suffix, title, g in _groups(summary):
            fig, ax = plt.subplots(figsize=(WIDTH, HEIGHT))
            _curves(ax, g, y, lo, hi, with_mc)
            ax.set_xlabel("Mine density (fraction of cells)")
            ax.set_ylabel(ylab)
            ax.set_title(title + (", 95% CI bands" if kind == "score" else ", 95% Wilson bands"))
            ax.set_ylim(-0.02, 1.02)
            ax.grid(True)
            ax.legend(frameon=False, loc="lower left" if kind == "score" else "upper right")
            files += _save(fig, base + suffix, formats)
    return files


def _reference_pairs(pairs, reference):
    """Rows 'agent minus reference' (sign flipped where the reference is listed second), at
    equal mine_count, or against the reference's only setting when it has one (the basic
    agent without the mine total); with a single agent, the effect of the mine total."""
    agents = list(dict.fromkeys(list(pairs.agent_a) + list(pairs.agent_b)))
    ref = reference or agents[0]
    if ref not in agents:
        raise ValueError(f"reference: agent {ref!r} is not in this sweep; agents: "
                         f"{', '.join(agents)}")
    ref_mcs = set(pairs.mine_count_a[pairs.agent_a == ref]) | set(
        pairs.mine_count_b[pairs.agent_b == ref])
    a = pairs[(pairs.agent_a == ref) & (pairs.agent_b != ref)].copy()
    b = pairs[(pairs.agent_b == ref) & (pairs.agent_a != ref)].copy()
    if len(b):  # reference listed second: flip to 'other minus reference'
        b["mean_diff"], b["ci_low"], b["ci_high"] = -b.mean_diff, -b.ci_high, -b.ci_low
        b["agent_a"], b["agent_b"] = b.agent_b, b.agent_a
        b["mine_count_a"], b["mine_count_b"] = b.mine_count_b, b.mine_count_a
    rows = pd.concat([a, b])
    if len(ref_mcs) > 1:
        rows = rows[rows.mine_count_a == rows.mine_count_b]
    if len(rows):
        return rows, f"Score difference vs {ref} (paired)"
    mc = pairs[(pairs.agent_a == pairs.agent_b) & (pairs.agent_a == ref)
               & (pairs.mine_count_a != pairs.mine_count_b)].copy()
    if mc.mine_count_a.any():
        mc["mean_diff"], mc["ci_low"], mc["ci_high"] = -mc.mean_diff, -mc.ci_high, -mc.ci_low
    mc["mine_count_b"] = True
    return mc, "Score gain from the mine total (paired)"


def plot_diff(pairs, base, formats=("pdf", "png"), reference=None):
    """Paired difference of mean score (agent B minus reference agent A, on the same games)
    vs density with its 95% CI band. Returns the files written."""
    rows, ylab = _reference_pairs(pairs, reference)
    if rows.empty:
        return []
    with_mc = rows.mine_count_b.nunique() > 1
    files = []
    with plt.rc_context(STYLE):
        for suffix, title, g in _groups(rows):
            fig, ax = plt.subplots(figsize=(WIDTH, HEIGHT))
            g = g.rename(columns={"agent_b": "agent", "mine_count_b": "mine_count"})
            _curves(ax, g, "mean_diff", "ci_low", "ci_high", with_mc)
            ax.axhline(0, color="0.3", lw=0.6)
            ax.set_xlabel("Mine density (fraction of cells)")
            ax.set_ylabel(ylab)
            ax.set_title(title + ", 95% CI bands")
            ax.grid(True)
            ax.legend(frameon=False, loc="best")
            files += _save(fig, base + suffix, formats)
    return files


def plot_time(table, base, formats=("pdf", "png")):
    """Microseconds per game vs cells on the board, log-log; colour/marker per agent, line
    style per density (at most four densities drawn; more are averaged). Returns files."""
    t = table.copy()
    t["cells"] = t.height * t.width
    dens = sorted(t.density.unique())
    if len(dens) > len(DENSITY_STYLES):
        t = t.groupby(["agent", "mine_count", "cells"], sort=False, as_index=False).us_per_game.mean()
        t["density"] = np.nan
        dens = [np.nan]
    with_mc = t.mine_count.nunique() > 1
    files = []
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(WIDTH, HEIGHT))
        for (agent, mc), g in t.groupby(["agent", "mine_count"], sort=False):
            c, m = agent_style(agent)
            for i, d in enumerate(dens):
                h = g if d != d else g[g.density == d]
                h = h.sort_values("cells")
                ax.plot(h.cells, h.us_per_game, color=c, marker=m,
                        ls=DENSITY_STYLES[i] if len(dens) > 1 else ("--" if mc else "-"),
                        mfc="white" if mc else c,
                        label=_label(agent, mc, with_mc) if i == 0 else None)
        ax.set_xscale("log")
        ax.set_yscale("log")
        plain = ticker.FuncFormatter(lambda v, _: f"{v:,.0f}" if v >= 1 else f"{v:g}")
        for axis in (ax.xaxis, ax.yaxis):  # plain numbers (400, 10,000), not 4x10^2
            lo, hi = axis.get_view_interval()
            axis.set_major_formatter(plain)
            # label the 2..9 ticks only when the axis spans less than a decade
            axis.set_minor_formatter(plain if hi / lo < 10 else ticker.NullFormatter())
        ax.set_xlabel("Board size (cells)")
        ax.set_ylabel("Time per game (\u00b5s)")
        ax.grid(True, which="major")
        hs, labels = ax.get_legend_handles_labels()
        if len(dens) > 1:
            hs += [plt.Line2D([], [], color="0.3", ls=DENSITY_STYLES[i]) for i in range(len(dens))]
            labels += [f"density {d:g}" for d in dens]
        # below the axes: with many lines there is no empty corner inside
        ax.legend(hs, labels, frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.2),
                  ncol=2)
        ax.set_title("Time per game (one core, kernel time)")
        files += _save(fig, base, formats)
    return files


def plot_results(results, kinds=KINDS, formats=("pdf", "png"), out=None, reference=None):
    """Every requested figure of a sweep folder into ``out`` (default: the folder itself).

    >>> plot_results("results/headline", kinds=["score"])  # doctest: +SKIP
    ['results/headline/fig_score.pdf', 'results/headline/fig_score.png']
    """
    if not os.path.isdir(results):
        raise ValueError(f"results: {results!r} is not a folder")
    sfile, pfile = os.path.join(results, "summary.csv"), os.path.join(results, "pairs.csv")
    if os.path.exists(sfile):
        summary = pd.read_csv(sfile, keep_default_na=False, na_values=[""])
        pairs = pd.read_csv(pfile) if os.path.exists(pfile) else pd.DataFrame()
    else:
        from .sweep import load

        r = load(results)
        summary, pairs = r.summary, r.pairs
    out = out or results
    os.makedirs(out, exist_ok=True)
    files = []
    for k in kinds:
        base = os.path.join(out, f"fig_{k}")
        if k in ("score", "win"):
            files += plot_score(summary, base, formats, kind=k)
        elif k == "diff" and len(pairs):
            files += plot_diff(pairs, base, formats, reference)
        elif k == "time":
            files += plot_time(summary, base, formats)
    return files

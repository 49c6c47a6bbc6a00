"""Figures of the chains-of-influence study (scripts/studies/influence_study.py), from its
CSV.

fig_chains: per game, the longest chain of deductions and the largest reach of any of
its guesses against the mine density (median, shaded quartiles; dashed: the opening's),
per board; colour and marker = the agent (as in every fastsweep figure).
fig_guess: per guess after the opening, the cells decided before the next guess against
the density, for guessed cells on the frontier (next to a revealed clue) and off it;
colour = where the cell was (one panel per agent and board), shaded 95% intervals.
numbers.txt: the tables the README's answers quote.

Usage: python3 scripts/studies/influence_figures.py [--data results/influence] [--out DIR]
(influence_study.py draws them too, into its own folder)
"""
from __future__ import annotations

import os

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from fastsweep.stats import mean_ci
from fastsweep.studies.script_args import figures_main
from fastsweep.viz import style as ps

BOARDS = (9, 16)
AGENTS = ("basic", "inference")


def per_game(df):
    """Per game: the longest chain and largest reach over all its guesses and the
    opening's."""
    g = df.groupby(["agent", "height", "density", "game"])
    out = g.agg(chain=("longest_chain", "max"), reach=("reach", "max")).reset_index()
    first = df[df.opening].set_index(["agent", "height", "density", "game"])
    out["open_chain"] = first["longest_chain"].reindex(
        pd.MultiIndex.from_frame(out[["agent", "height", "density", "game"]])).to_numpy()
    out["open_reach"] = first["reach"].reindex(
        pd.MultiIndex.from_frame(out[["agent", "height", "density", "game"]])).to_numpy()
    return out


def fig_chains(df, out):
    games = per_game(df)
    with plt.rc_context(ps.STYLE):
        fig, grid = plt.subplots(2, 2, figsize=(ps.WIDE, 1.1 + 2 * ps.ROW_HEIGHT),
                                 sharex=True, sharey="row", layout="constrained")
        bands = []
        for col, size in enumerate(BOARDS):
            for row, (key, label) in enumerate((("chain", "longest chain (deductions)"),
                                                ("reach", "reach (cells, Chebyshev)"))):
                ax = grid[row, col]
                for agent in AGENTS[::-1]:  # basic on top: its smaller marker shows
                    g = games[(games.agent == agent) & (games.height == size)]
                    q = g.groupby("density")[key].quantile([0.25, 0.5, 0.75]).unstack()
                    o = g.groupby("density")["open_" + key].median()
                    c, mk = ps.agent_style(agent)
                    ms = 3 if agent == "basic" else 4.5  # equal values: a dot in a square
                    ax.plot(q.index, q[0.5], color=c, marker=mk, ms=ms, label=agent)
                    ax.fill_between(q.index, q[0.25], q[0.75], color=c, alpha=ps.BAND_ALPHA,
                                    lw=0)
                    bands.append((ax, q.index, q[0.25], q[0.75]))
                    ax.plot(o.index, o, color=c, marker=mk, ls="--", mfc="white", ms=ms,
                            label=f"{agent}, the opening's")
                ax.set_title(f"{size}x{size}, keep-going, random opening")
                if col == 0:
                    ax.set_ylabel(label)
                if row == 1:
                    ax.set_xlabel("mine density")
                ax.grid(True)
        n = games.groupby(["agent", "height", "density"]).size()
        handles, labels = grid[0, 0].get_legend_handles_labels()
        order = [labels.index(x) for x in ("basic", "basic, the opening's", "inference",
                                           "inference, the opening's")]
        fig.legend([handles[i] for i in order], [labels[i] for i in order],
                   loc="outside lower center", ncol=4, frameon=False)
        text = ["Chains of influence: the longest chain and the reach of a game's guesses",
                f"solid: median over the {n.min()}-{n.max()} games of a point of the "
                "largest over the game's guesses, shaded: its quartiles; dashed: median "
                "of the opening's own"]
        lines = [w for t in text for w in ps.wrap_text(fig, t, ps.STYLE["figure.titlesize"])]
        fig.set_figheight(fig.get_figheight() + max(len(lines) - 2, 0) * 0.15)
        fig.suptitle("\n".join(lines), fontsize=ps.STYLE["figure.titlesize"])
        return ps.save(fig, os.path.join(out, "fig_chains"), ("png",))


def guess_classes(df):
    """The guesses after the opening, with ``where``: on the frontier (next to a revealed
    clue) or off it."""
    later = df[~df.opening].copy()
    later["where"] = np.where(later.frontier, "on the frontier", "off the frontier")
    return later


def fig_guess(df, out):
    later = guess_classes(df)
    # black and grey, not the agents' colours (the agent is the panel here)
    style = {"off the frontier": dict(color="#000000", marker="o", ls="-"),
             "on the frontier": dict(color="#777777", marker="s", ls="--", mfc="white")}
    with plt.rc_context(ps.STYLE):
        fig, grid = plt.subplots(2, 2, figsize=(ps.WIDE, 1.1 + 2 * ps.ROW_HEIGHT),
                                 sharex=True, sharey=True, layout="constrained")
        for row, size in enumerate(BOARDS):
            for col, agent in enumerate(AGENTS):
                ax = grid[row, col]
                d = later[(later.height == size) & (later.agent == agent)]
                for where, g in d.groupby("where"):
                    rows = [(dens, *mean_ci(x.decided.to_numpy(float)), len(x))
                            for dens, x in g.groupby("density") if len(x) >= 20]
                    t = pd.DataFrame(rows, columns=["density", "mean", "lo", "hi", "n"])
                    if t.empty:  # (a small run: no point of 20 guesses)
                        continue
                    ax.plot(t.density, t["mean"], label=f"guessed cell {where}",
                            **style[where])
                    ax.fill_between(t.density, t.lo.clip(lower=0.5), t.hi,
                                    color=style[where]["color"], alpha=ps.BAND_ALPHA, lw=0)
                ax.set_yscale("log")
                ax.set_title(f"{agent}, {size}x{size}")
                if row == 1:
                    ax.set_xlabel("mine density")
                if col == 0:
                    ax.set_ylabel("cells decided after it")
                ax.grid(True, which="major")
        handles, labels = grid[0, 0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="outside lower center", ncol=2, frameon=False)
        text = ["Cells decided after a guess (not the opening), before the next guess, by "
                "where the guessed cell was",
                "mean over the guesses of a point (points of at least 20 guesses), shaded: "
                "95% CI; log scale"]
        lines = [w for t in text for w in ps.wrap_text(fig, t, ps.STYLE["figure.titlesize"])]
        fig.set_figheight(fig.get_figheight() + max(len(lines) - 2, 0) * 0.15)
        fig.suptitle("\n".join(lines), fontsize=ps.STYLE["figure.titlesize"])
        return ps.save(fig, os.path.join(out, "fig_guess"), ("png",))


def numbers(df):
    """The tables the README's answers quote, as text."""
    later = guess_classes(df)
    out = []
    shown = np.where(df.clue < 0, "detonated", np.where(df.clue == 0, "shows 0", "shows 1-8"))
    t = df.assign(shown=shown).groupby(["height", "agent", "shown"])[
        ["longest_chain", "influenced", "decided", "reach"]].mean().round(1)
    out += ["Per guess (the opening included), by what it showed: means", t.to_string(), ""]
    out += ["Spearman correlations over all guesses",
            df[["longest_chain", "influenced", "reach", "decided", "p_mine"]]
            .corr("spearman").round(2).to_string(), ""]
    rho = later.groupby(["height", "agent", "density"]).apply(
        lambda g: pd.Series({
            "rho(p_mine, decided)": g[["p_mine", "decided"]].corr("spearman").iat[0, 1],
            "rho(p_mine, longest_chain)": g[["p_mine", "longest_chain"]]
            .corr("spearman").iat[0, 1], "guesses": len(g)}), include_groups=False)
    out += ["Per point, guesses after the opening: Spearman correlation of the guessed "
            "cell's exact mine probability with what followed", rho.round(2).to_string(), ""]
    w = later.groupby(["height", "agent", "density", "where"]).decided.agg(["mean", "size"])
    out += ["Per point, guesses after the opening: cells decided after it, by where the "
            "guessed cell was", w.unstack().round(1).to_string(), ""]
    return "\n".join(out)


def draw_all(data, names=None, out=None):
    """fig_chains, fig_guess and numbers.txt from ``data``/guesses.csv.gz, into ``out``
    (default ``data``); returns the files written (``names``: unused, all are drawn)."""
    out = out or data
    df = pd.read_csv(os.path.join(data, "guesses.csv.gz"))
    files = fig_chains(df, out) + fig_guess(df, out)
    files.append(os.path.join(out, "numbers.txt"))
    with open(files[-1], "w") as f:
        f.write(numbers(df) + "\n")
    return files


def main(argv=None):
    figures_main(argv, "influence_figures", __doc__, "influence", draw_all)


if __name__ == "__main__":
    main()

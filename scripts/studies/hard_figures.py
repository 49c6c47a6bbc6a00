"""Figures of the hard-board study (scripts/studies/hard_study.py), from its CSVs.

Encodings as in every fastsweep figure (``fastsweep.viz.style``): colour and marker = the
agent. Here also: small faint markers = single searches, the line through larger markers
= their mean; dashed with open markers = basic trying every move each round; grey band =
the 10-15% drop the 2020 report found on boards up to 15 x 15. Layout pictures: dark
squares = mines (coloured: where the search moved a mine; light grey: the cell it left).

* fig_drop: relative drop of the score (held-out games) against the board side;
* fig_cluster: how the share of mines on the border and the mine neighbours of a mine
  change from the random start to the searched layout (paired, per search);
* fig_layouts: random start layouts and what each agent's search made of them;
* fig_exhaustive: 3x3 and 4x4, every layout: mean score over all layouts vs the hardest
  layout (held-out games), with the hardest layouts drawn.

Usage: python3 scripts/studies/hard_figures.py [--data results/hard] [--out DIR]
                                              [--only search,exhaustive]
(hard_study.py draws them too, into its own folder)
"""
from __future__ import annotations

import os

import numpy as np
import pandas as pd

from fastsweep.studies.script_args import figures_main
from fastsweep.studies.search_layouts import parse_key
from fastsweep.viz import style as ps

AGENTS = ("basic", "probability")
REPORT = (10.0, 15.0)  # Patel et al. 2020: the drop they found for boards up to 15 x 15


def _load(data, name):
    path = os.path.join(data, f"{name}.csv")
    return pd.read_csv(path, dtype={"layout": str, "start_layout": str, "hardest": str,
                                    "easiest": str, "tries": str}) if os.path.exists(path) else None


def main_series(df):
    """The searches with random tries (every agent); the steepest-descent series apart."""
    return df[df.tries != "all"]


def _grid(nrows, ncols, height, sharey=True):
    fig, grid = ps.plt.subplots(nrows, ncols, figsize=(ps.WIDE, height), sharex=True,
                                sharey=sharey, squeeze=False, layout="constrained")
    return fig, grid


def _agent_points(ax, sub, y, agent, steepest=False):
    c, mk = ps.agent_style(agent)
    g = sub[(sub.agent == agent) & ((sub.tries == "all") == steepest)]
    if g.empty:
        return
    # side by side, not on top of each other
    jitter = -0.2 if agent == "basic" and not steepest else 0.2 if steepest else 0.0
    ax.plot(g.dim + jitter, g[y], ls="none", marker=mk, ms=2.5, color=c, alpha=0.45,
            mew=0.6 if steepest else 0, mfc="none" if steepest else c)
    m = g.groupby("dim")[y].mean()
    kw = dict(ls="--", mfc="none", ms=5) if steepest else dict(ls="-", ms=4)
    ax.plot(m.index + jitter, m.values, color=c, marker=mk, lw=ps.LINEWIDTH, zorder=3,
            label=(f"{agent}, every move a round" if steepest
                   else f"{agent}, {g.tries.iloc[0]} random moves a round"),
            **kw)


def _caption(fig, axes, title, notes):
    for ax in np.ravel(axes):
        ax.grid(True)
    seen = {}
    for ax in np.ravel(axes):
        for h, lab in zip(*ax.get_legend_handles_labels()):
            seen.setdefault(lab, h)
    fig.legend(seen.values(), seen.keys(), loc="outside lower center",
               ncols=len(seen) if len(seen) <= 3 else 2, frameon=False)
    size = ps.STYLE["figure.titlesize"]
    lines = [w for t in [title, *notes] if t for w in ps.wrap_text(fig, t, size)]
    fig.suptitle("\n".join(lines), fontsize=size)


def fig_drop(df):
    dens = sorted(df.density.unique())
    fig, grid = _grid(1, len(dens), 3.0)
    for ax, d in zip(grid[0], dens):
        sub = df[np.isclose(df.density, d)]
        ax.axhspan(*REPORT, color="0.85", lw=0, label="2020 report: 10-15%", zorder=0)
        ax.axhline(0, color="black", lw=0.5)
        for agent in AGENTS:
            _agent_points(ax, sub, "rel_drop", agent)
        _agent_points(ax, sub, "rel_drop", "basic", steepest=True)
        ax.set_title(f"density {d:g}")
        ax.set_xlabel("board side d (d x d)")
        ax.set_xticks(sorted(df.dim.unique()))
    grid[0, 0].set_ylabel("score drop, random -> searched (%)")
    reps = df.groupby(["agent", "tries"]).rep.nunique()
    half = ((df.rel_high - df.rel_low) / 2).max()
    ev = int(df.eval_plays.max())
    counts = ", ".join(f"{a}{' (every move)' if t == 'all' else ''} {n}"
                       for (a, t), n in reps.items())
    _caption(fig, grid, "Hard boards: how much lower the agents score on searched layouts",
             [f"keep-going, no mine total; searches a point: {counts} (faint: each search; "
              f"line: their mean); drop on {ev:,} held-out games, paired (each search's 95% "
              f"CI half-width at most {half:.1f} points); a move is kept if it lowers the "
              "score by at least 1% relative"])
    return fig


def fig_cluster(df):
    df = df[df.steps > 0].copy()  # searches that moved no mine left their start as it was
    df["d_border"] = df.border - df.border_start
    df["d_nb"] = df.nb - df.nb_start
    dens = sorted(df.density.unique())
    fig, grid = _grid(2, len(dens), 4.8, sharey="row")
    for j, d in enumerate(dens):
        sub = df[np.isclose(df.density, d)]
        for i, y in enumerate(("d_border", "d_nb")):
            ax = grid[i, j]
            ax.axhline(0, color="black", lw=0.6)
            for agent in AGENTS:
                _agent_points(ax, sub, y, agent)
            _agent_points(ax, sub, y, "basic", steepest=True)
            if i == 0:
                ax.set_title(f"density {d:g}")
            else:
                ax.set_xlabel("board side d (d x d)")
            ax.set_xticks(sorted(df.dim.unique()))
    grid[0, 0].set_ylabel("change in the share\nof mines on the border")
    grid[1, 0].set_ylabel("change in mines among\na mine's 8 neighbours")
    _caption(fig, grid, "Do hard layouts cluster, or gather at the borders? Searched layout "
             "minus its random start",
             ["each search against its own start (faint: each search; line: their mean), "
              f"the {len(df)} searches that kept at least one move; above 0: more mines on "
              "the border (top), mines closer together (bottom)"])
    return fig


MINE = (0.2, 0.2, 0.2)  # a mine (in both layouts, when two are compared)
LEFT = (0.82, 0.82, 0.82)  # a cell a mine moved away from


def _draw_layout(ax, key, start=None, colour=None):
    """A layout as squares; with ``start``, the mines that moved are drawn in ``colour``
    where they went and the cells they left in light grey."""
    lay = parse_key(key)
    h, w = lay.shape
    img = np.ones((h, w, 3))
    img[lay] = MINE
    if start is not None:
        old = parse_key(start)
        img[lay & ~old] = ps.matplotlib.colors.to_rgb(colour)
        img[old & ~lay] = LEFT
    ax.imshow(img, interpolation="nearest")
    ax.set_xticks(np.arange(-0.5, w, 1), minor=True)
    ax.set_yticks(np.arange(-0.5, h, 1), minor=True)
    ax.grid(which="minor", color="0.8", lw=0.3)
    ax.tick_params(which="both", length=0, labelbottom=False, labelleft=False)


def fig_layouts(df, density=0.2, dims=None):
    df = main_series(df)
    sub = df[np.isclose(df.density, density) & (df.rep == 0)]
    dims = dims or [d for d in (7, 11, 15) if d in set(sub.dim)] or sorted(sub.dim.unique())
    fig, grid = ps.plt.subplots(3, len(dims), figsize=(ps.WIDE, 7.2), squeeze=False,
                                layout="constrained")
    for j, d in enumerate(dims):
        rows = sub[sub.dim == d].set_index("agent")
        first = rows.iloc[0]
        _draw_layout(grid[0, j], first.start_layout)
        grid[0, j].set_title(f"{d}x{d}, {first.mines} mines: random start", fontsize=7)
        for i, agent in enumerate(AGENTS, start=1):
            ax = grid[i, j]
            if agent not in rows.index:
                ax.axis("off")
                continue
            r = rows.loc[agent]
            assert r.start_layout == first.start_layout  # same seed, same start
            _draw_layout(ax, r.layout, r.start_layout, ps.agent_style(agent)[0])
            ax.set_title(f"{agent}: {r.eval_start:.2f} -> {r.eval_score:.2f} "
                         f"(-{r.rel_drop:.0f}%)", fontsize=7, color=ps.agent_style(agent)[0])
    grid[0, 0].set_ylabel("random start")
    for i, agent in enumerate(AGENTS, start=1):
        grid[i, 0].set_ylabel(f"searched for {agent}")
    size = ps.STYLE["figure.titlesize"]
    text = (f"Hard layouts at density {density:g}, the first search of each board. Dark: a "
            "mine (in both layouts); coloured: where a mine moved to; light grey: the cell it "
            f"left. Titles: the agent's mean score on {int(df.eval_plays.max()):,} held-out "
            "games, random start -> searched")
    fig.suptitle("\n".join(ps.wrap_text(fig, text, size)), fontsize=size)
    return fig


def fig_exhaustive(ex, tops):
    boards = sorted(set(ex.board), key=lambda b: int(b.split("x")[0]))
    cols = [(b, m) for b in boards for m in sorted(ex[ex.board == b].mines.unique())]
    fig = ps.plt.figure(figsize=(ps.WIDE, 3.3 + 1.1 * len(AGENTS) * 11 / max(len(cols), 11)),
                        layout="constrained")
    top, bottom = fig.subfigures(2, 1, height_ratios=[3.0, 1.1 * len(AGENTS)])
    axes = top.subplots(1, len(boards), sharey=True, squeeze=False)[0]
    for ax, b in zip(axes, boards):
        sub = ex[ex.board == b]
        for agent in AGENTS:
            g = sub[sub.agent == agent].sort_values("mines")
            c, mk = ps.agent_style(agent)
            ax.plot(g.mines, 100 * g.mean_all, color=c, marker=mk, ms=3, lw=ps.LINEWIDTH,
                    label=f"{agent}: all layouts (mean)")
            ax.errorbar(g.mines, 100 * g.held_score,
                        yerr=[100 * (g.held_score - g.held_low), 100 * (g.held_high - g.held_score)],
                        color=c, marker=mk, mfc="none", ms=5, ls="--", lw=ps.LINEWIDTH,
                        capsize=1.5, label=f"{agent}: hardest layout (held out, 95% CI)")
        ax.set_title(f"{b}: every layout")
        ax.set_xlabel("mines")
        ax.set_xticks(sorted(sub.mines.unique()))
        ax.grid(True)
    axes[0].set_ylabel("mines flagged (%)")
    top.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=2,
               frameon=False)
    # the hardest layout of each (board, mines) for each agent
    pics = bottom.subplots(len(AGENTS), len(cols), squeeze=False)
    for i, agent in enumerate(AGENTS):
        for j, (b, m) in enumerate(cols):
            ax = pics[i, j]
            r = ex[(ex.board == b) & (ex.mines == m) & (ex.agent == agent)]
            if r.empty:
                ax.axis("off")
                continue
            r = r.iloc[0]
            _draw_layout(ax, r.hardest)
            ax.set_title(f"{b}/{m}: {100 * r.held_score:.0f}%", fontsize=6)
        pics[i, 0].set_ylabel(agent, color=ps.agent_style(agent)[0])
    size = ps.STYLE["figure.titlesize"]
    plays = ", ".join(f"{a} {int(ex[ex.agent == a].plays.iloc[0]):,}" for a in AGENTS
                      if (ex.agent == a).any())
    text = ("Exhaustive search of small boards: every layout (one per rotation/reflection "
            f"class) scored on the same games ({plays} a layout); the hardest re-scored on "
            "as many held-out games. Below: the hardest layout of each, dark = mine, "
            "title = board/mines: held-out score")
    fig.suptitle("\n".join(ps.wrap_text(fig, text, size)), fontsize=size)
    return fig


def draw_all(data, names=None, out=None):
    """The figures of the studies ``names`` (search, exhaustive; default both) whose CSVs
    are in ``data``, into ``out`` (default ``data``); returns the files written."""
    files = []
    out = out or data
    with ps.plt.rc_context(ps.STYLE):
        df = _load(data, "search")
        if (not names or "search" in names) and df is not None and len(df):
            files += ps.save(fig_drop(df), os.path.join(out, "fig_drop"), ("png", "pdf"))
            files += ps.save(fig_cluster(df), os.path.join(out, "fig_cluster"), ("png", "pdf"))
            files += ps.save(fig_layouts(df), os.path.join(out, "fig_layouts"), ("png", "pdf"))
        ex, tops = _load(data, "exhaustive"), _load(data, "exhaustive_layouts")
        if (not names or "exhaustive" in names) and ex is not None and len(ex):
            files += ps.save(fig_exhaustive(ex, tops), os.path.join(out, "fig_exhaustive"),
                             ("png", "pdf"))
    return files


def main(argv=None):
    figures_main(argv, "hard_figures", __doc__, "hard", draw_all, ("search", "exhaustive"))


if __name__ == "__main__":
    main()

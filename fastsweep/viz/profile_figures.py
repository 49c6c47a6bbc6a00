"""A profile's figures (``fastsweep.profile``): how time and work grow with the board,
and where the time goes.

* ``fig_scaling``: time per game against cells, log-log, one panel per density (and
  rules / mine-total setting); points are the means over the repeats with their 95%
  intervals, the line is the fitted power law over the sizes where it holds, and each
  panel's legend gives every agent's exponent with its 95% interval;
* ``fig_work``: the work pass's counters per game against cells (one panel per counter,
  the middle density), log-log; a counter that is 0 for an agent (``basic`` runs no
  analysis) is left out of that panel and named in the caption;
* ``fig_phases``: the share of each part of the time by size, one panel per agent (the
  middle density): kernel clocks for compiled agents, Python clocks for Python ones.

Colour and marker: the agent (``style.Looks``), as in every fastsweep figure.
"""
from __future__ import annotations

import os

import matplotlib.pyplot as plt
import numpy as np

from ..profile.measure import WORK_COLUMNS, phase_names
from .style import Looks, STYLE, finish, panels, save, wrap_text

WORK_TITLES = {"analyses": "analyses", "components": "components counted",
               "comp_max": "largest component (cells)", "states": "DP states",
               "whatifs": "what-if positions", "allocs": "Numba allocations"}
# what a part is called in the legend ("rules": everything outside the other phases)
PART_LABELS = {"rules": "rules and the rest (moves, scans, the agent's own)"}
# each part its own colour, in every panel: the kernel phases, then the Python parts
PART_COLOURS = {"rules": "#BBBBBB", "frontier": "#0072B2", "count": "#E69F00",
                "combine": "#009E73", "whatif": "#CC79A7", "agent": "#332288",
                "knowledge": "#88CCEE", "observation": "#DDCC77", "engine": "#882255"}


def _setting_text(rules, mc):
    return f"{rules}, total {'told' if mc else 'not told'}"


def _settings(summary):
    """The (rules, told the total) settings, keep-going first (the figures with one
    setting show the first)."""
    return sorted({(r, bool(m)) for r, m in zip(summary["rules"], summary["mine_count"])},
                  key=lambda s: (s[0] != "keep-going", s))


def _middle(values):
    v = sorted(set(values))
    return v[len(v) // 2]


def plot_scaling(summary, fits, base, formats=("png", "pdf"), looks=None):
    """``fig_scaling`` (see the module doc); returns the files."""
    looks = looks or Looks(summary["agent"].unique())
    boxes = [(s, d) for s in _settings(summary) for d in sorted(summary["density"].unique())]
    with plt.rc_context(STYLE):
        fig, axes = panels(len(boxes))
        # each panel's legend (an agent a line) below it: the figure grows to hold them
        rows = -(-len(boxes) // (len(boxes) if len(boxes) <= 4 else 3))
        fig.set_figheight(0.9 + rows * (2.1 + 0.18 * (len(looks.order) + 1)))
        for ax, ((rules, mc), d) in zip(axes, boxes):
            sel = ((summary.rules == rules) & (summary.mine_count == mc)
                   & np.isclose(summary.density, d))
            for agent in looks.order:
                t = summary[sel & (summary.agent == agent)].sort_values("cells")
                if t.empty:
                    continue
                colour, marker = looks.style(agent)
                y = t.us_per_game.to_numpy()
                err = np.array([y - t.us_per_game_lo.to_numpy(),
                                t.us_per_game_hi.to_numpy() - y])
                f = _fit(fits, agent, rules, mc, d, "time")
                lab = looks.label(agent)
                if f is not None:
                    lab += f": {f.exponent:.2f} [{f.lo:.2f}, {f.hi:.2f}]"
                    if not f.holds:
                        lab += " (curved)"
                else:
                    lab += f": no fit ({t.cells.nunique()} sizes)"
                ax.errorbar(t.cells, y, yerr=np.nan_to_num(err), color=colour, marker=marker,
                            ls="none", ms=3, elinewidth=0.8, capsize=1.5, label=lab)
                if f is not None:
                    xs = np.array([f.cells_lo, f.cells_hi], float)
                    at = t[(t.cells >= f.cells_lo) & (t.cells <= f.cells_hi)]
                    # the line through the fitted range's geometric centre
                    c = np.exp(np.mean(np.log(at.us_per_game)) - f.exponent
                               * np.mean(np.log(at.cells)))
                    ax.plot(xs, c * xs ** f.exponent, color=colour,
                            ls="-" if f.holds else ":", lw=0.9)
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_title(f"density {d:g}; {_setting_text(rules, mc)}")
            # (below the panel: inside it, the box covered points)
            ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.24), fontsize=5.5,
                      title="agent: exponent [95% CI]", title_fontsize=5.5, frameon=False)
            ax.grid(True, which="major")
        for ax in axes:
            ax.set_xlabel("cells")
        axes[0].set_ylabel("us a game")
        # (wrapped to the figure's width: a one-panel figure is narrow)
        fig.suptitle("\n".join(
            line for t in ("Time per game against the board's cells (log-log): means of "
                           "the repeats with 95% intervals",
                           "lines: the power law fitted over the sizes where it holds "
                           "(dotted: it holds nowhere; fitted on all)")
            for line in wrap_text(fig, t, 7)), fontsize=7)
    return save(fig, base, formats)


class _F:
    def __init__(self, row):
        self.exponent, self.lo, self.hi = row.exponent, row.lo, row.hi
        self.cells_lo, self.cells_hi, self.holds = row.cells_lo, row.cells_hi, bool(row.holds)


def _fit(fits, agent, rules, mc, d, q):
    if fits is None or fits.empty:
        return None
    sel = ((fits.agent == agent) & (fits.rules == rules) & (fits.mine_count == mc)
           & np.isclose(fits.density, d) & (fits.quantity == q))
    return _F(fits[sel].iloc[0]) if sel.any() else None


def plot_work(summary, base, formats=("png", "pdf"), looks=None):
    """``fig_work`` (see the module doc); returns the files."""
    looks = looks or Looks(summary["agent"].unique())
    d = _middle(summary["density"])
    rules, mc = _settings(summary)[0]
    sel = ((summary.rules == rules) & (summary.mine_count == mc)
           & np.isclose(summary.density, d))
    cols = [c for c in WORK_COLUMNS + ("allocs",) if c in summary]
    idle = {}
    with plt.rc_context(STYLE):
        # (each counter its own y axis: their ranges differ by orders of magnitude)
        fig, grid = plt.subplots(-(-len(cols) // 3), 3, figsize=(7.0, 1.1 + 1.9 * 2),
                                 sharex=True, squeeze=False, layout="constrained")
        axes = list(grid.ravel())
        for ax in axes[len(cols):]:
            ax.remove()
        axes = axes[:len(cols)]
        for ax, col in zip(axes, cols):
            for agent in looks.order:
                t = summary[sel & (summary.agent == agent)].sort_values("cells")
                t = t[t[col] > 0]
                if t.empty:
                    if agent in set(summary.agent):
                        idle.setdefault(looks.label(agent), []).append(col)
                    continue
                colour, marker = looks.style(agent)
                ax.plot(t.cells, t[col], color=colour, marker=marker, ms=3,
                        label=looks.label(agent))
            if not ax.lines:
                ax.text(0.5, 0.5, "zero for every agent here", ha="center", va="center",
                        transform=ax.transAxes)
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_title(f"{WORK_TITLES[col]} a game")
        notes = [f"density {d:g}; {_setting_text(rules, mc)}; the work pass's games "
                 "(counted in the kernels)"]
        if idle:
            notes.append("zero, not drawn: " + "; ".join(
                f"{a} ({', '.join(c)})" for a, c in idle.items()))
        finish(fig, axes, "Work per game against the board's cells (log-log)", notes=notes,
               looks=looks)
        for ax in axes:
            ax.set_xlabel("cells")
    return save(fig, base, formats)


def plot_phases(summary, work, base, formats=("png", "pdf")):
    """``fig_phases`` (see the module doc); returns the files."""
    from matplotlib.patches import Patch

    looks = Looks(summary["agent"].unique())
    d = _middle(work["density"])
    rules, mc = _settings(summary)[0]
    w = work[(work.rules == rules) & (work.mine_count == mc) & np.isclose(work.density, d)]
    agents = [a for a in looks.order if a in set(w.agent)]
    ncols = min(4, len(agents))
    nrows = -(-len(agents) // ncols)
    seen = []
    with plt.rc_context(STYLE):
        fig, grid = plt.subplots(nrows, ncols, figsize=(7.0, 1.0 + 1.75 * nrows),
                                 sharey=True, squeeze=False, layout="constrained")
        cells = list(grid.ravel())
        for ax in cells[len(agents):]:
            ax.remove()
        for ax, agent in zip(cells, agents):
            t = w[w.agent == agent].sort_values("cells")
            kind = t["kind"].iloc[0]
            parts = [p for p in phase_names(kind) if "phase_" + p in t]
            shares = t[["phase_" + p for p in parts]].to_numpy(float)
            tot = shares.sum(axis=1, keepdims=True)
            shares = np.divide(shares, tot, out=np.zeros_like(shares), where=tot > 0)
            x = np.arange(len(t))
            bottom = np.zeros(len(t))
            for k, p in enumerate(parts):
                ax.bar(x, shares[:, k], bottom=bottom, color=PART_COLOURS[p], width=0.75)
                bottom += shares[:, k]
                if p not in seen:
                    seen.append(p)
            ax.set_xticks(x, [f"{s}" for s in t["size"]])
            ax.set_ylim(0, 1)
            ax.set_title(looks.label(agent) + (" (Python clocks)" if kind == "python clocks"
                                               else ""))
        for row in grid:
            row[0].set_ylabel("share of the time")
        for ax in cells[max(0, len(agents) - ncols):len(agents)]:
            ax.set_xlabel("board side")
        fig.legend(handles=[Patch(color=PART_COLOURS[p], label=PART_LABELS.get(p, p))
                            for p in seen],
                   loc="outside lower center", ncol=min(len(seen), 9), frameon=False)
        fig.suptitle("\n".join(wrap_text(
            fig, f"Where the time goes, by board size: density {d:g}, "
                 f"{_setting_text(rules, mc)}; kernel phase clocks unless marked", 7)),
            fontsize=7)
    return save(fig, base, formats)


def plot_profile(folder, formats=("png", "pdf")):
    """The three figures of a profile's folder; returns the files."""
    from ..profile import load

    r = load(folder)
    files = plot_scaling(r.summary, r.fits, os.path.join(folder, "fig_scaling"), formats)
    files += plot_work(r.summary, os.path.join(folder, "fig_work"), formats)
    files += plot_phases(r.summary, r.work, os.path.join(folder, "fig_phases"), formats)
    return files

"""The visual encodings and the layout that every figure of :mod:`fastsweep.viz.figures` shares.

One encoding per meaning, in every figure:

* colour and marker shape: the agent (Okabe-Ito colours, fixed by the agent's place in
  the registry; the marker keeps agents apart in greyscale);
* line style and marker fill: solid line, filled marker = the agent is not told the mine
  total; dashed line, open (larger) marker = it is told. An open marker is drawn hollow
  and larger, so where both settings give the same value the filled marker shows inside
  the open one and both stay readable;
* panels: one per board (size and rules), on shared axes, titled with what they hold;
* the legend: below the panels (it never covers data), a grid of agents (registry
  order) by setting (without the total first); see :func:`legend_below`.

Shaded bands are 95% intervals; :func:`band_note` says on the figure when they are
narrower than the lines that cover them.
"""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")  # files only: no display needed, same output everywhere
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.font_manager import FontProperties  # noqa: E402
import numpy as np  # noqa: E402

from ..agents import AGENTS  # noqa: E402

FORMATS = ("pdf", "png", "svg")
WIDTH = 3.4  # inches: one column of a two-column paper
WIDE = 7.0  # inches: both columns, for figures with several panels
HEIGHT = 3.0  # inches, one panel with its title lines and the legend below it
ROW_HEIGHT = 1.9  # inches per row of panels in a faceted figure
# Okabe-Ito, then Tol's muted colours: 12 agents before a colour repeats
COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
           "#882255", "#44AA99", "#999933", "#AA4499", "#661100"]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*", "h", "<", ">", "p"]
LINEWIDTH = 1.0  # points
BAND_ALPHA = 0.15
VISIBLE_BAND = 2.0  # points: a band this tall shows 0.5 pt on each side of a 1 pt line
STYLE = {
    "font.size": 8, "axes.labelsize": 8, "axes.titlesize": 7.5, "legend.fontsize": 6.5,
    "figure.titlesize": 8, "xtick.labelsize": 7, "ytick.labelsize": 7,
    "lines.linewidth": LINEWIDTH, "lines.markersize": 3,
    "axes.linewidth": 0.6, "grid.linewidth": 0.4, "grid.alpha": 0.4,
    "pdf.fonttype": 42, "svg.fonttype": "none",  # real text, editable in the output
    "savefig.dpi": 300,
}


def agent_style(agent):
    """(colour, marker) of an agent: fixed by its place in the registry, so it is the same
    in every figure and every run.

    >>> agent_style("basic")
    ('#0072B2', 'o')
    """
    names = list(AGENTS)
    i = names.index(agent) if agent in names else len(names) + sum(map(ord, agent))
    return COLOURS[i % len(COLOURS)], MARKERS[i % len(MARKERS)]


def member_key(agent, mine_count):
    """Sort key of a curve: registry order, then without the mine total before with it."""
    names = list(AGENTS)
    return (names.index(agent) if agent in names else len(names), agent, bool(mine_count))


def members(df, agent="agent", mine_count="mine_count"):
    """The (agent, mine_count) pairs of a table in legend order (see :func:`member_key`)."""
    pairs = {(a, bool(m)) for a, m in zip(df[agent], df[mine_count])}
    return sorted(pairs, key=lambda p: member_key(*p))


def member_label(agent, mine_count):
    """``agent`` or ``agent + mine total`` (the agent is told the number of mines)."""
    return f"{agent} + mine total" if mine_count else agent


def line_kw(agent, mine_count):
    """Keyword arguments of ``ax.plot`` for one curve (see the module docstring)."""
    c, m = agent_style(agent)
    if mine_count:  # hollow and larger, drawn on top: a filled twin shows inside it
        return dict(color=c, marker=m, ls="--", mfc="none", ms=5.5, mew=0.8, zorder=3,
                    label=member_label(agent, mine_count))
    return dict(color=c, marker=m, ls="-", ms=3, zorder=2, label=member_label(agent, mine_count))


def panels(n, width=None):
    """A figure of ``n`` panels on shared axes (one row up to 4 panels, else rows of 3),
    with constrained layout. Returns (fig, list of the n axes)."""
    ncols = n if n <= 4 else 3
    nrows = -(-n // ncols)
    width = width or (WIDTH if n == 1 else WIDE)
    height = HEIGHT if n == 1 else 1.1 + ROW_HEIGHT * nrows
    fig, grid = plt.subplots(nrows, ncols, figsize=(width, height), sharex=True, sharey=True,
                             squeeze=False, layout="constrained")
    flat = list(grid.ravel())
    for i, ax in enumerate(flat[n:]):  # empty slots of the last row
        above = flat[n + i - ncols]
        above.xaxis.set_tick_params(labelbottom=True)  # its x axis is now the bottom one
        ax.remove()
    return fig, flat[:n]


def label_axes(axes, xlabel, ylabel):
    """Axis labels on the outer panels only (the axes are shared)."""
    ncols = axes[0].get_gridspec().ncols
    n = len(axes)
    for i, ax in enumerate(axes):
        if i + ncols >= n:  # nothing below it
            ax.set_xlabel(xlabel)
        if i % ncols == 0:
            ax.set_ylabel(ylabel)


def legend_below(fig, axes):
    """One legend for the whole figure, below the panels, laid out as a grid: one line per
    agent (registry order) and one per mine-total setting, with a blank where an agent
    was not played with that setting. A one-column figure puts the agents in rows and
    the settings in columns (no total on the left); a wide figure turns it round (agents
    in columns) when the agents fit in one row."""
    seen = {}
    for ax in axes:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            seen.setdefault(_parse_label(lab), h)
    agents = sorted({a for a, _ in seen}, key=lambda a: member_key(a, False))
    settings = sorted({m for _, m in seen})
    blank = plt.Line2D([], [], alpha=0)
    wide = len(axes) > 1 and len(agents) <= 4
    if len(settings) == 1:  # nothing to pair: agents in reading order
        cells, ncol = [(a, settings[0]) for a in agents], len(agents) if wide else 2
    elif wide:  # columns are filled first: a column per agent
        cells, ncol = [(a, m) for a in agents for m in settings], len(agents)
    else:  # a column per setting
        cells, ncol = [(a, m) for m in settings for a in agents], len(settings)
    handles = [seen.get(c, blank) for c in cells]
    labels = [member_label(*c) if c in seen else "" for c in cells]
    return fig.legend(handles, labels, loc="outside lower center", ncol=min(ncol, len(cells)),
                      frameon=False, handlelength=2.5, columnspacing=1.5)


def _parse_label(label):
    agent, plus, _ = label.partition(" + mine total")
    return agent, bool(plus)


def band_note(fig, bands, what="95% CI"):
    """A caption for the shaded bands ``[(ax, x, lo, hi), ...]``: how many of them are
    narrower than the lines drawn over them, measured in points on the laid-out figure."""
    if not bands:
        return ""
    fig.draw_without_rendering()  # lay out first: band heights depend on the axes' size
    tall, half = [], 0.0
    for ax, x, lo, hi in bands:
        x, lo, hi = (np.asarray(v, float) for v in (x, lo, hi))
        ok = np.isfinite(lo) & np.isfinite(hi)
        if not ok.any():
            continue
        a = ax.transData.transform(np.column_stack([x[ok], lo[ok]]))
        b = ax.transData.transform(np.column_stack([x[ok], hi[ok]]))
        tall.append(np.abs(b[:, 1] - a[:, 1]) * 72.0 / fig.dpi >= VISIBLE_BAND)
        half = max(half, float(np.max(hi[ok] - lo[ok])) / 2)
    if not tall:
        return ""
    tall = np.concatenate(tall)
    if tall.all():
        return f"shaded: {what}"
    if not tall.any():
        return f"{what}s (half-width \u2264 {half:.2g}) hidden by the lines"
    return f"shaded: {what}, narrower than the line where not visible"


def wrap_text(fig, text, size):
    """``text`` broken into lines that fit the figure's width (measured, not guessed)."""
    renderer = fig.canvas.get_renderer()
    prop = FontProperties(size=size)
    room = fig.get_figwidth() * fig.dpi * 0.96

    def width(s):
        return renderer.get_text_width_height_descent(s, prop, ismath=False)[0]

    lines, cur = [], ""
    for word in text.split(" "):
        trial = f"{cur} {word}" if cur else word
        if cur and width(trial) > room:
            lines.append(cur)
            cur = word
        else:
            cur = trial
    return lines + [cur]


def finish(fig, axes, title, board="", notes=(), bands=(), what="95% CI"):
    """Grid, the legend below the panels, and above them the title (``title: board`` on
    one line when it fits, else two lines) and caption lines: ``notes`` and what the shaded
    ``bands`` (see :func:`band_note`) are. The figure grows by the lines beyond two, so
    that they do not squeeze the panels."""
    for ax in axes:
        ax.grid(True, which="major")
    legend_below(fig, axes)
    size = STYLE["figure.titlesize"]
    base = fig.get_figheight()
    head = [f"{title}: {board}"] if board else [title]
    if len(wrap_text(fig, head[0], size)) > 1:
        head = [title, board]

    def caption(extra):
        text = [w for t in [*head, *notes, extra] if t for w in wrap_text(fig, t, size)]
        fig.set_figheight(base + max(len(text) - 2, 0) * size * 1.3 / 72)
        fig.suptitle("\n".join(text), fontsize=size)

    if bands:  # measure with a caption line in place: the final layout, to the point
        caption(f"shaded: {what}")
        caption(band_note(fig, bands, what))
    else:
        caption("")


def save(fig, base, formats):
    """Write ``base.<fmt>`` for each format; returns the files. PDFs carry no date, so
    re-making a figure from the same data gives the same file."""
    files = []
    for fmt in formats:
        path = f"{base}.{fmt}"
        meta = {"CreationDate": None} if fmt == "pdf" else {}
        with plt.rc_context(STYLE):  # the dpi and font embedding are read when saving
            fig.savefig(path, metadata=meta)
        files.append(path)
    plt.close(fig)
    return files

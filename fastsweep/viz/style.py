"""The visual encodings and the layout that every figure of :mod:`fastsweep.viz.figures` shares.

One encoding per meaning, in every figure:

* colour and marker shape: the agent (Okabe-Ito colours, fixed by the agent's place in
  the registry; the marker keeps agents apart in greyscale). Users' agents take the
  places after the registry's, in the order of their folder (:class:`Looks`): every
  member of a figure has its own colour and marker, the same in every figure of a folder;
* the label: a built-in agent's name, a user's agent's ``name`` or its import path
  shortened (``mine.py:Mine``), or the user's own (``labels=``; see
  :mod:`fastsweep.sweep.results.labels`);
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

import re

import matplotlib

matplotlib.use("Agg")  # files only: no display needed, same output everywhere
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.font_manager import FontProperties  # noqa: E402
import numpy as np  # noqa: E402

from ..agents import AGENTS  # noqa: E402
from ..sweep.results.labels import agent_labels  # noqa: E402

FORMATS = ("pdf", "png", "svg")
WIDTH = 3.4  # inches: one column of a two-column paper
WIDE = 7.0  # inches: both columns, for figures with several panels
HEIGHT = 3.0  # inches, one panel with its title lines and the legend below it
ROW_HEIGHT = 1.9  # inches per row of panels in a faceted figure
# Okabe-Ito, then Tol's muted colours: the 12 built-in agents' (by registry place), then
# the rest of Tol's muted for users' agents: 17 places before a colour repeats and 255
# before a (colour, marker) pair does
COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
           "#882255", "#44AA99", "#999933", "#AA4499", "#661100",
           "#332288", "#CC6677", "#DDCC77", "#117733", "#88CCEE"]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*", "h", "<", ">", "p", "d", "H", "8"]
LINEWIDTH = 1.0  # points
BAND_ALPHA = 0.15
LEGEND_ROWS = 3  # the legend's rows that the figure sizes above allow for
VISIBLE_BAND = 2.0  # points: a band this tall shows 0.5 pt on each side of a 1 pt line
STYLE = {
    "font.size": 8, "axes.labelsize": 8, "axes.titlesize": 7.5, "legend.fontsize": 6.5,
    "figure.titlesize": 8, "xtick.labelsize": 7, "ytick.labelsize": 7,
    "lines.linewidth": LINEWIDTH, "lines.markersize": 3,
    "axes.linewidth": 0.6, "grid.linewidth": 0.4, "grid.alpha": 0.4,
    "pdf.fonttype": 42, "svg.fonttype": "none",  # real text, editable in the output
    "savefig.dpi": 300,
}


def _place_style(i):
    return COLOURS[i % len(COLOURS)], MARKERS[i % len(MARKERS)]


def agent_style(agent):
    """(colour, marker) of a built-in agent: fixed by its place in the registry, so it is
    the same in every figure and every run. Any other name gets the first place after
    the registry's (a figure with several users' agents places them: :class:`Looks`).

    >>> agent_style("basic")
    ('#0072B2', 'o')
    """
    names = list(AGENTS)
    return _place_style(names.index(agent) if agent in names else len(names))


class Looks:
    """The colour, marker and label of each agent of a folder (or of a table), so that
    every figure of it draws an agent alike: a built-in agent keeps its registry place's
    look and its name; users' agents take the places after the registry's in the order
    given (each a colour and marker no other agent here has) and their labels from
    :func:`fastsweep.sweep.results.labels.agent_labels` (``names``: their recorded ``name``
    attributes; ``labels``: the user's overrides). Legend order: built-in agents in
    registry order, then users' agents in the order given.

    >>> lk = Looks(["probability", "/home/u/mine.py:Mine", "basic"])
    >>> lk.label("/home/u/mine.py:Mine"), lk.style("/home/u/mine.py:Mine")
    ('mine.py:Mine', ('#332288', 'd'))
    >>> lk.member_label("basic", True), lk.order
    ('basic + mine total', ['basic', 'probability', '/home/u/mine.py:Mine'])
    """

    def __init__(self, agents=(), names=None, labels=None):
        reg = list(AGENTS)
        agents = [str(a) for a in dict.fromkeys(agents)]
        own = [a for a in agents if a not in AGENTS]
        self.order = sorted((a for a in agents if a in AGENTS), key=reg.index) + own
        self.places = {a: reg.index(a) if a in AGENTS else len(reg) + own.index(a)
                       for a in agents}
        self.labels = agent_labels(agents, names, labels)
        self.default = agent_labels(agents, names) if labels else self.labels
        self._members = {}  # legend text -> (agent, mine_count)
        for a in agents:
            for mc in (False, True):
                self._members[self.member_label(a, mc)] = (a, mc)

    @classmethod
    def of(cls, agents, labels=None):
        """``labels`` when it is a Looks already, else the Looks of ``agents`` (names
        from a table's columns) with ``labels`` ({agent: label} or ``"AGENT=LABEL,..."``)
        as the overrides."""
        if isinstance(labels, Looks):
            return labels
        return cls(agents, labels=labels)

    def style(self, agent):
        """(colour, marker) of ``agent``."""
        i = self.places.get(agent)
        return agent_style(agent) if i is None else _place_style(i)

    def label(self, agent):
        """What ``agent`` is called in the figure."""
        return self.labels.get(agent, str(agent))

    def member_label(self, agent, mine_count):
        """``label`` or ``label + mine total`` (the agent is told the number of mines)."""
        return member_label(self.label(agent), mine_count)

    def member_of(self, text):
        """The (agent, mine_count) a legend text names."""
        hit = self._members.get(text)
        if hit is None:
            agent, plus, _ = text.partition(" + mine total")
            hit = agent, bool(plus)
        return hit

    def find(self, name):
        """The agent that ``name`` is (an agent's registry name, its label or its label
        before the user's overrides), or None."""
        if name in self.places:
            return name
        return next((a for shown in (self.labels, self.default)
                     for a, t in shown.items() if t == name), None)

    def key(self, agent, mine_count):
        """Sort key of a curve: legend order, then without the mine total before with it."""
        i = self.order.index(agent) if agent in self.order else len(self.order)
        return (i, member_key(agent, False), bool(mine_count))


def member_key(agent, mine_count, looks=None):
    """Sort key of a curve: registry order (``looks``: its legend order), then without
    the mine total before with it."""
    if looks is not None:
        return looks.key(agent, mine_count)
    names = list(AGENTS)
    return (names.index(agent) if agent in names else len(names), agent, bool(mine_count))


def members(df, agent="agent", mine_count="mine_count", looks=None):
    """The (agent, mine_count) pairs of a table in legend order (see :func:`member_key`)."""
    pairs = {(a, bool(m)) for a, m in zip(df[agent], df[mine_count])}
    return sorted(pairs, key=lambda p: member_key(*p, looks=looks))


def member_label(agent, mine_count):
    """``agent`` or ``agent + mine total`` (the agent is told the number of mines)."""
    return f"{agent} + mine total" if mine_count else agent


def line_kw(agent, mine_count, looks=None):
    """Keyword arguments of ``ax.plot`` for one curve (see the module docstring)."""
    c, m = agent_style(agent) if looks is None else looks.style(agent)
    label = member_label(agent, mine_count) if looks is None else looks.member_label(
        agent, mine_count)
    if mine_count:  # hollow and larger, drawn on top: a filled twin shows inside it
        return dict(color=c, marker=m, ls="--", mfc="none", ms=5.5, mew=0.8, zorder=3,
                    label=label)
    return dict(color=c, marker=m, ls="-", ms=3, zorder=2, label=label)


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


def legend_below(fig, axes, looks=None):
    """One legend for the whole figure, below the panels, laid out as a grid: one line per
    agent (legend order, see :func:`member_key`) and one per mine-total setting, with a
    blank where an agent was not played with that setting. A one-column figure puts the
    agents in rows and the settings in columns (no total on the left); a wide figure turns
    it round (agents in columns) when the agents fit in one row. A legend wider than the
    figure takes fewer columns, down to one, and then breaks its longest labels into
    lines: it never runs off the figure (``looks``: the agents' :class:`Looks`)."""
    looks = looks or Looks()
    seen = {}
    for ax in axes:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            seen.setdefault(looks.member_of(lab), h)
    agents = sorted({a for a, _ in seen}, key=lambda a: member_key(a, False, looks))
    settings = sorted({m for _, m in seen})
    blank = plt.Line2D([], [], alpha=0)
    wide = len(axes) > 1 and len(agents) <= 4
    by_agent = [(a, m) for a in agents for m in settings]  # each agent, then its total
    layouts = []  # (cells, columns), in order of preference
    if len(settings) == 1:  # nothing to pair: agents in reading order
        layouts += [(by_agent, n) for n in (len(agents) if wide else 2, 2, 1)]
    elif wide:  # columns are filled first: a column per agent
        layouts.append((by_agent, len(agents)))
    if len(settings) > 1:  # a column per setting, or one column: an agent, then its total
        layouts += [([(a, m) for m in settings for a in agents], len(settings)),
                    ([c for c in by_agent if c in seen], 1)]
    room = fig.bbox.width * 0.98
    renderer = fig.canvas.get_renderer()
    for cells, ncol in layouts:  # the last is one column
        labels = [looks.member_label(*c) if c in seen else "" for c in cells]
        legend = _legend(fig, [seen.get(c, blank) for c in cells], labels,
                         max(1, min(ncol, len(cells))))
        wide_by = legend.get_window_extent(renderer).width - room
        if wide_by <= 0:
            return legend
        legend.remove()
    texts = [t for t in legend.get_texts() if t.get_text()]
    longest = max(t.get_window_extent(renderer).width for t in texts)
    prop = texts[0].get_fontproperties()
    labels = [break_lines(t, longest - wide_by, renderer, prop) for t in labels]
    return _legend(fig, [seen.get(c, blank) for c in cells], labels, 1)


def legend_rows(legend) -> int:
    """Lines of text in the legend's longest column (matplotlib fills columns first)."""
    texts = [t.get_text() for t in legend.get_texts()]
    per = -(-len(texts) // legend._ncols) if texts else 0  # (no public getter)
    return max((sum(t.count("\n") + 1 for t in texts[i:i + per])
                for i in range(0, len(texts), per or 1)), default=0)


def _legend(fig, handles, labels, ncol):
    return fig.legend(handles, labels, loc="outside lower center", ncol=ncol,
                      frameon=False, handlelength=2.5, columnspacing=1.5)


def break_lines(text, room, renderer, prop):
    """``text`` broken into lines no wider than ``room`` pixels, after a ``/``, ``:``,
    ``.``, ``_``, ``-`` or space where it can (a long path has no spaces), else anywhere."""
    def width(t):
        return renderer.get_text_width_height_descent(t, prop, ismath=False)[0]

    pieces = [p for p in re.split(r"(?<=[/\\:._\- ])", text) if p]
    lines, cur = [], ""
    for piece in pieces:
        while width(piece) > room and len(piece) > 1:  # no break inside it fits: cut it
            cut = max(1, max(k for k in range(1, len(piece) + 1)
                             if k == 1 or width(piece[:k]) <= room))
            if cur:
                lines.append(cur)
                cur = ""
            lines.append(piece[:cut])
            piece = piece[cut:]
        if cur and width(cur + piece) > room:
            lines.append(cur)
            cur = piece
        else:
            cur += piece
    return "\n".join(lines + ([cur] if cur else []))


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
    words = []
    for word in text.split(" "):  # a word wider than the figure (a path) is broken up
        words += break_lines(word, room, renderer, prop).split("\n") if width(word) > room \
            else [word]
    for word in words:
        trial = f"{cur} {word}" if cur else word
        if cur and width(trial) > room:
            lines.append(cur)
            cur = word
        else:
            cur = trial
    return lines + [cur]


def finish(fig, axes, title, board="", notes=(), bands=(), what="95% CI", looks=None):
    """Grid, the legend below the panels (``looks``: the agents' :class:`Looks`), and
    above them the title (``title: board`` on one line when it fits, else two lines) and
    caption lines: ``notes`` and what the shaded ``bands`` (see :func:`band_note`) are.
    The figure grows by the caption lines beyond two and by the legend's rows beyond
    three, so that they do not squeeze the panels."""
    for ax in axes:
        ax.grid(True, which="major")
    legend = legend_below(fig, axes, looks)
    rows = legend_rows(legend)
    if rows > LEGEND_ROWS:
        fig.set_figheight(fig.get_figheight() + (rows - LEGEND_ROWS) / rows
                          * legend.get_window_extent(fig.canvas.get_renderer()).height
                          / fig.dpi)
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

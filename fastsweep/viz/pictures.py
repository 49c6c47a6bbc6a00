"""Pictures of play: a traced game's board as a matplotlib figure, and the game as an
animation (GIF through Pillow, MP4 through ffmpeg; both matplotlib writers).

One encoding per meaning, in every frame:

* the cell's fill: its status, as the text board's symbols (:data:`fastsweep.trace.LEGEND`):
  grey hidden, white revealed (its clue written in it, 0 left blank), green flagged
  ("F"), vermilion detonated ("*");
* with ``probabilities``, a hidden cell's fill is instead its exact mine probability from
  the agent's view at that moment (:meth:`fastsweep.trace.Trace.view`, the purple scale
  of the colour bar; :func:`fastsweep.mine_probabilities`, told the mine total only if
  the agent is, else with the agent's prior);
* "M": a mine still hidden (by default only once the game is over);
* a thick black outline: the cell of the move just played; the caption gives the move,
  its outcome and the agent's reason.

The artists carry the data: ``fig.axes[0].images[0]`` holds the status codes (0 hidden,
1 revealed, 2 flagged, 3 detonated), ``images[1]`` (with ``probabilities``) the
probabilities, masked where a cell is not hidden.
"""
from __future__ import annotations

import contextlib
import numbers
import os

import numpy as np

from .style import STYLE, WIDE, WIDTH, wrap_text
import matplotlib.pyplot as plt  # after plot_style: it selects the file-only backend
from matplotlib import animation
from matplotlib.colors import BoundaryNorm, ListedColormap, Normalize
from matplotlib.patches import Patch, Rectangle

from ..inference import mine_probabilities
from ..kernels.engine import layout as kl

#: fill of each status code (kernels.layout HIDDEN, REVEALED, FLAGGED, DETONATED)
STATUS_COLOURS = ["#c8c8c8", "#ffffff", "#009E73", "#D55E00"]
#: hidden cells' mine probability: Purples from a visible lavender (never the white of a
#: revealed cell) to dark purple
PROB_CMAP = ListedColormap(plt.get_cmap("Purples")(np.linspace(0.25, 1.0, 256)),
                           name="fastsweep_probability")
GRID = "#8c8c8c"
PLAYED = "#000000"
FONT = STYLE["font.size"]
LINE = FONT * 1.35 / 72  # inches per caption line
GIF_DPI = 120
MAX_FPS = 50  # GIF frame delays are counted in hundredths of a second
# ... in 16 bits (at most 655.35 s a frame, and Pillow fails with a traceback beyond): a
# frame every 10 s is slow enough for any slide show and far from that limit
MIN_FPS = 0.1
HOLD = 2.0  # seconds the last frame of a GIF stays before it loops
BAR_TICKS, BAR_HEIGHT = 0.22, 0.1  # inches: the colour bar's tick labels, the bar itself
SMALL_LINE = STYLE["legend.fontsize"] * 1.3 / 72  # inches per line of its label
LEGEND_KW = dict(frameon=False, fontsize=STYLE["legend.fontsize"], handlelength=1.2,
                 handleheight=1.0, columnspacing=1.2, borderaxespad=0.2)


def _check_k(trace, k):
    return trace._upto(k, "k")


def _check_bool(name, value, none=False):
    if (value is None and none) or isinstance(value, (bool, np.bool_)):
        return value
    allowed = "True, False or None" if none else "True or False"
    raise ValueError(f"{name}: must be {allowed}, got {value!r}")


def _check_probabilities(trace, probabilities):
    if _check_bool("probabilities", probabilities) and trace.config.noise != "none":
        raise ValueError(f"probabilities: not available under noise ({trace.config.noise}): "
                         "the agent weighs soft clues, there is no view of hard clues")
    return bool(probabilities)


def probabilities_at(trace, k):
    """Exact mine probabilities of the agent's view after ``k`` moves (as the shading):
    with the mine total if the agent is told it, else with its prior; (H, W) float64,
    1 on known mines and 0 on revealed cells (see :func:`fastsweep.mine_probabilities`).

    >>> from fastsweep import play
    >>> t = play("probability", (3, 3), mines=1, seed=0, mine_count=True)
    >>> float(probabilities_at(t, 0).sum())  # one mine among nine hidden cells
    1.0
    """
    cfg = trace.config
    mines = trace.result["mines"] if cfg.mine_count else None
    return mine_probabilities(trace.view(k), mines=mines, prior=cfg.prior, budget=cfg.budget)


def _caption(trace, k):
    """The caption's paragraphs: the game, the move (or the start), its reason, the end."""
    cfg, r, n = trace.config, trace.result, len(trace.moves)
    head = (f"{cfg.agent} on {cfg.height}x{cfg.width}, {r['mines']} mines, {cfg.rules}"
            + (", mine total known" if cfg.mine_count else "")
            + f"; seed {trace.seed}, game {trace.game}")
    if k == 0:
        return [head, f"before the first move ({n} moves in all)"]
    mv = trace.moves.iloc[k - 1]
    out = [head, f"move {k} of {n}: {mv.action} {mv.cell} \u2192 {mv.outcome}",
           f"why: {mv.reason}"]
    if k == n:
        out.append(f"end: {r['guesses']} guesses, {r['flagged']} flagged, "
                   f"{r['detonated']} detonated, score {r['score']:.3f}, "
                   f"{'won' if r['won'] else 'lost'}")
    return out


def _legend(trace, probabilities, mines_shown):
    h = [] if probabilities else [Patch(fc=STATUS_COLOURS[kl.HIDDEN], ec=GRID, label="hidden")]
    h += [Patch(fc=STATUS_COLOURS[kl.REVEALED], ec=GRID, label="revealed: its clue (0 blank)"),
          Patch(fc=STATUS_COLOURS[kl.FLAGGED], ec=GRID, label="F flagged"),
          Patch(fc=STATUS_COLOURS[kl.DETONATED], ec=GRID, label="* detonated"),
          Patch(fc="none", ec=PLAYED, lw=1.5, label="cell of this move")]
    if mines_shown:
        h.append(Patch(fc="none", ec="none", label="M mine not found (game over)"))
    if trace.config.noise != "none":
        h.append(Patch(fc=STATUS_COLOURS[kl.REVEALED], ec=GRID, label="- no clue shown (noise)"))
    return h


def _bar_label(trace):
    cfg = trace.config
    given = ("the mine total known" if cfg.mine_count
             else f"no mine total: prior {cfg.prior:g} a cell")
    return (f"hidden cell's fill: its exact mine probability from what the agent has seen "
            f"({given})")



def _geometry(h, w, width, lines, legend_rows, bar_lines):
    """Inches of each band, top to bottom: caption, column numbers, board, legend, the
    colour bar with its label (``bar_lines`` lines; none without probabilities)."""
    left, right = 0.32, 0.12
    cell = (width - left - right) / w
    bands = dict(caption=lines * LINE + 0.1, cols=0.2, board=cell * h, gap=0.06,
                 legend=legend_rows * 0.16 + 0.1,
                 bar=BAR_TICKS + BAR_HEIGHT + 0.04 + bar_lines * SMALL_LINE if bar_lines else 0)
    return left, cell, bands, sum(bands.values())


def _frame_layout(trace, ks, probabilities, show_mines, width):
    """A figure sized for the frames ``ks`` (the same size for every frame) and the
    caption lines of each, wrapped to the figure's width."""
    h, w = trace.config.height, trace.config.width
    width = width or (WIDTH if w <= 16 else WIDE)
    fig = plt.figure(figsize=(width, 1.0))
    with plt.rc_context(STYLE):
        captions = [[ln for p in _caption(trace, k) for ln in wrap_text(fig, p, FONT)] for k in ks]
    shown = [_mines_shown(trace, k, show_mines) for k in ks]
    handles = _legend(trace, probabilities, any(shown))
    ncol = next(n for n in (3, 2, 1) if n == 1 or _legend_width(fig, handles, n) < 0.98 * width)
    bar = wrap_text(fig, _bar_label(trace), STYLE["legend.fontsize"]) if probabilities else []
    geo = _geometry(h, w, width, max(map(len, captions)), -(-len(handles) // ncol), len(bar))
    fig.set_figheight(geo[3])
    return fig, geo + (ncol, bar), captions, shown


def _legend_width(fig, handles, ncol):
    """Inches the legend takes in ``ncol`` columns (measured on ``fig``'s renderer)."""
    leg = fig.legend(handles=handles, ncol=ncol, **LEGEND_KW)
    width = leg.get_window_extent(fig.canvas.get_renderer()).width / fig.dpi
    leg.remove()
    return width


def _mines_shown(trace, k, show_mines):
    if show_mines is None:
        show_mines = k == len(trace.moves)
    return bool(show_mines) and bool(((trace.state(k)[0] == kl.HIDDEN) & trace.mines).any())


def _build(fig, trace, probabilities, geo, legend_mines):
    """The parts every frame shares (axes, grid, legend, colour bar), laid out by
    :func:`_frame_layout`; returns the artists that :func:`_show` changes."""
    h, w = trace.config.height, trace.config.width
    left, cell, b, total, ncol, bar = geo
    fw = fig.get_figwidth()
    bottom = b["bar"] + b["legend"] + b["gap"]
    ax = fig.add_axes([left / fw, bottom / total, cell * w / fw, b["board"] / total])
    art = dict(ax=ax, pt=cell * 72, glyphs=[])  # pt: a cell's side in points
    art["status"] = ax.imshow(np.zeros((h, w), int), cmap=ListedColormap(STATUS_COLOURS),
                              norm=BoundaryNorm(np.arange(-0.5, 4), 4), aspect="auto",
                              interpolation="nearest", gid="status")
    if probabilities:
        art["prob"] = ax.imshow(np.ma.masked_all((h, w)), cmap=PROB_CMAP, norm=Normalize(0, 1),
                                aspect="auto", interpolation="nearest", gid="probabilities")
        cax = fig.add_axes([0.2, BAR_TICKS / total, 0.6, BAR_HEIGHT / total])
        cb = fig.colorbar(art["prob"], cax=cax, orientation="horizontal")
        cb.set_ticks([0, 0.25, 0.5, 0.75, 1])
        cb.ax.tick_params(labelsize=STYLE["xtick.labelsize"], length=2, width=0.5)
        cb.outline.set_linewidth(0.5)
        fig.text(0.5, (BAR_TICKS + BAR_HEIGHT + 0.04) / total, "\n".join(bar), ha="center",
                 va="bottom", fontsize=STYLE["legend.fontsize"], gid="bar_label")
    lw = max(1.2, 0.12 * art["pt"])
    inset = lw / 2 / art["pt"]  # the outline stays inside its cell
    art["played"] = ax.add_patch(Rectangle((0, 0), 1 - 2 * inset, 1 - 2 * inset, fill=False,
                                           ec=PLAYED, lw=lw, gid="played", zorder=5,
                                           visible=False))
    art["inset"] = inset
    _axes_style(ax, h, w, art["pt"])
    art["caption"] = fig.text(0.02, 1 - 0.06 / total, "", ha="left", va="top",  # wrap_text's room
                              fontsize=FONT, linespacing=1.25, gid="caption")
    fig.legend(handles=_legend(trace, probabilities, legend_mines), ncol=ncol,
               loc="upper center", bbox_to_anchor=(0.5, (bottom - b["gap"]) / total),
               **LEGEND_KW)
    return art


def _show(art, trace, k, mines_shown, caption):
    """Set the artists of :func:`_build` to the board after ``k`` moves."""
    ax, st, shown = art["ax"], *trace.state(k)
    art["status"].set_data(st)
    if "prob" in art:
        p = probabilities_at(trace, k)
        art["prob"].set_data(np.ma.masked_array(p, mask=st != kl.HIDDEN))
    glyph = np.full(st.shape, "", dtype=object)
    rev = (st == kl.REVEALED) & (shown != 0)
    glyph[rev] = np.where(shown[rev] == kl.OUT_BLANK, "-", shown[rev].astype(str))
    glyph[st == kl.FLAGGED] = "F"
    glyph[st == kl.DETONATED] = "*"
    hidden_mine = (st == kl.HIDDEN) & trace.mines
    if mines_shown:
        glyph[hidden_mine] = "M"
    for t in art["glyphs"]:
        t.remove()
    size = min(9.0, 0.6 * art["pt"])
    art["glyphs"] = [
        ax.text(c, r, g, ha="center", va="center_baseline", fontsize=size,
                color="white" if "prob" in art and hidden_mine[r, c] and p[r, c] > 0.55
                else "black",  # an M on a dark shade
                fontweight="bold" if st[r, c] != kl.REVEALED else "normal")
        for (r, c), g in np.ndenumerate(glyph) if g]
    art["played"].set_visible(k > 0)
    if k:
        r, c = divmod(int(trace.moves["cell_index"].iloc[k - 1]), trace.config.width)
        art["played"].set_xy((c - 0.5 + art["inset"], r - 0.5 + art["inset"]))
    art["caption"].set_text("\n".join(caption))


def _axes_style(ax, h, w, pt):
    """Row numbers on the left, column numbers on top (as the text board), grid lines."""
    label = STYLE["xtick.labelsize"]
    steps = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)
    ax.set_xticks(range(0, w, next((s for s in steps
                                     if s * pt >= 1.4 * label * len(str(w - 1))), w)))
    ax.set_yticks(range(0, h, next((s for s in steps if s * pt >= 1.2 * label), h)))
    ax.xaxis.tick_top()
    ax.tick_params(labelsize=label, length=2, width=0.5, pad=1)
    ax.set_xticks(np.arange(-0.5, w), minor=True)
    ax.set_yticks(np.arange(-0.5, h), minor=True)
    ax.tick_params(which="minor", length=0)
    ax.grid(which="minor", color=GRID, lw=0.4)
    ax.set_xlim(-0.5, w - 0.5)
    ax.set_ylim(h - 0.5, -0.5)
    for s in ax.spines.values():
        s.set_linewidth(0.6)


def plot_board(trace, k=None, probabilities=False, show_mines=None, width=None):
    """The board of ``trace`` after ``k`` moves (default: all) as a Figure (see the
    module docstring for what it shows); ``width`` in inches (default: one paper column,
    both for boards wider than 16). ValueError on a bad argument, naming it.

    >>> from fastsweep import play
    >>> t = play("basic", (4, 5), mines=3, seed=2)
    >>> fig = plot_board(t, 2)
    >>> fig.axes[0].images[0].get_array().tolist() == t.state(2)[0].tolist()
    True
    """
    k = _check_k(trace, k)
    probabilities = _check_probabilities(trace, probabilities)
    _check_bool("show_mines", show_mines, none=True)
    width = _check_width(width)
    fig, geo, captions, shown = _frame_layout(trace, [k], probabilities, show_mines, width)
    with plt.rc_context(STYLE):
        _show(_build(fig, trace, probabilities, geo, shown[0]), trace, k, shown[0], captions[0])
    return fig


def _check_width(width):
    if width is None:
        return None
    if not isinstance(width, numbers.Real) or isinstance(width, bool) or not 1 <= width <= 20:
        raise ValueError(f"width: must be a number of inches in [1, 20] or None, got {width!r}")
    return float(width)


def _check_path(name, path, ext):
    if path is None:
        return None
    if not isinstance(path, (str, os.PathLike)):
        raise ValueError(f"{name}: expected a file name ending in {ext}, got {path!r}")
    path = os.fspath(path)
    if not path.lower().endswith(ext):
        raise ValueError(f"{name}: the file name must end in {ext}, got {path!r}")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ValueError(f"{name}: folder {os.path.dirname(path) or '.'!r} does not exist "
                         "(create it first)")
    if os.path.isdir(path) or not os.access(folder, os.W_OK):
        raise ValueError(f"{name}: cannot write {path!r}")
    return path


def check_animation(gif=None, mp4=None, every_frame=1, probabilities=False, fps=4.0,
                    noise="none"):
    """Validate :func:`animate`'s arguments before anything is played or drawn
    (``noise``: the game's noise spec); ValueError naming the argument.

    >>> check_animation(gif="game.gif", every_frame=0)
    Traceback (most recent call last):
    ...
    ValueError: every_frame: must be an integer >= 1 (a frame every N moves), got 0
    """
    if gif is None and mp4 is None:
        raise ValueError("gif/mp4: give a file name for at least one of gif= or mp4=")
    gif, mp4 = _check_path("gif", gif, ".gif"), _check_path("mp4", mp4, ".mp4")
    if (not isinstance(every_frame, numbers.Integral) or isinstance(every_frame, bool)
            or every_frame < 1):
        raise ValueError(f"every_frame: must be an integer >= 1 (a frame every N moves), "
                         f"got {every_frame!r}")
    if (not isinstance(fps, numbers.Real) or isinstance(fps, bool)
            or not MIN_FPS <= fps <= MAX_FPS):  # (NaN fails the comparison too)
        raise ValueError(f"fps: must be a number of frames per second in [{MIN_FPS}, "
                         f"{MAX_FPS}], got {fps!r}")
    if _check_bool("probabilities", probabilities) and noise != "none":
        raise ValueError(f"probabilities: not available under noise ({noise}): the agent "
                         "weighs soft clues, there is no view of hard clues")
    if mp4 is not None and not animation.FFMpegWriter.isAvailable():
        raise ValueError("mp4: writing MP4 needs ffmpeg, which is not installed (not found "
                         "on the PATH); install ffmpeg or write a GIF instead")
    return gif, mp4


def frame_moves(moves, every_frame):
    """The move counts of the frames: every ``every_frame`` moves, and the last move
    (so ceil(moves / every_frame) frames; no frame of the empty board).

    >>> frame_moves(10, 3), frame_moves(9, 3), frame_moves(4, 1)
    ([3, 6, 9, 10], [3, 6, 9], [1, 2, 3, 4])
    """
    ks = list(range(every_frame, moves + 1, every_frame))
    return ks if ks and ks[-1] == moves else ks + [moves]


class _GifWriter(animation.PillowWriter):
    """matplotlib's PillowWriter, with the last frame held :data:`HOLD` seconds so that
    a looping GIF pauses on the final board."""

    def finish(self):
        d = int(round(1000 / self.fps))
        durations = [d] * (len(self._frames) - 1) + [max(d, int(HOLD * 1000))]
        self._frames[0].save(self.outfile, save_all=True, append_images=self._frames[1:],
                             duration=durations, loop=0)


def animate(trace, gif=None, mp4=None, every_frame=1, probabilities=False, fps=4.0):
    """Write ``trace`` as an animation: ``gif=`` a .gif file (Pillow), ``mp4=`` a .mp4
    file (needs ffmpeg), or both. One frame after every ``every_frame`` moves and one
    after the last move (:func:`frame_moves`), each drawn as :func:`plot_board` draws it
    (the last with the mines still hidden); ``fps`` frames a second, the GIF's last
    frame held 2 s. Returns the frames' move counts.

    >>> from fastsweep import play
    >>> t = play("basic", (4, 5), mines=3, seed=2)
    >>> import os, tempfile
    >>> t.animate(gif=os.path.join(tempfile.mkdtemp(), "game.gif"), every_frame=5)
    [5, 10, 15, 20]
    """
    gif, mp4 = check_animation(gif, mp4, every_frame, probabilities, fps, trace.config.noise)
    ks = frame_moves(len(trace.moves), every_frame)
    fig, geo, captions, shown = _frame_layout(trace, ks, probabilities, None, None)
    writers = [(_GifWriter(fps=fps), gif), (animation.FFMpegWriter(fps=fps), mp4)]
    try:
        with plt.rc_context(STYLE), contextlib.ExitStack() as stack:
            grab = [stack.enter_context(wr.saving(fig, path, GIF_DPI))
                    for wr, path in writers if path is not None]
            art = _build(fig, trace, probabilities, geo, any(shown))
            for i, k in enumerate(ks):
                _show(art, trace, k, shown[i], captions[i])
                for wr in grab:
                    wr.grab_frame()
    finally:
        plt.close(fig)
    return ks

"""The advisor's heat map: each hidden cell's mine probability, the agent's move framed.

One encoding per meaning: colour (a sequential scale, light to dark red) is the mine
probability of a hidden cell and nothing else; revealed cells are light grey with their
clue, known mines dark grey with an F (greys are not on the scale); S / M mark the
hidden cells that are certainly safe / certainly mines; a blue frame is the agent's move.
Fonts, dpi and the file format come from :mod:`fastsweep.viz.style`.
"""
from __future__ import annotations

import os

from ..viz import style as ps
from ..viz.style import plt

import numpy as np

CMAP = "YlOrRd"
REVEALED = "#d9d9d9"  # light grey: an opened cell, as in the game
KNOWN_MINE = "#4d4d4d"
MOVE = ps.COLOURS[0]  # blue: off the yellow-red scale


def check_png_path(path) -> str:
    """``path`` if a PNG can be written there: it ends in .png and its folder exists."""
    if not isinstance(path, (str, os.PathLike)) or not str(path).lower().endswith(".png"):
        raise ValueError(f"png: expected a file name ending in .png, got {path!r}")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ValueError(f"png: folder {os.path.dirname(str(path))!r} does not exist")
    if os.path.isdir(path):  # (checked before the advice: "[Errno 21] Is a directory" after)
        raise ValueError(f"png: {os.fspath(path)!r} is a folder; give a file name")
    if not os.access(folder, os.W_OK):
        raise ValueError(f"png: cannot write in folder {os.path.dirname(str(path)) or '.'!r}")
    return str(path)


def heat_map(advice, path):
    """Write the heat map of ``advice`` (a :class:`fastsweep.Advice`) to ``path`` (.png).

    Each hidden cell is coloured by its mine probability and, on boards up to 30 cells
    wide, labelled with it in percent; the agent's move is framed in blue.
    """
    path = check_png_path(path)
    v, p = advice.view, advice.probabilities
    h, w = v.shape
    size = 0.26 if w <= 30 else max(7.0 / w, 0.08)  # inches a cell
    with plt.rc_context(ps.STYLE):
        fig, ax = plt.subplots(figsize=(max(w * size + 1.6, ps.WIDTH), h * size + 1.5),
                               layout="constrained")
        hidden = v == -1
        img = ax.imshow(np.where(hidden, p, np.nan), cmap=CMAP, vmin=0, vmax=1,
                        interpolation="nearest")
        greys = np.zeros((h, w, 4))
        greys[v >= 0] = plt.matplotlib.colors.to_rgba(REVEALED)
        greys[v == -2] = plt.matplotlib.colors.to_rgba(KNOWN_MINE)
        ax.imshow(greys, interpolation="nearest")
        fs = min(7.0, 72 * size * 0.45)
        label = w <= 30
        for r in range(h):
            for c in range(w):
                x = v[r, c]
                if x >= 0:
                    t, col = (str(x) if x else ""), "black"
                elif x == -2:
                    t, col = "F", "white"
                elif advice.safe[r, c] or advice.mine[r, c]:
                    t = "S" if advice.safe[r, c] else "M"
                    col = "white" if p[r, c] > 0.6 else "black"
                elif label:
                    t, col = f"{int(np.clip(np.rint(100 * p[r, c]), 1, 99))}", (
                        "white" if p[r, c] > 0.6 else "black")
                else:
                    continue
                ax.text(c, r, t, ha="center", va="center", fontsize=fs, color=col)
        if advice.move is not None:
            r, c = advice.move
            ax.add_patch(plt.Rectangle((c - 0.5, r - 0.5), 1, 1, fill=False, lw=2.0,
                                       edgecolor=MOVE, zorder=3))
        ax.set_xticks(range(0, w, 1 if w <= 20 else 5))
        ax.set_yticks(range(0, h, 1 if h <= 20 else 5))
        ax.tick_params(length=0, labelsize=6, labeltop=True, labelbottom=False)
        ax.set_xlabel("column")
        ax.xaxis.set_label_position("top")
        ax.set_ylabel("row")
        for s in ax.spines.values():
            s.set_visible(False)
        bar = fig.colorbar(img, ax=ax, pad=0.02)
        bar.set_label("mine probability")
        what = ("no move: the board is done" if advice.move is None else
                f"{advice.agent} agent: {advice.action} ({advice.move[0]},{advice.move[1]}) "
                f"(blue frame): {advice.reason}")
        key = ("colour and number on a hidden cell: its mine probability (percent); grey: "
               "revealed, with its clue; F (dark grey): known mine; S / M: certainly safe / "
               "certainly a mine") if label else (
               "colour of a hidden cell: its mine probability; grey: revealed, with its clue; "
               "F (dark grey): known mine; S / M: certainly safe / certainly a mine")
        size = ps.STYLE["figure.titlesize"]
        fig.suptitle("\n".join(ps.wrap_text(fig, what, size)), fontsize=size)
        fig.supxlabel("\n".join(ps.wrap_text(fig, key, 6)), fontsize=6)
        fig.savefig(path)
    plt.close(fig)
    return path

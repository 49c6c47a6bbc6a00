"""The pictures of a view (``render_mode``): text (``"ansi"``) and an RGB array
(``"rgb_array"``), for the single and the vector environment."""
from __future__ import annotations

import numpy as np

from ..kernels.agents import user as ku

SYMBOLS = {ku.VIEW_HIDDEN: "?", ku.VIEW_FLAG: "F", ku.VIEW_DETONATED: "*", ku.VIEW_BLANK: "-",
           **{v: str(v) for v in range(9)}}


def ansi(view, head: str) -> str:
    """The view as text: ``?`` hidden, ``0``-``8`` clue, ``F`` flagged, ``*`` detonated,
    ``-`` revealed with nothing shown (a noisy sensor)."""
    return "\n".join([head] + [" ".join(SYMBOLS[int(v)] for v in row) for row in view]) + "\n"


_FONT = {  # 3x5 glyphs
    "1": (".#.", "##.", ".#.", ".#.", "###"), "2": ("##.", "..#", ".#.", "#..", "###"),
    "3": ("##.", "..#", ".#.", "..#", "##."), "4": ("#.#", "#.#", "###", "..#", "..#"),
    "5": ("###", "#..", "##.", "..#", "##."), "6": (".##", "#..", "###", "#.#", "###"),
    "7": ("###", "..#", ".#.", ".#.", ".#."), "8": ("###", "#.#", "###", "#.#", "###"),
    "F": ("###", "#..", "##.", "#..", "#.."), "*": ("#.#", ".#.", "###", ".#.", "#.#"),
    "-": ("...", "...", "###", "...", "..."),
}
TILE = 16  # pixels a cell
_INK = {"1": (0, 0, 255), "2": (0, 128, 0), "3": (255, 0, 0), "4": (0, 0, 128),
        "5": (128, 0, 0), "6": (0, 128, 128), "7": (0, 0, 0), "8": (96, 96, 96),
        "F": (255, 255, 255), "*": (0, 0, 0), "-": (128, 128, 128)}
_PAPER = {ku.VIEW_HIDDEN: (200, 200, 200), ku.VIEW_FLAG: (0, 158, 115),
          ku.VIEW_DETONATED: (213, 94, 0), ku.VIEW_BLANK: (240, 240, 240)}


def _tiles() -> np.ndarray:
    """uint8 (13, TILE, TILE, 3): the picture of each view value v at index v + 4."""
    tiles = np.zeros((13, TILE, TILE, 3), np.uint8)
    for v in range(ku.VIEW_BLANK, 9):
        t = tiles[v - ku.VIEW_BLANK]
        t[:] = _PAPER.get(v, (255, 255, 255))
        ch = SYMBOLS[v]
        if ch in _FONT:
            glyph = np.array([[c == "#" for c in row] for row in _FONT[ch]])
            t[3:13, 5:11][glyph.repeat(2, 0).repeat(2, 1)] = _INK[ch]  # 2x: 6 x 10 pixels
        t[TILE - 1, :] = t[:, TILE - 1] = (140, 140, 140)  # the grid
    return tiles


TILES = _tiles()


def rgb(view) -> np.ndarray:
    """The view as a picture: uint8 (H * 16, W * 16, 3)."""
    h, w = view.shape
    t = TILES[view.astype(np.int64) - ku.VIEW_BLANK]  # (H, W, TILE, TILE, 3)
    return np.ascontiguousarray(t.transpose(0, 2, 1, 3, 4).reshape(h * TILE, w * TILE, 3))

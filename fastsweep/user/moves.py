"""A user's agent's moves: ``(row, col)`` (a guess), ``Safe(row, col)`` (a reveal the
agent deduced safe), ``Flag(row, col)`` (a mine), and their int64 codes for the kernels
(``kernels/agents/user.py``: the cell index plus the kind times 2**32; the Numba and
batched forms return those codes directly, made by :func:`reveal`, :func:`safe` and
:func:`flag`).
"""
from __future__ import annotations

import numbers
from typing import NamedTuple

import numpy as np
from numba.extending import overload

from ..kernels.agents import user as ku

MOVE_UNIT = ku.MOVE_UNIT


class Guess(NamedTuple):
    """Reveal ``(row, col)``, not known to be safe (the same as returning the pair).
    ``why`` (optional, on each move record): the move's reason, shown in its trace."""

    row: int
    col: int
    why: str = ""


class Safe(NamedTuple):
    """Reveal ``(row, col)``, which the agent deduced safe: it is not counted as a guess,
    and were it a mine the game's ``safe_detonations`` would say so.

    >>> Safe(2, 3, why="the 1 at (1,3) has its mine")
    Safe(row=2, col=3, why='the 1 at (1,3) has its mine')
    """

    row: int
    col: int
    why: str = ""


class Flag(NamedTuple):
    """Flag ``(row, col)`` as a mine (flags are final).

    >>> Flag(0, 1)
    Flag(row=0, col=1, why='')
    """

    row: int
    col: int
    why: str = ""


_KIND = {Guess: ku.MOVE_GUESS, Safe: ku.MOVE_SAFE, Flag: ku.MOVE_FLAG}


def _code(cell, kind):
    arr = np.asarray(cell)
    if not (np.issubdtype(arr.dtype, np.integer) and arr.dtype != bool):
        raise TypeError(f"cell: expected a flat cell index (row * W + col) or an integer "
                        f"array of them, got {cell!r:.60}")
    out = arr.astype(np.int64) + kind * MOVE_UNIT
    return out[()] if out.ndim == 0 else out


def reveal(cell):
    """Move code(s) revealing flat cell index(es) ``cell`` (row * W + col) as a guess; in
    Python and inside a Numba agent (scalars and arrays).

    >>> int(reveal(5)), int(safe(5)), int(flag(5)) == 5 + 2 * 2**32
    (5, 4294967301, True)
    >>> flag(np.array([1, 2])).tolist() == [1 + 2 * 2**32, 2 + 2 * 2**32]
    True
    """
    return _code(cell, ku.MOVE_GUESS)


def safe(cell):
    """Move code(s) revealing ``cell`` (flat index), deduced safe."""
    return _code(cell, ku.MOVE_SAFE)


def flag(cell):
    """Move code(s) flagging ``cell`` (flat index)."""
    return _code(cell, ku.MOVE_FLAG)


def _overload(fn, kind):
    """``fn`` inside Numba code: the cell plus the kind's unit, as int64."""
    unit = np.int64(kind * MOVE_UNIT)

    @overload(fn)
    def impl(cell):
        return lambda cell: cell + unit


for _fn, _kind in ((reveal, ku.MOVE_GUESS), (safe, ku.MOVE_SAFE), (flag, ku.MOVE_FLAG)):
    _overload(_fn, _kind)


def describe(code: int, width: int) -> str:
    """A move code as the user would write it, e.g. ``Flag(2, 3)``."""
    kind, cell = divmod(int(code), MOVE_UNIT)
    name = {ku.MOVE_GUESS: "", ku.MOVE_SAFE: "Safe", ku.MOVE_FLAG: "Flag"}.get(kind)
    if name is None:
        return f"move code {int(code)} (kind {kind} is not a guess, Safe or Flag)"
    return f"{name}({cell // width}, {cell % width})"


def _int(x):
    return (isinstance(x, (numbers.Integral, np.integer)) and not isinstance(x, (bool, np.bool_)))


def encode(move, height: int, width: int) -> int:
    """The code of a Python agent's move; a ValueError saying what is wrong otherwise
    (the caller adds the agent, game and move number)."""
    t = type(move)
    kind = _KIND.get(t, ku.MOVE_GUESS)
    if t in _KIND:
        if not isinstance(move.why, str):
            raise ValueError(f"returned {move!r:.80}: why must be a string (the move's reason)")
        move = (move.row, move.col)
    if t is tuple and len(move) == 2 or t in _KIND:
        r, c = move
        if type(r) is int and type(c) is int and 0 <= r < height and 0 <= c < width:
            return r * width + c + kind * MOVE_UNIT  # (the common case, without ABC checks)
    if not isinstance(move, (tuple, list)) or len(move) != 2:
        raise ValueError(f"returned {move!r:.80}: a move is (row, col), Safe(row, col) or "
                         "Flag(row, col)")
    r, c = move
    if not (_int(r) and _int(c)):
        raise ValueError(f"returned {move!r:.80}: row and col must be integers")
    if not (0 <= r < height and 0 <= c < width):
        raise ValueError(f"returned {move!r:.80}: off the {height}x{width} board (rows "
                         f"0..{height - 1}, columns 0..{width - 1})")
    return int(r) * width + int(c) + kind * MOVE_UNIT


ERRORS = {ku.ERR_KIND: "its kind is not a guess, Safe or Flag",
          ku.ERR_CELL: "the cell is off the board",
          ku.ERR_TAKEN: "the cell is not hidden (already revealed, flagged or detonated)",
          ku.ERR_OVER: "the game is over"}

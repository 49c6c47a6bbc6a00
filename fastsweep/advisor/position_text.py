"""A position typed in by hand: the text format, and checks whose errors name a cell.

A position is one row of cells per line: ``?`` or ``.`` hidden, ``F`` or ``*`` a known
mine (flagged, or a mine that went off), ``0``-``8`` a revealed clue; spaces between
cells are allowed, blank lines and lines starting with ``#`` are skipped. As a view
(see :func:`fastsweep.deduce`) it is an int8 array: -1 hidden, -2 known mine, 0..8 a
clue. Rows and columns count from 0, as on every board fastsweep prints.
"""
from __future__ import annotations

import numbers
import warnings

import numpy as np

from ..agents import counted
from ..config import MAX_CELLS
from ..inference import ApproximationWarning, _as_view, deduce
from ..kernels.engine import env as ke
from ..kernels.engine.layout import F_NNB
from ..kernels.engine.view import HIDDEN_CODE, MINE_CODE, fill_state

CODES = {**{c: HIDDEN_CODE for c in "?."}, **{c: MINE_CODE for c in "F*"},
         **{str(v): v for v in range(9)}}
ALLOWED = "? or . hidden, F or * known mine, 0-8 a revealed clue"


def parse_position(text: str) -> np.ndarray:
    """A position's text -> its view (int8 H x W: -1 hidden, -2 known mine, 0..8 a clue).

    Raises ValueError naming the row and column (and the line of the text) of the first
    cell that is not one of ``? . F * 0-8``, or of a row longer or shorter than the first.

    >>> parse_position('''
    ... ? 1 ?
    ... F 2 .
    ... ''').tolist()
    [[-1, 1, -1], [-2, 2, -1]]
    >>> parse_position("?1?\\n?x?")
    Traceback (most recent call last):
    ...
    ValueError: position: row 1, column 1 (line 2): unknown character 'x'; allowed: ...
    """
    if not isinstance(text, str):
        raise ValueError(f"position: expected text, got {type(text).__name__}")
    rows, lines = [], []
    for line_no, line in enumerate(text.splitlines(), start=1):
        cells = "".join(line.split())  # (spaces and tabs between cells)
        if not cells or cells.startswith("#"):
            continue
        r = len(rows)
        for c, ch in enumerate(cells):
            if ch not in CODES:
                what = (f"clue {ch} is larger than 8" if ch == "9" else
                        f"unknown character {ch!r}; allowed: {ALLOWED}")
                raise ValueError(f"position: row {r}, column {c} (line {line_no}): {what}")
        if rows and len(cells) != len(rows[0]):
            w0, w = len(rows[0]), len(cells)
            where = f"position: row {r}, column {min(w, w0)} (line {line_no})"
            if w < w0:
                raise ValueError(f"{where}: the row ends after {w} cells; row 0 has {w0}")
            raise ValueError(f"{where}: the row has {w} cells; row 0 has {w0}")
        rows.append(cells)
        lines.append(line_no)
    if not rows:
        raise ValueError("position: no rows (expected one row of cells per line: "
                         f"{ALLOWED})")
    if len(rows) * len(rows[0]) > MAX_CELLS:
        raise ValueError(f"position: {len(rows)}x{len(rows[0])} cells is too large; at most "
                         f"{MAX_CELLS} cells")
    return np.array([[CODES[ch] for ch in row] for row in rows], np.int8)


def _problem(code, x, state, cell):
    m, h = int(ke.nb_mines(state, cell)), int(ke.nb_hidden(state, cell))
    nb = int(state[cell, F_NNB])
    if code == 1:
        return f"clue {x} is larger than its number of neighbours ({nb})"
    if code == 2:
        return f"clue {x} is smaller than its {counted(m, 'known-mine neighbour')}"
    return (f"clue {x} needs {x - m} more mine{'s' * (x - m != 1)} but has only {h} hidden "
            f"neighbour{'s' * (h != 1)}")


def _local(view):
    """(code, cell, known mines, hidden cells) of ``fill_state``: the first clue in row
    order that its own neighbours contradict (code 0: none)."""
    h, w = view.shape
    state = ke.new_state(h, w)
    return fill_state(np.ascontiguousarray(view, np.int8), state) + (state,)


def _consistent(view, mines=None):
    try:
        with warnings.catch_warnings():  # (the advice that follows warns, once)
            warnings.simplefilter("ignore", ApproximationWarning)
            deduce(view, mines)
    except ValueError:
        return False
    return True


def check_position(view, mines=None, name="view") -> np.ndarray:
    """``view`` as an int8 array, checked: every value a code, every clue possible among
    its neighbours, some mine layout agreeing with all the clues (and with ``mines``).

    A ValueError names the row and column of the first bad cell (``name``: what the
    message calls the position): for a position no layout agrees with, the first clue
    in row order that contradicts the clues before it. An impossible ``mines`` is
    blamed on ``mines``.

    >>> check_position([[1, -1], [-1, 3]])
    Traceback (most recent call last):
    ...
    ValueError: view: row 1, column 1: clue 3 needs 3 more mines but has only 2 hidden neighbours
    >>> check_position([[0, -1, 1]])
    Traceback (most recent call last):
    ...
    ValueError: view: row 0, column 2: clue 1 contradicts the clues before it (...)
    """
    view = _as_view(view)
    h, w = view.shape
    if h * w > MAX_CELLS:
        raise ValueError(f"{name}: {h}x{w} = {h * w} cells is too large; at most {MAX_CELLS}")
    bad = (view < MINE_CODE) | (view > 8)
    if bad.any():
        r, c = np.argwhere(bad)[0]
        raise ValueError(f"{name}: row {r}, column {c}: value {view[r, c]} is not -2 (known "
                         "mine), -1 (hidden) or a clue 0..8")
    view = np.ascontiguousarray(view, np.int8)
    code, cell, known, hidden, state = _local(view)
    if code:
        r, c = divmod(int(cell), w)
        raise ValueError(f"{name}: row {r}, column {c}: "
                         f"{_problem(code, int(view[r, c]), state, cell)}")
    if mines is not None:
        if not isinstance(mines, numbers.Integral) or isinstance(mines, bool):
            raise ValueError(f"mines: expected an integer or None, got {mines!r}")
        if mines < known:
            raise ValueError(f"mines: {mines} is fewer than the {counted(known, 'known mine')}"
                             f" of the {name}")
        if mines > known + hidden:
            raise ValueError(f"mines: {mines} is more than the {name} can hold "
                             f"({counted(known, 'known mine')} and "
                             f"{counted(hidden, 'hidden cell')})")
    if not _consistent(view):
        # adding clues only removes layouts: find the first clue (row order) whose
        # addition leaves none, by bisection on how many clues are shown
        clues = np.flatnonzero(view.ravel() >= 0)

        def shown(k):
            v = view.copy().ravel()
            v[clues[k:]] = HIDDEN_CODE
            return v.reshape(h, w)

        lo, hi = 0, len(clues)  # shown(lo) agrees with some layout, shown(hi) with none
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (mid, hi) if _consistent(shown(mid)) else (lo, mid)
        r, c = divmod(int(clues[hi - 1]), w)
        raise ValueError(f"{name}: row {r}, column {c}: clue {view[r, c]} contradicts the "
                         "clues before it (no mine layout agrees with them)")
    if mines is not None and not _consistent(view, int(mines)):
        raise ValueError(f"mines: no mine layout that agrees with the {name} has {mines} "
                         "mines")
    return view

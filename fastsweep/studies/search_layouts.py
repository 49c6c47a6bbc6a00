"""Search over mine layouts for any objective: local search by one-step mine moves, and
exhaustive enumeration of small boards.

Nothing here knows Minesweeper beyond "a layout is a boolean H x W array": the objective
is any deterministic function of a layout (an agent's mean score over fixed games in
:mod:`fastsweep.studies.hard`; the longest deduction chain of a later study), minimised or
maximised. A deterministic objective lets the search remember every value it computed
(a layout met again costs nothing) and makes a round that tried every move final.
"""
from __future__ import annotations

import hashlib
import itertools
import math
import numbers
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..config import check_flag, check_seed

#: One orthogonal step of a mine: up, down, left, right (the order moves are listed in).
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
#: Exhaustive enumeration refuses boards with more layouts than this.
MAX_LAYOUTS = 1_000_000


def mine_steps(layout) -> list[tuple[int, int]]:
    """Every move of one mine one step up, down, left or right onto an empty cell, as
    (from, to) flat cell indices: mines in cell order, each mine's steps in ``STEPS`` order.

    >>> mine_steps(np.array([[1, 0], [1, 1]], bool))  # cells 0 and 3 can step to cell 1
    [(0, 1), (3, 1)]
    """
    lay = np.asarray(layout, bool)
    h, w = lay.shape
    moves = []
    for cell in np.flatnonzero(lay.ravel()):
        r, c = divmod(int(cell), w)
        for dr, dc in STEPS:
            rr, cc = r + dr, c + dc
            if 0 <= rr < h and 0 <= cc < w and not lay[rr, cc]:
                moves.append((int(cell), rr * w + cc))
    return moves


def moved(layout, move) -> np.ndarray:
    """A copy of ``layout`` with the mine at flat cell ``move[0]`` moved to ``move[1]``."""
    out = np.array(layout, bool)
    flat = out.reshape(-1)
    flat[move[0]], flat[move[1]] = False, True
    return out


def layout_text(layout, mine="*", empty=".") -> str:
    """A layout as text, one line per row (``*`` a mine, ``.`` an empty cell).

    >>> print(layout_text(np.array([[1, 0], [0, 0]], bool)))
    *.
    ..
    """
    return "\n".join("".join(mine if v else empty for v in row) for row in np.asarray(layout, bool))


def layout_key(layout) -> str:
    """A layout as one string: its rows of 0/1 (1 = mine) joined by ``/`` (a dictionary
    key, and a CSV cell that no reader mistakes for a number).

    >>> layout_key(np.array([[1, 0], [0, 1]], bool))
    '10/01'
    """
    return "/".join("".join("1" if v else "0" for v in row) for row in np.asarray(layout, bool))


def parse_key(key) -> np.ndarray:
    """The boolean layout of a :func:`layout_key` string.

    >>> parse_key("10/01").astype(int).tolist()
    [[1, 0], [0, 1]]
    """
    rows = str(key).split("/")
    if not rows[0] or any(len(r) != len(rows[0]) or set(r) - {"0", "1"} for r in rows):
        raise ValueError(f"key: expected rows of 0/1 of one length joined by '/', got {key!r}")
    return np.array([[c == "1" for c in r] for r in rows], bool)


def _check_int(name, v, lo, hi=None):
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < lo or (
            hi is not None and v > hi):
        allowed = f">= {lo}" if hi is None else f"in [{lo}, {hi}]"
        raise ValueError(f"{name}: must be an integer {allowed}, got {v!r}")
    return int(v)


@dataclass
class SearchResult:
    """What :func:`local_search` found.

    ``history`` has one row per round: ``round`` (0 is the start), ``tried`` (moves
    evaluated that round), ``best`` (the best of them), ``accepted``, the accepted move as
    ``from_row``, ``from_col``, ``to_row``, ``to_col`` (-1 when none), and ``value`` (the
    objective of the current layout after the round). ``path`` holds the start and the
    layout after each accepted move, in order.
    """

    layout: np.ndarray
    value: float
    start: np.ndarray
    start_value: float
    minimize: bool
    history: pd.DataFrame
    path: list = field(repr=False)
    evaluations: int = 0  # distinct layouts whose objective was computed
    stopped: str = ""  # why the search ended

    @property
    def rounds(self) -> int:
        return int(self.history["round"].max())

    @property
    def steps(self) -> int:
        return int(self.history["accepted"].sum())


def _value(objective, layout) -> float:
    """``objective(layout)``, a finite number only: float() would take the string "1.5"
    and fail on "abc" with a message that does not name the objective."""
    v = objective(layout)
    if (isinstance(v, (bool, np.bool_)) or not isinstance(v, (numbers.Real, np.floating))
            or not math.isfinite(v)):
        raise ValueError(f"objective: must return a finite number for a layout, returned "
                         f"{v!r:.60}")
    return float(v)


def local_search(objective, start, *, minimize=True, patience=3, tries=None, min_gain=0.01,
                 seed=0, max_rounds=10_000, allowed=None) -> SearchResult:
    """Local search over layouts by moving one mine one orthogonal step at a time.

    Each round evaluates candidate moves of the current layout (:func:`mine_steps`): all of
    them (``tries=None``: steepest descent) or ``tries`` of them drawn at random without
    replacement (from a generator seeded by ``seed``, an integer in [0, 2**64 - 1], or
    ``seed`` itself when it is a numpy Generator). The best candidate is kept if it
    improves the objective (lowers it when ``minimize``, else raises it) by at least
    ``min_gain`` relative to the current value (``min_gain * |value|``, and by more than
    0). The search tolerates ``patience`` non-improving rounds in a row and stops at the
    next one (0: at the first). A round that tried every move and kept none ends the
    search at once: the objective is deterministic, so trying again gives the same values.

    ``objective(layout)``: a float for a boolean (H, W) array; it must be a function of
    the layout alone (values are cached by layout). ``allowed(layout)``: optional filter
    of candidate layouts (e.g. a fixed first cell that must stay safe).

    >>> target = np.zeros((3, 3), bool); target[2, 2] = True
    >>> start = np.zeros((3, 3), bool); start[0, 0] = True
    >>> far = lambda lay: float(np.abs(np.argwhere(lay) - [2, 2]).sum())
    >>> r = local_search(far, start, patience=0)
    >>> r.value, r.steps, bool(r.layout[2, 2])
    (0.0, 4, True)
    """
    if not callable(objective):
        raise ValueError(f"objective: must be a callable layout -> float, got {objective!r}")
    if allowed is not None and not callable(allowed):
        raise ValueError(f"allowed: must be None or a callable layout -> bool, got {allowed!r}")
    minimize = check_flag(minimize, "minimize")  # ("no" is truthy: it would minimise)
    lay = np.asarray(start)
    if lay.ndim != 2 or lay.size == 0 or not (lay.dtype == bool or np.isin(lay, (0, 1)).all()):
        raise ValueError("start: must be a non-empty 2-D boolean (or 0/1) array")
    lay = lay.astype(bool)
    patience = _check_int("patience", patience, 0)
    if tries is not None:
        tries = _check_int("tries", tries, 1)
    max_rounds = _check_int("max_rounds", max_rounds, 0)
    if (isinstance(min_gain, bool) or not isinstance(min_gain, (int, float, np.floating))
            or not math.isfinite(min_gain) or min_gain < 0):
        raise ValueError(f"min_gain: must be a finite number >= 0, got {min_gain!r}")
    # a Generator goes on with its own stream (hard_board's, after its start layout)
    rng = (seed if isinstance(seed, np.random.Generator)
           else np.random.default_rng(check_seed(seed)))
    sign = 1.0 if minimize else -1.0  # search minimises sign * objective
    cache = {}

    def value(x):
        # keyed by a digest, not the layout's bytes: a long search on a large board would
        # otherwise keep a copy of every layout it evaluated
        k = hashlib.blake2b(x.tobytes(), digest_size=20).digest()
        if k not in cache:
            cache[k] = _value(objective, x)
        return cache[k]

    cur = lay.copy()
    cur_v = value(cur)
    w = cur.shape[1]
    rows = [dict(round=0, tried=0, best=cur_v, accepted=False, from_row=-1, from_col=-1,
                 to_row=-1, to_col=-1, value=cur_v)]
    path = [cur.copy()]
    stale, stopped = 0, "max_rounds"
    for rnd in range(1, max_rounds + 1):
        moves = mine_steps(cur)
        if allowed is not None:
            # one moved copy at a time, dropped once checked: holding every candidate's
            # copy took moves x cells of memory (5 GB on a 300x300 board)
            moves = [m for m in moves if allowed(moved(cur, m))]
        if not moves:
            stopped = "no move"
            break
        every = tries is None or tries >= len(moves)
        if not every:  # (the same draw as over the copies: only the moves are drawn)
            pick = rng.choice(len(moves), size=tries, replace=False)
            moves = [moves[i] for i in sorted(pick)]
        best = None  # (move, layout, value): the first of equal bests, in move order
        for m in moves:
            x = moved(cur, m)
            v = value(x)
            if best is None or sign * v < sign * best[2]:
                best = (m, x, v)
        (f, t), x, bv = best
        gain = sign * (cur_v - bv)
        ok = gain > 0 and gain >= min_gain * abs(cur_v)
        if ok:
            cur, cur_v, stale = x, bv, 0
            path.append(cur.copy())
        rows.append(dict(round=rnd, tried=len(moves), best=bv, accepted=ok,
                         from_row=f // w if ok else -1, from_col=f % w if ok else -1,
                         to_row=t // w if ok else -1, to_col=t % w if ok else -1, value=cur_v))
        if not ok:
            if every:
                stopped = "local optimum"
                break
            stale += 1
            if stale > patience:
                stopped = "patience"
                break
    return SearchResult(layout=cur, value=cur_v, start=lay, start_value=rows[0]["value"],
                        minimize=minimize, history=pd.DataFrame(rows), path=path,
                        evaluations=len(cache), stopped=stopped)


def all_layouts(shape, mines):
    """Every layout of ``mines`` mines on a board of ``shape`` (H, W), in lexicographic
    order of the mines' flat cells (``itertools.combinations``).

    >>> [layout_key(x) for x in all_layouts((2, 2), 3)]
    ['11/10', '11/01', '10/11', '01/11']
    """
    h, w = shape
    for cells in itertools.combinations(range(h * w), mines):
        x = np.zeros(h * w, bool)
        x[list(cells)] = True
        yield x.reshape(h, w)


def symmetries(layout) -> list[np.ndarray]:
    """The layout under every symmetry of its board: 8 on a square (rotations and
    reflections), 4 on a rectangle (the two flips and the half turn); repeats included.

    >>> len(symmetries(np.zeros((3, 3), bool))), len(symmetries(np.zeros((2, 3), bool)))
    (8, 4)
    """
    x = np.asarray(layout, bool)
    turns = (0, 1, 2, 3) if x.shape[0] == x.shape[1] else (0, 2)
    out = []
    for k in turns:
        y = np.rot90(x, k)
        out += [y, y[:, ::-1]]
    return out


def canonical(layout) -> str:
    """The smallest :func:`layout_key` among the layout's symmetries (one name per orbit).

    >>> canonical(np.array([[0, 0], [0, 1]], bool)), canonical(np.array([[1, 0], [0, 0]], bool))
    ('00/01', '00/01')
    """
    return min(layout_key(y) for y in symmetries(layout))


def exhaustive(objective, shape, mines, minimize=True, symmetric=False) -> pd.DataFrame:
    """The objective of every layout of ``mines`` mines on an (H, W) board: a DataFrame
    with columns ``layout`` (:func:`layout_key`), ``value`` and ``orbit`` (how many
    layouts it stands for), best first (lowest when ``minimize``; ties in enumeration
    order).

    ``symmetric=True``: one layout per orbit of the board's symmetries (the first met in
    enumeration order), for objectives that the symmetries leave unchanged (about 8 times
    fewer evaluations on a square board); ``orbit`` then sums to the number of layouts.

    >>> exhaustive(lambda x: float(np.argwhere(x)[0, 1]), (1, 3), 1).layout.tolist()
    ['100', '010', '001']
    >>> exhaustive(lambda x: 0.0, (3, 3), 1, symmetric=True).orbit.tolist()  # corner, edge, centre
    [4, 4, 1]
    """
    if not callable(objective):
        raise ValueError(f"objective: must be a callable layout -> float, got {objective!r}")
    minimize, symmetric = check_flag(minimize, "minimize"), check_flag(symmetric, "symmetric")
    if (not isinstance(shape, tuple) or len(shape) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1
                       for v in shape)):
        raise ValueError(f"shape: must be a pair (H, W) of integers >= 1, got {shape!r}")
    cells = shape[0] * shape[1]
    mines = _check_int("mines", mines, 0, cells)
    n = math.comb(cells, mines)
    if n > MAX_LAYOUTS:
        raise ValueError(f"mines: {n:,} layouts of {mines} mines on {shape[0]}x{shape[1]}; "
                         f"exhaustive search takes at most {MAX_LAYOUTS:,}")
    reps, count = {}, {}
    for x in all_layouts(shape, mines):
        k = canonical(x) if symmetric else layout_key(x)
        if k not in reps:
            reps[k] = x
        count[k] = count.get(k, 0) + 1
    rows = [(layout_key(x), _value(objective, x), count[k]) for k, x in reps.items()]
    df = pd.DataFrame(rows, columns=["layout", "value", "orbit"])
    return df.sort_values("value", ascending=minimize, kind="stable").reset_index(drop=True)

"""Random Minesweeper positions ("views") for benchmarks and tests of the inference API.

Unlike positions met in play (where an agent reveals cells next to what it already
knows, so the frontier is one or a few long, thin bands), these positions reveal safe
cells scattered at random over the board. Their frontier has clues everywhere, many
components and some wide ones: the hard case for exact counting (see
``scripts/bench/bench_hard_views.py``).

A view uses the codes of :func:`fastsweep.mine_probabilities`: -1 hidden, -2 known mine,
0..8 a revealed clue.
"""
from __future__ import annotations

import numbers

import numpy as np

from ..config import check_flag, check_seed
from ..kernels.engine.view import HIDDEN_CODE, MINE_CODE


def _check_int(name, value, lo, hi):
    if not isinstance(value, numbers.Integral) or isinstance(value, bool):
        raise ValueError(f"{name}: expected an integer in [{lo}, {hi}], got {value!r}")
    if not lo <= value <= hi:
        raise ValueError(f"{name}: must be in [{lo}, {hi}], got {value}")
    return int(value)


def _clues(mine):
    """Number of mine neighbours of every cell (bool H x W -> int8 H x W)."""
    h, w = mine.shape
    p = np.zeros((h + 2, w + 2), np.int8)
    p[1:-1, 1:-1] = mine
    tot = np.zeros((h, w), np.int8)
    for dr in (0, 1, 2):
        for dc in (0, 1, 2):
            if dr != 1 or dc != 1:
                tot += p[dr:dr + h, dc:dc + w]
    return tot


def random_view(height, width, mines, revealed, seed, known_mine_frac=0.2, *, board=False):
    """A random position: ``mines`` mines, at least ``revealed`` safe cells revealed.

    The mines are placed uniformly at random with ``numpy.random.default_rng(seed)``.
    Then safe cells are picked at random one at a time (uniformly among the safe cells
    not yet revealed) and revealed, a revealed 0 revealing its neighbours recursively as
    in the game, until at least ``revealed`` safe cells are revealed (a flood fill can
    overshoot). Finally ``round(known_mine_frac * k)`` of the k mines that have a
    revealed neighbour, chosen at random, are shown as known mines (-2). The result
    depends only on the arguments.

    Parameters
    ----------
    height, width : int >= 1
    mines : int in [0, height * width]
    revealed : int in [0, height * width - mines]
    seed : int >= 0
    known_mine_frac : float in [0, 1]
    board : bool
        Also return the mine layout (bool H x W), e.g. to check the clues.

    Returns
    -------
    (view, mine_total) : int8 (H, W) array (-1 hidden, -2 known mine, 0..8 clue) and the
    total number of mines (known ones included), the ``mines`` argument of
    :func:`fastsweep.mine_probabilities`; ``(view, mine_total, layout)`` with ``board``.

    Raises ValueError naming the argument and its allowed range.

    Example
    -------
    >>> from fastsweep.studies.positions import random_view
    >>> view, total = random_view(4, 6, 5, 10, seed=3)
    >>> view.shape, view.dtype.name, total
    ((4, 6), 'int8', 5)
    >>> int((view >= 0).sum()) >= 10  # revealed safe cells
    True
    >>> bool((random_view(4, 6, 5, 10, seed=3)[0] == view).all())  # same seed, same view
    True
    """
    height = _check_int("height", height, 1, 1 << 15)
    width = _check_int("width", width, 1, 1 << 15)
    n = height * width
    mines = _check_int("mines", mines, 0, n)
    revealed = _check_int("revealed", revealed, 0, n - mines)
    seed, board = check_seed(seed), check_flag(board, "board")
    if (not isinstance(known_mine_frac, numbers.Real) or isinstance(known_mine_frac, bool)
            or not 0.0 <= float(known_mine_frac) <= 1.0):
        raise ValueError(f"known_mine_frac: must be a number in [0, 1], got {known_mine_frac!r}")

    rng = np.random.default_rng(seed)
    mine = np.zeros(n, bool)
    mine[rng.choice(n, mines, replace=False)] = True
    clue = _clues(mine.reshape(height, width)).ravel()
    shown = np.zeros(n, bool)
    # Walking a uniform random order of the safe cells and skipping those a flood fill
    # already revealed picks each next cell uniformly among the unrevealed ones.
    safe = np.flatnonzero(~mine)
    order = safe[rng.permutation(safe.size)]
    count = 0
    i = 0
    while count < revealed:
        c0 = int(order[i])
        i += 1
        if shown[c0]:
            continue
        shown[c0] = True
        count += 1
        stack = [c0] if clue[c0] == 0 else []
        while stack:  # flood fill: a 0 reveals its neighbours (all safe)
            r, c = divmod(stack.pop(), width)
            for rr in range(max(r - 1, 0), min(r + 2, height)):
                for cc in range(max(c - 1, 0), min(c + 2, width)):
                    d = rr * width + cc
                    if not shown[d]:
                        shown[d] = True
                        count += 1
                        if clue[d] == 0:
                            stack.append(d)
    view = np.full(n, HIDDEN_CODE, np.int8)
    view[shown] = clue[shown]
    # mines next to a revealed cell: the ones a player could have flagged
    near = _clues(shown.reshape(height, width)).ravel() > 0
    cand = np.flatnonzero(mine & near)
    k = int(round(float(known_mine_frac) * cand.size))
    view[rng.choice(cand, k, replace=False)] = MINE_CODE
    view = view.reshape(height, width)
    if board:
        return view, mines, mine.reshape(height, width)
    return view, mines

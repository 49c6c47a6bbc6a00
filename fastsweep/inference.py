"""Public inference API: complete deduction and exact mine probabilities for one view.

The wrapper validates the view, builds the same state array the game loop uses and calls
the same kernels as the ``inference`` and ``probability`` agents (kernels/count.py).
"""
from __future__ import annotations

import contextlib
import numbers
import warnings

import numpy as np

from .agents import counted
from .config import MAX_CELLS, check_flag
from .option_checks import check_budget, check_prior
from .kernels.inference import clues as kcl
from .kernels.inference import count as kc
from .kernels.inference import results as kr
from .kernels.engine import env as ke
from .kernels.engine.view import MINE_CODE
from .kernels.engine.view import fill_state as _fill_state
from .kernels.engine import layout as kl
from .kernels.inference.whatif import base as kw


class ApproximationWarning(UserWarning):
    """A component was too large for the work budget: its probabilities are sampled
    estimates (the message gives their standard error); its certain cells come from a
    search (the message says whether it finished)."""


_PROBLEMS = {1: "is larger than its number of neighbours",
             2: "is smaller than its known-mine neighbours",
             3: "needs more mines than its hidden neighbours can hold"}


def _from_obs(view, mines, likelihood):
    """(view, mines, likelihood) from an agent's observation (``fastsweep.user``) or a
    view: an observation gives its view and mine total; its detonated mines (-3) are
    known mines (-2), and a cell revealed with nothing shown (-4, a noisy sensor) a soft
    clue that says nothing (a likelihood row of ones)."""
    if hasattr(view, "view") and hasattr(view, "mines") and not isinstance(view, np.ndarray):
        if mines is None:
            mines = view.mines
        view = view.view
    if isinstance(view, np.ndarray) and view.dtype.kind == "i" and view.size and view.min() < -2:
        if view.min() < -4:
            return view, mines, likelihood  # (refused with its cell by _state)
        blank = view == -4
        view = np.where(view == -3, -2, np.where(blank, 0, view)).astype(np.int8)
        if blank.any():
            rows = (np.full(view.shape + (9,), np.nan) if likelihood is None
                    else _likelihood_array(likelihood, view.shape))
            rows[blank] = 1.0
            likelihood = rows
    return view, mines, likelihood


def _as_view(view):
    """``view`` as a numpy integer array (any array-like of integers: a list of lists too);
    a ValueError for masked arrays and for anything that is not integers."""
    if isinstance(view, np.ma.MaskedArray):
        # the kernel would read the masked entries' data: refuse rather than guess
        raise ValueError("view: masked arrays are not accepted; fill the masked cells "
                         "first, e.g. view.filled(-1) for hidden")
    if not isinstance(view, np.ndarray):
        try:
            view = np.asarray(view)
        except (ValueError, TypeError):  # e.g. rows of different lengths
            raise ValueError(f"view: expected a 2-D array of integers (rows of equal "
                             f"length), got {type(view).__name__} {view!r:.60}") from None
    if view.ndim != 2:
        raise ValueError(f"view: expected a 2-D array, got {view.ndim} dimensions")
    if view.size == 0:
        raise ValueError(f"view: empty board of shape {view.shape}")
    if view.dtype == bool or not np.issubdtype(view.dtype, np.integer):
        if np.issubdtype(view.dtype, np.floating) and view.size:
            odd = view != np.round(view)
            if odd.any():
                r, c = np.argwhere(odd)[0]
                raise ValueError(f"view: value {view[r, c]} at ({r},{c}) is not an integer "
                                 "(-2 known mine, -1 hidden, 0..8 a clue)")
        raise ValueError(f"view: expected integers (-2 known mine, -1 hidden, 0..8 a clue), "
                         f"got dtype {view.dtype}; convert with np.asarray(view, np.int8)")
    return view


def _state(view, mines):
    """Validate ``view`` / ``mines`` and build the kernel state (raises ValueError)."""
    view = _as_view(view)
    h, w = view.shape
    if h * w > MAX_CELLS:
        raise ValueError(f"view: {h}x{w} = {h * w} cells is too large; at most {MAX_CELLS} "
                         "cells (the limit of a game board)")
    lo, hi = view.min(), view.max()
    if lo < MINE_CODE or hi > 8:
        bad = (view < MINE_CODE) | (view > 8)
        r, c = np.argwhere(bad)[0]
        raise ValueError(f"view: value {view[r, c]} at ({r},{c}) is not -2 (known mine), "
                         "-1 (hidden) or a clue 0..8")
    S = ke.new_state(h, w)
    _fill_state(np.ascontiguousarray(view, dtype=np.int8), S)  # (its check: _check_state's)
    _check_state(S, w, mines)
    S[ke.ncells(S), kl.C_KMINES] = -1 if mines is None else int(mines)
    return S


def _check_state(S, width, mines, what="view", hint=""):
    """The checks of a state before it is counted (a view typed in, or a user agent's
    knowledge, ``what``): each clue on its own against its neighbours, then ``mines``
    against the known mines and hidden cells. A ValueError names the clue or the total;
    ``hint`` ends its message."""
    code, cell, nknown, nhid = kcl.clue_problem(S)
    if code:
        r, c = divmod(int(cell), width)
        raise ValueError(f"{what} is inconsistent: clue {ke.clue(S, cell)} at ({r},{c}) "
                         f"{_PROBLEMS[code]} ({counted(ke.nb_mines(S, cell), 'known mine')}, "
                         f"{counted(ke.nb_hidden(S, cell), 'hidden neighbour')}){hint}")
    if mines is not None:
        if not isinstance(mines, numbers.Integral) or isinstance(mines, bool):
            raise ValueError(f"mines: expected an integer or None, got {mines!r}")
        if mines < nknown:
            raise ValueError(f"{what} is inconsistent with mines={mines}: it already shows "
                             f"{counted(nknown, 'known mine')}{hint}")
        if mines > nknown + nhid:
            raise ValueError(f"{what} is inconsistent with mines={mines}: only "
                             f"{counted(nknown, 'known mine')} and "
                             f"{counted(nhid, 'hidden cell')}{hint}")


_METHODS = {"auto": 0, "path": 1, "tree": 2}  # count.METHOD_*


def _check_args(prior, budget, method):
    """The arguments' checks of the public functions and of a user agent's knowledge (the
    option table's own for prior and budget)."""
    if method not in _METHODS:
        raise ValueError(f"method: must be one of {', '.join(map(repr, _METHODS))}, "
                         f"got {method!r}")
    check_prior(prior, None)
    check_budget(budget, None)


@contextlib.contextmanager
def _memory(shape, budget):
    """A MemoryError of the kernels as a ValueError that names the view's size and what
    the memory goes to (the machine refused an allocation: nothing was used)."""
    try:
        yield
    except MemoryError:
        h, w = shape
        raise ValueError(
            f"view: {h}x{w} ({h * w:,} cells) needs more memory than this machine gave the "
            f"analysis; besides the budget's share (budget={budget or kc.DEFAULT_BUDGET:,}: "
            "up to about 300 bytes per unit), it takes memory in proportion to the view "
            "(about 2 KB per hidden cell of a component too large for the budget, for its "
            "sampled probabilities); try a smaller budget or a smaller view") from None


def _refuse(status, mines, what="view", hint=""):
    """The ValueError of an analysis that found no layout (status ST_CLUES / ST_TOTAL) of
    a view or a user agent's knowledge (``what``); ``hint`` ends its message."""
    if status == kc.ST_CLUES:
        raise ValueError(f"{what} is inconsistent: no mine layout agrees with all the "
                         f"clues{hint}")
    if status == kc.ST_TOTAL:
        raise ValueError(f"{what} is inconsistent with mines={mines}: no layout that agrees "
                         f"with the clues has that many mines{hint}")


def _raise_status(status, mines, approx, stacklevel, quality=(0, 0.0, 0.0)):
    _refuse(status, mines)
    if approx:
        undecided, se, ess = quality
        how = ("deduction there is complete (by search)" if not undecided else
               f"deduction by search stopped at its limit in {undecided} of them: some "
               "cells there may be certain without being reported")
        warnings.warn(f"{approx} frontier component(s) exceeded the work budget: their "
                      f"probabilities are estimated by sequential importance sampling "
                      f"({kc.SAMPLES} draws, effective sample size {ess:.0f}, largest "
                      f"standard error {se:.3g}); {how}",
                      ApproximationWarning, stacklevel=stacklevel + 1)


def _likelihood_array(likelihood, shape):
    """``likelihood`` as a new float64 array of shape ``shape + (9,)`` (``shape``: the
    view's), or a ValueError naming the argument and the shape it needs (numpy's own
    errors would not say which argument was wrong)."""
    need = tuple(shape) + (9,)
    try:
        L = np.array(likelihood, dtype=np.float64)
    except (ValueError, TypeError):
        raise ValueError(f"likelihood: expected a float array of shape {need} (a row of 9 "
                         f"numbers >= 0 per cell, NaN for a hard clue), got "
                         f"{type(likelihood).__name__} {likelihood!r:.60}") from None
    if L.shape != need:
        raise ValueError(f"likelihood: expected shape {need} (a row of 9 values per cell, "
                         f"NaN for a hard clue), got {L.shape}")
    return L


def _soft(view, likelihood):
    """(view for the kernels, soft rows (N, 9) or (0, 9), log of the rows' scale) from a
    ``likelihood`` argument.

    A likelihood row is defined up to a constant factor, so each soft row is divided by
    its largest entry (in float64) and the kernels see rows in [0, 1] with a 1 in each:
    rows of 1e308 or of subnormals weigh exactly like rows of ones (a subnormal row keeps
    only the few bits its numbers have). The scale taken out, the sum of the rows' log
    maxima, is added back to the log weight (``info["log_weight"]``)."""
    if likelihood is None:
        return view, np.zeros((0, 9), np.float64), 0.0
    L = _likelihood_array(likelihood, view.shape)
    nan = np.isnan(L)
    soft = ~nan.all(axis=2)
    bad = (nan.any(axis=2) & soft) | (soft & (~np.isfinite(L) | (L < 0)).any(axis=2))
    if bad.any():
        r, c = np.argwhere(bad)[0]
        raise ValueError(f"likelihood: the row at ({r},{c}) must be 9 finite numbers >= 0 "
                         "or all NaN (a hard clue)")
    off = soft & (np.asarray(view) < 0)
    if off.any():
        r, c = np.argwhere(off)[0]
        raise ValueError(f"likelihood: ({r},{c}) is not a revealed cell; only a revealed "
                         "clue can be soft")
    top = np.where(soft, np.where(nan, -np.inf, L).max(axis=2), 1.0)
    zero = soft & (top == 0)
    if zero.any():
        r, c = np.argwhere(zero)[0]
        raise ValueError(f"likelihood: the row at ({r},{c}) is all zeros: no count explains "
                         "the value shown")
    # (finite, >= 0 and not all zero: divided by its maximum it lies in [0, 1] with a 1)
    L[soft] = L[soft] / top[soft][:, None]
    lscale = float(np.log(top[soft]).sum())
    # a soft clue's shown value is not a constraint: give the kernels a consistent one
    # (its known-mine neighbours) so the view's checks apply to the hard clues only
    known = np.pad(np.asarray(view) == -2, 1).astype(np.int8)
    h, w = view.shape
    around = sum(known[1 + dr:h + 1 + dr, 1 + dc:w + 1 + dc]
                 for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
    view = np.where(soft, around, view).astype(np.int8)
    rows = np.full((h * w, 9), np.nan)
    rows[soft.ravel()] = L.reshape(h * w, 9)[soft.ravel()]
    return view, rows, lscale


def _analyse(view, mines, prior, budget, want_prob, method="auto", likelihood=None):
    _check_args(prior, budget, method)
    view, mines, likelihood = _from_obs(view, mines, likelihood)
    view = _as_view(view)
    view, soft, lscale = _soft(view, likelihood)
    with _memory(view.shape, budget):
        S = _state(view, mines)
        n = int(ke.ncells(S))
        prob = np.zeros(n, np.float64)
        ded = np.zeros(n, np.int8)
        q = kc.Query(mines is not None, float(prior), int(budget), want_prob,
                     _METHODS[method], soft)
        status, approx, logw, quality = kr.cell_results(S, q, prob, ded)
    _raise_status(status, mines, approx, stacklevel=3, quality=quality)
    return prob.reshape(view.shape), ded.reshape(view.shape), int(approx), float(logw) + lscale


def deduce(view, mines=None, *, budget=0, info=False, method="auto", likelihood=None):
    """Complete deduction: which hidden cells are certainly safe / certainly mines.

    Parameters
    ----------
    view : array-like of integers (H, W), or an agent's observation
        -1 hidden, -2 known mine (flagged or detonated), 0..8 a revealed clue: an integer
        numpy array (int8 is what the kernels take) or a list of lists. Masked arrays,
        booleans and floats are refused. An observation of your own agent
        (``fastsweep.user.Observation``) gives its view (-3 detonated, -4 nothing shown
        read as known mine and uninformative reveal) and its mine total.
    mines : int, optional
        Total number of mines on the board (known mines included). Without it, any
        number of mines is possible.
    budget : int
        Work budget (DP states per frontier component; 0 = default; the guide's "Exact
        inference" page gives the memory it allows). A component over budget is decided by search, whose
        own limit (2^18 decisions per component) is not the budget: certain cells do
        not depend on the budget unless that limit is hit, so any budget, even 1,
        finds every certain cell of a small view. Its probabilities are estimated by
        sampling; an ApproximationWarning says so, and says whether the deduction there
        is complete.
    info : bool
        Also return ``{"approx_steps": k}`` (k components approximated; 0 = exact).
    method : "auto", "path" or "tree"
        How each frontier component is counted: along a linear order of its boxes (fast
        when few clues are open at once), on a tree decomposition (when the frontier
        branches), or "auto": the path when at most 12 clues are ever open, else the
        tree, each falling back to the other when over budget. The results are the same.
        With "auto" and soft clues that are all bounds of one side (one-sided noise),
        nothing is counted: the certain cells follow from the bounds alone (see the
        performance page); "path" or "tree" forces the count.
    likelihood : float array (H, W, 9), optional
        Soft clues: the row of a revealed cell gives L(shown | t), how likely the value
        it shows is if t = 0..8 of its neighbours are mines (known mines included); a row
        of NaN keeps that clue hard ("exactly the value shown"). A layout then weighs
        the product of its soft clues' likelihoods; soft clues are counted on the tree.

    Returns
    -------
    (safe, mine) : two bool arrays (H, W). A hidden cell is in ``safe`` iff no layout that
    agrees with every clue (and with ``mines``) puts a mine there, in ``mine`` iff every
    such layout does.

    Raises ValueError for malformed views and for views no layout agrees with.

    Example
    -------
    >>> import numpy as np, fastsweep
    >>> view = np.array([[1, -1, -1],
    ...                  [1, -1, -1]], np.int8)
    >>> safe, mine = fastsweep.deduce(view)
    >>> safe.astype(int).tolist(), mine.astype(int).tolist()
    ([[0, 0, 0], [0, 0, 0]], [[0, 0, 0], [0, 0, 0]])
    >>> safe, mine = fastsweep.deduce(view, mines=1)  # the mine is next to both clues
    >>> safe.astype(int).tolist()
    [[0, 0, 1], [0, 0, 1]]
    >>> fastsweep.deduce([[1, -1, -1], [1, -1, -1]], mines=1)[0].astype(int).tolist()
    [[0, 0, 1], [0, 0, 1]]
    """
    check_flag(info, "info")
    _, ded, approx, _ = _analyse(view, mines, 0.5, budget, False, method, likelihood)
    res = (ded == 1, ded == 2)
    return res + ({"approx_steps": approx},) if info else res


def mine_probabilities(view, mines=None, prior=0.5, *, budget=0, info=False, method="auto",
                       likelihood=None):
    """Exact probability that each cell holds a mine, given the view.

    With ``mines`` every layout of exactly that many mines that agrees with the view is
    equally likely. Without it, each cell is a mine independently with probability
    ``prior`` before the clues are seen (0.5 is the reports' convention). Revealed cells
    get 0, known mines 1; deduced cells exactly 0 or 1.

    Arguments and errors as in :func:`deduce`; returns a float64 (H, W) array. With
    ``info=True`` also ``{"approx_steps": k, "log_weight": w}``: w is the log of the total
    weight of the layouts that agree with the view: with ``mines``, of their number;
    without, of their probability under the prior (the chance of seeing these clues);
    NaN when a component was approximated. Differences of ``log_weight`` between two
    views weigh hypotheticals (see :func:`outcome_probabilities`).

    Example
    -------
    >>> import numpy as np, fastsweep
    >>> view = np.array([[1, -1],
    ...                  [-1, -1]], np.int8)
    >>> fastsweep.mine_probabilities(view, mines=1).round(3).tolist()
    [[0.0, 0.333], [0.333, 0.333]]
    """
    check_flag(info, "info")
    prob, _, approx, logw = _analyse(view, mines, prior, budget, True, method, likelihood)
    return (prob, {"approx_steps": approx, "log_weight": logw}) if info else prob


def outcome_probabilities(view, mines=None, prior=0.5, *, budget=0, method="auto",
                          likelihood=None):
    """The distribution of what each cell would show if revealed.

    Returns a float64 (H, W, 10) array: for a hidden cell, entries 0..8 are the
    probabilities that it is safe and shows that clue, entry 9 that it is a mine (each
    row sums to 1); a revealed cell gets zeros, a known mine entry 9 = 1. Exact: each
    entry is a ratio of two analyses' total weights (see ``info["log_weight"]`` of
    :func:`mine_probabilities`), so it takes one analysis per hidden cell and possible
    value (a median of 18-20 ms on Expert positions, 2026-11-23 on a 2-core VM: the
    benchmarks page). Arguments and errors as in
    :func:`mine_probabilities`.

    Example
    -------
    >>> import numpy as np, fastsweep
    >>> view = np.array([[1, -1],
    ...                  [-1, -1]], np.int8)
    >>> out = fastsweep.outcome_probabilities(view, mines=1)
    >>> out[0, 1].round(3).tolist()  # safe and shows 1 (the mine is next to it), or a mine
    [0.0, 0.667, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.333]
    """
    _check_args(prior, budget, method)
    view, mines, likelihood = _from_obs(view, mines, likelihood)
    view = _as_view(view)
    shape = view.shape
    view, soft, _ = _soft(view, likelihood)  # (ratios: the rows' scale cancels)
    S = _state(view, mines)
    n = int(ke.ncells(S))
    out = np.zeros((n, 10), np.float64)
    q = kc.Query(mines is not None, float(prior), int(budget), True, _METHODS[method], soft)
    with _memory(shape, budget):
        status, approx, quality = kw.outcome_table(S, q, out)
    _raise_status(status, mines, approx, stacklevel=2, quality=quality)
    return out.reshape(shape + (10,))

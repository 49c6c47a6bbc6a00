"""Test helpers: an agent's inner kernels on a typed-in view, with named arguments.

A view is int8 H x W: -1 hidden, -2 known mine, 0..8 a clue (consistent, unless a helper
says otherwise). ``mines`` is the mine total told to the agent (< 0: not told);
``order`` the guess order, a permutation of the cells.

Each helper builds, in numpy, the state a game would hold at that position and calls
the compiled kernels the game calls (``lookahead_choice``, ``pseq_choice``,
``fifty_set``, ``linalg.decide``, ``risk_scores``...) with the argument types the game
passes them, so Numba reuses their compiled code (from the game's compile or the disk
cache). These helpers used to be kernels of their own in the production modules
(``run_solver.lookahead_view`` and the like): each one linked its own copy of the whole
inference engine and cost minutes of compile in the test suite.
"""
from collections import namedtuple

import numpy as np

from fastsweep.kernels.agents.reports.brute_step import choose_guess
from fastsweep.kernels.agents.reports.bruteforce import analyse as brute_analyse
from fastsweep.kernels.agents.reports.linalg import decide as linalg_decide
from fastsweep.kernels.agents.reports.subset import decide as subset_decide
from fastsweep.kernels.agents.risk import risk_scores
from fastsweep.kernels.agents.solver.endgame import best_move
from fastsweep.kernels.agents.solver.fifty import fifty_set
from fastsweep.kernels.agents.solver.layouts_enum import solutions
from fastsweep.kernels.agents.solver.lookahead import _candidates, lookahead_choice
from fastsweep.kernels.agents.solver.pseq import criteria, pseq_choice, query
from fastsweep.kernels.agents.solver.pseudo import pseudo_cells
from fastsweep.kernels.engine.env import new_state
from fastsweep.kernels.engine.game import (
    F_CUT, F_LEN, F_PRIOR, P_BLOCKS, P_CORNER, P_ENDGAME_MAX, P_ENDGAME_NODES, P_FAR, P_LEN,
    P_MINE_COUNT, P_OFFEDGE, P_PSEUDO,
)
from fastsweep.kernels.engine.layout import (
    C_KMINES, C_ORDER, C_P, F_AUX, F_PLANE, HIDDEN, K, NB_ST_MASK, NB_ST_SHIFT,
)
from fastsweep.kernels.engine.view import fill_state
from fastsweep.kernels.inference.count import analyse

#: :func:`pseq_view`'s result: PSEQ's choice (cell, deciding criterion 0 P .. 4 the guess
#: order, its value) and the four criteria of every hidden cell (float64 H x W, NaN
#: elsewhere).
PseqView = namedtuple("PseqView", "cell stage value p s e q")

#: :func:`brute_view`'s result: ded (int8 H x W: 1 safe, 2 mine, 0 undecided), share
#: (float64 H x W, NaN where not enumerated) and the guess: cell (-1 when cells are
#: certain), kind (``brute_step.G_*``), its p* or t (NaN for a guess in order).
BruteView = namedtuple("BruteView", "ded share cell kind p")


def state_of(v, *, mines=None, order=None):
    """A new state holding view ``v`` as the agent's knowledge (``engine.view.fill_state``,
    its check left to the caller), told the mine total ``mines`` (None: not touched, i.e.
    not told), with guess order ``order`` (None: not filled)."""
    h, w = v.shape
    n = h * w
    S = new_state(h, w)
    fill_state(v, S)
    if mines is not None:
        S[n, C_KMINES] = mines
    if order is not None:
        F = S.reshape(S.size)  # env.flat: a view of the same ints
        base = S[n, C_ORDER]
        F[base:base + n] = S[np.asarray(order), F_PLANE]
    return S


def solver_inputs(v, *, mines, order):
    """(S, params, fparams) of a solver agent on view ``v``: the state of
    :func:`state_of`, the total used iff told, the prior 0.5, every option 0."""
    S = state_of(v, mines=mines, order=order)
    params = np.zeros(P_LEN, np.int64)
    params[P_MINE_COUNT] = mines >= 0
    fparams = np.zeros(F_LEN, np.float64)
    fparams[F_PRIOR] = 0.5
    return S, params, fparams


def hidden_mask(S, n):
    """bool N: which of the first ``n`` cells are hidden (``env.status`` of each)."""
    words = S.reshape(S.size)[S[:n, F_PLANE]]
    return ((words >> NB_ST_SHIFT) & NB_ST_MASK) == HIDDEN


def mine_probabilities(S, q):
    """(pcell, logw) as a solver agent reads them (``policies.deduce``): each hidden
    cell's mine probability from ``count.analyse`` with query ``q`` (flat, NaN off the
    hidden cells: its box's, or the unconstrained cells' ``pu``) and the log total
    weight."""
    n = S[-1, K - 1]  # env.ncells
    a = analyse(S, q)
    hidden = hidden_mask(S, n)
    box = S[:n, F_AUX][hidden]  # the cell's box, -1 if unconstrained
    pcell = np.full(n, np.nan)
    pcell[hidden] = np.where(box >= 0, a.bprob[np.maximum(box, 0)], a.pu)
    return pcell, a.logw


def lookahead_view(v, *, mines, order, cut, endgame=0, nodes=0, pseudo=False, corner=False,
                   offedge=False, blocks=False, far=False):
    """The look-ahead agent's choice on view ``v`` (nothing certain): (cell, reason, ref,
    a) as its move would carry them. Options as the agent's: ``cut``; ``endgame`` (most
    layouts of the endgame search, 0: no search) and ``nodes`` (its node budget);
    ``pseudo`` (pseudo-50/50s), ``corner`` (corner_opening), ``offedge``
    (offedge_limit), ``blocks`` (fifty_blocks), ``far`` (far_ties): each off unless given
    (the agent's defaults turn several on)."""
    S, params, fparams = solver_inputs(v, mines=mines, order=order)
    params[P_ENDGAME_MAX] = endgame
    params[P_ENDGAME_NODES] = nodes
    params[P_PSEUDO] = pseudo
    params[P_CORNER] = corner
    params[P_OFFEDGE] = offedge
    params[P_BLOCKS] = blocks
    params[P_FAR] = far
    fparams[F_CUT] = cut
    pcell, logw = mine_probabilities(S, query(params, fparams, True))
    return lookahead_choice(S, params, fparams, pcell, logw)


def pseq_view(v, *, mines, order):
    """PSEQ on view ``v`` (nothing certain): a :data:`PseqView`."""
    h, w = v.shape
    n = h * w
    S, params, fparams = solver_inputs(v, mines=mines, order=order)
    q = query(params, fparams, True)
    pcell, _ = mine_probabilities(S, q)
    cells = np.flatnonzero(~np.isnan(pcell))
    sv = np.full(n, np.nan)
    ev = np.full(n, np.nan)
    qv = np.full(n, np.nan)
    criteria(S, q, query(params, fparams, False), pcell, cells, sv, ev, qv)
    c, stage, value = pseq_choice(S, params, fparams, pcell)
    return PseqView(c, stage, value, pcell.reshape(h, w), sv.reshape(h, w),
                    ev.reshape(h, w), qv.reshape(h, w))


def pseudo_view(v, *, mines, order):
    """Pseudo-50/50 cells on view ``v``: the rows (cell, partner, shape size) of
    ``pseudo.pseudo_cells``."""
    S, params, fparams = solver_inputs(v, mines=mines, order=order)
    pcell, _ = mine_probabilities(S, query(params, fparams, True))
    buf = np.empty(K + S[v.size, C_P], np.int32)  # a save_knowledge buffer, as the game's
    return pseudo_cells(S, query(params, fparams, False), pcell, buf)


def fifty_view(v, *, mines, order, blocks):
    """The unavoidable 50/50 on view ``v`` that the look-ahead would guess:
    ``fifty.fifty_set``'s (cells, classes); ``blocks``: sets over more than two cells
    too."""
    S, params, fparams = solver_inputs(v, mines=mines, order=order)
    pcell, _ = mine_probabilities(S, query(params, fparams, True))
    return fifty_set(S, pcell, bool(blocks))


def candidates_view(v, *, mines, order, cut, offedge=False, far=False):
    """The look-ahead's candidates on view ``v`` at ``cut``, with ``offedge``
    (offedge_limit) and ``far`` (far_ties), in its scoring order; and the mine
    probabilities (flat, NaN off the hidden cells) they were chosen by."""
    S, params, fparams = solver_inputs(v, mines=mines, order=order)
    pcell, _ = mine_probabilities(S, query(params, fparams, True))
    return _candidates(S, pcell, float(cut), bool(offedge), bool(far)), pcell


def decide_view(v, *, mines, plus):
    """The linalg reduction on view ``v`` (``plus``: linalg-plus's rows too). Returns
    (ded int8 H x W: 1 safe, 2 mine, 0 undecided; cut short 0/1; largest magnitude in the
    reduced rows)."""
    h, w = v.shape
    S = state_of(v, mines=mines)
    ded = np.zeros(h * w, np.int8)
    _, cut, biggest = linalg_decide(S, bool(plus), ded)
    return ded.reshape(h, w), cut, biggest


def subset_view(v):
    """The subset reduction on view ``v`` (the total not told). Returns ded (int8 H x W:
    1 safe, 2 mine, 0 undecided)."""
    h, w = v.shape
    S = state_of(v)
    ded = np.zeros(h * w, np.int8)
    subset_decide(S, ded)
    return ded.reshape(h, w)


def brute_view(v, *, mines, max_component, order):
    """The bruteforce step on view ``v`` (components up to ``max_component`` cells): a
    :data:`BruteView`."""
    h, w = v.shape
    n = h * w
    S = state_of(v, mines=mines, order=order)
    ded = np.zeros(n, np.int8)
    share = np.full(n, np.nan)
    e = brute_analyse(S, max_component, ded, share)
    cell, kind, p = -1, 0, np.nan
    if e.decided == 0:
        cell, kind, p = choose_guess(S, share, e.enumerated, e.summin, e.u)
    return BruteView(ded.reshape(h, w), share.reshape(h, w), cell, kind, p)


def risk_view(v, *, mines, prior, rules, shortcut=True):
    """``risk.risk_scores`` on view ``v`` (``rules``: ``risk.RULES_*``; ``shortcut``: its
    shortcut for isolated cells). Returns (score, pmine, exact), score and pmine float64
    H x W."""
    h, w = v.shape
    S = state_of(v, mines=mines)
    score = np.empty(h * w, np.float64)
    pmine = np.empty(h * w, np.float64)
    told = mines >= 0
    if shortcut:  # the default omitted, as the game calls it: its compiled code
        exact = risk_scores(S, told, prior, 0, rules, score, pmine)
    else:
        exact = risk_scores(S, told, prior, 0, rules, score, pmine, False)
    return score.reshape(h, w), pmine.reshape(h, w), exact


def endgame_view(v, *, mines, max_solutions, node_budget):
    """``layouts_enum.solutions`` and ``endgame.best_move`` on view ``v`` (any int8 view:
    checked here), told the mine total ``mines``. Returns (row, col, wins, count): count
    -1 (and the rest -1) over ``max_solutions`` layouts; row = col = wins = -1 over
    ``node_budget``.

    >>> import numpy as np
    >>> v = np.array([[-1, 1], [-1, 1]], np.int8)  # one mine on the left: a 50:50
    >>> endgame_view(v, mines=1, max_solutions=100, node_budget=100)
    (0, 0, 1, 2)
    """
    h, w = v.shape
    if ((v < -2) | (v > 8)).any():
        raise ValueError("v: each value must be -2 (known mine), -1 (hidden) or 0..8")
    S = new_state(h, w)
    code, _, known, hidden = fill_state(v, S)
    if code != 0:
        raise ValueError("v: a clue is larger than its neighbours, smaller than its known "
                         "mines or needs more mines than its hidden neighbours")
    if mines < known or mines > known + hidden:
        raise ValueError("mines: must be between the known mines and known + hidden cells")
    S[h * w, C_KMINES] = mines
    count, cells, table = solutions(S, max_solutions)
    if count < 0:
        return -1, -1, -1, -1
    if count == 0:
        raise ValueError("v: no mine layout agrees with the view and mines")
    j, wins, _ = best_move(table, node_budget)
    if j < 0:
        return -1, -1, -1 if count > 1 else 1, int(count)
    return int(cells[j] // w), int(cells[j] % w), int(wins), int(count)

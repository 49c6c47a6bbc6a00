"""The strongest classic solvers (``pseq``, ``lookahead``): game loop and batch entry
points.

Their move is ``policies.deduce`` (complete deduction from every clue and the mine total,
one whole analysis a move, as ``probability`` with the total), and when nothing is
certain their own guess: ``pseq.pseq_guess`` or ``lookahead.lookahead_guess``. An
analysis over the work budget falls back to the lowest (approximate) probability, as
``probability`` does. Entry points as in ``run_basic.py``: :func:`play_batch`,
:func:`play_traced`, :func:`play_blind`; :func:`pseq_view` and :func:`lookahead_view`
are the guesses on a typed-in view (tests).
"""
import numpy as np

from ...inference.count import analyse
from ...engine.env import flat, ncells, new_state, status
from ...engine.game import (
    F_CUT, P_BLOCKS, F_LEN, F_PRIOR, P_AGENT, P_ENDGAME_MAX, P_ENDGAME_NODES, P_LEN,
    P_CORNER, P_FAR, P_MINE_COUNT, P_OFFEDGE, P_PSEUDO,
)
from ...jit import njit
from ..family import make_family, no_workspace
from ...engine.local import guess_in_order
from .lookahead import _candidates, lookahead_choice, lookahead_guess
from ..policies import NEED_GUESS, NEED_ORDER, deduce, guess_lowest
from ...engine.layout import C_KMINES, C_ORDER, C_P, F_AUX, F_PLANE, HIDDEN, K
from .pseq import criteria, pseq_choice, pseq_guess, query
from .pseudo import pseudo_cells
from .fifty import fifty_set
from ...engine.view import fill_state

AGENT_PSEQ = 10  # Tu et al.'s P, S, E, Q filters
AGENT_LOOKAHEAD = 11  # endgame search, 50/50s, two-move look-ahead


@njit(cache=True, inline="always")  # (inlined into the entry point: see policies.make_next_move)
def agent_move(S, trp, params, fparams, ws):
    """Deductions, else the agent's guess (``trp``: see ``run_exact.run_game``)."""
    need, pcell, approx, logw = deduce(S, params, fparams, True)
    if need == NEED_ORDER:
        guess_in_order(flat(S))
    elif need == NEED_GUESS:
        if approx > 0:
            guess_lowest(S, trp, pcell, approx)
        elif params[P_AGENT] == AGENT_PSEQ:
            pseq_guess(S, trp, params, fparams, pcell)
        else:
            lookahead_guess(S, trp, params, fparams, pcell, logw)


FAMILY = make_family("solver", agent_move, no_workspace, "3-6 minutes")
play_batch, play_traced, play_blind = FAMILY.entry_points()


@njit(cache=True)
def _view_state(v, mines, order):
    h, w = v.shape
    n = h * w
    S = new_state(h, w)
    fill_state(v, S)
    S[n, C_KMINES] = mines
    F = flat(S)
    base = S[n, C_ORDER]
    for i in range(n):
        F[base + i] = S[order[i], F_PLANE]
    params = np.zeros(P_LEN, np.int64)
    params[P_MINE_COUNT] = mines >= 0
    fparams = np.zeros(F_LEN, np.float64)
    fparams[F_PRIOR] = 0.5
    return S, params, fparams


@njit(cache=True)
def _view_probs(S, q):
    n = ncells(S)
    res, approx, box, nbox, bprob, pu, uded, logw, _, _ = analyse(S, q)
    pcell = np.full(n, np.nan)
    for c in range(n):
        if status(S, c) == HIDDEN:
            b = S[c, F_AUX]
            pcell[c] = bprob[b] if b >= 0 else pu
    return pcell, logw


@njit(cache=True)
def lookahead_view(v, mines, order, endgame, nodes, cut, pseudo, corner=0, offedge=0,
                   blocks=0, far=0):
    """The look-ahead agent's choice on view ``v`` (as :func:`pseq_view`; nothing
    certain) with options ``endgame``, ``nodes`` (its node budget), ``cut``, ``pseudo``
    (1: pseudo-50/50s), ``corner`` (1: corner_opening), ``offedge`` (1: offedge_limit),
    ``blocks`` (1: fifty_blocks) and ``far`` (1: far_ties).
    Returns (cell, reason, ref, a) as its move would carry them (tests)."""
    S, params, fparams = _view_state(v, mines, order)
    params[P_ENDGAME_MAX] = endgame
    params[P_ENDGAME_NODES] = nodes
    params[P_PSEUDO] = pseudo
    params[P_CORNER] = corner
    params[P_OFFEDGE] = offedge
    params[P_BLOCKS] = blocks
    params[P_FAR] = far
    fparams[F_CUT] = cut
    pcell, logw = _view_probs(S, query(params, fparams, True))
    return lookahead_choice(S, params, fparams, pcell, logw)


@njit(cache=True)
def pseq_view(v, mines, order):
    """PSEQ on view ``v`` (int8 H x W: -1 hidden, -2 known mine, 0..8 a clue; consistent,
    nothing certain), told the mine total ``mines`` (< 0: not told), guess order
    ``order`` (a permutation of the cells). Returns (cell, criterion, value, P, S, E, Q):
    PSEQ's choice and the four criteria of every hidden cell (float64 H x W, NaN
    elsewhere) (tests)."""
    h, w = v.shape
    n = h * w
    S, params, fparams = _view_state(v, mines, order)
    q = query(params, fparams, True)
    pcell, _ = _view_probs(S, q)
    cells = np.flatnonzero(~np.isnan(pcell))
    m = cells.shape[0]
    sv = np.full(n, np.nan)
    ev = np.full(n, np.nan)
    qv = np.full(n, np.nan)
    criteria(S, q, query(params, fparams, False), pcell, cells[:m], sv, ev, qv)
    c, stage, value = pseq_choice(S, params, fparams, pcell)
    return (c, stage, value, pcell.reshape(h, w), sv.reshape(h, w), ev.reshape(h, w),
            qv.reshape(h, w))


@njit(cache=True)
def pseudo_view(v, mines, order):
    """Pseudo-50/50 cells on view ``v`` (as :func:`pseq_view`): the rows (cell, partner,
    shape size) of ``pseudo.pseudo_cells`` (tests)."""
    S, params, fparams = _view_state(v, mines, order)
    pcell, _ = _view_probs(S, query(params, fparams, True))
    buf = np.empty(K + S[ncells(S), C_P], np.int32)
    return pseudo_cells(S, query(params, fparams, False), pcell, buf)


@njit(cache=True)
def fifty_view(v, mines, order, blocks):
    """The unavoidable 50/50 on view ``v`` (as :func:`pseq_view`) that the look-ahead
    would guess: ``fifty.fifty_set``'s (cells, classes), with ``blocks`` (1: sets over
    more than two cells too) (tests)."""
    S, params, fparams = _view_state(v, mines, order)
    pcell, _ = _view_probs(S, query(params, fparams, True))
    return fifty_set(S, pcell, blocks != 0)


@njit(cache=True)
def candidates_view(v, mines, order, cut, limit, far=0):
    """The look-ahead's candidates on view ``v`` (as :func:`pseq_view`) at ``cut``, with
    ``limit`` (1: ``offedge_limit``) and ``far`` (1: ``far_ties``), in its scoring order;
    and the mine probabilities (flat, NaN off the hidden cells) they were chosen by
    (tests)."""
    S, params, fparams = _view_state(v, mines, order)
    pcell, _ = _view_probs(S, query(params, fparams, True))
    return _candidates(S, pcell, cut, limit != 0, far != 0), pcell

"""The exact-inference family (``inference``, ``probability``): game loop and batch
entry points.

The agent's move is ``policies.next_move`` (complete deduction, else a guess) with its
workspace, the incremental analysis's cache, kept across moves and games. Entry points
as in ``run_basic.py``: :func:`play_batch`, :func:`play_traced`, :func:`play_blind`.
"""
import numpy as np

from ..engine.env import flat
from ..engine.game import (
    AGENT, OVER, P_MINE_COUNT, P_RULES, RULES_CLASSIC, blindfold, clock, local_rules,
    new_batch_state, open_game, read_trace, record, settle, setup_game, summarize,
)
from ..jit import njit
from .policies import new_workspace, next_move


@njit(cache=True)
def run_game(S, trp, params, fparams, first, ws):
    """Play a set-up game from its opening cell ``first`` to the end; ``trp`` receives
    the probability of each traced guess (or is empty)."""
    classic = params[P_RULES] == RULES_CLASSIC
    mine_count = params[P_MINE_COUNT] != 0
    local = local_rules(params)
    F = flat(S)
    open_game(S, first)
    while True:
        step = settle(S, F, classic, mine_count, local)
        if step == OVER:
            break
        if step == AGENT:
            next_move(S, trp, params, fparams, ws)


@njit(cache=True)
def play_batch(params, fparams, layout, first_game, out, secs, boards):
    """As ``run_basic.play_batch``."""
    S, scratch = new_batch_state(params, False)
    ws = new_workspace(scratch.shape[0] // 2)
    trp = np.zeros(0, np.float64)
    for i in range(out.shape[0]):
        t0 = clock(secs.shape[0] > 0)
        first = setup_game(S, params, layout, first_game + i, scratch)
        run_game(S, trp, params, fparams, first, ws)
        record(S, out, secs, boards, i, t0)


@njit(cache=True)
def play_traced(params, fparams, layout, game, moves, probs, final, out):
    """As ``run_basic.play_traced``; ``probs[m]`` is the mine probability of guess m."""
    S, scratch = new_batch_state(params, True)
    ws = new_workspace(scratch.shape[0] // 2)
    first = setup_game(S, params, layout, game, scratch)
    run_game(S, probs, params, fparams, first, ws)
    summarize(S, out, 0)
    read_trace(S, moves, final)


@njit(cache=True)
def play_blind(params, fparams, layout, game, moves):
    """As ``run_basic.play_blind``."""
    S, scratch = new_batch_state(params, True)
    ws = new_workspace(scratch.shape[0] // 2)
    first = setup_game(S, params, layout, game, scratch)
    blindfold(S, moves)
    run_game(S, np.zeros(0, np.float64), params, fparams, first, ws)
    return read_trace(S, moves, np.zeros((0, 0), np.int32))

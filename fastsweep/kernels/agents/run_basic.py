"""The basic agent's family: its game loop and batch entry points.

The basic agent's move is the random guess (``local.guess_in_order``); everything else
is the rules' loop step (``game.settle``). Nothing here imports the exact inference
engine, so running the basic agent compiles only the engine and the local rules.
Entry points (the same in every family module): :func:`play_batch`,
:func:`play_traced`, :func:`play_blind`.
"""
import numpy as np

from ..engine.env import flat
from ..engine.game import (
    P_MINE_COUNT, P_RULES, RULES_CLASSIC, blindfold, clock, detonated, game_over,
    new_batch_state, open_game, read_trace, record, setup_game, summarize,
)
from ..jit import njit
from ..engine.local import apply_mine_count, drain_local, guess_in_order


@njit(cache=True)
def run_game(S, params, first):
    """Play a set-up game from its opening cell ``first`` to the end."""
    classic = params[P_RULES] == RULES_CLASSIC
    mine_count = params[P_MINE_COUNT] != 0
    F = flat(S)  # the hot kernels index it (see env._ix)
    open_game(S, first)
    while True:  # game.settle spelled out (see there: no reference counting per move)
        if classic and detonated(S):
            break
        drain_local(F, classic)
        if game_over(S, classic):
            break
        if mine_count and apply_mine_count(S, classic) > 0:  # (the agent's rule)
            continue
        guess_in_order(F)


@njit(cache=True)
def play_batch(params, fparams, layout, first_game, out, secs, boards):
    """Play games first_game .. first_game + len(out) - 1; row i of ``out`` is game
    first_game + i. ``secs``: each game's seconds, or empty; ``boards``: int8 (2, games,
    N) final statuses and mines, or (2, 0, 0)."""
    S, scratch = new_batch_state(params, False)
    for i in range(out.shape[0]):
        t0 = clock(secs.shape[0] > 0)
        run_game(S, params, setup_game(S, params, layout, first_game + i, scratch))
        record(S, out, secs, boards, i, t0)


@njit(cache=True)
def play_traced(params, fparams, layout, game, moves, probs, final, out):
    """Play game ``game`` recording every move into ``moves`` (int32 (N, 6)) and the
    final state, mines and true clues into ``final`` (int32 (3, N)); ``probs`` is the
    probability of each guess (unused here)."""
    S, scratch = new_batch_state(params, True)
    run_game(S, params, setup_game(S, params, layout, game, scratch))
    summarize(S, out, 0)
    read_trace(S, moves, final)


@njit(cache=True)
def play_blind(params, fparams, layout, game, moves):
    """Replay game ``game`` on a zeroed truth plane, answering from ``moves[:, 2]`` (see
    ``game.blindfold``); overwrite ``moves`` with the moves made; return their number."""
    S, scratch = new_batch_state(params, True)
    first = setup_game(S, params, layout, game, scratch)
    blindfold(S, moves)
    run_game(S, params, first)
    return read_trace(S, moves, np.zeros((0, 0), np.int32))

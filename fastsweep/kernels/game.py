"""The game loop and the batch runner: many games of one configuration per compiled call.

A configuration is passed as a small int64 array ``params`` (indices ``P_*``) plus a
float64 array ``fparams`` (``F_*``), so adding a rule or option does not change any
kernel signature. Results come back as an int64 table (columns ``OUT_*``) and per-game
wall-clock seconds.
"""
import time

import numpy as np
from numba import njit, objmode

from .board import choose, game_rng, shuffle
from .env import (
    _ix, act_flat, add_mine_flat, cell_of, flat, hidden_left, is_mine, ncells, new_state,
    reset_state, status, true_clue,
)
from .layout import (
    A_GUESS, C_APPROX, C_DET, C_FLAG, C_GUESS, C_KMINES, C_MINES, C_ORDER, C_P, C_PLANEOF,
    C_REV, C_SAFE_DET, C_SENSOR, C_TRACE, C_WORDS, C_WRONG_FLAG, F_NBR, F_NNB, F_PLANE,
    F_TA, F_TCELL, F_TKIND, F_TOUT, F_TREF, F_TWHY, R_FIRST, SENSOR_TAPE,
)

from .env import moves as moves_made
from .local import apply_mine_count, drain_local
from .policies import AGENT_BASIC, guess_in_order, new_workspace, next_move

RULES_KEEP_GOING = 0
RULES_CLASSIC = 1
FIRST_ANY = 0
FIRST_SAFE = 1
FIRST_ZERO = 2

P_RULES = 0
P_FIRST_CLICK = 1
P_FIRST_CELL = 2  # -1: random (first cell of the guess order)
P_MINES = 3
P_AGENT = 4
P_MINE_COUNT = 5
P_BUDGET = 6  # work budget of exact analyses (agent-specific meaning)
P_LEN = 7

F_PRIOR = 0
F_LEN = 1

OUT_FLAGGED = 0
OUT_DETONATED = 1
OUT_REVEALED = 2
OUT_GUESSES = 3
OUT_MOVES = 4
OUT_WON = 5
OUT_WRONG_FLAGS = 6
OUT_SAFE_DETONATIONS = 7
OUT_APPROX = 8
OUT_MINES = 9
OUT_LEN = 10


@njit(cache=True)
def _first_cell(S, params, layout):
    """The opening cell: fixed, or the first cell of the guess order (that the
    first-click rule allows, when the layout is given and cannot be re-drawn)."""
    fc = params[P_FIRST_CELL]
    if fc >= 0:
        return fc
    rule = params[P_FIRST_CLICK]
    F = flat(S)
    n = ncells(S)
    order = S[n, C_ORDER]
    if layout.shape[0] == 0 or rule == FIRST_ANY:
        return cell_of(F, F[order])
    for i in range(n):
        c = cell_of(F, F[order + i])
        if layout[c] == 1:
            continue
        if rule == FIRST_ZERO:
            ok = True
            for k in range(S[c, F_NNB]):
                if layout[S[c, F_NBR + k]] == 1:
                    ok = False
            if not ok:
                continue
        return c
    return -1  # the wrapper has checked that some cell qualifies


@njit(cache=True)
def setup_game(S, params, layout, seed, game, excluded, pool):
    """Draw the guess order and the mines of game ``game``; return the opening cell.

    Two independent streams (order, mines) so that a game's guess order does not depend
    on the rules or the mine count: agents and configurations share their luck. Both
    draws permute the cells' word indices (``pool`` starts with cell i's at position i),
    so the guess order and the mines come out as word indices with no lookup.
    """
    n = ncells(S)
    F = flat(S)
    planeof = np.uint64(S[n, C_PLANEOF])
    order = np.uint64(S[n, C_ORDER])
    # (unsigned indices in these copies: without a negative-index fix-up they vectorize,
    # about 10x faster)
    for i in range(np.uint64(n)):
        F[order + i] = F[planeof + i]
    shuffle(game_rng(seed, game, 0), F, order, n)
    first = _first_cell(S, params, layout)
    reset_state(S)  # also clears mines and clues
    if layout.shape[0] > 0:
        m = 0
        for i in range(n):
            if layout[i] == 1:
                pool[m] = F[planeof + np.uint64(i)]
                m += 1
    else:
        m = params[P_MINES]
        rule = params[P_FIRST_CLICK]
        if rule == FIRST_ANY:
            for i in range(np.uint64(n)):
                pool[i] = F[planeof + i]
            k = n
        else:
            excluded[first] = 1
            if rule == FIRST_ZERO:
                for j in range(S[first, F_NNB]):
                    excluded[S[first, F_NBR + j]] = 1
            k = 0
            for i in range(n):
                if excluded[i] == 0:
                    pool[k] = F[planeof + np.uint64(i)]
                    k += 1
                excluded[i] = 0
        choose(game_rng(seed, game, 1), pool, k, m)
    cnt = _ix(n, 0)
    for j in range(m):  # clues by scattering from the mines: M*8 adds, not N*8 loads
        add_mine_flat(F, np.uint64(pool[j]), cnt)
    S[n, C_MINES] = m
    if params[P_MINE_COUNT] != 0:
        S[n, C_KMINES] = m  # the agent is told the total
    return first


@njit(cache=True)
def play_game(S, trp, params, fparams, layout, seed, game, excluded, pool, ws):
    """Play one whole game; the final state stays in ``S``."""
    first = setup_game(S, params, layout, seed, game, excluded, pool)
    run_game(S, trp, params, fparams, first, ws)


@njit(cache=True)
def run_game(S, trp, params, fparams, first, ws):
    """Play a set-up game from its opening cell ``first`` to the end."""
    n = ncells(S)
    classic = params[P_RULES] == RULES_CLASSIC
    agent = params[P_AGENT]
    mine_count = params[P_MINE_COUNT] != 0
    F = flat(S)  # the hot kernels index it (see env._ix)
    act_flat(F, S[first, F_PLANE], A_GUESS, R_FIRST, -1, n)
    while True:
        if classic and S[n, C_DET] > 0:
            break
        drain_local(F, classic)
        if classic and S[n, C_DET] > 0:
            break
        if hidden_left(S) == 0:
            break
        if classic and S[n, C_REV] == n - S[n, C_MINES]:
            break  # won: every safe cell revealed
        if mine_count and apply_mine_count(S, classic) > 0:  # (the agent's rule)
            continue
        if agent == AGENT_BASIC:  # its whole move, here: a call with four arrays costs
            guess_in_order(F)     # more than the move itself (reference counting)
        else:
            next_move(S, F, trp, agent, mine_count, fparams[F_PRIOR], params[P_BUDGET], ws,
                      classic)


@njit(cache=True)
def summarize(S, out, i):
    n = ncells(S)
    out[i, OUT_FLAGGED] = S[n, C_FLAG]
    out[i, OUT_DETONATED] = S[n, C_DET]
    out[i, OUT_REVEALED] = S[n, C_REV]
    out[i, OUT_GUESSES] = S[n, C_GUESS]
    out[i, OUT_MOVES] = moves_made(S)
    out[i, OUT_WON] = 1 if S[n, C_DET] == 0 else 0
    out[i, OUT_WRONG_FLAGS] = S[n, C_WRONG_FLAG]
    out[i, OUT_SAFE_DETONATIONS] = S[n, C_SAFE_DET]
    out[i, OUT_APPROX] = S[n, C_APPROX]
    out[i, OUT_MINES] = S[n, C_MINES]


@njit(cache=True)
def _clock():
    with objmode(t="float64"):
        t = time.perf_counter()
    return t


@njit(cache=True)
def play_batch(h, w, params, fparams, layout, seed, first_game, games, out, secs,
               final_st, final_mine):
    """Play games first_game .. first_game+games-1; row i of ``out`` is game first_game+i.

    ``secs`` receives each game's wall-clock seconds, or is empty to skip timing.
    ``final_st`` / ``final_mine`` are (games, N) arrays to keep each final board, or
    (0, 0) arrays to skip that (tests use them to check invariants).
    """
    S = new_state(h, w)
    n = h * w
    trp = np.zeros(0, np.float64)
    excluded = np.zeros(n, np.uint8)
    pool = np.zeros(n, np.int32)
    ws = new_workspace(n)
    keep = final_st.shape[0] > 0
    timed = secs.shape[0] > 0  # the clock is a call into Python (~1 us): skippable
    t0 = 0.0
    for i in range(games):
        if timed:
            t0 = _clock()
        play_game(S, trp, params, fparams, layout, seed, first_game + i, excluded, pool, ws)
        if timed:
            secs[i] = _clock() - t0
        summarize(S, out, i)
        if keep:
            for c in range(n):
                final_st[i, c] = status(S, c)
                final_mine[i, c] = is_mine(S, c)


@njit(cache=True)
def play_traced(h, w, params, fparams, layout, seed, game, moves, probs, final, out):
    """Play one game recording every move.

    ``moves`` int32 (N, 6): kind, cell, outcome, reason, ref, a of each move (rows beyond
    the move count untouched); ``probs`` float64 (N): probability of probability guesses;
    ``final`` int32 (3, N): final state, mines and true clues.
    """
    S = new_state(h, w)
    n = h * w
    S[n, C_TRACE] = 1
    excluded = np.zeros(n, np.uint8)
    pool = np.zeros(n, np.int32)
    ws = new_workspace(n)
    play_game(S, probs, params, fparams, layout, seed, game, excluded, pool, ws)
    summarize(S, out, 0)
    for m in range(moves_made(S)):
        moves[m, 0] = S[m, F_TKIND]
        moves[m, 1] = S[m, F_TCELL]
        moves[m, 2] = S[m, F_TOUT]
        moves[m, 3] = S[m, F_TWHY]
        moves[m, 4] = S[m, F_TREF]
        moves[m, 5] = S[m, F_TA]
    for c in range(n):
        final[0, c] = status(S, c)
        final[1, c] = is_mine(S, c)
        final[2, c] = true_clue(S, c)


@njit(cache=True)
def play_blind(h, w, params, fparams, layout, seed, game, moves):
    """Replay game ``game`` with the truth plane zeroed: the environment answers every
    query from ``moves[:, 2]`` (the outcomes of a traced play of the same game, see
    :func:`play_traced`) instead of the board. Overwrites ``moves`` with the moves the
    agent makes. If the agent reads only what it observed, they are the same moves."""
    S = new_state(h, w)
    n = h * w
    S[n, C_TRACE] = 1
    ws = new_workspace(n)
    first = setup_game(S, params, layout, seed, game, np.zeros(n, np.uint8),
                       np.zeros(n, np.int32))
    F = flat(S)
    truth0 = np.uint64(S[n, C_WORDS]) + np.uint64(S[n, C_P])
    for j in range(np.uint64(S[n, C_P])):
        F[truth0 + j] = 0  # no board behind the game any more
    for m in range(n):
        S[m, F_TOUT] = moves[m, 2]
    S[n, C_SENSOR] = SENSOR_TAPE
    run_game(S, np.zeros(0, np.float64), params, fparams, first, ws)
    for m in range(moves_made(S)):
        moves[m, 0] = S[m, F_TKIND]
        moves[m, 1] = S[m, F_TCELL]
        moves[m, 2] = S[m, F_TOUT]
        moves[m, 3] = S[m, F_TWHY]
        moves[m, 4] = S[m, F_TREF]
        moves[m, 5] = S[m, F_TA]
    return moves_made(S)


@njit(cache=True)
def draw_game(h, w, params, layout, seed, game, order, mine):
    """Fill ``order`` and ``mine`` (length N) with game ``game``'s guess order and mines;
    return the opening cell. Used by the tests' reference replay."""
    S = new_state(h, w)
    n = h * w
    first = setup_game(S, params, layout, seed, game, np.zeros(n, np.uint8), np.zeros(n, np.int32))
    F = flat(S)
    o = S[n, C_ORDER]
    for i in range(n):
        order[i] = cell_of(F, F[o + i])
        mine[i] = is_mine(S, i)
    return first

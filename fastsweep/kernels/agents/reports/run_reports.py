"""The reports' agents (``linalg``, ``linalg-plus``, ``bruteforce``,
``linalg-bruteforce``, ``subset``): game loop and batch entry points.

The linalg agents' move is ``linalg.linalg_move`` (the reduced row echelon form of the
clues' equations, and the mine total's when told), else a random guess in the guess
order. ``bruteforce`` moves by ``bruteforce.brute_move`` (every consistent layout of each
frontier component up to ``max_component`` cells: cells of share 0 / 1 decided, else the
lowest share or an off-frontier cell); ``linalg-bruteforce`` tries ``linalg_move`` first
and the brute-force step when it decides nothing. ``subset`` moves by
``subset.subset_move`` (the subset reduction of the clues' equations), else a random
guess. Everything else is the rules' loop step (``game.settle``), as in ``run_exact.py``.
Entry points as in ``run_basic.py``: :func:`play_batch`, :func:`play_traced`,
:func:`play_blind`; :func:`decide_view`, :func:`brute_view` and :func:`subset_view` are
the reductions on a typed-in view (tests).
"""
import numpy as np

from ...engine.env import flat, new_state
from .bruteforce import analyse, brute_move, choose_guess
from ...engine.game import (
    AGENT, OVER, P_AGENT, P_MAX_COMPONENT, P_MINE_COUNT, P_RULES, RULES_CLASSIC, blindfold,
    clock, new_batch_state, open_game, read_trace, record, settle, setup_game, summarize,
)
from ...jit import njit
from ...engine.layout import C_KMINES, C_ORDER, F_PLANE
from .linalg import decide, linalg_move
from ...engine.local import guess_in_order
from .subset import decide as subset_decide
from .subset import subset_move
from ...engine.view import fill_state

AGENT_LINALG = 3  # RREF, single-variable rows
AGENT_LINALG_PLUS = 4  # RREF, also rows whose right-hand side is a signed coefficient sum
AGENT_BRUTEFORCE = 5  # every layout of each small frontier component
AGENT_LINALG_BRUTEFORCE = 6  # linalg's reduction, else the bruteforce step
AGENT_SUBSET = 7  # subset reduction of the clues' equations (Patel et al. 2020)


@njit(cache=True)
def agent_move(S, trp, params):
    """The agent's move once the rules are exhausted: its decisions, else a guess.
    ``trp`` (float64, N or empty) receives the mine probability of a traced guess that
    has one."""
    classic = params[P_RULES] == RULES_CLASSIC
    agent = params[P_AGENT]
    if agent == AGENT_BRUTEFORCE or agent == AGENT_LINALG_BRUTEFORCE:
        if agent == AGENT_LINALG_BRUTEFORCE and linalg_move(S, False, classic) != 0:
            return
        brute_move(S, trp, params[P_MAX_COMPONENT], classic)
        return
    if agent == AGENT_SUBSET:
        acted = subset_move(S, classic)
    else:
        acted = linalg_move(S, agent == AGENT_LINALG_PLUS, classic)
    if acted == 0:
        guess_in_order(flat(S))


@njit(cache=True)
def run_game(S, trp, params, first):
    """Play a set-up game from its opening cell ``first`` to the end."""
    classic = params[P_RULES] == RULES_CLASSIC
    mine_count = params[P_MINE_COUNT] != 0
    F = flat(S)
    open_game(S, first)
    while True:
        step = settle(S, F, classic, mine_count)
        if step == OVER:
            break
        if step == AGENT:
            agent_move(S, trp, params)


@njit(cache=True)
def play_batch(params, fparams, layout, first_game, out, secs, boards):
    """As ``run_basic.play_batch``."""
    S, scratch = new_batch_state(params, False)
    trp = np.zeros(0, np.float64)
    for i in range(out.shape[0]):
        t0 = clock(secs.shape[0] > 0)
        run_game(S, trp, params, setup_game(S, params, layout, first_game + i, scratch))
        record(S, out, secs, boards, i, t0)


@njit(cache=True)
def play_traced(params, fparams, layout, game, moves, probs, final, out):
    """As ``run_basic.play_traced``; ``probs[m]`` is the mine probability of guess m
    (agents that guess by one)."""
    S, scratch = new_batch_state(params, True)
    run_game(S, probs, params, setup_game(S, params, layout, game, scratch))
    summarize(S, out, 0)
    read_trace(S, moves, final)


@njit(cache=True)
def play_blind(params, fparams, layout, game, moves):
    """As ``run_basic.play_blind``."""
    S, scratch = new_batch_state(params, True)
    first = setup_game(S, params, layout, game, scratch)
    blindfold(S, moves)
    run_game(S, np.zeros(0, np.float64), params, first)
    return read_trace(S, moves, np.zeros((0, 0), np.int32))


@njit(cache=True)
def decide_view(v, mines, plus):
    """The reduction on view ``v`` (int8 H x W: -1 hidden, -2 known mine, 0..8 a clue;
    consistent), told the mine total ``mines`` (< 0: not told). Returns (ded int8 H x W:
    1 safe, 2 mine, 0 undecided; cut short 0/1; largest magnitude in the reduced rows)."""
    h, w = v.shape
    S = new_state(h, w)
    fill_state(v, S)
    S[h * w, C_KMINES] = mines
    ded = np.zeros(h * w, np.int8)
    _, cut, biggest = decide(S, plus, ded)
    return ded.reshape(h, w), cut, biggest


@njit(cache=True)
def subset_view(v):
    """The subset reduction on view ``v`` (int8 H x W: -1 hidden, -2 known mine, 0..8 a
    clue; consistent). Returns ded (int8 H x W: 1 safe, 2 mine, 0 undecided)."""
    h, w = v.shape
    S = new_state(h, w)
    fill_state(v, S)
    ded = np.zeros(h * w, np.int8)
    subset_decide(S, ded)
    return ded.reshape(h, w)


@njit(cache=True)
def brute_view(v, mines, max_component, order):
    """The bruteforce step on view ``v`` (as :func:`decide_view`), told the mine total
    ``mines`` (< 0: not told), with guess order ``order`` (a permutation of the cells).
    Returns (ded int8 H x W: 1 safe, 2 mine, 0 undecided; share float64 H x W, NaN where
    not enumerated; the guess: cell (-1 when cells are certain), kind (``bruteforce.G_*``),
    its p* or t (NaN for a guess in order))."""
    h, w = v.shape
    n = h * w
    S = new_state(h, w)
    fill_state(v, S)
    S[n, C_KMINES] = mines
    F = flat(S)
    base = S[n, C_ORDER]
    for i in range(n):
        F[base + i] = S[order[i], F_PLANE]
    ded = np.zeros(n, np.int8)
    share = np.full(n, np.nan)
    enumerated, _, decided, summin, u = analyse(S, max_component, ded, share)
    cell, kind, p = -1, 0, np.nan
    if decided == 0:
        cell, kind, p = choose_guess(S, share, enumerated, summin, u)
    return ded.reshape(h, w), share.reshape(h, w), cell, kind, p

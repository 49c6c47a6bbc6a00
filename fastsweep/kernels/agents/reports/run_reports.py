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
from ...engine.game import P_AGENT, P_MAX_COMPONENT, P_RULES, RULES_CLASSIC
from ...jit import njit
from ..family import make_family, no_workspace
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


@njit(cache=True, inline="always")  # (inlined into the entry point: see policies.make_next_move)
def agent_move(S, trp, params, fparams, ws):
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


FAMILY = make_family("reports", agent_move, no_workspace, "1-2 minutes")
play_batch, play_traced, play_blind = FAMILY.entry_points()


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

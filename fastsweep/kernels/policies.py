"""Each agent's choice of the next move once the single-clue rules are exhausted.

The game loop calls :func:`next_move` whenever the work list of the local rules is
empty and the game is not over. Agents are small integers (see ``fastsweep.agents``):
a new agent is one branch here plus one registry line.
"""
import numpy as np
from numba import njit

from .env import A_GUESS, C_GPTR, F_ORDER, F_ST, HIDDEN, R_RANDOM, act, hidden_left

AGENT_BASIC = 0


@njit(cache=True)
def new_workspace(n):
    """Scratch an agent keeps across moves and games (allocated once per batch)."""
    return np.zeros(n, np.float64)


@njit(cache=True)
def next_in_order(S):
    """First cell of the guess order that is still hidden (the uniform random choice)."""
    n = S.shape[0] - 1
    i = S[n, C_GPTR]
    while S[S[i, F_ORDER], F_ST] != HIDDEN:
        i += 1
    S[n, C_GPTR] = i  # cells never become hidden again, so the pointer only moves on
    return S[i, F_ORDER]


@njit(cache=True)
def next_move(S, trp, agent, mine_count, prior, budget, ws, stop_on_detonation):
    """Make progress once the local rules are exhausted: apply deductions, or guess once.

    ``trp`` (float64, N or empty) receives the mine probability of a traced guess.
    """
    act(S, next_in_order(S), A_GUESS, R_RANDOM, -1, hidden_left(S))

"""The assignment's basic agent as a user's Numba agent, twice: it plays exactly the games
of the built-in ``basic`` (same seed, same results).

``agent``: the policy is the basic agent's own decision, a guess (the next hidden cell
of the guess order); ``rules=True`` has the engine play the single-clue and mine-count
rules before each call, as it does for the built-in agents, so the policy is called
about 30 times a 30x30 game (its guesses) and the agent runs at the built-in's speed.

``agent_by_hand``: the same agent with the rules written in the policy. Its memory: a
stack of clue cells to look at (pushed when they or a neighbour change), then the guess
order's pointer. It is called for every move (~900 on 30x30), each call a few tenths of
a microsecond: about 10x the built-in's time (``scripts/bench/own_agents.py``).

Run (after the Quick start): .venv/bin/python examples/basic_numba.py
"""
import numpy as np
from numba import njit

import fastsweep
from fastsweep.user.numba_player import I_H, I_LAST, I_MINES, I_W

TOP, PTR, STACK = 0, 1, 2  # memory: stack length, guess pointer, the stack, on-stack marks


@njit
def _push(v, memory, n, c):
    if v[c] >= 0 and memory[STACK + n + c] == 0:  # a clue, not on the stack
        memory[STACK + n + c] = 1
        memory[STACK + memory[TOP]] = c
        memory[TOP] += 1


@njit
def my_basic(view, info, order, memory):
    """The next hidden cell of the guess order (the engine played the rules first)."""
    v = view.ravel()
    while v[order[memory[0]]] != -1:  # memory[0]: the guess order's pointer
        memory[0] += 1
    return fastsweep.reveal(order[memory[0]])


agent = fastsweep.NumbaAgent(my_basic, memory=0, rules=True)


@njit
def my_basic_by_hand(view, info, order, memory):
    h, w = info[I_H], info[I_W]
    n = h * w
    v = view.ravel()
    last = info[I_LAST]
    r0, c0 = last // w, last % w
    for r in range(max(r0 - 1, 0), min(r0 + 2, h)):  # clues the last move may have fired
        for c in range(max(c0 - 1, 0), min(c0 + 2, w)):
            _push(v, memory, n, r * w + c)
    while memory[TOP] > 0:
        x = memory[STACK + memory[TOP] - 1]
        r0, c0 = x // w, x % w
        hidden, known, first = 0, 0, -1
        for r in range(max(r0 - 1, 0), min(r0 + 2, h)):
            for c in range(max(c0 - 1, 0), min(c0 + 2, w)):
                y = v[r * w + c]
                if y == -1:
                    hidden += 1
                    if first < 0:
                        first = r * w + c
                elif y == -2 or y == -3:
                    known += 1
        if hidden > 0 and v[x] - known == hidden:
            return fastsweep.flag(first)  # every hidden neighbour is a mine
        if hidden > 0 and v[x] == known:
            return fastsweep.safe(first)  # every hidden neighbour is safe
        memory[TOP] -= 1  # nothing (more) to do here: off the stack for good
        memory[STACK + n + x] = 0
    while v[order[memory[PTR]]] != -1:  # the next hidden cell of the guess order
        memory[PTR] += 1
    cell = order[memory[PTR]]
    if info[I_MINES] >= 0:  # told the total: the mine-count rules
        left = info[I_MINES] - np.sum((v == -2) | (v == -3))
        if left == 0:
            return fastsweep.safe(cell)
        if left == np.sum(v == -1):
            return fastsweep.flag(cell)
    return fastsweep.reveal(cell)


agent_by_hand = fastsweep.NumbaAgent(my_basic_by_hand, memory=2)

if __name__ == "__main__":
    built_in = fastsweep.run("basic", 30, density=0.2, games=1000, seed=1)
    cols = ["flagged", "detonated", "revealed", "guesses", "moves", "won", "score"]
    for own in (agent, agent_by_hand):
        mine = fastsweep.run(own, 30, density=0.2, games=1000, seed=1)
        print(f"{own.name}: the same games as the built-in basic:",
              mine[cols].equals(built_in[cols]))
    print(f"mean score {built_in.score.mean():.3f}")

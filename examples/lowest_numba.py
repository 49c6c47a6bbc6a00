"""A user's Numba agent built on fastsweep's exact inference: the single-clue and mine-count
rules (played by the engine: ``rules=True``, as in examples/basic_numba.py), then every
cell complete deduction finds, else the lowest exact mine probability, ties broken its
own way (the cell with the fewest hidden neighbours: corners and edges first, then the
guess order).

One analysis gives every certain cell at once; the agent keeps them in its memory and
plays them one a move, analysing again only when they and the rules are used up. Its
analyses read the knowledge the engine keeps room for (``knowledge=True``): built once a
game and added to cell by cell, as the built-in agents' is.
Run (after the Quick start): .venv/bin/python examples/lowest_numba.py
"""
import numpy as np
from numba import njit

import fastsweep
from fastsweep.user.blocks import analyse_knowledge, knowledge
from fastsweep.user.numba_player import I_H, I_MINES, I_W

# memory: [0] moves queued, then the queue (N)
TODO, BASE = 0, 1


@njit
def lowest_corner_first(view, info, order, memory):
    h, w = info[I_H], info[I_W]
    n = h * w
    flat = view.ravel()
    while memory[TODO] > 0:  # certain moves from the last analysis, still to play
        move = memory[BASE + memory[TODO] - 1]
        memory[TODO] -= 1
        if flat[move % (1 << 32)] == -1:
            return move
    prob = np.empty(n)
    ded = np.zeros(n, np.int8)
    # the knowledge kept across the game's moves (knowledge=True below): each call adds
    # only the cells that changed, where analyse_view would rebuild it from the view
    analyse_knowledge(knowledge(view, info, memory), info[I_MINES], 0.5, True, prob, ded)
    for c in range(n):
        if flat[c] == -1 and ded[c] != 0:
            memory[BASE + memory[TODO]] = fastsweep.safe(c) if ded[c] == 1 else fastsweep.flag(c)
            memory[TODO] += 1
    if memory[TODO] > 0:
        memory[TODO] -= 1
        return memory[BASE + memory[TODO]]
    best, best_p, best_h = -1, 2.0, 9
    for c in order:  # the guess order settles what the tie-break leaves
        if flat[c] != -1 or prob[c] > best_p + 1e-12:
            continue
        hid = 0  # (counted only for a cell that may win: the lowest or a tie)
        for r in range(max(c // w - 1, 0), min(c // w + 2, h)):
            for cc in range(max(c % w - 1, 0), min(c % w + 2, w)):
                hid += view[r, cc] == -1
        if prob[c] < best_p - 1e-12 or hid < best_h:
            best, best_p, best_h = c, prob[c], hid
    return fastsweep.reveal(best)


agent = fastsweep.NumbaAgent(lowest_corner_first, memory=1, rules=True, knowledge=True)

if __name__ == "__main__":
    kw = dict(mines=99, games=300, seed=1, rules="classic", mine_count=True)
    mine = fastsweep.run(agent, (16, 30), **kw)
    ref = fastsweep.run("probability", (16, 30), **kw)
    print(f"Expert classic, 300 games: win rate {mine.won.mean():.3f} (probability: "
          f"{ref.won.mean():.3f})")

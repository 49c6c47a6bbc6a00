"""A user's Numba agent built on fastsweep's exact inference: every cell it can deduce,
else the lowest exact mine probability, ties broken its own way (the cell with the
fewest hidden neighbours: corners and edges first, then the guess order).

One analysis gives every certain cell at once; the agent keeps them in its memory and
plays them one a move, analysing again only when they are used up.
Run: python3 examples/lowest_numba.py
"""
import numpy as np
from numba import njit

import fastsweep
from fastsweep.user.blocks import analyse_view
from fastsweep.user.numba_player import I_H, I_MINES, I_W

TODO = 0  # memory[0]: moves queued; memory[1:]: the queue (move codes)


@njit
def lowest_corner_first(view, info, order, memory):
    h, w = info[I_H], info[I_W]
    n = h * w
    flat = view.ravel()
    while memory[TODO] > 0:  # certain moves from the last analysis, still to play
        move = memory[memory[TODO]]
        memory[TODO] -= 1
        if flat[move % (1 << 32)] == -1:
            return move
    prob = np.empty(n)
    ded = np.zeros(n, np.int8)
    analyse_view(view, info[I_MINES], 0.5, True, prob, ded)
    for c in range(n):
        if flat[c] == -1 and ded[c] != 0:
            memory[TODO] += 1
            memory[memory[TODO]] = fastsweep.safe(c) if ded[c] == 1 else fastsweep.flag(c)
    if memory[TODO] > 0:
        memory[TODO] -= 1
        return memory[memory[TODO] + 1]
    best, best_p, best_h = -1, 2.0, 9
    for c in order:  # the guess order settles what the tie-break leaves
        if flat[c] != -1:
            continue
        r0, c0 = c // w, c % w
        hid = 0
        for r in range(max(r0 - 1, 0), min(r0 + 2, h)):
            for cc in range(max(c0 - 1, 0), min(c0 + 2, w)):
                hid += view[r, cc] == -1
        if prob[c] < best_p - 1e-12 or (prob[c] <= best_p + 1e-12 and hid < best_h):
            best, best_p, best_h = c, prob[c], hid
    return fastsweep.reveal(best)


agent = fastsweep.NumbaAgent(lowest_corner_first, memory=1)

if __name__ == "__main__":
    kw = dict(mines=99, games=300, seed=1, rules="classic", mine_count=True)
    mine = fastsweep.run(agent, (16, 30), **kw)
    ref = fastsweep.run("probability", (16, 30), **kw)
    print(f"Expert classic, 300 games: win rate {mine.won.mean():.3f} (probability: "
          f"{ref.won.mean():.3f})")

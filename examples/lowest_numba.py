"""A user's Numba agent built on fastsweep's exact inference: the single-clue rules (kept
incrementally, as in examples/basic_numba.py), then every cell complete deduction finds,
else the lowest exact mine probability, ties broken its own way (the cell with the fewest
hidden neighbours: corners and edges first, then the guess order).

One analysis gives every certain cell at once; the agent keeps them in its memory and
plays them one a move, analysing again only when they and the rules are used up.
Run (after the Quick start): .venv/bin/python examples/lowest_numba.py
"""
import numpy as np
from numba import njit

import fastsweep
from fastsweep.user.blocks import analyse_view
from fastsweep.user.numba_player import I_H, I_LAST, I_MINES, I_W

# memory: [0] moves queued, [1] stack length, then the queue (N), the stack (N) and the
# stack marks (N)
TODO, TOP, BASE = 0, 1, 2


@njit
def _rule_move(view, info, memory):
    """A single-clue rule's move, or -1 (the clues the last move touched are pushed)."""
    h, w = info[I_H], info[I_W]
    n = h * w
    v = view.ravel()
    stack, mark = BASE + n, BASE + 2 * n
    r0, c0 = info[I_LAST] // w, info[I_LAST] % w
    for r in range(max(r0 - 1, 0), min(r0 + 2, h)):
        for c in range(max(c0 - 1, 0), min(c0 + 2, w)):
            x = r * w + c
            if v[x] >= 0 and memory[mark + x] == 0:
                memory[mark + x] = 1
                memory[stack + memory[TOP]] = x
                memory[TOP] += 1
    while memory[TOP] > 0:
        x = memory[stack + memory[TOP] - 1]
        hidden, known, first = 0, 0, -1
        for r in range(max(x // w - 1, 0), min(x // w + 2, h)):
            for c in range(max(x % w - 1, 0), min(x % w + 2, w)):
                y = v[r * w + c]
                if y == -1:
                    hidden += 1
                    first = r * w + c if first < 0 else first
                elif y == -2 or y == -3:
                    known += 1
        if hidden > 0 and v[x] - known == hidden:
            return fastsweep.flag(first)
        if hidden > 0 and v[x] == known:
            return fastsweep.safe(first)
        memory[TOP] -= 1
        memory[mark + x] = 0
    return -1


@njit
def lowest_corner_first(view, info, order, memory):
    h, w = info[I_H], info[I_W]
    n = h * w
    flat = view.ravel()
    move = _rule_move(view, info, memory)
    if move >= 0:
        return move
    while memory[TODO] > 0:  # certain moves from the last analysis, still to play
        move = memory[BASE + memory[TODO] - 1]
        memory[TODO] -= 1
        if flat[move % (1 << 32)] == -1:
            return move
    prob = np.empty(n)
    ded = np.zeros(n, np.int8)
    analyse_view(view, info[I_MINES], 0.5, True, prob, ded)
    for c in range(n):
        if flat[c] == -1 and ded[c] != 0:
            memory[BASE + memory[TODO]] = fastsweep.safe(c) if ded[c] == 1 else fastsweep.flag(c)
            memory[TODO] += 1
    if memory[TODO] > 0:
        memory[TODO] -= 1
        return memory[BASE + memory[TODO]]
    best, best_p, best_h = -1, 2.0, 9
    for c in order:  # the guess order settles what the tie-break leaves
        if flat[c] != -1:
            continue
        hid = 0
        for r in range(max(c // w - 1, 0), min(c // w + 2, h)):
            for cc in range(max(c % w - 1, 0), min(c % w + 2, w)):
                hid += view[r, cc] == -1
        if prob[c] < best_p - 1e-12 or (prob[c] <= best_p + 1e-12 and hid < best_h):
            best, best_p, best_h = c, prob[c], hid
    return fastsweep.reveal(best)


agent = fastsweep.NumbaAgent(lowest_corner_first, memory=3)

if __name__ == "__main__":
    kw = dict(mines=99, games=300, seed=1, rules="classic", mine_count=True)
    mine = fastsweep.run(agent, (16, 30), **kw)
    ref = fastsweep.run("probability", (16, 30), **kw)
    print(f"Expert classic, 300 games: win rate {mine.won.mean():.3f} (probability: "
          f"{ref.won.mean():.3f})")

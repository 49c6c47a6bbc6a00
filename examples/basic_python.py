"""The assignment's basic agent in pure Python: the single-clue rules (and, when told the
total, the mine-count rules), else the next hidden cell of the guess order. It plays
the built-in ``basic``'s games under exact sensors.

Run (after the Quick start): .venv/bin/python examples/basic_python.py
"""
import fastsweep


class Basic:
    """Single-clue rules, else a random guess (the game's guess order)."""

    def act(self, obs):
        v = obs.view
        h, w = v.shape
        hidden_cell = next(divmod(int(c), w) for c in obs.order if v.flat[c] == -1)
        for r in range(h):
            for c in range(w):
                if v[r, c] < 0:  # not a clue
                    continue
                around = v[max(r - 1, 0):r + 2, max(c - 1, 0):c + 2]
                hidden = [(max(r - 1, 0) + i, max(c - 1, 0) + j)
                          for i, j in zip(*(around == -1).nonzero())]
                known = int(((around == -2) | (around == -3)).sum())
                if hidden and v[r, c] - known == len(hidden):
                    return fastsweep.Flag(*hidden[0])  # all its hidden neighbours are mines
                if hidden and v[r, c] == known:
                    return fastsweep.Safe(*hidden[0])  # all its mines are known
        if obs.mines is not None:  # told the total: the mine-count rules
            left = obs.mines - int(((v == -2) | (v == -3)).sum())
            if left == 0:
                return fastsweep.Safe(*hidden_cell)
            if left == int((v == -1).sum()):
                return fastsweep.Flag(*hidden_cell)
        return hidden_cell


if __name__ == "__main__":
    mine = fastsweep.run(Basic(), 9, density=0.2, games=200, seed=1)
    built_in = fastsweep.run("basic", 9, density=0.2, games=200, seed=1)
    cols = ["flagged", "detonated", "revealed", "guesses", "moves", "won", "score"]
    print("the same games as the built-in basic:", mine[cols].equals(built_in[cols]))

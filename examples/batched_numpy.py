"""A batched numpy agent: ``act_batch`` gets a batch of games (arrays in) and returns a
move for each (arrays out), so Python runs once per step of the whole batch. This one
flags a hidden cell next to a clue whose hidden neighbours are all mines, else reveals
the safest-looking cell by a crude local estimate (the most clue-free neighbours).
Run (after the Quick start): .venv/bin/python examples/batched_numpy.py
"""
import numpy as np

import fastsweep


def neighbour_sum(x):
    """Sum of each cell's 8 neighbours, for a batch of boards (B, H, W)."""
    p = np.pad(x, ((0, 0), (1, 1), (1, 1)))
    h, w = x.shape[1:]
    return sum(p[:, 1 + dr:h + 1 + dr, 1 + dc:w + 1 + dc]
               for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)


class CrudeBatch:
    """Vectorised over the batch: no Python loop over games."""

    name = "crude-batch"

    def act_batch(self, obs):
        v = obs.view.astype(np.int16)
        b, h, w = v.shape
        hidden = v == -1
        clue = np.where(v >= 0, v, 0)
        mines = neighbour_sum(((v == -2) | (v == -3)).astype(np.int16))
        nhid = neighbour_sum(hidden.astype(np.int16))
        full = (v >= 0) & (nhid > 0) & (clue - mines == nhid)  # its hidden cells: mines
        flag_here = hidden & (neighbour_sum(full.astype(np.int16)) > 0)
        score = np.where(hidden, -neighbour_sum((v >= 0).astype(np.int16)), -99)
        flat_flag = flag_here.reshape(b, -1)
        best = score.reshape(b, -1).argmax(axis=1)
        has_flag = flat_flag.any(axis=1)
        return np.where(has_flag, fastsweep.flag(flat_flag.argmax(axis=1)),
                        fastsweep.reveal(best))


if __name__ == "__main__":
    df = fastsweep.run(CrudeBatch(), 16, density=0.15, games=500, seed=1)
    print(f"{len(df)} games, mean score {df.score.mean():.3f}, wrong flags "
          f"{df.wrong_flags.sum()}")

"""Single-clue rules (the assignment's basic agent) and the mine-count rules.

For a revealed cell with clue k, n neighbours, h hidden, m known-mine and s known-safe
neighbours:

* k - m == h            -> every hidden neighbour is a mine (flag them);
* (n - k) - s == h      -> every hidden neighbour is safe (reveal them).

Rules run from a work list of cells whose neighbourhood changed, so a move costs
O(neighbours), never a board scan. Both rules are sound, and their closure does not
depend on the order they fire in, so every agent runs them first as a cheap pre-pass.
"""
import numpy as np
from numba import njit

from .bits import lowest_bit
from .env import (
    A_FLAG, A_REVEAL, C_DET, C_FLAG, C_MINES, F_DIR, F_NB, F_ST, HIDDEN, NB_MASK_SHIFT,
    R_CLUE_MINES, R_CLUE_SAFE, R_COUNT_MINES, R_COUNT_SAFE, _ix, act_flat, flat, hidden_left,
    mines_left, pop, safe_left,
)


@njit(cache=True)
def drain_local(F, stop_on_detonation):
    """Apply the single-clue rules until no revealed cell triggers one (``F`` is the
    :func:`~fastsweep.kernels.env.flat` state: constant-stride unsigned indexing).

    Returns False if a detonation happened and ``stop_on_detonation`` (classic rules);
    a detonation here would mean an unsound rule, and ``act`` counts it.
    """
    while True:
        c = pop(F)
        if c < 0:
            return True
        ic = _ix(c, 0)
        w = F[ic + np.uint64(F_NB)]  # only revealed cells are ever queued
        ml = mines_left(w)
        sl = safe_left(w)
        h = ml + sl
        if h == 0:
            continue
        # Visit exactly the hidden neighbours, in direction order: their bits
        # in the mask (acting on one does not change whether the others are hidden).
        hidden = (w >> NB_MASK_SHIFT) & 0xFF
        if sl == 0:  # k - m == h
            while hidden != 0:
                d = F[ic + np.uint64(F_DIR + lowest_bit(hidden))]
                hidden &= hidden - 1
                act_flat(F, d, A_FLAG, R_CLUE_MINES, c, h)
        elif ml == 0:  # (n - k) - s == h with s = n - h - m known-safe neighbours
            while hidden != 0:
                d = F[ic + np.uint64(F_DIR + lowest_bit(hidden))]
                hidden &= hidden - 1
                if act_flat(F, d, A_REVEAL, R_CLUE_SAFE, c, h) == -1 and stop_on_detonation:
                    return False


@njit(cache=True)
def apply_mine_count(S, stop_on_detonation):
    """Rules that need the total mine count. Returns the number of actions taken."""
    n = S.shape[0] - 1
    left = S[n, C_MINES] - S[n, C_FLAG] - S[n, C_DET]
    h = hidden_left(S)
    if h == 0 or (left != 0 and left != h):
        return 0
    kind = A_REVEAL if left == 0 else A_FLAG
    why = R_COUNT_SAFE if left == 0 else R_COUNT_MINES
    done = 0
    F = flat(S)
    for d in range(n):
        if S[d, F_ST] == HIDDEN:
            done += 1
            if act_flat(F, d, kind, why, -1, h) == -1 and stop_on_detonation:
                return done
    return done

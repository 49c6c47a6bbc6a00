"""Single-clue rules, the mine-count rules and the random guess (the assignment's
basic agent).

For a revealed cell with clue k, n neighbours, h hidden, m known-mine and s known-safe
neighbours:

* k - m == h            -> every hidden neighbour is a mine (flag them);
* (n - k) - s == h      -> every hidden neighbour is safe (reveal them).

Rules run from a work list of cells whose neighbourhood changed, so a move costs
O(neighbours), never a board scan. Both rules are sound, and their closure does not
depend on the order they fire in, so every agent runs them first as a cheap pre-pass.
"""
import numpy as np

from .bits import lowest_bit
from .actions import _act, act_flat, observed
from .env import (
    _ix, flat, hidden_left, mines_left, mines_left_known, ncells, ncells_flat, safe_left,
    status, w_status,
)
from ..jit import njit
from .layout import (
    A_FLAG, A_GUESS, A_REVEAL, C_DET, C_FLAG, C_GPTR, C_OFF, C_ORDER, C_QLEN, C_REV, C_W2,
    FIRE_SIZE, F_PLANE, HIDDEN, K, NB_MASK_SHIFT, R_CLUE_MINES, R_CLUE_SAFE, R_COUNT_MINES,
    R_COUNT_SAFE, R_RANDOM,
)


@njit(cache=True, inline="always")  # (a layer inlined: see design/compile.md)
def drain_local(F, stop_on_detonation):
    """Apply the single-clue rules until no revealed cell triggers one (``F`` is the
    :func:`~fastsweep.kernels.engine.env.flat` state: constant-stride unsigned indexing).

    Returns False if a detonation happened and ``stop_on_detonation`` (classic rules);
    a detonation here would mean an unsound rule, and ``act`` counts it.

    The work list is a stack: the closure of sound rules does not depend on the order in
    which they fire. A popped cell keeps its queued bit: it never needs the list again,
    because its rule now acts on all of its hidden neighbours, after which it has none
    (clearing the bit would let each of those actions push it back, only to be popped
    with nothing left to do). So each cell is on the list at most once in a game.

    Two copies of the loop (see ``actions._act``): the one for games that are traced or
    have a noisy sensor, and the hot one, with no call in it.
    """
    cnt = _ix(ncells_flat(F), 0)  # row N
    if observed(F, cnt):
        return _drain(F, cnt, stop_on_detonation, True)
    return _drain(F, cnt, stop_on_detonation, False)


@njit(cache=True, inline="always")
def _drain(F, cnt, stop_on_detonation, full):
    """The rule loop of :func:`drain_local`; ``full`` is a constant in each copy."""
    w2 = F[cnt + np.uint64(C_W2)]
    off = cnt + np.uint64(C_OFF)  # the neighbour offset of each direction
    queue = cnt + np.uint64(K + FIRE_SIZE)
    q = F[cnt + np.uint64(C_QLEN)]  # the list's length lives in a register meanwhile
    while q > 0:
        q -= 1
        p = np.uint64(F[queue + np.uint64(q)])
        w = F[p]  # only revealed cells are ever queued
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
                d = p + np.uint64(F[off + np.uint64(lowest_bit(hidden))])
                hidden &= hidden - 1
                out, q = _act(F, cnt, w2, d, A_FLAG, R_CLUE_MINES, np.int64(p), h, q, full)
        elif ml == 0:  # (n - k) - s == h with s = n - h - m known-safe neighbours
            while hidden != 0:
                d = p + np.uint64(F[off + np.uint64(lowest_bit(hidden))])
                hidden &= hidden - 1
                out, q = _act(F, cnt, w2, d, A_REVEAL, R_CLUE_SAFE, np.int64(p), h, q, full)
                if out == -1 and stop_on_detonation:
                    F[cnt + np.uint64(C_QLEN)] = q
                    return False
    F[cnt + np.uint64(C_QLEN)] = 0
    return True


@njit(cache=True)
def apply_mine_count(S, stop_on_detonation):
    """Rules that need the total mine count. Returns the number of actions taken."""
    n = ncells(S)
    left = mines_left_known(S)
    h = hidden_left(S)
    if h == 0 or (left != 0 and left != h):
        return 0
    kind = A_REVEAL if left == 0 else A_FLAG
    why = R_COUNT_SAFE if left == 0 else R_COUNT_MINES
    done = 0
    F = flat(S)
    for d in range(n):
        if status(S, d) == HIDDEN:
            done += 1
            if act_flat(F, S[d, F_PLANE], kind, why, -1, h) == -1 and stop_on_detonation:
                return done
    return done


@njit(cache=True)
def next_in_order(F):
    """Word index of the first cell of the guess order that is still hidden (the uniform
    random choice); ``F`` is the :func:`~fastsweep.kernels.engine.env.flat` state."""
    n = ncells_flat(F)
    gptr = _ix(n, C_GPTR)  # row N: the counters
    order = np.uint64(F[_ix(n, C_ORDER)])
    i = F[gptr]
    while w_status(F[F[order + np.uint64(i)]]) != HIDDEN:
        i += 1
    F[gptr] = i  # cells never become hidden again, so the pointer only moves on
    return F[order + np.uint64(i)]


@njit(cache=True)
def guess_in_order(F):
    """The basic agent's move: a random guess, the next hidden cell of the guess order
    (``F`` is the flat state)."""
    n = ncells_flat(F)
    hid = n - F[_ix(n, C_REV)] - F[_ix(n, C_FLAG)] - F[_ix(n, C_DET)]
    act_flat(F, next_in_order(F), A_GUESS, R_RANDOM, -1, hid)

"""The reports' subset reduction (the ``subset`` agent).

Patel, Prabhala, Shah and Goradia (Rutgers, 2020) keep a knowledge base of equations
``(cells, value)``: "exactly ``value`` mines among these hidden cells". A new equation is
first reduced by the equations already known that are subsets of it (``X - Y`` holds
``v - w`` mines), and every known equation of which it is a proper subset is split the
same way and added again; an equation whose value is 0 makes all its cells safe, one
whose value equals its size makes them all mines.

Here the knowledge base is rebuilt at every agent move from the current knowledge, after
the single-clue rules (``game.settle``, run by the family loop) are exhausted: for each
revealed cell with hidden neighbours, in increasing cell index, the equation (its hidden
neighbours, clue minus known-mine neighbours) is ADDED; the equation's id is its clue
cell. ADD works with a FIFO queue of pending equations::

    pending = [(id, X, v)]
    while pending:
        id, X, v = pending.pop_front()
        repeat:  # reduce X by the first KB equation (ascending id) that is a subset of X
            find the lowest id j in KB with Y_j sharing a cell with X and Y_j <= X
            if found: X -= Y_j; v -= w_j; continue repeating; else stop
        if X is empty: drop it (v is 0 on a consistent view)
        else:
            for every KB equation j (ascending id) with X < Y_j (proper subset):
                remove j from KB; append (j, Y_j - X, w_j - v) to pending
            KB[id] = (X, v)

Then every KB equation of value 0 decides its cells safe, and every one whose value
equals its size decides its cells mines. The mine total is not used (the family loop's
count rules still run when the agent is told it).

Implementation. An equation only ever loses cells, so its cells stay among the hidden
neighbours of its id (the clue cell): the equations containing cell x are among the
equations of x's neighbours. The candidates for a pending equation are thus the KB
equations of the neighbours of its cells (at most 25 distinct ids: deduplicated with
marks, cleared after use, and kept sorted ascending). The KB does not change while X is
reduced and X only shrinks, so one pass over the candidates in ascending id is the
"repeat" above exactly: a candidate that is not a subset of X is not a subset of any
later, smaller X, and one that was subtracted is disjoint from it. The candidates of the
original X also hold every proper superset of the reduced X. Each equation is up to 8
sorted cell indices, a size, a value and an alive (in the KB) flag in per-cell arrays; a
pending equation's cells are kept in its id's slot too (an id is in at most one of KB /
pending), and the queue is a ring buffer of ids (at most N). The total size of the
equations strictly decreases at each reduction or split, so it terminates. Decisions
are sound: every equation is a consequence of the clues.
"""
import numpy as np

from ...engine.actions import act_flat
from ...engine.env import flat, mines_left, ncells, w_hidden, w_status, word
from ...jit import njit
from ...engine.layout import (
    A_FLAG, A_REVEAL, F_NBR, F_NNB, F_PLANE, HIDDEN, R_SUBSET_MINE, R_SUBSET_SAFE,
    REVEALED,
)

DEC_SAFE = 1
DEC_MINE = 2


@njit(cache=True, inline="always")
def _is_subset(E, a, na, b, nb):
    """Whether equation ``a``'s cells (``E[a, :na]``, sorted) are all in ``E[b, :nb]``."""
    if na > nb:
        return False
    j = 0
    for i in range(na):
        x = E[a, i]
        while j < nb and E[b, j] < x:
            j += 1
        if j == nb or E[b, j] != x:
            return False
        j += 1
    return True


@njit(cache=True, inline="always")
def _remove(E, b, nb, a, na):
    """Remove equation ``a``'s cells (a subset) from equation ``b``'s, in place, keeping
    the order. Returns ``b``'s new size."""
    k = 0
    j = 0
    for i in range(nb):
        x = E[b, i]
        while j < na and E[a, j] < x:
            j += 1
        if j < na and E[a, j] == x:
            continue
        E[b, k] = x
        k += 1
    return k


@njit(cache=True)
def _add(S, E, en, ev, alive, queue, mark, cand, first):
    """ADD equation ``first`` (its cells and value already in ``E``/``en``/``ev``) and
    process the pending queue until it is empty (see the module notes)."""
    n = ncells(S)
    head = 0
    size = 1
    queue[0] = first
    while size > 0:
        i = queue[head]
        head += 1
        if head == n:
            head = 0
        size -= 1
        # the candidates: KB equations of the neighbours of X's cells, ascending
        nc = 0
        for t in range(en[i]):
            x = E[i, t]
            for k in range(S[x, F_NNB]):
                j = S[x, F_NBR + k]
                if alive[j] and mark[j] == 0:
                    mark[j] = 1
                    # insertion into the sorted candidate list
                    p = nc
                    while p > 0 and cand[p - 1] > j:
                        cand[p] = cand[p - 1]
                        p -= 1
                    cand[p] = j
                    nc += 1
        # reduce X by the subsets, lowest id first (one pass: see the module notes)
        for t in range(nc):
            j = cand[t]
            if en[i] == 0:
                break
            if _is_subset(E, j, en[j], i, en[i]):
                en[i] = _remove(E, i, en[i], j, en[j])
                ev[i] -= ev[j]
        for t in range(nc):  # clear the marks for the next pending equation
            mark[cand[t]] = 0
        if en[i] == 0:
            continue  # dropped (value 0 on a consistent view)
        # split the proper supersets, lowest id first
        for t in range(nc):
            j = cand[t]
            if en[j] > en[i] and _is_subset(E, i, en[i], j, en[j]):
                alive[j] = 0
                en[j] = _remove(E, j, en[j], i, en[i])
                ev[j] -= ev[i]
                tail = head + size
                if tail >= n:
                    tail -= n
                queue[tail] = j
                size += 1
        alive[i] = 1


@njit(cache=True)
def decide(S, ded):
    """The subset reduction on ``S``'s knowledge: ``ded[c]`` (int8, N, zeroed) becomes
    DEC_SAFE / DEC_MINE for each hidden cell a KB equation decides. Returns (cells
    decided, equations in the final KB)."""
    n = ncells(S)
    E = np.empty((n, 8), np.int64)
    en = np.zeros(n, np.int64)
    ev = np.zeros(n, np.int64)
    alive = np.zeros(n, np.uint8)
    queue = np.empty(n, np.int64)
    mark = np.zeros(n, np.uint8)
    cand = np.empty(64, np.int64)
    for c in range(n):
        w = word(S, c)
        if w_status(w) != REVEALED or w_hidden(w) <= 0:  # (a blank: <= 0)
            continue
        k = 0
        for t in range(S[c, F_NNB]):  # the neighbour list is in increasing cell order
            d = S[c, F_NBR + t]
            if w_status(word(S, d)) == HIDDEN:
                E[c, k] = d
                k += 1
        en[c] = k
        ev[c] = mines_left(w)
        _add(S, E, en, ev, alive, queue, mark, cand, c)
    decided = 0
    kept = 0
    for c in range(n):
        if not alive[c]:
            continue
        kept += 1
        if ev[c] == 0:
            v = DEC_SAFE
        elif ev[c] == en[c]:
            v = DEC_MINE
        else:
            continue
        for t in range(en[c]):
            d = E[c, t]
            if ded[d] == 0:
                ded[d] = v
                decided += 1
    return decided, kept


@njit(cache=True)
def subset_move(S, stop_on_detonation):
    """The agent's move once the rules are exhausted: act on every cell the reduction
    decides (flags, then reveals, in cell order); none: a random guess in the guess order
    (done by the caller when this returns 0). Returns the number of actions, or -1 if a
    detonation ended the game (impossible for sound decisions; counted by ``act``)."""
    n = ncells(S)
    ded = np.zeros(n, np.int8)
    decided, _ = decide(S, ded)
    if decided == 0:
        return 0
    F = flat(S)
    acted = 0
    for c in range(n):
        if ded[c] == DEC_MINE:
            act_flat(F, S[c, F_PLANE], A_FLAG, R_SUBSET_MINE, -1, decided)
            acted += 1
    for c in range(n):
        if ded[c] == DEC_SAFE:
            acted += 1
            if act_flat(F, S[c, F_PLANE], A_REVEAL, R_SUBSET_SAFE, -1, decided) == -1:
                if stop_on_detonation:
                    return -1
    return acted

"""The environment: a game's whole state in one int32 array, and the three actions.

State ``S`` is int32 of shape (N + 1, K): row ``c < N`` is cell ``c``'s record, with
columns ``F_*``; row N holds the game's counters (columns ``C_*``).

* ``F_MINE``  1 where a mine is (agents read it only through actions)
* ``F_CLUE``  true clue of the cell (agents read it only once revealed)
* ``F_ST``    HIDDEN / REVEALED / FLAGGED / DETONATED
* ``F_HID``, ``F_KMN``  still-hidden and known-mine (flagged or detonated) neighbours
* ``F_INQ``   1 while the cell is on the work list
* ``F_ORDER`` the game's guess order (row i holds the i-th cell of a random permutation)
* ``F_QUEUE`` the work list (a stack) of revealed cells whose neighbourhood changed
* ``F_NNB``, ``F_NBR``..``F_NBR + 7``  neighbour count and neighbour indices
* ``F_T*``    the trace: row m describes move m (kind, cell, outcome, reason, ref, a)
* ``F_AUX``   scratch for agents (e.g. marks of a deduction pass)

Why one array: every array argument of a Numba call costs two reference-count calls that
LLVM cannot remove (measured: a 4-array helper call costs ~70 ns, a 1-array call ~3 ns),
and the actions run once per move. Row-per-cell also keeps a cell's neighbours and
state on one or two cache lines.

The agent's knowledge (``F_ST``, ``F_HID``, ``F_KMN``) is updated incrementally by the
actions, so no rule ever rescans the board.
"""
import numpy as np
from numba import njit

HIDDEN = 0
REVEALED = 1
FLAGGED = 2
DETONATED = 3

F_MINE = 0  # the fields every move touches come first: one cache line per cell
F_CLUE = 1
F_ST = 2
F_HID = 3
F_KMN = 4
F_INQ = 5
F_NNB = 6
F_NBR = 7  # .. 14
F_ORDER = 15
F_QUEUE = 16
F_TKIND = 17
F_TCELL = 18
F_TOUT = 19
F_TWHY = 20
F_TREF = 21
F_TA = 22
F_AUX = 23
K = 24


# action kinds (trace)
A_REVEAL = 0  # reveal of a cell the agent deduced safe
A_FLAG = 1
A_GUESS = 2  # reveal of a cell not known to be safe

# reasons (trace); the ref / a / probability fields' meaning depends on the reason
R_FIRST = 0  # opening move (a = hidden cells)
R_RANDOM = 1  # random guess by guess order (a = hidden cells)
R_CLUE_MINES = 2  # ref = clue cell, a = its hidden neighbours, all mines
R_CLUE_SAFE = 3  # ref = clue cell whose mines are all known, a = its hidden neighbours
R_COUNT_SAFE = 4  # all mines known: the rest is safe (a = hidden cells)
R_COUNT_MINES = 5  # hidden cells left equal mines left (a = hidden cells)
R_DEDUCE_SAFE = 6  # complete deduction (ref = a clue cell involved, a = clues involved)
R_DEDUCE_MINE = 7
R_PROB_GUESS = 8  # lowest exact mine probability (a = hidden cells)
R_APPROX_GUESS = 9  # lowest approximate probability (work budget exceeded)

# counters (row N)
C_REV = 0
C_FLAG = 1
C_DET = 2
C_GUESS = 3
C_MOVES = 4
C_GPTR = 5  # guess-order pointer
C_QLEN = 6  # work-list length
C_MINES = 7
C_WRONG_FLAG = 8  # flags on safe cells: must stay 0 (soundness check)
C_SAFE_DET = 9  # detonations on non-guess reveals: must stay 0 (soundness check)
C_APPROX = 10  # analyses that exceeded the exact work budget
C_TRACE = 11  # 1: record moves in the F_T* columns
C_N = 12  # number of cells
C_AGENT_CACHE = 13  # 0 after reset_state: an agent's cache from an earlier game is invalid


@njit(cache=True)
def new_state(h, w):
    """Allocate the state of an h x w board with its neighbour table filled in."""
    n = h * w
    S = np.zeros((n + 1, K), np.int32)
    for r in range(h):
        for c in range(w):
            i = r * w + c
            k = 0
            for dr in range(-1, 2):
                rr = r + dr
                if rr < 0 or rr >= h:
                    continue
                for dc in range(-1, 2):
                    cc = c + dc
                    if (dr == 0 and dc == 0) or cc < 0 or cc >= w:
                        continue
                    S[i, F_NBR + k] = rr * w + cc
                    k += 1
            S[i, F_NNB] = k
    S[n, C_N] = n
    return S


@njit(cache=True)
def reset_state(S):
    """Clear mines, clues, the agent-side state and the counters for a new game."""
    n = S.shape[0] - 1
    for i in range(n):
        S[i, F_MINE] = 0
        S[i, F_CLUE] = 0
        S[i, F_ST] = HIDDEN
        S[i, F_HID] = S[i, F_NNB]
        S[i, F_KMN] = 0
        S[i, F_INQ] = 0
    trace = S[n, C_TRACE]
    S[n, :] = 0
    S[n, C_N] = n
    S[n, C_TRACE] = trace


@njit(cache=True)
def hidden_left(S):
    n = S.shape[0] - 1
    return n - S[n, C_REV] - S[n, C_FLAG] - S[n, C_DET]


@njit(cache=True, inline="always")
def pop(S):
    """Next revealed cell to re-examine, or -1 when the work list is empty.

    The work list is a stack: the closure of sound rules does not depend on the order in
    which they fire. Each cell is on it at most once, so N rows suffice.
    """
    n = S.shape[0] - 1
    k = S[n, C_QLEN]
    if k == 0:
        return -1
    k -= 1
    S[n, C_QLEN] = k
    c = S[k, F_QUEUE]
    S[c, F_INQ] = 0
    return c


@njit(cache=True, inline="always")
def push(S, c):
    """Put ``c`` on the work list if it is revealed, not there yet, and one of the
    single-clue rules fires on it now (clue - known mines is 0 or all of its hidden
    neighbours). Its counts change only when a neighbour changes, and every change
    calls this, so checking here loses nothing and keeps the list short.
    """
    # Branch-free: whether a random neighbour qualifies is unpredictable, and a
    # mispredicted branch costs more than the few arithmetic operations. The slot at
    # the stack top is always written (row N's F_QUEUE column is spare, for a full list).
    h = S[c, F_HID]
    left = S[c, F_CLUE] - S[c, F_KMN]
    fire = ((S[c, F_ST] == REVEALED) & (S[c, F_INQ] == 0) & (h > 0)
            & ((left == 0) | (left == h)))
    n = S.shape[0] - 1
    q = S[n, C_QLEN]
    S[q, F_QUEUE] = c
    S[n, C_QLEN] = q + fire
    S[c, F_INQ] |= fire


@njit(cache=True)
def act(S, c, kind, why, ref, a):
    """Apply one action to hidden cell ``c``; return the outcome.

    kind A_REVEAL / A_GUESS: query the cell; outcome is its clue, or -1 if it was a mine
    (detonated: the agent learns it is a mine, no clue). kind A_FLAG: mark a mine;
    outcome -2. Neighbour counts and the work list are updated here, once per action.
    """
    n = S.shape[0] - 1
    if kind == A_FLAG:
        S[c, F_ST] = FLAGGED
        S[n, C_FLAG] += 1
        if S[c, F_MINE] == 0:
            S[n, C_WRONG_FLAG] += 1
        out = -2
        known_mine = 1
    elif S[c, F_MINE] == 1:
        S[c, F_ST] = DETONATED
        S[n, C_DET] += 1
        if kind == A_REVEAL:
            S[n, C_SAFE_DET] += 1
        out = -1
        known_mine = 1
    else:
        S[c, F_ST] = REVEALED
        S[n, C_REV] += 1
        out = S[c, F_CLUE]
        known_mine = 0
        push(S, c)
    if kind == A_GUESS:
        S[n, C_GUESS] += 1
    m = S[n, C_MOVES]
    if S[n, C_TRACE] != 0:
        S[m, F_TKIND] = kind
        S[m, F_TCELL] = c
        S[m, F_TOUT] = out
        S[m, F_TWHY] = why
        S[m, F_TREF] = ref
        S[m, F_TA] = a
    S[n, C_MOVES] = m + 1
    # push() inlined with the stack length kept in a register: through memory, every
    # push would wait on the previous one's store (LLVM cannot tell it apart from S[d]).
    q = S[n, C_QLEN]
    for k in range(S[c, F_NNB]):
        d = S[c, F_NBR + k]
        h = S[d, F_HID] - 1
        km = S[d, F_KMN] + known_mine
        S[d, F_HID] = h
        S[d, F_KMN] = km
        left = S[d, F_CLUE] - km
        fire = ((S[d, F_ST] == REVEALED) & (S[d, F_INQ] == 0) & (h > 0)
                & ((left == 0) | (left == h)))
        S[q, F_QUEUE] = d
        q += fire
        S[d, F_INQ] |= fire
    S[n, C_QLEN] = q
    return out

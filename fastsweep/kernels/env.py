"""The environment: a game's whole state in one int32 array, and the three actions.

State ``S`` is int32 of shape (N + 1, K): row ``c < N`` is cell ``c``'s record, with
columns ``F_*``; row N holds the game's counters (columns ``C_*``).

* ``F_MINE``  1 where a mine is (agents read it only through actions)
* ``F_CLUE``  true clue of the cell (agents read it only once revealed)
* ``F_ST``    HIDDEN / REVEALED / FLAGGED / DETONATED
* ``F_NB``    the cell's neighbourhood word. With h hidden and m known-mine (flagged
  or detonated) neighbours: bits 0-4 ``ML`` = clue - m (mines left among the hidden
  neighbours) + 8, bits 5-12 which neighbours are hidden (bit 5 + k: ``F_DIR + k``), bits
  13-17 ``SL`` = h - (clue - m) (safe cells left) + 8, bit 18 ``NB_NOTREV`` (the cell is
  not revealed), bit 19 ``NB_QUEUED`` (it is or was on the work list). Read it through
  :func:`nb_hidden`, :func:`nb_mines`; :func:`recount` rebuilds it from the neighbours'
  ``F_ST`` and the cell's ``F_CLUE``.
* ``F_ORDER`` the game's guess order (row i holds the i-th cell of a random permutation)
* ``F_QUEUE`` the work list (a stack) of revealed cells whose neighbourhood changed
* ``F_NNB``, ``F_NBR``..``F_NBR + 7``  neighbour count and neighbour indices
* ``F_DIR``..``F_DIR + 7``  the neighbour in each of the 8 directions, in the order
  (-1,-1) (-1,0) (-1,1) (0,-1) (0,1) (1,-1) (1,0) (1,1), so this cell is in direction
  7 - k of its neighbour in direction k; off the board it is N, the *sentinel*: row N's
  ``F_NB`` absorbs those updates (reset after every action) and never fires. Why: the
  action's update loop is then exactly 8 steps with a constant mask bit each, fully
  unrolled, with no per-cell neighbour count or reverse-position lookup.
* ``F_NB0``   the cell's ``F_NB`` at the start of a game (no mines placed yet)
* ``F_T*``    the trace: row m describes move m (kind, cell, outcome, reason, ref, a)
* ``F_AUX``   scratch for agents (e.g. marks of a deduction pass)

Why one array: every array argument of a Numba call costs two reference-count calls that
LLVM cannot remove (measured: a 4-array helper call costs ~70 ns, a 1-array call ~3 ns),
and the actions run once per move. Row-per-cell also keeps a cell's neighbours and
state on one or two cache lines.

The agent's knowledge (``F_ST``, ``F_NB``) is updated incrementally by the actions, so no
rule ever rescans the board. Why one word for the neighbourhood: an action updates 8
neighbours, and each update is then one load and one store instead of five loads and
four stores (the counts, the status and the work-list flag were separate fields). Why
mines-left / safe-left rather than counts: a single-clue rule fires exactly when one of
the two is zero and the other is not, so the test needs neither the clue nor a
subtraction; an action lowers exactly one of them. The bias of 8 keeps both fields
non-negative for every state, even inconsistent ones, so no field borrows from the next.
Why the hidden mask: the rule loop visits exactly the hidden neighbours of a cell (see
``bits.lowest_bit``) instead of testing all eight with an unpredictable branch.
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
F_NB = 3
F_NNB = 4
F_NBR = 5  # .. 12
F_ORDER = 13
F_QUEUE = 14
F_TKIND = 15
F_TCELL = 16
F_TOUT = 17
F_TWHY = 18
F_TREF = 19
F_TA = 20
F_AUX = 21
F_DIR = 22  # .. 29
F_NB0 = 30
K = 32  # 31 used: rows of 128 bytes, two cache lines, the first holding F_MINE..F_QUEUE

NB_BIAS = 8
NB_FIELD = 0x1F
NB_ML = 1  # ML field unit (bits 0-4)
NB_MASK_SHIFT = 5  # the hidden-neighbour mask (bits 5-12)
NB_SL_SHIFT = 13
NB_SL = 1 << NB_SL_SHIFT  # SL field unit (bits 13-17)
NB_NOTREV = 1 << 18
NB_QUEUED = 1 << 19
NB_ZERO = NB_BIAS * (NB_ML + NB_SL)  # ML = SL = 0
NB_SENTINEL = 1 << 30  # row N's F_NB: far above NB_NOTREV, so it never fires


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

# counters (row N; columns F_NB and F_QUEUE of row N belong to the sentinel and the
# work list, so the counters start at 16)
C_REV = 16
C_FLAG = 17
C_DET = 18
C_GUESS = 19
C_MOVES = 20
C_GPTR = 21  # guess-order pointer
C_QLEN = 22  # work-list length
C_MINES = 23
C_WRONG_FLAG = 24  # flags on safe cells: must stay 0 (soundness check)
C_SAFE_DET = 25  # detonations on non-guess reveals: must stay 0 (soundness check)
C_APPROX = 26  # analyses that exceeded the exact work budget
C_TRACE = 27  # 1: record moves in the F_T* columns
C_N = 28  # number of cells
C_AGENT_CACHE = 29  # 0 after reset_state: an agent's cache from an earlier game is invalid


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
            mask = 0
            k = 0
            for dr in range(-1, 2):
                for dc in range(-1, 2):
                    if dr == 0 and dc == 0:
                        continue
                    rr = r + dr
                    cc = c + dc
                    if 0 <= rr < h and 0 <= cc < w:
                        S[i, F_DIR + k] = rr * w + cc
                        mask |= 1 << k
                    else:
                        S[i, F_DIR + k] = n  # the sentinel
                    k += 1
            # no mines yet: every hidden neighbour is safe (add_mine moves one to ML)
            S[i, F_NB0] = (NB_ZERO + S[i, F_NNB] * NB_SL + (mask << NB_MASK_SHIFT)
                           + NB_NOTREV)
    S[n, C_N] = n
    S[n, F_NB] = NB_SENTINEL
    return S


@njit(cache=True)
def reset_state(S):
    """Clear mines, clues, the agent-side state and the counters for a new game."""
    n = S.shape[0] - 1
    for i in range(n):
        S[i, F_MINE] = 0
        S[i, F_CLUE] = 0
        S[i, F_ST] = HIDDEN
        S[i, F_NB] = S[i, F_NB0]
    trace = S[n, C_TRACE]
    S[n, :] = 0
    S[n, C_N] = n
    S[n, C_TRACE] = trace
    S[n, F_NB] = NB_SENTINEL


@njit(cache=True)
def hidden_left(S):
    n = S.shape[0] - 1
    return n - S[n, C_REV] - S[n, C_FLAG] - S[n, C_DET]


@njit(cache=True)
def nb_hidden(S, c):
    """Number of hidden neighbours of cell ``c``."""
    return mines_left(S[c, F_NB]) + safe_left(S[c, F_NB])


@njit(cache=True)
def nb_mines(S, c):
    """Number of known-mine (flagged or detonated) neighbours of cell ``c``."""
    return S[c, F_CLUE] - mines_left(S[c, F_NB])


@njit(cache=True, inline="always")
def mines_left(w):
    """Clue minus known-mine neighbours, from a neighbourhood word."""
    return (w & NB_FIELD) - NB_BIAS


@njit(cache=True, inline="always")
def safe_left(w):
    """Hidden neighbours minus (clue minus known-mine neighbours), from a word."""
    return ((w >> NB_SL_SHIFT) & NB_FIELD) - NB_BIAS


@njit(cache=True)
def recount(S, c):
    """Rebuild cell ``c``'s neighbourhood word from its neighbours' ``F_ST`` and its own
    ``F_ST`` and ``F_CLUE``; the cell is left off the work list. Used for states not
    built by actions."""
    h = 0
    m = 0
    mask = 0
    n = S.shape[0] - 1
    for k in range(8):
        d = S[c, F_DIR + k]
        if d == n:
            continue
        st = S[d, F_ST]
        if st == HIDDEN:
            h += 1
            mask |= 1 << k
        elif st == FLAGGED or st == DETONATED:
            m += 1
    ml = S[c, F_CLUE] - m
    S[c, F_NB] = (NB_ZERO + ml * NB_ML + (h - ml) * NB_SL + (mask << NB_MASK_SHIFT)
                  + (0 if S[c, F_ST] == REVEALED else NB_NOTREV))


@njit(cache=True)
def add_mine(S, c):
    """Place a mine on cell ``c`` of a reset state: its neighbours' clues go up, and so
    does each one's mines-left (their safe-left goes down)."""
    S[c, F_MINE] = 1
    for k in range(S[c, F_NNB]):
        d = S[c, F_NBR + k]
        S[d, F_CLUE] += 1
        S[d, F_NB] += NB_ML - NB_SL


@njit(cache=True, inline="always")
def fires(w):
    """1 if a cell with neighbourhood word ``w`` belongs on the work list: revealed, not
    there yet, and one of the single-clue rules fires on it now (exactly one of
    mines-left and safe-left is zero: all hidden neighbours are safe, or all are
    mines), else 0."""
    # Branch-free: whether a random neighbour qualifies is unpredictable, and a
    # mispredicted branch costs more than these few arithmetic operations.
    ml0 = (w & NB_FIELD) == NB_BIAS
    sl0 = (w & (NB_FIELD << NB_SL_SHIFT)) == NB_BIAS * NB_SL
    return (w < NB_NOTREV) & (ml0 != sl0)


@njit(cache=True, inline="always")
def _ix(c, f):
    """Flat index of field ``f`` of row ``c``: the hot kernels index ``S.reshape(-1)``.

    Why: 2-D indexing multiplies by the run-time row stride, and a signed index gets a
    negative-index fix-up (three instructions); with the constant K and an unsigned index
    both go, which shortens the per-neighbour update by about a third.
    """
    return np.uint64(c) * np.uint64(K) + np.uint64(f)


@njit(cache=True)
def flat(S):
    """The state as one flat array (a view): what the hot kernels take."""
    return S.reshape(S.size)


@njit(cache=True)
def pop(F):
    """Next revealed cell to re-examine, or -1 when the work list is empty (``F`` is
    :func:`flat` state).

    The work list is a stack: the closure of sound rules does not depend on the order in
    which they fire. Each cell is on it at most once in a game, so N rows suffice.
    """
    cnt = np.uint64(F.shape[0] - K)  # row N: the counters
    k = F[cnt + np.uint64(C_QLEN)]
    if k == 0:
        return -1
    k -= 1
    F[cnt + np.uint64(C_QLEN)] = k
    # The cell keeps its NB_QUEUED bit: it never needs the list again, because its rule
    # now acts on all of its hidden neighbours, after which it has none. Clearing the bit
    # here would let each of those actions push it back, only to be popped with nothing
    # left to do (that was half of all pops).
    return F[_ix(k, F_QUEUE)]


@njit(cache=True)
def act(S, c, kind, why, ref, a):
    """Apply one action to hidden cell ``c``; return the outcome.

    kind A_REVEAL / A_GUESS: query the cell; outcome is its clue, or -1 if it was a mine
    (detonated: the agent learns it is a mine, no clue). kind A_FLAG: mark a mine;
    outcome -2. Neighbour counts and the work list are updated here, once per action.
    """
    return act_flat(flat(S), c, kind, why, ref, a)


@njit(cache=True, inline="always")
def act_flat(F, c, kind, why, ref, a):
    """:func:`act` on :func:`flat` state (what the rule loops call)."""
    cnt = np.uint64(F.shape[0] - K)  # row N: the counters
    ic = _ix(c, 0)
    if kind == A_FLAG:
        F[ic + np.uint64(F_ST)] = FLAGGED
        F[cnt + np.uint64(C_FLAG)] += 1
        if F[ic + np.uint64(F_MINE)] == 0:
            F[cnt + np.uint64(C_WRONG_FLAG)] += 1
        out = -2
        delta = -NB_ML  # the neighbours have one unknown mine fewer
    elif F[ic + np.uint64(F_MINE)] == 1:
        F[ic + np.uint64(F_ST)] = DETONATED
        F[cnt + np.uint64(C_DET)] += 1
        if kind == A_REVEAL:
            F[cnt + np.uint64(C_SAFE_DET)] += 1
        out = -1
        delta = -NB_ML
    else:
        F[ic + np.uint64(F_ST)] = REVEALED
        F[cnt + np.uint64(C_REV)] += 1
        out = F[ic + np.uint64(F_CLUE)]
        delta = -NB_SL  # the neighbours have one unknown safe cell fewer
        # it may already satisfy a rule: push it (branch-free, see fires; the slot at
        # the stack top is always written: row N's F_QUEUE column is spare)
        w = F[ic + np.uint64(F_NB)] & ~NB_NOTREV
        fire = fires(w)
        q = F[cnt + np.uint64(C_QLEN)]
        F[_ix(q, F_QUEUE)] = c
        F[cnt + np.uint64(C_QLEN)] = q + fire
        F[ic + np.uint64(F_NB)] = w | (fire * NB_QUEUED)
    if kind == A_GUESS:
        F[cnt + np.uint64(C_GUESS)] += 1
    m = F[cnt + np.uint64(C_MOVES)]
    if F[cnt + np.uint64(C_TRACE)] != 0:
        im = _ix(m, 0)
        F[im + np.uint64(F_TKIND)] = kind
        F[im + np.uint64(F_TCELL)] = c
        F[im + np.uint64(F_TOUT)] = out
        F[im + np.uint64(F_TWHY)] = why
        F[im + np.uint64(F_TREF)] = ref
        F[im + np.uint64(F_TA)] = a
    F[cnt + np.uint64(C_MOVES)] = m + 1
    # Each neighbour: one hidden neighbour fewer (delta and the mask bit), and onto the
    # work list if a rule now fires on it. The list length stays in a register: through
    # memory, every push would wait on the previous one's store.
    q = F[cnt + np.uint64(C_QLEN)]
    for k in range(8):  # constant count: unrolled, each step with a constant mask bit
        d = F[ic + np.uint64(F_DIR + k)]
        idd = _ix(d, 0)
        w = F[idd + np.uint64(F_NB)] + delta - (1 << (NB_MASK_SHIFT + 7 - k))
        fire = fires(w)
        F[_ix(q, F_QUEUE)] = d
        q += fire
        F[idd + np.uint64(F_NB)] = w | (fire * NB_QUEUED)
    F[cnt + np.uint64(C_QLEN)] = q
    F[cnt + np.uint64(F_NB)] = NB_SENTINEL  # at most 8 updates since the last reset
    return out

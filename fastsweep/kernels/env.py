"""The environment: a game's whole state in one int32 array, and the three actions.

State ``S`` is int32 of shape (R, K), K = 32. Row ``c < N`` holds cell ``c``'s static
record and agent scratch; row N holds the game's counters and layout constants
(columns ``C_*``); the rows after it, read as one flat run of ints (:func:`flat`), hold
the *plane* and its tables. ``S[-1, -1]`` is N (see :func:`ncells`).

Row ``c`` (columns ``F_*``):

* ``F_PLANE`` flat index of the cell's word in the plane (below)
* ``F_NNB``, ``F_NBR``..``F_NBR + 7``  neighbour count and neighbour indices
* ``F_T*``    the trace: row m describes move m (kind, cell, outcome, reason, ref, a)
* ``F_AUX``   scratch for agents (e.g. marks of a deduction pass)

The plane is the board padded by one *border* cell on each side, (H + 2) x (W + 2)
words, so the neighbours of the word at flat index ``p`` are ``p - W2 - 1`` ..
``p + W2 + 1`` (W2 = W + 2), with no edge tests and no neighbour-table loads. Each
cell's word packs everything a move touches:

* bits 0-4   ``ML`` = clue - known-mine neighbours (mines left among the hidden ones) + 8
* bits 5-9   ``SL`` = hidden neighbours - ML (safe cells left among them) + 8
* bit 10     ``NB_NOTREV``: the cell is not revealed
* bit 11     ``NB_QUEUED``: the cell is or was on the work list
* bits 12-19 which neighbours are hidden (bit 12 + k: direction k, in the order
  (-1,-1) (-1,0) (-1,1) (0,-1) (0,1) (1,-1) (1,0) (1,1); a cell is in direction 7 - k
  of its neighbour in direction k)
* bit 20     ``NB_MINE``: a mine is here (agents learn it only through actions)
* bits 21-22 the status: HIDDEN / REVEALED / FLAGGED / DETONATED
* bits 23-26 the true clue (agents read it only once the cell is revealed)
* bit 29     ``NB_BORDER``: a border word, not a cell

Read words through :func:`status`, :func:`clue`, :func:`is_mine`, :func:`nb_hidden`,
:func:`nb_mines`; :func:`recount` rebuilds a word from its neighbours' statuses.

After the plane come, in order: the fire table (below), the work list, the plane's cell
map (``cell_of``: the cell of each word, -1 on the border), the plane at the start of a
game, each cell's word index (compact, for the shuffle) and the guess order (word
indices of a random permutation of the cells).

Why one array: every array argument of a Numba call costs two reference-count calls that
LLVM cannot remove (measured: a 4-array helper call costs ~70 ns, a 1-array call ~3 ns),
and the actions run once per move.

Why the plane: an action updates its 8 neighbours, and each update is one load, one add
and one store into a few kilobytes that stay in the L1 cache (a 30 x 30 plane is 4 KB;
the rows are 115 KB). With the row-per-cell layout each update also loaded the
neighbour's index and touched a 128-byte row: about 0.6x the time per game for the plane.

Why mines-left / safe-left rather than counts: a single-clue rule fires exactly when one
of the two is zero and the other is not, so the test needs neither the clue nor a
subtraction; an action lowers exactly one of them. The bias of 8 keeps both fields
non-negative for every state, even inconsistent ones, so no field borrows from the next.
Why the fire table: whether a word belongs on the work list depends only on its low 12
bits (ML, SL, not revealed, queued), so it is one load from a 4096-entry table instead of
eight arithmetic operations; the update is branch-free because whether a random
neighbour qualifies is unpredictable. Why the hidden mask: the rule loop visits exactly
the hidden neighbours of a cell (see ``bits.lowest_bit``).
"""
import numpy as np
from numba import njit

HIDDEN = 0
REVEALED = 1
FLAGGED = 2
DETONATED = 3

# row fields
F_PLANE = 0
F_NNB = 1
F_NBR = 2  # .. 9
F_AUX = 10
F_TKIND = 11
F_TCELL = 12
F_TOUT = 13
F_TWHY = 14
F_TREF = 15
F_TA = 16
K = 32  # row N needs 32 counters; a power of two, so flat index j is row j >> 5
_KSHIFT = 5

# the word
NB_BIAS = 8
NB_FIELD = 0x1F
NB_ML = 1  # ML field unit (bits 0-4)
NB_SL_SHIFT = 5
NB_SL = 1 << NB_SL_SHIFT  # SL field unit (bits 5-9)
NB_NOTREV = 1 << 10
NB_QUEUED = 1 << 11
NB_FIRE_BITS = 0xFFF  # ML, SL, NB_NOTREV, NB_QUEUED: the fire table's index
NB_MASK_SHIFT = 12  # the hidden-neighbour mask (bits 12-19)
NB_MINE = 1 << 20
NB_ST_SHIFT = 21
NB_ST = 3 << NB_ST_SHIFT
NB_CLUE_SHIFT = 23
NB_CLUE = 1 << NB_CLUE_SHIFT
NB_BORDER = 1 << 29
NB_ZERO = NB_BIAS * (NB_ML + NB_SL)  # ML = SL = 0
# Border words: not revealed, so they never fire. Each one's fields start mid-range and
# take at most three updates per game (one per neighbouring cell) plus three mines, so
# they never borrow into the bits above; the plane is restored at every reset.
NB_BORDER_WORD = NB_BORDER + NB_NOTREV + 16 * (NB_ML + NB_SL) + (0xFF << NB_MASK_SHIFT)

FIRE_SIZE = NB_FIRE_BITS + 1

# action kinds (trace)
A_REVEAL = 0  # reveal of a cell the agent deduced safe
A_FLAG = 1
A_GUESS = 2  # reveal of a cell not known to be safe

# reasons (trace); the ref / a / probability fields' meaning depends on the reason
R_FIRST = 0  # opening move (a = hidden cells)
R_RANDOM = 1  # random guess by guess order (a = hidden cells)
# (the actions of the single-clue rules take ref as the clue cell's word index)
R_CLUE_MINES = 2  # ref = clue cell, a = its hidden neighbours, all mines
R_CLUE_SAFE = 3  # ref = clue cell whose mines are all known, a = its hidden neighbours
R_COUNT_SAFE = 4  # all mines known: the rest is safe (a = hidden cells)
R_COUNT_MINES = 5  # hidden cells left equal mines left (a = hidden cells)
R_DEDUCE_SAFE = 6  # complete deduction (ref = a clue cell involved, a = clues involved)
R_DEDUCE_MINE = 7
R_PROB_GUESS = 8  # lowest exact mine probability (a = hidden cells)
R_APPROX_GUESS = 9  # lowest approximate probability (work budget exceeded)

# counters (row N), cleared by reset_state
C_REV = 0
C_FLAG = 1
C_DET = 2
C_GUESS = 3
C_GPTR = 5  # guess-order pointer
C_QLEN = 6  # work-list length
C_MINES = 7
C_WRONG_FLAG = 8  # flags on safe cells: must stay 0 (soundness check)
C_SAFE_DET = 9  # detonations on non-guess reveals: must stay 0 (soundness check)
C_APPROX = 10  # analyses that exceeded the exact work budget
C_AGENT_CACHE = 11  # 0 after reset_state: an agent's cache from an earlier game is invalid
C_GAME_END = 16  # columns below this are per game
# layout constants (row N), set by new_state
C_TRACE = 16  # 1: record moves in the F_T* columns (kept by reset_state)
C_N = 17  # number of cells
C_W2 = 18  # plane width, W + 2
C_P = 19  # plane size, (H + 2) * (W + 2)
C_WORDS = 20  # flat index of the plane's first word
C_WORDS0 = 21  # flat index of the plane at the start of a game
C_PLANEOF = 22  # flat index of the cells' word indices
C_ORDER = 23  # flat index of the guess order
C_OFF = 24  # .. 31: word offset of the neighbour in each direction


@njit(cache=True)
def fires(w):
    """1 if a cell with word ``w`` belongs on the work list: revealed, not there yet, and
    one of the single-clue rules fires on it now (exactly one of mines-left and safe-left
    is zero: all hidden neighbours are safe, or all are mines), else 0. The actions read
    it from the fire table, which this fills."""
    ml0 = (w & NB_FIELD) == NB_BIAS
    sl0 = ((w >> NB_SL_SHIFT) & NB_FIELD) == NB_BIAS
    return 1 if (w & (NB_NOTREV | NB_QUEUED)) == 0 and ml0 != sl0 else 0


@njit(cache=True)
def new_state(h, w):
    """Allocate the state of an empty h x w board (no mines), tables filled in."""
    n = h * w
    w2 = w + 2
    p = (h + 2) * w2
    z = (n + 1) * K  # flat index of the region after row N
    words = z + FIRE_SIZE + n + 1  # fire table, then the work list (n + 1 slots)
    words0 = words + 2 * p  # (the cell map is words + p)
    planeof = words0 + p
    order = planeof + n
    size = order + n + 1  # + 1: the last int holds n
    S = np.zeros(((size + K - 1) // K, K), np.int32)
    F = S.reshape(S.size)
    cnt = n * K
    F[-1] = n
    F[cnt + C_N] = n
    F[cnt + C_W2] = w2
    F[cnt + C_P] = p
    F[cnt + C_WORDS] = words
    F[cnt + C_WORDS0] = words0
    F[cnt + C_PLANEOF] = planeof
    F[cnt + C_ORDER] = order
    k = 0
    for dr in range(-1, 2):
        for dc in range(-1, 2):
            if dr != 0 or dc != 0:
                F[cnt + C_OFF + k] = dr * w2 + dc
                k += 1
    for x in range(FIRE_SIZE):
        F[z + x] = fires(x)
    for j in range(p):
        F[words0 + j] = NB_BORDER_WORD
        F[words + p + j] = -1
    for r in range(h):
        for c in range(w):
            i = r * w + c
            j = words + (r + 1) * w2 + c + 1
            S[i, F_PLANE] = j
            F[planeof + i] = j
            F[j + p] = i
            k = 0
            mask = 0
            for dr in range(-1, 2):
                for dc in range(-1, 2):
                    if dr == 0 and dc == 0:
                        continue
                    rr = r + dr
                    cc = c + dc
                    if 0 <= rr < h and 0 <= cc < w:
                        S[i, F_NBR + S[i, F_NNB]] = rr * w + cc
                        S[i, F_NNB] += 1
                        mask |= 1 << k
                    k += 1
            # no mines yet: every hidden neighbour is safe (add_mine moves one to ML)
            F[j - words + words0] = (NB_ZERO + S[i, F_NNB] * NB_SL
                                     + (mask << NB_MASK_SHIFT) + NB_NOTREV)
    reset_state(S)
    return S


@njit(cache=True)
def ncells(S):
    """Number of cells N (row N holds the counters)."""
    return S[S.shape[0] - 1, K - 1]


@njit(cache=True)
def ncells_flat(F):
    """:func:`ncells` of :func:`flat` state."""
    return F[F.shape[0] - 1]


@njit(cache=True)
def flat(S):
    """The state as one flat array (a view): what the hot kernels take."""
    return S.reshape(S.size)


@njit(cache=True)
def reset_state(S):
    """Clear mines, clues, the agent-side state and the counters for a new game."""
    n = ncells(S)
    for j in range(C_GAME_END):
        S[n, j] = 0
    F = flat(S)
    words = np.uint64(S[n, C_WORDS])
    words0 = np.uint64(S[n, C_WORDS0])
    for j in range(np.uint64(S[n, C_P])):  # unsigned: the copy vectorizes
        F[words + j] = F[words0 + j]


@njit(cache=True)
def moves(S):
    """Number of moves so far (each reveals, flags or detonates one cell)."""
    n = ncells(S)
    return S[n, C_REV] + S[n, C_FLAG] + S[n, C_DET]


@njit(cache=True)
def hidden_left(S):
    n = ncells(S)
    return n - S[n, C_REV] - S[n, C_FLAG] - S[n, C_DET]


@njit(cache=True)
def word(S, c):
    """Cell ``c``'s word."""
    return _get(S, S[c, F_PLANE])


@njit(cache=True)
def _get(S, j):
    """The int at flat index ``j`` of 2-D state ``S``."""
    return S[j >> _KSHIFT, j & (K - 1)]


@njit(cache=True)
def _put(S, j, v):
    S[j >> _KSHIFT, j & (K - 1)] = v


@njit(cache=True)
def status(S, c):
    """HIDDEN, REVEALED, FLAGGED or DETONATED."""
    return w_status(word(S, c))


@njit(cache=True, inline="always")
def w_status(w):
    """The status in word ``w`` (loops that need several fields read the word once)."""
    return (w >> NB_ST_SHIFT) & 3


@njit(cache=True, inline="always")
def w_hidden(w):
    """The number of hidden neighbours in word ``w``."""
    return mines_left(w) + safe_left(w)


@njit(cache=True, inline="always")
def w_mines(w):
    """The number of known-mine neighbours in word ``w``."""
    return ((w >> NB_CLUE_SHIFT) & 0xF) - mines_left(w)


@njit(cache=True)
def clue(S, c):
    """Cell ``c``'s true clue (agents may read it only once the cell is revealed)."""
    return (word(S, c) >> NB_CLUE_SHIFT) & 0xF


@njit(cache=True)
def is_mine(S, c):
    """1 if a mine is on cell ``c`` (for results and checks, never for agents)."""
    return (word(S, c) >> 20) & 1


@njit(cache=True, inline="always")
def mines_left(w):
    """Clue minus known-mine neighbours, from a word."""
    return (w & NB_FIELD) - NB_BIAS


@njit(cache=True, inline="always")
def safe_left(w):
    """Hidden neighbours minus (clue minus known-mine neighbours), from a word."""
    return ((w >> NB_SL_SHIFT) & NB_FIELD) - NB_BIAS


@njit(cache=True)
def nb_hidden(S, c):
    """Number of hidden neighbours of cell ``c``."""
    return w_hidden(word(S, c))


@njit(cache=True)
def nb_mines(S, c):
    """Number of known-mine (flagged or detonated) neighbours of cell ``c``."""
    return w_mines(word(S, c))


@njit(cache=True)
def set_cell(S, c, st, clue_):
    """Set cell ``c``'s status and clue (for states not built by actions; call
    :func:`recount` on every cell afterwards)."""
    w = word(S, c) & ~(NB_ST | (0xF << NB_CLUE_SHIFT))
    _put(S, S[c, F_PLANE], w | (st << NB_ST_SHIFT) | (clue_ << NB_CLUE_SHIFT))


@njit(cache=True)
def recount(S, c):
    """Rebuild cell ``c``'s word from its neighbours' statuses and its own status and
    clue; the cell is left off the work list. Used for states not built by actions."""
    n = ncells(S)
    j = S[c, F_PLANE]
    w = _get(S, j)
    h = 0
    m = 0
    mask = 0
    for k in range(8):
        d = j + S[n, C_OFF + k]
        wd = _get(S, d)
        if wd & NB_BORDER:
            continue
        st = w_status(wd)
        if st == HIDDEN:
            h += 1
            mask |= 1 << k
        elif st == FLAGGED or st == DETONATED:
            m += 1
    ml = ((w >> NB_CLUE_SHIFT) & 0xF) - m
    rev = w_status(w) == REVEALED
    _put(S, j, (w & (NB_MINE | NB_ST | (0xF << NB_CLUE_SHIFT))) + NB_ZERO + ml * NB_ML
         + (h - ml) * NB_SL + (mask << NB_MASK_SHIFT) + (0 if rev else NB_NOTREV))


@njit(cache=True)
def add_mine(S, c):
    """Place a mine on cell ``c`` of a reset state (see :func:`add_mine_flat`)."""
    F = flat(S)
    n = ncells(S)
    add_mine_flat(F, S[c, F_PLANE], np.uint64(n) * np.uint64(K))


@njit(cache=True, inline="always")
def add_mine_flat(F, p, cnt):
    """Place a mine on the word at flat index ``p``: its neighbours' clues go up, and so
    does each one's mines-left (their safe-left goes down). ``cnt``: row N's flat index."""
    F[p] |= NB_MINE
    for k in range(8):
        F[p + np.uint64(F[cnt + np.uint64(C_OFF + k)])] += NB_ML - NB_SL + NB_CLUE


@njit(cache=True)
def cell_of(F, p):
    """The cell of the word at flat index ``p`` (``F`` is :func:`flat` state)."""
    return F[p + F[_ix(ncells_flat(F), C_P)]]


@njit(cache=True, inline="always")
def _ix(c, f):
    """Flat index of field ``f`` of row ``c``: the hot kernels index ``S.reshape(-1)``.

    Why: 2-D indexing multiplies by the run-time row stride, and a signed index gets a
    negative-index fix-up (three instructions); with the constant K and an unsigned index
    both go.
    """
    return np.uint64(c) * np.uint64(K) + np.uint64(f)


@njit(cache=True)
def act(S, c, kind, why, ref, a):
    """Apply one action to hidden cell ``c``; return the outcome.

    kind A_REVEAL / A_GUESS: query the cell; outcome is its clue, or -1 if it was a mine
    (detonated: the agent learns it is a mine, no clue). kind A_FLAG: mark a mine;
    outcome -2. Neighbour words and the work list are updated here, once per action.
    """
    return act_flat(flat(S), S[c, F_PLANE], kind, why, ref, a)


@njit(cache=True)
def act_flat(F, p, kind, why, ref, a):
    """:func:`act` on :func:`flat` state and the word at flat index ``p``."""
    cnt = _ix(ncells_flat(F), 0)
    out, q = _act(F, cnt, F[cnt + np.uint64(C_W2)], p, kind, why, ref, a,
                  F[cnt + np.uint64(C_QLEN)])
    F[cnt + np.uint64(C_QLEN)] = q
    return out


@njit(cache=True, inline="always")
def _touch(F, d, delta, fire_base, queue, q):
    """Update neighbour word ``d`` by ``delta``; push it if a rule now fires on it.
    Branch-free: the slot at the top of the work list is always written (the list has a
    spare slot), and the length advances by 0 or 1. Returns the new length."""
    w = F[d] + delta
    fire = F[fire_base + np.uint64(w & NB_FIRE_BITS)]
    F[queue + np.uint64(q)] = np.int32(d)
    F[d] = w | (fire * NB_QUEUED)
    return q + fire


@njit(cache=True, inline="always")
def _act(F, cnt, w2, p, kind, why, ref, a, q):
    """The action (see :func:`act`) on word ``p``, with row N at flat index ``cnt``, plane
    width ``w2`` and work-list length ``q`` held by the caller (in a register, in the
    rule loop). Returns (outcome, new length)."""
    pu = np.uint64(p)
    w0 = F[pu]
    fire_base = cnt + np.uint64(K)
    queue = fire_base + np.uint64(FIRE_SIZE)
    if kind == A_FLAG:
        F[pu] = w0 | (FLAGGED << NB_ST_SHIFT)
        F[cnt + np.uint64(C_FLAG)] += 1
        if (w0 & NB_MINE) == 0:
            F[cnt + np.uint64(C_WRONG_FLAG)] += 1
        out = -2
        delta = -NB_ML  # the neighbours have one unknown mine fewer
    elif (w0 & NB_MINE) != 0:
        F[pu] = w0 | (DETONATED << NB_ST_SHIFT)
        F[cnt + np.uint64(C_DET)] += 1
        if kind == A_REVEAL:
            F[cnt + np.uint64(C_SAFE_DET)] += 1
        out = -1
        delta = -NB_ML
    else:
        F[cnt + np.uint64(C_REV)] += 1
        out = (w0 >> NB_CLUE_SHIFT) & 0xF
        # it may already satisfy a rule: push it (branch-free, as in _touch)
        w = (w0 & ~NB_NOTREV) | (REVEALED << NB_ST_SHIFT)
        fire = F[fire_base + np.uint64(w & NB_FIRE_BITS)]
        F[queue + np.uint64(q)] = np.int32(p)
        q += fire
        F[pu] = w | (fire * NB_QUEUED)
        delta = -NB_SL  # the neighbours have one unknown safe cell fewer
    if kind == A_GUESS:
        F[cnt + np.uint64(C_GUESS)] += 1
    if F[cnt + np.uint64(C_TRACE)] != 0:
        # this is move m (counted from 0): every move reveals, flags or detonates a cell
        m = F[cnt + np.uint64(C_REV)] + F[cnt + np.uint64(C_FLAG)] + F[cnt + np.uint64(C_DET)]
        im = _ix(m - 1, 0)
        cells = np.uint64(F[cnt + np.uint64(C_P)])  # word p's cell is at p + cells
        F[im + np.uint64(F_TKIND)] = kind
        F[im + np.uint64(F_TCELL)] = F[pu + cells]
        F[im + np.uint64(F_TOUT)] = out
        F[im + np.uint64(F_TWHY)] = why
        if why == R_CLUE_MINES or why == R_CLUE_SAFE:  # the rule loop passes a word index
            ref = F[np.uint64(ref) + cells]
        F[im + np.uint64(F_TREF)] = ref
        F[im + np.uint64(F_TA)] = a
    # Each neighbour: one hidden neighbour fewer (delta and this cell's bit in its mask:
    # this cell is in direction 7 - k of its neighbour in direction k), written out so
    # that every step has constant offsets.
    up = pu - np.uint64(w2)
    dn = pu + np.uint64(w2)
    one = np.uint64(1)
    q = _touch(F, up - one, delta - (1 << (NB_MASK_SHIFT + 7)), fire_base, queue, q)
    q = _touch(F, up, delta - (1 << (NB_MASK_SHIFT + 6)), fire_base, queue, q)
    q = _touch(F, up + one, delta - (1 << (NB_MASK_SHIFT + 5)), fire_base, queue, q)
    q = _touch(F, pu - one, delta - (1 << (NB_MASK_SHIFT + 4)), fire_base, queue, q)
    q = _touch(F, pu + one, delta - (1 << (NB_MASK_SHIFT + 3)), fire_base, queue, q)
    q = _touch(F, dn - one, delta - (1 << (NB_MASK_SHIFT + 2)), fire_base, queue, q)
    q = _touch(F, dn, delta - (1 << (NB_MASK_SHIFT + 1)), fire_base, queue, q)
    q = _touch(F, dn + one, delta - (1 << NB_MASK_SHIFT), fire_base, queue, q)
    return out, q

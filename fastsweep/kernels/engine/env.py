"""The environment and the agent's knowledge: a game's state in one int32 array, the
queries and the observation primitives.

The layout of the state (regions, fields, counters) is defined in ``layout.py``. This
module builds states (:func:`new_state`, :func:`reset_state`), places mines in the truth
plane and reads fields through accessors; ``actions.py`` applies moves:

* :func:`act` is the environment's answer to one move: it decides the value shown
  (:func:`_answer`: the true clue, or a recorded tape) and passes it to the agent's
  knowledge through one observation;
* the knowledge changes only through :func:`observe` (cell revealed, showing a value),
  :func:`observe_mine` (cell detonated: a mine) and :func:`flag` (the agent's own mark).
  A look-ahead copies the knowledge (:func:`save_knowledge`) and observes hypothetical
  values on it; the inference API builds knowledge from a typed-in view with no board.

Why one array: every array argument of a Numba call costs two reference-count calls that
LLVM cannot remove (measured: a 4-array helper call costs ~70 ns, a 1-array call ~3 ns),
and the actions run once per move.

Why the plane: an action updates its 8 neighbours, and each update is one load, one add
and one store into a few kilobytes that stay in the L1 cache (a 30 x 30 plane is 4 KB).
With a row per cell each update also loaded the neighbour's index and touched a
128-byte row: about 0.6x the time per game for the plane.

Why mines-left / safe-left rather than counts: a single-clue rule fires exactly when one
of the two is zero and the other is not, so the test needs neither the clue nor a
subtraction; an action lowers exactly one of them. Before a cell is observed its word
counts "nothing known": ML = -(known-mine neighbours), SL = neighbours - revealed
neighbours; observing value v adds v to ML and takes it from SL, which gives exactly
ML = v - known mines and SL = hidden - ML. The bias of 8 keeps both fields non-negative
for every state, even inconsistent ones, so no field borrows from the next.
Why the fire table: whether a word belongs on the work list depends only on its low 12
bits (ML, SL, not revealed, queued), so it is one load from a 4096-entry table instead of
eight arithmetic operations; the update is branch-free because whether a random
neighbour qualifies is unpredictable. Why the hidden mask: the rule loop visits exactly
the hidden neighbours of a cell (see ``bits.lowest_bit``).
"""
import numpy as np

from ..jit import njit
from .layout import (
    C_AGENT_CACHE, C_DET, C_DROPPED, C_FLAG, C_GAME_END, C_KMINES, C_OFF, C_ORDER, C_P,
    C_PLANEOF, C_REV, C_W2, C_WORDS, C_WORDS0, DETONATED, F_NBR, F_NNB, F_PLANE, FIRE_SIZE, FLAGGED, HIDDEN,
    K, KSHIFT, NB_BIAS, NB_BLANK, NB_BORDER, NB_BORDER_WORD, NB_CLUE_MASK, NB_CLUE_SHIFT,
    NB_FIELD, NB_MASK, NB_MASK_SHIFT, NB_ML, NB_ML_SHIFT, NB_NOTREV, NB_QUEUED, NB_SL,
    NB_SL_SHIFT, NB_ST, NB_ST_MASK, NB_ST_SHIFT, NB_ZERO, NOISE_INTS, REVEALED, NB_OBS,
    T_MINE, T_ROUND, WORK_INTS,
)

_KSHIFT = KSHIFT


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
    """Allocate the state of an empty h x w board (no mines, nothing known), tables
    filled in (layout: ``layout.py``)."""
    n = h * w
    w2 = w + 2
    p = (h + 2) * w2
    z = (n + 1) * K  # FIRE: the region after row N
    words = z + FIRE_SIZE + n + 1  # PLANE, after FIRE and QUEUE (n + 1 slots)
    words0 = words + 3 * p  # TEMPLATE, after PLANE, TRUTH and CELLOF
    planeof = words0 + p
    order = planeof + n
    size = order + n + NOISE_INTS + WORK_INTS + 1  # + NOISE, WORK; the last int holds n
    S = np.zeros(((size + K - 1) // K, K), np.int32)
    F = S.reshape(S.size)
    cnt = n * K
    F[-1] = n
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
        F[words + 2 * p + j] = -1
    for r in range(h):
        for c in range(w):
            i = r * w + c
            j = words + (r + 1) * w2 + c + 1
            S[i, F_PLANE] = j
            F[planeof + i] = j
            F[j + 2 * p] = i
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
            # nothing known: no known mines (ML 0), no revealed neighbours (SL = all)
            F[j - words + words0] = (NB_ZERO + S[i, F_NNB] * NB_SL
                                     + (mask << NB_MASK_SHIFT) + NB_NOTREV)
    reset_state(S)
    return S


# The accessors that read or write one word or counter are inlined by Numba: as calls,
# each paid a reference-count pair for its array argument (docs/DESIGN.md, speed record
# of issue 16: a few percent of every agent's time, for 5% more cold compile).
@njit(cache=True, inline="always")
def ncells(S):
    """Number of cells N (row N holds the counters)."""
    return S[S.shape[0] - 1, K - 1]


@njit(cache=True, inline="always")
def ncells_flat(F):
    """:func:`ncells` of :func:`flat` state."""
    return F[F.shape[0] - 1]


@njit(cache=True, inline="always")
def flat(S):
    """The state as one flat array (a view): what the hot kernels take."""
    return S.reshape(S.size)


@njit(cache=True, inline="always")
def work_at(S):
    """Flat index of the WORK region (``work.py``): after ORDER and NOISE."""
    n = ncells(S)
    return S[n, C_ORDER] + n + NOISE_INTS


@njit(cache=True)
def reset_state(S):
    """A new game: no mines (truth), nothing known (knowledge), counters cleared."""
    n = ncells(S)
    for j in range(C_GAME_END):
        S[n, j] = 0
    S[n, C_KMINES] = -1
    F = flat(S)
    words = np.uint64(S[n, C_WORDS])
    words0 = np.uint64(S[n, C_WORDS0])
    p = np.uint64(S[n, C_P])
    for j in range(p):  # unsigned: the copies vectorize
        F[words + j] = F[words0 + j]
    truth = words + p
    for j in range(p):
        F[truth + j] = 0


@njit(cache=True, inline="always")
def moves(S):
    """Number of moves so far (each reveals, flags or detonates one cell)."""
    n = ncells(S)
    return S[n, C_REV] + S[n, C_FLAG] + S[n, C_DET]


@njit(cache=True, inline="always")
def hidden_left(S):
    """Cells neither revealed, flagged nor detonated."""
    n = ncells(S)
    return n - S[n, C_REV] - S[n, C_FLAG] - S[n, C_DET]


@njit(cache=True, inline="always")
def hidden_left_flat(F):
    """:func:`hidden_left` of :func:`flat` state."""
    n = ncells_flat(F)
    return n - F[_ix(n, C_REV)] - F[_ix(n, C_FLAG)] - F[_ix(n, C_DET)]


@njit(cache=True, inline="always")
def mines_left_known(S):
    """The mine total as told to the agent minus its known mines (negative: not told)."""
    n = ncells(S)
    return S[n, C_KMINES] - S[n, C_FLAG] - S[n, C_DET]


@njit(cache=True, inline="always")
def word(S, c):
    """Cell ``c``'s knowledge word."""
    return _get(S, S[c, F_PLANE])


@njit(cache=True)
def truth(S, c):
    """Cell ``c``'s truth word (the environment's alone)."""
    return _get(S, S[c, F_PLANE] + S[ncells(S), C_P])


@njit(cache=True, inline="always")
def _get(S, j):
    """The int at flat index ``j`` of 2-D state ``S``."""
    return S[j >> _KSHIFT, j & (K - 1)]


@njit(cache=True, inline="always")
def _put(S, j, v):
    S[j >> _KSHIFT, j & (K - 1)] = v


@njit(cache=True, inline="always")
def status(S, c):
    """HIDDEN, REVEALED, FLAGGED or DETONATED."""
    return w_status(word(S, c))


@njit(cache=True, inline="always")
def w_status(w):
    """The status in word ``w`` (loops that need several fields read the word once)."""
    return (w >> NB_ST_SHIFT) & NB_ST_MASK


@njit(cache=True, inline="always")
def w_clue(w):
    """The observed clue in word ``w`` (0 if the cell was not observed)."""
    return (w >> NB_CLUE_SHIFT) & NB_CLUE_MASK


@njit(cache=True, inline="always")
def w_mask(w):
    """The hidden-neighbour mask in word ``w`` (bit k: the neighbour in direction k)."""
    return (w >> NB_MASK_SHIFT) & NB_MASK


@njit(cache=True, inline="always")
def w_hidden(w):
    """The number of hidden neighbours in word ``w``."""
    return mines_left(w) + safe_left(w)


@njit(cache=True, inline="always")
def w_mines(w):
    """The number of known-mine neighbours in word ``w``."""
    return w_clue(w) - mines_left(w)


@njit(cache=True, inline="always")
def clue(S, c):
    """Cell ``c``'s observed clue (0 if not observed): what the agent was shown."""
    return w_clue(word(S, c))


@njit(cache=True)
def true_clue(S, c):
    """Cell ``c``'s true clue (the environment's; never for agents)."""
    return t_clue(truth(S, c))


@njit(cache=True, inline="always")
def t_clue(t):
    """The true clue in truth word ``t``."""
    return ((t & ~T_MINE) + T_ROUND) >> NB_CLUE_SHIFT


@njit(cache=True)
def is_mine(S, c):
    """1 if a mine is on cell ``c`` (the environment's: results and checks, never agents)."""
    return 1 if truth(S, c) & T_MINE else 0


@njit(cache=True, inline="always")
def mines_left(w):
    """Observed clue minus known-mine neighbours, from a word."""
    return ((w >> NB_ML_SHIFT) & NB_FIELD) - NB_BIAS


@njit(cache=True, inline="always")
def safe_left(w):
    """Hidden neighbours minus mines left, from a word."""
    return ((w >> NB_SL_SHIFT) & NB_FIELD) - NB_BIAS


@njit(cache=True, inline="always")
def nb_hidden(S, c):
    """Number of hidden neighbours of cell ``c``."""
    return w_hidden(word(S, c))


@njit(cache=True, inline="always")
def nb_mines(S, c):
    """Number of known-mine (flagged or detonated) neighbours of cell ``c``."""
    return w_mines(word(S, c))


@njit(cache=True)
def set_cell(S, c, st, clue_):
    """Set cell ``c``'s status and observed clue (knowledge typed in, not built by
    observations: call :func:`recount` on every cell afterwards)."""
    w = word(S, c) & ~(NB_ST | (NB_CLUE_MASK << NB_CLUE_SHIFT))
    _put(S, S[c, F_PLANE], w | (st << NB_ST_SHIFT) | (clue_ << NB_CLUE_SHIFT))


@njit(cache=True)
def recount(S, c):
    """Rebuild cell ``c``'s word from its neighbours' statuses and its own status and
    observed clue; the cell is left off the work list. For knowledge typed in."""
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
    ml = w_clue(w) - m
    rev = w_status(w) == REVEALED
    _put(S, j, (w & (NB_ST | (NB_CLUE_MASK << NB_CLUE_SHIFT))) + NB_ZERO + ml * NB_ML
         + (h - ml) * NB_SL + (mask << NB_MASK_SHIFT) + (0 if rev else NB_NOTREV))


@njit(cache=True, inline="always")
def w_blank(w):
    """Whether word ``w`` is a blank: revealed safe, no usable clue (see layout.py)."""
    return (w & NB_BLANK) != 0


@njit(cache=True, inline="always")
def w_is_clue(w):
    """Whether word ``w`` is a revealed cell with a usable clue (not a blank)."""
    return (w & (NB_ST | NB_BLANK)) == (REVEALED << NB_ST_SHIFT)


@njit(cache=True)
def drop_clue(S, c):
    """The agent stops using revealed cell ``c``'s clue (its other knowledge contradicts
    it): the word becomes a blank (the shown value stays in its clue field, for the
    record) and the drop is counted. Only between rule loops (the work list is empty)."""
    j = S[c, F_PLANE]
    w = _get(S, j) & ~(NB_FIELD | (NB_FIELD << NB_SL_SHIFT))
    _put(S, j, w | NB_ZERO | NB_BLANK | NB_QUEUED)
    S[ncells(S), C_DROPPED] += 1
    # an agent's cache keyed by the cells' words (incremental.py) does not see this: the
    # neighbours' words are unchanged, yet their component lost a constraint
    S[ncells(S), C_AGENT_CACHE] = 0


@njit(cache=True)
def contradicted(S):
    """Revealed clues (not blanks) that the agent's knowledge contradicts on their own:
    more known mines around than the clue shows, or fewer hidden neighbours than the
    mines it still needs. The single-clue rules never fire on them (so rule-only agents
    in effect drop them); the results count them with the dropped clues."""
    k = 0
    for c in range(ncells(S)):
        w = word(S, c)
        if w_status(w) == REVEALED and not w_blank(w) and (mines_left(w) < 0
                                                           or safe_left(w) < 0):
            k += 1
    return k


@njit(cache=True)
def add_mine(S, c):
    """Place a mine on cell ``c`` of a reset state (see :func:`add_mine_flat`)."""
    n = ncells(S)
    add_mine_flat(flat(S), S[c, F_PLANE], np.uint64(n) * np.uint64(K))


@njit(cache=True, inline="always")
def add_mine_flat(F, p, cnt):
    """Place a mine on the word at flat index ``p``, in the truth plane: the mine bit,
    and each neighbour's true clue goes up. ``cnt``: row N's flat index."""
    t = np.uint64(p) + np.uint64(F[cnt + np.uint64(C_P)])
    F[t] |= T_MINE
    for k in range(8):
        F[t + np.uint64(F[cnt + np.uint64(C_OFF + k)])] += NB_OBS


@njit(cache=True)
def cell_of(F, p):
    """The cell of the word at flat index ``p`` (``F`` is :func:`flat` state)."""
    return F[p + 2 * F[_ix(ncells_flat(F), C_P)]]


@njit(cache=True, inline="always")
def _ix(c, f):
    """Flat index of field ``f`` of row ``c``: the hot kernels index ``S.reshape(-1)``.

    Why: 2-D indexing multiplies by the run-time row stride, and a signed index gets a
    negative-index fix-up (three instructions); with the constant K and an unsigned index
    both go.
    """
    return np.uint64(c) * np.uint64(K) + np.uint64(f)

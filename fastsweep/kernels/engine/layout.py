"""The state's layout in one place: regions, row fields, counters and the packed words.

A game's whole state is one int32 array ``S`` of shape (R, K), K = 32 (see ``env.py`` for
why one array). Read as a flat run of ints (``env.flat``) it holds, in order::

    rows 0..N-1   one row per cell: static neighbour list, agent scratch, trace  (F_*)
    row N         counters and layout constants                                   (C_*)
    FIRE          fire table: 4096 ints, 1 where a word's low 12 bits fire a rule
    QUEUE         work list: N + 1 slots of word indices
    PLANE         knowledge: one word per cell of the (H+2) x (W+2) padded board  (NB_*)
    TRUTH         truth: one word per plane position, mine bit and true clue      (T_*)
    CELLOF        the cell of each plane position (-1 on the border)
    TEMPLATE      the knowledge plane of a new game (copied by reset_state)
    PLANEOF       each cell's word index (compact, for the shuffle)
    ORDER         the guess order: word indices of a random permutation of the cells
    NOISE         the sensor's noise: NOISE_INTS ints (N_*), see ``noise.py``
    WORK          the work a game's analyses did: WORK_INTS ints (WK_*), see ``work.py``
    (padding; the array's last int holds N)

PLANE, TRUTH, CELLOF and TEMPLATE are P = (H+2)(W+2) ints each and follow one another,
so the truth of the word at flat index p is at ``p + P`` and its cell at ``p + 2P``.

Truth vs knowledge: TRUTH and the environment counters (C_MINES, C_WRONG_FLAG,
C_SAFE_DET) are read only by the environment (set-up, the answer to a query, scoring).
Everything an agent reasons on is in PLANE and the knowledge counters, and changes only
through the observation primitives in ``env.py``.

The knowledge word (``NB_*``; each field a shift and a mask, read with ``w_*``)::

    bits 0-4    ML  mines left among the hidden neighbours, + 8: observed clue minus
                    known-mine neighbours (before an observation: minus known mines)
    bits 5-9    SL  safe cells left among the hidden neighbours, + 8 (= hidden - ML)
    bit 10      not revealed
    bit 11      queued: the cell is or was on the work list
    bits 12-19  which neighbours are hidden (bit 12 + k: direction k, in the order
                (-1,-1) (-1,0) (-1,1) (0,-1) (0,1) (1,-1) (1,0) (1,1))
    bits 21-22  status: HIDDEN / REVEALED / FLAGGED / DETONATED
    bits 23-26  the observed clue (0 until the cell is observed)
    bit 27      blank: revealed safe, but no usable clue (the sensor showed nothing, or
                the agent dropped a clue its other knowledge contradicts); ML = SL = 0
                at that moment and queued, so it never fires and its hidden count
                (ML + SL) is never positive: no code takes it for a constraint
    bit 29      a border word, not a cell

The truth word (``T_*``): the true clue times ``NB_OBS`` (what observing it adds to the
knowledge word), plus ``T_MINE`` on a mine.
"""
# statuses
HIDDEN = 0
REVEALED = 1
FLAGGED = 2
DETONATED = 3

K = 32  # ints per row; row N needs 32 counters; a power of two: flat j is row j >> 5
KSHIFT = 5

# ---------------------------------------------------------------- per-cell rows
F_PLANE = 0  # flat index of the cell's knowledge word
F_NNB = 1  # number of neighbours
F_NBR = 2  # .. 9: neighbour cells
F_AUX = 10  # agent scratch (e.g. a cell's box or constraint id in an analysis)
F_TKIND = 11  # the trace: row m describes move m
F_TCELL = 12
F_TOUT = 13  # (in tape mode, filled in advance: the answer the environment gives)
F_TWHY = 14
F_TREF = 15
F_TA = 16
# the agent's record of a reveal under a noisy sensor (written only then): what it knew
# around the cell when it was revealed (the optimistic / cautious likelihoods need it)
# and the reveal's rank (which clue is the newest)
F_RM = 17  # known-mine neighbours at the reveal
F_RH = 18  # hidden neighbours at the reveal
F_SEQ = 19  # cells revealed before it

# ---------------------------------------------------------------- row N: counters
# knowledge counters (cleared by reset_state)
C_REV = 0  # cells revealed
C_FLAG = 1  # cells flagged
C_DET = 2  # cells detonated
C_GUESS = 3  # guesses made (a statistic of the agent's moves)
C_KMINES = 4  # the mine total as told to the agent; -1: not told
C_GPTR = 5  # guess-order pointer
C_QLEN = 6  # work-list length
C_APPROX = 10  # analyses that exceeded the exact work budget
C_AGENT_CACHE = 11  # 0 after reset_state: an agent's cache from an earlier game is invalid
# environment counters (cleared by reset_state; agents never read them)
C_MINES = 7  # mines on the board
C_WRONG_FLAG = 8  # flags on safe cells: must stay 0 under exact sensors
C_SAFE_DET = 9  # detonations on deduced-safe reveals: must stay 0 under exact sensors
C_SENSOR = 12  # how queries are answered: SENSOR_EXACT or SENSOR_TAPE
C_DROPPED = 13  # clues the agent dropped (its other knowledge contradicted them)
C_SOFT = 15  # 1: the agent reads the clues as noisy (likelihoods), not as constraints
C_GAME_END = 16  # columns below this are per game
# layout constants (set by new_state, kept by reset_state)
C_TRACE = 16  # 1: record moves in the F_T* columns
C_NOISE = 17  # the sensor's noise model (NOISE_*; 0: exact clues)
C_W2 = 18  # plane width, W + 2
C_P = 19  # plane size P, (H + 2) * (W + 2)
C_WORDS = 20  # flat index of PLANE
C_WORDS0 = 21  # flat index of TEMPLATE
C_PLANEOF = 22  # flat index of PLANEOF
C_ORDER = 23  # flat index of ORDER
C_OFF = 24  # .. 31: word offset of the neighbour in each direction

SENSOR_EXACT = 0  # the true clue of the truth plane
SENSOR_TAPE = 1  # the answers written in advance in the trace's F_TOUT column (tests)

# noise models (C_NOISE) and the NOISE region's ints: two probabilities as 30-bit
# cut-offs (an event of probability p happens when 30 random bits are below p * 2**30)
# and the game's 64-bit noise key (two ints), set by the game's set-up
NOISE_NONE = 0
NOISE_DETECTOR = 1  # each mined neighbour missed with p_neg, each safe one counted with p_pos
NOISE_REVEAL = 2  # the clue shown with probability p, else nothing
NOISE_OPTIMISTIC = 3  # with probability p: uniform on [known mines, true clue]
NOISE_CAUTIOUS = 4  # with probability p: uniform on [true clue, known mines + hidden]
N_CUT_A = 0
N_CUT_B = 1
N_KEY_LO = 2
N_KEY_HI = 3
NOISE_INTS = 4
# the WORK region (``work.py``): counters of the analyses' work (per game) and, when a
# profile asks for them, the seconds of each phase; WK_FLAG is kept across games
WK_FLAG = 0  # 1: the phase clocks run (set from params[P_PROFILE] by new_batch_state)
WK_PHASE = 1  # the phase running now (PH_*)
WK_T = 2  # .. 3: the clock when it began (whole seconds, nanoseconds)
WK_ANALYSES = 4  # analyses run (a count of the components of one frontier)
WK_COMPONENTS = 5  # components counted
WK_COMP_MAX = 6  # cells of the largest component counted
WK_STATES = 7  # states the path and tree DPs made
WK_WHATIFS = 8  # what-if positions (an outcome of a candidate cell) evaluated
WK_SECS = 9  # .. 9 + 2 * N_PHASES: each phase's time (whole seconds, nanoseconds)
PH_RULES = 0  # everything outside the phases below: single-clue rules, moves, the scans
PH_FRONTIER = 1  # building the frontier's constraints and components
PH_COUNT = 2  # counting the components (path and tree DPs' forward passes)
PH_COMBINE = 3  # combining them: backward passes, the mine total, probabilities
PH_WHATIF = 4  # what-ifs: outcomes of candidate cells (their analyses not included)
N_PHASES = 5
WORK_INTS = WK_SECS + 2 * N_PHASES
NOISE_BITS = 30
OUT_BLANK = -3  # a reveal's outcome when the sensor showed nothing

# ---------------------------------------------------------------- the knowledge word
NB_BIAS = 8
NB_ML_SHIFT = 0
NB_SL_SHIFT = 5
NB_FIELD = 0x1F  # mask of ML and of SL
NB_ML = 1 << NB_ML_SHIFT  # field units
NB_SL = 1 << NB_SL_SHIFT
NB_NOTREV = 1 << 10
NB_QUEUED = 1 << 11
NB_FIRE_BITS = 0xFFF  # ML, SL, not revealed, queued: the fire table's index
NB_MASK_SHIFT = 12
NB_MASK = 0xFF
NB_ST_SHIFT = 21
NB_ST_MASK = 3
NB_ST = NB_ST_MASK << NB_ST_SHIFT
NB_CLUE_SHIFT = 23
NB_CLUE_MASK = 0xF
NB_CLUE = 1 << NB_CLUE_SHIFT  # field unit
NB_BLANK = 1 << 27
NB_BORDER = 1 << 29
NB_ZERO = NB_BIAS * (NB_ML + NB_SL)  # ML = SL = 0
# Border words: not revealed, so they never fire. Each one's fields start mid-range and
# take at most three updates per game (one per neighbouring cell), so they never borrow
# into the bits above; the plane is restored at every reset.
NB_BORDER_WORD = NB_BORDER + NB_NOTREV + 16 * (NB_ML + NB_SL) + (NB_MASK << NB_MASK_SHIFT)
FIRE_SIZE = NB_FIRE_BITS + 1

# ---------------------------------------------------------------- the truth word
# A safe cell's truth word is its true clue times NB_OBS: what observing that clue adds
# to the cell's knowledge word (ML + v, SL - v, clue field v), so a reveal needs no
# multiply. A mine adds T_MINE (bit 30). Read the clue with env.t_clue.
NB_OBS = NB_ML - NB_SL + NB_CLUE
T_MINE = 1 << 30
T_ROUND = 1 << 8  # t_clue: (t + T_ROUND) >> NB_CLUE_SHIFT undoes the low fields' borrow

# ---------------------------------------------------------------- actions and reasons
A_REVEAL = 0  # reveal of a cell the agent deduced safe
A_FLAG = 1
A_GUESS = 2  # reveal of a cell not known to be safe

# reasons (trace); what ref and a mean depends on the reason; the texts are in agents.py
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
R_LINALG_SAFE = 10  # decided by a row of the reduced row echelon form (a = cells decided)
R_LINALG_MINE = 11
R_BRUTE_SAFE = 12  # safe in every enumerated layout of its component (a = cells decided)
R_BRUTE_MINE = 13  # a mine in every enumerated layout of its component
R_BRUTE_GUESS = 14  # bruteforce guess (a = hidden cells; ref -1: the frontier cell of
#                     lowest share, p = that share; ref -2: an off-frontier cell, p = t)
R_SUBSET_SAFE = 15  # decided by a subset-reduced equation of value 0 (a = cells decided)
R_SUBSET_MINE = 16  # ... of value equal to its size (a = cells decided)
R_THRESHOLD_GUESS = 17  # threshold agent (a = cells revealed at once; 0: none below, the lowest)
R_RISK_GUESS = 18  # the risk agent's look-ahead (a = 100 x expected cells decided next)
R_FLAG_LIKELY = 19  # flagged at a posterior of at least flag_threshold (a = 1000 x it)
R_PSEQ_GUESS = 20  # PSEQ (a = deciding criterion 0..4 + 8 x round(1000 x its value))
R_LOOKAHEAD_GUESS = 21  # look-ahead score (ref = runner-up or -1; a packs both scores)
R_ENDGAME_GUESS = 22  # exact endgame search (a = winning layouts x 32768 + layouts)
R_FIFTY_GUESS = 23  # an unavoidable 50/50, guessed early (ref = the other cell)
R_PSEUDO_GUESS = 24  # a pseudo-50/50, guessed early (ref = its partner, a = shape cells)
R_CORNER_GUESS = 25  # corner_opening: the corner farthest from the opening (ref = it)
R_USER = 26  # a user's agent's move (a = its kind, see agents/user.py MOVE_*)


def regions(h, w):
    """Flat start of each region of an h x w state and its size in ints (Python side).

    >>> regions(2, 3)["PLANE"]
    (4327, 20)
    """
    n = h * w
    p = (h + 2) * (w + 2)
    out = {}
    at = 0
    for name, size in (("ROWS", n * K), ("COUNTERS", K), ("FIRE", FIRE_SIZE),
                       ("QUEUE", n + 1), ("PLANE", p), ("TRUTH", p), ("CELLOF", p),
                       ("TEMPLATE", p), ("PLANEOF", n), ("ORDER", n),
                       ("NOISE", NOISE_INTS), ("WORK", WORK_INTS)):
        out[name] = (at, size)
        at += size
    return out


def knowledge_ints(h, w):
    """Ints in a copy of an h x w knowledge state (counters row and PLANE)."""
    return K + (h + 2) * (w + 2)

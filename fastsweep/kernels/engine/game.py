"""The environment's game: set-up, the rules' loop steps, and recording results.

Shared by every agent family; the family modules (``run_basic.py``, ``run_exact.py``)
hold the game loop with their agent's move and the batch entry points, so a family
compiles only its own agents' kernels (a fresh install running the basic agent does
not compile the exact inference engine).

A configuration is passed as a small int64 array ``params`` (indices ``P_*``) plus a
float64 array ``fparams`` (``F_*``), so adding a rule or option does not change any
kernel signature. Results come back as an int64 table (columns ``OUT_*``) and per-game
wall-clock seconds.
"""

import numpy as np

from .board import choose, game_rng, shuffle
from ..jit import njit
from .sensor import clues_exact, set_noise, set_noise_key
from .actions import act_flat
from .env import (
    _ix, add_mine_flat, cell_of, contradicted, flat, hidden_left, is_mine, ncells,
    new_state, reset_state, status, true_clue, work_at,
)
from .env import moves as moves_made
from .layout import (
    A_GUESS, C_APPROX, C_DET, C_DROPPED, C_FLAG, C_GUESS, C_KMINES, C_MINES, C_NOISE,
    C_ORDER, C_P, C_PLANEOF, C_QLEN, C_SOFT, C_REV, C_SAFE_DET, C_SENSOR, C_TRACE, C_WORDS,
    C_WRONG_FLAG, F_NBR, F_NNB, F_PLANE, F_TA, F_TCELL, F_TKIND, F_TOUT, F_TREF, F_TWHY,
    N_PHASES, R_FIRST, SENSOR_TAPE, WK_ANALYSES, WK_COMPONENTS, WK_COMP_MAX, WK_STATES,
    WK_WHATIFS,
)
from .local import apply_mine_count, drain_local
from .timer import seconds
from .work import phase_ns, set_clocks, start_clocks, stop_clocks

RULES_KEEP_GOING = 0
RULES_CLASSIC = 1
FIRST_ANY = 0
FIRST_SAFE = 1
FIRST_ZERO = 2

P_RULES = 0
P_FIRST_CLICK = 1
P_FIRST_CELL = 2  # -1: random (first cell of the guess order)
P_MINES = 3
P_VARIANT = 4  # which of its family's variants (guess rule or reduction) the agent plays
P_MINE_COUNT = 5
P_BUDGET = 6  # work budget of exact analyses (agent-specific meaning)
P_H = 7  # board height
P_W = 8  # board width
P_SEED = 9  # root seed (the uint64's bits)
P_RISK_RULES = 10  # risk agent: 0 complete deduction, 1 single-clue rules
P_MAX_COMPONENT = 11  # bruteforce agents: largest component enumerated (cells)
P_NOISE = 12  # the sensor's noise model (layout.NOISE_*)
P_NOISE_CUT_A = 13  # its probabilities as 30-bit cut-offs (see sensor.py)
P_NOISE_CUT_B = 14
P_NOISE_AWARE = 15  # 1: inference / probability reason on the posterior under the noise
P_ENDGAME_MAX = 16  # lookahead: exact endgame search at or below this many layouts (0: off)
P_ENDGAME_NODES = 17  # lookahead: the endgame search's node budget per move
P_PSEUDO = 18  # lookahead: 1 guesses pseudo-50/50s early (pseudo.py)
P_CORNER = 19  # lookahead: 1 opens the far corner after a lone opening number
P_OFFEDGE = 20  # lookahead: 1 scores only Hill's off-frontier cells (offedge.py)
P_BLOCKS = 21  # lookahead: 1 also guesses unavoidable 50/50s over more cells (fifty.py)
P_FAR = 22  # lookahead: 1 breaks ties of equally safe cells by distance (offedge.py)
P_PROFILE = 23  # 1: run the phase clocks (work.py; set by fastsweep.profile, not an option)
P_LEN = 24

F_PRIOR = 0
F_THRESHOLD = 1  # threshold agent: reveal every cell below this mine probability
F_NOISE_A = 2  # the noise model's probabilities (p_neg, p_pos; or p), as the cut-offs
F_NOISE_B = 3
F_FLAG_THRESHOLD = 4  # noise-aware agents flag cells whose posterior is at least this
F_CUT = 5  # lookahead: candidates are cells at least this fraction as safe as the safest
F_LEN = 6

OUT_FLAGGED = 0
OUT_DETONATED = 1
OUT_REVEALED = 2
OUT_GUESSES = 3
OUT_MOVES = 4
OUT_WON = 5
OUT_WRONG_FLAGS = 6
OUT_SAFE_DETONATIONS = 7
OUT_APPROX = 8
OUT_MINES = 9
OUT_DROPPED = 10  # clues the agent dropped or found contradicted (noisy sensors)
# the work of the game's analyses (work.py), in a profile's work pass (the phase clocks
# on and a table of OUT_WORK_LEN columns): counters, then each phase's nanoseconds
OUT_ANALYSES = 11
OUT_COMPONENTS = 12
OUT_COMP_MAX = 13
OUT_STATES = 14
OUT_WHATIFS = 15
OUT_PHASE_NS = 16  # .. 16 + N_PHASES - 1, in the order of layout.PH_*
OUT_LEN = 11  # the result table's width; a profile's work pass gives OUT_WORK_LEN
OUT_WORK_LEN = OUT_PHASE_NS + N_PHASES  # (a wider table for every batch cost basic's
# 9x9 games 2-4% of wall time: zeroing the larger array)


@njit(cache=True, inline="always")
def local_rules(params):
    """Whether the single-clue rules are sound for this agent's reading of the clues:
    not for a noise-aware agent under noise whose clues can be wrong (see
    ``sensor.clues_exact``)."""
    return params[P_NOISE_AWARE] == 0 or clues_exact(params[P_NOISE], params[P_NOISE_CUT_A],
                                                      params[P_NOISE_CUT_B])


# what settle() leaves to the caller
OVER = 0  # the game is over
ACTED = 1  # the mine-count rule acted: settle again
AGENT = 2  # the agent must move


@njit(cache=True)
def _first_cell(S, params, layout):
    """The opening cell: fixed, or the first cell of the guess order (that the
    first-click rule allows, when the layout is given and cannot be re-drawn)."""
    fc = params[P_FIRST_CELL]
    if fc >= 0:
        return fc
    rule = params[P_FIRST_CLICK]
    F = flat(S)
    n = ncells(S)
    order = S[n, C_ORDER]
    if layout.shape[0] == 0 or rule == FIRST_ANY:
        return cell_of(F, F[order])
    for i in range(n):
        c = cell_of(F, F[order + i])
        if layout[c] == 1:
            continue
        if rule == FIRST_ZERO:
            ok = True
            for k in range(S[c, F_NNB]):
                if layout[S[c, F_NBR + k]] == 1:
                    ok = False
            if not ok:
                continue
        return c
    return -1  # the wrapper has checked that some cell qualifies


@njit(cache=True)
def setup_game(S, params, layout, game, scratch):
    """Draw the guess order and the mines of game ``game``; return the opening cell.
    ``scratch``: int32, 2N (zeros in its second half; left so).

    Two independent streams (order, mines) so that a game's guess order does not depend
    on the rules or the mine count: agents and configurations share their luck. Both
    draws permute the cells' word indices (``pool`` starts with cell i's at position i),
    so the guess order and the mines come out as word indices with no lookup.
    """
    n = ncells(S)
    seed = np.uint64(params[P_SEED])
    pool = scratch[:n]
    excluded = scratch[n:]
    F = flat(S)
    planeof = np.uint64(S[n, C_PLANEOF])
    order = np.uint64(S[n, C_ORDER])
    # (unsigned indices in these copies: without a negative-index fix-up they vectorize,
    # about 10x faster)
    for i in range(np.uint64(n)):
        F[order + i] = F[planeof + i]
    shuffle(game_rng(seed, game, 0), F, order, n)
    first = _first_cell(S, params, layout)
    reset_state(S)  # also clears mines and clues
    if layout.shape[0] > 0:
        m = 0
        for i in range(n):
            if layout[i] == 1:
                pool[m] = F[planeof + np.uint64(i)]
                m += 1
    else:
        m = params[P_MINES]
        rule = params[P_FIRST_CLICK]
        if rule == FIRST_ANY:
            for i in range(np.uint64(n)):
                pool[i] = F[planeof + i]
            k = n
        else:
            excluded[first] = 1
            if rule == FIRST_ZERO:
                for j in range(S[first, F_NNB]):
                    excluded[S[first, F_NBR + j]] = 1
            k = 0
            for i in range(n):
                if excluded[i] == 0:
                    pool[k] = F[planeof + np.uint64(i)]
                    k += 1
                excluded[i] = 0
        choose(game_rng(seed, game, 1), pool, k, m)
    set_noise_key(S, game_rng(seed, game, 2))  # a third stream: the sensor's noise
    S[n, C_SOFT] = 0 if local_rules(params) else 1
    cnt = _ix(n, 0)
    for j in range(m):  # clues by scattering from the mines: M*8 adds, not N*8 loads
        add_mine_flat(F, np.uint64(pool[j]), cnt)
    S[n, C_MINES] = m
    if params[P_MINE_COUNT] != 0:
        S[n, C_KMINES] = m  # the agent is told the total
    start_clocks(S)
    return first


@njit(cache=True)
def open_game(S, first):
    """The opening move on cell ``first``."""
    # (int64, as every other caller passes: an int32 here compiled act_flat, _observed
    # and _record a second time)
    act_flat(flat(S), S[first, F_PLANE], A_GUESS, R_FIRST, -1, np.int64(ncells(S)))


@njit(cache=True)
def settle(S, F, classic, mine_count, local=True):
    """The rules' part of a loop step: the single-clue rules to their closure (unless
    ``local`` is false: an agent that reads clues as noisy, for which they are not sound;
    the work list is then emptied), the end of the game, the mine-count rules. Returns
    OVER, ACTED (settle again) or AGENT (the agent must move). ``F`` is ``S`` flat.

    (A game loop that runs once per agent move may instead spell these steps out, as
    ``run_basic.run_game`` does: a call of this function costs four reference-count
    calls for its two arrays, which Numba cannot prune around its inner calls.)"""
    if classic and detonated(S):
        return OVER
    if local:
        drain_local(F, classic)
    else:
        S[ncells(S), C_QLEN] = 0
    if game_over(S, classic):
        return OVER
    if mine_count and apply_mine_count(S, classic) > 0:  # (the agent's rule)
        return ACTED
    return AGENT


@njit(cache=True)
def detonated(S):
    """Whether a mine has detonated (the classic rules end the game on it)."""
    return S[ncells(S), C_DET] > 0


@njit(cache=True)
def game_over(S, classic):
    """Whether the game is over once the single-clue rules are closed: no hidden cell
    left, or under the classic rules a detonation or every safe cell revealed. (It
    calls nothing: no reference counting when a loop calls it.)"""
    n = ncells(S)
    if classic and S[n, C_DET] > 0:
        return True
    if hidden_left(S) == 0:
        return True
    if classic and S[n, C_REV] == n - S[n, C_MINES]:
        return True  # won: every safe cell revealed
    return False


@njit(cache=True)
def new_batch_state(params, trace):
    """(state, set-up scratch) for games of ``params``' board."""
    h = params[P_H]
    w = params[P_W]
    S = new_state(h, w)
    if trace:
        S[h * w, C_TRACE] = 1
    set_noise(S, params[P_NOISE], params[P_NOISE_CUT_A], params[P_NOISE_CUT_B])
    set_clocks(S, 1 if params[P_PROFILE] != 0 else 0)
    return S, np.zeros(2 * h * w, np.int32)


@njit(cache=True)
def summarize(S, out, i):
    n = ncells(S)
    out[i, OUT_FLAGGED] = S[n, C_FLAG]
    out[i, OUT_DETONATED] = S[n, C_DET]
    out[i, OUT_REVEALED] = S[n, C_REV]
    out[i, OUT_GUESSES] = S[n, C_GUESS]
    out[i, OUT_MOVES] = moves_made(S)
    # won: no detonation and every safe cell revealed (a user's agent can end a game by
    # flagging safe cells, which resolves them without revealing them)
    out[i, OUT_WON] = 1 if S[n, C_DET] == 0 and S[n, C_REV] == n - S[n, C_MINES] else 0
    out[i, OUT_WRONG_FLAGS] = S[n, C_WRONG_FLAG]
    out[i, OUT_SAFE_DETONATIONS] = S[n, C_SAFE_DET]
    out[i, OUT_APPROX] = S[n, C_APPROX]
    out[i, OUT_MINES] = S[n, C_MINES]
    # (an agent that reads clues as noisy has no contradicted clue: any count is possible)
    out[i, OUT_DROPPED] = S[n, C_DROPPED] + (contradicted(S) if S[n, C_NOISE] != 0
                                             and S[n, C_SOFT] == 0 else 0)
    if stop_clocks(S) and out.shape[1] >= OUT_WORK_LEN:  # a profile's work pass
        _work_out(S, out, i)


@njit(cache=True)
def _work_out(S, out, i):
    F = flat(S)
    wk = work_at(S)
    out[i, OUT_ANALYSES] = F[wk + WK_ANALYSES]
    out[i, OUT_COMPONENTS] = F[wk + WK_COMPONENTS]
    out[i, OUT_COMP_MAX] = F[wk + WK_COMP_MAX]
    out[i, OUT_STATES] = F[wk + WK_STATES]
    out[i, OUT_WHATIFS] = F[wk + WK_WHATIFS]
    for ph in range(N_PHASES):
        out[i, OUT_PHASE_NS + ph] = phase_ns(S, ph)


@njit(cache=True)
def clock(on):
    """Seconds of the monotonic clock (``timer.seconds``), or 0.0 when ``on`` is false
    (untimed batches skip the call)."""
    return seconds() if on else 0.0


@njit(cache=True)
def record(S, out, secs, boards, i, t0):
    """Game i is over: its results, seconds (if timed) and final board (if kept: boards
    is int8 (2, games, N): statuses and mines, or empty)."""
    if secs.shape[0] > 0:
        secs[i] = clock(True) - t0
    summarize(S, out, i)
    if boards.shape[1] > 0:
        for c in range(ncells(S)):
            boards[0, i, c] = status(S, c)
            boards[1, i, c] = is_mine(S, c)


@njit(cache=True)
def read_trace(S, moves, final):
    """Copy the recorded moves into ``moves`` (int32 (N, 6): kind, cell, outcome, reason,
    ref, a) and, if ``final`` is not empty, the final state, mines and true clues into
    ``final`` (int32 (3, N)). Returns the number of moves."""
    k = moves_made(S)
    for m in range(k):
        moves[m, 0] = S[m, F_TKIND]
        moves[m, 1] = S[m, F_TCELL]
        moves[m, 2] = S[m, F_TOUT]
        moves[m, 3] = S[m, F_TWHY]
        moves[m, 4] = S[m, F_TREF]
        moves[m, 5] = S[m, F_TA]
    if final.shape[0] > 0:
        for c in range(ncells(S)):
            final[0, c] = status(S, c)
            final[1, c] = is_mine(S, c)
            final[2, c] = true_clue(S, c)
    return k


@njit(cache=True)
def blindfold(S, tape):
    """Zero the truth plane of a set-up game and have the environment answer from the
    recorded outcomes ``tape[:, 2]`` instead (see ``SENSOR_TAPE``): a test that agents
    read only what they observed."""
    n = ncells(S)
    F = flat(S)
    truth0 = np.uint64(S[n, C_WORDS]) + np.uint64(S[n, C_P])
    for j in range(np.uint64(S[n, C_P])):
        F[truth0 + j] = 0  # no board behind the game any more
    for m in range(n):
        S[m, F_TOUT] = tape[m, 2]
    S[n, C_SENSOR] = SENSOR_TAPE


@njit(cache=True)
def draw_game(params, layout, game, order, mine):
    """Fill ``order`` and ``mine`` (length N) with game ``game``'s guess order and mines;
    return the opening cell. Used by the tests' reference replay."""
    S, scratch = new_batch_state(params, False)
    n = ncells(S)
    first = setup_game(S, params, layout, game, scratch)
    F = flat(S)
    o = S[n, C_ORDER]
    for i in range(n):
        order[i] = cell_of(F, F[o + i])
        mine[i] = is_mine(S, i)
    return first

"""The bruteforce agents' move (``bruteforce``, ``linalg-bruteforce``): act on every cell
the enumeration decides (``bruteforce.analyse``, steps 1-4 of that module's notes), else
guess by step 5 (:func:`choose_guess`: the lowest share, or off the frontier when that
looks safer; the trace of each guess is pinned down there).
"""
import numpy as np

from ...engine.actions import act_flat
from ...engine.env import (
    cell_of, flat, hidden_left, mines_left_known, moves, ncells, w_blank, w_hidden, w_mines,
    w_status, word,
)
from ...engine.layout import (
    A_FLAG, A_GUESS, A_REVEAL, C_APPROX, C_GPTR, C_KMINES, C_ORDER, F_NBR, F_NNB, F_PLANE,
    HIDDEN, R_BRUTE_GUESS, R_BRUTE_MINE, R_BRUTE_SAFE,
)
from ...engine.local import guess_in_order
from ...jit import njit
from .bruteforce import DEC_MINE, DEC_SAFE, analyse

TIE_RTOL = 1e-12  # as policies.TIE_RTOL (not imported: that module pulls in the counter)

G_NONE = 0  # certain cells: no guess
G_FRONTIER = 1  # the frontier cell of lowest share
G_OFF = 2  # the first off-frontier cell of the guess order
G_ORDER = 3  # nothing enumerated: the first hidden cell of the guess order


@njit(cache=True, inline="always")
def _revealed_nbrs(S, w, c):
    """Clues next to hidden cell ``c`` (word ``w``): its revealed neighbours, less the
    blanks of a noisy sensor (revealed, no clue), which are counted apart only when the
    cell has one (they are rare)."""
    k = S[c, F_NNB] - w_hidden(w) - w_mines(w)
    if k > 0:
        for j in range(S[c, F_NNB]):
            if w_blank(word(S, S[c, F_NBR + j])):
                k -= 1
    return k


@njit(cache=True)
def _first_hidden(S, off_frontier):
    """The first hidden cell of the guess order (``off_frontier``: with no revealed
    neighbour; -1 if none). Moves nothing, not even the guess-order pointer."""
    n = ncells(S)
    F = flat(S)
    order = S[n, C_ORDER]
    for i in range(S[n, C_GPTR], n):
        wi = F[order + i]
        w = F[wi]
        if w_status(w) != HIDDEN:
            continue
        c = cell_of(F, wi)
        if not off_frontier or _revealed_nbrs(S, w, c) == 0:
            return c
    return -1


@njit(cache=True)
def choose_guess(S, share, enumerated, summin, u):
    """Step 5 (no cell certain): (cell, G_* kind, its share p* or the estimate t; NaN for
    G_ORDER). Moves nothing, not even the guess-order pointer."""
    n = ncells(S)
    F = flat(S)
    order = S[n, C_ORDER]
    best = -1
    bp = 2.0
    if enumerated > 0:
        for i in range(S[n, C_GPTR], n):
            wi = F[order + i]
            if w_status(F[wi]) != HIDDEN:
                continue
            c = cell_of(F, wi)
            p = share[c]
            if not np.isnan(p) and p < bp - TIE_RTOL * bp:
                bp = p
                best = c
    if best < 0:  # nothing enumerated (or inconsistent knowledge: no layout kept)
        return _first_hidden(S, False), G_ORDER, np.nan
    if S[n, C_KMINES] >= 0 and u > 0:
        t = (mines_left_known(S) - summin) / u
        if not bp < t:
            return _first_hidden(S, True), G_OFF, t
    return best, G_FRONTIER, bp


@njit(cache=True)
def brute_move(S, trp, maxc, stop_on_detonation):
    """The bruteforce step once the rules (and, for linalg-bruteforce, the reduction) are
    exhausted: act on every certain cell, else guess once (``trp``, float64 N or empty,
    receives the guess's p* or t). Returns the number of actions, or -1 if a detonation
    ended the game (impossible for sound decisions)."""
    n = ncells(S)
    ded = np.zeros(n, np.int8)
    share = np.full(n, np.nan)
    e = analyse(S, maxc, ded, share)
    if e.skipped > 0:
        S[n, C_APPROX] += 1
    F = flat(S)
    decided = e.decided
    if decided > 0:
        acted = 0
        for c in range(n):
            if ded[c] == DEC_MINE:
                act_flat(F, S[c, F_PLANE], A_FLAG, R_BRUTE_MINE, -1, decided)
                acted += 1
        for c in range(n):
            if ded[c] == DEC_SAFE:
                acted += 1
                if act_flat(F, S[c, F_PLANE], A_REVEAL, R_BRUTE_SAFE, -1, decided) == -1:
                    if stop_on_detonation:
                        return -1
        return acted
    cell, kind, p = choose_guess(S, share, e.enumerated, e.summin, e.u)
    if kind == G_ORDER:
        guess_in_order(F)
        return 1
    if trp.shape[0] > 0:
        trp[moves(S)] = p
    act_flat(F, S[cell, F_PLANE], A_GUESS, R_BRUTE_GUESS, -1 if kind == G_FRONTIER else -2,
             hidden_left(S))
    return 1

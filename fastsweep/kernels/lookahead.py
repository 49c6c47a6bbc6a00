"""The ``lookahead`` agent's guess: what makes D. Hill's solver win, made deterministic.

Called when complete deduction finds nothing certain. In turn:

1. Endgame: with the mine total told and at most ``endgame_max`` consistent layouts,
   the exact game-tree search (``endgame.py``) plays the move that wins in the most
   layouts (if it finishes within its node budget).
2. An unavoidable 50/50 (two hidden cells sharing a clue's last mine, such that every
   other unknown neighbour of either touches both: no reveal can ever tell them apart)
   is guessed now: it must be guessed anyway, and its answer is information.
3. Candidates: hidden cells at least ``cut`` as safe as the safest. A "dead" candidate
   (it can show only one value) carries no information and is skipped while a living
   one remains. Each candidate c is scored by a two-move look-ahead,

       score(c) = sum over v of P(c safe, shows v) x (b(c, v) + BONUS x [progress]),

   b(c, v) = the highest safety of a hidden cell once c shows v (1 when a cell becomes
   certainly safe or the game is won), progress = a cell becomes certainly safe. BONUS
   is small (Hill uses 0.001): progress breaks near-ties. Candidates are taken safest
   first and pruned once their bound, safety x (1 + BONUS), cannot beat the best score.
   Ties go to the safer cell, then the guess order. Isolated cells (``pseq.iso_key``)
   are scored once per class.

No step depends on timing: the same seed gives the same games.
"""
import math

import numpy as np
from numba import njit

from .actions import act, observe, restore_knowledge, save_knowledge
from .count import ST_OK, analyse
from .endgame import best_move
from .layouts_enum import solutions
from .env import cell_of, flat, hidden_left, mines_left, moves, nb_hidden, ncells, status, word
from .frontier import CB_DED, CB_SIZE
from .game import F_CUT, P_ENDGAME_MAX, P_ENDGAME_NODES, P_MINE_COUNT
from .layout import (
    A_GUESS, C_APPROX, C_GPTR, C_ORDER, C_P, F_NBR, F_NNB, HIDDEN, K, R_ENDGAME_GUESS,
    R_FIFTY_GUESS, R_LOOKAHEAD_GUESS, REVEALED,
)
from .pseq import N_KEYS, fill_row, iso_key, query
from .whatif import OUT_MINE, base_counts, base_logw

BONUS = 0.001  # weight of progress in the score (a tie-break between near-equal cells)
TIE_RTOL = 1e-9
SCORE_UNIT = 10000  # scores in the trace: round(SCORE_UNIT x score)
ENDGAME_UNIT = 32768  # endgame trace: a = wins x ENDGAME_UNIT + layouts (layouts < this)


@njit(cache=True)
def _adjacent(S, a, b):
    for k in range(S[a, F_NNB]):
        if S[a, F_NBR + k] == b:
            return True
    return False


@njit(cache=True)
def fifty_pair(S, pcell):
    """An unavoidable 50/50 (module notes), as (a, b), or (-1, -1)."""
    for w in range(ncells(S)):
        if status(S, w) != REVEALED or nb_hidden(S, w) != 2 or mines_left(word(S, w)) != 1:
            continue
        a = -1
        b = -1
        for k in range(S[w, F_NNB]):
            d = S[w, F_NBR + k]
            if status(S, d) == HIDDEN:
                if a < 0:
                    a = d
                else:
                    b = d
        if abs(pcell[a] - 0.5) > 1e-9 or abs(pcell[b] - 0.5) > 1e-9:
            continue
        ok = True
        for x, y in ((a, b), (b, a)):
            for k in range(S[x, F_NNB]):
                d = S[x, F_NBR + k]
                if d != y and status(S, d) == HIDDEN and not _adjacent(S, d, y):
                    ok = False
        if ok:
            return a, b
    return -1, -1


@njit(cache=True)
def best_after(S, q):
    """(b, progress, approximated) of the position in ``S``: the highest safety of a
    hidden cell (1 if one is certainly safe, or none is left undecided), and whether a
    cell is certainly safe."""
    res, approx, box, nbox, bprob, pu, uded, _, _, _ = analyse(S, q)
    if res != ST_OK:
        return 0.0, False, approx
    b = -1.0
    fc = 0
    for i in range(nbox):
        fc += box[i, CB_SIZE]
        if box[i, CB_DED] == 1:
            return 1.0, True, approx
        if box[i, CB_DED] == 0:
            b = max(b, 1.0 - bprob[i])
    if hidden_left(S) > fc:
        if uded == 1:
            return 1.0, True, approx
        if uded == 0:
            b = max(b, 1.0 - pu)
    return (1.0 if b < 0.0 else b), False, approx


@njit(cache=True)
def _candidates(S, pcell, cut):
    """Hidden cells at least ``cut`` as safe as the safest: safest first, then in the
    guess order."""
    n = ncells(S)
    F = flat(S)
    order = S[n, C_ORDER]
    cells = np.empty(n, np.int64)
    m = 0
    top = 0.0
    for i in range(S[n, C_GPTR], n):
        c = cell_of(F, F[order + i])
        if status(S, c) == HIDDEN:
            cells[m] = c
            m += 1
            top = max(top, 1.0 - pcell[c])
    k = 0
    for i in range(m):
        if 1.0 - pcell[cells[i]] >= cut * top:
            cells[k] = cells[i]
            k += 1
    cells = cells[:k]
    return cells[np.argsort(pcell[cells], kind="mergesort")]


@njit(cache=True)
def lookahead_guess(S, trp, params, fparams, pcell, logw):
    """The look-ahead agent's guess (module notes); ``logw``: the position's log total
    weight from its analysis (with the total: the log number of layouts)."""
    c, why, ref, a = lookahead_choice(S, params, fparams, pcell, logw)
    if trp.shape[0] > 0:
        trp[moves(S)] = pcell[c]
    act(S, c, A_GUESS, why, ref, a)


@njit(cache=True)
def lookahead_choice(S, params, fparams, pcell, logw):
    """(cell, reason, ref, a) of :func:`lookahead_guess`'s move."""
    n = ncells(S)
    emax = params[P_ENDGAME_MAX]
    if params[P_MINE_COUNT] != 0 and emax > 0 and logw <= math.log(emax) + 1e-9:
        count, cells, table = solutions(S, emax)
        if count > 0:
            j, wins, _ = best_move(table, params[P_ENDGAME_NODES])
            if j >= 0:
                return cells[j], R_ENDGAME_GUESS, -1, wins * ENDGAME_UNIT + count
    a, b = fifty_pair(S, pcell)
    if a >= 0:
        F = flat(S)
        order = S[n, C_ORDER]
        for i in range(S[n, C_GPTR], n):  # the earlier of the two in the guess order
            c = cell_of(F, F[order + i])
            if c == a or c == b:
                return c, R_FIFTY_GUESS, a + b - c, 0
    q = query(params, fparams, True)
    local, base = base_counts(S, q)
    lw = base_logw(S, base) if local else logw
    row = np.zeros((n, OUT_MINE + 1))
    keyc = np.full(N_KEYS, -1, np.int64)
    scored = np.zeros(N_KEYS, np.bool_)
    buf = np.empty(K + S[n, C_P], np.int32)
    approx = 0
    for cut in (fparams[F_CUT], 0.0):  # the second pass only if every candidate was dead
        cand = _candidates(S, pcell, cut)
        best, bs = -1, -1.0
        run, rs, rbound = -1, -1.0, False
        dead = -1
        for c in cand:
            safety = 1.0 - pcell[c]
            bound = safety * (1.0 + BONUS)
            if best >= 0 and bound < bs - TIE_RTOL * bs:
                if run < 0:  # the runner-up is the first cell pruned
                    run, rs, rbound = c, bound, True
                break
            k = iso_key(S, c)
            if k >= 0 and scored[k]:
                continue  # same score as an earlier cell of its class, which wins the tie
            approx += fill_row(S, q, base, local, lw, c, pcell, row, keyc)
            values = 0
            for v in range(9):
                values += row[c, v] > 0.0
            if values <= 1:
                if dead < 0:
                    dead = c
                continue
            s = 0.0
            rem = safety
            short = False
            for v in range(9):
                r = row[c, v]
                if r <= 0.0:
                    continue
                save_knowledge(S, buf)
                observe(S, c, v)
                bv, prog, ap = best_after(S, q)
                restore_knowledge(S, buf)
                approx += ap
                s += r * (bv + (BONUS if prog else 0.0))
                rem -= r
                if best >= 0 and s + max(rem, 0.0) * (1.0 + BONUS) < bs - TIE_RTOL * bs:
                    short = True  # cannot win: its bound is kept for the trace
                    s += max(rem, 0.0) * (1.0 + BONUS)
                    break
            if k >= 0:
                scored[k] = True
            if not short and (best < 0 or s > bs + TIE_RTOL * bs):
                if best >= 0:
                    run, rs, rbound = best, bs, False
                best, bs = c, s
            elif run < 0 or (rbound and not short) or (rbound == short and s > rs):
                run, rs, rbound = c, s, short
        if best >= 0:
            break
    if approx > 0:
        S[n, C_APPROX] += 1
    if best < 0:  # every hidden cell is dead: the safest
        best = dead
    sa = int(round(SCORE_UNIT * max(bs, 0.0)))
    sb = int(round(SCORE_UNIT * max(rs, 0.0)))
    return (best, R_LOOKAHEAD_GUESS, run,
            sa * 4 * SCORE_UNIT + (2 * SCORE_UNIT if rbound else 0) + min(sb, 2 * SCORE_UNIT - 1))

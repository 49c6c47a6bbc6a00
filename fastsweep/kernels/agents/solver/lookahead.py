"""The ``lookahead`` agent's guess: what makes D. Hill's solver win, made deterministic.

Called when complete deduction finds nothing certain. In turn:

1. Endgame: with the mine total told and at most ``endgame_max`` consistent layouts,
   the exact game-tree search (``endgame.py``) plays the move that wins in the most
   layouts (if it finishes within its node budget).
   With ``corner_opening`` (``P_CORNER``), then: when the opening cell alone is revealed
   (a number), the corner farthest from it, if no cell is safer (:func:`corner_opening`).
2. An unavoidable 50/50 (``fifty.py``: two hidden cells sharing a clue's last mine, such
   that every other cell next to one of them, hidden or revealed, touches both or is a
   known mine: no clue, now or once revealed, can ever tell them apart; with
   ``fifty_blocks``, ``P_BLOCKS``, also 2x2 blocks and other sets linked by such clues
   whose two mine patterns no clue can tell apart) is guessed now: it must be guessed
   anyway, and its answer is information. Of its cells, the one with the higher
   look-ahead score (below) is taken, ties by the guess order.
   With ``pseudo_fifty`` (``P_PSEUDO``), then a living pseudo-50/50 (``pseudo.py``), the
   safest.
3. Candidates: hidden cells at least ``cut`` as safe as the safest (with
   ``offedge_limit``, ``P_OFFEDGE``: off the frontier only those Hill's solver scores,
   ``offedge.py``). A lone candidate is played without a look-ahead (unless dead). A
   "dead" candidate (it can show only one value) carries no information and is skipped
   while a living one remains. Each candidate c is scored by a two-move look-ahead,

       score(c) = sum over v of P(c safe, shows v) x (b(c, v) + BONUS x [progress]),

   b(c, v) = (1 - SECOND) x the highest + SECOND x the second-highest safety of a hidden
   cell once c shows v (a certainly safe cell counts 1; both 1 when none is left):
   Hill's 4:1 blend, which values reveals that leave more than one good next move
   (measured over the best safety alone: +0.55 +- 0.4 points on 16x16/40 safe, +0.1
   +- 0.4 on Expert; 2 x 10^4 paired games; weights 0.1-0.5 measured equal).
   progress = a cell becomes certainly safe; BONUS is small (Hill uses 0.001): progress
   breaks near-ties. Candidates are taken safest first and pruned once
   their bound, safety x (1 + BONUS), cannot beat the best score; values likeliest
   first (a frontier cell's: nearest its expected count), a candidate is dropped once
   its partial score plus what is left cannot win.
   A frontier candidate's P(c safe, shows v) is read off the very analysis that finds
   b(c, v) (the what-if's total weight over the position's), not counted beforehand:
   the what-if rows were 45% of the time (measured, docs/DESIGN.md). Ties go to the
   safer cell, then (with ``far_ties``, ``P_FAR``) the one farthest from the revealed
   cells (``offedge.reveal_distance``), then the guess order. Isolated cells
   (``risk.iso_key``) are scored once per class: by its first cell in that order.

No step depends on timing: the same seed gives the same games.
"""
import math
from collections import namedtuple

import numpy as np

from ...engine.actions import act, observe, restore_knowledge, save_knowledge
from ...inference.count import ST_OK, analyse
from .endgame import best_move
from ...jit import njit
from .layouts_enum import solutions
from .fifty import fifty_set, partner
from ...engine.env import cell_of, flat, hidden_left, moves, ncells, status
from ...inference.frontier import CB_DED, CB_SIZE
from ...engine.game import (
    F_CUT, P_BLOCKS, P_CORNER, P_ENDGAME_MAX, P_ENDGAME_NODES, P_FAR, P_MINE_COUNT,
    P_OFFEDGE, P_PSEUDO,
)
from ...engine.layout import (
    A_GUESS, C_APPROX, C_DET, C_FLAG, C_GPTR, C_ORDER, C_P, C_REV, C_W2, F_NBR, F_NNB,
    HIDDEN, K, R_CORNER_GUESS, R_ENDGAME_GUESS, R_FIFTY_GUESS, R_LOOKAHEAD_GUESS,
    PH_WHATIF, R_PSEUDO_GUESS, REVEALED, WK_WHATIFS,
)
from ...engine.work import count_work, enter, leave
from .offedge import limit_offedge, reveal_distance
from .pseq import N_KEYS, fill_row, iso_key, query
from .pseudo import pseudo_cells
from ...inference.whatif.base import OUT_MINE, base_counts, base_logw, value_range

BONUS = 0.001  # weight of progress in the score (a tie-break between near-equal cells)
SECOND = 0.2  # weight of the second-safest cell after a reveal (Hill's 4:1 blend)
TIE_RTOL = 1e-9
# a frontier candidate's values not yet seen, once they hold at most this fraction of its
# safety, are skipped: their share of the score is far below TIE_RTOL (and in exact
# arithmetic they hold nothing: this only absorbs rounding)
LEFT_RTOL = 1e-12
SCORE_UNIT = 10000  # scores in the trace: round(SCORE_UNIT x score)
ENDGAME_UNIT = 32768  # endgame trace: a = wins x ENDGAME_UNIT + layouts (layouts < this)

#: Result of :func:`best_after`: the two highest safeties ``b1`` >= ``b2`` of hidden cells
#: that are not certain mines (a cell certainly safe counts 1; 1 when none is left);
#: ``progress``, some cell is certainly safe; ``approx``, the analysis was approximated;
#: ``logw``, the position's log total weight (-inf when no layout agrees with it).
After = namedtuple("After", "b1 b2 progress approx logw")

#: Result of :func:`_score`: the ``best`` candidate and its ``score``; the ``runner``-up,
#: its ``runner_score`` and whether that is only a bound (``runner_bound``: it was pruned);
#: the first ``dead`` candidate (-1: none); the analyses ``approx``-imated.
Scored = namedtuple("Scored", "best score runner runner_score runner_bound dead approx")


@njit(cache=True)
def corner_opening(S, pcell):
    """(corner, opening): when the opening cell alone is revealed (it shows a number and
    nothing else is known), the hidden corner farthest from it (ties: the guess order),
    if no hidden cell is safer; else (-1, -1). Measured against the look-ahead's own
    first guess, which prefers a cell next to the opening for its quick progress: see
    docs/DESIGN.md (a big opening elsewhere is worth more later)."""
    n = ncells(S)
    if S[n, C_REV] != 1 or S[n, C_FLAG] + S[n, C_DET] != 0:
        return -1, -1
    o = 0
    while status(S, o) != REVEALED:
        o += 1
    w = S[n, C_W2] - 2
    h = n // w
    top = 1.0
    for c in range(n):
        if status(S, c) == HIDDEN:
            top = min(top, pcell[c])
    F = flat(S)
    order = S[n, C_ORDER]
    best = -1
    far = -1
    for i in range(S[n, C_GPTR], n):
        c = cell_of(F, F[order + i])
        r, k = c // w, c % w
        if (r == 0 or r == h - 1) and (k == 0 or k == w - 1) and status(S, c) == HIDDEN \
                and pcell[c] <= top * (1.0 + TIE_RTOL):
            d = abs(r - o // w) + abs(k - o % w)
            if d > far:
                best, far = c, d
    return best, o


@njit(cache=True)
def _take(b1, b2, s, k):
    """The two highest safeties after adding ``k`` cells of safety ``s``."""
    if k <= 0:
        return b1, b2
    if s > b1:
        return s, (s if k > 1 else b1)
    if s > b2:
        return b1, s
    return b1, b2


@njit(cache=True)
def best_after(S, q):
    """The two highest safeties of hidden cells on ``S``'s knowledge and the position's
    weight: an :data:`After`."""
    a = analyse(S, q)
    if a.status != ST_OK:
        return After(0.0, 0.0, False, a.approx, -np.inf)
    box, bprob = a.box, a.bprob
    b1 = -1.0
    b2 = -1.0
    fc = 0
    prog = False
    for i in range(a.nbox):
        fc += box[i, CB_SIZE]
        if box[i, CB_DED] == 1:
            prog = True
            b1, b2 = _take(b1, b2, 1.0, box[i, CB_SIZE])
        elif box[i, CB_DED] == 0:
            b1, b2 = _take(b1, b2, 1.0 - bprob[i], box[i, CB_SIZE])
    u = hidden_left(S) - fc
    if u > 0:
        if a.uded == 1:
            prog = True
            b1, b2 = _take(b1, b2, 1.0, u)
        elif a.uded == 0:
            b1, b2 = _take(b1, b2, 1.0 - a.pu, u)
    if b1 < 0.0:
        b1 = 1.0
    if b2 < 0.0:
        b2 = b1
    return After(b1, b2, prog, a.approx, a.logw)


@njit(cache=True)
def _candidates(S, pcell, cut, limit, far):
    """Hidden cells at least ``cut`` as safe as the safest (with ``limit``, off the
    frontier only Hill's, ``offedge.py``): safest first, then (with ``far``) farthest
    from the revealed cells, then in the guess order."""
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
    if limit:
        cells = limit_offedge(S, pcell, cells)
    if far:  # stable sorts: the last key sorted is the first
        cells = cells[np.argsort(-reveal_distance(S)[cells], kind="mergesort")]
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
def _living(row, c):
    """Whether cell ``c`` can show more than one value (its outcome row ``row[c]``)."""
    values = 0
    for v in range(9):
        values += row[c, v] > 0.0
    return values > 1


@njit(cache=True)
def _value_order(S, c, pcell):
    """The values frontier cell ``c`` can show, likeliest first by a cheap guess (nearest
    its known-mine neighbours plus its hidden neighbours' expected mines; ties: the lower):
    so the pruning bound tightens soonest without the what-if row."""
    lo, hi = value_range(S, c)
    mean = float(lo)
    for k in range(S[c, F_NNB]):
        d = S[c, F_NBR + k]
        if status(S, d) == HIDDEN:
            mean += pcell[d]
    vals = np.arange(lo, hi + 1)
    dist = np.abs(vals - mean)
    return vals[np.argsort(dist, kind="mergesort")]


@njit(cache=True)
def _score(S, q, base, local, lw, logw, cand, pcell, row, keyc, scored, buf):
    """Score ``cand`` (safest first) by the look-ahead (module notes): a :data:`Scored`.

    A frontier cell's value probabilities come from the analyses that score its values
    (P(c safe, shows v) = W(position with c showing v) / W(position), ``logw`` the log of
    the latter): no what-if row is counted first, and once the values seen hold its
    whole safety (to ``LEFT_RTOL``) the rest are skipped. An isolated cell's row is
    counted once per class (``fill_row``)."""
    best, bs = -1, -1.0
    run, rs, rbound = -1, -1.0, False
    dead = -1
    approx = 0
    safe_factor = 0.0 if q.mine_count else math.log1p(-q.prior)
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
        if k >= 0:
            approx += fill_row(S, q, base, local, lw, c, pcell, row, keyc)
            if not _living(row, c):
                if dead < 0:
                    dead = c
                continue
            order = np.argsort(-row[c, :9])  # likeliest first: the bound tightens soonest
        else:
            order = _value_order(S, c, pcell)
        values = 0  # (a frontier cell's) values seen that it can show
        s = 0.0
        rem = safety
        short = False
        for v in order:
            if k >= 0:
                r = row[c, v]
                if r <= 0.0:
                    break
            elif values >= 2 and rem <= LEFT_RTOL * safety:
                break  # the values left have no probability
            save_knowledge(S, buf)
            observe(S, c, v)
            count_work(S, WK_WHATIFS, 1)
            b1, b2, prog, ap, lwv = best_after(S, q)
            restore_knowledge(S, buf)
            approx += ap
            if k < 0:
                r = math.exp(lwv - logw + safe_factor) if lwv > -np.inf else 0.0
                if r <= 0.0:
                    continue
                values += 1
            s += r * ((1.0 - SECOND) * b1 + SECOND * b2 + (BONUS if prog else 0.0))
            rem -= r
            if best >= 0 and s + max(rem, 0.0) * (1.0 + BONUS) < bs - TIE_RTOL * bs:
                short = True  # cannot win: its bound is kept for the trace
                s += max(rem, 0.0) * (1.0 + BONUS)
                break
        if k < 0 and values <= 1:
            if short:  # cut short before a second value was seen: its row decides
                approx += fill_row(S, q, base, local, lw, c, pcell, row, keyc)
            if not short or not _living(row, c):
                if dead < 0:
                    dead = c
                continue
        if k >= 0:
            scored[k] = True
        if not short and (best < 0 or s > bs + TIE_RTOL * bs):
            if best >= 0:
                run, rs, rbound = best, bs, False
            best, bs = c, s
        elif run < 0 or (rbound and not short) or (rbound == short and s > rs):
            run, rs, rbound = c, s, short
    return Scored(best, bs, run, rs, rbound, dead, approx)


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
    if params[P_CORNER] != 0:  # after the endgame: an exact answer beats the heuristic
        c, o = corner_opening(S, pcell)
        if c >= 0:
            return c, R_CORNER_GUESS, o, -1
    q = query(params, fparams, True)
    local, base = base_counts(S, q)
    lw = base_logw(S, base) if local else logw
    row = np.zeros((n, OUT_MINE + 1))
    keyc = np.full(N_KEYS, -1, np.int64)
    scored = np.zeros(N_KEYS, np.bool_)
    buf = np.empty(K + S[n, C_P], np.int32)
    fs, fcol = fifty_set(S, pcell, params[P_BLOCKS] != 0)
    if fs.size > 0:  # the cell whose answer tells most (ties: the guess order)
        F = flat(S)
        order = S[n, C_ORDER]
        pick = np.empty(fs.size, np.int64)
        m = 0
        for i in range(S[n, C_GPTR], n):
            c = cell_of(F, F[order + i])
            for x in fs:
                if c == x:
                    pick[m] = c
                    m += 1
        ph = enter(S, PH_WHATIF)
        sc = _score(S, q, base, local, lw, logw, pick, pcell, row, keyc, scored, buf)
        leave(S, ph)
        if sc.approx > 0:
            S[n, C_APPROX] += 1
        c = sc.best if sc.best >= 0 else pick[0]
        return c, R_FIFTY_GUESS, partner(S, fs, fcol, c), fs.size
    approx = 0
    if params[P_PSEUDO] != 0:  # a living pseudo-50/50, the safest (pseudo.py)
        ps = pseudo_cells(S, query(params, fparams, False), pcell, buf)
        for i in range(ps.shape[0]):
            c = ps[i, 0]
            approx += fill_row(S, q, base, local, lw, c, pcell, row, keyc)
            if _living(row, c):
                if approx > 0:
                    S[n, C_APPROX] += 1
                return c, R_PSEUDO_GUESS, ps[i, 1], ps[i, 2]
    for cut in (fparams[F_CUT], 0.0):  # the second pass only if every candidate was dead
        cand = _candidates(S, pcell, cut, params[P_OFFEDGE] != 0, params[P_FAR] != 0)
        if cand.size == 1:  # nothing to compare: no look-ahead, unless it is dead
            approx += fill_row(S, q, base, local, lw, cand[0], pcell, row, keyc)
            if _living(row, cand[0]):
                if approx > 0:
                    S[n, C_APPROX] += 1
                return cand[0], R_LOOKAHEAD_GUESS, -1, -1
        ph = enter(S, PH_WHATIF)
        sc = _score(S, q, base, local, lw, logw, cand, pcell, row, keyc, scored, buf)
        leave(S, ph)
        approx += sc.approx
        if sc.best >= 0:
            break
    if approx > 0:
        S[n, C_APPROX] += 1
    best = sc.best if sc.best >= 0 else sc.dead  # every hidden cell dead: the safest
    sa = int(round(SCORE_UNIT * max(sc.score, 0.0)))
    sb = int(round(SCORE_UNIT * max(sc.runner_score, 0.0)))
    return (best, R_LOOKAHEAD_GUESS, sc.runner,
            sa * 4 * SCORE_UNIT + (2 * SCORE_UNIT if sc.runner_bound else 0)
            + min(sb, 2 * SCORE_UNIT - 1))

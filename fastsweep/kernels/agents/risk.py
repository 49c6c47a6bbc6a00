"""The ``risk`` and ``threshold`` agents' guesses (after complete deduction found nothing).

``risk`` (Zane, Bidle and Ravishankar's follow-up to the CS440 report): reveal the hidden
cell X that maximises the expected number of cells the agent can decide afterwards,

    q R + (1 - q) S,   S = sum over v of P(X shows v | X safe) D(X shows v),

q = P(X is a mine), R = D(X is a mine), D(o) = hidden cells decided once outcome o is
known (X excluded). The report estimated it by sampling and decided cells with the
single-clue rules; here q and P(v | safe) are exact (``whatif.base.outcome_table``'s floats),
and D is complete deduction on the what-if position, or with ``risk_rules="basic"`` the
closure of the single-clue rules (and the count rules when the total is told) on the
what-if knowledge (``save_knowledge`` / ``observe`` / ``restore_knowledge``). Ties
(relative 1e-12) go to the lower mine probability, then to the earlier cell of the guess
order.

Each what-if works only where the outcome changes something: complete deduction
re-counts the components the outcome touches (``whatif.ded``: the whole analysis where
the mine total may decide cells elsewhere; a cell's values are counted with its outcome
row, ``whatif.joint.outcomes_decided``, on one frontier), and the single-clue closure
starts from the clues the outcome changes when the position itself decides nothing by
those rules (:func:`decided_basic`). Same floats and integers as whole what-ifs, so the
same choices bit for bit.

``threshold`` (the 2020 report's "triply improved" agent): reveal, in the guess order and
without recomputing in between, every hidden cell whose mine probability is below the
threshold; if none is, the lowest (as ``probability``).
"""
import numpy as np

from ..engine.actions import act, observe, observe_mine, restore_knowledge, save_knowledge
from ..inference.count import ST_OK, query
from ..engine.env import (
    cell_of, flat, hidden_left, mines_left, mines_left_known, moves, nb_hidden, nb_mines,
    ncells, status, w_hidden, w_is_clue, w_status, word,
)
from ..engine.game import game_over
from ..jit import njit
from ..engine.layout import (
    A_GUESS, C_GPTR, C_KMINES, C_ORDER, F_NBR, F_NNB, HIDDEN, R_APPROX_GUESS, R_RISK_GUESS,
    R_THRESHOLD_GUESS, REVEALED,
)
from ..inference.whatif.base import OUT_MINE
# (pseq, lookahead and tests import N_KEYS and iso_key from here)
from ..inference.whatif.iso import N_KEYS, isolated, iso_key
from ..inference.whatif.ded import ded_base, ded_scratch, decided_after, whole_counts
from ..inference.whatif.joint import outcomes_decided

TIE_RTOL = 1e-12
RULES_COMPLETE = 0  # risk_rules: complete deduction decides the what-if's cells
RULES_BASIC = 1  # the single-clue rules (and the count rules with the total)


@njit(cache=True)
def decided_basic(S, told, mark, queue, seed):
    """Hidden cells the single-clue rules decide on ``S``'s knowledge, applied to a
    fixed point without revealing anything (a cell decided safe shows no clue), plus the
    count rules when ``told``. ``mark`` (int8 N, zeroed; zeroed again on return) and
    ``queue`` (int64 2N) are scratch: a ring of clue cells (the first N), each in it at
    most once (``mark`` bit 2 set while queued), and the cells decided (the last N).

    ``seed`` >= 0: start from the clues at ``seed`` and next to it only, not from every
    clue (-1: from every clue). Exact when ``seed`` was just observed on a position where these rules decide
    nothing: every other clue reads as it did there (it fires only once a neighbour is
    decided, and is queued then), and the closure of sound rules does not depend on the
    order they fire in."""
    n = ncells(S)
    qn = 0
    if seed < 0:
        for c in range(n):
            w = word(S, c)
            if w_status(w) == REVEALED and w_hidden(w) > 0:
                queue[qn] = c
                mark[c] = 4
                qn += 1
    else:
        for k in range(-1, S[seed, F_NNB]):
            c = seed if k < 0 else S[seed, F_NBR + k]
            w = word(S, c)
            if w_status(w) == REVEALED and w_hidden(w) > 0:
                queue[qn] = c
                mark[c] = 4
                qn += 1
    decided = 0
    dmines = 0
    head = 0
    while qn > 0:
        c = queue[head]
        head = (head + 1) % n
        qn -= 1
        mark[c] = 0
        w = word(S, c)
        need = mines_left(w)
        unk = 0
        for k in range(S[c, F_NNB]):
            d = S[c, F_NBR + k]
            if status(S, d) == HIDDEN:
                if mark[d] == 2:
                    need -= 1
                elif mark[d] == 0:
                    unk += 1
        if unk == 0 or (need != 0 and need != unk):
            continue
        v = 1 if need == 0 else 2
        for k in range(S[c, F_NNB]):
            d = S[c, F_NBR + k]
            if status(S, d) == HIDDEN and mark[d] == 0:
                mark[d] = v
                queue[n + decided] = d
                decided += 1
                dmines += v == 2
                for j in range(S[d, F_NNB]):  # the clues next to d may fire now
                    e = S[d, F_NBR + j]
                    if w_is_clue(word(S, e)) and mark[e] == 0:  # (not a blank)
                        mark[e] = 4
                        queue[(head + qn) % n] = e
                        qn += 1
    listed = decided
    if told:
        left = mines_left_known(S) - dmines
        unk = hidden_left(S) - decided
        if unk > 0 and (left == 0 or left == unk):
            decided += unk  # the count rules decide every cell left: nothing follows
    # only the cells decided keep a mark (a clue clears its own when dequeued): O(decided)
    for i in range(listed):
        mark[queue[n + i]] = 0
    return decided


@njit(cache=True)
def _decided(S, q, rules, mark, queue):
    if rules == RULES_BASIC:
        return decided_basic(S, S[ncells(S), C_KMINES] >= 0, mark, queue, -1)
    return whole_counts(S, q)[0]


@njit(cache=True)
def _decided_after(S, c, v, q, rules, scratch, dbase, local):
    """Cells decided once hidden cell ``c`` shows ``v`` (``OUT_MINE``: is a mine), on a
    what-if of ``S``'s knowledge. ``local``: :func:`decided_basic` may start from c
    (the position decides nothing by its rules); ``dbase``: ``whatif.ded.ded_base``."""
    mark, queue, touched, buf = scratch
    if rules != RULES_BASIC:
        return decided_after(S, q, dbase, c, v, touched, buf)[0]
    save_knowledge(S, buf)
    if v == OUT_MINE:
        observe_mine(S, c)
    else:
        observe(S, c, v)
    d = decided_basic(S, S[ncells(S), C_KMINES] >= 0, mark, queue, c if local else -1)
    restore_knowledge(S, buf)
    return d


@njit(cache=True)
def risk_scores(S, mine_count, prior, budget, rules, score, pmine, shortcut=True):
    """Fill ``score[c]`` (expected cells decided after revealing c) and ``pmine[c]`` for
    every hidden cell c (NaN elsewhere). Returns False if some analysis was approximated
    (the scores are then incomplete).

    Shortcuts (``shortcut``; exact, tested against the what-ifs) for an isolated cell c
    (with its hidden neighbours it touches no clue), whose reveal starts a component of
    its own. Without the total, "c shows v" decides its h hidden neighbours iff v minus
    its known-mine neighbours is 0 or h (by either rule set), and "c is a mine" nothing,
    beyond what the position decides already (nothing when the agent looks ahead;
    counted once here). With the total the global count couples that component to the
    rest, but the what-if position is the same up to the component's place: the cells
    decided after "c shows v" depend only on c's class (:func:`iso_key`: hidden and
    known-mine neighbours) and v, and after "c is a mine" (a flag touching no clue)
    too. Each is counted once per class and position, and each cell's score still sums its own outcome probabilities in the same order, so the
    scores are bit for bit those of the full what-ifs."""
    n = ncells(S)
    qd = query(mine_count, prior, budget, False)
    # the what-ifs' base: the position's components (one analysis; its counts serve
    # complete deduction only)
    dbase = ded_base(S, qd)
    out = np.zeros((n, OUT_MINE + 1), np.float64)
    # complete deduction: the cells decided after each value of a cell (not isolated,
    # or with the total), counted with its outcome row (whatif.joint; -2: not there)
    dec = np.full((n, OUT_MINE + 1, 2), -2, np.int64)
    # (with the basic rules the rows alone: the same floats as outcome_table's)
    qp = query(mine_count, prior, budget, True)
    res, approx, _ = outcomes_decided(S, qp, out, dec, dbase, rules != RULES_BASIC)
    score[:] = np.nan
    pmine[:] = np.nan
    if res != ST_OK or approx > 0:
        return False
    mark = np.zeros(n, np.int8)
    queue = np.empty(2 * n, np.int64)
    # basic: whether the rules decide nothing on the position (each what-if then starts
    # from its cell)
    local = rules == RULES_BASIC and decided_basic(S, S[n, C_KMINES] >= 0, mark, queue, -1) == 0
    scratch = (mark, queue) + ded_scratch(S, dbase)
    base = -1
    # with the total: cells decided per isolated class and outcome (-2: not counted yet)
    iso_d = np.full((N_KEYS, OUT_MINE + 1), -2, np.int64)
    for c in range(n):
        if status(S, c) != HIDDEN:
            continue
        p = out[c, OUT_MINE]
        pmine[c] = p
        if shortcut and not mine_count and isolated(S, c):
            if base < 0:  # once: what the position decides already (none in the agent)
                # (complete deduction without the total: the components' own, if exact)
                base = dbase.dec.sum() if rules != RULES_BASIC and dbase.ok else \
                    _decided(S, qd, rules, mark, queue)
                if base < 0:
                    return False
            km = nb_mines(S, c)
            h = nb_hidden(S, c)
            score[c] = base + (out[c, km] + (out[c, km + h] if km + h < OUT_MINE else 0.0)) * h
            continue
        key = iso_key(S, c) if shortcut and mine_count else -1
        s = 0.0
        for j in range(OUT_MINE + 1):
            v = (j + OUT_MINE) % (OUT_MINE + 1)  # the mine first, then the values 0..8
            pv = out[c, v]
            if pv <= 0.0:
                continue
            d = dec[c, v, 0]
            if d == -2 and key >= 0:
                d = iso_d[key, v]
            if d == -2:
                d = _decided_after(S, c, v, qd, rules, scratch, dbase, local)
                if key >= 0:
                    iso_d[key, v] = d
            if d < 0:
                return False
            s += pv * d
        score[c] = s
    return True


@njit(cache=True)
def risk_guess(S, trp, mine_count, prior, budget, rules, pcell):
    """The risk agent's guess (see the module notes). ``pcell``: the position's mine
    probabilities, used for the lowest-probability guess when an analysis had to be
    approximated (reason R_APPROX_GUESS)."""
    n = ncells(S)
    score = np.empty(n, np.float64)
    pmine = np.empty(n, np.float64)
    exact = risk_scores(S, mine_count, prior, budget, rules, score, pmine)
    F = flat(S)
    order = S[n, C_ORDER]
    best = -1
    bs = -1.0
    bp = 2.0
    for i in range(S[n, C_GPTR], n):
        c = cell_of(F, F[order + i])
        if status(S, c) != HIDDEN:
            continue
        if not exact:  # the lowest probability instead
            if pcell[c] < bp - TIE_RTOL * bp:
                best, bp = c, pcell[c]
            continue
        s = score[c]
        if s > bs + TIE_RTOL * bs or (s >= bs - TIE_RTOL * bs and pmine[c] < bp - TIE_RTOL * bp):
            best, bs, bp = c, s, pmine[c]
    if trp.shape[0] > 0:
        trp[moves(S)] = bp
    hid = hidden_left(S)
    if exact:
        act(S, best, A_GUESS, R_RISK_GUESS, -1, int(round(bs * 100.0)))
    else:
        act(S, best, A_GUESS, R_APPROX_GUESS, -1, hid)


@njit(cache=True)
def threshold_guesses(S, trp, pcell, threshold, approx, classic):
    """The threshold agent's move: reveal every hidden cell with ``pcell`` below
    ``threshold`` (guess order, no recomputing); if none, the lowest (ties: the guess
    order). Returns the cells revealed."""
    n = ncells(S)
    F = flat(S)
    order = S[n, C_ORDER]
    below = 0
    for i in range(S[n, C_GPTR], n):
        c = cell_of(F, F[order + i])
        if status(S, c) == HIDDEN and pcell[c] < threshold:
            below += 1
    if below == 0:
        best = -1
        bp = 2.0
        for i in range(S[n, C_GPTR], n):
            c = cell_of(F, F[order + i])
            if status(S, c) == HIDDEN and pcell[c] < bp - TIE_RTOL * bp:
                best, bp = c, pcell[c]
        if trp.shape[0] > 0:
            trp[moves(S)] = bp
        act(S, best, A_GUESS, R_APPROX_GUESS if approx > 0 else R_THRESHOLD_GUESS, -1, 0)
        return 1
    # the cells are chosen before any is revealed: revealing changes statuses, not pcell
    pick = np.empty(below, np.int64)
    k = 0
    for i in range(S[n, C_GPTR], n):
        c = cell_of(F, F[order + i])
        if status(S, c) == HIDDEN and pcell[c] < threshold:
            pick[k] = c
            k += 1
    done = 0
    for c in pick:
        if game_over(S, classic):  # the referee's end: a classic detonation or win
            break
        if trp.shape[0] > 0:
            trp[moves(S)] = pcell[c]
        done += 1
        act(S, c, A_GUESS, R_APPROX_GUESS if approx > 0 else R_THRESHOLD_GUESS, -1, below)
    return done


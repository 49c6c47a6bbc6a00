"""The exact engine's move, shared by the families of exact agents, and the guesses.

The game loop calls a family's move (``agents/family.py``) whenever the work list of the
local rules is empty and the game is not over. The exact, risk and solver families move
by :func:`next_move` or :func:`deduce_then_guess` (compiled once, here) and differ by the
guess they pass it, a first-class function: their own guesses compile in their own
modules, and none of them compiles the exact engine again. Agents are small integers
(see ``fastsweep.agents``): a new agent is one branch here plus one registry line.
"""
import numpy as np

from ..inference.count import METHOD_AUTO, ST_OK, Query, analyse, total_free
from ..inference.incremental import (
    FRONT, W_PROB, analyse_changed, next_to_clue, snapshots, soft_cache,
)
from ..inference.incremental import new_workspace as _new_workspace
from ..engine.actions import act, act_flat
from ..engine.env import (
    cell_of, flat, hidden_left, moves, ncells, status, w_hidden, w_mines, w_status, word,
)
from ..jit import njit
from ..engine.layout import (
    A_FLAG, A_GUESS, A_REVEAL, C_APPROX, C_GPTR, C_ORDER, F_AUX, F_NNB, F_PLANE, HIDDEN,
    R_APPROX_GUESS, R_DEDUCE_MINE, R_DEDUCE_SAFE, R_FLAG_LIKELY, R_PROB_GUESS,
)

from ..inference.frontier import CB_C, CB_DED, CB_NCLUE, CB_REF, CB_SIZE
from ..engine.game import (
    F_FLAG_THRESHOLD, F_NOISE_A, F_NOISE_B, F_PRIOR, P_VARIANT, P_BUDGET, P_MINE_COUNT,
    P_NOISE, P_NOISE_AWARE, P_RULES, RULES_CLASSIC,
)
from ..engine.local import guess_in_order
from ..inference.noisy import drop_contradicting, soft_rows

# the guess rules of the exact and risk families (``params[P_VARIANT]``; the registry,
# ``fastsweep.agents``, says which agent plays which; the numbers are those of the agent
# ids they replaced, so every params array is unchanged)
GUESS_IN_ORDER = 1  # complete deduction, else a random guess
GUESS_LOWEST = 2  # complete deduction, else the lowest exact mine probability
GUESS_THRESHOLD = 8  # complete deduction, else every cell below a mine probability at once
GUESS_RISK = 9  # complete deduction, else the most expected cells decided next
# (threshold and risk are their own family, run_risk.py: their guesses compile the
# what-ifs, which inference and probability never run)

TIE_RTOL = 1e-12  # probabilities this close count as equal: the guess order decides


@njit(cache=True)
def new_workspace(n):
    """Scratch an agent keeps across moves and games (allocated once per batch): the
    incremental analysis's per-cell cache (see ``incremental.py``)."""
    return _new_workspace(n)


@njit(cache=True)
def next_move(S, trp, params, fparams, ws, guess):
    """The exact and risk families' move once the local rules are exhausted: apply
    deductions, or guess once (by ``guess``, a first-class function, see
    ``agents/family.py``, or in the guess order).

    ``trp`` (float64, N or empty) receives the mine probability of a traced guess;
    ``ws`` is the agent's workspace (:func:`new_workspace`).
    """
    rule = params[P_VARIANT]
    guesses_by_prob = rule != GUESS_IN_ORDER
    soft = np.zeros((0, 9), np.float64)
    if params[P_NOISE] != 0 and params[P_NOISE_AWARE] != 0:
        soft = soft_cache(S, ws, params[P_NOISE], fparams[F_NOISE_A], fparams[F_NOISE_B])
    # the whole analysis: risk (its what-ifs run whole analyses on the knowledge), the
    # mine total with probabilities, and with soft clues deduction only (it leaves out the
    # clues that rule nothing out: other components than the full count's) or flags
    # below certainty (from every cell's probability)
    if params[P_BUDGET] < 0 or rule == GUESS_RISK or (
            params[P_MINE_COUNT] != 0 and guesses_by_prob) or (soft.shape[0] > 0 and (
                not guesses_by_prob or fparams[F_FLAG_THRESHOLD] < 1.0)):
        deduce_or_guess(S, trp, params, fparams, guesses_by_prob, ws, guess)
    else:
        deduce_or_guess_changed(S, trp, params, fparams, ws, soft, guess)


@njit(cache=True)
def act_on_boxes(S, box, nbox, stop_on_detonation):
    """Flag or reveal every cell of the boxes an analysis decided (``CB_DED`` 2: mines,
    1: safe). Returns the number of actions, or -1 if a detonation ended the game."""
    acted = 0
    F = flat(S)
    for b in range(nbox):
        d = box[b, CB_DED]
        if d == 0:
            continue
        for j in range(box[b, CB_SIZE]):
            c = S[box[b, CB_C + j], F_PLANE]
            if d == 2:
                act_flat(F, c, A_FLAG, R_DEDUCE_MINE, box[b, CB_REF], box[b, CB_NCLUE])
            elif act_flat(F, c, A_REVEAL, R_DEDUCE_SAFE, box[b, CB_REF], box[b, CB_NCLUE]) == -1:
                if stop_on_detonation:
                    return -1
            acted += 1
    return acted


@njit(cache=True, inline="always")  # (one call site: see count.analyse)
def deduce_or_guess_changed(S, trp, params, fparams, ws, soft, guess):
    """:func:`deduce_or_guess` with the incremental analysis (``incremental.py``): only
    components that changed since the previous analysis are re-counted.

    Without the mine total that is the whole analysis. With it (deduction only), when
    ``count.total_free`` does not hold the full analysis with the total runs, exactly as
    ``count.analyse`` decides. Same moves as the full analysis. ``soft``: the soft rows
    of a noise-aware agent (``incremental.soft_cache``), else (0, 9).
    """
    n = ncells(S)
    prior = fparams[F_PRIOR]
    a = analyse_changed(S, ws, prior, params[P_BUDGET], soft, params[P_NOISE] != 0)
    if params[P_MINE_COUNT] != 0 and a.status == ST_OK and (
            a.approx > 0 or not total_free(a.smin, a.smax, a.u, a.mleft)):
        # (want_prob: straight to the analysis with the total; the test was just made)
        deduce_or_guess(S, trp, params, fparams, True, ws, guess)
        return
    if a.status != ST_OK and params[P_NOISE] != 0:
        # contradicting noisy clues: the whole analysis drops them (the cache is reset)
        deduce_or_guess(S, trp, params, fparams, params[P_VARIANT] != GUESS_IN_ORDER, ws,
                        guess)
        return
    if a.approx > 0:
        S[n, C_APPROX] += 1
    acted = 0
    if a.status == ST_OK:
        acted = act_on_boxes(S, a.box, a.nbox, params[P_RULES] == RULES_CLASSIC)
        if acted < 0:
            return
    if acted > 0:
        return
    if params[P_VARIANT] == GUESS_IN_ORDER or a.status != ST_OK:
        guess_in_order(flat(S))
        return
    if params[P_VARIANT] == GUESS_LOWEST:
        # the probability agent: its lowest probability read in the one pass of the guess
        # order, with no fill of every cell's probability first
        guess_lowest_front(S, trp, ws, prior, a.approx)
        return
    pcell = np.empty(n, np.float64)
    for c in range(n):
        w = word(S, c)
        # a frontier cell has a revealed neighbour (neither hidden nor a known mine)
        if w_status(w) == HIDDEN:
            front = S[c, F_NNB] - w_hidden(w) - w_mines(w) > 0
            if front and params[P_NOISE] != 0:
                front = next_to_clue(S, c)  # (a revealed neighbour may be a blank)
            pcell[c] = ws[c, W_PROB] if front else prior
    guess(S, trp, params, fparams, pcell, a.approx, 0.0)


@njit(cache=True)
def _soft(S, ws, noise, fparams):
    """The soft rows: from the workspace's cache (``incremental.soft_cache``), or made
    afresh when ``ws`` is empty (families without the workspace)."""
    if ws.shape[0] == 0:
        return soft_rows(S, noise, fparams[F_NOISE_A], fparams[F_NOISE_B])
    return soft_cache(S, ws, noise, fparams[F_NOISE_A], fparams[F_NOISE_B])


NEED_NOTHING = 0  # deduce(): it acted (or the game ended)
NEED_ORDER = 1  # nothing certain, and the agent guesses in the guess order
NEED_GUESS = 2  # nothing certain: guess by the mine probabilities


@njit(cache=True, inline="always")  # (small: inlined into next_move and deduce_then_guess)
def deduce_or_guess(S, trp, params, fparams, want_prob, ws, guess):
    """Complete deduction from every clue (and the mine total if the agent knows it):
    act on every certain cell; if none, guess once (the lowest mine probability for the
    probability agent, else the guess order). ``want_prob``: the probabilities are needed
    (see ``count.analyse``); ``ws``: the workspace (its soft rows are used)."""
    need, pcell, approx, logw = deduce(S, params, fparams, want_prob, ws)
    if need == NEED_ORDER:
        guess_in_order(flat(S))
    elif need == NEED_GUESS:
        guess(S, trp, params, fparams, pcell, approx, logw)


@njit(cache=True)
def deduce_then_guess(S, trp, params, fparams, ws, guess):
    """The solver family's move: complete deduction from every clue and the mine total
    if told, one whole analysis a move (:func:`deduce`), else ``guess`` (a first-class
    function) by the probabilities, or in the guess order when the analysis failed."""
    deduce_or_guess(S, trp, params, fparams, True, ws, guess)


@njit(cache=True)
def deduce(S, params, fparams, want_prob, ws):
    """The deduction step of :func:`deduce_or_guess` (which other agent families share):
    act on every certain cell. Returns (need, pcell, approx, logw): ``need`` is
    NEED_NOTHING when it acted or the game ended, NEED_ORDER when nothing is certain and
    the agent guesses in order (or the analysis failed), NEED_GUESS when it guesses by
    ``pcell`` (each hidden cell's mine probability, partly approximated if ``approx`` >
    0); ``logw``: the analysis's log total weight (with the total: the log number of
    layouts).

    All deductions come from one analysis of the position; they are sound, so acting on
    all of them before re-analysing cannot change the closure reached.
    """
    n = ncells(S)
    none = np.empty(0, np.float64)
    stop_on_detonation = params[P_RULES] == RULES_CLASSIC
    noise = params[P_NOISE]
    soft = np.zeros((0, 9), np.float64)
    if noise != 0 and params[P_NOISE_AWARE] != 0:
        soft = _soft(S, ws, noise, fparams)
    flag_at = fparams[F_FLAG_THRESHOLD]
    want_prob = want_prob or flag_at < 1.0
    q = Query(params[P_MINE_COUNT] != 0, fparams[F_PRIOR], params[P_BUDGET], want_prob,
              METHOD_AUTO, soft)
    a = analyse(S, q)
    # noisy clues can contradict one another: drop the newest of a contradiction (and
    # count it) until a layout agrees, then go on as usual
    while noise != 0 and a.status != ST_OK and drop_contradicting(S, soft, params[P_BUDGET]):
        if soft.shape[0] > 0:
            soft = _soft(S, ws, noise, fparams)
            q = Query(q.mine_count, q.prior, q.budget, q.want_prob, q.method, soft)
        a = analyse(S, q)
    if a.approx > 0:
        S[n, C_APPROX] += 1
    acted = 0
    if a.status == ST_OK:
        acted = act_on_boxes(S, a.box, a.nbox, stop_on_detonation)
        if acted < 0:
            return NEED_NOTHING, none, a.approx, a.logw
        if a.uded != 0:
            # the mine total decides every unconstrained cell (F_AUX -1 from the analysis)
            ucells = 0
            for c in range(n):
                if status(S, c) == HIDDEN and S[c, F_AUX] < 0:
                    ucells += 1
            for c in range(n):
                if status(S, c) == HIDDEN and S[c, F_AUX] < 0:
                    kind = A_FLAG if a.uded == 2 else A_REVEAL
                    why = R_DEDUCE_MINE if a.uded == 2 else R_DEDUCE_SAFE
                    if act(S, c, kind, why, -1, ucells) == -1 and stop_on_detonation:
                        return NEED_NOTHING, none, a.approx, a.logw
                    acted += 1
    if acted > 0:
        return NEED_NOTHING, none, a.approx, a.logw
    if a.status == ST_OK and flag_at < 1.0 and a.approx == 0:
        # a noise-aware probability agent told to flag below certainty
        if flag_likely(S, a.bprob, a.pu, flag_at) > 0:
            return NEED_NOTHING, none, a.approx, a.logw
    if params[P_VARIANT] == GUESS_IN_ORDER or a.status != ST_OK:
        return NEED_ORDER, none, a.approx, a.logw
    pcell = np.empty(n, np.float64)
    bprob, pu = a.bprob, a.pu
    for c in range(n):
        if status(S, c) == HIDDEN:
            b = S[c, F_AUX]
            pcell[c] = bprob[b] if b >= 0 else pu
    return NEED_GUESS, pcell, a.approx, a.logw


@njit(cache=True)
def flag_likely(S, bprob, pu, at):
    """Flag every hidden cell whose mine probability is at least ``at`` (boxes of the
    last analysis, ``pu`` for the unconstrained cells; ``S[c, F_AUX]`` maps a cell to
    its box). Returns the flags placed."""
    done = 0
    for c in range(ncells(S)):
        if status(S, c) != HIDDEN:
            continue
        b = S[c, F_AUX]
        p = bprob[b] if b >= 0 else pu
        if p >= at:
            act(S, c, A_FLAG, R_FLAG_LIKELY, -1, int(round(1000 * p)))
            done += 1
    return done


@njit(cache=True, inline="always")  # (two call sites, each with a constant from_ws)
def _guess_lowest_in_order(S, trp, pcell, ws, prior, from_ws, approx):
    """Guess the hidden cell of lowest mine probability; ties (within TIE_RTOL) go to the
    earliest in the guess order. The probabilities: ``pcell[c]``, or with ``from_ws``
    the incremental analysis's, read as the cells are met (``W_PROB`` for a frontier
    cell, marked in the analysis's snapshots, ``prior`` for the others: the floats
    ``deduce_or_guess_changed`` would fill). ``approx`` > 0: the probabilities were
    partly approximated (the move's reason says so)."""
    n = ncells(S)
    hid = hidden_left(S)
    snap = snapshots(ws, n) if from_ws else np.empty(0, np.int64)
    best = -1
    bp = 2.0
    F = flat(S)
    order = S[n, C_ORDER]
    i = S[n, C_GPTR]
    while i < n:
        wi = F[order + i]
        i += 1
        if w_status(F[wi]) != HIDDEN:
            continue
        c = cell_of(F, wi)
        if from_ws:
            p = ws[c, W_PROB] if snap[c] & FRONT else prior
        else:
            p = pcell[c]
        if p < bp - TIE_RTOL * bp:
            bp = p
            best = c
    if trp.shape[0] > 0:
        trp[moves(S)] = bp
    act(S, best, A_GUESS, R_APPROX_GUESS if approx > 0 else R_PROB_GUESS, -1, hid)


@njit(cache=True)
def guess_lowest(S, trp, pcell, approx):
    """Guess the hidden cell of lowest mine probability ``pcell[c]`` (ties to the
    earliest in the guess order)."""
    _guess_lowest_in_order(S, trp, pcell, np.empty((0, 0), np.float64), 0.0, False, approx)


@njit(cache=True)
def guess_lowest_front(S, trp, ws, prior, approx):
    """:func:`guess_lowest` straight after an incremental analysis, on its probabilities
    (one pass of the guess order, no fill of every hidden cell's probability first: the
    same cells, floats and ties, so the same guess)."""
    _guess_lowest_in_order(S, trp, np.empty(0, np.float64), ws, prior, True, approx)


@njit(cache=True)
def guess_by_probability(S, trp, params, fparams, pcell, approx, logw):
    """The probability agent's guess: the lowest mine probability."""
    guess_lowest(S, trp, pcell, approx)

"""Tu et al.'s PSEQ guess (``pseq``), and the what-if pieces the solver agents share.

PSEQ ("Exploring Efficient Strategies for Minesweeper", AAAI-17 workshop): among the
hidden cells keep, in turn, only those within a relative ``TIE_RTOL`` of the best by

- P: the lowest mine probability (exact, with the mine total);
- S: the probability that the cell is safe and its value makes at least one more cell
  certainly safe;
- E: the expected number of newly certain-safe cells (a mine counts 0);
- Q: the entropy of the value it shows, given that it is safe;

(values within TIE_ATOL = 1e-12 count as tied too: a value that is 0 exactly, such as
the Q of a cell that can show only one value, is computed as +-2e-16), then take the first in the guess order. "Certainly safe" is complete deduction (with the
total) on the what-if position. The paper's own text was not available to us: the
formulas follow the issue's definitions (see docs/DESIGN.md).

What-ifs of cells that, with their hidden neighbours, touch no clue ("isolated") depend
only on the cell's hidden and known-mine neighbour counts: the position after "c shows v"
is the old components, one new component (c's neighbours, v minus its known mines) and
fewer unconstrained cells. Such cells are computed once per (hidden, known-mine) pair.
"""
import math

import numpy as np

from ...engine.actions import act, observe, restore_knowledge, save_knowledge
from ...inference.count import METHOD_AUTO, ST_OK, Query, analyse
from ...engine.env import cell_of, flat, hidden_left, moves, ncells, status
from ...inference.frontier import CB_DED, CB_SIZE
from ...engine.game import F_PRIOR, P_BUDGET, P_MINE_COUNT
from ...jit import njit
from ...engine.layout import A_GUESS, C_APPROX, C_GPTR, C_ORDER, C_P, HIDDEN, K, R_PSEQ_GUESS
from ..risk import N_KEYS, iso_key  # noqa: F401 (N_KEYS: lookahead imports it here)
from ...inference.whatif.base import (
    OUT_MINE, base_counts, base_logw, outcomes_local, outcomes_whole,
)

TIE_RTOL = 1e-8  # PSEQ's tolerance: values this close (relative) count as tied
TIE_ATOL = 1e-12  # and this close in absolute terms (a dead cell's Q is 0 up to rounding)


@njit(cache=True)
def query(params, fparams, want_prob):
    return Query(params[P_MINE_COUNT] != 0, fparams[F_PRIOR], params[P_BUDGET], want_prob,
                 METHOD_AUTO, np.zeros((0, 9), np.float64))


@njit(cache=True)
def safe_count(S, q):
    """Hidden cells complete deduction proves safe on ``S``'s knowledge (``q``: deduction
    only); -1 if an analysis was approximated."""
    a = analyse(S, q)
    if a.status != ST_OK or a.approx > 0:
        return -1
    box = a.box
    d = 0
    fc = 0
    for b in range(a.nbox):
        fc += box[b, CB_SIZE]
        if box[b, CB_DED] == 1:
            d += box[b, CB_SIZE]
    if a.uded == 1:
        d += hidden_left(S) - fc
    return d


@njit(cache=True)
def fill_row(S, q, base, local, logw, c, pcell, row, keyc):
    """Outcome row of hidden cell ``c`` into ``row`` (reusing its isolated class's row
    from ``keyc``, cell index per class or -1). Returns approximated what-ifs."""
    k = iso_key(S, c)
    if k >= 0 and keyc[k] >= 0:
        row[c, :] = row[keyc[k], :]
        return 0
    row[c, OUT_MINE] = pcell[c]
    if local:
        a = outcomes_local(S, q, base, logw, c, row[c])
    else:
        a = outcomes_whole(S, q, logw, c, row[c])
    if k >= 0:
        keyc[k] = c
    return a


@njit(cache=True)
def fill_safe(S, qd, c, row, safe, keyc):
    """``safe[c, v]``: cells complete deduction proves safe once ``c`` shows v (for each v
    of positive probability). Returns False if an analysis was approximated."""
    k = iso_key(S, c)
    if k >= 0 and keyc[k] >= 0 and keyc[k] != c:
        safe[c, :] = safe[keyc[k], :]
        return True
    buf = np.empty(K + S[ncells(S), C_P], np.int32)
    for v in range(9):
        if row[c, v] <= 0.0:
            continue
        save_knowledge(S, buf)
        observe(S, c, v)
        d = safe_count(S, qd)
        restore_knowledge(S, buf)
        if d < 0:
            return False
        safe[c, v] = d
    return True


@njit(cache=True)
def _keep(vals, cand, m, higher):
    """Keep the candidates within TIE_RTOL of the best of ``vals`` (in place); returns the
    new count and the best value."""
    best = -np.inf if higher else np.inf
    for i in range(m):
        x = vals[cand[i]]
        best = max(best, x) if higher else min(best, x)
    k = 0
    tol = TIE_RTOL * abs(best) + TIE_ATOL
    for i in range(m):
        x = vals[cand[i]]
        if (x >= best - tol) if higher else (x <= best + tol):
            cand[k] = cand[i]
            k += 1
    return k, best


@njit(cache=True)
def criteria(S, q, qd, pcell, cells, sv, ev, qv):
    """S, E and Q of each hidden cell in ``cells`` into ``sv``, ``ev``, ``qv`` (indexed
    by cell; see the module notes). ``q`` / ``qd``: queries with / without probabilities.
    Returns False if an analysis was approximated (the values are then incomplete)."""
    n = ncells(S)
    local, base = base_counts(S, q)
    logw = base_logw(S, base) if local else analyse(S, q).logw
    row = np.zeros((n, OUT_MINE + 1))  # as whatif.base.outcome_table, for these cells
    safe = np.full((n, 9), -1, np.int32)  # cells proved safe after "c shows v"
    keyc = np.full(N_KEYS, -1, np.int64)
    keys = np.full(N_KEYS, -1, np.int64)
    for c in cells:
        if fill_row(S, q, base, local, logw, c, pcell, row, keyc) > 0 or \
                not fill_safe(S, qd, c, row, safe, keys):
            return False
        k = iso_key(S, c)
        if k >= 0 and keys[k] < 0:
            keys[k] = c
        ps = 1.0 - pcell[c]
        sv[c] = ev[c] = qv[c] = 0.0
        for v in range(9):
            r = row[c, v]
            if r <= 0.0:
                continue
            if safe[c, v] > 0:
                sv[c] += r
            ev[c] += r * safe[c, v]
            qv[c] -= (r / ps) * math.log(r / ps)
    return True


@njit(cache=True)
def pseq_guess(S, trp, params, fparams, pcell):
    """Guess by P, S, E, Q in turn (module notes). The move's ``a`` is the deciding
    criterion (0 P, 1 S, 2 E, 3 Q, 4 the guess order) + 8 x round(1000 x its value)."""
    c, stage, value = pseq_choice(S, params, fparams, pcell)
    if trp.shape[0] > 0:
        trp[moves(S)] = pcell[c]
    act(S, c, A_GUESS, R_PSEQ_GUESS, -1, stage + 8 * int(round(1000.0 * value)))


@njit(cache=True)
def pseq_choice(S, params, fparams, pcell):
    """(cell, deciding criterion, its value) of PSEQ's guess (see :func:`pseq_guess`)."""
    n = ncells(S)
    F = flat(S)
    order = S[n, C_ORDER]
    cand = np.empty(n, np.int64)
    m = 0
    for i in range(S[n, C_GPTR], n):  # in guess order: the last tie-break
        c = cell_of(F, F[order + i])
        if status(S, c) == HIDDEN:
            cand[m] = c
            m += 1
    m, best = _keep(1.0 - pcell, cand, m, True)
    stage, value = 0, 1.0 - best
    if m > 1:
        sv = np.zeros(n)
        ev = np.zeros(n)
        qv = np.zeros(n)
        if not criteria(S, query(params, fparams, True), query(params, fparams, False), pcell,
                        cand[:m], sv, ev, qv):
            S[n, C_APPROX] += 1  # the first of the P ties
        else:
            for stage, vals in ((1, sv), (2, ev), (3, qv)):
                m, value = _keep(vals, cand, m, True)
                if m == 1:
                    break
            if m > 1:
                stage = 4
    return cand[0], stage, value

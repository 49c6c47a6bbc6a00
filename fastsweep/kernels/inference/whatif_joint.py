"""Outcome rows and deductions of the what-ifs in one pass (the ``risk`` agent's).

For each hidden cell c, ``whatif.outcome_table``'s row (P(c is a mine), P(c is safe and
shows v)) and, for each value v of positive probability at a cell that is not isolated,
the hidden cells complete deduction decides once c shows v (as ``whatif_ded``).

Why one pass: the what-ifs of one cell's values share their clue set (the components c
touches and c's own clue; only c's value differs), so its frontier is built once per
cell, each value patches c's constraint (``CK_VAL``: nothing else in the frontier
depends on it) and both the weight (``whatif.sub_logw``) and the deduction
(``whatif_ded.decided_sub``) of that value are counted on it. The counts and sums are
``outcome_table``'s own, in the same order (the same floats), and the deductions the
whole analysis's (the same integers).
"""
import math

import numpy as np

from ..engine.actions import observe, restore_knowledge, save_knowledge
from ..engine.env import nb_hidden, nb_mines, ncells
from ..engine.env import status as cell_status
from ..engine.layout import C_P, F_AUX, HIDDEN, K, REVEALED
from ..jit import njit
from .count import ST_OK, Query
from .frontier import CK_VAL
from .results import cell_results
from .whatif import (
    OUT_MINE, _count, base_counts, base_logw, clue_set, outcomes_local, outcomes_whole,
    set_frontier, sub_logw, touch, value_range,
)
from .whatif_ded import decided_sub, whole_counts
from .whatif_iso import N_KEYS, iso_key


@njit(cache=True)
def cell_joint(S, q, base, logw, dbase, c, row, drow, scratch):
    """``whatif.outcomes_local``'s row of hidden cell ``c`` (not isolated) into ``row``,
    and ``drow[v]`` = (cells decided, proved safe) once c shows v, for each v with
    ``row[v]`` > 0 (``dbase``: ``whatif_ded.ded_base``). Returns the what-ifs whose
    weight had to be approximated (their entries left 0)."""
    fr, comp, clen, weights, x, tilt, budget = base
    touched, buf = scratch
    safe_factor = 0.0 if q.mine_count else math.log1p(-q.prior)
    lo, hi = value_range(S, c)
    km = nb_mines(S, c)
    touch(S, comp, c, False, touched)
    save_knowledge(S, buf)
    observe(S, c, lo)
    # ok: every other clue of the set is satisfied (c is at lo = its known mines)
    clues, j, ok = clue_set(S, fr, touched, c, True)
    has_c = nb_hidden(S, c) > 0
    sub = set_frontier(S, clues, j)
    kc = S[c, F_AUX] if has_c else -1  # c's constraint in sub (build_from numbers it)
    approx = 0
    for v in range(lo, hi + 1):
        if kc >= 0:
            sub.con[kc, CK_VAL] = v - km  # as observing v: its value less known mines
        lw = -np.inf
        if ok and (has_c or v == km):  # (without hidden neighbours c must show km)
            lw = sub_logw(S, base, touched, _count(sub, x, tilt, budget, q.method))
        if math.isnan(lw):
            approx += 1
            continue
        row[v] = math.exp(lw - logw + safe_factor)
        if row[v] <= 0.0:
            continue
        d, sd = decided_sub(S, dbase, touched, sub) if dbase.ok else (-2, -2)
        if d == -2:  # the whole analysis of the what-if: observe v itself
            restore_knowledge(S, buf)
            observe(S, c, v)
            d, sd = whole_counts(S, deduction_query(q))
            restore_knowledge(S, buf)
            observe(S, c, lo)
        drow[v, 0] = d
        drow[v, 1] = sd
    restore_knowledge(S, buf)
    return approx


@njit(cache=True)
def deduction_query(q):
    """``q`` asking for deduction only (its total, prior, budget, method, clues)."""
    return Query(q.mine_count, q.prior, q.budget, False, q.method, q.soft)


@njit(cache=True)
def outcomes_decided(S, q, out, dec, dbase):
    """``whatif.outcome_table(S, q, out)`` (the same floats) and ``dec[c, v]`` = (cells
    decided, proved safe) by complete deduction once hidden cell c shows v, for the cells
    that are not isolated and the values with ``out[c, v]`` > 0 (-2 elsewhere: not
    counted here). ``dbase``: ``whatif_ded.ded_base(S, deduction_query(q))``. Returns
    (status, approximated, quality) as ``outcome_table``."""
    q = Query(q.mine_count, q.prior, q.budget, True, q.method, q.soft)
    n = ncells(S)
    prob = np.zeros(n, np.float64)
    ded = np.zeros(n, np.int8)
    status, approx, logw, quality = cell_results(S, q, prob, ded)
    out[:] = 0.0
    dec[:] = -2
    if status != ST_OK:
        return status, approx, quality
    local = False
    if q.soft.shape[0] == 0 and approx == 0:
        local, base = base_counts(S, q)
    if local:
        logw = base_logw(S, base)
        scratch = (np.zeros(max(base[0].ncomp, 1), np.uint8),
                   np.empty(K + S[n, C_P], np.int32))
    rep = np.full(N_KEYS, -1, np.int64)  # as outcome_table: each class's first cell
    rep_approx = np.zeros(N_KEYS, np.int64)
    for c in range(n):
        st = cell_status(S, c)
        if st == REVEALED:
            continue
        if st != HIDDEN:
            out[c, OUT_MINE] = 1.0
            continue
        out[c, OUT_MINE] = prob[c]
        if ded[c] == 2:
            continue
        if not local:
            approx += outcomes_whole(S, q, logw, c, out[c])
            continue
        k = iso_key(S, c)
        if k >= 0 and rep[k] >= 0:
            out[c, :OUT_MINE] = out[rep[k], :OUT_MINE]
            approx += rep_approx[k]
        elif k >= 0:
            rep[k] = c
            rep_approx[k] = outcomes_local(S, q, base, logw, c, out[c])
            approx += rep_approx[k]
        else:
            approx += cell_joint(S, q, base, logw, dbase, c, out[c], dec[c], scratch)
    return status, approx, quality

"""Outcome rows and deductions of the what-ifs in one pass (the ``risk`` agent's).

For each hidden cell c, ``whatif.base.outcome_table``'s row (P(c is a mine), P(c is safe and
shows v)) and, for each value v of positive probability at a cell that is not isolated
(isolated too with the total: once per class), the hidden cells complete deduction
decides once c shows v (as ``whatif.ded``).

Why one pass: the what-ifs of one cell's values share their clue set (the components c
touches and c's own clue; only c's value differs), so its frontier is built once per
cell (and the untouched components' share of the weight, ``whatif.base.rest_part``), each
value patches c's constraint (``CK_VAL``: nothing else in the frontier depends on it)
and both the weight (``whatif.base.sub_logw``) and the deduction of that value are counted on
it. Without the total, when the weight's count is bit for bit the count the deduction's
analysis makes (:func:`shared_tilt`: always with the default prior 0.5), one count
serves both (``whatif.ded.decided_counted`` runs only its backward passes); else the
deduction is counted apart (``whatif.ded.decided_sub``). The counts and sums are
``outcome_table``'s own, in the same order (the same floats), and the deductions the
whole analysis's (the same integers).
"""
import math

import numpy as np

from ...engine.actions import observe, restore_knowledge, save_knowledge
from ...engine.env import nb_hidden, nb_mines, ncells
from ...engine.env import status as cell_status
from ...engine.layout import C_P, F_AUX, HIDDEN, K, REVEALED
from ...jit import njit
from ..count import LOG_ODDS_TILT, ST_OK, Query
from ..frontier import CK_VAL
from ..results import cell_results
from .base import (
    OUT_MINE, base_counts, base_logw, clue_set, count_cd, outcomes_whole,
    rest_part, set_frontier, sub_logw, touch, value_range,
)
from .ded import (
    _finish, decided_counted, decided_sub, untouched_part, whole_counts,
)
from .iso import N_KEYS, iso_key


@njit(cache=True)
def shared_tilt(q, base, dbase):
    """(share, tilt): whether a what-if's weight count (``base``'s x and keying) is the
    very count ``count.analyse_frontier`` makes for its deduction (without the total:
    the same x, bit for bit, and keying; with the total the deduction counts without it,
    the weights with it), and that analysis's tilt (x, log odds, by mine count)."""
    x, tilt = base[4], base[5]
    lodds = math.log(dbase.prior) - math.log1p(-dbase.prior)  # as analyse_frontier
    by_mines = abs(lodds) > LOG_ODDS_TILT
    xd = 1.0 if by_mines else dbase.prior / (1.0 - dbase.prior)
    share = dbase.ok and not q.mine_count and xd == x and by_mines == tilt[1]
    return share, (xd, lodds, by_mines)


@njit(cache=True)
def cell_joint(S, q, base, logw, dbase, c, row, drow, scratch):
    """``whatif.base.outcomes_local``'s row of hidden cell ``c`` into ``row`` (the same
    floats), and, unless ``drow`` is empty, ``drow[v]`` = (cells decided, proved safe)
    once c shows v, for each v with ``row[v]`` > 0 (``dbase``: ``whatif.ded.ded_base``).
    Returns the what-ifs whose weight had to be approximated (their entries left 0)."""
    fr, comp, clen, weights, x, tilt, budget = base
    touched, buf = scratch
    safe_factor = 0.0 if q.mine_count else math.log1p(-q.prior)
    share, dtilt = shared_tilt(q, base, dbase)
    lo, hi = value_range(S, c)
    km = nb_mines(S, c)
    touch(S, comp, c, False, touched)
    rest = rest_part(base, touched)  # (the same for every value, as is upart)
    upart = untouched_part(dbase, touched)
    save_knowledge(S, buf)
    observe(S, c, lo)
    # ok: every other clue of the set is satisfied (c is at lo = its known mines)
    clues, j, ok = clue_set(S, fr, touched, c, True)
    has_c = nb_hidden(S, c) > 0
    sub = set_frontier(S, clues, j)
    kc = S[c, F_AUX] if has_c else -1  # c's constraint in sub (build_from numbers it)
    bprob = np.empty(max(sub.nbox, 1))  # (the backward passes' scratch)
    # with the total, an isolated cell's clue set is its own clue over one box, its
    # hidden neighbours: the deduction's count is two DP states (exact when the budget
    # allows two) at x = 1 (no weight vanishes), and decides the box iff its value
    # less known mines is 0 or the box's size (no count needed)
    lone = q.mine_count and dbase.ok and dbase.budget >= 2 and sub.ncon <= 1 \
        and not touched.any()
    approx = 0
    for v in range(lo, hi + 1):
        if kc >= 0:
            sub.con[kc, CK_VAL] = v - km  # as observing v: its value less known mines
        if not (ok and (has_c or v == km)):  # (without hidden neighbours c shows km)
            row[v] = math.exp(-np.inf - logw + safe_factor)  # no layout (as outcomes_local)
            continue
        counted = count_cd(sub, x, tilt, budget, q.method)
        lw = sub_logw(S, tilt, rest, counted[0], counted[1], counted[3])
        if math.isnan(lw):
            approx += 1
            continue
        row[v] = math.exp(lw - logw + safe_factor)
        if row[v] <= 0.0 or drow.shape[0] == 0:
            continue
        d, sd = -2, -2
        if lone:  # one clue over one box: its count decides the box or nothing
            t = v - km
            h = nb_hidden(S, c)
            d, sd = _finish(S, True, (h if t == 0 or t == h else 0, h if t == 0 else 0, h,
                                      t, t), upart)
        elif share:  # the weight's count is the deduction's: its backward passes only
            d, sd = decided_counted(S, dbase.told, upart, sub, counted, dtilt, bprob)
        elif dbase.ok:
            d, sd = decided_sub(S, dbase, upart, sub)
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
def outcomes_decided(S, q, out, dec, dbase, want_d):
    """``whatif.base.outcome_table(S, q, out)`` (the same floats) and ``dec[c, v]`` = (cells
    decided, proved safe) by complete deduction once hidden cell c shows v, for the cells
    that are not isolated (all, with the total) and the values with ``out[c, v]`` > 0
    (-2 elsewhere: not counted here; nowhere unless ``want_d``: the rows alone, faster
    than ``outcome_table``'s). ``dbase``: ``whatif.ded.ded_base`` of ``S`` and
    :func:`deduction_query` of ``q``. Returns (status, approximated, quality) as
    ``outcome_table``."""
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
        if k >= 0 and rep[k] >= 0:  # (its deductions are its class's too)
            out[c, :OUT_MINE] = out[rep[k], :OUT_MINE]
            dec[c, :OUT_MINE] = dec[rep[k], :OUT_MINE]
            approx += rep_approx[k]
            continue
        # an isolated cell's deductions: only with the total (without it, risk's
        # formula), once per class
        drow = dec[c] if want_d and (k < 0 or q.mine_count) else dec[c, :0]
        a = cell_joint(S, q, base, logw, dbase, c, out[c], drow, scratch)
        approx += a
        if k >= 0:
            rep[k] = c
            rep_approx[k] = a
    return status, approx, quality

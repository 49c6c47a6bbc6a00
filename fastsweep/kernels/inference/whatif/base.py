"""What-if questions on a copy of the knowledge: the distribution of a cell's clue.

For a hidden cell x and a value v, P(x is safe and shows v) is the total weight of the
layouts that agree with the position *and* with "x shows v", over the total weight of
those that agree with the position. Without the mine total, the hypothetical position
has one hidden cell less, whose prior weight (1 - prior) of being safe is put back here.

Observing v at x changes only the components x touches (those holding x or one of its
hidden neighbours): they merge, with x's new clue, into the components of a closed
clue set. So the position is counted once (:func:`base_counts`: each component's weight,
by mine count when the total is known), and each what-if (:func:`whatif_logw`) observes
v on the knowledge, counts only that clue set's components and puts the untouched
components' weights back: a sum of logs without the total, a convolution by mine count
and the binomial of the unconstrained cells with it. Positions with soft clues or an
approximated component take the whole analysis per what-if (:func:`outcome_table`).
Isolated cells (``whatif.iso.iso_key``: with their hidden neighbours they touch no
clue) of a class have the same what-ifs: counted once per class. The pieces of a local
what-if (:func:`touch`, :func:`clue_set`, :func:`set_frontier`, :func:`rest_part`,
:func:`sub_logw`) are shared with ``whatif/joint.py``, which also gives the what-ifs'
deductions.
"""
import math

import numpy as np

from ...engine.actions import observe, restore_knowledge, save_knowledge
from ..combine import _lnbinom
from ..count import (
    DEFAULT_BUDGET, LOG_ODDS_TILT, ST_OK, Query, _component_weights, _count_components,
    analyse,
)
from ...engine.env import (
    hidden_left, mines_left, mines_left_known, nb_hidden, nb_mines, ncells, word,
)
from ...engine.env import status as cell_status
from ..frontier import CB_C, CB_COMP, CB_SIZE, CK_CELL, CK_COMP, frontier, frontier_of
from ...jit import njit
from ...engine.layout import C_P, F_AUX, F_NBR, F_NNB, HIDDEN, K, PH_WHATIF, REVEALED, WK_WHATIFS
from ...engine.work import count_work, enter, leave
from ..results import cell_results
from .iso import N_KEYS, iso_key

OUT_MINE = 9  # column of "the cell is a mine"; columns 0..8: safe and shows that clue


@njit(cache=True)
def _free_log(cm, i, l1mp):
    """:func:`_comp_log`'s scale without the total, counted unkeyed (no array made)."""
    w = cm.wv[cm.woff[i]]
    return (math.log(w) if w > 0.0 else -np.inf) + cm.lsc[i] + cm.clen[i] * l1mp


@njit(cache=True)
def _comp_log(cm, i, tilt):
    """Component ``i``'s weight as (values by mine count, log scale): the true weight of
    its layouts with k mines is values[k] x exp(scale). ``tilt`` = (log of the tilt
    the DP counted with, counted by mine count, log of the prior's odds or NaN with the
    total, log(1 - prior)). Without the total the values are one number (k = 0), the
    prior's weight of the component included."""
    lx, keyed, lodds, l1mp, mine_count = tilt
    wo = cm.woff[i]
    if not keyed:
        return np.ones(1), _free_log(cm, i, l1mp)
    kl = cm.clen[i] + 1
    lv = np.full(kl, -np.inf)
    top = -np.inf
    for k in range(cm.kmin[i], cm.kmax[i] + 1):
        if cm.wx[wo + k] and cm.wv[wo + k] > 0.0:
            # counted with tilt x^k: divide it out; without the total, weigh by odds^k
            lv[k] = math.log(cm.wv[wo + k]) - k * lx
            if not mine_count:
                lv[k] += k * lodds
            top = max(top, lv[k])
    vals = np.zeros(kl)
    for k in range(kl):
        if lv[k] > -np.inf:
            vals[k] = math.exp(lv[k] - top)
    scale = top + cm.lsc[i]
    if top == -np.inf:
        return vals, -np.inf
    if not mine_count:
        # without the total: one number (sum over k), the (1 - prior)^cells factor in
        return np.ones(1), scale + math.log(vals.sum()) + cm.clen[i] * l1mp
    return vals, scale


@njit(cache=True)
def _conv(a, sa, b, sb):
    """Convolution of two scaled weight vectors, rescaled to a largest entry of 1."""
    c = np.zeros(a.shape[0] + b.shape[0] - 1)
    for i in range(a.shape[0]):
        if a[i] != 0.0:
            for j in range(b.shape[0]):
                c[i + j] += a[i] * b[j]
    m = c.max()
    if m > 0.0:
        c /= m
        return c, sa + sb + math.log(m)
    return c, -np.inf


@njit(cache=True)
def _log_total(vals, scale, u, mleft):
    """log sum_k vals[k] exp(scale) C(u, mleft - k): the unconstrained cells take the rest."""
    top = -np.inf
    for k in range(vals.shape[0]):
        if vals[k] > 0.0 and 0 <= mleft - k <= u:
            top = max(top, math.log(vals[k]) + _lnbinom(u, mleft - k))
    if top == -np.inf:
        return -np.inf
    z = 0.0
    for k in range(vals.shape[0]):
        if vals[k] > 0.0 and 0 <= mleft - k <= u:
            z += math.exp(math.log(vals[k]) + _lnbinom(u, mleft - k) - top)
    return scale + top + math.log(z)


@njit(cache=True)
def _tilt(q, mleft, hid):
    """(x the DP counts with, its log, counted by mine count, tilt record for _comp_log)."""
    lodds = math.log(q.prior) - math.log1p(-q.prior)
    if q.mine_count:
        p = (mleft + 0.5) / (hid + 1.0)
        x = p / (1.0 - p)
        return x, (math.log(x), True, lodds, 0.0, True)
    keyed = abs(lodds) > LOG_ODDS_TILT
    x = 1.0 if keyed else math.exp(lodds)
    return x, (math.log(x), keyed, lodds, math.log1p(-q.prior), False)


@njit(cache=True)
def _count(fr, x, tilt, budget, method):
    """Forward-count every component of ``fr``: (status, approximated, Comps)."""
    status, approx, cd, cm = count_cd(fr, x, tilt, budget, method)
    return status, approx, cm


@njit(cache=True)
def count_cd(fr, x, tilt, budget, method):
    """:func:`_count` and its DP storage: (status, approximated, Counted, Comps), as
    ``count.analyse_frontier`` counts before its backward passes."""
    status, approx, cd, cm = _count_components(fr, x, tilt[1], budget, method)
    if status == ST_OK:
        _component_weights(fr, cm, cd, tilt[1], np.empty(max(fr.nbox, 1)))
    return status, approx, cd, cm


@njit(cache=True)
def base_counts(S, q):
    """Count the position once for what-ifs. Returns (ok, base): ok False when a
    component was approximated (what-ifs then need whole analyses); base = (frontier,
    each cell's component or -1, the components' cells, their weights (values, offsets,
    scales) as in :func:`_comp_log`, x, tilt, budget)."""
    n = ncells(S)
    budget = q.budget if q.budget > 0 else DEFAULT_BUDGET
    fr = frontier(S)
    x, tilt = _tilt(q, mines_left_known(S), hidden_left(S))
    status, approx, cm = _count(fr, x, tilt, budget, q.method)
    comp = np.full(n, -1, np.int32)
    for b in range(fr.nbox):
        for j in range(fr.box[b, CB_SIZE]):
            comp[fr.box[b, CB_C + j]] = fr.box[b, CB_COMP]
    ok = status == ST_OK and approx == 0
    # component i's weights by mine count at vals[voff[i]:voff[i + 1]], scale scales[i]
    voff = np.zeros(fr.ncomp + 1, np.int64)
    for i in range(fr.ncomp):
        voff[i + 1] = voff[i] + (cm.clen[i] + 1 if tilt[4] else 1)
    vals = np.zeros(voff[-1])
    scales = np.zeros(max(fr.ncomp, 1))
    for i in range(fr.ncomp):
        if ok:
            v, scales[i] = _comp_log(cm, i, tilt)
            vals[voff[i]:voff[i] + v.shape[0]] = v
    return ok, (fr, comp, cm.clen, (vals, voff, scales), x, tilt, budget)


@njit(cache=True)
def touch(S, comp, c, mine, touched):
    """Mark in ``touched`` (uint8, zeroed here) the components an outcome at hidden cell
    ``c`` changes: c's own and, unless c is a ``mine``, its hidden neighbours'."""
    touched[:] = 0
    if comp[c] >= 0:
        touched[comp[c]] = 1
    if not mine:
        for k in range(S[c, F_NNB]):
            d = S[c, F_NBR + k]
            if comp[d] >= 0:
                touched[comp[d]] = 1


@njit(cache=True)
def clue_set(S, fr, touched, c, with_c):
    """The closed clue set of a what-if at ``c`` (observed in ``S``): the touched
    components' clues and c's (unless not ``with_c``: c is a mine), those with hidden
    neighbours left (ascending cells). Returns (clues, their number, ok): ok False when
    one without is not satisfied (its value must be its known mines)."""
    clues = np.empty(fr.ncon + 1, np.int32)
    j = 0
    ok = True
    for k in range(fr.ncon + 1 if with_c else fr.ncon):
        e = c if k == fr.ncon else fr.con[k, CK_CELL]
        if k < fr.ncon and not touched[fr.con[k, CK_COMP]]:
            continue
        w = word(S, e)
        if nb_hidden(S, e) > 0:
            clues[j] = e
            j += 1
        elif mines_left(w) != 0:
            ok = False
    clues[:j].sort()
    return clues, j, ok


@njit(cache=True)
def set_frontier(S, clues, j):
    """The frontier of the closed clue set ``clues[:j]`` (``frontier.frontier_of``)."""
    for i in range(j):  # build_from wants the set's hidden cells unmarked
        e = clues[i]
        for a in range(S[e, F_NNB]):
            S[S[e, F_NBR + a], F_AUX] = -1
    return frontier_of(S, clues, j)


@njit(cache=True)
def rest_part(base, touched):
    """The untouched components' share of :func:`sub_logw`: (their cells, their summed
    log weights without the total, their convolution by mine count (values, scale) with
    it). The same for every value of one cell: counted once per cell (the same sums in
    the same order, so the same floats)."""
    fr, comp, clen, weights, x, tilt, budget = base
    vals, voff, scales = weights
    fc = 0
    for i in range(fr.ncomp):
        if not touched[i]:
            fc += clen[i]
    lw = 0.0
    acc = np.ones(1)
    sa = 0.0
    for i in range(fr.ncomp):
        if not touched[i]:
            if not tilt[4]:
                lw += scales[i]
            else:
                acc, sa = _conv(acc, sa, vals[voff[i]:voff[i + 1]], scales[i])
    return fc, lw, acc, sa


@njit(cache=True)
def sub_logw(S, tilt, rest, status, approx, cm):
    """:func:`whatif_logw` once the clue set's frontier is counted (``status``,
    ``approx``, ``cm``: its ``_count``; ``tilt``: the base's): the untouched components'
    weights (``rest``: :func:`rest_part`) put back (``S``: the what-if knowledge, for
    the unconstrained cells and mines left)."""
    if status != ST_OK:
        return -np.inf
    if approx > 0:
        return np.nan
    fc, lw, acc, sa = rest
    nsub = cm.woff.shape[0] - 1  # the clue set's components
    for i in range(nsub):
        fc += cm.clen[i]
    if not tilt[4]:
        for i in range(nsub):
            lw += _comp_log(cm, i, tilt)[1] if tilt[1] else _free_log(cm, i, tilt[3])
        return lw
    for i in range(nsub):
        vv, ss = _comp_log(cm, i, tilt)
        acc, sa = _conv(acc, sa, vv, ss)
    return _log_total(acc, sa, hidden_left(S) - fc, mines_left_known(S))


@njit(cache=True)
def whatif_logw(S, q, base, c, v, touched):
    """log of the total weight of the position with hidden cell ``c`` revealed showing
    ``v`` (NaN if a component had to be approximated, -inf if no layout agrees), counting
    only the components ``c`` touches. ``touched`` (uint8, ncomp) is scratch; ``S`` is
    left as it was (its ``F_AUX`` scratch aside)."""
    fr, comp, clen, weights, x, tilt, budget = base
    n = ncells(S)
    touch(S, comp, c, False, touched)
    buf = np.empty(K + S[n, C_P], np.int32)  # see layout.knowledge_ints
    save_knowledge(S, buf)
    observe(S, c, v)
    clues, j, ok = clue_set(S, fr, touched, c, True)
    lw = -np.inf
    if ok:
        sub = set_frontier(S, clues, j)
        status, approx, cm = _count(sub, x, tilt, budget, q.method)
        lw = sub_logw(S, tilt, rest_part(base, touched), status, approx, cm)
    restore_knowledge(S, buf)
    return lw


@njit(cache=True)
def base_logw(S, base):
    """The position's own log total weight from ``base`` (same sums as the what-ifs)."""
    fr, comp, clen, weights, x, tilt, budget = base
    vals, voff, scales = weights
    if not tilt[4]:
        return scales[:fr.ncomp].sum()
    acc = np.ones(1)
    sa = 0.0
    fc = 0
    for i in range(fr.ncomp):
        acc, sa = _conv(acc, sa, vals[voff[i]:voff[i + 1]], scales[i])
        fc += clen[i]
    return _log_total(acc, sa, hidden_left(S) - fc, mines_left_known(S))


@njit(cache=True)
def outcome_table(S, q, out, reuse=True):
    """Fill ``out`` (float64 (N, 10)): for a hidden cell c, ``out[c, v]`` = P(c is safe and
    shows v) for v = 0..8 and ``out[c, 9]`` = P(c is a mine); a known mine has
    ``out[c, 9] = 1``, a revealed cell zeros (NaN entries where an analysis had to be
    approximated: no exact weight). Returns (status, approximated analyses, quality of
    the position's own analysis as in ``results.cell_results``):
    status as ``count.analyse`` for the position itself. ``q``: a ``count.Query``
    (its ``want_prob`` is ignored: probabilities are needed). ``reuse`` False: a whole
    analysis per what-if (the benchmark's reference; same results). With ``reuse`` the
    isolated cells of a class (:func:`iso_key`) copy the first one's row: the local
    what-ifs give them the same floats (bit for bit), counted once."""
    q = Query(q.mine_count, q.prior, q.budget, True, q.method, q.soft)
    n = ncells(S)
    prob = np.zeros(n, np.float64)
    ded = np.zeros(n, np.int8)
    status, approx, logw, quality = cell_results(S, q, prob, ded)
    out[:] = 0.0
    if status != ST_OK:
        return status, approx, quality
    local = False
    if reuse and q.soft.shape[0] == 0 and approx == 0:
        local, base = base_counts(S, q)
    if local:
        logw = base_logw(S, base)
    rep = np.full(N_KEYS, -1, np.int64)  # each isolated class's first cell
    rep_approx = np.zeros(N_KEYS, np.int64)  # and its what-ifs approximated
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
        if local:
            k = iso_key(S, c)
            if k >= 0 and rep[k] >= 0:
                out[c, :OUT_MINE] = out[rep[k], :OUT_MINE]
                approx += rep_approx[k]
                continue
            a = outcomes_local(S, q, base, logw, c, out[c])
            approx += a
            if k >= 0:
                rep[k] = c
                rep_approx[k] = a
        else:
            approx += outcomes_whole(S, q, logw, c, out[c])
    return status, approx, quality


@njit(cache=True)
def value_range(S, c):
    """The values hidden cell ``c`` can show: its known-mine neighbours up to those plus
    its hidden neighbours (at most 8)."""
    km = nb_mines(S, c)
    return km, min(km + nb_hidden(S, c), 8)


@njit(cache=True)
def outcomes_local(S, q, base, logw, c, row):
    """Fill ``row[v]`` = P(hidden cell ``c`` is safe and shows v), v = 0..8, by
    :func:`whatif_logw` on ``base`` (:func:`base_counts`, which must have been exact),
    ``logw`` the position's log total weight (:func:`base_logw`). Returns the what-ifs
    that had to be approximated (their entries are left 0)."""
    safe_factor = 0.0 if q.mine_count else math.log1p(-q.prior)
    touched = np.zeros(max(base[0].ncomp, 1), np.uint8)
    lo, hi = value_range(S, c)
    approx = 0
    ph = enter(S, PH_WHATIF)
    count_work(S, WK_WHATIFS, hi - lo + 1)
    for v in range(lo, hi + 1):
        lw = whatif_logw(S, q, base, c, v, touched)
        if math.isnan(lw):
            approx += 1
        else:
            row[v] = math.exp(lw - logw + safe_factor)
    leave(S, ph)
    return approx


@njit(cache=True)
def outcomes_whole(S, q, logw, c, row):
    """:func:`outcomes_local` with a whole analysis per value (soft clues, approximated
    positions, the benchmark's reference). Returns the approximated analyses met."""
    n = ncells(S)
    safe_factor = 0.0 if q.mine_count else math.log1p(-q.prior)
    buf = np.empty(K + S[n, C_P], np.int32)  # see layout.knowledge_ints
    lo, hi = value_range(S, c)
    approx = 0
    ph = enter(S, PH_WHATIF)
    count_work(S, WK_WHATIFS, hi - lo + 1)
    for v in range(lo, hi + 1):
        save_knowledge(S, buf)
        observe(S, c, v)
        a = analyse(S, q)
        restore_knowledge(S, buf)
        approx += a.approx
        if a.status == ST_OK:
            row[v] = math.exp(a.logw - logw + safe_factor)
    leave(S, ph)
    return approx

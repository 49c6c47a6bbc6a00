"""Components too large to count: their certain cells by search, their probabilities
by sampling (steps 2b and 2c of an analysis, see ``count.py``).

Both keep the analysis honest: deduction does not depend on the budget (``search.py``),
and the probabilities are an estimate with a stated error (``estimate.py``), never a
heuristic presented as a probability.
"""
import math

import numpy as np

from .combine import HOW_APPROX, ST_CLUES, ST_OK, ST_TOTAL, Counted
from .estimate import SAMPLES, box_estimates, sample_component
from .frontier import CB_DED, span
from ..jit import njit
from .search import SEARCH_LIMIT, SEARCH_NONE, decide_by_search, feasible_totals

SEARCH_NODES = 1 << 18  # decisions a deduction by search may try per component


#: Most set-sum steps (entries x values) spent on the exact totals the other components
#: leave each approximated one (see _allowed_totals); past it the deduction uses their
#: range only and the component counts as undecided.
SUM_WORK = 1 << 27


@njit(cache=True)
def search_approximated(fr, cm, srange, total):
    """Deduction by search (``search.py``) in every component too large to count, so
    certain cells never depend on the budget. With the total (``total`` = (used, u,
    mines left)) each such component is searched on the totals the rest of the board
    leaves it, exactly (:func:`_search_with_total`). Returns (status, components whose
    deduction may be incomplete: their search stopped at its limit of SEARCH_NODES
    assignments, which does not depend on the budget, or the totals were too costly to
    track exactly)."""
    bym, u, mleft = total
    if bym:
        return _search_with_total(fr, cm, srange, u, mleft)
    undecided = 0
    for i in range(fr.ncomp):
        if cm.how[i] != HOW_APPROX:
            continue
        st = decide_by_search(fr, i, (0, cm.clen[i]), SEARCH_NODES)
        if st == SEARCH_NONE:
            return ST_CLUES, undecided
        if st == SEARCH_LIMIT:
            undecided += 1
    return ST_OK, undecided


@njit(cache=True)
def _search_with_total(fr, cm, srange, u, mleft):
    """:func:`search_approximated` with the mine total. First each approximated
    component's feasible totals, by search, within what the others' ranges leave (they
    replace its feasibility ``cm.wx``, so the combination and the counted components'
    deductions see them); then its certain cells, searched on the totals k it can hold
    that the other components' feasible totals (a set, not only a range) and the
    unconstrained cells complete to the mines left: a cell is certain iff it is so for
    every such k (one search per run of consecutive allowed totals)."""
    smin, smax = srange
    undecided = 0
    exact = True
    for i in range(fr.ncomp):
        if cm.how[i] != HOW_APPROX:
            continue
        lo = max(0, mleft - u - (smax - cm.kmax[i]))
        hi = min(cm.clen[i], mleft - (smin - cm.kmin[i]))
        wx = np.zeros(cm.clen[i] + 1, np.uint8)
        if lo > hi or not feasible_totals(fr, i, (lo, hi), SEARCH_NODES, wx):
            if lo <= hi:
                exact = False  # (every total in the range marked: sound)
            else:
                wx[:] = 0
        anyk = False
        for k in range(cm.clen[i] + 1):
            anyk = anyk or wx[k] == 1
        if not anyk:
            if decide_by_search(fr, i, (0, cm.clen[i]), SEARCH_NODES) == SEARCH_NONE:
                return ST_CLUES, undecided
            return ST_TOTAL, undecided
        wo = cm.woff[i]
        star = 0  # the rough estimate's one total (see _component_weights) ...
        for k in range(cm.clen[i] + 1):
            if cm.wv[wo + k] > 0.0:
                star = k
            cm.wv[wo + k] = 0.0
            cm.wx[wo + k] = wx[k]
        best = -1  # ... moved to the nearest feasible one
        for k in range(cm.clen[i] + 1):
            if wx[k] and (best < 0 or abs(k - star) < abs(best - star)):
                best = k
        cm.wv[wo + best] = 1.0  # the rough estimate's weight stays on one total
    for i in range(fr.ncomp):
        if cm.how[i] != HOW_APPROX:
            continue
        b0, nb, _ = span(fr, i)
        allowed = np.zeros(cm.clen[i] + 1, np.uint8)
        if not _allowed_totals(cm, i, u, mleft, allowed):
            exact = False
        acc = np.zeros(nb, np.int8)
        first = True
        limit = False
        k = 0
        while k <= cm.clen[i]:
            if not allowed[k]:
                k += 1
                continue
            a = k
            while k + 1 <= cm.clen[i] and allowed[k + 1]:
                k += 1
            st = decide_by_search(fr, i, (a, k), SEARCH_NODES)
            k += 1
            if st == SEARCH_NONE:
                continue
            if st == SEARCH_LIMIT:
                limit = True
            for t in range(nb):
                d = fr.box[fr.order[b0 + t], CB_DED]
                if first:
                    acc[t] = d
                elif acc[t] != d:
                    acc[t] = 0
            first = False
        if first:
            return ST_TOTAL, undecided
        for t in range(nb):  # (a run stopped at its limit left its undecided boxes 0)
            fr.box[fr.order[b0 + t], CB_DED] = acc[t]
        if limit or not exact:
            undecided += 1
    return ST_OK, undecided


@njit(cache=True)
def _allowed_totals(cm, i, u, mleft, allowed):
    """Mark in ``allowed`` the totals k of component ``i`` (feasible in ``cm.wx``) that
    the other components' feasible totals and the ``u`` unconstrained cells complete to
    ``mleft``: the set of the others' sums is built by adding one component's set at a
    time. Past SUM_WORK steps, every feasible k within the others' range is marked and
    False returned (sound, maybe incomplete)."""
    L = cm.wv.shape[0]
    cur = np.zeros(L + 1, np.uint8)
    nxt = np.zeros(L + 1, np.uint8)
    cur[0] = 1
    clo = 0
    chi = 0
    work = 0
    done = True
    for j in range(cm.clen.shape[0]):
        if j == i:
            continue
        wo = cm.woff[j]
        work += (chi - clo + 1) * (cm.kmax[j] - cm.kmin[j] + 1)
        if work > SUM_WORK:
            done = False
            break
        for s in range(clo, chi + 1):
            if cur[s]:
                for k in range(cm.kmin[j], cm.kmax[j] + 1):
                    if cm.wx[wo + k]:
                        nxt[s + k] = 1
        for s in range(clo, chi + 1):
            cur[s] = 0
        clo += cm.kmin[j]
        chi += cm.kmax[j]
        cur, nxt = nxt, cur
    if not done:  # the others' range only
        clo = 0
        chi = 0
        for j in range(cm.clen.shape[0]):
            if j != i:
                clo += cm.kmin[j]
                chi += cm.kmax[j]
        for s in range(clo, chi + 1):
            cur[s] = 1
    # prefix counts of the others' sums: is some s in [mleft - u - k, mleft - k]?
    pre = np.zeros(L + 2, np.int64)
    for s in range(L + 1):
        pre[s + 1] = pre[s] + (cur[s] if clo <= s <= chi else 0)
    wo = cm.woff[i]
    for k in range(cm.clen[i] + 1):
        if not cm.wx[wo + k]:
            continue
        a = max(mleft - u - k, 0)
        b = min(mleft - k, L)
        if a <= b and pre[b + 1] - pre[a] > 0:
            allowed[k] = 1
    return done


@njit(cache=True)
def sample_approximated(fr, cm, cd, tilt, totals, bprob):
    """Step 2c: draw weighted layouts of every component too large to count
    (``estimate.py``). Without the total their boxes' probabilities come from the draws
    here; with it the draws' histogram by mine count replaces the component's weights
    (so the combination stays consistent) and ``combine_total`` reweights them. Returns
    (counted with the draws, (largest standard error, smallest effective sample size)).

    Only the draws ``combine_total`` reads are kept: with the total, one row of log
    weights and totals per approximated component and their boxes' counts side by side
    (in component order, read back by ``combine.combine_total``); without it, one component's at a
    time. (Sized by the whole frontier they took 32 KB per component and 2 KB per box
    of a large view as soon as one component was approximated.)"""
    lx, bym = tilt
    smin, smax, u, mleft = totals
    n = SAMPLES
    napp = 0
    nbapp = 0
    nbmax = 0
    for i in range(fr.ncomp):
        if cm.how[i] == HOW_APPROX:
            nb = span(fr, i)[1]
            napp += 1
            nbapp += nb
            nbmax = max(nbmax, nb)
    SM = np.zeros((n, max(nbapp if bym else nbmax, 1)), np.int8)
    LW = np.full((max(napp if bym else 1, 1), n), -np.inf)
    KS = np.zeros((max(napp if bym else 1, 1), n), np.int64)
    se = 0.0
    ess = np.inf
    one = np.ones(1, np.float64)
    r = 0
    c = 0
    for i in range(fr.ncomp):
        if cm.how[i] != HOW_APPROX:
            continue
        b0, nb, _ = span(fr, i)
        lo = 0
        hi = cm.clen[i]
        if bym:
            lo = max(lo, mleft - u - (smax - cm.kmax[i]))
            hi = min(hi, mleft - (smin - cm.kmin[i]))
        if not bym:
            SM[:, :nb] = 0  # (the scratch of the previous component)
        lw, ks = sample_component(fr, i, lx, (lo, hi), SM[:, c:c + nb])
        if bym:
            LW[r] = lw
            KS[r] = ks
            r += 1
            c += nb
            wo = cm.woff[i]
            top = -np.inf
            for j in range(n):
                top = max(top, lw[j])
            for k in range(cm.clen[i] + 1):
                cm.wv[wo + k] = 0.0
            if top > -np.inf:
                for j in range(n):
                    if lw[j] > -np.inf:
                        cm.wv[wo + ks[j]] += math.exp(lw[j] - top)
            continue
        e, ef = box_estimates(fr, i, SM[:, :nb], lw, (one, ks), bprob)
        se = max(se, e)
        ess = min(ess, ef)
    if bym:
        ess = 0.0
        for r in range(napp):
            sw = 0.0
            sw2 = 0.0
            top = -np.inf
            for j in range(n):
                top = max(top, LW[r, j])
            for j in range(n):
                if LW[r, j] > -np.inf:
                    w = math.exp(LW[r, j] - top)
                    sw += w
                    sw2 += w * w
            ef = sw * sw / sw2 if sw2 > 0.0 else 0.0
            ess = ef if ess == 0.0 else min(ess, ef)
    else:
        SM = np.zeros((0, 0), np.int8)  # (nothing for combine_total)
        LW = np.zeros((0, 0), np.float64)
        KS = np.zeros((0, 0), np.int64)
    return Counted(cd.pool, cd.tp, cd.plan, (SM, LW, KS)), (se, ess)


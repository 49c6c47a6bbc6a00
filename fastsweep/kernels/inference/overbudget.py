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
from .frontier import span
from ..jit import njit
from .search import SEARCH_LIMIT, SEARCH_NONE, decide_by_search, feasible_totals

SEARCH_NODES = 1 << 18  # decisions a deduction by search may try per component


@njit(cache=True)
def search_approximated(fr, cm, srange, total):
    """Deduction by search (``search.py``) in every component too large to count, so
    certain cells never depend on the budget. With the total (``total`` = (used, u,
    mines left)) a component's own total is held to what the others' ranges leave.
    Returns (status, components whose search stopped at its limit of SEARCH_NODES
    assignments, which does not depend on the budget)."""
    bym, u, mleft = total
    smin, smax = srange
    undecided = 0
    for i in range(fr.ncomp):
        if cm.how[i] != HOW_APPROX:
            continue
        lo = 0
        hi = cm.clen[i]
        if bym:
            lo = max(lo, mleft - u - (smax - cm.kmax[i]))
            hi = min(hi, mleft - (smin - cm.kmin[i]))
        st = decide_by_search(fr, i, (lo, hi), SEARCH_NODES)
        if st == SEARCH_NONE:
            if bym and decide_by_search(fr, i, (0, cm.clen[i]), SEARCH_NODES) != SEARCH_NONE:
                return ST_TOTAL, undecided
            return ST_CLUES, undecided
        if st == SEARCH_LIMIT:
            undecided += 1
        elif bym:
            # which totals it can hold, exactly: the unconstrained cells' deduction and
            # the other components' feasibility depend on them
            wo = cm.woff[i]
            wx = np.zeros(cm.clen[i] + 1, np.uint8)
            if not feasible_totals(fr, i, (lo, hi), SEARCH_NODES, wx):
                undecided += 1
                continue
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
            star = best
            cm.wv[wo + star] = 1.0  # the rough estimate's weight stays on one total
    return ST_OK, undecided


@njit(cache=True)
def sample_approximated(fr, cm, cd, tilt, totals, bprob):
    """Step 2c: draw weighted layouts of every component too large to count
    (``estimate.py``). Without the total their boxes' probabilities come from the draws
    here; with it the draws' histogram by mine count replaces the component's weights
    (so the combination stays consistent) and ``combine_total`` reweights them. Returns
    (counted with the draws, (largest standard error, smallest effective sample size))."""
    lx, bym = tilt
    smin, smax, u, mleft = totals
    n = SAMPLES
    SM = np.zeros((n, max(fr.nbox, 1)), np.int8)
    LW = np.full((max(fr.ncomp, 1), n), -np.inf)
    KS = np.zeros((max(fr.ncomp, 1), n), np.int64)
    se = 0.0
    ess = np.inf
    one = np.ones(1, np.float64)
    for i in range(fr.ncomp):
        if cm.how[i] != HOW_APPROX:
            continue
        b0, nb, _ = span(fr, i)
        lo = 0
        hi = cm.clen[i]
        if bym:
            lo = max(lo, mleft - u - (smax - cm.kmax[i]))
            hi = min(hi, mleft - (smin - cm.kmin[i]))
        lw, ks = sample_component(fr, i, lx, (lo, hi), SM[:, b0:b0 + nb])
        LW[i] = lw
        KS[i] = ks
        if bym:
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
        e, ef = box_estimates(fr, i, SM[:, b0:b0 + nb], lw, (one, ks), bprob)
        se = max(se, e)
        ess = min(ess, ef)
    if bym:
        ess = 0.0
        for i in range(fr.ncomp):
            if cm.how[i] == HOW_APPROX:
                sw = 0.0
                sw2 = 0.0
                top = -np.inf
                for j in range(n):
                    top = max(top, LW[i, j])
                for j in range(n):
                    if LW[i, j] > -np.inf:
                        w = math.exp(LW[i, j] - top)
                        sw += w
                        sw2 += w * w
                ef = sw * sw / sw2 if sw2 > 0.0 else 0.0
                ess = ef if ess == 0.0 else min(ess, ef)
    return Counted(cd.pool, cd.tp, cd.plan, (SM, LW, KS)), (se, ess)

"""Step 3 of an analysis (``count.py``): the components' marginals, coupled under a known
mine total, or each on its own without it (:func:`marginals_free`, :func:`log_weight_free`).

With the total M known, a configuration with K frontier mines weighs C(U, M_left - K):
the U unconstrained hidden cells take the rest. The components are then no longer
independent; this module couples them through their weights by mine count
(``Comps.wv``/``Comps.wx``, from ``count.py``):

* prefix convolutions P_i of components 0..i-1 (rescaled at every step);
* the global factor g(K) = C(U, M_left - K) / x^K, taken in log space (the tilt x^K of
  the component weights is divided out again);
* the unconstrained cells' probability and deduction;
* a backward sweep over the components: each gets the factor G_i(k) of its own mine
  count k (the weight of everything else) and runs its backward pass with it.
"""
import math
from collections import namedtuple

import numpy as np

from .count_path import backward, heuristic
from .tree.count_tree import backward_tree
from .estimate import box_estimates
from .frontier import span
from ..jit import njit

ST_OK = 0
ST_CLUES = 1  # no layout agrees with the clues
ST_TOTAL = 2  # layouts agree with the clues, but none with the mine total

HOW_PATH = 0  # how a component was counted: the path DP (count_path.py)
HOW_APPROX = 1  # not counted: too large for the budget (heuristic probabilities)
HOW_TREE = 2  # the tree DP (count_tree.py)

#: Per component i: cells (clen), fewest / most mines (kmin, kmax), how it was counted
#: (HOW_*), its weight / feasibility by mine count k at ``woff[i] + k`` and the log of
#: the scale of those weights (lsc: true weight = wv x exp(lsc), tilt included).
Comps = namedtuple("Comps", "clen kmin kmax how woff wv wx lsc")

#: The forward passes' storage: the path DP's pool, the tree DP's pool and plan, and the
#: draws of the components too large to count (``estimate.py``): (box counts
#: (draws, boxes in path order), log weights (components, draws), mine totals (same)).
Counted = namedtuple("Counted", "pool tp plan smp")

#: Result of :func:`combine_total`: status (ST_*); ``more``, the components whose weights
#: underflowed in their backward pass (estimated instead); the unconstrained cells' mine
#: probability ``pu`` and deduction ``uded`` (0/1 safe/2 mine); ``logw``, the log of the
#: number of layouts less the components' own log scales (``cm.lsc``); ``se``, the
#: largest standard error of a sampled box's probability.
Combined = namedtuple("Combined", "status more pu uded logw se")


# (inlined: called per component, a call passed the whole count, about thirty arrays each
# counted in and out, where the backward pass itself reads the pool or the tree's tables)
@njit(cache=True, inline="always")
def backward_any(fr, i, cm, cd, x, glob, bprob):
    """The backward pass of component ``i`` by the method that counted it; ``glob`` =
    (G, Gex, bym): the global factor of its mine count, whether it is feasible, and
    whether the count was kept (the mine total is used)."""
    G, Gex, bym = glob
    if cm.how[i] == HOW_TREE:
        return backward_tree(fr, i, cd.tp, cd.plan, G, Gex, bym, bprob)
    return backward(fr, i, x, cd.pool, G, Gex, bprob)


@njit(cache=True)
def _lnbinom(n, k):
    return math.lgamma(n + 1.0) - math.lgamma(k + 1.0) - math.lgamma(n - k + 1.0)


@njit(cache=True, inline="always")
def _shifted_dot(vec, span_, R, Rx, shift):
    """sum over t in span_ of v[base + t] * R[t + shift] where both exist, and whether any
    term exists; ``vec`` = (v, its existence flags, base)."""
    v, vx, base = vec
    sv = 0.0
    sx = 0
    for t in range(span_[0], span_[1] + 1):
        if vx[base + t] and Rx[t + shift]:
            sv += v[base + t] * R[t + shift]
            sx = 1
    return sv, sx


@njit(cache=True)
def combine_total(fr, cm, cd, x, bprob, u, mleft, srange):
    """Box probabilities and deductions of every component, and those of the ``u``
    unconstrained cells, given ``mleft`` mines left; ``srange`` = (fewest, most) frontier
    mines. Returns a :data:`Combined`."""
    smin, smax = srange
    ncomp = fr.ncomp
    clen, kmin, kmax, how, woff, wv, wx, _ = cm
    plsc = 0.0  # log of the prefix convolutions' rescaling
    se = 0.0
    approx = 0
    # with the mine total: prefix convolutions P_i of components 0..i-1, stored only on
    # their support [plo_i, phi_i] (sums of the supports): memory grows with the sum of
    # those widths, not with components x cells
    ltot = woff[ncomp] - ncomp
    poff = np.zeros(ncomp + 2, np.int64)
    plo = np.zeros(ncomp + 1, np.int64)
    phi = np.zeros(ncomp + 1, np.int64)
    for i in range(ncomp + 1):
        poff[i + 1] = poff[i] + phi[i] - plo[i] + 1
        if i < ncomp:
            plo[i + 1] = plo[i] + kmin[i]
            phi[i + 1] = phi[i] + kmax[i]
    pv = np.zeros(poff[ncomp + 1], np.float64)
    px = np.zeros(poff[ncomp + 1], np.uint8)
    pv[0] = 1.0
    px[0] = 1
    for i in range(ncomp):
        a0 = poff[i] - plo[i]  # pv[a0 + a]: total a of components before i
        a1 = poff[i + 1] - plo[i + 1]
        wo = woff[i]
        for a in range(plo[i], phi[i] + 1):
            if px[a0 + a] == 0:
                continue
            va = pv[a0 + a]
            for k in range(kmin[i], kmax[i] + 1):
                if wx[wo + k]:
                    pv[a1 + a + k] += va * wv[wo + k]
                    px[a1 + a + k] = 1
        mx = 0.0
        for a in range(plo[i + 1], phi[i + 1] + 1):
            mx = max(mx, pv[a1 + a])
        if mx > 0.0:
            inv = 1.0 / mx
            for a in range(plo[i + 1], phi[i + 1] + 1):
                pv[a1 + a] *= inv
            plsc += math.log(mx)
    t0 = poff[ncomp] - plo[ncomp]
    # global factor g(K) = C(U, M_left - K) / x^K, in log space, for K frontier mines
    g = np.zeros(ltot + 1, np.float64)
    gx = np.zeros(ltot + 1, np.uint8)
    lx = math.log(x)
    lmax = -np.inf
    for kk in range(smin, smax + 1):
        r = mleft - kk
        if 0 <= r <= u:
            gx[kk] = 1
            g[kk] = _lnbinom(u, r) - kk * lx
            if px[t0 + kk] and g[kk] > lmax:
                lmax = g[kk]
    if lmax == -np.inf:
        return Combined(ST_TOTAL, 0, 0.0, 0, np.nan, 0.0)
    for kk in range(smin, smax + 1):
        g[kk] = math.exp(g[kk] - lmax) if gx[kk] else 0.0
    # unconstrained cells
    z = 0.0
    zu = 0.0
    allsafe = True
    allmine = True
    for kk in range(smin, smax + 1):
        if px[t0 + kk] and gx[kk]:
            v = pv[t0 + kk] * g[kk]
            z += v
            r = mleft - kk
            zu += v * r
            if r != 0:
                allsafe = False
            if r != u:
                allmine = False
    pu = zu / (u * z) if u > 0 and z > 0.0 else 0.0
    uded = 0
    if u > 0:
        uded = 1 if allsafe else (2 if allmine else 0)
    # backward over components: R = weight of the later components and the
    # unconstrained cells given the mines before them (rolling, rescaled)
    R = g.copy()
    Rx = gx.copy()
    G = np.zeros(ltot + 1, np.float64)
    Gx = np.zeros(ltot + 1, np.uint8)
    # where each approximated component's draws are kept (``overbudget.sample_approximated``
    # stores them in component order: its row of log weights and totals, its first column
    # of box counts): counted down from the ends as the loop below goes backward, with no
    # array (it allocated two a call, sampled or not)
    drawn = cd.smp[1].shape[0] > 0
    srow = 0
    scol = 0
    if drawn:
        for i in range(ncomp):
            if how[i] == HOW_APPROX:
                srow += 1
                scol += span(fr, i)[1]
    for i in range(ncomp - 1, -1, -1):
        a0 = poff[i] - plo[i]
        wo = woff[i]
        sampled = how[i] == HOW_APPROX and drawn
        if how[i] != HOW_APPROX or sampled:
            for k in range(kmin[i], kmax[i] + 1):
                G[k], Gx[k] = _shifted_dot((pv, px, a0), (plo[i], phi[i]), R, Rx, k)
        if sampled:
            b0, nb, _ = span(fr, i)
            srow -= 1
            scol -= nb
            e, _ = box_estimates(fr, i, cd.smp[0][:, scol:scol + nb], cd.smp[1][srow],
                                 (G, cd.smp[2][srow]), bprob)
            se = max(se, e)
        if how[i] != HOW_APPROX:
            code = backward_any(fr, i, cm, cd, x, (G, Gx, True), bprob)
            if code == 1:
                return Combined(ST_TOTAL, approx, 0.0, 0, np.nan, 0.0)
            if code == 2:
                approx += 1
                heuristic(fr, i, bprob)
        mx = 0.0
        for j in range(plo[i], phi[i] + 1):
            sv, sx = _shifted_dot((wv, wx, wo), (kmin[i], kmax[i]), R, Rx, j)
            R[j] = sv
            Rx[j] = sx
            if sv > mx:
                mx = sv
        if mx > 0.0:
            inv = 1.0 / mx
            for j in range(plo[i], phi[i] + 1):
                R[j] *= inv
    return Combined(ST_OK, approx, pu, uded, math.log(z) + lmax + plsc, se)


@njit(cache=True)
def log_weight_free(cm, lodds, by_mines):
    """Without the total: the log of the components' summed weights (less their log
    scales and the (1 - prior)^cells factor): the tilt x^k is the prior's odds^k, or, for
    components counted by mine count, odds^k is applied here."""
    lw = 0.0
    for i in range(cm.woff.shape[0] - 1):
        wo = cm.woff[i]
        if not by_mines:
            lw += math.log(cm.wv[wo]) if cm.wv[wo] > 0.0 else -np.inf
            continue
        top = -np.inf
        for k in range(cm.kmin[i], cm.kmax[i] + 1):
            if cm.wx[wo + k]:
                top = max(top, k * lodds)
        z = 0.0
        for k in range(cm.kmin[i], cm.kmax[i] + 1):
            if cm.wx[wo + k]:
                z += cm.wv[wo + k] * math.exp(k * lodds - top)
        lw += top + math.log(z)
    return lw


@njit(cache=True)
def marginals_free(fr, cm, cd, tilt, bprob, cinfo):
    """Step 3 without the mine total: each counted component's backward pass on its own.
    ``tilt`` = (x, log odds of the prior, counted by mine count): in the last case the
    component's layouts with k mines get the prior's odds^k here, normalized in log space.
    Returns (status, approximated): components whose weights underflowed get heuristic
    probabilities (and ``cinfo[i, 2] = 1``)."""
    x, lodds, by_mines = tilt
    G = np.ones(1, np.float64)
    Gx = np.ones(1, np.uint8)
    more = 0
    for i in range(fr.ncomp):
        if cm.how[i] == HOW_APPROX:
            continue
        if by_mines:
            G = np.zeros(cm.clen[i] + 1, np.float64)
            Gx = np.zeros(cm.clen[i] + 1, np.uint8)
            top = -np.inf
            for k in range(cm.kmin[i], cm.kmax[i] + 1):
                if cm.wx[cm.woff[i] + k]:
                    top = max(top, k * lodds)
            for k in range(cm.kmin[i], cm.kmax[i] + 1):
                if cm.wx[cm.woff[i] + k]:
                    G[k] = math.exp(k * lodds - top)
                    Gx[k] = 1
        code = backward_any(fr, i, cm, cd, x, (G, Gx, by_mines), bprob)
        if code == 1:
            return ST_CLUES, more
        if code == 2:
            more += 1
            heuristic(fr, i, bprob)
            if cinfo.shape[0] > 0:
                cinfo[i, 2] = 1
    return ST_OK, more

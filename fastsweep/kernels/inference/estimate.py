"""Estimated probabilities, with their error, for a component too large to count.

Sequential importance sampling: a layout of the component is built box by box (in its
path order); each box's count is drawn from its prior weight C(s, m) x^m among the
counts the clues still allow (bounds propagation as in ``search.py``), and the layout
carries the importance weight prod (normalizer of each draw) x prod (weight of every box
the propagation fixed), so the weighted layouts are draws from the exact distribution.
A draw that runs into a contradiction weighs 0; soft clues multiply in their
likelihood of the drawn layout (in log space). From ``SAMPLES`` draws:

* each box's mine probability is a ratio estimate, with its standard error (delta
  method); with the mine total the draws are reweighted by the rest of the board's
  factor of their mine count (``combine.py``), and the component's weight by mine count
  is the draws' histogram, so expected mines still sum to the mines left;
* the effective sample size (sum w)^2 / sum w^2 says how far to trust them.

Draws use Numba's generator seeded from the component (the same position gives the same
estimate).
"""
import math

import numpy as np

from .frontier import CB_SIZE, is_soft, span
from ..jit import njit
from .search import _clues_of, _propagate, _undo

SAMPLES = 2000


@njit(cache=True)
def sample_component(fr, i, lx, total, samp):
    """Draw ``samp.shape[0]`` weighted layouts of component ``i`` (box counts into
    ``samp`` (n, nb) int8, in path order); a box of s cells with m mines weighs
    C(s, m) exp(m lx). ``total`` = (lo, hi) bounds the component's mines. Returns (log
    weights (n,), mine totals (n,))."""
    b0, nb, _ = span(fr, i)
    n = samp.shape[0]
    np.random.seed(1000003 * (i + 1) + nb)
    cl = _clues_of(fr, i)
    lo = np.zeros(nb, np.int64)
    hi = np.empty(nb, np.int64)
    size = np.empty(nb, np.int64)
    for t in range(nb):
        size[t] = fr.box[fr.order[b0 + t], CB_SIZE]
        hi[t] = size[t]
    rows = np.empty((20 * nb + 16, 3), np.int64)
    top = np.zeros(1, np.int64)
    trail = (rows, top)
    lw = np.full(n, -np.inf)
    ks = np.zeros(n, np.int64)
    if not _propagate(fr, cl, lo, hi, total, trail, -1):
        return lw, ks
    mark = top[0]
    lwt = np.empty((nb, 9), np.float64)  # log C(s, m) + m lx per box
    for t in range(nb):
        for m in range(size[t] + 1):
            lwt[t, m] = (math.lgamma(size[t] + 1.0) - math.lgamma(m + 1.0)
                         - math.lgamma(size[t] - m + 1.0) + m * lx)
    p = np.empty(9, np.float64)
    for j in range(n):
        acc = 0.0
        good = True
        for t in range(nb):
            if lo[t] == hi[t]:
                continue
            top_w = -np.inf
            for m in range(lo[t], hi[t] + 1):
                top_w = max(top_w, lwt[t, m])
            z = 0.0
            for m in range(lo[t], hi[t] + 1):
                p[m] = math.exp(lwt[t, m] - top_w)
                z += p[m]
            u = np.random.random() * z
            m = lo[t]
            while m < hi[t] and u >= p[m]:
                u -= p[m]
                m += 1
            acc += top_w + math.log(z) - lwt[t, m]  # Z_t / weight of the drawn count
            rows[top[0], 0] = t
            rows[top[0], 1] = lo[t]
            rows[top[0], 2] = hi[t]
            top[0] += 1
            lo[t] = m
            hi[t] = m
            if not _propagate(fr, cl, lo, hi, total, trail, t):  # (only box t changed)
                good = False
                break
        if good:
            k = 0
            for t in range(nb):
                samp[j, t] = lo[t]
                acc += lwt[t, lo[t]]
                k += lo[t]
            acc += _soft_log_weight(fr, cl, lo)
            lw[j] = acc
            ks[j] = k
        _undo(rows, top, mark, lo, hi)
    return lw, ks


@njit(cache=True)
def _soft_log_weight(fr, cl, m):
    """The log of the product of the soft clues' likelihoods of a complete layout (box
    counts ``m`` in path order): the draws follow the prior, so the soft clues weigh them
    here, in log space (positive: the propagation keeps counts of likelihood 0 out)."""
    lw = 0.0
    if fr.lik.shape[0] == 0:
        return lw
    for j in range(cl.clues.shape[0]):
        k = cl.clues[j]
        if is_soft(fr, k):
            c = 0
            for r in range(cl.kn[j]):
                c += m[cl.kbox[j, r]]
            lw += math.log(fr.lik[k, c])
    return lw


@njit(cache=True)
def box_estimates(fr, i, samp, lw, G, bprob):
    """Each box's mine probability from the draws (weights exp(lw) x G[k] of their mine
    count k; ``G`` = (factor array, totals) or a single 1 without the total). Writes
    ``bprob``; returns (largest standard error, effective sample size)."""
    gv, ks = G
    b0, nb, _ = span(fr, i)
    n = lw.shape[0]
    top = -np.inf
    for j in range(n):
        g = gv[ks[j]] if gv.shape[0] > 1 else 1.0
        if lw[j] > -np.inf and g > 0.0:
            top = max(top, lw[j] + math.log(g))
    w = np.zeros(n, np.float64)
    sw = 0.0
    sw2 = 0.0
    if top == -np.inf:
        return np.inf, 0.0
    for j in range(n):
        g = gv[ks[j]] if gv.shape[0] > 1 else 1.0
        if lw[j] > -np.inf and g > 0.0:
            w[j] = math.exp(lw[j] + math.log(g) - top)
            sw += w[j]
            sw2 += w[j] * w[j]
    se_max = 0.0
    for t in range(nb):
        b = fr.order[b0 + t]
        s = fr.box[b, CB_SIZE]
        est = 0.0
        for j in range(n):
            est += w[j] * samp[j, t]
        est /= s * sw
        var = 0.0
        for j in range(n):
            d = samp[j, t] / s - est
            var += w[j] * w[j] * d * d
        se = math.sqrt(var) / sw
        bprob[b] = est
        se_max = max(se_max, se)
    return se_max, sw * sw / sw2

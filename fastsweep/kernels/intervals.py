"""Confidence bounds for the mean of a bounded variable from its histogram: Gaffke's bound
(the Dirichlet, or Bayesian-bootstrap, bound with one pseudo-observation at the range's
end), its tail probability by a saddlepoint approximation.

The upper bound at level ``1 - a`` of the mean of values in ``[lo, hi]``, observed as
distinct values ``v`` with counts ``c``, is the ``1 - a`` quantile of ``sum W_j v_j``,
``W ~ Dirichlet(c_1, ..., c_K, 1)`` with the extra value ``hi`` (Gaffke 2005;
Learned-Miller and Thomas 2019 show it covers where Hoeffding's and Anderson's bounds
do, and is far tighter). For 0/1 values it is the Clopper-Pearson bound.
``P(sum W_j v_j > t) = P(Y > 0)`` with ``Y = sum G_j (v_j - t)``, ``G_j ~ Gamma(c_j)``
independent; that tail is computed by the Barndorff-Nielsen ``r*`` form of the
Lugannani-Rice saddlepoint approximation (its error against Monte Carlo is measured in
tests/test_intervals.py), and ``t`` found by bracketed secant steps on ``r*(t) = z``.
A lower bound is the upper bound of the mirrored values.

Pure arithmetic on small arrays (a histogram has at most a few hundred values); compiled
because the sweep's stopping rule and the coverage study evaluate it at every chunk.
"""
import math

import numpy as np

from .jit import njit


@njit(cache=True)
def _rstar(v, c, t):
    """``r*`` of ``P(Y > 0)`` at ``t`` (``P ~= 1 - Phi(r*)``): 0 where ``t`` is the
    Dirichlet mean, growing as ``t`` rises to the largest value (``inf`` at or past it)."""
    dmin = math.inf
    dmax = -math.inf
    for j in range(v.size):
        d = v[j] - t
        if d < dmin:
            dmin = d
        if d > dmax:
            dmax = d
    if dmax <= 0.0:
        return math.inf  # no value above t: P(Y > 0) = 0
    if dmin >= 0.0:
        return -math.inf  # no value below t: P(Y > 0) = 1
    # K'(s) = sum c d / (1 - s d) = 0 on (1/dmin, 1/dmax), increasing: safeguarded Newton
    a = 1.0 / dmin
    b = 1.0 / dmax
    s = 0.0
    for _ in range(200):
        k1 = 0.0
        k2 = 0.0
        for j in range(v.size):
            d = v[j] - t
            q = 1.0 / (1.0 - s * d)
            k1 += c[j] * d * q
            k2 += c[j] * d * d * q * q
        if k1 == 0.0:
            break
        if k1 > 0.0:
            b = s
        else:
            a = s
        nxt = s - k1 / k2
        if not (a < nxt < b):
            nxt = 0.5 * (a + b)
        if abs(nxt - s) <= 1e-14 * (1.0 + abs(s)):
            s = nxt
            break
        s = nxt
    kk = 0.0
    k2 = 0.0
    for j in range(v.size):
        d = v[j] - t
        q = 1.0 - s * d
        kk -= c[j] * math.log(q)
        k2 += c[j] * d * d / (q * q)
    w2 = -2.0 * kk
    if w2 <= 0.0:
        return 0.0
    w = math.copysign(math.sqrt(w2), s)
    u = s * math.sqrt(k2)
    if abs(w) < 1e-6 or u / w <= 0.0:
        return w  # next to the mean: r* = w to first order (the target z is far)
    return w + math.log(u / w) / w


@njit(cache=True)
def upper_bound(v, c, hi, z):
    """Gaffke's upper bound of the mean: values ``v`` (float64, ascending, distinct, all
    <= ``hi``) with counts ``c`` (float64, > 0), the pseudo-observation at ``hi``
    added here; ``z`` the normal quantile of the one-sided level (1.96 for 97.5%)."""
    k = v.size
    vv = np.empty(k + 1)
    cc = np.empty(k + 1)
    vv[:k] = v
    cc[:k] = c
    vv[k] = hi
    cc[k] = 1.0
    if k > 0 and v[0] >= hi:
        return hi  # every value at the top
    tot = 0.0
    cnt = 0.0
    for j in range(k + 1):
        tot += cc[j] * vv[j]
        cnt += cc[j]
    ta = tot / cnt  # r* = 0 here
    fa = -z
    tb = hi
    fb = math.inf
    # first steps from the normal approximation of the Dirichlet mean
    var = 0.0
    for j in range(k + 1):
        var += cc[j] * (vv[j] - ta) ** 2
    var /= cnt * (cnt + 1.0)
    t = min(ta + z * math.sqrt(var), ta + 0.5 * (hi - ta))
    side = 0
    for _ in range(200):
        f = _rstar(vv, cc, t) - z
        if f == 0.0:
            return t
        if f < 0.0:
            ta, fa = t, f
            if side == -1:
                fb *= 0.5  # Illinois: a stale end moves
            side = -1
        else:
            tb, fb = t, f
            if side == 1:
                fa *= 0.5
            side = 1
        if tb - ta <= 1e-13 * (1.0 + abs(tb)):
            break
        if math.isinf(fb):
            nxt = 0.5 * (ta + tb)
        else:
            nxt = ta - fa * (tb - ta) / (fb - fa)
            if not (ta < nxt < tb):
                nxt = 0.5 * (ta + tb)
        t = nxt
    return 0.5 * (ta + tb)


@njit(cache=True)
def bounds(v, c, lo, hi, z):
    """(lower, upper) bounds: each one-sided at the level of ``z``; ``v`` ascending."""
    up = upper_bound(v, c, hi, z)
    k = v.size
    mv = np.empty(k)
    mc = np.empty(k)
    for j in range(k):  # mirrored: x -> lo + hi - x, still ascending
        mv[j] = lo + hi - v[k - 1 - j]
        mc[j] = c[k - 1 - j]
    return lo + hi - upper_bound(mv, mc, hi, z), up

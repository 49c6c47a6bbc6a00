"""Confidence intervals. Every interval fastsweep reports on a mean of per-game values
(mean score, paired differences) is :func:`hist_ci` / :func:`sample_ci`: Gaffke's bound
for the mean of a bounded variable (:func:`bounded_ci`) over the range of the values
seen, or over the variable's whole range when fewer than :data:`OFF_PILE` games are off
the most common value; win rates are Clopper-Pearson intervals (:func:`win_ci`). The
normal approximation from sums (:func:`moments`,
:func:`half_width`, :func:`mean_ci`) predicts game counts and serves unbounded values.
"""
from __future__ import annotations

import math
from statistics import NormalDist
from typing import NamedTuple

import numpy as np

from .kernels import intervals as _k

Z95 = 1.959963984540054


class Interval(NamedTuple):
    """A point estimate and its interval; ``half`` is half the interval's width (the
    interval need not be symmetric about the estimate)."""
    estimate: float
    low: float
    high: float

    @property
    def half(self) -> float:
        return (self.high - self.low) / 2


def _z(level) -> float:
    if not isinstance(level, float) or not 0.5 <= level < 1:
        raise ValueError(f"level: must be a float in [0.5, 1), got {level!r}")
    return Z95 if level == 0.95 else NormalDist().inv_cdf(1 - (1 - level) / 2)


def bounded_ci(values, counts, lo, hi, level=0.95) -> Interval:
    """Interval of the mean of a variable known to lie in ``[lo, hi]``, from its observed
    ``values`` and how many times each was seen (``counts``; repeats are merged).

    Each end is Gaffke's one-sided bound at ``(1 + level) / 2``: the quantile of the mean
    under Dirichlet weights on the observations plus one pseudo-observation at that end
    of the range (:mod:`fastsweep.kernels.intervals`). It needs no normality and no
    variance estimate, so it keeps its coverage where values pile up at one value and
    only a few games differ; with no game off the pile it is as wide as the rule of three
    says (``3.7 / n`` of the range at 95%). For 0/1 values it is the Clopper-Pearson
    interval. Tail probabilities are from a saddlepoint approximation (relative error
    about 1%, measured against Monte Carlo in tests/test_intervals.py).

    >>> r = bounded_ci([1.0], [200], 0.0, 1.0)   # 200 games, every one scored 1
    >>> r.estimate, r.high, round(r.low, 4)
    (1.0, 1.0, 0.9816)
    >>> [round(x, 3) for x in bounded_ci([0, 1], [5, 5], 0, 1)]   # Clopper-Pearson
    [0.5, 0.187, 0.813]
    """
    z = _z(level)
    v = np.asarray(values, dtype=float).ravel()
    c = np.asarray(counts, dtype=float).ravel()
    if v.shape != c.shape:
        raise ValueError(f"values and counts: need one count per value, got {v.size} "
                         f"values and {c.size} counts")
    if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
        raise ValueError(f"lo, hi: need finite lo < hi, got {lo!r}, {hi!r}")
    if np.any(~np.isfinite(c)) or np.any(c < 0):
        raise ValueError("counts: must be finite and >= 0")
    if np.any(~np.isfinite(v)) or np.any(v < lo) or np.any(v > hi):
        raise ValueError(f"values: must lie in [{lo}, {hi}]")
    keep = c > 0
    v, c = v[keep], c[keep]
    n = c.sum()
    if n == 0:
        return Interval(math.nan, math.nan, math.nan)
    u, inv = np.unique(v, return_inverse=True)
    cu = np.bincount(inv, weights=c, minlength=u.size)
    est = float(np.dot(u, cu) / n)
    low, high = _k.bounds(u, cu, float(lo), float(hi), z)
    return Interval(est, min(float(low), est), max(float(high), est))


# games off the sample's most common value from which :func:`hist_ci` bounds the mean
# within the values seen (below it, within the variable's whole range)
OFF_PILE = 20


def hist_ci(values, counts, lo, hi, about=None) -> Interval:
    """fastsweep's 95% interval of a mean from a histogram of values in ``[lo, hi]``:
    Gaffke's bound (:func:`bounded_ci`) over the range of the values seen, when at least
    :data:`OFF_PILE` games are off the most common value; over ``[lo, hi]`` when fewer
    are (then it is distribution-free: with no game off a pile it is as wide as the rule
    of three allows).

    Gaffke's bound puts one pseudo-game at the end of the range; at the whole range's end
    it pays for games nobody has seen and is 4-10 times as wide as the normal interval
    where a few games in a hundred are off a pile. At the most extreme value seen it
    keeps what makes it right where the normal interval is not (the count of games off
    a pile is treated exactly, as Clopper-Pearson treats a binomial count) and is about
    as wide as the normal interval (1.02-1.2x, measured on the coverage study's page,
    which also measures its coverage: the one assumption is that no game lies beyond the
    values seen once twenty games are off the pile: with five, classic games at density
    0.99, piled at 0 with a long tail of rare longer games, were covered 85% of the time).

    ``about``: for a difference, its value of no difference (0). The range seen is then
    extended to it, so that a bound never claims more than "no game on that side of 0".
    Games all on one side never exclude the other side on their own: below twenty games
    off the pile the range is the whole ``[lo, hi]`` (with only games in B's favour, the
    lower end is below 0 until there are at least as many as the sign test needs: 6 of 6
    at 95% for differences of the whole range, more for smaller ones), and from twenty
    the sign test has excluded 0 already. (A range made symmetric
    about 0 was measured too: it covered 97-99% where the normal interval covered
    94-95%, at 1.2-1.3x its width; the coverage study's page.)

    >>> r = hist_ci([1.0], [207], 0, 1)   # no game off the pile: the rule of three
    >>> r.high, round(r.low, 4)
    (1.0, 0.9822)
    >>> r = hist_ci([0.0, 1.0], [150, 150], 0, 1)   # spread values: about the normal width
    >>> round(r.half / (1.96 * 0.5008 / 300 ** 0.5), 2)
    1.02
    >>> [hist_ci([0, 1], [200, k], -1, 1, about=0).low > 0 for k in (5, 6)]
    [False, True]
    """
    v = np.asarray(values, dtype=float).ravel()
    c = np.asarray(counts, dtype=float).ravel()
    if v.size == c.size and v.size > 1 and c.sum() - c.max() >= OFF_PILE:
        keep = c > 0
        lo, hi = float(v[keep].min()), float(v[keep].max())
        if about is not None:
            lo, hi = min(lo, float(about)), max(hi, float(about))
    return bounded_ci(v, c, lo, hi)


def sample_ci(x, lo, hi, about=None) -> Interval:
    """:func:`hist_ci` of per-game values ``x`` known to lie in ``[lo, hi]`` (``about``:
    see there).

    >>> [round(v, 3) for v in sample_ci([1.0] * 50, 0, 1)]
    [1.0, 0.929, 1.0]
    """
    u, c = np.unique(np.asarray(x, dtype=float).ravel(), return_counts=True)
    return hist_ci(u, c, lo, hi, about)


def win_ci(wins, n, level=0.95) -> Interval:
    """Clopper-Pearson interval of a rate ``wins / n`` (:func:`bounded_ci` of 0/1 values).

    >>> [round(x, 4) for x in win_ci(0, 100)]
    [0.0, 0.0, 0.0364]
    """
    if n <= 0:
        return Interval(math.nan, math.nan, math.nan)
    if not 0 <= wins <= n:
        raise ValueError(f"wins: must be between 0 and n={n}, got {wins!r}")
    return bounded_ci([0.0, 1.0], [n - wins, wins], 0.0, 1.0, level)


def mean_ci(x, z=Z95):
    """(mean, low, high): mean +- z * s / sqrt(n) (normal approximation; n >= 2 for a
    width). For values of a known range use :func:`sample_ci`.

    >>> mean_ci([0.0, 1.0, 1.0, 0.0])[0]
    0.5
    """
    x = np.asarray(x, dtype=float)
    n = x.size
    m = float(x.mean()) if n else math.nan
    if n < 2:
        return m, math.nan, math.nan
    half = z * float(x.std(ddof=1)) / math.sqrt(n)
    return m, m - half, m + half


def wilson(k, n, z=Z95):
    """Wilson score interval (low, high) of a proportion k / n.

    >>> [round(v, 3) for v in wilson(5, 10)]
    [0.237, 0.763]
    """
    if n <= 0:
        return math.nan, math.nan
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    # at k = 0 or k = n the bound is exactly 0 or 1; float rounding would give 4e-19
    return (0.0 if k == 0 else max(0.0, c - h)), (1.0 if k == n else min(1.0, c + h))


# --- summaries from sufficient statistics (the sweep driver stores sums, not games) ---


def moments(n, total, total_sq, scale=1.0):
    """(mean, sample std) of ``n`` values whose sum is ``total`` and sum of squares is
    ``total_sq``, each value divided by ``scale``.

    Integer sums keep the result exact and independent of the order chunks finished in
    (the sweep stores flagged-mine counts and divides by the mine count only here).

    >>> moments(4, 2, 2)
    (0.5, 0.5773502691896257)
    """
    if n <= 0:
        return math.nan, math.nan
    mean = total / n / scale
    if n < 2:
        return mean, math.nan
    # n*sum(x^2) - sum(x)^2 is exact in integers; clamp float noise at zero
    num = n * total_sq - total * total
    var = max(num, 0) / (n * (n - 1)) / (scale * scale)
    return mean, math.sqrt(var)


def half_width(n, std, z=Z95):
    """Half-width z * std / sqrt(n) of the normal-approximation CI of a mean.

    >>> round(half_width(100, 0.5), 4)
    0.098
    """
    if n < 2 or std != std:  # nan std: fewer than 2 values
        return math.nan
    return z * std / math.sqrt(n)


def paired_diff(n, d_total, d_total_sq, scale=1.0, z=Z95):
    """(mean, std, low, high) of paired differences d_i = b_i - a_i from their sums.

    Pairing on the same games removes the board-to-board variance the two agents share,
    so the interval is far tighter than combining two independent CIs.

    >>> [round(v, 3) for v in paired_diff(4, 2, 2)]
    [0.5, 0.577, -0.066, 1.066]
    """
    m, s = moments(n, d_total, d_total_sq, scale)
    h = half_width(n, s, z)
    return m, s, m - h, m + h

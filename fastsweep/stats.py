"""Confidence intervals: normal-approximation CI of a mean, Wilson interval of a rate."""
from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054


def mean_ci(x, z=Z95):
    """(mean, low, high): mean +- z * s / sqrt(n) (normal approximation; n >= 2 for a width).

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

CI_METHOD = ("95% CIs: mean +- 1.96 s/sqrt(n) (normal approximation, s = sample std) for mean "
             "score and paired differences; Wilson score interval for the win rate")


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

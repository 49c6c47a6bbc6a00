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
    return max(0.0, c - h), min(1.0, c + h)

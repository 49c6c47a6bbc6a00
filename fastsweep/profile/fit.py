"""How an agent's cost grows with the board: power-law fits of time (or a work counter)
per game against the number of cells, on log-log axes, with their intervals.

Method (stated on the profile's figures and pages):

* the points are the repeats' values (one per repeat and size, each the mean over that
  repeat's games), in logs; the fit is ordinary least squares of ln(value) on ln(cells);
* the exponent's 95% interval is the slope's, from the residual variance of the fit (so
  a curve that is not a straight line widens it) with Student's t on N - 2 degrees of
  freedom;
* the law "holds" over a range of consecutive sizes (at least three) when no size's mean
  lies further than ``HOLD_TOL`` (in ln units: 10%) from the line; the widest such range
  is reported (among equals, the one with the largest boards), and the sizes outside it
  are where it breaks. With fewer than three sizes there is no fit;
* the local exponent between two consecutive sizes (the slope of their means) shows
  where the regime changes.

Student's t comes from the regularized incomplete beta function (continued fraction,
as in Numerical Recipes): no SciPy dependency for one quantile.
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

HOLD_TOL = 0.10  # a size's mean within 10% (ln units) of the line: the law holds there
MIN_SIZES = 3


class Fit(NamedTuple):
    """A power law value ~ c * cells ** exponent over cells in [lo, hi]."""

    exponent: float
    lo: float  # its 95% interval
    hi: float
    cells_lo: int  # the range of board sizes (cells) it was fitted on
    cells_hi: int
    holds: bool  # whether every size's mean is within HOLD_TOL of the line there
    max_dev: float  # the largest |ln mean - line| over those sizes
    points: int
    broken: str  # the sizes (cells) outside the range, "" if none


def _betacf(a, b, x):
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > 1e-300 else 1e-300)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > 1e-300 else 1e-300)
        c = 1.0 + aa / c if abs(c) > 1e-300 else 1e300
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > 1e-300 else 1e-300)
        c = 1.0 + aa / c if abs(c) > 1e-300 else 1e300
        de = d * c
        h *= de
        if abs(de - 1.0) < 1e-15:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    lbt = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x)
           + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(lbt) * _betacf(a, b, x) / a
    return 1.0 - math.exp(lbt) * _betacf(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom.

    >>> round(t_cdf(2.0, 10), 4)
    0.9633
    """
    x = df / (df + t * t)
    tail = 0.5 * betainc(df / 2.0, 0.5, x)
    return 1.0 - tail if t > 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t (bisection on :func:`t_cdf`).

    >>> round(t_quantile(0.975, 4), 3)
    2.776
    """
    lo, hi = -1e3, 1e3
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def mean_interval(values, level=0.95):
    """(mean, lo, hi): the t interval of the mean of ``values`` (repeats); with one value
    the interval is (nan, nan)."""
    v = np.asarray(values, float)
    m = float(v.mean())
    if v.size < 2:
        return m, float("nan"), float("nan")
    h = t_quantile(0.5 + level / 2, v.size - 1) * float(v.std(ddof=1)) / math.sqrt(v.size)
    return m, m - h, m + h


def _ols(x, y):
    """(slope, intercept, slope's standard error, residual df)."""
    n = x.size
    xm, ym = x.mean(), y.mean()
    sxx = float(((x - xm) ** 2).sum())
    slope = float(((x - xm) * (y - ym)).sum()) / sxx
    icpt = ym - slope * xm
    res = y - (icpt + slope * x)
    df = n - 2
    se = math.sqrt(float((res ** 2).sum()) / df / sxx) if df > 0 else float("nan")
    return slope, icpt, se, df


def _max_dev(cells, x, y, slope, icpt):
    dev = 0.0
    for c in np.unique(cells):
        sel = cells == c
        dev = max(dev, abs(float(y[sel].mean()) - (icpt + slope * float(x[sel][0]))))
    return dev


def fit_power(cells, values, level=0.95) -> Fit | None:
    """The power law of ``values`` (one per repeat and size; positive) against ``cells``
    over the widest range of consecutive sizes where it holds (module notes), or over all
    sizes (``holds`` False) when no range of three sizes does. None with fewer than three
    sizes or a value that is not positive.

    >>> c = [100, 100, 400, 400, 1600, 1600]
    >>> f = fit_power(c, [1.0, 1.0, 4.1, 3.9, 16.2, 15.8])
    >>> round(f.exponent, 2), f.holds
    (1.0, True)
    """
    cells = np.asarray(cells, float)
    values = np.asarray(values, float)
    ok = np.isfinite(values) & (values > 0)
    cells, values = cells[ok], values[ok]
    sizes = np.unique(cells)
    if sizes.size < MIN_SIZES:
        return None
    x, y = np.log(cells), np.log(values)
    best = None
    k = sizes.size
    for width in range(k, MIN_SIZES - 1, -1):
        for start in range(k - width, -1, -1):  # (the largest boards first)
            rng = sizes[start:start + width]
            sel = (cells >= rng[0]) & (cells <= rng[-1])
            slope, icpt, se, df = _ols(x[sel], y[sel])
            dev = _max_dev(cells[sel], x[sel], y[sel], slope, icpt)
            if dev <= HOLD_TOL:
                best = (rng, sel, slope, se, df, dev, True)
                break
        if best is not None:
            break
    if best is None:
        sel = np.ones(cells.size, bool)
        slope, icpt, se, df = _ols(x, y)
        best = (sizes, sel, slope, se, df, _max_dev(cells, x, y, slope, icpt), False)
    rng, sel, slope, se, df, dev, holds = best
    h = t_quantile(0.5 + level / 2, df) * se if df > 0 and se == se else float("nan")
    out = [str(int(c)) for c in sizes if c < rng[0] or c > rng[-1]]
    return Fit(slope, slope - h, slope + h, int(rng[0]), int(rng[-1]), holds, dev,
               int(sel.sum()), ",".join(out))


def local_exponents(cells, values):
    """[(cells_a, cells_b, exponent)]: the slope between the means (in logs) of each two
    consecutive sizes."""
    cells = np.asarray(cells, float)
    values = np.asarray(values, float)
    ok = np.isfinite(values) & (values > 0)
    cells, values = cells[ok], values[ok]
    sizes = np.unique(cells)
    means = [float(np.log(values[cells == c]).mean()) for c in sizes]
    return [(int(sizes[i]), int(sizes[i + 1]),
             (means[i + 1] - means[i]) / math.log(sizes[i + 1] / sizes[i]))
            for i in range(sizes.size - 1)]

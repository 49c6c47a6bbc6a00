"""The sweep's intervals and its adaptive stopping rule, from the per-game values its chunk
records keep (``xs``: each game's flagged mines; ``ws``: won or not).

An interval of a mean is :func:`fastsweep.stats.hist_ci`: Gaffke's bound over the range
of the values seen, or over the whole range (a score lies in [0, 1], a paired difference
in [-1, 1]) when fewer than :data:`fastsweep.stats.OFF_PILE` games are off the most
common value. Win rates are Clopper-Pearson intervals. Records from before per-game values were kept
(2026-11-29) have only sums: a member with such a chunk falls back to the normal
approximation. :data:`CI_METHOD` says all this in the tables.

The stopping rule (:class:`Stopping`) walks each member's chunks in order: after chunk k
the member stops when it has ``min_games`` games and its mean score's interval, the one
the summary reports, has half-width <= ``ci``, and so has the normal approximation
(:data:`SCREEN`; it makes the rule cheap: the interval is computed only from there); or
at ``max_games``. A sample with no game
off a pile (a degenerate variance) does not stop it: with every game at one score the
half-width is about 1.85 / n. Paired differences are reported over the games both members
played; they do not stop a sweep (two agents that differ in a handful of games would
need 3.7 / ci games for a tie's interval even where their scores are known sooner), and
their interval says what those games show.
"""
from __future__ import annotations

import math

import numpy as np

from .. import stats

CI_METHOD = (
    "95% CIs: for mean score and paired differences, Gaffke's bound for the mean of a "
    "bounded variable (the quantiles of the mean under Dirichlet weights on the games "
    "plus one pseudo-game at the most extreme value seen, for a difference the largest "
    "seen on either side of 0; at the end of the whole range, "
    f"score in [0, 1] and difference in [-1, 1], when fewer than {stats.OFF_PILE} games "
    "are off the most common value; saddlepoint tails); for win rates the "
    "Clopper-Pearson interval; chunks recorded without per-game values use the normal "
    "approximation mean +- 1.96 s/sqrt(n)")

# what a summary written before 2026-12-02 (without a stored method) carries
NORMAL_CI_METHOD = ("95% CIs: mean +- 1.96 s/sqrt(n) (normal approximation, s = sample "
                    "std) for mean score and paired differences; Wilson score interval for "
                    "the win rate")


class Tally:
    """Histogram of integer per-game values in ``[-span, span]`` (plus their sums, for
    the normal-approximation prediction of the games a target needs)."""

    def __init__(self, span):
        self.span = span
        self.counts = np.zeros(2 * span + 1, np.int64)
        self.n = self.x1 = self.x2 = 0
        self.exact = True  # every chunk came with its per-game values

    def add(self, x):
        x = np.asarray(x, np.int64)
        self.counts += np.bincount(x + self.span, minlength=self.counts.size)
        self.n += x.size
        self.x1 += int(x.sum())
        self.x2 += int((x * x).sum())

    def add_sums(self, n, x1, x2):
        """A chunk known only by its sums: the interval falls back to the normal one."""
        self.n += n
        self.x1 += x1
        self.x2 += x2
        self.exact = False

    @property
    def off(self) -> int:
        """Games whose value is not 0 (for a paired difference: the games that differ)."""
        return int(self.n - self.counts[self.span]) if self.exact else -1

    def interval(self, scale, lo, hi, about=None) -> stats.Interval:
        """The mean of value / ``scale`` with its 95% interval, the value known in [lo, hi]
        (``about``: 0 for a difference, see :func:`fastsweep.stats.hist_ci`)."""
        if self.n == 0:
            return stats.Interval(math.nan, math.nan, math.nan)
        if not self.exact:
            m, s = stats.moments(self.n, self.x1, self.x2, scale)
            h = stats.half_width(self.n, s)
            return stats.Interval(m, m - h, m + h)
        idx = np.flatnonzero(self.counts)
        return stats.hist_ci((idx - self.span) / scale, self.counts[idx], lo, hi, about)


# the stopping rule computes a member's interval only where its normal half-width is
# within this multiple of ci (Stopping._screen): 1, so a member stops where both its
# interval's and the normal approximation's half-widths are <= ci
SCREEN = 1.0


class Stopping:
    """The stopping rule of one board's members, each fed its chunks in order."""

    def __init__(self, members, scale, ci, min_games, kmax):
        self.scale, self.ci = scale, ci
        self.min_games, self.kmax = min_games, kmax
        self.k = [0] * members  # per member: the next chunk to feed
        self.score = [Tally(scale) for _ in range(members)]
        self.kstar = [None] * members
        self.capped = [False] * members  # stopped by max_games, the interval still wider

    def feed(self, j, values):
        """Member ``j``'s next chunk: its per-game values, or ``(n, x1, x2)`` for a record
        without them."""
        t = self.score[j]
        t.add_sums(*values) if isinstance(values, tuple) else t.add(values)
        self.k[j] += 1
        known = t.n >= self.min_games and self._screen(t) and (
            t.interval(self.scale, 0.0, 1.0).half <= self.ci)
        if known or self.k[j] >= self.kmax:
            self.kstar[j] = self.k[j]
            self.capped[j] = not known

    def _screen(self, t) -> bool:
        """Whether the normal half-width is within ``SCREEN * ci``: only then is the
        interval computed (a part of the rule: it never stops before the old rule did,
        where games spread the interval is 1.02-1.2x the normal one and decides, and at a
        pile, where the normal half-width is near 0, the interval decides alone)."""
        _, s = stats.moments(t.n, t.x1, t.x2, self.scale)
        return stats.half_width(t.n, s) <= SCREEN * self.ci

    def games_needed(self, j) -> float:
        """Games member ``j`` would need for the target, predicted from its sums: the
        normal approximation's count, and at least what a pile needs (1.9 / ci)."""
        t = self.score[j]
        _, s = stats.moments(t.n, t.x1, t.x2, self.scale)
        need = (stats.Z95 * s / self.ci) ** 2 if t.n >= 2 and s == s else 0.0
        return max(need, 1.9 / self.ci)

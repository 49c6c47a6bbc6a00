"""The sweep's bookkeeping: which chunks each board needs, and the stopping rule evaluated
on chunk prefixes 0..K-1 in order (so worker count and timing never change a summary).
Pure Python, no I/O.
"""
from __future__ import annotations

import math

from .. import stats
from .grid import _label


class _Plan:
    """Chunks each board needs and the prefix stopping rule (pure bookkeeping)."""

    def __init__(self, params, boards):
        self.p = params
        self.boards = boards
        self.labels = [_label(tuple(m)) for m in params["members"]]
        self.recs = [dict() for _ in boards]
        self.prefix = [0] * len(boards)
        self.sched = [0] * len(boards)
        nb = len(boards)
        if params["games"] is not None:
            self.kmax = [math.ceil(params["games"] / b["chunk"]) for b in boards]
            self.kmin = list(self.kmax)
            self.kstar = [[k] * len(self.labels) for k in self.kmax]
        else:
            self.kmax = [math.ceil(params["max_games"] / b["chunk"]) for b in boards]
            self.kmin = [math.ceil(params["min_games"] / b["chunk"]) for b in boards]
            self.kstar = [[None] * len(self.labels) for _ in range(nb)]
        self.acc = [[[0, 0, 0] for _ in self.labels] for _ in range(nb)]
        self.ev = [0] * nb
        self.cap = self.p["games"] if self.p["games"] is not None else self.p["max_games"]

    def games_in(self, b, k):
        c = self.boards[b]["chunk"]
        return min(c, self.cap - k * c)

    def add(self, rec):
        b, k = rec["b"], rec["k"]
        if k not in self.recs[b]:
            self.recs[b][k] = rec
        while self.prefix[b] in self.recs[b]:
            self.prefix[b] += 1

    def evaluate(self, b):
        """Advance the stopping rule of board ``b`` over its finished prefix."""
        if self.p["ci"] is None:
            return
        scale = max(self.boards[b]["mines"], 1)
        while self.ev[b] < self.prefix[b]:
            k = self.ev[b]
            rec = self.recs[b][k]
            for j, lab in enumerate(self.labels):
                if self.kstar[b][j] is not None:
                    continue
                if lab not in rec["m"]:
                    raise ValueError(f"out: chunk {k} of board {b} lacks {lab}; the folder's "
                                     f"records are inconsistent, use a new folder")
                a, m = self.acc[b][j], rec["m"][lab]
                a[0] += m["n"]
                a[1] += m["x1"]
                a[2] += m["x2"]
                _, s = stats.moments(a[0], a[1], a[2], scale)
                if a[0] >= self.p["min_games"] and stats.half_width(a[0], s) <= self.p["ci"]:
                    self.kstar[b][j] = k + 1
                elif k + 1 >= self.kmax[b]:
                    self.kstar[b][j] = k + 1
            self.ev[b] += 1

    def done(self, b):
        return all(v is not None for v in self.kstar[b]) and all(
            k in self.recs[b] for k in range(max(self.kstar[b])))

    def new_chunks(self, b):
        """Chunk indices of board ``b`` to schedule now (none already scheduled/recorded)."""
        if self.p["ci"] is None:
            ks = range(self.sched[b], self.kmax[b])
            self.sched[b] = self.kmax[b]
            return [k for k in ks if k not in self.recs[b]]
        active = [j for j, v in enumerate(self.kstar[b]) if v is None]
        if not active:
            return []
        c = self.boards[b]["chunk"]
        scale = max(self.boards[b]["mines"], 1)
        target = self.kmin[b]
        for j in active:
            n, x1, x2 = self.acc[b][j]
            _, s = stats.moments(n, x1, x2, scale)
            if n >= 2 and s == s:
                need = (stats.Z95 * s / self.p["ci"]) ** 2  # games for the target half-width
                target = max(target, math.ceil(need / c))
        pre = self.prefix[b]
        if self.sched[b] <= pre:  # nothing in flight: always move on, a bit beyond
            target = max(target, pre + max(1, math.ceil(0.1 * pre)))
        target = min(target, self.kmax[b])
        start = max(self.sched[b], pre)
        self.sched[b] = max(self.sched[b], target)
        return [k for k in range(start, target) if k not in self.recs[b]]

    def members_needing(self, b, k):
        return [j for j, v in enumerate(self.kstar[b]) if v is None or v > k]

"""The sweep's bookkeeping: which chunks each member of each board needs, and the stopping
rule evaluated on each member's chunk prefix 0..K-1 in order (so worker count and timing
never change a summary). Pure Python, no I/O.

Chunk records arrive from the folder (possibly written by a smaller grid: fewer members,
games or boards) and from the workers; :meth:`_Plan.add` files them under every board with
their key and merges the members of one chunk. A chunk is played only for the members that
lack it, plus, when a member is added to a folder whose records predate per-game scores,
the members already there (their games are replayed once to pair them with the newcomer).
"""
from __future__ import annotations

import math

import numpy as np

from .grid import _label, board_key
from .stopping import Stopping


class _Plan:
    """Chunks each board's members need and the prefix stopping rule (pure bookkeeping)."""

    def __init__(self, params, boards):
        self.p = params
        self.boards = boards
        self.labels = [_label(tuple(m)) for m in params["members"]]
        nb, nm = len(boards), len(self.labels)
        self.keys = [board_key(bd) for bd in boards]
        self.where = {}  # board key -> indices (two densities can round to one board)
        for b, key in enumerate(self.keys):
            self.where.setdefault(key, []).append(b)
        self.recs = [dict() for _ in boards]  # chunk index -> merged record
        self.prefix = [[0] * nm for _ in boards]  # per member: chunks 0..prefix-1 present
        self.ev = [[0] * nm for _ in boards]  # per member: chunks fed to the stopping rule
        self.sched = [0] * nb
        self.played = 0  # chunk tasks finished in this run
        self.played_games = 0  # member-games of those tasks
        self.seconds_compile = self.seconds_playing = 0.0  # this run's warm-up, play
        if params["games"] is not None:
            self.cap = params["games"]
            self.kmax = [math.ceil(self.cap / b["chunk"]) for b in boards]
            self.kmin = list(self.kmax)
            self.kstar = [[k] * nm for k in self.kmax]
        else:
            self.cap = params["max_games"]
            self.kmax = [math.ceil(self.cap / b["chunk"]) for b in boards]
            self.kmin = [math.ceil(params["min_games"] / b["chunk"]) for b in boards]
            self.kstar = [[None] * nm for _ in range(nb)]
        # the adaptive rule of each board (its kstar is the board's row of self.kstar)
        self.stop = [None if params["ci"] is None else Stopping(
            nm, max(bd["mines"], 1), params["ci"], params["min_games"], self.kmax[b])
            for b, bd in enumerate(boards)]
        for b, st in enumerate(self.stop):
            if st is not None:
                self.kstar[b] = st.kstar

    def games_in(self, b, k):
        c = self.boards[b]["chunk"]
        return min(c, self.cap - k * c)

    def add(self, rec) -> bool:
        """File a chunk record (``key``, ``k``, ``games``, ``m``; ``xs``: per-game scores;
        ``p``: paired sums of old records); False if no board of this grid can use it
        (another board, or a last chunk cut at another game count)."""
        used = False
        k = rec["k"]
        for b in self.where.get(rec["key"], ()):
            if k >= self.kmax[b] or rec["games"] != self.games_in(b, k):
                continue
            used = True
            cur = self.recs[b].setdefault(k, {"games": rec["games"], "m": {}, "xs": {}, "ws": {},
                                               "p": {}})
            for lab, m in rec["m"].items():
                old = cur["m"].setdefault(lab, m)
                if (old["n"], old["x1"], old["x2"]) != (m["n"], m["x1"], m["x2"]):
                    raise ValueError(
                        f"out: chunk {k} of board {rec['key']} gave {lab} other games than the "
                        f"folder's record (the engine changed since it was written); use a new "
                        f"folder")
            cur["xs"].update(rec.get("xs", {}))
            cur["ws"].update(rec.get("ws", {}))
            cur["p"].update(rec.get("p", {}))
            for j, lab in enumerate(self.labels):
                while (self.prefix[b][j] in self.recs[b]
                       and lab in self.recs[b][self.prefix[b][j]]["m"]):
                    self.prefix[b][j] += 1
        return used

    def evaluate(self, b):
        """Advance the stopping rule of board ``b``'s members over their finished prefixes."""
        st = self.stop[b]
        if st is None:
            return
        for j in range(len(self.labels)):
            while st.kstar[j] is None and st.k[j] < self.prefix[b][j]:
                st.feed(j, self.values(b, st.k[j], j))

    def values(self, b, k, j):
        """Member j's per-game scores in chunk k (flagged mines), or its sums
        ``(n, x1, x2)`` for a record from before per-game scores were kept."""
        rec = self.recs[b][k]
        lab = self.labels[j]
        if lab in rec["xs"]:
            return rec["xs"][lab]
        m = rec["m"][lab]
        return (m["n"], m["x1"], m["x2"])

    def cross(self, b, k, i, j):
        """Sum over chunk k of member i's score times member j's (integers), or None."""
        rec = self.recs[b][k]
        a, c = self.labels[i], self.labels[j]
        if a in rec["xs"] and c in rec["xs"]:
            return int(np.dot(np.asarray(rec["xs"][a], np.int64), np.asarray(rec["xs"][c], np.int64)))
        d = rec["p"].get(f"{a}|{c}") or rec["p"].get(f"{c}|{a}")  # old records: [sum d, sum d^2]
        if d is None:
            return None
        return (rec["m"][a]["x2"] + rec["m"][c]["x2"] - d[1]) // 2

    def member_done(self, b, j):
        return self.kstar[b][j] is not None and self.prefix[b][j] >= self.kstar[b][j]

    def done(self, b):
        nm = len(self.labels)
        return all(self.member_done(b, j) for j in range(nm)) and all(
            self.cross(b, k, i, j) is not None
            for i in range(nm) for j in range(i + 1, nm)
            for k in range(min(self.kstar[b][i], self.kstar[b][j])))

    def points_done(self):
        return sum(self.member_done(b, j) for b in range(len(self.boards))
                   for j in range(len(self.labels)))

    def _uses(self, b, j, k):
        return self.kstar[b][j] is None or self.kstar[b][j] > k

    def task_members(self, b, k):
        """Members to play chunk k of board b now: those that need it and lack it, plus
        (only then) those that have it without per-game scores, to pair them."""
        rec = self.recs[b].get(k, {"m": {}, "xs": {}})
        miss = [j for j, lab in enumerate(self.labels)
                if self._uses(b, j, k) and lab not in rec["m"]]
        if not miss:
            return []
        return [j for j, lab in enumerate(self.labels) if j in miss or (
            self._uses(b, j, k) and lab not in rec["xs"])]

    def new_chunks(self, b):
        """Chunk indices of board ``b`` to schedule now (none already scheduled or complete)."""
        if self.p["ci"] is None:
            ks = range(self.sched[b], self.kmax[b])
            self.sched[b] = self.kmax[b]
            return [k for k in ks if self.task_members(b, k)]
        active = [j for j, v in enumerate(self.kstar[b]) if v is None]
        if not active:
            return []
        c = self.boards[b]["chunk"]
        target = self.kmin[b]
        for j in active:
            if self.stop[b].score[j].n >= 2:  # games for the target half-width
                target = max(target, math.ceil(self.stop[b].games_needed(j) / c))
        pre = min(self.prefix[b][j] for j in active)
        if self.sched[b] <= pre:  # nothing in flight: always move on, a bit beyond
            target = max(target, pre + max(1, math.ceil(0.1 * pre)))
        target = min(target, self.kmax[b])
        start = max(self.sched[b], pre)
        self.sched[b] = max(self.sched[b], target)
        return [k for k in range(start, target) if self.task_members(b, k)]

"""The coverage study (issue 62): how often each interval a sweep reports holds the true
value, measured by simulation.

Each board (rules, size, density) has six members (basic, inference and probability,
each with and without the mine total). Every member plays a pool of games once, on the
sweep's own path (its configurations, chunk records and seed: game i is the same board
for every member), and the pool is the true distribution, its mean the true value. A
replication draws games from the pool with replacement, the same games for every member
(pairs stay paired), and computes what a sweep would report: at a fixed game count, or
where the sweep's adaptive rule stops, fed chunk after chunk of the sweep's chunk size.
Each interval is set beside the normal approximation (mean +- 1.96 s / sqrt(n); Wilson
for win rates) and the adaptive rule beside the old one (stop at ``min_games`` once the
normal half-width is <= ``ci``), on the same replications.

:func:`pool` plays part of a member's pool; :func:`replicate` runs one board at one game
count and returns a row per interval: coverage with its own Clopper-Pearson interval,
median widths, games and the method used. The verdicts are :mod:`.coverage_table`'s.
"""
from __future__ import annotations

import inspect
import math

import numpy as np
import pandas as pd

from .. import stats
from ..kernels import intervals as _k
from ..sweep import sweep as _sweep
from ..sweep.run.execute import run_task, warm_up
from ..sweep.run.tasks import run_tasks
from ..sweep.grid import _label, _resolve, board_key, member_name
from ..sweep.stopping import SCREEN

MEMBERS = (("basic", False), ("basic", True), ("inference", False), ("inference", True),
           ("probability", False), ("probability", True))  # (the sweep's member order)
PAIRS = ((0, 2), (0, 4), (0, 1), (2, 3), (4, 5))  # (a, b): b - a, as the sweep pairs them
KINDS = ("score", "win", "diff", "win_diff")  # mean score, win rate, the paired two
_DEFAULTS = inspect.signature(_sweep).parameters
MIN_GAMES = _DEFAULTS["min_games"].default
MAX_GAMES = _DEFAULTS["max_games"].default
CI = 0.005  # the half-width the measurements used (a sweep has no default ci)
SEED = 2026
# (rules, size, densities, pool games): keep-going on 30x30 up to density 0.2; from 0.3,
# where inference and probability take 3-13 ms a 30x30 game, on 16x16 with a pool of
# 10,000 (0.4-2.5 ms a game); classic games end at the first detonation: 30x30 throughout
GRID = (("keep-going", 30, (0.01, 0.02, 0.05, 0.1, 0.2), 20_000),
        ("keep-going", 16, (0.3, 0.9, 0.95, 0.99), 10_000),
        ("classic", 30, (0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.9, 0.95, 0.99), 20_000))
COUNTS = ("adaptive", 200, 1000)  # (the longest first)


def board(size, density, rules):
    """The sweep's board of the six members: a dict with ``mines``, ``chunk`` and
    ``cfgs`` (as :func:`fastsweep.sweep` builds it, default options)."""
    agents = list(dict.fromkeys(a for a, _ in MEMBERS))
    _, (bd,) = _resolve(agents, [size], [density], None, [rules], [False, True], 1, None,
                        MIN_GAMES, MAX_GAMES, 0, None)
    return bd


def pool(size, density, rules, member, first, games, seed):
    """Games ``first .. first + games - 1`` of member ``member`` (an index of
    :data:`MEMBERS`): each game's score as the sweep keeps it (mines flagged, an int32
    array) and whether it was won (int8), from the sweep's own chunk task.

    >>> xs, ws = pool(8, 0.1, "keep-going", 0, 0, 5, seed=1)
    >>> xs.dtype, len(ws), bool((xs <= 6).all())
    (dtype('int32'), 5, True)
    """
    bd = board(size, density, rules)
    lab = _label(MEMBERS[member])
    rec, _ = run_task((0, board_key(bd), 0, first, games,
                       [(lab, bd["cfgs"][member], False)]), seed)
    return np.asarray(rec["xs"][lab], np.int32), np.asarray(rec["ws"][lab], np.int8)


def _gaffke(v, c, lo, hi):
    """:func:`fastsweep.stats.bounded_ci` of distinct ascending values ``v`` (float) with
    counts ``c`` > 0 (float): its arithmetic without its checks (a tenth of its time)."""
    est = float(np.dot(v, c) / c.sum())
    low, high = _k.bounds(v, c, float(lo), float(hi), stats.Z95)
    return stats.Interval(est, min(float(low), est), max(float(high), est))


def _hist(counts, span, scale, lo, hi, memo, about=None):
    """``Tally.interval`` of a histogram of integers in [-span, span] (its value /
    ``scale`` in [lo, hi]; ``about``: 0 for a difference), and whether it was bounded
    within the whole range (fewer than :data:`fastsweep.stats.OFF_PILE` games off the
    most common value): :func:`fastsweep.stats.hist_ci`, each histogram's once."""
    nz = np.flatnonzero(counts)
    c = counts[nz]
    key = (span, scale, lo, hi, about, nz.tobytes(), c.tobytes())
    if key not in memo:
        memo[key] = stats.hist_ci((nz - span) / scale, c, lo, hi, about)
    whole = nz.size < 2 or int(c.sum() - c.max()) < stats.OFF_PILE
    return memo[key], whole


def _normal(x, scale):
    """The normal approximation (mean, low, high) of integer values ``x`` / ``scale``."""
    n = x.size
    s1, s2 = int(x.sum()), int(np.dot(x.astype(np.int64), x.astype(np.int64)))
    m, s = stats.moments(n, s1, s2, scale)
    h = stats.half_width(n, s)
    return m, m - h, m + h


def intervals(xs, ws, games, scale, memo=None, new=True):
    """What a sweep reports of one replication: for each member j, its first
    ``games[j]`` values of ``xs[j]`` (mines flagged) and ``ws[j]`` (won); for each pair,
    the games both played. Returns {(kind, who): (interval, Gaffke?, normal)}: the
    reported interval (None unless ``new``), whether it was Gaffke's bound (always, for a
    win rate: Clopper-Pearson), and the normal approximation (mean, low, high) at the same
    games (Wilson's interval for a win rate).
    """
    memo = {} if memo is None else memo

    def hist(v, span, lo, hi, about=None):
        if not new:
            return None, False
        return _hist(np.bincount(v + span, minlength=2 * span + 1), span, span, lo, hi, memo,
                     about)

    out = {}
    for j, n in enumerate(games):
        x, k = xs[j, :n], int(ws[j, :n].sum())
        out["score", j] = (*hist(x, scale, 0.0, 1.0), _normal(x, scale))
        if new and (k, n) not in memo:
            memo[k, n] = _win_ci(k, n)
        out["win", j] = (memo[k, n] if new else None, True, (k / n, *stats.wilson(k, n)))
    for a, b in PAIRS:
        n = min(games[a], games[b])
        d = xs[b, :n].astype(np.int64) - xs[a, :n]
        out["diff", (a, b)] = (*hist(d, scale, -1.0, 1.0, 0.0), _normal(d, scale))
        e = ws[b, :n].astype(np.int64) - ws[a, :n]
        out["win_diff", (a, b)] = (*hist(e, 1, -1.0, 1.0, 0.0), _normal(e, 1))
    return out


def _win_ci(k, n):
    """:func:`fastsweep.stats.win_ci` (Clopper-Pearson) of ``k`` wins in ``n`` games."""
    keep = [i for i, c in enumerate((n - k, k)) if c > 0]
    return _gaffke(np.array([0.0, 1.0])[keep], np.array([n - k, k], float)[keep], 0.0, 1.0)


def stops(x, chunk, scale, ci=CI, min_games=MIN_GAMES, max_games=MAX_GAMES):
    """Games one member plays under the adaptive rule, from its value sequence ``x`` (mines
    flagged, in the order played): ``(new, old)``, each ``(games, capped)`` or None when
    ``x`` is too short to know. ``new`` is :class:`fastsweep.sweep.stopping.Stopping`'s
    rule (after each chunk: at least ``min_games`` and the reported interval's half-width
    <= ``ci``, or ``max_games``); ``old`` stops on the normal half-width instead.

    The normal half-widths of every chunk come from cumulative sums; the rule's own
    interval is computed where it decides, as the rule does: where the normal half-width
    is within ``SCREEN * ci``.

    >>> stops(np.full(400, 9), 23, 9)   # 400 games all at 9 of 9 mines
    ((391, False), (207, False))
    """
    kmax = math.ceil(max_games / chunk)
    nk = np.minimum(np.arange(1, kmax + 1) * chunk, max_games)
    nk = nk[nk <= x.size]
    full = nk.size == kmax
    x = np.asarray(x, np.int64)
    s1, s2 = np.cumsum(x)[nk - 1], np.cumsum(x * x)[nk - 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        var = np.maximum(nk * s2 - s1 * s1, 0) / (nk * (nk - 1.0)) / (scale * scale)
        half = stats.Z95 * np.sqrt(var) / np.sqrt(nk)
    ok = nk >= min_games

    def at(i, capped):
        return int(nk[i]), capped

    old = np.flatnonzero(ok & (half <= ci))
    old = at(old[0], False) if old.size else (at(kmax - 1, True) if full else None)
    # the rule's interval where it decides: from min_games on, where the normal
    # half-width passes the rule's screen (Stopping._screen), in order
    new = None
    counts, upto = np.zeros(2 * scale + 1, np.int64), 0
    for i in np.flatnonzero(ok & (half <= SCREEN * ci)):
        counts += np.bincount(x[upto:nk[i]] + scale, minlength=2 * scale + 1)
        upto = nk[i]
        nz = np.flatnonzero(counts)  # (no memo: a spread histogram is seen once)
        if stats.hist_ci((nz - scale) / scale, counts[nz], 0.0, 1.0).half <= ci:
            new = at(i, False)
            break
    if new is None and full:
        new = at(kmax - 1, True)
    return new, old


def replicate(xs, ws, mines, chunk, count, reps, seed, ci=CI, min_games=MIN_GAMES,
              max_games=MAX_GAMES):
    """``reps`` replications of one board at ``count`` games (an int, or "adaptive"): games
    drawn from the pools ``xs``, ``ws`` (members x pool games), the same for every member.
    Returns one dict per interval: the row of the study's CSV (without the board's
    columns). The numbers depend only on the arguments (``seed`` among them).

    >>> xs = np.array([[9] * 99 + [0]] * 6, np.int32); ws = (xs == 9).astype(np.int8)
    >>> rows = replicate(xs, ws, 9, 23, 50, reps=20, seed=1)
    >>> r = rows[0]; r["kind"], r["who"], r["reps"], r["truth"]
    ('score', 'basic', 20, 0.99)
    """
    rng = np.random.default_rng(seed)
    scale = max(int(mines), 1)
    pool_n = xs.shape[1]
    truth = {("score", j): int(xs[j].sum()) / pool_n / scale for j in range(len(MEMBERS))}
    truth.update({("win", j): int(ws[j].sum()) / pool_n for j in range(len(MEMBERS))})
    for a, b in PAIRS:
        truth["diff", (a, b)] = int(xs[b].sum() - xs[a].sum()) / pool_n / scale
        truth["win_diff", (a, b)] = int(ws[b].sum() - ws[a].sum()) / pool_n
    rec = {k: [] for k in truth}
    memo = {}
    draw = min(max_games, 4 * min_games)  # (games drawn at first: the last replication's)
    for _ in range(reps):
        if count == "adaptive":
            idx, new, old = _adaptive(xs, rng, chunk, scale, ci, min_games, max_games, draw)
            draw = min(max_games, max(4 * min_games, int(1.2 * idx.size)))
            x, w = xs[:, idx], ws[:, idx]
            got = intervals(x, w, [g for g, _ in new], scale, memo)
            normal = intervals(x, w, [g for g, _ in old], scale, new=False)
        else:
            idx = rng.integers(0, pool_n, count)
            new = old = [(count, False)] * len(MEMBERS)
            got = normal = intervals(xs[:, idx], ws[:, idx], [count] * len(MEMBERS), scale,
                                     memo)
        for key in truth:
            (iv, whole, _), (_, _, (_, lo, hi)) = got[key], normal[key]
            js = (key[1],) if key[0] in ("score", "win") else key[1]
            rec[key].append((iv.low <= truth[key] <= iv.high, iv.high - iv.low, whole,
                             lo <= truth[key] <= hi, hi - lo,
                             min(new[j][0] for j in js), min(old[j][0] for j in js),
                             any(new[j][1] for j in js), any(old[j][1] for j in js)))
    return [_row(key, truth[key], np.array(v, float), xs, ws) for key, v in rec.items()]


def _adaptive(xs, rng, chunk, scale, ci, min_games, max_games, draw):
    """One adaptive replication: the game indices drawn (``draw`` at first, then more
    until every member has stopped under both rules; only the games before a stop count)
    and each member's (games, capped) under the new rule and the old one."""
    idx = rng.integers(0, xs.shape[1], draw)
    new, old = [None] * len(MEMBERS), [None] * len(MEMBERS)
    while True:
        for j in range(len(MEMBERS)):
            if new[j] is None or old[j] is None:
                a, b = stops(xs[j, idx], chunk, scale, ci, min_games, max_games)
                new[j], old[j] = new[j] or a, old[j] or b
        if all(new) and all(old):
            return idx[:max(g for g, _ in new + old)], new, old
        more = min(idx.size, max_games - idx.size)
        idx = np.concatenate([idx, rng.integers(0, xs.shape[1], more)])


def _row(key, truth, v, xs, ws):
    kind, who = key
    reps = len(v)
    cov, cov_n = int(v[:, 0].sum()), int(v[:, 3].sum())
    lo, hi = stats.win_ci(cov, reps)[1:]
    nlo, nhi = stats.win_ci(cov_n, reps)[1:]
    pool = xs if kind in ("score", "diff") else ws
    if kind in ("score", "win"):
        name, col = member_name(*MEMBERS[who]), pool[who]
    else:
        a, b = who
        name = f"{member_name(*MEMBERS[b])} - {member_name(*MEMBERS[a])}"
        col = pool[b].astype(np.int64) - pool[a]
    # games of the pool off its most common value (for a pair: that differ, mostly)
    off = 1 - np.bincount(col - col.min()).max() / col.size
    wn, wo = float(np.median(v[:, 1])), float(np.median(v[:, 4]))
    gn, go = float(np.median(v[:, 5])), float(np.median(v[:, 6]))
    return dict(kind=kind, who=name, truth=truth, pool_off=off, reps=reps, covered=cov,
                coverage=cov / reps, coverage_low=lo, coverage_high=hi, width=wn,
                whole_share=float(v[:, 2].mean()), normal_covered=cov_n,
                normal_coverage=cov_n / reps, normal_low=nlo, normal_high=nhi,
                normal_width=wo, width_ratio=wn / wo if wo > 0 else math.inf,
                games=gn, normal_games=go, games_ratio=gn / go,
                capped=float(v[:, 7].mean()), normal_capped=float(v[:, 8].mean()))


def study(grid=GRID, counts=COUNTS, reps=2000, seed=SEED, workers=1, ci=CI,
          min_games=MIN_GAMES, max_games=MAX_GAMES, piece=2500, log=None):
    """The coverage study of ``grid`` (rows of (rules, size, densities, pool games)) at
    each game count of ``counts``: the pools played in pieces of ``piece`` games, then
    each board's replications, on ``workers`` processes. One row per board, count and
    interval (the numbers do not depend on ``workers``); ``log`` gets a line per step.

    >>> df = study([("keep-going", 8, (0.1,), 300)], counts=(50,), reps=30, seed=1)
    >>> len(df), df.kind.unique().tolist(), int(df.reps.min())
    (22, ['score', 'win', 'diff', 'win_diff'], 30)
    """
    boards = [(rules, size, d, games) for rules, size, ds, games in grid for d in ds]
    tasks = [(size, d, rules, j, first, min(piece, games - first), seed)
             for rules, size, d, games in boards for j in range(len(MEMBERS))
             for first in range(0, games, piece)]
    warm_up([a for a, _ in MEMBERS[::2]], workers)
    _win_ci(1, 2)  # (the intervals' kernel too, before the workers fork)
    parts = {}
    for args, res in run_tasks(pool, tasks, workers):
        parts[args] = res
    xs, ws = {}, {}
    for rules, size, d, games in boards:
        got = [[parts[size, d, rules, j, f, min(piece, games - f), seed]
                for f in range(0, games, piece)] for j in range(len(MEMBERS))]
        xs[rules, size, d] = np.array([np.concatenate([x for x, _ in g]) for g in got])
        ws[rules, size, d] = np.array([np.concatenate([w for _, w in g]) for g in got])
    if log:
        log(f"pools: {len(boards)} boards x {len(MEMBERS)} members played")
    cells = []
    for c, count in enumerate(counts):
        for b, (rules, size, d, games) in enumerate(boards):
            bd = board(size, d, rules)
            cells.append(((rules, size, d, games, bd["mines"], bd["chunk"], count),
                          (xs[rules, size, d], ws[rules, size, d], bd["mines"], bd["chunk"],
                           count, reps, [seed, b, c], ci, min_games, max_games)))
    out, index = {}, {id(a): k for k, a in cells}
    for args, rows in run_tasks(replicate, [a for _, a in cells], workers):
        key = index[id(args)]  # (run_tasks hands back the very tuple it was given)
        out[key] = rows
        if log:
            log(f"{key[0]} {key[1]}x{key[1]} density {key[2]}, {key[6]} games: done")
    table = []
    for key, _ in cells:
        rules, size, d, games, mines, chunk, count = key
        table += [dict(rules=rules, size=size, density=d, mines=mines,
                       chunk=chunk, pool=games, count=str(count), **r) for r in out[key]]
    return pd.DataFrame(table)

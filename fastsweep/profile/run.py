"""The profile's driver: every agent over a grid of boards, timed in interleaved repeats,
then counted; its folder (``timing.csv``, ``work.csv``, ``run.json``) is resumed and
extended.

Interleaving: at each board (rules, mine-total setting, density, size), repeat r plays
every agent in turn, the order rotated by r, on the same block of games (block r: the
agents share their boards and luck), so a drift of the machine's speed hits every agent
alike. An agent's games per repeat are set from one pilot game (its first call also
loads or compiles its kernels) so that its repeats take about ``seconds`` together.
Once an agent's game takes longer than ``max_game`` seconds at a size, it plays no
larger size at that density (the tables say so).
"""
from __future__ import annotations

import json
import math
import os
import time

import pandas as pd

from ..options import make_config
from .measure import counted, timed

KEYS = ["agent", "rules", "mine_count", "density", "size", "cells"]
TIMING = "timing.csv"
WORK = "work.csv"


def _read(folder, name):
    path = os.path.join(folder, name)
    return pd.read_csv(path) if os.path.exists(path) else None


def _append(folder, name, row):
    path = os.path.join(folder, name)
    new = not os.path.exists(path)
    pd.DataFrame([row]).to_csv(path, mode="a", header=new, index=False,
                               float_format="%.6g")


def _done(table, key, repeat=None):
    """The rows of ``table`` (or None) at ``key`` (and ``repeat``)."""
    if table is None or table.empty:
        return None
    sel = pd.Series(True, index=table.index)
    for k, v in key.items():
        col = table[k]
        sel &= (col == v) if not isinstance(v, float) else ((col - v).abs() < 1e-12)
    if repeat is not None:
        sel &= table["repeat"] == repeat
    rows = table[sel]
    return rows if len(rows) else None


def _check_folder(folder, spec):
    """A folder made with other fixed settings (seed, options) is refused: its games
    would not be the same games."""
    path = os.path.join(folder, "profile.json")
    fixed = {"seed": spec["seed"], "options": spec["options"]}
    if os.path.exists(path):
        with open(path) as f:
            had = json.load(f)
        if {"seed": had.get("seed"), "options": had.get("options")} != fixed:
            raise ValueError(f"out: {folder} holds a profile made with {had}; this one has "
                             f"{fixed} (its games differ): use another folder")
    else:
        with open(path, "w") as f:
            json.dump(fixed, f, indent=1)


def run_grid(spec, folder, say):
    """Play the profile ``spec`` (see ``fastsweep.profile``) into ``folder``; returns
    (timing, work) tables of the whole folder."""
    _check_folder(folder, spec)
    timing, work = _read(folder, TIMING), _read(folder, WORK)
    agents = spec["agents"]
    for rules in spec["rules"]:
        for mc in spec["mine_count"]:
            for d in spec["densities"]:
                live = list(agents)
                seen = {a: [] for a in agents}  # (cells, seconds a game) so far
                for size in spec["sizes"]:
                    live = [a for a in live if _affordable(seen[a], size, spec, say, a, d)]
                    if not live:
                        break
                    live = _board(spec, folder, (rules, mc, d, size), live, timing, work, say,
                                  seen)
                    timing, work = _read(folder, TIMING), _read(folder, WORK)
    return _read(folder, TIMING), _read(folder, WORK)


def _affordable(seen, size, spec, say, agent, d):
    """Whether a game of ``agent`` at ``size`` is predicted to take at most ``max_game``
    seconds: the last size's time, grown by the local exponent of the last two sizes
    (1 with only one), so a board whose games would take minutes is never started."""
    if not seen:
        return True
    (c1, t1) = seen[-1]
    k = 1.0
    if len(seen) > 1 and seen[-2][1] > 0 and t1 > 0:
        k = max(1.0, math.log(t1 / seen[-2][1]) / math.log(c1 / seen[-2][0]))
    pred = t1 * (size * size / c1) ** k
    if pred <= spec["max_game"]:
        return True
    say(f"{agent:>14s}: a {size}x{size} game would take about {pred:.1f} s (over max_game "
        f"{spec['max_game']} s): no larger boards at density {d:.2f}")
    return False


def _board(spec, folder, board, live, timing, work, say, seen):
    """Every live agent at one board; returns the agents that go on to larger ones."""
    rules, mc, d, size = board
    cfgs, games, keys = {}, {}, {}
    for a in live:
        cfgs[a] = make_config(a, size, density=d, rules=rules, mine_count=mc,
                              **spec["options"])
        keys[a] = dict(agent=a, rules=rules, mine_count=mc, density=d, size=size,
                       cells=size * size)
        had = _done(timing, keys[a])
        if had is not None:
            games[a] = int(had["games"].iloc[0])  # (more repeats: the same block sizes)
            continue
        t0 = time.perf_counter()
        pilot = timed(cfgs[a], spec["seed"], 0, 2)  # (also loads its kernels)
        est = (pilot["secs"] if pilot["secs"] > 0 else time.perf_counter() - t0) / 2
        est = max(est, 1e-7)
        games[a] = int(min(spec["max_games"], max(1, spec["seconds"] / spec["repeats"] / est)))
    for r in range(spec["repeats"]):
        order = live[r % len(live):] + live[:r % len(live)]
        for a in order:
            if _done(timing, keys[a], r) is not None:
                continue
            g = games[a]
            row = dict(keys[a], repeat=r, **timed(cfgs[a], spec["seed"], r * spec["block"], g))
            _append(folder, TIMING, row)
    going = []
    for a in live:
        if _done(work, keys[a]) is None:
            row = dict(keys[a], **counted(cfgs[a], spec["seed"], games[a]))
            _append(folder, WORK, row)
        t = _read(folder, TIMING)
        rows = _done(t, keys[a])
        per_game = float((rows["secs"] / rows["games"]).mean())
        say(f"{a:>14s} {rules:10s} total {'told' if mc else 'not told':8s} density "
            f"{d:.2f} {size:4d}x{size:<4d}: {per_game * 1e6:12.1f} us a game "
            f"({int(rows['games'].sum())} games in {len(rows)} repeats)")
        seen[a].append((size * size, per_game))
        if per_game <= spec["max_game"]:
            going.append(a)
        else:
            say(f"{a:>14s}: a game took over {spec['max_game']} s: no larger boards at "
                f"density {d:.2f}")
    return going

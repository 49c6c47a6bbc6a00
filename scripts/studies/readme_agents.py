"""The agents page's speed table (block ``agent-speed``), from committed results.

Renderer for :mod:`readme_tables`: milliseconds a game of every registered agent, as the
studies that made the committed results timed them:

* ``results/reports/dhurandhar.csv``: classic rules from the corner (0,0), no mine total,
  on 9x9/10, 16x16/40 and 30x30/185 (every agent but ``pseq`` and ``lookahead``);
* ``results/reports/cs440.csv``: 20x20 keep-going, no mine total, the fewest and most
  over the densities played (the agents of the CS440 report and its follow-up);
* ``results/bench_solver/bench_solver.csv``: Expert 16x30/99 classic, safe corner, mine
  total (``probability``, ``pseq``, ``lookahead`` at its defaults): the median over the
  repeats, and the range of the ratio to ``probability``'s games/s in the same repeat.

When, where and how: ``results/reproduce.json`` (the reports' step) and the bench's
``run.json`` (the committed bench_solver folder predates run.json: see ``SOLVER_RUN``).
"""
from __future__ import annotations

import json
import os

import numpy as np
import pandas as pd

from fastsweep import AGENTS
from readme_reports import _load, _md

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RES = os.path.join(ROOT, "results")
BOARDS = ((9, 9), (16, 16), (30, 30))
# results/bench_solver/ was committed (97c3d23, 2026-11-28) before the benches wrote
# run.json; its run as the solver study's page records it (used only while the folder
# has no run.json of its own)
SOLVER_RUN = {"date": "2026-11-28 04:47-04:50",
              "machine": "the shared 2-core VM (AMD EPYC), nothing else running",
              "command": "python3 scripts/bench/bench_solver.py --games 3000 --repeats 5"}


def _ms(seconds):
    """Milliseconds, to about two significant digits."""
    ms = 1000 * seconds
    if ms >= 10:
        return f"{ms:,.0f}"
    if ms >= 1:
        return f"{ms:.1f}"
    return f"{ms:.2f}" if ms >= 0.1 else f"{ms:.3f}"


def _solver():
    """Expert with the total, default settings: ({agent: "ms (ratio range x)"}, the run's
    provenance, the number of repeats, {agent: games a repeat})."""
    folder = os.path.join(RES, "bench_solver")
    b = pd.read_csv(os.path.join(folder, "bench_solver.csv"))
    b = b[b.setting == "default"]
    out = {}
    for agent, g in b.groupby("agent", sort=False):
        ms = _ms(1 / float(np.median(g.games_per_s)))
        lo, hi = g.ratio.min(), g.ratio.max()
        out[agent] = ms if agent == "probability" else f"{ms} ({lo:.3f}-{hi:.3f}x)"
    run = SOLVER_RUN
    if os.path.exists(os.path.join(folder, "run.json")):
        with open(os.path.join(folder, "run.json")) as f:
            run = json.load(f)
    return out, run, int(b.repeat.nunique()), dict(zip(b.agent, b.games))


def _range(g):
    """The fewest and most ms a game over a board's densities, and those densities."""
    return (f"{_ms(g.seconds_per_game.min())}-{_ms(g.seconds_per_game.max())} "
            f"({g.density.min():g}-{g.density.max():g})")


def agent_speed():
    d = _load("dhurandhar")
    d["options"] = d.options.str.replace("first_cell=0,0", "", regex=False)  # (every row's)
    c = _load("cs440")
    c = c[~c.mine_count]
    solver, run, repeats, games = _solver()
    with open(os.path.join(RES, "reproduce.json")) as f:
        rep = json.load(f)["reports"]
    rows = []
    for agent in AGENTS:
        for opts in sorted(set(d.options[d.agent == agent]) | set(c.options[c.agent == agent])
                           | ({""} if agent in solver else set())):
            r = [f"`{agent}`" + (f", `{opts}`" if opts else "")]
            for h, w in BOARDS:
                x = d[(d.agent == agent) & (d.options == opts) & (d.height == h)
                      & (d.width == w)]
                r.append(_ms(x.seconds_per_game.iloc[0]) if len(x) else "")
            x = c[(c.agent == agent) & (c.options == opts)]
            r.append(_range(x) if len(x) else "")
            r.append(solver.get(agent, "") if not opts else "")
            rows.append(r)
    dg = d.groupby("agent").games.min()
    few = ", ".join(f"`{a}` {int(n):,}" for a, n in dg.items() if n != dg.max())
    few = f" ({few})" if few else ""
    note = f" ({rep['note']})" if rep.get("note") else ""
    per = ", ".join(f"`{a}` {n:,}" for a, n in games.items())
    table = _md(["agent", "9x9/10", "16x16/40", "30x30/185", "20x20 keep-going (densities)",
                 "Expert + total (x probability)"], rows)
    return (
        "Milliseconds a game on one core:\n\n" + table + "\n\n"
        "* 9x9/10, 16x16/40, 30x30/185: classic rules, first cell (0,0), no mine total, "
        f"{int(dg.max()):,} games a board{few}; `results/reports/dhurandhar.csv`.\n"
        "* 20x20: keep-going, no mine total, the fewest and the most over the densities "
        "played (in brackets); `results/reports/cs440.csv`.\n"
        f"* Both made {rep['date']}, {rep['machine']}, `{rep['command']}`{note}"
        + "".join(f"; {', '.join(f'`{a}`' for a in r['agents'])}'s rows re-made {r['date']}, "
                  f"{r['machine']}, `{r['command']}` ({r['note']})"
                  for r in rep.get("reruns", [])) + ".\n"
        "* Expert: 16x30/99 classic, safe corner (0,0), mine total, the median of "
        f"{repeats} repeats ({per} games a repeat); in brackets the range over the repeats "
        "of its games/s over `probability`'s in the same repeat; "
        f"`results/bench_solver/bench_solver.csv`, made {run['date']}, {run['machine']}, "
        f"`{run['command']}`.")


BLOCKS = {"agent-speed": agent_speed}

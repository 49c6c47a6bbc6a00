"""Users' own agents against the built-in ones, in one process (interleaved repeats):

1. ``examples/basic_numba.py`` (the basic agent as a user's Numba agent, the engine
   playing its rules: ``rules=True``) vs the built-in ``basic``, 30x30 at density 0.2,
   keep-going: identical games, time per game (target <= 1.5x); and its
   ``agent_by_hand`` (the rules in the policy: called every move) for comparison;
2. ``examples/lowest_numba.py`` (lowest exact probability, its own tie-break) vs the
   built-in ``probability``, Expert classic with the total (target <= 1.5x);
3. a Python agent's cost per move beyond its own code (a trivial agent: it returns the
   next cell of the guess order from a list), single-game mode at 30x30 and 100x100
   (target <= 5 us at both: O(cells changed) a move, not O(H*W)) and batched
   (``act_batch``, per game-step; target <= 1 us);
4. compiling a user's Numba agent in a fresh process with the engine's kernels cached
   (target <= 20 s).

``--quick`` (a check of the script, seconds once compiled: its numbers mean nothing): 2
repeats of few games, and row 2 pairs basic_numba with basic under row 2's settings.

Usage: python3 scripts/bench/own_agents.py [--quick] [--out DIR]; writes own_agents.csv and
run.json into --out (results/own_agents/ in the committed run).
"""
from __future__ import annotations

import os
import runpy
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

import numpy as np
import pandas as pd

import fastsweep
from fastsweep.options import make_config
from fastsweep.runner import play_chunk
from fastsweep.studies.script_args import parse, parser, write_run
from fastsweep.tools.bench import machine

ROOT = Path(__file__).resolve().parents[2]


def example(name):
    """The ``agent`` of examples/<name>.py (run as a file: the examples are not a package)."""
    return runpy.run_path(str(ROOT / "examples" / f"{name}.py"))["agent"]

COLS = ["flagged", "detonated", "revealed", "guesses", "moves", "won"]


def timed(cfg, games, seed=1):
    t0 = time.perf_counter()
    out, _, _ = play_chunk(cfg, seed, 0, games, timing=False)
    return out, time.perf_counter() - t0


def pair(mine, ref, size, games, reps, **kw):
    """Interleaved repeats of two agents on the same games: (identical, [ratios], median
    seconds a game of each)."""
    cm, cr = make_config(mine, size, **kw), make_config(ref, size, **kw)
    timed(cm, 2), timed(cr, 2)  # compile / load
    ratios, same, tms, trs = [], True, [], []
    for _ in range(reps):
        om, tm = timed(cm, games)
        orf, tr = timed(cr, games)
        same &= np.array_equal(om[:, :6], orf[:, :6])
        ratios.append(tm / tr)
        tms.append(tm)
        trs.append(tr)
    return same, ratios, float(np.median(tms)) / games, float(np.median(trs)) / games


class Trivial:
    """Returns the next cell of the guess order: the least a Python agent can do. Times
    its own code (``own``), so the engine's share can be told apart."""

    name = "trivial"

    def __init__(self):
        self.own = 0.0

    def reset(self, info):
        self.i = 0

    def act(self, obs):
        t0 = time.perf_counter()
        view = obs.view.ravel()
        order = obs.order
        while view[order[self.i]] != -1:
            self.i += 1
        move = divmod(int(order[self.i]), obs.view.shape[1])
        self.own += time.perf_counter() - t0
        return move


class TrivialBatch:
    """The same, for a batch: each slot's next hidden cell of its guess order (its own
    pointer, so its cost per step is O(B), like the engine's)."""

    name = "trivial-batch"

    def __init__(self):
        self.own = 0.0

    def act_batch(self, obs):
        t0 = time.perf_counter()
        b = obs.view.shape[0]
        if getattr(self, "ptr", None) is None or len(self.ptr) != b:
            self.ptr = np.zeros(b, np.int64)
        self.ptr[obs.new] = 0
        flat = obs.view.reshape(b, -1)
        rows = np.arange(b)
        while True:
            cells = obs.order[rows, self.ptr]
            taken = (flat[rows, cells] != -1) & obs.active
            if not taken.any():
                break
            self.ptr += taken
        move = fastsweep.reveal(cells)
        self.own += time.perf_counter() - t0
        return move


def python_overhead(games, size=30, batched=True):
    """{agent: (us a move or game-step all included, the same without the agent's own
    code)} of the trivial agents on size x size/0.2 keep-going."""
    rows = {}
    for agent in (Trivial(), TrivialBatch()) if batched else (Trivial(),):
        cfg = make_config(agent, size, density=0.2)
        timed(cfg, 2)
        agent.own = 0.0
        out, wall = timed(cfg, games)
        steps = out[:, 4].sum() - games  # the agent's moves (the opening is the game's)
        rows[agent.name] = (1e6 * wall / steps, 1e6 * (wall - agent.own) / steps)
    return rows


COMPILE = ("import runpy, time, fastsweep;"
           "agent = runpy.run_path('examples/basic_numba.py')['agent'];"
           "t = time.perf_counter();"
           "fastsweep.run(agent, 5, mines=3, games=1); print(time.perf_counter() - t)")


def main(argv=None):
    a = parse(parser("own_agents", __doc__, workers=False), argv)
    reps, g1, g2, g3 = (2, 200, 20, 20) if a.quick else (5, 4000, 300, 200)
    basic_numba, lowest_numba = example("basic_numba"), example("lowest_numba")
    by_hand = runpy.run_path(str(ROOT / "examples" / "basic_numba.py"))["agent_by_hand"]
    rows = []
    pairs = [(basic_numba, "basic as a Numba agent (rules=True)", "<= 1.5"),
             (by_hand, "basic as a Numba agent, rules by hand", "")]
    for agent, what, target in pairs[:1] if a.quick else pairs:  # (quick: one loop compiled)
        same, r, tm, tr = pair(agent, "basic", 30, g1, reps, density=0.2)
        rows.append(dict(measure=f"{what} / built-in basic, 30x30/0.2 keep-going",
                         value=float(np.median(r)), lo=min(r), hi=max(r), target=target,
                         identical_games=same,
                         note=f"{tm * 1e6:.1f} vs {tr * 1e6:.1f} us a game"))
    # --quick checks the script's path, not its numbers: row 2's pair is then basic_numba
    # (its loop compiled for row 1) and basic, under row 2's settings, not lowest_numba,
    # whose loop is 20-25 s of compiling (tests/test_own_agents.py compiles and plays it
    # under these very settings: test_the_lowest_probability_example_runs)
    mine2, ref2 = ("basic_numba", "basic") if a.quick else ("lowest_numba", "probability")
    same, r, tm, tr = pair(basic_numba if a.quick else lowest_numba, ref2, (16, 30), g2, reps,
                           mines=99, rules="classic", mine_count=True)
    rows.append(dict(measure=f"{mine2} / built-in {ref2}, Expert classic + total",
                     value=float(np.median(r)), lo=min(r), hi=max(r), target="<= 1.5",
                     identical_games=same, note=f"{tm * 1e3:.2f} vs {tr * 1e3:.2f} ms a game"))
    for size, games in ((30, g3), (100, max(g3 // 10, 2))):
        ov = [python_overhead(games, size, batched=size == 30) for _ in range(reps)]
        for key, what, target in (("trivial", "Python agent: us a move beyond its own code",
                                   "<= 5"),
                                  ("trivial-batch", "batched agent (256 slots): us a "
                                   "game-step beyond its own code", "<= 1")):
            if key not in ov[0]:
                continue
            v = [o[key][1] for o in ov]
            allin = float(np.median([o[key][0] for o in ov]))
            rows.append(dict(measure=f"{what}, {size}x{size}", value=float(np.median(v)),
                             lo=min(v), hi=max(v), target=target, identical_games=None,
                             note=f"{size}x{size}/0.2 keep-going; {allin:.2f} with the "
                             "agent's code"))
    env = dict(os.environ, FASTSWEEP_NO_VENV="1")
    secs = float(subprocess.run([sys.executable, "-c", COMPILE], cwd=ROOT, env=env,
                                capture_output=True, text=True, check=True).stdout)
    rows.append(dict(measure="compiling a user's Numba agent (s, fresh process, engine "
                     "cached)", value=secs, lo=secs, hi=secs, target="<= 20",
                     identical_games=None, note="examples/basic_numba.py"))
    df = pd.DataFrame(rows)
    df["date"] = date.today().isoformat()
    df["machine"] = machine()
    df["command"] = "python3 scripts/bench/own_agents.py" + "".join(f" {x}" for x in a.argv)
    print(df[["measure", "value", "lo", "hi", "target", "identical_games", "note"]].to_string())
    out = os.path.join(a.out, "own_agents.csv")
    df.to_csv(out, index=False)
    print("wrote", out)
    print("wrote", write_run(a, repeats=reps))


if __name__ == "__main__":
    main()

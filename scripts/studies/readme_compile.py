"""The compile page's tables (blocks ``compile-rekeys`` and ``compile-bench``).

Renderer for :mod:`readme_tables`. ``compile-rekeys``: what a one-line edit to each
module that ``scripts/bench/compile.py`` edits re-keys, computed from the code
(``fastsweep.kernels.cache_keys``). ``compile-bench``: that script's committed run
(``results/bench_compile/``): every row, then issue 56's targets with a verdict computed
from the rows.
"""
from __future__ import annotations

import json
import os

import pandas as pd

from readme_reports import _md

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RES = os.path.join(ROOT, "results", "bench_compile")
EDITS = ["agents/solver/pseq", "agents/reports/linalg", "inference/count", "engine/actions"]


def _loops():
    """Each family's kernels: the modules whose compiled code its games run (the game
    loop ``family._play``, its move and guess, see ``agents/family.py``)."""
    from fastsweep.agents import FAMILIES
    out = {}
    for fam, mod in FAMILIES.items():
        out[fam] = mod.FAMILY.modules()
    return out


def rekeys():
    from fastsweep.kernels import cache_keys as ck
    loops = _loops()
    rows = []
    for mod in EDITS:
        hit = ck.reverse_closure(mod)
        fams = [f for f, mods in loops.items() if hit & set(mods)]
        rows.append([f"`{mod}`", str(len(hit)), ", ".join(fams) or "none",
                     ", ".join(f for f in loops if f not in fams) or "none"])
    return ("Of the kernels' " + str(len(ck.closures())) + " modules:\n\n" +
            _md(["edited module", "modules re-keyed", "families recompiled",
                 "families loaded from the cache"], rows))


# the compiles of a process whose kernels all load from the disk cache: none since the
# games' clock is an intrinsic (``engine/timer.py``; it was an object-mode block, which
# Numba compiles in every process)
PER_PROCESS = 0
# (target, kind, edit, run, what is compared, bound)
TARGETS = [
    ("first run of basic (30x30, 1,000 games)", "cold", "", "basic", "wall_s", 10),
    ("first run of probability (Expert classic)", "cold", "", "probability", "wall_s", 60),
    ("first run of lookahead (Expert classic)", "cold", "", "lookahead", "wall_s", 90),
    ("all families (fastsweep.warm)", "all families", "", "fastsweep.warm()", "wall_s", 240),
    ("pseq edit: basic compiles nothing", "edit", "agents/solver/pseq", "basic", "compiled", 0),
    ("pseq edit: basic to its first game", "edit", "agents/solver/pseq", "basic", "wall_s", 5),
    ("pseq edit: probability compiles nothing", "edit", "agents/solver/pseq", "probability",
     "compiled", 0),
    ("pseq edit: probability to its first game", "edit", "agents/solver/pseq", "probability",
     "wall_s", 5),
    ("pseq edit: the solver family (lookahead)", "edit", "agents/solver/pseq", "lookahead",
     "wall_s", 60),
    ("count edit: basic compiles nothing", "edit", "inference/count", "basic", "compiled", 0),
    ("count edit: probability", "edit", "inference/count", "probability", "wall_s", 60),
    ("pseq edit: the user's Numba agent compiles nothing", "edit", "agents/solver/pseq",
     "user numba agent", "compiled", 0),
]


def bench():
    path = os.path.join(RES, "compile.csv")
    if not os.path.exists(path):
        return "(no record yet: run `python3 scripts/bench/compile.py --out results/bench_compile`)"
    t = pd.read_csv(path, keep_default_na=False)
    with open(os.path.join(RES, "run.json")) as f:
        run = json.load(f)
    rows = [[r.kind, f"`{r.edit}`" if r.edit else "", r.run, f"{float(r.wall_s):.1f}",
             f"{float(r.cpu_s):.1f}", "" if int(r.compiled) < 0 else str(int(r.compiled))]
            for r in t.itertuples()]
    goals = []
    for name, kind, edit, agent, col, bound in TARGETS:
        sel = t[(t.kind == kind) & (t.edit == edit) & (t.run == agent)]
        if sel.empty:
            goals.append([name, "(not measured)", "", ""])
            continue
        v = float(sel.iloc[0][col])
        shown = f"{v:.1f} s" if col == "wall_s" else f"{int(v)} compile(s)"
        goal = f"<= {bound} s" if col == "wall_s" else f"<= {PER_PROCESS} compile(s)"
        met = v <= (bound if col == "wall_s" else PER_PROCESS)
        goals.append([name, shown, goal, "met" if met else "MISSED"])
    head = (f"{run.get('date', '?')}, {run.get('machine', '?')}, "
            f"`{run.get('command', '?')}` ({float(run.get('seconds', 0)) / 60:.0f} min"
            + (f"; {run['note']}" if run.get("note") else "") + "):")
    return (head + "\n\n" + _md(["row", "edited module", "first run of", "process s (wall)",
                                 "CPU s", "compiled"], rows)
            + "\n\nThe targets set for this work, from the rows above:\n\n"
            + _md(["target", "measured", "goal", "verdict"], goals))


BLOCKS = {"compile-rekeys": rekeys, "compile-bench": bench}

"""Compile time as a user and a developer meet it: each family's first run on an empty
compile cache, and the first run after a one-line edit to a kernel module; writes
``OUT/compile.csv`` and run.json (default ``--out``: out/compile/; the committed
results/bench_compile/ is this script's run with its defaults).

Every row is one fresh Python process (``python -c``) on a copy of the package in a
temporary folder (so the edits never touch the checkout) with its own compile cache
(``NUMBA_CACHE_DIR``): its wall and CPU seconds from start to exit, the seconds of its
first ``run`` (compile and play), and how many kernels Numba compiled in it (its
``numba:compile`` events; 0: everything came from the disk cache).

Rows:
- ``cold``: on an empty cache, the first run of each agent below (a family each);
- ``all families``: on an empty cache, ``fastsweep.warm()`` (every family, two processes
  at a time), then nothing left to compile;
- ``edit <module>``: on a cache warm for every family, a comment line appended to the
  module, then the first run of each agent again (each in its own process, in order).

``--profile AGENT`` instead: one cold first run of AGENT (a row name below) with each
compile's own seconds (its time minus the compiles nested in it, Numba's compile events)
and its seconds with them, the top 25 printed and all in ``OUT/profile-AGENT.csv``.

Usage: python3 scripts/bench/compile.py [--out DIR] [--quick] [--only cold,all,edit]
       python3 scripts/bench/compile.py --profile probability
  --quick   seconds when the kernels are cached: the cold and all-families rows on the
            caller's own cache, no edits (checks the script; the numbers mean nothing)
"""
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from fastsweep.studies.script_args import parse, parser, write_run

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# (row name, agent, what its first run plays): one agent per family, and a user's
# Numba agent (examples/basic_numba.py)
RUNS = [
    ("basic", "fastsweep.run('basic', 30, density=0.2, games=1000, seed=0)"),
    ("probability", "fastsweep.run('probability', (16, 30), mines=99, rules='classic', "
                    "games=20, seed=0)"),
    ("lookahead", "fastsweep.run('lookahead', (16, 30), mines=99, rules='classic', games=2, "
                  "seed=0)"),
    ("linalg", "fastsweep.run('linalg', 30, density=0.2, games=100, seed=0)"),
    ("risk", "fastsweep.run('risk', 16, density=0.15, games=5, seed=0)"),
    ("user numba agent", "fastsweep.run(user.my_basic, 30, density=0.2, games=1000, "
                         "seed=0)"),
]
QUICK_RUNS = [(n, c.replace("games=1000", "games=5").replace("games=100", "games=5")
               .replace("games=20", "games=2")) for n, c in RUNS]
# the one-line edits: an agent module, a report agent, an inference module, an engine module
EDITS = ["agents/solver/pseq", "agents/reports/linalg", "inference/count", "engine/actions"]

CHILD = r"""
import json, resource, sys, time
t0 = time.perf_counter()
from numba.core import event
compiled = []
class _Count(event.Listener):
    def on_start(self, ev): pass
    def on_end(self, ev): compiled.append(ev.data["dispatcher"].py_func.__qualname__)
event.register("numba:compile", _Count())
import fastsweep
import basic_numba as user  # (examples/, on the child's PYTHONPATH)
t1 = time.perf_counter()
exec(sys.argv[1])
t2 = time.perf_counter()
ru = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"run_s": t2 - t1, "wall_s": t2 - t0, "cpu_s": ru.ru_utime + ru.ru_stime,
                  "compiled": len(compiled)}))
"""


def _env(clone, cache):
    """The child's environment: the clone and its examples first on the module path, its
    own cache (None: the caller's)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([clone, os.path.join(clone, "examples")]),
               FASTSWEEP_NO_VENV="1")
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = cache
    return env


PROFILE = r"""
import json, sys, time
from numba.core import event
stack, rows = [], []
class _Time(event.Listener):
    def on_start(self, ev):
        stack.append([time.perf_counter(), 0.0])
    def on_end(self, ev):
        t0, nested = stack.pop()
        d = ev.data["dispatcher"].py_func
        took = time.perf_counter() - t0
        rows.append([d.__module__ + "." + d.__qualname__, took - nested, took])
        if stack:
            stack[-1][1] += took
event.register("numba:compile", _Time())
import fastsweep
import basic_numba as user
exec(sys.argv[1])
print(json.dumps(rows))
"""


def profile(name, clone, cache, out):
    """Each compile of ``name``'s cold first run: own and inclusive seconds."""
    code = dict(RUNS)[name]
    p = subprocess.run([sys.executable, "-c", PROFILE, code],
                       cwd=clone, env=_env(clone, cache), capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{code}: exit {p.returncode}\n{p.stderr[-2000:]}")
    rows = json.loads(p.stdout.strip().splitlines()[-1])
    byname = {}
    for fn, own, incl in rows:
        r = byname.setdefault(fn, [0, 0.0, 0.0])
        r[0] += 1
        r[1] += own
        r[2] = max(r[2], incl)
    top = sorted(byname.items(), key=lambda kv: -kv[1][1])
    total = sum(r[1] for r in byname.values())
    print(f"{name}: {len(rows)} compiles of {len(byname)} functions, {total:.1f} s in all")
    print(f"{'own s':>8} {'with nested':>11} {'times':>5}  function")
    for fn, (k, own, incl) in top[:25]:
        print(f"{own:8.1f} {incl:11.1f} {k:5d}  {fn}")
    path = os.path.join(out, f"profile-{name}.csv")
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["function", "compiles", "own_s", "inclusive_s"])
        for fn, (k, own, incl) in top:
            w.writerow([fn, k, round(own, 3), round(incl, 3)])
    print(f"wrote {path}")


def child(code, clone, cache):
    """One fresh process running ``code`` in ``clone`` with compile cache ``cache``:
    {run_s, wall_s, cpu_s, compiled} (wall and CPU from the process's start)."""
    env = _env(clone, cache)
    t = time.perf_counter()
    p = subprocess.run([sys.executable, "-c", CHILD, code],
                       cwd=clone, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t
    if p.returncode != 0:
        raise RuntimeError(f"{code}: exit {p.returncode}\n{p.stderr[-2000:]}")
    res = json.loads(p.stdout.strip().splitlines()[-1])
    res["wall_s"] = wall  # the whole process, interpreter start included
    return res


def make_clone(tmp, name):
    """A copy of the package and its examples under ``tmp/name``."""
    clone = os.path.join(tmp, name)
    for part in ("fastsweep", "examples"):
        shutil.copytree(os.path.join(ROOT, part), os.path.join(clone, part),
                        ignore=shutil.ignore_patterns("__pycache__"))
    return clone


def warm_all(clone, cache):
    """``fastsweep.warm()`` in a fresh process: {wall_s, cpu_s (this process and its
    warm-up processes), compiled: -1 (the workers' compiles are not counted)}."""
    env = _env(clone, cache)
    before = os.times()
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import fastsweep; fastsweep.warm()"], cwd=clone,
                   env=env, check=True, capture_output=True)
    after = os.times()
    cpu = (after.children_user - before.children_user + after.children_system
           - before.children_system)
    return {"run_s": time.perf_counter() - t, "wall_s": time.perf_counter() - t,
            "cpu_s": cpu, "compiled": -1}


def main(argv=None):
    ap = parser("compile", __doc__, workers=False)
    ap.add_argument("--only", default="cold,all,edit",
                    help="which rows: cold, all, edit (comma-separated; default all three)")
    ap.add_argument("--profile", metavar="AGENT", choices=[n for n, _ in RUNS],
                    help="instead: each compile's seconds in AGENT's cold first run")
    a = parse(ap, argv)
    if a.profile:
        with tempfile.TemporaryDirectory(prefix="fastsweep-compile-") as tmp:
            profile(a.profile, make_clone(tmp, "clone"), os.path.join(tmp, "cache"), a.out)
        return
    only = set(a.only.split(","))
    if only - {"cold", "all", "edit"}:
        ap.error(f"--only: expected cold, all and/or edit, got {a.only!r}")
    runs = QUICK_RUNS if a.quick else RUNS
    rows = []

    csv_path = os.path.join(a.out, "compile.csv")
    fields = ["kind", "edit", "run", "run_s", "wall_s", "cpu_s", "compiled"]

    def add(kind, what, name, res):
        rows.append({"kind": kind, "edit": what, "run": name, **{k: round(v, 2) if
                     isinstance(v, float) else v for k, v in res.items()}})
        # each row on disk as it is measured: a run of most of an hour loses no row
        os.makedirs(a.out, exist_ok=True)
        with open(csv_path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=fields)
            w.writeheader()
            w.writerows(rows)
        print(f"{kind:>12} {what or '-':<22} {name:<18} run {res['run_s']:7.1f} s  "
              f"process {res['wall_s']:7.1f} s  cpu {res['cpu_s']:7.1f} s  "
              f"compiled {res['compiled']}", flush=True)

    with tempfile.TemporaryDirectory(prefix="fastsweep-compile-") as tmp:
        clone = make_clone(tmp, "clone")
        shared = os.path.join(tmp, "cache-shared")
        if "cold" in only:
            for name, code in runs:
                cache = None if a.quick else os.path.join(tmp, f"cache-{len(rows)}")
                add("cold", "", name, child(code, clone, cache))
        if "all" in only:
            cache = None if a.quick else os.path.join(tmp, "cache-all")
            add("all families", "", "fastsweep.warm()", warm_all(clone, cache))
        if "edit" in only and not a.quick:
            warm_all(clone, shared)
            for name, code in runs:  # (the user's agent's loop too)
                child(code, clone, shared)
            for mod in EDITS:
                # (src, not path: add() writes the rows to csv_path; the edit loop once
                # shared its name and wrote the rows into the edited module)
                src = os.path.join(clone, "fastsweep", "kernels", *mod.split("/")) + ".py"
                with open(src, "rb") as f:
                    original = f.read()
                with open(src, "ab") as f:
                    f.write(b"\n# a one-line edit (scripts/bench/compile.py)\n")
                for name, code in runs:
                    add("edit", mod, name, child(code, clone, shared))
                with open(src, "wb") as f:  # back: its keys are still cached
                    f.write(original)
    write_run(a, quick=a.quick, rows=len(rows))
    print(f"wrote {csv_path}")


if __name__ == "__main__":
    main()

"""Regenerate every committed table, figure and README number, in one command.

Each step runs one study or benchmark script (scripts/studies/, scripts/bench/) into its
folder under results/, from scratch (what it would resume from is cleared first), and
records when, where, with which command and in how long it ran (results/reproduce.json;
each script also writes run.json into its folder); then the measured tables of the README
and of the site's pages are re-rendered from the new results
(scripts/studies/readme_tables.py --write). Before
anything runs, the plan is printed with each step's expected time (the last recorded
run's, else a stated guess). ``--quick`` runs every step in its tiny size (seconds each)
into out/reproduce-quick/ and leaves results/ and the README alone.

This is the only script that writes results/: the others write out/<script>/ unless
given --out.

Usage: python3 scripts/reproduce.py [--quick] [--only STEP[,STEP]] [--workers N] [--list]
"""
import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import time

from _bootstrap import ROOT, ensure_venv  # (this folder's)

# name: (script, its arguments in both sizes, in the full run only, the folder under
# results/, guessed minutes full/quick)
STEPS = {
    "headline": ("studies/headline.py", ["--quiet"], [], "headline", (4, 0.2)),
    # issue 62: coverage of the sweep's intervals by simulation (both cores)
    "coverage": ("studies/coverage_study.py", [], [], "coverage", (10, 0.2)),
    "report": ("studies/report_table.py", [], [], "report_table", (15, 0.1)),
    "reports": ("studies/reports.py", [], [], "reports", (75, 0.3)),
    "noise": ("studies/noise_study.py", [], [], "noise", (45, 0.3)),
    "hard": ("studies/hard_study.py", [], ["--workers", "1"], "hard", (15, 0.2)),
    "influence": ("studies/influence_study.py", [], ["--workers", "1"], "influence", (10, 0.2)),
    "influence-search": ("studies/influence_search_study.py", [], ["--workers", "1"],
                         "influence_search", (4, 0.1)),
    "pictures": ("studies/pictures.py", [], [], "pictures", (0.5, 0.1)),
    # the solver's sweep folders took hours a row: the step re-derives the table from
    # the committed records (growing them: scripts/studies/solver_study.py, see README)
    "solver": ("studies/solver_study.py", [], ["--table-only"], "solver", (0.5, 0.1)),
    # issue 59: every agent's growth with the board, its work and where its time goes
    "profiling": ("studies/profile_study.py", [], [], "profiling", (30, 0.3)),
    # issue 60: the benchmark's reference cards of both suites (the records users' cards
    # reuse), and how long a card takes
    "benchmark": ("studies/benchmark_cards.py", [], ["--workers", "2"], "benchmark",
                  (5, 0.3)),
    "card-time": ("bench/bench_card_time.py", [], ["--workers", "2"], "bench_cards",
                  (3.5, 0.3)),
    # the tutorial's printed outputs and figures (docs/pages/tutorial.md)
    "tutorial": ("studies/tutorial.py", [], [], "tutorial", (1, 1)),
    # (a card made on other machine code, worker count and backend: the same games)
    "card-identity": ("bench/card_identity.py", [], [], "benchmark_identity", (12, 0.5)),
    "bench": ("bench/bench.py", [], ["--repeats", "3"], "bench", (3, 0.1)),  # (cold compiles)
    "inference": ("bench/bench_inference.py", [], [], "bench_inference", (20, 0.1)),
    "hard-views": ("bench/bench_hard_views.py", [], [], "bench_hard_views", (8, 0.1)),
    "sweeps": ("bench/bench_sweep.py", [], ["--repeats", "3"], "bench_sweep", (3, 0.1)),
    "solver-bench": ("bench/bench_solver.py", [], ["--games", "3000", "--repeats", "5"],
                     "bench_solver", (4, 0.1)),
    "own-agents": ("bench/own_agents.py", [], [], "own_agents", (3, 0.3)),
    # issue 47's targets: A/B against the engine before it (compiles that engine too)
    "targets": ("bench/bench_targets.py", [], [], "bench_targets", (25, 1.5)),
    # (Jumanji's side needs its own venv first: python3 scripts/bench/gym_speed.py --setup)
    "gym": ("bench/gym_speed.py", [], [], "gym_speed", (2, 0.1)),
    # issue 56: cold compiles and recompiles after edits, each on an empty cache
    "compile": ("bench/compile.py", [], [], "bench_compile", (30, 0.3)),
    "compile-figure": ("studies/compile_figure.py", [], [], "compile_rekeys", (0.2, 0.1)),
}
LOG = os.path.join("results", "reproduce.json")
# what a step would otherwise resume from: cleared first, so its times are measured anew
CLEAR = {"headline": ["headline/chunks.jsonl", "headline/per_game", "headline/run.json"],
         "report": ["report_table/report_table.csv"],
         "reports": [f"reports/{n}.csv" for n in ("rele2019", "cs440", "patel2020",
                                                  "dhurandhar")],
         "noise": [f"noise/{n}.csv" for n in ("bonus", "levels", "report000")],
         "hard": [f"hard/{n}.csv" for n in ("search", "exhaustive", "exhaustive_layouts")],
         "influence": ["influence/points"],
         "influence-search": ["influence_search/search.csv"],
         "profiling": [f"profiling/{n}" for n in ("timing.csv", "work.csv", "profile.json")]}


# the steps whose cells run on ``--workers`` processes (their numbers do not depend on it)
PARALLEL = ("headline", "report", "reports", "noise")


def command(name, quick, res, workers=None):
    """The step's arguments after ``python3``."""
    script, both, full, folder, _ = STEPS[name]
    more = ["--workers", str(workers)] if workers and name in PARALLEL else []
    return ([os.path.join("scripts", script), *both, *(["--quick"] if quick else full),
             *more, "--out", os.path.join(res, folder)])


def expected(name, quick, log):
    """Minutes the step should take: the last recorded full run's, else the guess."""
    if not quick and name in log:
        return log[name]["seconds"] / 60, "last run"
    return STEPS[name][4][1 if quick else 0], "estimate"


def main(argv=None):
    from fastsweep.tools.bench import machine

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true",
                    help="tiny sizes into out/reproduce-quick/ (results/ untouched)")
    ap.add_argument("--only", default=None, help=f"comma list of steps ({', '.join(STEPS)})")
    ap.add_argument("--list", action="store_true", help="print the plan and exit")
    ap.add_argument("--workers", type=int, default=None,
                    help=f"processes for the steps that play cells in parallel "
                         f"({', '.join(PARALLEL)}; their numbers do not depend on it)")
    a = ap.parse_args(argv)
    if a.workers is not None and a.workers < 1:
        ap.error(f"--workers: must be an integer >= 1, got {a.workers}")
    names = list(STEPS) if a.only is None else [s.strip() for s in a.only.split(",")]
    bad = [s for s in names if s not in STEPS]
    if bad:
        ap.error(f"--only: unknown step(s) {', '.join(bad)}; steps are {', '.join(STEPS)}")
    res = os.path.join("out", "reproduce-quick") if a.quick else "results"
    log = {}
    if os.path.exists(LOG):
        with open(LOG) as f:
            log = json.load(f)
    total = 0.0
    print(f"reproduce: {len(names)} step(s) into {res}/ on {machine()}")
    for s in names:
        m, how = expected(s, a.quick, log)
        total += m
        print(f"  {s:<16} -> {res}/{STEPS[s][3] + '/':<18} about {m:.1f} min ({how})")
    print(f"  total about {total:.0f} min (plus about 3 min to compile the kernels the first "
          "time); the machine's speed can drift 2x")
    if a.list:
        return 0
    os.makedirs(res, exist_ok=True)
    for s in names:
        args = command(s, a.quick, res, a.workers)
        cmd = [sys.executable] + args
        shown = "python3 " + " ".join(args)
        print(f"\n== {s}: {shown}", flush=True)
        for rel in CLEAR.get(s, []):
            path = os.path.join(res, rel)
            if os.path.isdir(path):
                shutil.rmtree(path)
            elif os.path.exists(path):
                os.remove(path)
        t = time.perf_counter()
        r = subprocess.run(cmd, cwd=ROOT)
        secs = time.perf_counter() - t
        if r.returncode != 0:
            print(f"reproduce: step {s} failed (exit {r.returncode}) after {secs:.0f} s; "
                  "the steps before it are recorded", file=sys.stderr)
            return r.returncode
        print(f"== {s}: done in {secs / 60:.1f} min", flush=True)
        if not a.quick:
            log[s] = {"date": datetime.date.today().isoformat(), "machine": machine(),
                      "command": shown, "seconds": round(secs, 1)}
            with open(LOG, "w") as f:
                json.dump(log, f, indent=1)
    if not a.quick:
        r = subprocess.run([sys.executable, os.path.join("scripts", "studies",
                                                         "readme_tables.py"), "--write"],
                           cwd=ROOT)
        if r.returncode != 0:
            return r.returncode
    return 0


if __name__ == "__main__":
    ensure_venv(os.path.abspath(__file__))
    os.chdir(ROOT)
    sys.exit(main(sys.argv[1:]))

"""Regenerate every committed table, figure and README number, in one command.

Each step runs one study script into results/ from scratch (what it would resume from
is cleared first) and records when, where, with which command and in how long it ran
(results/reproduce.json); then the README's measured
tables are re-rendered from the new results (scripts/readme_tables.py). Before anything
runs, the plan is printed with each step's expected time (the last recorded run's, else
a stated guess). ``--quick`` runs every study in its smoke-test size into
out/reproduce-quick/ and leaves results/ and the README alone.

Usage: python3 scripts/reproduce.py [--quick] [--only STEP[,STEP]] [--list]
Steps: headline, report, reports, noise, hard, profile, bench, inference, hard-views, sweeps.
"""
import argparse
import datetime
import json
import os
import platform
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _bootstrap import ROOT, ensure_venv  # noqa: E402

# name: (command for the full run, the same for --quick, output, guessed minutes full/quick)
STEPS = {
    "headline": (["scripts/headline.py", "--quiet", "--out", "{res}/headline"],
                 ["scripts/headline.py", "--quick", "--quiet", "--out", "{res}/headline"],
                 "headline/", (4, 1)),
    "report": (["scripts/report_table.py", "--out", "{res}/report_table.csv"],
               ["scripts/report_table.py", "--games", "50", "--dims", "10", "20",
                "--out", "{res}/report_table.csv"], "report_table.csv", (15, 1)),
    "reports": (["scripts/reports.py", "--out", "{res}/reports"],
                ["scripts/reports.py", "--quick", "--out", "{res}/reports"], "reports/", (75, 4)),
    "noise": (["scripts/noise_study.py", "--out", "{res}/noise"],
              ["scripts/noise_study.py", "--quick", "--out", "{res}/noise"], "noise/", (45, 3)),
    "hard": (["scripts/hard_study.py", "--workers", "1", "--out", "{res}/hard"],
             ["scripts/hard_study.py", "--quick", "--out", "{res}/hard"], "hard/", (15, 1)),
    "profile": (["scripts/profile.py", "--out", "{res}/profile"],
                ["scripts/profile.py", "--quick", "--out", "{res}/profile"], "profile/", (5, 1)),
    "bench": (["-m", "fastsweep", "bench", "--repeats", "3", "--out", "{res}/bench.csv"],
              ["-m", "fastsweep", "bench", "--repeats", "1", "--out", "{res}/bench.csv"],
              "bench.csv", (3, 3)),  # (it times a cold compile: ~2.5 min)
    "inference": (["scripts/bench_inference.py", "--out", "{res}/bench_inference.csv"],
                  ["scripts/bench_inference.py", "--quick", "--out",
                   "{res}/bench_inference.csv"], "bench_inference.csv", (20, 4)),
    "hard-views": (["scripts/bench_hard_views.py", "--out", "{res}/bench_hard_views.csv"],
                   ["scripts/bench_hard_views.py", "--quick", "--out",
                    "{res}/bench_hard_views.csv"], "bench_hard_views.csv", (8, 2)),
    "sweeps": (["scripts/bench_sweep.py", "--repeats", "3", "--out", "{res}/bench_sweep.csv"],
               ["scripts/bench_sweep.py", "--quick", "--out", "{res}/bench_sweep.csv"],
               "bench_sweep.csv", (3, 1)),
}
LOG = os.path.join("results", "reproduce.json")
# what a step would otherwise resume from: cleared first, so its times are measured anew
CLEAR = {"headline": ["headline/chunks.jsonl", "headline/per_game", "headline/run.json"],
         "report": ["report_table.csv"],
         "reports": [f"reports/{n}.csv" for n in ("rele2019", "cs440", "patel2020",
                                                  "dhurandhar")],
         "noise": [f"noise/{n}.csv" for n in ("bonus", "levels", "report000")],
         "hard": [f"hard/{n}.csv" for n in ("search", "exhaustive", "exhaustive_layouts")]}


def machine():
    try:
        with open("/proc/cpuinfo") as f:
            model = next(ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name"))
    except (OSError, StopIteration):
        model = platform.processor() or platform.machine()
    return f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}"


def expected(name, quick, log):
    """Minutes the step should take: the last recorded full run's, else the guess."""
    if not quick and name in log:
        return log[name]["seconds"] / 60, "last run"
    return STEPS[name][3][1 if quick else 0], "estimate"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true",
                    help="smoke-test sizes into out/reproduce-quick/ (results/ untouched)")
    ap.add_argument("--only", default=None, help=f"comma list of steps ({', '.join(STEPS)})")
    ap.add_argument("--list", action="store_true", help="print the plan and exit")
    a = ap.parse_args(argv)
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
        print(f"  {s:<11} -> {res}/{STEPS[s][2]:<22} about {m:.0f} min ({how})")
    print(f"  total about {total:.0f} min (plus about 3 min to compile the kernels the first "
          "time); the machine's speed can drift 2x")
    if a.list:
        return 0
    os.makedirs(res, exist_ok=True)
    for s in names:
        full, quick = STEPS[s][0], STEPS[s][1]
        args = [x.format(res=res) for x in (quick if a.quick else full)]
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
        import readme_tables
        changed = readme_tables.sync()
        print(f"README tables re-rendered: {', '.join(changed) or 'no change'}")
    return 0


if __name__ == "__main__":
    ensure_venv(os.path.abspath(__file__))
    os.chdir(ROOT)
    sys.exit(main(sys.argv[1:]))

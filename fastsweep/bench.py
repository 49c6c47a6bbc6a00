"""Engine benchmark: games per second of the basic agent, compile and import times.

Used by ``fastsweep bench`` and ``scripts/bench.py``; writes a CSV (default
results/bench.csv). Medians of several timed runs after a warm-up; one process, one core.
"""
from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

import pandas as pd

BOARDS = [  # label, size, mines, density
    ("9x9 / 10 mines", (9, 9), 10, None),
    ("16x16 / 40 mines", (16, 16), 40, None),
    ("16x30 / 99 mines", (16, 30), 99, None),
    ("30x30 / density 0.2", (30, 30), None, 0.2),
    ("50x50 / density 0.5", (50, 50), None, 0.5),
]

_FIRST_CALL = ("import time; t=time.perf_counter(); import fastsweep; "
               "fastsweep.run({agent!r}, 9, mines=10, games=2); print(time.perf_counter()-t)")
FAMILIES = ("basic", "probability")  # one agent of each kernel family


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def _subprocess_seconds(env_extra, agent="basic") -> float:
    env = dict(os.environ, **env_extra)
    r = subprocess.run([sys.executable, "-c", _FIRST_CALL.format(agent=agent)],
                       capture_output=True, text=True, env=env, check=True)
    return float(r.stdout.strip().splitlines()[-1])


def compile_and_import_times(repeats=3, agent="basic"):
    """(cold seconds: import + first run of ``agent`` compiling its family's kernels into
    an empty cache, warm seconds: import + first run loading the on-disk JIT cache),
    medians. Each agent family compiles only its own kernels."""
    cold = []
    for _ in range(max(1, repeats // 2)):
        with tempfile.TemporaryDirectory() as d:
            cold.append(_subprocess_seconds({"NUMBA_CACHE_DIR": d}, agent))
    _subprocess_seconds({}, agent)  # make sure the default cache is populated
    warm = [_subprocess_seconds({}, agent) for _ in range(repeats)]
    return statistics.median(cold), statistics.median(warm)


def time_board(size, mines, density, repeats=5, target_seconds=1.0, agent="basic", **kw):
    """Median games/s over ``repeats`` runs of about ``target_seconds`` each."""
    from .config import make_config
    from .runner import timed_run

    cfg = make_config(agent, size, mines=mines, density=density, **kw)
    timed_run(cfg, 0, 20)  # warm-up (compile or load)
    _, t = timed_run(cfg, 0, 50)
    games = max(50, int(50 * target_seconds / max(t, 1e-6)))
    rates = []
    for r in range(repeats):
        _, t = timed_run(cfg, r + 1, games)
        rates.append(games / t)
    return statistics.median(rates), games


def main(repeats=5, out="results/bench.csv", quick=False):
    rows = []
    mach = machine()
    print(f"machine: {mach}")
    print(f"{'board':<22} {'games/s':>10} {'us/game':>9}  (median of {repeats}, one core)")
    for label, size, mines, density in BOARDS:
        rate, games = time_board(size, mines, density, repeats=repeats,
                                 target_seconds=0.2 if quick else 1.0)
        rows.append(dict(metric="basic keep-going", board=label, games_per_s=round(rate),
                         us_per_game=round(1e6 / rate, 2), games_per_run=games, repeats=repeats))
        print(f"{label:<22} {rate:>10,.0f} {1e6 / rate:>9.1f}")
    for agent in FAMILIES:
        cold, warm = compile_and_import_times(3 if quick else repeats, agent)
        print(f"{agent}: cold first call (import + compile its family): {cold:.1f} s; "
              f"warm import + first call (JIT cache on disk): {warm:.2f} s")
        rows.append(dict(metric=f"{agent}: cold import + compile (s)", board="",
                         seconds=round(cold, 2)))
        rows.append(dict(metric=f"{agent}: warm import + first call (s)", board="",
                         seconds=round(warm, 3)))
    df = pd.DataFrame(rows)
    df["machine"] = mach
    df["date"] = time.strftime("%Y-%m-%d")
    if out:
        os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
        df.to_csv(out, index=False)
        print(f"wrote {out}")
    return df

"""Scaling benchmark of the sweep driver; writes ``OUT/bench_sweep.csv`` and run.json (the
committed results/bench_sweep/ is made by scripts/reproduce.py; default ``--out``:
out/bench_sweep/).

1. Speed-up: the same sweep (basic agent, 30x30, densities 0.1..0.9, both mine_count
   settings, 5,000 games each = 90,000 games) with 1 and 2 worker processes, and with a
   2-worker Dask LocalCluster when dask is installed; end-to-end wall time (start-up,
   warm-up and writing the output folder included), median of --repeats runs.
2. Scheduling overhead: 1,000 tiny configurations (sizes 5..14 x densities 0.01..1.00, 20
   games each, one chunk each) through the sweep vs. the same games played by a bare
   loop over play_chunk in one process; overhead per chunk = (sweep - bare) / chunks.

Usage: python3 scripts/bench/bench_sweep.py [--repeats 3] [--out DIR] [--quick]
  --quick   seconds: 50 games a configuration, 20 tiny configurations, one run each, the
            process backend only
"""
import os
import shutil
import statistics
import tempfile
import time

from fastsweep.studies.script_args import parse, parser, write_run


def timed(fn, repeats):
    ts = []
    for _ in range(repeats):
        d = tempfile.mkdtemp(prefix="bench_sweep_")
        try:
            t0 = time.perf_counter()
            r = fn(os.path.join(d, "out"))
            ts.append(time.perf_counter() - t0)
        finally:
            shutil.rmtree(d, ignore_errors=True)
    return ts, r


def main(argv=None):
    ap = parser("bench_sweep", __doc__, workers=False, quick="seconds: 50 games a "
                "configuration, 20 tiny configurations, one run each, processes only")
    ap.add_argument("--repeats", type=int, default=3)
    a = parse(ap, argv)
    if a.quick:
        a.repeats = 1
    import pandas as pd

    from fastsweep.options import make_config
    from fastsweep.runner import play_chunk
    from fastsweep.sweep import sweep, warm_up

    warm_up(["basic"])
    games = 50 if a.quick else 5000  # ~9 s on one core: start-up costs stay small
    big = dict(agents=["basic"], sizes=[30], densities="0.1:0.9:0.1", games=games, seed=0,
               quiet=True)
    rows = []
    ref = None
    backends = [("process", 1), ("process", 2)]
    try:
        import importlib

        importlib.import_module("dask.distributed")  # the Dask rows only when installed

        if not a.quick:  # (a local cluster takes seconds to start)
            backends.append(("dask", 2))
    except ImportError:
        pass
    for backend, w in backends:
        ts, r = timed(lambda out: sweep(workers=w, backend=backend, out=out, **big), a.repeats)
        med = statistics.median(ts)
        ref = ref or med
        n = int(r.summary.games.sum())
        rows.append(dict(benchmark="speed-up", backend=backend, workers=w,
                         configurations=len(r.summary), chunks=None, games=n,
                         wall_s=round(med, 3), runs_s=" ".join(f"{t:.2f}" for t in ts),
                         games_per_s=round(n / med), speedup_vs_1=round(ref / med, 2),
                         overhead_ms_per_chunk=None))
        print(rows[-1], flush=True)

    sizes = list(range(5, 15))
    dens = [round(0.01 * i, 2) for i in range(1, 101)]
    if a.quick:
        sizes, dens = sizes[:2], dens[::10]
    tiny = dict(agents=["basic"], sizes=sizes, densities=dens, mine_count=[False], games=20,
                seed=0, quiet=True)
    cfgs = [make_config("basic", s, density=d) for s in sizes for d in dens]
    bare = []
    for _ in range(a.repeats):
        t0 = time.perf_counter()
        for c in cfgs:
            play_chunk(c, 0, 0, 20)
        bare.append(time.perf_counter() - t0)
    bare_med = statistics.median(bare)
    rows.append(dict(benchmark="tiny: bare loop", backend="none", workers=1,
                     configurations=len(cfgs), chunks=len(cfgs), games=20 * len(cfgs),
                     wall_s=round(bare_med, 3), runs_s=" ".join(f"{t:.2f}" for t in bare),
                     games_per_s=round(20 * len(cfgs) / bare_med), speedup_vs_1=None,
                     overhead_ms_per_chunk=0.0))
    print(rows[-1], flush=True)
    for backend, w in backends:
        ts, r = timed(lambda out: sweep(workers=w, backend=backend, out=out, **tiny), a.repeats)
        med = statistics.median(ts)
        n = len(r.summary)
        # the bare loop's time is one core's work: with w workers the ideal is bare / w
        rows.append(dict(benchmark="tiny: sweep", backend=backend, workers=w, configurations=n,
                         chunks=n, games=20 * n, wall_s=round(med, 3),
                         runs_s=" ".join(f"{t:.2f}" for t in ts),
                         games_per_s=round(20 * n / med), speedup_vs_1=None,
                         overhead_ms_per_chunk=round((med - bare_med / w) / n * 1e3, 3)))
        print(rows[-1], flush=True)
    t = pd.DataFrame(rows)
    # a shared machine makes speed-ups meaningless when other jobs run: record the load
    t["load_avg_1min"] = round(os.getloadavg()[0], 2)
    t["cpus"] = os.cpu_count()
    path = os.path.join(a.out, "bench_sweep.csv")
    t.to_csv(path, index=False)
    print(f"wrote {path}")
    print("wrote", write_run(a, repeats=a.repeats))


if __name__ == "__main__":
    main()

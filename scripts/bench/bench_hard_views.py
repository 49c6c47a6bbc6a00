"""Exact inference on hard random views; writes ``OUT/bench_hard_views.csv`` and run.json
(the committed results/bench_hard_views/ is made by scripts/reproduce.py; default
``--out``: out/bench_hard_views/).

Positions met in play (scripts/bench/bench_inference.py) have a thin frontier. Here safe cells
are revealed at random all over the board (fastsweep.studies.positions.random_view), so clues
are everywhere and frontier components are wide: the case the issue "Exact inference on
every position" is about.

1. 30 views of 30x30 with 270 mines, seeds 0..29, 100..400 safe cells revealed (the
   count drawn from the seed), 20% of the mines next to a revealed cell known (-2).
   Per view: its size (revealed / hidden cells, frontier boxes, clues, components), the
   open clues the DP's path order needs (``width`` of ``order_components``; over 32 the
   component is approximated), the treewidth of a min-fill elimination order of the box
   graph (boxes adjacent when they share a clue; an upper bound, for comparison), the
   time of ``mine_probabilities(view, mines=total)``, the components approximated, and
   the sum of the probabilities over hidden cells minus the mines left (0 when exact).
2. ms-toollib's ``cal_probability_onboard`` on the same views, in a child process with
   an address-space cap (RLIMIT_AS) and a timeout, when the benchmark-only package is
   installed. ms-toollib treats a flag (11) as a hidden cell ("corrects wrong flags"),
   so its answer is compared with fastsweep's on the view with the known mines hidden
   again (same total), where that is exact; that fastsweep time is recorded too.
3. 100x100 boards with 2000 mines and 2000..5000 revealed: time, exact or not, finite.

Usage: python3 scripts/bench/bench_hard_views.py [--quick] [--ms-timeout 60]
                                                [--ms-cap-gib 4] [--out DIR]
  --quick   seconds: 2 views of 30x30, one 100x100 view, ms-toollib's calls cut at 5 s
Times are medians of up to 5 calls after a warm-up call (1 call when one takes > 2 s).
"""
from __future__ import annotations

import csv
import json
import math
import os
import statistics
import subprocess
import sys
import time
import warnings

import numpy as np

import fastsweep
from fastsweep.inference import ApproximationWarning, _state
from fastsweep.kernels.inference.frontier import (
    CB_SIZE, CK_B, CK_NB, build_frontier, order_components,
)
from fastsweep.studies.positions import random_view

from fastsweep.tools.bench import median_time, to_ms
from fastsweep.studies.script_args import parse, parser, write_run

try:
    import ms_toollib
except ImportError:  # benchmark-only dependency
    ms_toollib = None

FIELDS = ["benchmark", "case", "variant", "value", "unit", "n", "notes"]
BENCH = "hard random views"

# The ms-toollib child is a fresh interpreter running only this, not a fork of this
# process: the address-space cap then measures ms-toollib, not numba's LLVM mappings.
MS_CHILD = r"""
import json, resource, statistics, sys, time
cap = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
import ms_toollib
board, mines = json.load(sys.stdin)
ts = []
while True:
    t = time.perf_counter()
    p = ms_toollib.cal_probability_onboard(board, mines)[0]
    ts.append(time.perf_counter() - t)
    if len(ts) >= 3 or sum(ts) > 1.0:  # a few calls when they are fast
        break
json.dump({"sec": statistics.median(ts), "calls": len(ts), "p": p}, sys.stdout)
"""


def run_ms(view, mines, timeout, cap):
    """(status, seconds, probabilities or None): status 'ok', 'out of memory',
    'timeout' or an error."""
    try:
        r = subprocess.run([sys.executable, "-c", MS_CHILD, str(cap)],
                           input=json.dumps([to_ms(view), int(mines)]), capture_output=True,
                           text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", math.nan, None
    if r.returncode == 0:
        out = json.loads(r.stdout)
        return "ok", out["sec"], np.array(out["p"])
    err = r.stderr.strip()
    # Rust aborts with "memory allocation of N bytes failed"; Python raises MemoryError
    if "memory allocation" in err or "MemoryError" in err:
        return "out of memory", math.nan, None
    return f"error (exit {r.returncode}): {err.splitlines()[-1][:80] if err else ''}", \
        math.nan, None


def min_fill_width(nbox, cliques):
    """Width of a min-fill elimination order of the graph whose vertices are boxes and
    whose edges join boxes of one clue (an upper bound on its treewidth). Ties: fewer
    neighbours, then lower box id, so the number is reproducible."""
    adj = [set() for _ in range(nbox)]
    for cl in cliques:
        for a in cl:
            adj[a].update(cl)
    for a in range(nbox):
        adj[a].discard(a)

    def fill(v):
        nb = list(adj[v])
        return sum(1 for i, a in enumerate(nb) for b in nb[i + 1:] if b not in adj[a])

    score = {v: fill(v) for v in range(nbox)}
    width = 0
    while score:
        v = min(score, key=lambda u: (score[u], len(adj[u]), u))
        nb = adj[v]
        width = max(width, len(nb))
        for a in nb:
            adj[a].discard(v)
            adj[a].update(b for b in nb if b != a)
        del score[v]
        # a fill count changes only where a neighbourhood or the edges inside it changed
        dirty = set(nb)
        for a in nb:
            dirty |= adj[a]
        for u in dirty:
            score[u] = fill(u)
        adj[v] = set()
    return width


def frontier_stats(view, mines, treewidth=True):
    S = _state(view, mines)
    con, box, ncon, nbox = build_frontier(S)
    order, cstart, ncomp, width = order_components(con, box, ncon, nbox)
    sizes = np.diff(cstart[:ncomp + 1]) if ncomp else np.zeros(1, int)
    st = {"frontier boxes": nbox, "frontier cells": int(box[:nbox, CB_SIZE].sum()),
          "frontier clues": ncon, "components": ncomp,
          "largest component (boxes)": int(sizes.max()),
          "open clues (DP path order, max)": int(width[:ncomp].max()) if ncomp else 0}
    if treewidth:
        cliques = [con[k, CK_B:CK_B + con[k, CK_NB]].tolist() for k in range(ncon)]
        st["min-fill treewidth (box graph)"] = min_fill_width(nbox, cliques)
    return st


def time_fastsweep(view, mines):
    """(probabilities, components approximated, median seconds, calls timed)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ApproximationWarning)

        def call():
            return fastsweep.mine_probabilities(view, mines, info=True)
        t = time.perf_counter()
        p, info = call()  # warm-up; also the answer
        first = time.perf_counter() - t
        reps = 1 if first > 2.0 else (3 if first > 0.2 else 5)
        return p, info["approx_steps"], median_time(call, reps), reps


def bench_view(view, mines, ms_timeout, ms_cap, treewidth=True):
    """One view's rows as {variant: (value, unit, notes)} plus a short status line."""
    hid = view == -1
    known = int((view == -2).sum())
    left = mines - known
    r = {"revealed cells": ((view >= 0).sum(), "cells", ""),
         "hidden cells": (hid.sum(), "cells", ""), "known mines": (known, "cells", ""),
         "mines left": (left, "mines", "")}
    for k, v in frontier_stats(view, mines, treewidth).items():
        r[k] = (v, "boxes" if "boxes" in k else ("cells" if "cells" in k else "count"), "")
    p, approx, sec, reps = time_fastsweep(view, mines)
    r["fastsweep API time"] = (sec * 1e3, "ms (median)", f"{reps} calls after a warm-up")
    r["components approximated"] = (approx, "components", "")
    r["sum of p over hidden cells - mines left"] = (p[hid].sum() - left, "mines", "")
    r["all probabilities finite"] = (int(np.isfinite(p).all()), "1 = yes", "")
    line = (f"open {r['open clues (DP path order, max)'][0]:3d} "
            f"tw {r.get('min-fill treewidth (box graph)', ('-',))[0]!s:>3} "
            f"fastsweep {sec * 1e3:9.2f} ms approx {approx}")
    if ms_toollib is not None and ms_timeout > 0:
        # the problem ms-toollib solves: flags are hidden cells to it
        plain = np.where(view == -2, np.int8(-1), view)
        pp, papprox, psec, preps = time_fastsweep(plain, mines)
        r["fastsweep API time, known mines hidden"] = (
            psec * 1e3, "ms (median)", f"ms-toollib's problem; {preps} calls after a warm-up")
        r["components approximated, known mines hidden"] = (papprox, "components", "")
        r["open clues (DP path order, max), known mines hidden"] = (
            frontier_stats(plain, mines, False)["open clues (DP path order, max)"], "count", "")
        status, msec, pms = run_ms(view, mines, ms_timeout, ms_cap)
        r["ms-toollib cal_probability_onboard"] = (msec * 1e3, "ms (median)", status)
        line += f" | known hidden {psec * 1e3:9.2f} ms approx {papprox} | ms-toollib {status}"
        if status == "ok":
            line += f" {msec * 1e3:9.2f} ms"
            ph = plain == -1
            r["ms-toollib: sum of p over hidden cells - mines"] = (pms[ph].sum() - mines,
                                                                  "mines", "known mines hidden")
            d = float(np.abs(pms[ph] - pp[ph]).max()) if ph.any() else 0.0
            if papprox == 0:
                r["max |p_fastsweep - p_ms-toollib|"] = (d, "probability",
                                                         "known mines hidden in both")
                line += f" diff {d:.1e}"
            else:  # ms-toollib finished where fastsweep approximated: the heuristic's error
                r["max |p_fastsweep approximate - p_ms-toollib|"] = (
                    d, "probability", "known mines hidden in both; fastsweep approximated")
                line += f" approx error {d:.2f}"
    return r, line


def add_rows(rows, case, res):
    for k, (v, unit, notes) in res.items():
        rows.append(dict(benchmark=BENCH, case=case, variant=k, value=float(v), unit=unit, n=1,
                         notes=notes))


def summary(rows, case, results, label):
    med = statistics.median
    n = len(results)
    get = lambda k: [r[k][0] for r in results if k in r]  # noqa: E731
    out = []

    def add(variant, value, unit, notes=""):
        out.append(dict(benchmark=BENCH, case=case, variant=variant, value=float(value),
                        unit=unit, n=n, notes=notes))
    ap = get("components approximated")
    add("views approximated", sum(a > 0 for a in ap), "views", f"of {n}")
    t = get("fastsweep API time")
    add("fastsweep API time, median", med(t), "ms (median over views)")
    add("fastsweep API time, max", max(t), "ms (max over views)")
    exact = [abs(s) for s, a in zip(get("sum of p over hidden cells - mines left"), ap) if a == 0]
    if exact:
        add("max |sum p - mines left|, exact views", max(exact), "mines")
    off = [abs(s) for s, a in zip(get("sum of p over hidden cells - mines left"), ap) if a > 0]
    if off:
        add("max |sum p - mines left|, approximated views", max(off), "mines",
            "approximated components get each box's largest clue density: the sum can overshoot")
    add("views with non-finite probabilities",
        sum(f == 0 for f in get("all probabilities finite")), "views")
    for k, lab in (("open clues (DP path order, max)", "open clues"),
                   ("min-fill treewidth (box graph)", "min-fill treewidth")):
        v = get(k)
        if v:
            add(f"{lab}, median", med(v), "count")
            add(f"{lab}, max", max(v), "count", "distribution: " + " ".join(
                f"{x}:{v.count(x)}" for x in sorted(set(int(x) for x in v))))
    ms = [r["ms-toollib cal_probability_onboard"] for r in results
          if "ms-toollib cal_probability_onboard" in r]
    if ms:
        ap2 = get("components approximated, known mines hidden")
        add("views approximated, known mines hidden", sum(a > 0 for a in ap2), "views",
            f"of {n}; ms-toollib's problem")
        t2 = get("fastsweep API time, known mines hidden")
        add("fastsweep API time, known mines hidden, median", med(t2), "ms (median over views)")
        add("fastsweep API time, known mines hidden, max", max(t2), "ms (max over views)")
        v = get("open clues (DP path order, max), known mines hidden")
        add("open clues, known mines hidden, max", max(v), "count", "distribution: " + " ".join(
            f"{x}:{v.count(x)}" for x in sorted(set(int(x) for x in v))))
        st = [s for _, _, s in ms]
        ok = [v for v, _, s in ms if s == "ok"]
        add("ms-toollib outcome", len(ok), "views ok", "; ".join(
            f"{s}: {st.count(s)}" for s in sorted(set(st))))
        if ok:
            add("ms-toollib time, median over ok views", med(ok), "ms (median)")
            add("ms-toollib time, max over ok views", max(ok), "ms (max)")
        d = get("max |p_fastsweep - p_ms-toollib|")
        if d:
            add("max |p_fastsweep - p_ms-toollib|", max(d), "probability",
                f"over {len(d)} views where both answered exactly; known mines hidden")
        d = get("ms-toollib: sum of p over hidden cells - mines")
        if d:
            add("ms-toollib: max |sum p - mines|", max(abs(x) for x in d), "mines",
                "a check of its answers on every view it finished")
        d = get("max |p_fastsweep approximate - p_ms-toollib|")
        add("views where ms-toollib answered but fastsweep approximated", len(d), "views",
            "known mines hidden" + (f"; worst probability error of the approximation "
                                    f"{max(d):.3g}" if d else ""))
    elif ms_toollib is None:
        add("ms-toollib cal_probability_onboard", math.nan, "ms", "ms-toollib not installed")
    rows += out
    print(f"== {label}")
    for r in out:
        print(f"   {r['variant']}: {r['value']:.6g} {r['unit']}"
              + (f" ({r['notes']})" if r["notes"] else ""))


def main(argv=None):
    ap = parser("bench_hard_views", __doc__, workers=False,
                quick="seconds: 2 views of 30x30, one 100x100 view")
    ap.add_argument("--ms-timeout", type=float, default=60.0,
                    help="seconds per ms-toollib call (0: skip ms-toollib)")
    ap.add_argument("--ms-cap-gib", type=float, default=4.0,
                    help="address-space cap of the ms-toollib child (GiB)")
    a = parse(ap, argv)
    cap = int(a.ms_cap_gib * (1 << 30))
    if a.quick:  # (seconds: a hard view can keep ms-toollib busy for a minute)
        a.ms_timeout = min(a.ms_timeout, 5.0)
    if ms_toollib is None:
        print("ms-toollib not installed: its columns are skipped")
    fastsweep.mine_probabilities(np.full((2, 2), -1, np.int8), 1)  # compile / load
    rows, res = [], []
    seeds = range(2 if a.quick else 30)
    for s in seeds:
        # the revealed count comes from its own stream, not the one that places mines
        rev = int(np.random.default_rng([s, 1]).integers(100, 401))
        view, mines = random_view(30, 30, 270, rev, s)
        r, line = bench_view(view, mines, a.ms_timeout, cap)
        add_rows(rows, f"30x30/270 seed {s}, {rev} to reveal", r)
        res.append(r)
        print(f"30x30 seed {s:2d} rev {int(r['revealed cells'][0]):3d} "
              f"boxes {r['frontier boxes'][0]:3d} comps {r['components'][0]:3d} {line}",
              flush=True)
    summary(rows, f"30x30/270, seeds 0..{len(seeds) - 1}, 100..400 revealed", res,
            "30x30 / 270 mines")
    big = []
    for s in range(1 if a.quick else 3):
        rev = int(np.random.default_rng([s, 2]).integers(2000, 5001))
        view, mines = random_view(100, 100, 2000, rev, s)
        r, line = bench_view(view, mines, a.ms_timeout, cap)
        add_rows(rows, f"100x100/2000 seed {s}, {rev} to reveal", r)
        big.append(r)
        print(f"100x100 seed {s} rev {int(r['revealed cells'][0])} "
              f"boxes {r['frontier boxes'][0]} comps {r['components'][0]} {line} "
              f"finite {r['all probabilities finite'][0]}", flush=True)
    summary(rows, f"100x100/2000, seeds 0..{len(big) - 1}, 2000..5000 revealed", big,
            "100x100 / 2000 mines")
    path = os.path.join(a.out, "bench_hard_views.csv")
    with open(path, "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=FIELDS)
        wr.writeheader()
        for r in rows:
            wr.writerow({**r, "value": f"{r['value']:.6g}"})
    print(f"wrote {path} ({len(rows)} rows)")
    print("wrote", write_run(a, views=len(res), big_views=len(big), ms_toollib=ms_toollib
                             is not None, ms_timeout=a.ms_timeout))


if __name__ == "__main__":
    main()

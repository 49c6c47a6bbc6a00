"""Benchmarks of the exact inference engine; writes ``OUT/bench_inference.csv`` and
run.json (the committed results/bench_inference/ is made by scripts/reproduce.py; default
``--out``: out/bench_inference/).

1. ``mine_probabilities`` per call on Expert (16x30, 99 mines) positions where the
   probability agent had to guess, side by side with ms-toollib's
   ``cal_probability_onboard`` on the same views (same results checked), when the
   benchmark-only package ``ms-toollib`` is installed.
2. The same on 30x30 keep-going positions at density 0.3 (ms-toollib is tried in a
   child process with a memory cap; it is reported, not required, to finish).
3. Full games: Expert, classic rules (first click safe, corner), games per second.
4. Keep-going 30x30 across densities: microseconds per game of inference / probability
   with and without the mine total.
5. ``outcome_probabilities`` per call on the Expert positions of 1 (with and without the
   mine total): the kernel with what-ifs that re-count only the components the cell
   touches, against a whole analysis per what-if, in the same run; microseconds per
   what-if (one per hidden cell and possible value).

Usage: python3 scripts/bench/bench_inference.py [--quick] [--repeats 3] [--out DIR]
  --quick   seconds: a few positions and games of each part, one run each
Numbers are medians over ``--repeats`` runs on one core.
"""
from __future__ import annotations

import csv
import multiprocessing as mp
import os
import statistics
import time

import numpy as np

import fastsweep
from fastsweep.tools.bench import median_time, to_ms
from fastsweep.options import make_config
from fastsweep.inference import _state
from fastsweep.kernels.inference import count as kc
from fastsweep.kernels.inference import results as kr
from fastsweep.kernels.inference.whatif import base as kw
from fastsweep.runner import play_chunk
from fastsweep.studies.script_args import parse, parser, write_run

try:
    import ms_toollib
except ImportError:  # benchmark-only dependency
    ms_toollib = None


def guess_views(agent, size, mines, games, seed, rules, mine_count, min_hidden=0, every=False):
    """Views (int8 H x W) just before the guesses of ``games`` traced games."""
    out = []
    for g in range(games):
        t = fastsweep.play(agent, size, mines=mines, seed=seed, game=g, rules=rules,
                           mine_count=mine_count)
        h, w = t.config.height, t.config.width
        clues = t.clues.ravel()
        v = np.full(h * w, -1, np.int8)
        views = []
        for i, mv in enumerate(t.moves.itertuples(index=False)):
            if mv.action == "guess" and i > 0 and (v == -1).sum() >= min_hidden:
                views.append(v.reshape(h, w).copy())
            v[mv.cell_index] = -2 if mv.out < 0 else clues[mv.cell_index]
        out += views if every else views[-1:]
    return out


def _ms_child(board, mines, q):
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
    try:
        t = time.perf_counter()
        ms_toollib.cal_probability_onboard(board, mines)
        q.put(("ok", time.perf_counter() - t))
    except BaseException as e:  # noqa: BLE001 - report whatever the engine raised
        q.put(("error: " + type(e).__name__ + " " + str(e)[:80], float("nan")))


def ms_isolated(board, mines, timeout):
    q = mp.Queue()
    p = mp.Process(target=_ms_child, args=(board, mines, q))
    p.start()
    p.join(timeout)
    if p.is_alive():
        p.kill()
        p.join()
        return "timeout", float("nan")
    if q.empty():
        return f"crashed (exit code {p.exitcode}, memory cap 3 GB)", float("nan")
    return q.get()


def bench_views(rows, name, views, mines, reps, ms_mode):
    api, kern, theirs, diffs, notes = [], [], [], [], set()
    for v in views:
        S = _state(v, mines)
        n = v.size
        prob = np.zeros(n)
        ded = np.zeros(n, np.int8)
        api.append(median_time(lambda: fastsweep.mine_probabilities(v, mines), reps))

        def kernel():
            S2 = S.copy()
            kr.cell_results(S2, kc.query(True, 0.5, 0, True), prob, ded)
        kern.append(median_time(kernel, reps))
        if ms_toollib is None:
            notes.add("ms-toollib not installed")
        elif ms_mode == "inline":
            b = to_ms(v)
            theirs.append(median_time(lambda: ms_toollib.cal_probability_onboard(b, mines), reps))
            p_ms = np.array(ms_toollib.cal_probability_onboard(b, mines)[0])
            p_us = fastsweep.mine_probabilities(v, mines)
            hid = v == -1
            diffs.append(float(np.abs(p_ms[hid] - p_us[hid]).max()) if hid.any() else 0.0)
        elif ms_mode == "isolated" and len(theirs) + len(notes) < 4:
            status, sec = ms_isolated(to_ms(v), mines, 60)
            notes.add(f"ms-toollib: {status}")
            if status == "ok":
                theirs.append(sec)
    med = statistics.median
    base = dict(benchmark="mine_probabilities per call", case=name, n=len(views))
    rows.append({**base, "variant": "fastsweep API (validation included)",
                 "value": med(api) * 1e3, "unit": "ms (median)", "notes": ""})
    rows.append({**base, "variant": "fastsweep API max", "value": max(api) * 1e3,
                 "unit": "ms (max over views)", "notes": ""})
    rows.append({**base, "variant": "fastsweep kernel", "value": med(kern) * 1e3,
                 "unit": "ms (median)", "notes": ""})
    if theirs:
        rows.append({**base, "variant": "ms-toollib cal_probability_onboard",
                     "value": med(theirs) * 1e3, "unit": "ms (median)",
                     "notes": "; ".join(sorted(notes))})
        if ms_mode == "inline":
            rows.append({**base, "variant": "speed-up (ms-toollib / fastsweep API)",
                         "value": med(t / a for t, a in zip(theirs, api)), "unit": "x (median)",
                         "notes": ""})
            rows.append({**base, "variant": "max |p_fastsweep - p_ms-toollib|",
                         "value": max(diffs), "unit": "probability", "notes": ""})
    elif notes:
        rows.append({**base, "variant": "ms-toollib cal_probability_onboard", "value": float("nan"),
                     "unit": "ms", "notes": "; ".join(sorted(notes))})


def bench_outcomes(rows, views, mines, reps):
    """Section 5: outcome_probabilities on ``views``, reused components vs whole analyses."""
    for mc in (False, True):
        per = {True: [], False: []}
        api, nwhat = [], []
        for v in views:
            S = _state(v, mines if mc else None)
            out = np.zeros((v.size, 10))
            q = kc.query(mc, 0.5, 0, True)
            ref = None
            for reuse in (True, False):  # interleaved, same view
                def kernel():
                    kw.outcome_table(S.copy(), q, out, reuse)
                per[reuse].append(median_time(kernel, reps))
                if ref is None:
                    ref = out.copy()
                else:  # same results either way
                    assert np.allclose(out, ref, rtol=1e-9, atol=1e-15), "reuse changed results"
            # what-ifs made: one per value a hidden, not certainly mined cell could show
            vp = np.pad(v, 1, constant_values=0)
            h, w = v.shape
            nb = [vp[1 + dr:h + 1 + dr, 1 + dc:w + 1 + dc] for dr in (-1, 0, 1)
                  for dc in (-1, 0, 1) if dr or dc]
            km = sum((x == -2).astype(int) for x in nb).ravel()
            hn = sum((x == -1).astype(int) for x in nb).ravel()
            live = (v.ravel() == -1) & (ref[:, 9] < 1.0)
            nwhat.append(int((np.minimum(km + hn, 8) - km + 1)[live].sum()))
            api.append(median_time(lambda: fastsweep.outcome_probabilities(
                v, mines if mc else None), reps))
        med = statistics.median
        base = dict(benchmark="outcome_probabilities per call",
                    case=f"Expert 16x30/99 positions of 1, mine total {'known' if mc else 'not used'}",
                    n=len(views))
        rows.append({**base, "variant": "fastsweep API", "value": med(api) * 1e3,
                     "unit": "ms (median)", "notes": ""})
        for reuse, name in ((True, "kernel, untouched components reused"),
                            (False, "kernel, whole analysis each time")):
            rows.append({**base, "variant": name, "value": med(per[reuse]) * 1e3,
                         "unit": "ms (median)", "notes": ""})
            rows.append({**base, "variant": name + ", per what-if",
                         "value": med(t / w for t, w in zip(per[reuse], nwhat)) * 1e6,
                         "unit": "us (median)", "notes": f"median {med(nwhat)} what-ifs per call"})


def bench_games(rows, agent, size, mines_or_density, rules, mine_count, games, reps, bench, case):
    kw = {"mines": mines_or_density} if isinstance(mines_or_density, int) else {"density": mines_or_density}
    cfg = make_config(agent, size, rules=rules, mine_count=mine_count, **kw)
    play_chunk(cfg, 1, 0, 2)  # compile / load
    ts = []
    for r in range(reps):
        t = time.perf_counter()
        out, _, _ = play_chunk(cfg, 100 + r, 0, games)
        ts.append(time.perf_counter() - t)
    sec = statistics.median(ts) / games
    rows.append(dict(benchmark=bench, case=case, variant=f"{agent}, mine_count={mine_count}",
                     value=(1 / sec) if bench.startswith("games/s") else sec * 1e6,
                     unit="games/s" if bench.startswith("games/s") else "us/game",
                     n=games, notes=f"median of {reps} runs; approx_steps={int(out[:, 8].sum())}"))


# the sizes of each part: the full run, and --quick's (seconds)
FULL = dict(expert_games=60, view_reps=7, outcome_every=4, big_games=6, big_every=3,
            scattered_games=4, scattered_every=5, games=3000, densities=10, density_games=30)
QUICK = dict(expert_games=4, view_reps=1, outcome_every=8, big_games=1, big_every=5,
             scattered_games=1, scattered_every=10, games=50, densities=2, density_games=3)


def main(argv=None):
    ap = parser("bench_inference", __doc__, workers=False,
                quick="seconds: a few positions and games of each part, one run each")
    ap.add_argument("--repeats", type=int, default=3)
    a = parse(ap, argv)
    p = QUICK if a.quick else FULL
    reps = 1 if a.quick else a.repeats
    rows = []
    fastsweep.mine_probabilities(np.full((2, 2), -1, np.int8), 1)  # compile / load
    expert = guess_views("probability", (16, 30), 99, p["expert_games"], 5, "classic", True,
                         min_hidden=150, every=True)
    bench_views(rows, "Expert 16x30/99, positions before the probability agent's guesses",
                expert, 99, p["view_reps"], "inline")
    print(rows[-3:], flush=True)
    bench_outcomes(rows, expert[::p["outcome_every"]], 99, min(reps, 3))
    print(rows[-6:], flush=True)
    big = guess_views("probability", 30, 270, p["big_games"], 5, "keep-going", True,
                      min_hidden=200, every=True)[::p["big_every"]]
    bench_views(rows, "30x30/270 keep-going, positions before guesses", big, 270,
                min(reps, 3), "isolated")
    print(rows[-3:], flush=True)
    scattered = guess_views("inference", 30, 270, p["scattered_games"], 5, "keep-going",
                            True, min_hidden=200, every=True)[::p["scattered_every"]]
    bench_views(rows, "30x30/270 keep-going, positions before the inference agent's random "
                "guesses", scattered, 270, min(reps, 3), "isolated")
    print(rows[-3:], flush=True)
    for mc in (False, True):
        for agent in ("probability", "inference"):
            bench_games(rows, agent, (16, 30), 99, "classic", mc, p["games"], reps,
                        "games/s, Expert classic (first click safe, corner)", "16x30/99")
            print(rows[-1], flush=True)
    dens = [0.05, 0.15, 0.25, 0.35, 0.45, 0.55, 0.65, 0.75, 0.85, 0.95]
    for d in dens[::len(dens) // p["densities"]]:
        for agent in ("inference", "probability"):
            for mc in (False, True):
                bench_games(rows, agent, 30, d, "keep-going", mc, p["density_games"], reps,
                            "us/game, 30x30 keep-going", f"density {d}")
                print(rows[-1], flush=True)
    path = os.path.join(a.out, "bench_inference.csv")
    with open(path, "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=["benchmark", "case", "variant", "value", "unit", "n",
                                           "notes"])
        wr.writeheader()
        for r in rows:
            wr.writerow({**r, "value": f"{r['value']:.6g}"})
    print(f"wrote {path} ({len(rows)} rows)")
    print("wrote", write_run(a, repeats=reps, **p))


if __name__ == "__main__":
    main()

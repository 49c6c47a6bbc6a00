"""Speed of the strongest classic solvers as a ratio to ``probability``, measured in the
same minute (issue 16's target: ``lookahead`` >= 0.13x of ``probability``'s Expert
games/s). A warm-up game per setting first, then interleaved repeats; each prints and the
table goes to ``OUT/bench_solver.csv``, with run.json (the committed results/bench_solver/
is made by scripts/reproduce.py; default ``--out``: out/bench_solver/).

    python3 scripts/bench/bench_solver.py --games 2000 --repeats 3
    python3 scripts/bench/bench_solver.py --quick      # seconds: 3 games a setting, once
"""
import os
import time

import pandas as pd

import fastsweep
from fastsweep.studies.script_args import parse, parser, write_run

# the look-ahead's settings from strongest to cheapest (README: what each costs and wins):
# the default, the default until 2026-11-27 (two options off), then cheaper ones, as
# measured for their wins (with those two off)
OLD = dict(far_ties=False, pseudo_fifty=False)
SETTINGS = [("probability", {}), ("pseq", {}), ("lookahead", {}), ("lookahead", OLD),
            ("lookahead", dict(offedge_limit=True, **OLD)),
            ("lookahead", dict(offedge_limit=True, endgame=200, **OLD)),
            ("lookahead", dict(candidate_cut=1.0, offedge_limit=True, **OLD)),
            ("lookahead", dict(candidate_cut=1.0, offedge_limit=True, endgame=200, **OLD)),
            ("lookahead", dict(candidate_cut=1.0, endgame=0, offedge_limit=True, **OLD))]


def main(argv=None):
    ap = parser("bench_solver", __doc__, workers=False,
                quick="seconds: 3 games a setting (probability 30), one repeat")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=3)
    a = parse(ap, argv)
    for name in ("games", "repeats"):
        if getattr(a, name) < 1:
            ap.error(f"--{name}: must be at least 1, got {getattr(a, name)}")
    if a.quick:
        a.games, a.repeats = 3, 1
    for agent, kw in SETTINGS:  # warm-up: compile (or load) each kernel before timing,
        # so that repeat 0 is not a compile measurement
        fastsweep.run(agent, (16, 30), mines=99, games=2, seed=1, rules="classic",
                      mine_count=True, **kw)
    rows = []
    for rep in range(a.repeats):
        for agent, kw in SETTINGS:
            games = a.games * (10 if agent == "probability" else 1)
            t = time.perf_counter()
            df = fastsweep.run(agent, (16, 30), mines=99, games=games, seed=100 + rep,
                               rules="classic", mine_count=True, **kw)
            dt = time.perf_counter() - t
            rows.append(dict(repeat=rep, agent=agent, setting=",".join(
                f"{k}={v}" for k, v in kw.items()) or "default", games=games,
                games_per_s=games / dt, win_rate=float(df.won.mean())))
            r = rows[-1]  # plain numbers (a dict would print np.float64(...))
            print(f"repeat {r['repeat']}  {r['agent']:<11} {r['games']:>6} games  "
                  f"{r['games_per_s']:>9.1f} games/s  win rate {r['win_rate']:.3f}  "
                  f"{r['setting']}", flush=True)
    df = pd.DataFrame(rows)
    base = df[df.agent == "probability"].set_index("repeat").games_per_s
    df["ratio"] = df.games_per_s / df.repeat.map(base)
    df.to_csv(os.path.join(a.out, "bench_solver.csv"), index=False, float_format="%.4f")
    print(df.groupby(["agent", "setting"]).agg(
        ratio_min=("ratio", "min"), ratio_max=("ratio", "max"),
        games_per_s=("games_per_s", "median"), win_rate=("win_rate", "mean")).to_string())
    print("wrote", write_run(a, games=a.games, repeats=a.repeats))


if __name__ == "__main__":
    main()

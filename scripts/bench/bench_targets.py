"""The engine's speed targets (issue 58, "every agent at the engine's speed, round two")
as interleaved A/B runs against the engine before it; writes ``OUT/bench_targets.csv``
and run.json (default ``--out``: out/bench_targets/; the committed results/bench_targets/
is this script's run with its defaults).

Each A/B row is one ``fastsweep.tools.ab.compare`` (as ``scripts/bench_ab.py``): both
engines in one process, alternating batches of the same games, so both see the same
machine; the median time a game of the old and the new engine, the median of the paired
new/old ratios with its range, and whether every game was identical. The look-ahead row
is a ratio to ``probability`` measured the same way (both agents alternating in one
process). The users' agents' rows are read from ``results/own_agents/own_agents.csv``
(``scripts/bench/own_agents.py``, its own interleaved runs) and the headline study's
seconds from ``results/headline/run.json``: each row says where it comes from.

Usage: python3 scripts/bench/bench_targets.py [--rev de2ba07] [--rounds 4] [--out DIR] [--others]
  --quick   a minute: every A/B row with the basic agent on 6x6, 2 rounds (checks the
            script; the numbers mean nothing)
"""
import csv
import json
import os
import statistics
import time

import pandas as pd

from fastsweep.studies.script_args import parse, parser, write_run
from fastsweep.tools.ab import compare

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "results")
DETECTOR = "detector:p_neg=0.2,p_pos=0.2"
ONE_SIDED = "detector:p_neg=0,p_pos=0.2"
# (name, agent, board, rules, mine count, noise, seconds a batch of the NEW engine: the old
# one takes up to 60x as long, target)
TARGETS = [
    ("noise-aware probability", "probability", "30x30:0.15", "keep-going", None, DETECTOR, 4.0,
     "<= 100 ms a game"),
    ("inference", "inference", "30x30:0.45", "keep-going", "no", None, 0.5, ">= 2x faster"),
    ("inference with the total", "inference", "30x30:0.45", "keep-going", "yes", None, 0.5,
     ">= 2x faster"),
    ("probability", "probability", "30x30:0.45", "keep-going", "no", None, 0.5, ">= 2x faster"),
    ("probability with the total", "probability", "30x30:0.45", "keep-going", "yes", None, 0.5,
     ">= 2x faster"),
    ("noise-aware inference, one-sided noise", "inference", "30x30:0.05", "keep-going", None,
     ONE_SIDED, 0.3, "<= 200 ms a game"),
]
# rows of results/own_agents/own_agents.csv (measure starts with) -> (target name, goal)
OWN = [("basic as a Numba agent (rules=True)", "examples/basic_numba.py / built-in basic",
        "<= 1.5"),
       ("lowest_numba", "examples/lowest_numba.py / built-in probability", "<= 1.5"),
       ("Python agent: us a move beyond its own code, 30x30",
        "a Python agent's us a move beyond its own code, 30x30", "<= 5"),
       ("Python agent: us a move beyond its own code, 100x100",
        "a Python agent's us a move beyond its own code, 100x100", "<= 5")]


def measured_row(target, agent, board, rules, value, lo, hi, goal, source):
    """A row measured elsewhere (``ratio``: the value the goal is about)."""
    return dict(target=target, agent=agent, board=board, rules=rules, mine_count="default",
                noise="none", old_ms="", new_ms="", ratio=round(value, 4),
                ratio_min=round(lo, 4), ratio_max=round(hi, 4), identical="",
                games_per_batch="", goal=goal, source=source)


def other_rows():
    """The rows read from the users'-agents benchmark and the headline study's run."""
    rows = []
    own = pd.read_csv(os.path.join(RESULTS, "own_agents", "own_agents.csv"))
    for start, name, goal in OWN:
        r = own[own.measure.str.startswith(start)].iloc[0]
        row = measured_row(name, "", r.measure.split(", ", 1)[-1], "", r.value, r.lo, r.hi,
                           goal, f"results/own_agents ({r.date}; {r.note})")
        if start.startswith("basic"):  # (the one pair that plays the same agent's games)
            row["identical"] = str(r.identical_games) == "True"
        rows.append(row)
    with open(os.path.join(RESULTS, "headline", "run.json")) as f:
        run = json.load(f)
    # (the "125 CPU seconds" is this figure: the study's seconds on the 2-core VM)
    secs = run["seconds"]
    rows.append(measured_row("headline study, seconds", "", "", "", secs, secs, secs, "<= 40",
                             f"results/headline/run.json ({run['date'][:16]}, "
                             f"{run['workers']} workers, engine {run['git_commit'][:7]})"))
    return rows


def lookahead_ratio(rounds, quick):
    """lookahead's games/s over probability's on Expert classic, alternating in one
    process: (median ratio, min, max)."""
    from fastsweep.options import make_config
    from fastsweep.runner import play_chunk
    size, mines = ((6, 6), 5) if quick else ((16, 30), 99)
    cfg = {a: make_config(a, size, mines=mines, rules="classic")
           for a in ("probability", "lookahead")}
    for c in cfg.values():
        play_chunk(c, 1, 0, 4, timing=False)  # (compiles)
    rates = {a: [] for a in cfg}
    for r in range(rounds):
        for a in (("probability", "lookahead") if r % 2 == 0 else ("lookahead", "probability")):
            g = 2000 if a == "probability" else 200
            t = time.perf_counter()
            play_chunk(cfg[a], 10 + r, 0, g if not quick else 20, timing=False)
            rates[a].append((g if not quick else 20) / (time.perf_counter() - t))
    ratios = [x / y for x, y in zip(rates["lookahead"], rates["probability"])]
    return statistics.median(ratios), min(ratios), max(ratios)


def main(argv=None):
    ap = parser("bench_targets", __doc__, workers=False, quick="a minute: every row with the basic agent on "
                "6x6 boards, 2 rounds (checks the script; its numbers mean nothing)")
    ap.add_argument("--rev", default="de2ba07",
                    help="the engine to compare against (default de2ba07: before issue 58)")
    ap.add_argument("--rounds", type=int, default=4, help="alternations per row (default 4)")
    ap.add_argument("--others", action="store_true",
                    help="only re-read the rows measured elsewhere (own_agents, headline) "
                    "into OUT/bench_targets.csv, keeping its A/B rows")
    a = parse(ap, argv)
    if a.others:
        path = os.path.join(a.out, "bench_targets.csv")
        kept = pd.read_csv(path, keep_default_na=False)
        kept = kept[~kept.source.str.startswith("results/")]
        pd.concat([kept, pd.DataFrame(other_rows())]).to_csv(path, index=False)
        print("wrote", path)
        return
    rounds = 2 if a.quick else a.rounds
    rows = []
    for name, agent, board, rules, mc, noise, secs, target in TARGETS:
        if a.quick:  # (the script's plumbing: the basic agent, whose kernels compile fastest)
            agent, board, secs = "basic", "6x6:0.2", 0.01
        r = compare(a.rev, board, agent, rules, mc, noise, rounds, secs)
        same = True if r["identical"] else f"no: {r['differ']} games differ" + (
            ", each one that an engine counted in part approximately (over its budget)"
            if r["differ"] == r["differ_approx"] else
            f", {r['differ'] - r['differ_approx']} with no approximated step")
        rows.append(dict(target=name, agent=agent, board=board, rules=rules,
                         mine_count=mc or "default", noise=noise or "none",
                         old_ms=round(r["old_us"] / 1000, 3), new_ms=round(r["new_us"] / 1000, 3),
                         ratio=round(r["ratio"], 3), ratio_min=round(r["ratio_min"], 3),
                         ratio_max=round(r["ratio_max"], 3), identical=same,
                         games_per_batch=r["games"], goal=target,
                         source=f"A/B against {a.rev}"))
        print(f"{name}: {r['old_us'] / 1000:.1f} -> {r['new_us'] / 1000:.1f} ms a game, "
              f"new/old {r['ratio']:.3f} ({r['ratio_min']:.3f}-{r['ratio_max']:.3f}), "
              f"identical games: {same}; target {target}", flush=True)
    med, lo, hi = lookahead_ratio(rounds, a.quick)
    rows.append(dict(target="lookahead / probability games/s", agent="lookahead",
                     board="16x30:99", rules="classic", mine_count="default", noise="none",
                     old_ms="", new_ms="", ratio=round(med, 4), ratio_min=round(lo, 4),
                     ratio_max=round(hi, 4), identical="", games_per_batch=200,
                     goal=">= 0.15", source="both agents alternating in one process"))
    print(f"lookahead / probability games/s on Expert classic: {med:.3f} ({lo:.3f}-{hi:.3f}); "
          "target >= 0.15", flush=True)
    rows += other_rows()
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "bench_targets.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    write_run(a, rev=a.rev, rounds=rounds)


if __name__ == "__main__":
    main()

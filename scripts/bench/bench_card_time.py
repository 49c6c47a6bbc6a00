"""How long a classic-suite card takes, each in a fresh process (imports and the warm
compile cache included), wall seconds:

* ``reuse``: a user's card as the guide makes it (``fastsweep benchmark AGENT --suite
  classic``): the references' games taken from the committed records, so only the agent
  is played. Measured for ``basic`` (the cost of the card itself: reading and pairing
  the 360,000 reference games) and for ``probability`` played alone over the suite's
  games (a suite copy without references: the games a user's agent of probability's
  speed adds);
* ``replay``: ``fastsweep benchmark probability --suite classic --replay-references``:
  every game played, the references' (`pseq`, `lookahead`) too.

Usage: python3 scripts/bench/bench_card_time.py [--quick] [--workers 2] [--out DIR]
  --quick  200 games a board
Measured: results/bench_cards/time.csv (reproduce step card-time), rendered on
docs/pages/studies/benchmark.md.
"""
import csv
import os
import subprocess
import sys
import tempfile
import time

from fastsweep.studies.script_args import parse, parser, provenance, write_run

CASES = {
    "reuse": ("import sys; from fastsweep.benchmark import benchmark; "
              "benchmark(sys.argv[1], 'classic', games={games}, workers={workers}, "
              "out=sys.argv[2])"),
    "alone": ("import sys; from fastsweep.benchmark import benchmark, get_suite; "
              "benchmark(sys.argv[1], dict(get_suite('classic'), references=[]), "
              "games={games}, workers={workers}, out=sys.argv[2], references=None)"),
    "replay": ("import sys; from fastsweep.benchmark import benchmark; "
               "benchmark(sys.argv[1], 'classic', games={games}, workers={workers}, "
               "out=sys.argv[2], references=None)"),
}
RUNS = [("reuse", "basic", "a user's card, its agent as fast as basic: reading and "
                           "pairing the references' committed games"),
        ("alone", "probability", "probability's own games of the suite (what a user's "
                                 "agent of its speed adds to a card)"),
        ("replay", "probability", "probability's card with every game played, the "
                                  "references' (pseq, lookahead) too")]


def main(argv=None):
    ap = parser("bench_card_time", __doc__, quick="200 games a board")
    a = parse(ap, argv)
    games = 200 if a.quick else None
    rows = []
    for case, agent, what in RUNS:
        code = CASES[case].format(games=games, workers=a.workers)
        with tempfile.TemporaryDirectory() as tmp:
            t = time.perf_counter()
            subprocess.run([sys.executable, "-c", code, agent, os.path.join(tmp, "c")],
                           check=True)
            sec = time.perf_counter() - t
        rows.append(dict(case=case, agent=agent, what=what, games=games or 40000,
                         workers=a.workers, seconds=round(sec, 1)))
        print(rows[-1])
    prov = provenance()
    with open(os.path.join(a.out, "time.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]) + ["date", "machine"])
        w.writeheader()
        for r in rows:
            w.writerow(dict(r, date=prov["date"], machine=prov["machine"]))
    print("wrote", write_run(a, cases=len(rows)))


if __name__ == "__main__":
    main()

"""Is a card the same when made elsewhere? Each check makes a card from scratch (every
game played, the references' too) in a fresh process with its own workers, backend and
kernel codegen (NUMBA_CPU_NAME=generic compiles every kernel for a generic x86-64 CPU:
other machine code, as on another machine), and compares it with the card derived from
the committed records (results/benchmark/<suite>-v<N>/boards, nothing played): the
results digest, and every game's score and outcome of every agent of the suite's sweep.

The checks: `probability` on classic with kernels for a generic CPU on 1 worker (the
committed records: host CPU, 2 workers), and `basic` on assignment on a local Dask
cluster of 2 workers. ``--quick``: the same at 60 games a board, with the host's kernels
(the generic CPU's would be a compile of minutes).

Usage: python3 scripts/bench/card_identity.py [--quick] [--out DIR]
Measured: results/benchmark_identity/identity.csv, on docs/pages/studies/benchmark.md.
"""
import csv
import os
import subprocess
import sys
import tempfile

from fastsweep.studies.script_args import parse, parser, write_run

# (agent, suite, workers, backend, NUMBA_CPU_NAME or None for the host's)
CHECKS = [("probability", "classic", 1, "process", "generic"),
          ("basic", "assignment", 2, "dask", None)]
MAKE = ("import sys; from fastsweep.benchmark import benchmark; "
        "benchmark(sys.argv[1], sys.argv[2], games=None if sys.argv[6] == '-' else "
        "int(sys.argv[6]), workers=int(sys.argv[3]), backend=sys.argv[4], out=sys.argv[5], "
        "references=None, quiet=True)")


def check(agent, suite, workers, backend, cpu, games):
    """One check's row."""
    from fastsweep.benchmark import benchmark, get_suite
    from fastsweep.benchmark.card import read_card, results_digest
    from fastsweep.benchmark.identity import same_games
    from fastsweep.benchmark.references import committed_boards

    committed = committed_boards(get_suite(suite))
    with tempfile.TemporaryDirectory() as tmp:
        made, there = os.path.join(tmp, "made"), os.path.join(tmp, "committed")
        env = dict(os.environ, **({"NUMBA_CPU_NAME": cpu} if cpu else {}))
        subprocess.run([sys.executable, "-c", MAKE, agent, suite, str(workers), backend,
                        made, "-" if games is None else str(games)], check=True, env=env)
        card = read_card(os.path.join(made, "card.json"))
        # the committed card at the same games: every game taken from the records
        ref = benchmark(agent, suite, games=games, workers=1, out=there)
        n, equal = same_games(os.path.join(made, "boards"), committed)
    mine, theirs = results_digest(card), results_digest(ref)
    return dict(agent=agent, suite=card["label"], games_a_board=card["games"],
                date=card["date"], machine=f"{card['machine']}, kernels for "
                                           f"{card.get('codegen')}",
                workers=workers, backend=backend, digest=mine, committed=theirs,
                same=mine == theirs, games=n, games_same=equal)


def main(argv=None):
    ap = parser("card_identity", __doc__, quick="60 games a board", workers=False)
    a = parse(ap, argv)
    rows = []
    for agent, suite, workers, backend, cpu in CHECKS:
        rows.append(check(agent, suite, workers, backend, None if a.quick else cpu,
                          60 if a.quick else None))
        print(rows[-1])
    with open(os.path.join(a.out, "identity.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    print("wrote", write_run(a, checks=len(rows)))
    return 0 if all(r["same"] and r["games_same"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())

"""Are two cards of one agent and suite identical when made elsewhere? Makes the card of
AGENT on SUITE from scratch (the references' games replayed, nothing reused) in a fresh
process with the given workers, backend and kernel codegen (NUMBA_CPU_NAME=generic
compiles the kernels for a generic x86-64 CPU: other machine code, as on another
machine), compares its results digest with the committed card's and every game's score and outcome
with the committed records' (every agent of the suite's sweep), and appends a row to
OUT/identity.csv. ``--folder DIR`` records a card made elsewhere (``fastsweep benchmark
... --out DIR``, perhaps by an older fastsweep) instead: its card is re-derived from the
games in DIR/boards by this code (nothing is played), so that the digests compare the
games' results, not two versions' card formats.

Usage: python3 scripts/bench/card_identity.py --agent probability [--suite classic]
           [--workers N] [--backend process|dask] [--cpu generic] [--folder DIR]
           [--cards results/benchmark] [--out results/benchmark_identity]
Measured: results/benchmark_identity/identity.csv (rows appended by hand-run checks: not
a reproduce step, since a check on another machine's code takes a fresh compile), rendered
on docs/pages/studies/benchmark.md.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAKE = ("import sys; from fastsweep.benchmark import benchmark; "
        "benchmark(sys.argv[1], sys.argv[2], workers=int(sys.argv[3]), backend=sys.argv[4], "
        "out=sys.argv[5], references=None, quiet=True)")


def _scores(boards):
    """{(board, chunk key, index, member): (per-game scores, wins)} of a boards folder."""
    out = {}
    for board in sorted(os.listdir(boards)):
        path = os.path.join(boards, board, "chunks.jsonl")
        if not os.path.isfile(path):
            continue
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                for m, xs in (r.get("xs") or {}).items():
                    out[(board, r["key"], r["k"], m)] = (xs, r["ws"][m])
    return out


def same_games(boards, committed) -> tuple[int, bool]:
    """(games compared, whether every one's score and outcome is the same) over the
    members and chunks both boards folders hold."""
    a, b = _scores(boards), _scores(committed)
    both = sorted(set(a) & set(b))
    return sum(len(a[k][0]) for k in both), all(a[k] == b[k] for k in both)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agent", required=True)
    ap.add_argument("--suite", default="classic")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--backend", default="process", choices=("process", "dask"))
    ap.add_argument("--cpu", default=None, help="NUMBA_CPU_NAME for the card's process")
    ap.add_argument("--folder", default=None,
                    help="record the card made in this folder instead of making one")
    ap.add_argument("--cards", default=os.path.join(ROOT, "results", "benchmark"),
                    help="the committed cards' folder")
    ap.add_argument("--out", default=os.path.join(ROOT, "results", "benchmark_identity"),
                    help="the folder of identity.csv")
    a = ap.parse_args(argv)
    from fastsweep.benchmark import benchmark, get_suite
    from fastsweep.benchmark.card import read_card, results_digest

    s = get_suite(a.suite)
    suite_dir = os.path.join(a.cards, f"{s['name']}-v{s['version']}")
    committed = read_card(os.path.join(suite_dir, a.agent, "card.json"))
    boards = os.path.join(suite_dir, "boards")
    with tempfile.TemporaryDirectory() as tmp:
        if a.folder is None:
            env = dict(os.environ, **({"NUMBA_CPU_NAME": a.cpu} if a.cpu else {}))
            subprocess.run([sys.executable, "-c", MAKE, a.agent, a.suite, str(a.workers),
                            a.backend, tmp], check=True, env=env)
            card = read_card(os.path.join(tmp, "card.json"))
            games, equal = same_games(os.path.join(tmp, "boards"), boards)
        else:
            made = read_card(os.path.join(a.folder, "card.json"))
            card = benchmark(a.agent, a.suite, boards=os.path.join(a.folder, "boards"),
                             references=None, workers=1)
            card.update({k: made.get(k, card.get(k)) for k in ("date", "machine", "workers",
                                                              "backend")})
            card["codegen"] = made.get("codegen") or a.cpu
            games, equal = same_games(os.path.join(a.folder, "boards"), boards)
    mine, theirs = results_digest(card), results_digest(committed)
    row = dict(agent=a.agent, suite=card["label"], date=card["date"],
               machine=f"{card['machine']}, kernels for "
                       f"{card.get('codegen') or a.cpu or 'the host CPU'}",
               workers=card.get("workers"), backend=card.get("backend", a.backend),
               digest=mine, committed=theirs, same=mine == theirs, games=games,
               games_same=equal)
    os.makedirs(a.out, exist_ok=True)
    target = os.path.join(a.out, "identity.csv")
    new = not os.path.exists(target)
    with open(target, "a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(row))
        if new:
            w.writeheader()
        w.writerow(row)
    print(row)
    return 0 if row["same"] and equal else 1


if __name__ == "__main__":
    sys.exit(main())

"""The strongest classic solvers against the best published win rates (issue 16).

Classic rules, the mine total told, the literature's openings: safe at the corner (0,0),
or zero (the opening cell and its neighbours free of mines) at (2,2) on 9x9 and 16x16 and
at (3,3) on Expert. Every (board, opening, agent) is one resumable sweep folder under
``OUT/runs/`` (same seed: game i is the same board for every agent); the table
``OUT/table.csv`` (``fastsweep.studies.solver_table``) has the win rate with its 95%
Clopper-Pearson interval, the mean guesses in won games, games/s and the paired differences.

The committed results/solver/ was grown by hand with ``--out results/solver`` (hours a
row: see the README); scripts/reproduce.py re-derives its table from the committed
records (``--table-only``). The default ``--out`` is out/solver_study/.

    python3 scripts/studies/solver_study.py --out results/solver --games 100000 \\
        --agents probability,pseq,lookahead
    python3 scripts/studies/solver_study.py --out results/solver --games 10000 --agents risk
    python3 scripts/studies/solver_study.py --out results/solver --table-only
    python3 scripts/studies/solver_study.py --quick     # seconds: 40 games of 9x9, probability

Re-running with more games grows the folders (finished chunks are kept).
"""
import os
import time

import fastsweep
from fastsweep.studies.script_args import parse, parser, write_run
from fastsweep.studies.solver_table import ROWS, markdown, table

SEED = 2026


def play(agent, games, workers, rows, out, quiet=False):
    for key, size, mines, click, cell, *_ in ROWS:
        if rows and key not in rows:
            continue
        # corner_opening (on by default since 2026-11-27) cannot fire after a zero opening,
        # which shows a 0: the zero rows, grown before, keep their recorded value (off),
        # the same games (tests/test_corner.py)
        opts = {"corner_opening": False} if click == "zero" else {}
        t = time.time()
        fastsweep.sweep([agent], [size], mines=[mines], rules="classic", mine_count=[True],
                        first_click=click, first_cell=cell, games=games, seed=SEED,
                        workers=workers, out=os.path.join(out, "runs", key, agent),
                        per_game=True, quiet=quiet, **opts)
        print(f"{key} {agent}: {games} games in {time.time() - t:.0f} s", flush=True)


def main(argv=None):
    ap = parser("solver_study", __doc__, quick="seconds: 40 games of 9x9 (safe opening), "
                "probability")
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--agents", default="probability,pseq,lookahead")
    ap.add_argument("--rows", default="", help="comma list of row keys (default: all)")
    ap.add_argument("--table-only", action="store_true",
                    help="only the table, from the folders' records (no games)")
    ap.add_argument("--quiet", action="store_true", help="no progress lines")
    a = parse(ap, argv)
    if a.quick:
        a.games, a.agents, a.rows = 40, "probability", "9x9-safe"
    rows = [r for r in a.rows.split(",") if r]
    bad = [r for r in rows if r not in [x[0] for x in ROWS]]
    if bad:
        ap.error(f"--rows: unknown rows {bad}; known: {', '.join(x[0] for x in ROWS)}")
    if not a.table_only:
        for agent in a.agents.split(","):
            play(agent, a.games, a.workers, rows, a.out, a.quiet)
    df = table(a.out)
    df.to_csv(os.path.join(a.out, "table.csv"), index=False, float_format="%.4f")
    print(df.to_string(index=False))
    print(markdown(df))
    print("wrote", write_run(a, games=a.games, agents=a.agents, rows=rows,
                             table_only=a.table_only, seed=SEED))


if __name__ == "__main__":
    main()

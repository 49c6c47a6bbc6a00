"""The longest chain of influence over layouts (Dhurandhar's report): for ``basic`` and
``inference`` on 9x9 at densities 0.1 and 0.2, a few local searches
(``fastsweep.studies.influence_search.longest_chain_board``, one per search seed), each from its
own random layout. Writes one row per search to ``OUT/search.csv``: the mean longest chain
of the start and the searched layout on the search's games and on held-out games (a
maximum over noisy means is biased upward: the held-out pair is the fair comparison),
how the mines sit (``fastsweep.studies.hard.layout_stats``: share on the border, mine neighbours
of a mine) and both layouts (``layout_key``); and run.json.

Searches run on ``--workers`` processes (``fastsweep.sweep.run.tasks``), a row appended as
each ends (a rerun skips the searches already there); the rows end in the order of the
searches, and do not depend on the number of workers. The committed
results/influence_search/ is made by scripts/reproduce.py (default ``--out``:
out/influence_search_study/).

    python3 scripts/studies/influence_search_study.py --workers 1   # ~4 min
    python3 scripts/studies/influence_search_study.py --quick       # seconds
"""
from __future__ import annotations

import os
import time

from fastsweep.studies.hard import layout_stats
from fastsweep.studies.influence_search import longest_chain_board
from fastsweep.studies.rows import RowFile
from fastsweep.studies.script_args import parse, parser, write_run
from fastsweep.studies.search_layouts import layout_key
from fastsweep.sweep.run.tasks import run_tasks

AGENTS = ("basic", "inference")
DENSITIES = (0.1, 0.2)
# small: a 9x9 game and its deduction graph take about 0.05-0.1 s
SEARCH = dict(plays=8, eval_plays=50, tries=6, patience=1)
QUICK = dict(plays=2, eval_plays=4, tries=2, patience=0)  # (and density 0.1 only)
FIELDS = ["agent", "size", "density", "mines", "seed", "plays", "eval_plays", "tries",
          "patience", "start_chain", "chain", "eval_start", "eval_chain", "rounds", "moves",
          "layouts_scored", "stopped", "border_start", "border", "border_random",
          "neighbours_start", "neighbours", "neighbours_random", "start_layout", "layout",
          "seconds"]


def search(agent, dens, seed, plays, eval_plays, tries, patience):
    """One search: its row."""
    t0 = time.time()
    r = longest_chain_board(agent, 9, density=dens, plays=plays, patience=patience,
                            tries=tries, seed=seed, eval_plays=eval_plays)
    st, se = layout_stats(r.start), layout_stats(r.layout)
    row = dict(
        agent=agent, size="9x9", density=dens, mines=r.mines, seed=seed, plays=plays,
        eval_plays=eval_plays, tries=tries, patience=patience, start_chain=r.start_chain,
        chain=r.chain, eval_start=r.eval_start, eval_chain=r.eval_chain,
        rounds=r.search.rounds, moves=r.search.steps, layouts_scored=r.search.evaluations,
        stopped=r.search.stopped, border_start=st["border"], border=se["border"],
        border_random=st["border_random"], neighbours_start=st["neighbours"],
        neighbours=se["neighbours"], neighbours_random=st["neighbours_random"],
        start_layout=layout_key(r.start), layout=layout_key(r.layout),
        seconds=round(time.time() - t0, 1))
    return {k: round(v, 4) if isinstance(v, float) else v for k, v in row.items()}


def main(argv=None):
    ap = parser("influence_search_study", __doc__,
                quick="seconds: one tiny search an agent, density 0.1")
    ap.add_argument("--searches", type=int, default=2, help="searches a point (seeds 0..)")
    a = parse(ap, argv)
    if a.searches < 1:
        ap.error(f"--searches: must be at least 1, got {a.searches}")
    p, dens, n = (QUICK, DENSITIES[:1], 1) if a.quick else (SEARCH, DENSITIES, a.searches)
    t0 = time.time()
    rows = RowFile(os.path.join(a.out, "search.csv"), FIELDS, ("agent", "density", "seed"))
    order = [(agent, d, s) for agent in AGENTS for d in dens for s in range(n)]
    todo = [(*k, p["plays"], p["eval_plays"], p["tries"], p["patience"]) for k in order
            if not rows.done(k)]
    with rows:
        for (agent, d, s, *_), r in run_tasks(search, todo, a.workers):
            rows.add(r)
            print(f"{agent} {d} seed {s}: {r['start_chain']:.2f} -> {r['chain']:.2f} "
                  f"(held out {r['eval_start']:.2f} -> {r['eval_chain']:.2f}), "
                  f"{r['seconds']:.0f} s", flush=True)
    rows.sort(order)
    print("wrote", write_run(a, searches=n, **p))
    print(f"done in {time.time() - t0:.0f} s -> {a.out}/search.csv")


if __name__ == "__main__":
    main()

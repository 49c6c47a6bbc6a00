"""The longest chain of influence over layouts (Dhurandhar's report): for ``basic`` and
``inference`` on 9x9 at densities 0.1 and 0.2, a few local searches
(``fastsweep.studies.influence_search.longest_chain_board``, one per search seed), each from its
own random layout. Writes one row per search to ``OUT/search.csv``: the mean longest chain
of the start and the searched layout on the search's games and on held-out games (a
maximum over noisy means is biased upward: the held-out pair is the fair comparison),
how the mines sit (``fastsweep.studies.hard.layout_stats``: share on the border, mine neighbours
of a mine) and both layouts (``layout_key``).

    python3 scripts/influence_search_study.py          # ~4 min on one worker
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _bootstrap import ensure_venv  # noqa: E402

if __name__ == "__main__":
    ensure_venv(__file__)  # re-runs this script inside .venv (made on first use)

import argparse  # noqa: E402
import time  # noqa: E402

import pandas as pd  # noqa: E402

from fastsweep.studies.hard import layout_stats  # noqa: E402
from fastsweep.studies.influence_search import longest_chain_board  # noqa: E402
from fastsweep.studies.search_layouts import layout_key  # noqa: E402

AGENTS = ("basic", "inference")
DENSITIES = (0.1, 0.2)
# small: a 9x9 game and its deduction graph take about 0.05-0.1 s
PLAYS, EVAL_PLAYS, TRIES, PATIENCE = 8, 50, 6, 1


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="results/influence")
    ap.add_argument("--searches", type=int, default=2, help="searches a point (seeds 0..)")
    a = ap.parse_args(argv)
    if a.searches < 1:
        ap.error(f"--searches: must be at least 1, got {a.searches}")
    os.makedirs(a.out, exist_ok=True)
    t0, rows = time.time(), []
    for agent in AGENTS:
        for dens in DENSITIES:
            for s in range(a.searches):
                t1 = time.time()
                r = longest_chain_board(agent, 9, density=dens, plays=PLAYS, patience=PATIENCE,
                                        tries=TRIES, seed=s, eval_plays=EVAL_PLAYS)
                st, se = layout_stats(r.start), layout_stats(r.layout)
                rows.append(dict(
                    agent=agent, size="9x9", density=dens, mines=r.mines, seed=s,
                    plays=PLAYS, eval_plays=EVAL_PLAYS, tries=TRIES, patience=PATIENCE,
                    start_chain=r.start_chain, chain=r.chain, eval_start=r.eval_start,
                    eval_chain=r.eval_chain, rounds=r.search.rounds, moves=r.search.steps,
                    layouts_scored=r.search.evaluations, stopped=r.search.stopped,
                    border_start=st["border"], border=se["border"],
                    border_random=st["border_random"], neighbours_start=st["neighbours"],
                    neighbours=se["neighbours"], neighbours_random=st["neighbours_random"],
                    start_layout=layout_key(r.start), layout=layout_key(r.layout),
                    seconds=round(time.time() - t1, 1)))
                print(f"{agent} {dens} seed {s}: {r.start_chain:.2f} -> {r.chain:.2f} "
                      f"(held out {r.eval_start:.2f} -> {r.eval_chain:.2f}), "
                      f"{time.time() - t1:.0f} s", flush=True)
    df = pd.DataFrame(rows).round(4)
    df.to_csv(os.path.join(a.out, "search.csv"), index=False)
    print(f"done in {time.time() - t0:.0f} s -> {a.out}/search.csv")


if __name__ == "__main__":
    main()

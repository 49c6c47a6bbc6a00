"""Hard boards (after Patel, Prabhala, Shah and Goradia, Rutgers, 2020): how much lower the
agents score on searched layouts than on random ones, and what those layouts look like.

* ``search``: ``fastsweep.hard_board`` on d x d boards, d in 5, 7, .., 15, densities 0.1,
  0.2 and 0.3, agents ``basic`` and ``probability`` (keep-going, random opening cell, no
  mine total). Searches a cell: 8 for basic, 6 for probability (seeds 0, 1, ...: search
  k starts from the same random layout for every agent). Each scores a layout on 200
  games (probability: 100), tries 16 random moves a round, tolerates 5 non-improving
  rounds, and measures the paired drop on 1,000 held-out games. A third series, basic
  trying every move each round (steepest descent; 3 searches a cell), shows what a
  fuller search finds (for probability it would take too long). ``search.csv``: one row
  per search (scores, drop with its 95% CI, relative drop, border share and mine
  neighbours of the random and the searched layout, both layouts as rows of 0/1 joined
  by "/", seconds).
* ``exhaustive``: every layout of 3x3 boards with 1..8 mines and of 4x4 boards with 2, 4
  and 6 mines, one layout per orbit of the square's 8 symmetries (the expected score is
  the same on a rotated or mirrored layout: see ``fastsweep.studies.hard.hardest_layouts``), each
  scored on the same 2,000 games (basic) or 1,000 (probability). The guess orders are not
  enumerated (9! = 362,880 on 3x3; the kernels draw them from the seed): the score is a
  mean over those games. The minimum of many noisy means is biased low, so the 5 lowest
  are scored again on as many held-out games. ``exhaustive.csv``: one row per (board,
  mines, agent): layouts, the mean over all layouts, the hardest layout (the lowest on
  the scoring games) and its held-out score with 95% CI; ``exhaustive_layouts.csv``: the 5 lowest of each.

Figures (``hard_figures.py``): fig_drop, fig_cluster, fig_layouts, fig_exhaustive.

Budget: the default study took 10.4 minutes on ``--workers 1`` on the shared 2-core VM
(2026-11-23, other jobs on both cores: search 515 s, exhaustive 97 s); the VM's speed
drifts up to 2x, so allow up to about 15. That budget chose the numbers above: 100 games
a layout and 6 searches a cell for ``probability`` (its searches took 442 of the 515 s),
patience 5, 16 moves a round, boards up to 15 x 15, 4x4 boards up to 6 mines (8 would
take 1,674 more classes). ``--quick`` is a smoke run of seconds.
Rows are appended as each task ends (searches and exhaustive boards run on ``--workers``
processes, ``fastsweep.sweep.run.tasks``): a rerun skips the tasks already in the CSVs; the
rows end in the order of the tasks, whatever the number of workers. The committed
results/hard/ is made by scripts/reproduce.py (default ``--out``: out/hard_study/).

Usage: python3 scripts/studies/hard_study.py [--only search,exhaustive] [--workers 1]
                                             [--out DIR] [--quick]
"""
from __future__ import annotations

import os
import time

from fastsweep.stats import sample_ci
from fastsweep.studies.hard import ScoreObjective, hard_board, hardest_layouts, layout_stats
from fastsweep.studies.rows import RowFile
from fastsweep.studies.script_args import parse, parser, write_run
from fastsweep.studies.search_layouts import layout_key, parse_key
from fastsweep.sweep.run.tasks import run_tasks

AGENTS = ("basic", "probability")
FULL = dict(dims=(5, 7, 9, 11, 13, 15), densities=(0.1, 0.2, 0.3), patience=5,
            eval_plays=1000,
            # (agent, games a layout, moves tried a round, searches a cell)
            searches=(("basic", 200, 16, 8), ("probability", 100, 16, 6),
                      ("basic", 200, "all", 3)),
            boards=((3, (1, 2, 3, 4, 5, 6, 7, 8)), (4, (2, 4, 6))), ex_plays=(2000, 1000),
            top=5)
QUICK = dict(dims=(5, 7), densities=(0.2,), patience=1, eval_plays=100,
             searches=(("basic", 50, 8, 1), ("probability", 30, 8, 1), ("basic", 50, "all", 1)),
             boards=((3, (2, 4)),), ex_plays=(200, 100), top=3)

SEARCH_FIELDS = ["agent", "dim", "density", "mines", "rep", "seed", "plays", "tries",
                 "patience", "eval_plays", "rounds", "steps", "evaluations", "stopped",
                 "start_score", "score", "eval_start", "eval_score", "drop", "drop_low",
                 "drop_high", "rel_drop", "rel_low", "rel_high", "border_start", "border",
                 "border_random", "nb_start", "nb", "nb_random", "seconds", "start_layout",
                 "layout"]
EX_FIELDS = ["board", "mines", "agent", "plays", "layouts", "orbits", "mean_all",
             "hardest", "hardest_score", "held_score", "held_low", "held_high",
             "easiest", "easiest_score", "border", "border_random", "nb", "nb_random",
             "seconds"]
TOP_FIELDS = ["board", "mines", "agent", "rank", "layout", "orbit", "score", "low", "high",
              "held_score", "held_low", "held_high"]


def search_task(agent, dim, density, rep, plays, tries, patience, eval_plays):
    t0 = time.perf_counter()
    r = hard_board(agent, dim, density=density, plays=plays, patience=patience,
                   tries=None if tries == "all" else tries, seed=rep, eval_plays=eval_plays)
    a, b = layout_stats(r.start), layout_stats(r.layout)
    return dict(agent=agent, dim=dim, density=density, mines=r.mines, rep=rep, seed=rep,
                plays=plays, tries=tries, patience=patience, eval_plays=eval_plays,
                rounds=r.search.rounds, steps=r.search.steps,
                evaluations=r.search.evaluations, stopped=r.search.stopped,
                start_score=r.start_score, score=r.score, eval_start=r.eval_start,
                eval_score=r.eval_score, drop=r.drop, drop_low=r.drop_low,
                drop_high=r.drop_high, rel_drop=100 * r.relative_drop,
                rel_low=100 * r.drop_low / r.eval_start, rel_high=100 * r.drop_high / r.eval_start,
                border_start=a["border"], border=b["border"], border_random=a["border_random"],
                nb_start=a["neighbours"], nb=b["neighbours"], nb_random=a["neighbours_random"],
                seconds=time.perf_counter() - t0, start_layout=layout_key(r.start),
                layout=layout_key(r.layout))


def exhaustive_task(dim, mines, agent, plays, top):
    t0 = time.perf_counter()
    df = hardest_layouts(agent, dim, mines, plays=plays, seed=0, symmetric=True)
    held = ScoreObjective(agent, dim, plays, seed=0, first_game=plays)  # other games
    tops = []
    for i, row in df.head(top).iterrows():
        lay = parse_key(row.layout)
        m, lo, hi = sample_ci(held.scores(lay), 0, 1)
        tops.append(dict(board=f"{dim}x{dim}", mines=mines, agent=agent, rank=i + 1,
                         layout=row.layout, orbit=row.orbit, score=row.score, low=row.low,
                         high=row.high, held_score=m, held_low=lo, held_high=hi))
    best = tops[0]  # the lowest on the scoring games; its held-out score is unbiased
    st = layout_stats(parse_key(best["layout"]))
    summary = dict(board=f"{dim}x{dim}", mines=mines, agent=agent, plays=plays,
                   layouts=int(df.orbit.sum()), orbits=len(df),
                   mean_all=float((df.score * df.orbit).sum() / df.orbit.sum()),
                   hardest=best["layout"], hardest_score=best["score"],
                   held_score=best["held_score"], held_low=best["held_low"],
                   held_high=best["held_high"], easiest=df.layout.iloc[-1],
                   easiest_score=df.score.iloc[-1], border=st["border"],
                   border_random=st["border_random"], nb=st["neighbours"],
                   nb_random=st["neighbours_random"], seconds=time.perf_counter() - t0)
    return summary, tops


def run_search(p, out, workers):
    """The searches not yet in ``out/search.csv``, on ``workers`` processes."""
    rows = RowFile(os.path.join(out, "search.csv"), SEARCH_FIELDS,
                   ("agent", "dim", "density", "rep", "tries"))
    todo, order = [], []
    for agent, plays, tries, reps in p["searches"]:
        for dim in p["dims"]:
            for dens in p["densities"]:
                for rep in range(reps):
                    order.append((agent, dim, dens, rep, tries))
                    if rows.done(order[-1]):
                        continue
                    # (a rough cost for the order: probability ~30x basic, all moves ~5x)
                    cost = (dim * dim * dens * plays * (30 if agent != "basic" else 1)
                            * (5 if tries == "all" else 1))
                    todo.append((cost, (agent, dim, dens, rep, plays, tries, p["patience"],
                                        p["eval_plays"])))
    todo.sort(key=lambda t: -t[0])  # the longest first: the workers end together
    with rows:
        for i, (_, r) in enumerate(run_tasks(search_task, [t for _, t in todo], workers)):
            rows.add(r)
            print(f"[search {i + 1}/{len(todo)}] {r['agent']} {r['dim']}x{r['dim']}/"
                  f"{r['mines']} rep {r['rep']} tries {r['tries']}: {r['eval_start']:.3f} -> "
                  f"{r['eval_score']:.3f} ({r['rel_drop']:.1f}%), {r['evaluations']} layouts, "
                  f"{r['seconds']:.1f} s", flush=True)
    rows.sort(order)


def run_exhaustive(p, out, workers):
    """The exhaustive searches not yet in ``out/exhaustive.csv``, on ``workers``
    processes."""
    rows = RowFile(os.path.join(out, "exhaustive.csv"), EX_FIELDS, ("board", "mines", "agent"))
    tops = RowFile(os.path.join(out, "exhaustive_layouts.csv"), TOP_FIELDS,
                   ("board", "mines", "agent", "rank"))
    todo, order = [], []
    for dim, counts in p["boards"]:
        for m in counts:
            for agent, plays in zip(AGENTS, p["ex_plays"]):
                order.append((f"{dim}x{dim}", m, agent))
                if not rows.done(order[-1]):
                    todo.append((dim, m, agent, plays, p["top"]))
    with rows, tops:
        for i, (_, (s, best)) in enumerate(run_tasks(exhaustive_task, todo[::-1], workers)):
            for t in best:  # the layouts first: a summary row means its layouts are in
                tops.add(t)
            rows.add(s)
            print(f"[exhaustive {i + 1}/{len(todo)}] {s['agent']} {s['board']}/{s['mines']}: "
                  f"all {s['mean_all']:.3f}, hardest {s['held_score']:.3f} held out, "
                  f"{s['seconds']:.1f} s", flush=True)
    rows.sort(order)
    tops.sort([(*k, rank) for k in order for rank in range(1, p["top"] + 1)])


def main(argv=None):
    ap = parser("hard_study", __doc__, quick="a smoke run of seconds (5x5 and 7x7, one "
                "search a series, 3x3 with 2 and 4 mines)")
    ap.add_argument("--only", default="search,exhaustive", help="comma list: search, exhaustive")
    a = parse(ap, argv)
    p = QUICK if a.quick else FULL
    names = a.only.split(",")
    bad = [n for n in names if n not in ("search", "exhaustive")]
    if bad:
        ap.error(f"--only: unknown studies {bad}")
    for name, fn in (("search", run_search), ("exhaustive", run_exhaustive)):
        if name in names:
            t0 = time.time()
            fn(p, a.out, a.workers)
            print(f"{name}: {time.time() - t0:.0f} s", flush=True)
    from hard_figures import draw_all  # (this folder's figure script)

    for path in draw_all(a.out, names):
        print("wrote", path)
    print("wrote", write_run(a, studies=names))


if __name__ == "__main__":
    main()

"""Coverage of the intervals a sweep reports, measured by simulation (issue 62).

Each board of the grid (``fastsweep.studies.coverage.GRID``: keep-going on 30x30 at
densities 0.01-0.2 and on 16x16 at 0.3-0.99, classic on 30x30 at all nine) has six
members (basic, inference, probability, each with and without the mine total). Every
member plays a pool of games once on the sweep's own path (20,000 games; 10,000 on
16x16; seed 2026): the pool is the true distribution. Each replication resamples it
(the same games for every member, so pairs stay paired) at 200 and 1,000 games and
under the adaptive rule (ci 0.005, min_games 200, the sweep's max_games and chunk size),
``--reps`` times a cell. Every interval the sweep reports (mean score, win rate, paired
score and win differences) is set beside the normal approximation (Wilson for win
rates), and the adaptive rule beside the old one (stop on the normal half-width).

Writes ``coverage.csv`` (a row per board, game count and interval, with the verdicts of
``fastsweep.studies.coverage_table``), ``fig_coverage.png`` (+ pdf) and run.json.

Usage: python3 scripts/studies/coverage_study.py [--reps 2000] [--workers 2] [--out DIR] [--quick]
  --quick   seconds: one 8x8 board per rules, pools of 300 games, 30 replications at 50
            games and adaptive (ci 0.05, min_games 20, max_games 200)
"""
from __future__ import annotations

import os

import numpy as np

from fastsweep.studies import coverage as cv
from fastsweep.studies.coverage_table import COVERAGE, KIND_NAMES, verdicts
from fastsweep.studies.script_args import parse, parser, write_run
from fastsweep.viz import style as ps

QUICK = dict(grid=(("keep-going", 8, (0.1,), 300), ("classic", 8, (0.9,), 300)),
             counts=("adaptive", 50), reps=30, ci=0.05, min_games=20, max_games=200)
NEW, NORMAL = "#0072B2", "#D55E00"  # the reported interval, the normal approximation
BREAK = 0.9  # the coverage axis: [0, 0.9] in its lower quarter, [0.9, 1] above


def _forward(y):
    y = np.asarray(y, float)
    return np.where(y < BREAK, y / BREAK * 0.25, 0.25 + (y - BREAK) / (1 - BREAK) * 0.75)


def _inverse(u):
    u = np.asarray(u, float)
    return np.where(u < 0.25, u / 0.25 * BREAK, BREAK + (u - 0.25) / 0.75 * (1 - BREAK))


def _blocks(df):
    """The boards in the CSV's order, grouped by (rules, size)."""
    boards = df[["rules", "size", "density"]].drop_duplicates()
    return [(key, g.density.tolist()) for key, g in boards.groupby(["rules", "size"],
                                                                  sort=False)]


def figure(df, out):
    """fig_coverage: per interval type (rows) and game count (columns), each cell's
    coverage with its 95% Clopper-Pearson interval, the reported interval beside the
    normal approximation, and the 94% target. Degenerate cells (a pool of one value:
    every resample is that value) are left out and counted in the caption."""
    with ps.plt.rc_context(ps.STYLE):
        return _figure(df, out)


def _figure(df, out):
    counts = list(dict.fromkeys(df["count"].astype(str)))
    kinds = [k for k in KIND_NAMES if k in set(df.kind)]
    blocks = _blocks(df)
    live = df[df.pool_off > 0]
    fig, axes = ps.plt.subplots(len(kinds), len(counts), figsize=(ps.WIDE, 2.2 * len(kinds) + 1.3),
                                sharey=True, squeeze=False, layout="constrained")
    for r, kind in enumerate(kinds):
        for c, count in enumerate(counts):
            ax = axes[r, c]
            _panel(ax, live[(live.kind == kind) & (live["count"].astype(str) == count)],
                   blocks)
            ax.set_title(f"{KIND_NAMES[kind]}, "
                         + ("adaptive rule" if count == "adaptive" else f"{count} games"))
    for ax in axes[:, 0]:
        ax.set_ylabel("coverage")
    handles = [ps.plt.Line2D([], [], color=NEW, marker="o", ls="", ms=3),
               ps.plt.Line2D([], [], color=NORMAL, marker="o", mfc="none", ls="", ms=3),
               ps.plt.Line2D([], [], color="black", ls="--", lw=0.8)]
    fig.legend(handles, ["reported interval (Gaffke's bound; Clopper-Pearson for win "
                         "rates)",
                         "normal approximation (Wilson for win rates; adaptive: at the old "
                         "rule's stop)", f"target {COVERAGE:.0%}"],
               loc="outside lower center", ncols=1, fontsize=ps.STYLE["legend.fontsize"])
    note = (f"Each point a cell (board, game count, member or pair), {df.reps.min():,} "
            "replications; bars: the coverage's own 95% Clopper-Pearson interval. Along x "
            "the density, by rules and board; within a "
            "density the members (or pairs) in the CSV's order, the reported interval left "
            f"of the normal one. The axis is stretched above {BREAK:.0%}: 0-{BREAK:.0%} "
            f"takes its lowest quarter. Left out: {len(df) - len(live)} degenerate cells "
            "(a pool of one value, e.g. two members that never differ: every interval "
            "covers).")
    size = ps.STYLE["figure.titlesize"]
    fig.suptitle("\n".join(["Coverage of the intervals a sweep reports, nominal 95%"]
                           + ps.wrap_text(fig, note, size)), fontsize=size)
    return ps.save(fig, os.path.join(out, "fig_coverage"), ("png", "pdf"))


def _panel(ax, sub, blocks):
    ax.set_yscale("function", functions=(_forward, _inverse))
    ax.set_ylim(-0.03, 1.004)  # (room for the markers at 0 and at 100%)
    ax.set_yticks([0, 0.5, BREAK, 0.93, 0.95, 0.97, 1])
    ax.set_yticklabels(["0", "50%", f"{BREAK:.0%}", "93%", "95%", "97%", "100%"])
    ax.axhline(COVERAGE, color="black", ls="--", lw=0.8, zorder=1)
    ax.axhline(BREAK, color="grey", lw=0.5, zorder=1)
    ticks, labels, x0 = [], [], 0.0
    for (rules, size), dens in blocks:
        for d in dens:
            cells = sub[(sub.rules == rules) & (sub["size"] == size)
                        & np.isclose(sub.density, d)]
            k = len(cells)
            xs = x0 + (np.arange(k) - (k - 1) / 2) / max(k, 1) * 0.8
            for x, r in zip(xs, cells.itertuples()):
                for dx, p, lo, hi, colour, face in (
                        (-0.035, r.coverage, r.coverage_low, r.coverage_high, NEW, NEW),
                        (0.035, r.normal_coverage, r.normal_low, r.normal_high, NORMAL,
                         "none")):
                    ax.plot([x + dx] * 2, [lo, hi], color=colour, lw=0.4, zorder=2)
                    ax.plot(x + dx, p, "o", color=colour, mfc=face, ms=1.6, mew=0.4,
                            zorder=3)
            ticks.append(x0)
            labels.append(f"{d:g}")
            x0 += 1
        ax.axvline(x0 - 0.5, color="grey", lw=0.5)
        ax.text(x0 - 0.5 - len(dens) / 2, -0.2, f"{rules}\n{size}x{size}", ha="center",
                va="top", transform=ax.get_xaxis_transform(), fontsize=5.5)
    ax.set_xticks(ticks, labels, rotation=90, fontsize=5)
    ax.set_xlim(-0.5, x0 - 0.5)
    ax.grid(True, axis="y")


def main(argv=None):
    ap = parser("coverage_study", __doc__, quick="seconds: one 8x8 board per rules, pools of "
                "300, 30 replications", seed=cv.SEED)
    ap.add_argument("--reps", type=int, default=2000, help="replications a cell")
    a = parse(ap, argv)
    if a.reps < 1:
        ap.error(f"--reps: must be at least 1, got {a.reps}")
    kw = dict(QUICK) if a.quick else dict(reps=a.reps)
    df = cv.study(seed=a.seed, workers=a.workers, log=lambda s: print(s, flush=True), **kw)
    df = verdicts(df)
    path = os.path.join(a.out, "coverage.csv")
    df.to_csv(path, index=False, float_format="%.6g")
    print("wrote", path)
    for f in figure(df, a.out):
        print("wrote", f)
    grid = kw.get("grid", cv.GRID)
    print("wrote", write_run(a, reps=int(df.reps.min()), seed=a.seed,
                             grid=[list(g) for g in grid],
                             counts=list(kw.get("counts", cv.COUNTS)),
                             ci=kw.get("ci", cv.CI), min_games=kw.get("min_games", cv.MIN_GAMES),
                             max_games=kw.get("max_games", cv.MAX_GAMES),
                             cells=len(df), meeting=int(df.meets.sum())))


if __name__ == "__main__":
    main()

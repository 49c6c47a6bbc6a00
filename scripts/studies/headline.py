"""The assignment's headline figure: mean score vs mine density on a 30x30 board.

Densities 0.05..0.95 step 0.05; agents basic (no mine total), inference and probability
(each with and without the mine total; whichever of them are registered); every point
played until the 95% CI half-width of its mean score is <= 0.005. Writes the sweep folder
(params, chunk sums, summary.csv, pairs.csv), the figures fig_score/fig_diff/fig_win (PDF
+ PNG) and run.json (this run's command, machine and times). Re-running resumes.
scripts/main.py runs this; the committed results/headline/ is made by
scripts/reproduce.py.

Usage: python3 scripts/studies/headline.py [--quick] [--workers N] [--out DIR] [--quiet]
  --quick   a smoke test of seconds: 3 densities, ci 0.03, >= 40 games
"""
import time

from fastsweep.studies.script_args import parse, parser, write_run

WANTED = {"basic": [False], "inference": [False, True], "probability": [False, True]}


def main(argv=None):
    ap = parser("headline", __doc__, quick="a smoke test of seconds: 3 densities, ci 0.03")
    ap.add_argument("--quiet", action="store_true", help="no progress bar")
    a = parse(ap, argv)
    from fastsweep import AGENTS
    from fastsweep.sweep import sweep
    from fastsweep.viz.figures import plot_results

    mc = {k: v for k, v in WANTED.items() if k in AGENTS}
    missing = sorted(set(WANTED) - set(mc))
    if missing:
        print(f"headline: agents not registered yet, left out: {', '.join(missing)}")
    dens, ci, lo = ("0.2:0.8:0.3", 0.03, 40) if a.quick else ("0.05:0.95:0.05", 0.005, 200)
    t0 = time.perf_counter()
    r = sweep(list(mc), 30, densities=dens, mine_count=mc, ci=ci, min_games=lo, seed=0,
              workers=a.workers, out=a.out, quiet=a.quiet)
    wall = time.perf_counter() - t0
    files = plot_results(a.out, kinds=["score", "diff", "win"], formats=["pdf", "png"])
    s = r.summary
    print(s[["agent", "mine_count", "density", "games", "mean_score", "ci_half", "hit_cap",
             "us_per_game"]].to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    # the sweep's own words (its progress lines count the same games the same way)
    print(f"{r.describe()}; max CI half-width {s.ci_half.max():.4f}; "
          f"{int(s.hit_cap.sum())} point(s) at the game cap; {wall:.1f} s in all")
    # this run's times, every run (a resumed run times only the chunks it still had to play)
    files.append(write_run(
        a, games=int(s.games.sum()), sweep_seconds=round(wall, 1),
        chunks_reused=int(r.reused_chunks), chunks_played=int(r.played_chunks),
        games_played=int(r.played_games), seconds_compile=round(r.seconds_compile, 1),
        seconds_playing=round(r.seconds_playing, 1)))
    for f in files:
        print(f"wrote {f}")


if __name__ == "__main__":
    main()

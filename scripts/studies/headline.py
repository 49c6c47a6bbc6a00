"""The assignment's headline figure: mean score vs mine density on a 30x30 board.

Densities 0.05..0.95 step 0.05; agents basic (no mine total), inference and probability
(each with and without the mine total; whichever of them are registered); every point
played until the 95% CI half-width of its mean score is <= 0.005. Writes the sweep folder
out/headline/ by default (params, chunk sums, summary.csv, pairs.csv, run.json with this
run's wall time) and the figures fig_score/fig_diff/fig_win (PDF + PNG). Re-running
resumes. The committed results/headline/ is made by scripts/reproduce.py.

Usage: python3 scripts/headline.py [--quick] [--workers N] [--out DIR]
  --quick   a smoke test: 3 densities, ci 0.03, >= 40 games, into out/headline-quick/
"""
import argparse
import datetime
import json
import os
import platform
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _bootstrap import ROOT, ensure_venv  # noqa: E402

WANTED = {"basic": [False], "inference": [False, True], "probability": [False, True]}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small smoke-test version")
    ap.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    ap.add_argument("--out", default=None, help="sweep folder (default out/headline)")
    ap.add_argument("--quiet", action="store_true", help="no progress bar")
    a = ap.parse_args(argv)
    from fastsweep import AGENTS
    from fastsweep.viz.figures import plot_results
    from fastsweep.sweep import sweep

    mc = {k: v for k, v in WANTED.items() if k in AGENTS}
    missing = sorted(set(WANTED) - set(mc))
    if missing:
        print(f"headline: agents not registered yet, left out: {', '.join(missing)}")
    # the user's run goes to out/ (untracked); results/ changes only through reproduce.py
    out = a.out or os.path.join("out", "headline-quick" if a.quick else "headline")
    dens, ci, lo = ("0.2:0.8:0.3", 0.03, 40) if a.quick else ("0.05:0.95:0.05", 0.005, 200)
    t0 = time.perf_counter()
    r = sweep(list(mc), 30, densities=dens, mine_count=mc, ci=ci, min_games=lo, seed=0, workers=a.workers,
              out=out, quiet=a.quiet)
    wall = time.perf_counter() - t0
    # this run's time, every run (a resumed run times only the chunks it still had to play)
    with open(os.path.join(out, "run.json"), "w") as f:
        json.dump({"date": datetime.datetime.now().isoformat(timespec="seconds"),
                   "wall_seconds": round(wall, 1), "workers": a.workers or os.cpu_count(),
                   "cpus": os.cpu_count(), "machine": platform.processor() or platform.machine(),
                   "games": int(r.summary.games.sum()),
                   "chunks_reused": int(r.reused_chunks), "chunks_played": int(r.played_chunks),
                   "games_played": int(r.played_games),
                   "seconds_compile": round(r.seconds_compile, 1),
                   "seconds_playing": round(r.seconds_playing, 1),
                   # what the user typed: scripts/main.py runs this module's main()
                   "command": " ".join(
                       ["python3", os.path.relpath(os.path.abspath(sys.argv[0]), ROOT)]
                       + list(sys.argv[1:] if argv is None else argv))},
                  f, indent=1)
    files = plot_results(out, kinds=["score", "diff", "win"], formats=["pdf", "png"])
    s = r.summary
    print(s[["agent", "mine_count", "density", "games", "mean_score", "ci_half", "hit_cap",
             "us_per_game"]].to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    # the sweep's own words (its progress lines count the same games the same way)
    print(f"{r.describe()}; max CI half-width {s.ci_half.max():.4f}; "
          f"{int(s.hit_cap.sum())} point(s) at the game cap; {wall:.1f} s in all")
    for f in files:
        print(f"wrote {f}")


if __name__ == "__main__":
    ensure_venv(os.path.abspath(__file__))
    os.chdir(ROOT)
    main()

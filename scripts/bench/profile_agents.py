"""Profiling: microseconds per game of each agent across board sizes 10..100 at densities
0.1, 0.2, 0.3, 0.5 (no mine total), as a table and a log-log plot.

One process, kernel time per game (the per-game clock inside the compiled batch), games
played in doubling batches until a point has used --budget seconds. A point whose first
game alone takes longer than --max-game seconds stops that agent/density at that size
(the table marks the larger sizes as skipped rather than running for hours).
Writes ``OUT/profile.csv``, fig_time.pdf/.png (one panel per density, time against board
size on log axes) and run.json; the committed results/profile/ is made by
scripts/reproduce.py (default ``--out``: out/profile_agents/).

Usage: python3 scripts/bench/profile_agents.py [--quick] [--agents a,b] [--budget 1.0]
                                               [--out DIR]
       python3 scripts/bench/profile_agents.py --replot --out DIR  # fig_time from its CSV
  --quick   seconds: sizes 10 and 20, densities 0.1 and 0.2, 0.02 s a point
"""
import os
import time

from fastsweep.studies.script_args import parse, parser, write_run

SIZES = [10, 20, 30, 50, 70, 100]
DENSITIES = [0.1, 0.2, 0.3, 0.5]


def profile_point(agent, size, density, budget, max_games, seed=0):
    """(games, mean kernel us per game, wall us per game) for one configuration."""
    from fastsweep.options import make_config
    from fastsweep.runner import play_chunk

    cfg = make_config(agent, size, density=density)
    games, kern, t0, batch = 0, 0.0, time.perf_counter(), 1
    while True:
        _, secs, _ = play_chunk(cfg, seed, games, batch)
        games += batch
        kern += float(secs.sum())
        wall = time.perf_counter() - t0
        if wall >= budget or games >= max_games:
            return games, kern / games * 1e6, wall / games * 1e6
        batch = min(batch * 2, max_games - games)


def main(argv=None):
    ap = parser("profile_agents", __doc__, workers=False,
                quick="seconds: sizes 10 and 20, densities 0.1 and 0.2, 0.02 s a point")
    ap.add_argument("--agents", default=None, help="comma list (default: every registered)")
    ap.add_argument("--budget", type=float, default=1.0, help="seconds per point")
    ap.add_argument("--max-game", type=float, default=10.0,
                    help="skip larger sizes once one game takes longer than this (s)")
    ap.add_argument("--replot", action="store_true",
                    help="only redraw fig_time from OUT/profile.csv (no games played)")
    a = parse(ap, argv)
    import pandas as pd

    from fastsweep import AGENTS
    from fastsweep.viz.figures import plot_time

    if a.replot:
        if not os.path.exists(os.path.join(a.out, "profile.csv")):
            ap.error(f"--replot: no profile.csv in {a.out} (give --out the folder)")
        t = pd.read_csv(os.path.join(a.out, "profile.csv"))
        print("wrote " + ", ".join(plot_time(t, os.path.join(a.out, "fig_time"))))
        return

    from fastsweep.sweep import warm_up

    agents = a.agents.split(",") if a.agents else list(AGENTS)
    sizes, dens, budget = ((SIZES[:2], DENSITIES[:2], 0.02) if a.quick
                           else (SIZES, DENSITIES, a.budget))
    warm_up(agents)
    rows = []
    for agent in agents:
        for d in dens:
            skip = False
            for s in sizes:
                if skip:
                    rows.append(dict(agent=agent, mine_count=False, height=s, width=s,
                                     cells=s * s, density=d, games=0, us_per_game=float("nan"),
                                     wall_us_per_game=float("nan"), note="skipped"))
                    continue
                g, us, wall = profile_point(agent, s, d, budget, 100_000)
                rows.append(dict(agent=agent, mine_count=False, height=s, width=s, cells=s * s,
                                 density=d, games=g, us_per_game=us, wall_us_per_game=wall,
                                 note=""))
                print(f"{agent:12s} {s:4d}x{s:<4d} density {d:.1f}: {us:12.1f} us/game "
                      f"({g} games)", flush=True)
                skip = us * 1e-6 > a.max_game
    t = pd.DataFrame(rows)
    t.to_csv(os.path.join(a.out, "profile.csv"), index=False, float_format="%.6g")
    files = plot_time(t, os.path.join(a.out, "fig_time"))  # it notes the skipped points
    print(f"wrote {os.path.join(a.out, 'profile.csv')}, " + ", ".join(files))
    print("wrote", write_run(a, agents=agents, sizes=sizes, densities=dens, budget=budget))


if __name__ == "__main__":
    main()

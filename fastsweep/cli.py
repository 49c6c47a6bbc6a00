"""Command line: ``fastsweep run | play | bench | sweep | plot`` (argparse).

Every subcommand validates through the same wrappers as the Python API; a bad argument
prints one line ``fastsweep: error: ...`` and exits with status 2.
"""
from __future__ import annotations

import argparse
import math
import sys

from .agents import AGENTS
from .options import OPTIONS


def _add_board_args(p, size_default=None):
    """--agent, a flag per row of the option table that has one, and --seed."""
    p.add_argument("--agent", default="basic", help=f"one of: {', '.join(AGENTS)} (default basic)")
    groups = {}
    for o in OPTIONS:
        if o.flag is None:
            continue
        if o.name == "size":
            kw = dict(default=size_default, required=size_default is None)
        elif o.type is bool:
            kw = dict(action="store_true")
        else:
            kw = dict(default=o.default, type=o.type)
        if o.group is not None and o.group not in groups:
            groups[o.group] = p.add_mutually_exclusive_group()
        (p if o.group is None else groups[o.group]).add_argument(o.flag, help=o.help, **kw)
    p.add_argument("--seed", type=int, default=0, help="root seed (default 0)")


def _board_kwargs(a):
    return {o.name: getattr(a, o.name) for o in OPTIONS if o.flag and o.name != "size"}


def cmd_run(a):
    import time

    from .runner import run
    from .stats import mean_ci, wilson

    t0 = time.perf_counter()
    run(a.agent, a.size, games=1, seed=a.seed, **_board_kwargs(a))  # compile or load the JIT
    warm = time.perf_counter() - t0
    t0 = time.perf_counter()
    df = run(a.agent, a.size, games=a.games, seed=a.seed, **_board_kwargs(a))
    wall = time.perf_counter() - t0
    n = len(df)
    m, lo, hi = mean_ci(df.score.to_numpy())
    wins = int(df.won.sum())
    wl, wh = wilson(wins, n)
    r = df.iloc[0]
    print(f"agent {a.agent}, board {r.height}x{r.width}, {r.mines} mines, rules {a.rules}, "
          f"mine count {'known' if a.mine_count else 'unknown'}, seed {a.seed}")
    print(f"games            {n}")
    print(f"mean score       {m:.4f}  (95% CI {lo:.4f} .. {hi:.4f}, normal approximation)")
    print(f"win rate         {wins / n:.4f}  (95% Wilson CI {wl:.4f} .. {wh:.4f})")
    print(f"guesses per game {df.guesses.mean():.2f}")
    print(f"detonations/game {df.detonated.mean():.2f}")
    if df.approx_steps.sum():
        print(f"approx steps     {int(df.approx_steps.sum())} (analyses beyond the exact budget)")
    print(f"games per second {n / wall:,.0f}  ({wall:.2f} s wall, "
          f"{df.seconds.mean() * 1e6:.1f} us per game in the kernel; "
          f"{warm:.1f} s to compile or load the kernels first)")


def cmd_play(a):
    from .trace import play

    t = play(a.agent, a.size, seed=a.seed, game=a.game, **_board_kwargs(a))
    print(t.text(every=a.every))


def cmd_bench(a):
    from .bench import main as bench_main

    bench_main(repeats=a.repeats, out=a.out, quick=a.quick)


def build_parser():
    p = argparse.ArgumentParser(
        prog="fastsweep",
        description="High-throughput Minesweeper agent simulator. "
                    "Agents: " + "; ".join(f"{k}: {v.description}" for k, v in AGENTS.items()))
    sub = p.add_subparsers(dest="command", required=True)

    r = sub.add_parser("run", help="play many games of one configuration and summarise them")
    _add_board_args(r)
    r.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    r.set_defaults(func=cmd_run)

    q = sub.add_parser("play", help="one game with a play-by-play trace")
    _add_board_args(q)
    q.add_argument("--game", type=int, default=0, help="game index under the seed (default 0)")
    q.add_argument("--every", type=int, default=0, help="print the board every N moves")
    q.set_defaults(func=cmd_play)

    b = sub.add_parser("bench", help="games per second of the basic agent (writes results/bench.csv)")
    b.add_argument("--repeats", type=int, default=5, help="timed runs per board (median; default 5)")
    b.add_argument("--out", default="results/bench.csv", help="CSV to write")
    b.add_argument("--quick", action="store_true", help="fewer games (a smoke test)")
    b.set_defaults(func=cmd_bench)

    try:
        from .sweep_cli import add_parsers
    except ImportError:  # the sweep driver is optional until it exists
        pass
    else:
        add_parsers(sub)
    return p


def main(argv=None):
    parser = build_parser()
    a = parser.parse_args(argv)
    for name in ("games", "every", "repeats"):
        v = getattr(a, name, None)
        if v is not None and v < (0 if name == "every" else 1):
            parser.error(f"--{name}: must be >= {0 if name == 'every' else 1}, got {v}")
    if getattr(a, "density", None) is not None and math.isnan(a.density):
        parser.error("--density: must be in [0, 1], got nan")
    try:
        a.func(a)
    except ValueError as e:
        parser.exit(2, f"fastsweep: error: {e}\n")
    except KeyboardInterrupt:
        parser.exit(130, "fastsweep: interrupted\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

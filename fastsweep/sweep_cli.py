"""Command line for the sweep driver and its figures: ``fastsweep sweep`` and
``fastsweep plot`` (added to :mod:`fastsweep.cli` by :func:`add_parsers`).
"""
from __future__ import annotations

import argparse

from .agents import AGENTS

MINE_COUNT = {"both": [False, True], "no": [False], "yes": [True]}


def parse_mine_count(spec):
    """``both|yes|no`` for every agent, or ``AGENT=both|yes|no,...`` per agent.

    >>> parse_mine_count("basic=no,probability=both")
    {'basic': [False], 'probability': [False, True]}
    """
    spec = spec.replace(" ", "").lower()
    if spec in MINE_COUNT:
        return MINE_COUNT[spec]
    out = {}
    for part in spec.split(","):
        name, _, v = part.partition("=")
        if v not in MINE_COUNT:
            raise ValueError(f"mine_count: expected both, yes, no or AGENT=both|yes|no,..., "
                             f"got {spec!r}")
        out[name] = MINE_COUNT[v]
    return out


def _first_cell(s):
    if s is None or s in ("corner", "center", "random"):
        return s
    return tuple(int(v) for v in s.replace(" ", "").strip("()").split(","))


def cmd_sweep(a):
    from .stats import CI_METHOD
    from .sweep import parse_range, sweep

    mc = parse_mine_count(a.mine_count)
    agents = a.agents.split(",")
    if isinstance(mc, dict):
        unknown = set(mc) - set(agents)
        if unknown:
            raise ValueError(f"mine_count: agents {sorted(unknown)} are not in --agents")
        mc = {ag: mc.get(ag, [False]) for ag in agents}
    try:
        first_cell = _first_cell(a.first_cell)
    except ValueError:
        raise ValueError(f"first_cell: expected corner, center, random or ROW,COL, got "
                         f"{a.first_cell!r}") from None
    r = sweep(agents, a.size.split(","),
              densities=parse_range(a.densities) if a.densities is not None else None,
              mines=[int(m) for m in a.mines_list.split(",")] if a.mines_list else None,
              rules=a.rules.split(","), mine_count=mc, games=a.games, ci=a.ci,
              min_games=a.min_games, max_games=a.max_games, seed=a.seed, workers=a.workers,
              backend=a.backend, scheduler=a.scheduler, out=a.out, first_click=a.first_click,
              first_cell=first_cell, chunk_games=a.chunk_games, per_game=a.per_game,
              quiet=a.quiet, timeout=a.timeout)
    s = r.summary
    cols = ["agent", "mine_count", "height", "width", "mines", "rules", "games", "mean_score",
            "ci_half", "win_rate", "mean_guesses", "us_per_game"]
    if a.ci is not None:
        cols.append("hit_cap")
    print(s[cols].to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    print(CI_METHOD)
    if a.ci is not None and s.hit_cap.any():
        print(f"{int(s.hit_cap.sum())} configuration(s) stopped at --max-games {a.max_games} "
              f"before reaching half-width {a.ci}")
    if a.out:
        print(f"wrote {a.out}/summary.csv and {a.out}/pairs.csv")


def cmd_plot(a):
    from .plots import FORMATS, KINDS, plot_results

    kinds = a.kind.split(",")
    formats = a.format.split(",")
    for k in kinds:
        if k not in KINDS:
            raise ValueError(f"kind: unknown plot {k!r}; allowed: {', '.join(KINDS)}")
    for f in formats:
        if f not in FORMATS:
            raise ValueError(f"format: unknown format {f!r}; allowed: {', '.join(FORMATS)}")
    files = plot_results(a.results, kinds=kinds, formats=formats, out=a.out,
                         reference=a.reference)
    for f in files:
        print(f"wrote {f}")


def add_parsers(sub):
    """Add ``sweep`` and ``plot`` to the ``fastsweep`` subcommands."""
    s = sub.add_parser(
        "sweep", help="play a grid of configurations on every core and summarise it",
        description="Play agents x mine-count x sizes x densities (or mines) x rules, in "
                    "deterministic chunks of games (same numbers for any --workers or "
                    "backend). With --out, finished chunks are saved as they complete and "
                    "re-running the same command resumes.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    s.add_argument("--agents", default="basic",
                   help=f"comma-separated agents, from: {', '.join(AGENTS)}")
    s.add_argument("--size", required=True, help="comma-separated sizes: d or HxW, e.g. 10,30,16x30")
    g = s.add_mutually_exclusive_group(required=True)
    g.add_argument("--density", dest="densities",
                   help="mine densities: START:STOP:STEP (inclusive) or a comma list")
    g.add_argument("--mines", dest="mines_list", help="comma-separated mine counts")
    s.add_argument("--rules", default="keep-going", help="comma list of keep-going, classic")
    s.add_argument("--mine-count", default="both",
                   help="tell agents the mine total: both | yes | no, or AGENT=both|yes|no,...")
    s.add_argument("--first-click", default=None, help="any | safe | zero (default by rules)")
    s.add_argument("--first-cell", default=None, help="corner | center | random | ROW,COL")
    p = s.add_mutually_exclusive_group(required=True)
    p.add_argument("--games", type=int, help="games per configuration (fixed)")
    p.add_argument("--ci", type=float,
                   help="adaptive: play until the 95%% CI half-width of each mean score is <= CI")
    s.add_argument("--min-games", type=int, default=200, help="with --ci: games at least")
    s.add_argument("--max-games", type=int, default=100_000, help="with --ci: games at most")
    s.add_argument("--seed", type=int, default=0, help="root seed (same games for every agent)")
    s.add_argument("--workers", type=int, default=None, help="worker processes (default: all cores)")
    s.add_argument("--backend", default="process", help="process | dask")
    s.add_argument("--scheduler", default=None,
                   help="dask scheduler address tcp://HOST:PORT (default: a local cluster)")
    s.add_argument("--timeout", type=float, default=10.0, help="seconds to reach the scheduler")
    s.add_argument("--chunk-games", type=int, default=None,
                   help="games per chunk (default: ~20,000 cell-games, 10..250)")
    s.add_argument("--out", default=None, help="output folder (resumable)")
    s.add_argument("--per-game", action="store_true", help="also write every game's row")
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.set_defaults(func=cmd_sweep)

    q = sub.add_parser(
        "plot", help="figures from a sweep folder (PDF/PNG/SVG)",
        description="Publication figures from a sweep output folder: score vs density with "
                    "95% CI bands, paired differences, win rate, time per game vs board size.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    q.add_argument("results", metavar="RESULTS_DIR", help="a folder written by fastsweep sweep")
    q.add_argument("--kind", default="score,diff,win,time", help="comma list of score, diff, win, time")
    q.add_argument("--format", default="pdf,png", help="comma list of pdf, png, svg")
    q.add_argument("--out", default=None, help="folder for the figures (default RESULTS_DIR)")
    q.add_argument("--reference", default=None,
                   help="agent that paired differences are taken against (default: the first)")
    q.set_defaults(func=cmd_plot)

"""Command line for the sweep driver, its figures and tables: ``fastsweep sweep``,
``fastsweep plot`` and ``fastsweep table`` (added to :mod:`fastsweep.cli.main` by
:func:`add_parsers`).
"""
from __future__ import annotations

import argparse

from ..agents import AGENTS
from ..options import sweep_options

class _Help(argparse.ArgumentDefaultsHelpFormatter):
    """Appends "(default: X)" only where the help does not state its default already and
    there is one to show (not None or False)."""

    def _get_help_string(self, action):
        h = action.help or ""
        d = action.default
        if "default" in h or d is None or d is False or d == argparse.SUPPRESS:
            return h
        return super()._get_help_string(action)


LABELS_HELP = ("the agents' names in the figures or table, comma-separated AGENT=LABEL pairs "
               "(AGENT as in --agents, or as shown), e.g. "
               "basic=baseline,path/to/mine.py:Mine=mine (default: a built-in agent's name; "
               "your agent's `name` attribute, else its path shortened to file.py:attr)")


def cmd_sweep(a):
    import sys

    from ..sweep import SweepWorkerError, sweep
    from ..values import check_timeout

    check_timeout(a.timeout)  # (before any work: inf reached Dask's parser as a KeyError)
    kw = {}
    for o in sweep_options():  # the option table's flags, under sweep's keywords
        if o.flag is not None:
            v = getattr(a, o.keyword)
            kw[o.keyword] = o.sweep_parse(v) if v is not None and o.sweep_parse else v
    agents = a.agents.split(",")
    mc = kw["mine_count"]
    if isinstance(mc, dict):
        unknown = set(mc) - set(agents)
        if unknown:
            raise ValueError(f"mine_count: agents {sorted(unknown)} are not in --agents")
        kw["mine_count"] = {ag: mc.get(ag, [False]) for ag in agents}
    try:
        r = sweep(agents, games=a.games, ci=a.ci, min_games=a.min_games,
                  max_games=a.max_games, seed=a.seed, workers=a.workers, backend=a.backend,
                  scheduler=a.scheduler, out=a.out, chunk_games=a.chunk_games,
                  per_game=a.per_game, quiet=a.quiet, timeout=a.timeout,
                  fresh=a.fresh is True or [x for x in a.fresh.split(",") if x], **kw)
    except SweepWorkerError as e:  # not bad input (exit 2): a failed run, in one line
        print(f"fastsweep: error: {e}", file=sys.stderr)
        raise SystemExit(1) from None
    s = r.summary
    cols = ["agent", "mine_count", "height", "width", "mines", "rules", "games", "mean_score",
            "ci_half", "win_rate", "mean_guesses", "us_per_game"]
    if a.ci is not None:
        cols.append("hit_cap")
    print(s[cols].to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    print(r.ci_method)
    if r.reused_chunks:
        print(f"{r.reused_chunks:,} chunk(s) reused from {a.out}, {r.played_chunks:,} played")
    if a.ci is not None and s.hit_cap.any():
        print(f"{int(s.hit_cap.sum())} configuration(s) stopped at --max-games {a.max_games} "
              f"before reaching half-width {a.ci}")
    if a.out:
        print(f"wrote {a.out}/summary.csv and {a.out}/pairs.csv")


def cmd_plot(a):
    from ..profile import is_profile
    from ..viz.figures import FORMATS, KINDS, plot_results

    kinds = a.kind.split(",")
    formats = a.format.split(",")
    if is_profile(a.results):  # a profile's folder: its three figures
        from ..viz.profile_figures import plot_profile

        for f in plot_profile(a.results, formats=tuple(formats)):
            print(f"wrote {f}")
        return
    for k in kinds:
        if k not in KINDS:
            raise ValueError(f"kind: unknown plot {k!r}; allowed: {', '.join(KINDS)}")
    for f in formats:
        if f not in FORMATS:
            raise ValueError(f"format: unknown format {f!r}; allowed: {', '.join(FORMATS)}")
    files = plot_results(a.results, kinds=kinds, formats=formats, out=a.out,
                         reference=a.reference, labels=a.labels)
    for f in files:
        print(f"wrote {f}")


def cmd_table(a):
    from ..sweep.results.table import table

    print(table(a.results, rows=a.rows, cols=a.cols, value=a.value, ci=a.ci, fmt=a.format,
                digits=a.digits, where=a.where, labels=a.labels), end="")


def add_parsers(sub):
    """Add ``sweep``, ``plot`` and ``table`` to the ``fastsweep`` subcommands."""
    s = sub.add_parser(
        "sweep", help="play a grid of configurations on every core and summarise it",
        description="Play agents x mine-count x sizes x densities (or mines) x rules, in "
                    "deterministic chunks of games (same numbers for any --workers or "
                    "backend). With --out, finished chunks are saved as they complete and "
                    "re-running the same command resumes; more games, another --ci or more "
                    "sizes, densities, rules, agents or mine-count settings grow the folder, "
                    "reusing its finished chunks.",
        formatter_class=_Help)
    s.add_argument("--agents", default="basic",
                   help=f"comma-separated agents, from: {', '.join(AGENTS)}; or your own by "
                        "import path (module:attr or path/to/file.py:attr)")
    groups = {}
    for o in sweep_options():  # a flag per row of the option table that a sweep takes
        if o.flag is None:
            continue
        if o.sweep == "axis":  # a list, as a string that o.sweep_parse reads
            required = o.default is None and o.sweep_default is None
            kw = dict(dest=o.axis, help=o.sweep_help or o.help,
                      default=o.sweep_default or o.default)
        else:
            required = False
            kw = dict(dest=o.keyword, default=o.default, help=o.help)
            if o.const is not None:  # a switch (--trust-clues)
                kw.update(action="store_const", const=o.const)
            elif o.type is bool:  # a switch (--pseudo-fifty; --no-corner-opening when on)
                kw["action"] = argparse.BooleanOptionalAction if o.default else "store_true"
            else:
                kw["type"] = o.type
        if o.group is None:
            s.add_argument(o.flag, required=required, **kw)
        else:
            if o.group not in groups:
                groups[o.group] = s.add_mutually_exclusive_group(required=required)
            groups[o.group].add_argument(o.flag, **kw)
    p = s.add_mutually_exclusive_group(required=True)
    p.add_argument("--games", type=int, help="games per configuration (fixed)")
    p.add_argument("--ci", type=float,
                   help="adaptive: play until the 95%% CI half-width of each mean score is <= CI")
    s.add_argument("--min-games", type=int, default=200, help="with --ci: games at least")
    s.add_argument("--fresh", default="", metavar="AGENTS", nargs="?", const=True,
                   help="your agents (comma-separated, as in --agents; alone: all of them) "
                        "whose code changed since --out holds their games: set those games "
                        "aside and play them again")
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
    s.add_argument("--quiet", action="store_true",
                   help="no progress (a bar on a terminal; otherwise a line every 15 s)")
    s.set_defaults(func=cmd_sweep)

    q = sub.add_parser(
        "plot", help="figures from a sweep folder (PDF/PNG/SVG)",
        description="Publication figures from a sweep output folder: score vs density with "
                    "95% CI bands, paired differences, win rate, time per game (vs board size, "
                    "or vs density when there are fewer sizes than densities). Several boards: "
                    "one faceted figure per kind plus one figure per board.",
        formatter_class=_Help)
    q.add_argument("results", metavar="RESULTS_DIR",
                   help="a folder written by fastsweep sweep (or by fastsweep profile: its "
                        "fig_scaling, fig_work and fig_phases)")
    q.add_argument("--kind", default="score,diff,win,time", help="comma list of score, diff, win, time")
    q.add_argument("--format", default="pdf,png", help="comma list of pdf, png, svg")
    q.add_argument("--out", default=None, help="folder for the figures (default RESULTS_DIR)")
    q.add_argument("--reference", default=None,
                   help="agent that paired differences are taken against, by name or label "
                        "(default: the first)")
    q.add_argument("--labels", default=None, metavar="AGENT=LABEL,...", help=LABELS_HELP)
    q.set_defaults(func=cmd_plot)

    from ..sweep.results.table import FIELDS, FORMATS

    t = sub.add_parser(
        "table", help="a pivot table of a sweep folder (Markdown, LaTeX, CSV)",
        description="One summary value per cell, rows and columns from the sweep's fields; "
                    "an agent told the mine total reads 'AGENT + total' unless mine_count is "
                    "a row or column field. LaTeX uses booktabs rules.",
        formatter_class=_Help)
    t.add_argument("results", metavar="RESULTS_DIR", help="a folder written by fastsweep sweep")
    t.add_argument("--rows", default=None,
                   help=f"comma list of fields, from: {', '.join(FIELDS)} (default: density, "
                        "or agent when --cols has density)")
    t.add_argument("--cols", default=None,
                   help="comma list of fields, as --rows (default: agent, or density "
                        "when --rows has agent)")
    t.add_argument("--value", default="mean_score",
                   help="summary column: mean_score, win_rate, games, mean_guesses, ...")
    t.add_argument("--ci", action="store_true",
                   help="add the 95%% interval: mean_score [low, high] (Gaffke's bound), "
                        "win_rate [low, high] (Clopper-Pearson)")
    t.add_argument("--format", default="markdown", help=" | ".join(FORMATS))
    t.add_argument("--digits", type=int, default=3, help="decimals")
    t.add_argument("--where", default=None,
                   help="keep rows with these field values, e.g. size=30x30,rules=classic")
    t.add_argument("--labels", default=None, metavar="AGENT=LABEL,...", help=LABELS_HELP)
    t.set_defaults(func=cmd_table)

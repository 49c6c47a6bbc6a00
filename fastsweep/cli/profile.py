"""``fastsweep profile``: how agents' time per game grows with the board, the work that
explains it and where it goes (:func:`fastsweep.profile`), with its three figures."""
from __future__ import annotations

import argparse

from ..values import MINE_COUNT, split_list
from .common import _at_least


def _positive_float(s):
    try:
        v = float(s)
    except ValueError:
        v = None
    if v is None or not v > 0:
        raise argparse.ArgumentTypeError(f"must be a number above 0, got {s!r}")
    return v


def cmd_profile(a):
    from ..profile import profile
    from ..viz.profile_figures import plot_profile

    mc = MINE_COUNT.get(a.mine_count.strip().lower())
    if mc is None:
        raise ValueError(f"mine_count: yes, no or both, got {a.mine_count!r}")
    sizes = [int(s) if s.strip().isdigit() else s for s in split_list(a.sizes)]
    r = profile(split_list(a.agents), sizes=sizes,
                densities=[float(d) for d in split_list(a.densities)]
                if ":" not in a.densities else a.densities,
                rules=split_list(a.rules), mine_count=mc,
                repeats=a.repeats, seconds=a.seconds, max_game=a.max_game, seed=a.seed,
                out=a.out, quiet=a.quiet)
    t = r.fits[r.fits.quantity == "time"]
    print("exponents of time per game against cells (95% CI; where the power law holds):")
    for row in t.itertuples():
        where = f"{row.cells_lo}..{row.cells_hi} cells" if row.holds else "does not hold"
        print(f"  {row.agent:>14s} {row.rules:10s} total {'told' if row.mine_count else 'not told':8s}"
              f" density {row.density:.2f}: {row.exponent:5.2f} [{row.lo:.2f}, {row.hi:.2f}]"
              f" ({where})")
    for f in plot_profile(a.out, formats=tuple(a.format.split(","))):
        print(f"wrote {f}")


def add_parsers(sub):
    """Add ``profile`` to the ``fastsweep`` subcommands."""
    p = sub.add_parser(
        "profile", help="time and work of agents as the board grows, with figures",
        description="Play every agent on square boards of each size and density, timed in "
                    "repeats interleaved across the agents (a drift of the machine hits them "
                    "alike), then once more with the kernels' work counters and phase clocks "
                    "on. Writes timing.csv, work.csv, summary.csv, fits.csv, run.json and "
                    "fig_scaling, fig_work, fig_phases into --out; re-running resumes, and "
                    "more sizes, densities or agents extend the folder.")
    p.add_argument("--agents", default="basic,probability",
                   help="comma-separated built-in agents or your own by import path "
                        "(module:attr or path/to/file.py:attr)")
    p.add_argument("--sizes", default="8,16,32,64,128", help="square board sides")
    p.add_argument("--densities", default="0.1,0.2,0.3",
                   help="comma list, or a range START:STOP:STEP")
    p.add_argument("--rules", default="keep-going", help="keep-going, classic or both")
    p.add_argument("--mine-count", default="no", help="yes, no or both (default no)")
    p.add_argument("--repeats", type=_at_least(2), default=5,
                   help="timed repeats of each agent and board (default 5)")
    p.add_argument("--seconds", type=_positive_float, default=2.0,
                   help="about how long an agent's repeats at one board take (default 2)")
    p.add_argument("--max-game", type=_positive_float, default=2.0,
                   help="no larger boards once a game takes longer (seconds; default 2)")
    p.add_argument("--seed", type=int, default=0, help="root seed (default 0)")
    p.add_argument("--out", required=True, help="the profile's folder")
    p.add_argument("--format", default="png,pdf", help="figure formats: png, pdf, svg")
    p.add_argument("--quiet", action="store_true", help="no line per board")
    p.set_defaults(func=cmd_profile)

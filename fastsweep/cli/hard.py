"""Command line of the hard-board search: ``fastsweep hardboard`` (added to
:mod:`fastsweep.cli.main` by :func:`add_parsers`)."""
from __future__ import annotations

import argparse


def _tries(s):
    """``all`` (every move each round) or an integer >= 1."""
    if s.strip().lower() == "all":
        return None
    try:
        v = int(s)
    except ValueError:
        v = None
    if v is None or v < 1:
        raise argparse.ArgumentTypeError(f"must be 'all' or an integer >= 1, got {s!r}")
    return v


def cmd_hardboard(a):
    from .common import _options
    from ..studies.hard import hard_board

    opts = _options(a)
    mines, density = opts.pop("mines"), opts.pop("density")
    r = hard_board(a.agent, a.size, mines=mines, density=density, plays=a.plays,
                   patience=a.patience, tries=a.tries, seed=a.seed, eval_plays=a.eval_plays,
                   **{k: v for k, v in opts.items() if v != _DEFAULTS.get(k)})
    print(r.text())


_DEFAULTS = {}  # the option table's defaults (filled by add_parsers): left out of the call


def add_parsers(sub):
    """Add ``hardboard`` to the ``fastsweep`` subcommands."""
    from .common import _add_game_args, _at_least
    from ..options import OPTIONS

    _DEFAULTS.update({o.name: o.default for o in OPTIONS})
    h = sub.add_parser(
        "hardboard", help="search for a mine layout on which an agent scores low",
        description="From a random layout, move one mine one step (up, down, left, right, "
                    "to an empty cell) at a time, keeping the move that lowers the agent's "
                    "mean score over --plays games most when it lowers it by at least 1% "
                    "relative; stop after --patience non-improving rounds. Every layout is "
                    "scored on the same games (the same guess orders). --seed fixes the "
                    "games, the random start layout and the moves tried. Prints both layouts "
                    "and the paired drop in score on --eval-plays other games.")
    _add_game_args(h)
    h.add_argument("--plays", type=_at_least(1), default=200,
                   help="games a layout is scored on (default 200)")
    h.add_argument("--patience", type=_at_least(0), default=5,
                   help="non-improving rounds in a row tolerated (default 5)")
    h.add_argument("--tries", type=_tries, default=16, metavar="N|all",
                   help="moves tried a round, at random; 'all': every move (default 16)")
    h.add_argument("--eval-plays", type=_at_least(1), default=1000,
                   help="held-out games of the paired drop (default 1000)")
    h.set_defaults(func=cmd_hardboard)

"""``fastsweep check-agent PATH:ATTR``: the agent contract on a user's agent
(:func:`fastsweep.check_agent`), one line per failure."""
from __future__ import annotations

from .common import _at_least


def cmd_check(a):
    from ..user.check import CASES, check_agent

    r = check_agent(a.agent, games=a.games, seed=a.seed, workers=not a.no_workers,
                    raise_on_failure=False)
    for f in r.failures:
        print(f"FAIL {f}")
    state = "passed" if r.passed else f"FAILED {len(r.failures)} check(s)"
    cases = len(CASES)
    print(f"agent {r.agent}: {state}; {r.games} games ({r.games // cases} in each of {cases} "
          f"cases), {r.moves} moves, {r.us_per_move:.1f} us a move (the engine's share "
          "included)")
    if not r.passed:
        raise SystemExit(1)


def add_parsers(sub):
    """Add ``check-agent`` to the ``fastsweep`` subcommands."""
    c = sub.add_parser("check-agent", help="run the agent contract on your agent",
                       description="Play an agent on small boards of both rules, told the "
                                   "mine total or not, and check what every built-in agent "
                                   "passes: legal moves, games that end, flags on mines, "
                                   "Safe reveals that never detonate, the same games for "
                                   "the same seed (in any batch split, on 1 and 2 workers), "
                                   "no truth read, move reasons; and its time a move.")
    c.add_argument("agent", help="a built-in agent's name, or your agent by import path: "
                                 "module:attr or path/to/file.py:attr")
    c.add_argument("--games", type=_at_least(1), default=20, help="games a case (default 20)")
    c.add_argument("--seed", type=int, default=0, help="root seed (default 0)")
    c.add_argument("--no-workers", action="store_true",
                   help="skip the 1-vs-2-worker sweep check")
    c.set_defaults(func=cmd_check)

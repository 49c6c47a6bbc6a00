"""Interleaved A/B timing of an agent: this checkout against an older git revision.

Why: on a shared VM the speed of a core drifts by up to 2x from minute to minute, so two
benchmark runs minutes apart cannot resolve a 5% change. This script loads both engines
into one process (the old one from ``git archive REV`` under another package name) and
alternates short batches of the same games, so both see the same machine; it prints the
median ratio of new to old time per game, and checks that both play identical games.

    python scripts/bench_ab.py --rev cd3090c --board 30x30:0.2 --rounds 40
    python scripts/bench_ab.py --rev cd3090c --agent probability --rules classic --board 16x30:99
    python scripts/bench_ab.py --rev ae13672 --agent probability --board 30x30:0.15 \
        --noise detector:p_neg=0.2,p_pos=0.2 --rounds 4 --seconds 2

The old revision's kernels compile on first use (about a minute; Numba's cache keeps
them for the next run while the kernels' source is the same). ``--quick``: a tiny run of
seconds (2 rounds of 6x6 games) that checks the script.
"""
from __future__ import annotations

import argparse
import os
import sys

from _bootstrap import ensure_venv  # (this folder's: scripts/ is the script's own path)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rev", required=True, help="git revision to compare against")
    ap.add_argument("--board", default="30x30:0.2",
                    help="HxW:density or HxW:mines (default 30x30:0.2)")
    ap.add_argument("--agent", default="basic", help="agent (default basic)")
    ap.add_argument("--rules", default="keep-going", help="keep-going (default) or classic")
    ap.add_argument("--mine-count", choices=["yes", "no"], default=None,
                    help="whether the agent knows the mine total (default: the rules' default)")
    ap.add_argument("--noise", default=None,
                    help="noise spec, e.g. detector:p_neg=0.2,p_pos=0.2 (default none)")
    ap.add_argument("--rounds", type=int, default=40, help="alternations (default 40)")
    ap.add_argument("--seconds", type=float, default=0.03,
                    help="approximate length of one timed batch (default 0.03)")
    ap.add_argument("--quick", action="store_true",
                    help="seconds: 2 rounds of 6x6 games at density 0.2 (checks the script)")
    a = ap.parse_args(argv)
    if a.quick:
        a.board, a.rounds, a.seconds = "6x6:0.2", 2, 0.005
    sys.path.insert(0, ROOT)  # this checkout's package, whichever one .venv installed
    from fastsweep.tools.ab import compare
    r = compare(a.rev, a.board, a.agent, a.rules, a.mine_count, a.noise, a.rounds, a.seconds)
    if r["identical"]:
        print("identical games in every round")
    elif r["differ"] == r["differ_approx"]:
        print(f"note: {r['differ']} games differ, each one that an engine counted in part "
              "approximately (over its budget; the other may decide more there)")
    else:
        print(f"note: the two revisions play {r['differ']} games differently "
              f"({r['differ'] - r['differ_approx']} with no approximated step in either)")
    mc = "" if a.mine_count is None else f", mine count {a.mine_count}"
    mc += "" if a.noise is None else f", noise {a.noise}"
    print(f"{a.agent} {a.rules}{mc} {a.board}, {r['games']} games per batch, {a.rounds} rounds")
    print(f"  {a.rev}: median {r['old_us']:.1f} us/game (min {r['old_min_us']:.1f})")
    print(f"  working tree: median {r['new_us']:.1f} us/game (min {r['new_min_us']:.1f})")
    print(f"  new / old time per game, median of the paired ratios: {r['ratio']:.3f}")
    return r["ratio"]


if __name__ == "__main__":
    ensure_venv(__file__)  # re-runs this script inside .venv (made on first use)
    main()

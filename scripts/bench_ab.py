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
import atexit
import importlib
import io
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time

from _bootstrap import ensure_venv  # (this folder's: scripts/ is the script's own path)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _same(got, want):
    """Whether two result tables agree on their shared columns (columns added since the
    old revision are left out)."""
    k = min(got.shape[1], want.shape[1])
    return bool((got[:, :k] == want[:, :k]).all())


def load_revision(rev: str, dest: str, name: str = "fastsweep_ab"):
    """Extract ``fastsweep/`` at git revision ``rev`` into ``dest/name``; import it."""
    tar = subprocess.run(["git", "-C", ROOT, "archive", rev, "fastsweep"], check=True,
                         capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as t:
        t.extractall(dest, filter="data")
    os.rename(os.path.join(dest, "fastsweep"), os.path.join(dest, name))
    # Revisions before 2026-11-23 import their kernel families by the absolute name
    # "fastsweep.kernels.run_*", which under another package name would load the new
    # kernels (with the old parameter arrays): point them at their own.
    agents = os.path.join(dest, name, "agents.py")
    with open(agents) as f:
        text = f.read()
    with open(agents, "w") as f:
        f.write(text.replace('import_module(f"fastsweep.kernels.',
                             f'import_module(f"{name}.kernels.'))
    sys.path.insert(0, dest)
    # make_config lives in options since 2026-11-28 (config re-exported it before)
    opts = importlib.import_module(name + ".options")
    return (opts if hasattr(opts, "make_config") else importlib.import_module(name + ".config"),
            importlib.import_module(name + ".runner"))


def batch_runner(config, runner, size, mines, density, games, agent="basic",
                 rules="keep-going", mine_count=None, noise=None):
    """A function seed -> result table of ``games`` games, through the revision's own
    ``runner.play_chunk`` (so kernel signatures may differ between the revisions)."""
    extra = {} if mine_count is None else {"mine_count": mine_count}
    if noise is not None:
        extra["noise"] = noise
    cfg = config.make_config(agent, size, mines=mines, density=density, rules=rules, **extra)

    def play(seed):
        return runner.play_chunk(cfg, seed, 0, games, timing=False)[0]
    return play


def parse_board(text: str):
    """'30x30:0.2' (density) or '16x30:99' (mines) -> (size, mines, density)."""
    dims, _, amount = text.partition(":")
    h, _, w = dims.partition("x")
    size = (int(h), int(w or h))
    if "." in amount:
        return size, None, float(amount)
    return size, int(amount), None


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
    r = compare(a.rev, a.board, a.agent, a.rules, a.mine_count, a.noise, a.rounds, a.seconds)
    print("identical games in every round" if r["identical"] else
          "note: the two revisions play different games in some rounds")
    mc = "" if a.mine_count is None else f", mine count {a.mine_count}"
    mc += "" if a.noise is None else f", noise {a.noise}"
    print(f"{a.agent} {a.rules}{mc} {a.board}, {r['games']} games per batch, {a.rounds} rounds")
    print(f"  {a.rev}: median {r['old_us']:.1f} us/game (min {r['old_min_us']:.1f})")
    print(f"  working tree: median {r['new_us']:.1f} us/game (min {r['new_min_us']:.1f})")
    print(f"  new / old time per game, median of the paired ratios: {r['ratio']:.3f}")
    return r["ratio"]


_LOADED = {}  # revision -> its (options, runner) modules


def compare(rev, board, agent="basic", rules="keep-going", mine_count=None, noise=None,
            rounds=40, seconds=0.03):
    """The interleaved A/B of :func:`main` as a dict: identical (games), games (per
    batch), old_us / new_us (median microseconds a game), their minima, ratio (median of
    the paired new / old ratios) and the ratios' range."""
    size, mines, density = parse_board(board)
    sys.path.insert(0, ROOT)  # this checkout's package, whichever one .venv installed
    import fastsweep.options as new_config
    import fastsweep.runner as new_game
    if rev not in _LOADED:  # once a process: its modules load their families lazily
        if _LOADED:
            raise ValueError("compare: one older revision a process")
        tmp = tempfile.TemporaryDirectory()
        atexit.register(tmp.cleanup)
        _LOADED[rev] = load_revision(rev, tmp.name)
    old_config, old_game = _LOADED[rev]
    kw = dict(agent=agent, rules=rules,
              mine_count=None if mine_count is None else mine_count == "yes", noise=noise)
    probe_new = batch_runner(new_config, new_game, size, mines, density, 4, **kw)
    probe_new(1)  # (compiles)
    batch_runner(old_config, old_game, size, mines, density, 4, **kw)(1)
    t = time.perf_counter()
    probe_new(2)
    per_game = (time.perf_counter() - t) / 4
    games = max(4, int(seconds / max(per_game, 1e-7)))
    new = batch_runner(new_config, new_game, size, mines, density, games, **kw)
    old = batch_runner(old_config, old_game, size, mines, density, games, **kw)
    t_new, t_old, same = [], [], True
    for r in range(rounds):
        pair = ((new, t_new), (old, t_old)) if r % 2 == 0 else ((old, t_old), (new, t_new))
        res = []
        for f, ts in pair:
            t = time.perf_counter()
            res.append(f(r + 3))
            ts.append((time.perf_counter() - t) / games * 1e6)
        same = same and _same(res[0], res[1])
    ratios = [n / o for n, o in zip(t_new, t_old)]
    return dict(identical=same, games=games, old_us=statistics.median(t_old),
                new_us=statistics.median(t_new), old_min_us=min(t_old),
                new_min_us=min(t_new), ratio=statistics.median(ratios),
                ratio_min=min(ratios), ratio_max=max(ratios))


if __name__ == "__main__":
    ensure_venv(__file__)  # re-runs this script inside .venv (made on first use)
    main()

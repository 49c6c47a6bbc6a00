"""Interleaved A/B timing of this checkout's engine against an older git revision, in
one process (``scripts/bench_ab.py`` and ``scripts/bench/bench_targets.py`` use it).

The older revision's ``fastsweep/`` is extracted with ``git archive`` under another
package name and imported beside this one; both play the same games in alternating
batches, so both see the same machine (this VM drifts by up to 2x between minutes).
A development tool: it needs the git checkout this package is in.
"""
from __future__ import annotations

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

from ..kernels.engine.game import OUT_APPROX

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _same(got, want):
    """Whether two result tables agree on their shared columns (columns added since the
    old revision are left out)."""
    return not _differ(got, want).any()


def _differ(got, want):
    """Per game: whether the two result tables differ on their shared columns."""
    k = min(got.shape[1], want.shape[1])
    return (got[:, :k] != want[:, :k]).any(axis=1)


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


# the approximated steps of a game in the runner's result table (the same column in every
# revision: OUT_APPROX has not moved since the first commit)
_APPROX_COLUMN = OUT_APPROX

_LOADED = {}  # revision -> its (options, runner) modules


def compare(rev, board, agent="basic", rules="keep-going", mine_count=None, noise=None,
            rounds=40, seconds=0.03):
    """The interleaved A/B of :func:`main` as a dict: identical (games), games (per
    batch), old_us / new_us (median microseconds a game), their minima, ratio (median of
    the paired new / old ratios) and the ratios' range; ``differ``, the games played
    differently over all rounds, and ``differ_approx``, those of them in which either
    engine counted a step approximately (over its budget: an exact analysis that the other
    approximated may decide more, which is not a change of an exact game)."""
    size, mines, density = parse_board(board)
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
    t_new, t_old, differ, differ_approx = [], [], 0, 0
    for r in range(rounds):
        pair = ((new, t_new), (old, t_old)) if r % 2 == 0 else ((old, t_old), (new, t_new))
        res = []
        for f, ts in pair:
            t = time.perf_counter()
            res.append(f(r + 3))
            ts.append((time.perf_counter() - t) / games * 1e6)
        d = _differ(res[0], res[1])
        differ += int(d.sum())
        col = _APPROX_COLUMN
        differ_approx += int((d & ((res[0][:, col] > 0) | (res[1][:, col] > 0))).sum())
    ratios = [n / o for n, o in zip(t_new, t_old)]
    return dict(identical=differ == 0, differ=differ, differ_approx=differ_approx, games=games, old_us=statistics.median(t_old),
                new_us=statistics.median(t_new), old_min_us=min(t_old),
                new_min_us=min(t_new), ratio=statistics.median(ratios),
                ratio_min=min(ratios), ratio_max=max(ratios))

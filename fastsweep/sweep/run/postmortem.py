"""Which member and game killed a worker: when a sweep's worker process dies without a
Python error (a segmentation fault in a user's Numba policy, ``os._exit`` in an agent, the
kernel's out-of-memory killer), the pool reports only that it broke, for every chunk in
flight. The games are reproducible (game ``i`` depends only on the seed, ``i`` and the
configuration), so the parent replays each lost chunk member by member in a forked child
and narrows the first fatal game by bisection over prefixes of the chunk (a prefix, not
the game alone, so an agent whose state carries across games fails again too).

Linux only (it forks); elsewhere, and when no replay dies again, the message lists the
members and games that were in flight.
"""
from __future__ import annotations

import os
import signal
import sys
import time

from ...runner import play_chunk

REPLAY_SECONDS = 120.0  # one replay's limit: a replay that hangs is stopped, not awaited


def describe(cfg) -> str:
    """A member's configuration in one line (error messages)."""
    return (f"agent={cfg.agent} mine_count={cfg.mine_count} size={cfg.height}x{cfg.width} "
            f"mines={cfg.mines} rules={cfg.rules}")


def died(e: BaseException) -> bool:
    """Whether a chunk's exception means its worker died (rather than a Python error)."""
    from concurrent.futures.process import BrokenProcessPool

    return isinstance(e, BrokenProcessPool) or type(e).__name__ == "KilledWorker"


def where(tasks) -> str:
    """The chunks and members of ``tasks`` in words (the first four)."""
    return "; ".join(f"chunk {k} (games {first}..{first + games - 1}) of "
                     + ", ".join(describe(cfg) for _, cfg, _ in members)
                     for _, _, k, first, games, members in tasks[:4]) + (
        " ..." if len(tasks) > 4 else "")


def _how(status) -> str:
    """A child's wait status in words."""
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = f"signal {sig}"
        return f"killed by {name}"
    return f"exited with status {os.WEXITSTATUS(status)} without a Python error"


def replay(jobs, limit=REPLAY_SECONDS):
    """Play ``jobs`` ((cfg, seed, first game, games) each) in a forked child; None if it
    ended normally (a Python exception counts as normal: it is not a death), else how
    it died."""
    pid = os.fork()
    if pid == 0:  # the child: play, say nothing, leave without clean-up
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            for cfg, seed, first, games in jobs:
                play_chunk(cfg, seed, first, games, timing=False)
        finally:  # (a Python error is not the death we look for: exit 0 either way)
            os._exit(0)
    t0 = time.monotonic()
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return None if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0 else _how(status)
        if time.monotonic() - t0 > limit:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return None  # (a hang is not the death we look for)
        time.sleep(0.01)


def first_fatal(cfg, seed, first, games):
    """(game, how) of the first game whose prefix kills a replay, or None."""
    how = replay([(cfg, seed, first, games)])
    if how is None:
        return None
    lo, hi = 1, games  # the prefix of hi games dies; find the shortest
    while lo < hi:
        mid = (lo + hi) // 2
        h = replay([(cfg, seed, first, mid)])
        if h is None:
            lo = mid + 1
        else:
            hi, how = mid, h
    return first + hi - 1, how


def explain(tasks, plan, seed, cause) -> str:
    """The error message for a worker that died running ``tasks`` (chunk tasks as the
    driver builds them: (board, key, chunk, first game, games, [(label, cfg, replay)]));
    ``cause`` is the backend's own exception."""
    head = f"a worker process died without a Python error ({type(cause).__name__}: {cause})"
    if sys.platform.startswith("linux"):
        for b, _, k, first, games, members in tasks:
            for _, cfg, _ in members:
                hit = first_fatal(cfg, seed, first, games)
                if hit is not None:
                    game, how = hit
                    return (f"a worker process died: {describe(cfg)}, game {game} (chunk {k}, "
                            f"seed {seed}) {how} when replayed alone in a fresh process; "
                            f"play it with fastsweep.play to see the moves up to the crash")
    tried = (" Replaying each member's games in a fresh process did not die again: the crash "
             "depends on what the worker ran before, or came from outside the agents (memory, "
             "a signal)." if sys.platform.startswith("linux") else "")
    return f"{head} while running {where(tasks)}.{tried}"

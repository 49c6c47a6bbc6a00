"""The sweep driver: a grid of configurations played in deterministic chunks on every core
(or a Dask cluster), with resumable on-disk sufficient statistics and adaptive precision.

Vocabulary
    board       (size, mines, rules, first click, first cell): what fixes the games.
    member      (agent, mine_count) playing a board; a *configuration* is a board + member.
    chunk k     games ``k*C .. (k+1)*C - 1`` of one board, played by its members in one
                task so paired differences come from the very same games (common random
                numbers: game i of a board is the same board and guess order for all).

Determinism: a chunk's numbers depend only on (root seed, configuration, chunk index);
the adaptive stopping rule is evaluated on chunk *prefixes* 0..K-1 in order, so how
many workers ran which chunks when never changes a summary. Chunks played beyond the
stopping point (speculation) are recorded but not used (a tighter ``ci`` later uses them).

Output folder (``out=``): ``params.json`` (the sweep it holds, with the CI method),
``chunks.jsonl`` (one line of sums and per-game scores per finished chunk, filed under its board's key,
appended and fsynced as chunks finish, so an interrupted run loses nothing),
``summary.csv`` and ``pairs.csv`` when done, and ``per_game/`` with ``per_game=True``.
A run on an existing folder resumes or grows it (more games, another ``ci``, more boards
or members: finished chunks are reused); a change that would mix different games is
refused (:mod:`.folder.grow`).

Modules, in dependency order (but ``grid`` takes the folder's format and the options fixed
later from ``folder.integrity``): ``stopping`` (the intervals and the adaptive stopping
rule), ``grid`` (arguments -> the grid), ``plan`` (chunks and the stopping rule applied);
``folder/``, the output folder: ``integrity`` (record digests and checks), ``grow`` (what
a run may change in a folder), ``store`` (reading and writing it), ``lock`` (one run per
folder), ``csv_check`` (summaries read back, checked); ``run/``, where chunks are played:
``backends`` and ``dask_local`` (in-process, process pool, Dask), ``progress``,
``postmortem`` (which game killed a worker), ``execute`` (workers and the scheduling
loop), ``tasks`` (a study's independent tasks on the same backends); ``results/``, what a
sweep gives back: ``summary`` (statistics, :func:`load`), ``labels`` (the agents' names),
``table`` (pivot tables for papers). This module holds :func:`sweep` itself.
"""
from __future__ import annotations

import contextlib
import numbers
import os
from collections import deque

from .run.backends import Dask
from .run.execute import BACKENDS, SweepWorkerError, _execute, run_batch, run_task, warm_up
from ..config import check_flag
from ..options import check_reads, sweep_options, takes_options
from ..values import check_timeout
from .grid import FORMAT, _resolve, board_key, chunk_size, parse_range
from .folder.lock import FolderLock
from .plan import _Plan
from .folder.store import _Store, folder_arg
from .results.summary import TIMING_COLUMNS, SweepResult, load, summarize

MAX_WORKERS_PER_CORE = 4

__all__ = ["BACKENDS", "FORMAT", "TIMING_COLUMNS", "SweepResult", "SweepWorkerError",
           "chunk_size", "load", "parse_range", "run_batch", "run_task", "summarize", "sweep",
           "warm_up"]


@takes_options(sweep_options("single"))
def sweep(agents, sizes, densities=None, mines=None, rules="keep-going",
          mine_count=(False, True), games=None, ci=None, min_games=200, max_games=100_000,
          seed=0, workers=None, backend="process", scheduler=None, out=None,
          chunk_games=None, per_game=False, quiet=False, timeout=10.0, fresh=(),
          **options) -> SweepResult:
    """Play the grid ``agents x mine_count x sizes x (densities | mines) x rules``.

    Parameters
    ----------
    agents : list of str (or "a,b")
        Names from ``fastsweep.AGENTS``, or your own agents: objects (``fastsweep.run``)
        or import paths ``"module:attr"`` / ``"path/to/file.py:attr"`` (Dask's workers
        need the path).
    sizes : list of int, (H, W) or "HxW"
    densities, mines : list (exactly one)
        Mine densities in [0, 1] (a string ``"0.05:0.95:0.05"`` is an inclusive range) or
        mine counts.
    rules : str or list of {"keep-going", "classic"}
    mine_count : list of bool, or dict agent -> list of bool
        Whether agents are told the mine total; a dict sets it per agent.
    first_click, first_cell, prior, budget, threshold, risk_rules, max_component, noise,
    noise_aware, flag_threshold, endgame, endgame_nodes, candidate_cut, pseudo_fifty,
    corner_opening, offedge_limit, fifty_blocks, far_ties
        One value each for every configuration, as in :func:`fastsweep.run` (they fix the
        games: continuing a folder with other values is refused).
    games : int
        Fixed number of games per configuration, or
    ci : float
        Adaptive precision: add chunks to a configuration until the 95% CI half-width of
        its mean score is <= ci and it has >= ``min_games``, up to ``max_games`` (the
        summary's ``hit_cap`` says which stopped there).
    seed : int
        Root seed; game i of a board is the same for every agent and any worker count,
        and equals ``fastsweep.run(agent, size, ..., seed=seed)``'s game i.
    workers : int
        Processes (default: all cores) or LocalCluster workers.
    backend : {"process", "dask"}; scheduler : "tcp://host:port" for an existing cluster
    out : str
        Output folder; re-running with the same arguments resumes, and more games, another
        ``ci`` or more boards / members grow it, reusing its finished chunks.
    chunk_games : int
        Games per chunk (default: about 20,000 cell-games, 10..250).
    per_game : bool
        Also write every game's row under ``out/per_game/``.
    timeout : float
        Seconds to wait for a Dask scheduler.
    fresh : list of str, or True
        Your own agents (by name; True: all of them) whose code changed since ``out`` holds
        their games: those games are set aside (removed from the folder's records) and
        played again with the new code; without it such a folder is refused. What counts
        as their code: :mod:`fastsweep.user.code_id` (an edit of comments or docstrings
        does not).

    Returns
    -------
    SweepResult with ``summary`` (one row per configuration), ``pairs`` (paired
    differences B - A of mean score on the same games, for every pair of members),
    ``params`` (with ``ci_method``), ``reused_chunks`` and ``played_chunks``.

    Example
    -------
    >>> import fastsweep
    >>> r = fastsweep.sweep(["basic"], 16, densities=[0.1, 0.2], games=200, workers=1)
    >>> r.summary[["density", "mine_count", "games"]].values.tolist()  # doctest: +SKIP
    [[0.1, False, 200], [0.1, True, 200], [0.2, False, 200], [0.2, True, 200]]
    """
    single = {o.name for o in sweep_options("single")}
    unknown = sorted(set(options) - single)
    if unknown:
        raise TypeError(f"{unknown[0]}: not an option of a sweep; its single-valued options: "
                        f"{', '.join(sorted(single))}")
    if out is not None:
        out = folder_arg(out, "out")
        _say_imports(agents, out)
    params, boards = _resolve(agents, sizes, densities, mines, rules, mine_count, games, ci,
                              min_games, max_games, seed, chunk_games, **options)
    check_reads(params["agents"], options)  # an option no agent of the sweep reads
    if workers is None:
        workers = os.cpu_count() or 1
    cap = MAX_WORKERS_PER_CORE * (os.cpu_count() or 1)
    if (not isinstance(workers, numbers.Integral) or isinstance(workers, bool)
            or not 1 <= workers <= cap):
        # more processes than cores only adds memory and switching (1,000 on 2 cores:
        # 2.7 GB and 30x slower); a remote cluster's size is its own business
        if not (scheduler is not None and isinstance(workers, numbers.Integral)
                and not isinstance(workers, bool) and workers >= 1):
            raise ValueError(f"workers: must be an integer in [1, {cap}] ({MAX_WORKERS_PER_CORE} "
                             f"per core on this machine), got {workers!r}")
    if backend not in BACKENDS:
        raise ValueError(f"backend: unknown backend {backend!r}; allowed: {', '.join(BACKENDS)}")
    if scheduler is not None:
        if backend != "dask":
            raise ValueError("scheduler: only used with backend='dask'")
        if not isinstance(scheduler, str) or ":" not in scheduler:
            raise ValueError(f"scheduler: expected an address like tcp://HOST:PORT, got "
                             f"{scheduler!r}")
    quiet, per_game = check_flag(quiet, "quiet"), check_flag(per_game, "per_game")
    if per_game and out is None:
        raise ValueError("per_game: needs an output folder (out=...)")
    if isinstance(fresh, bool):  # True: every one of your agents whose code changed
        fresh = list(params.get("own_agents") or {}) if fresh else []
    if isinstance(fresh, str):
        fresh = [fresh]
    if not isinstance(fresh, (list, tuple, set)) or not all(isinstance(a, str) for a in fresh):
        raise ValueError(f"fresh: expected names of your agents (a list of str), or True for "
                         f"all of them, got {fresh!r}")
    fresh = list(fresh)
    bad = [a for a in fresh if a not in (params.get("own_agents") or {})]
    if bad:
        raise ValueError(f"fresh: {bad[0]!r} is not one of your agents in this sweep; your "
                         f"agents: {', '.join(params.get('own_agents') or {}) or 'none'}")
    if backend == "dask":  # Dask's workers are other interpreters: they import agents
        for a, info in (params.get("own_agents") or {}).items():
            if not info["source"]:
                raise ValueError(f"agents: your agent {a!r} has no import path, so Dask's "
                                 "workers cannot load it; give it as 'module:attr' or "
                                 "'path/to/file.py:attr'")
    timeout = check_timeout(timeout)  # (inf reached Dask as an "invalid time unit")

    ex = None
    if backend == "dask" and scheduler is not None:
        # reach the scheduler before touching the output folder: an unreachable address
        # fails cleanly and writes nothing
        ex = Dask(workers, scheduler, params["agents"], timeout, warm_up)
    try:
        with _terminate_cleanly():
            return _sweep(params, boards, out, per_game, workers, backend, scheduler,
                          timeout, quiet, ex, fresh)
    finally:
        if ex is not None:
            ex.close()


def _say_imports(agents, out):
    """Before a run on an existing folder imports users' agents named by import path, say
    which code it imports (one line on stderr): a folder received from someone else, and
    the command that grows it, name code that importing runs."""
    import sys

    from ..agents import AGENTS, USER_AGENTS
    from ..user.resolve import import_target

    if not os.path.exists(os.path.join(out, "params.json")):
        return
    names = agents.split(",") if isinstance(agents, str) else (
        agents if isinstance(agents, (list, tuple)) else [])
    paths = [a for a in names if isinstance(a, str) and ":" in a and a not in AGENTS
             and a not in USER_AGENTS]  # (registered ones are imported already)
    if paths:
        print(f"sweep: {out} holds a sweep; importing your agents' code to play them: "
              + "; ".join(f"{a} from {import_target(a)}" for a in paths),
              file=sys.stderr, flush=True)


class _Terminated(KeyboardInterrupt):
    """SIGTERM during a sweep: handled as Ctrl-C is (finished chunks kept, workers stopped,
    the folder's lock released), then the signal is delivered again."""


@contextlib.contextmanager
def _terminate_cleanly():
    """While a sweep runs, SIGTERM (a batch system's or ``kill``'s) cleans up like Ctrl-C
    and then ends the process as SIGTERM would have; only when SIGTERM has its default
    action (a program that handles it keeps its own handler) and in the main thread
    (where Python runs signal handlers)."""
    import signal
    import threading

    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL):
        yield
        return

    def stop(signum, frame):
        raise _Terminated()

    signal.signal(signal.SIGTERM, stop)
    try:
        yield
    except _Terminated:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.raise_signal(signal.SIGTERM)  # ends the process: its status says SIGTERM
        raise
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _sweep(params, boards, out, per_game, workers, backend, scheduler, timeout, quiet, ex,
           fresh=()):
    if out is None:
        return _run(params, boards, None, per_game, workers, backend, scheduler, timeout,
                    quiet, ex)
    with FolderLock(out):  # one run per folder; released on any exit
        return _run(params, boards, out, per_game, workers, backend, scheduler, timeout,
                    quiet, ex, fresh)


def _run(params, boards, out, per_game, workers, backend, scheduler, timeout, quiet, ex,
         fresh=()):
    # reads and checks the folder, writes nothing yet
    store = (_Store(out, params, per_game, {board_key(bd): bd for bd in boards}, fresh)
             if out is not None else None)
    plan = _Plan(params, boards)
    for rec in (store.records if store else []):
        plan.add(rec)  # records of boards or game counts this grid lacks stay unused
    reused = sum(len(recs) for recs in plan.recs)
    pending = deque()
    for b in range(len(boards)):
        plan.evaluate(b)
        pending.extend((b, k) for k in plan.new_chunks(b))
    if pending:
        _execute(plan, pending, params, store, workers, backend, scheduler, timeout, quiet, ex)
    elif store is not None:
        store.open()  # nothing to play; a grown precision still updates params.json
    result = summarize(plan)
    result.path, result.reused_chunks, result.played_chunks = out, reused, plan.played
    labels = set(plan.labels)
    result.recorded_games = sum(r["games"] * len(labels & set(r["m"]))
                                for recs in plan.recs for r in recs.values())
    result.played_games = plan.played_games
    result.seconds_compile, result.seconds_playing = plan.seconds_compile, plan.seconds_playing
    if store is not None:
        try:
            store.write_summaries(result.summary.to_csv(index=False),
                                  result.pairs.to_csv(index=False))
        except OSError as e:
            raise OSError(f"out: cannot write to {out}: {e.strerror or e} (every chunk is "
                          f"kept; re-run to write the summaries)") from None
    return result

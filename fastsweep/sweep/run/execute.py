"""Running chunks: the worker side (:func:`run_task`, :func:`run_batch`, :func:`warm_up`)
and the parent's scheduling loop (:func:`_execute`): batches of chunks go to a backend,
finished ones are recorded as they arrive and the plan is extended adaptively.
"""
from __future__ import annotations

import os
import sys
import time

import numpy as np
import pandas as pd

from ...kernels.engine import game as kg
from ...options import make_config
from ...runner import frame, play_chunk
from ...warmup import warm
from .backends import Dask, Inline, Pool
from .postmortem import describe as _describe
from .postmortem import died, explain, where as _where
from .progress import Progress
from ..folder.store import _append

BACKENDS = ("process", "dask")


class SweepWorkerError(RuntimeError):
    """A chunk failed in a worker; the message names its configuration and chunk."""


def warm_up(agents, workers=1):
    """Compile (or load from Numba's cache) the kernels for ``agents``; returns seconds.
    With ``workers`` > 1, families not compiled yet compile at the same time in separate
    processes (see :func:`fastsweep.warmup.warm`), then this process loads them."""
    return warm(agents, processes=workers)


def _play(cfg, seed, first, games):
    return play_chunk(cfg, seed, first, games)


def run_task(task, seed, per_game=False):
    """Play one chunk for some members of its board; return (record, per-game frame or None).

    ``task`` is (board index, board key, chunk, first game, games, [(label, GameConfig,
    replay)]); a replayed member (already in the folder, played again only to pair it
    with a newcomer) gets no per-game rows. Scores are kept as integers (flagged mines;
    the board's mine count divides them later) so sums are exact and independent of the
    order chunks are combined in; ``xs`` keeps each game's score and ``ws`` whether it
    was won (since 2026-11-29), which pair any member added later with these games
    without playing them again.
    """
    b, key, k, first, games, members = task
    rec = {"key": key, "k": k, "first": first, "games": games, "m": {}, "xs": {}, "ws": {}}
    frames = []
    for label, cfg, replay in members:
        try:
            out, secs, _ = _play(cfg, seed, first, games)
            if not np.all(out[:, kg.OUT_MINES] == cfg.mines):
                raise RuntimeError("a game's mine count differs from the configuration's")
        except Exception as e:
            raise SweepWorkerError(
                f"configuration {_describe(cfg)}, chunk {k} (games {first}..{first + games - 1}, "
                f"seed {seed}) failed: {type(e).__name__}: {e}") from e
        # mines found: flags on safe cells (only under noise) do not count
        x = (out[:, kg.OUT_FLAGGED] - out[:, kg.OUT_WRONG_FLAGS] if cfg.mines > 0
             else np.ones(games, np.int64))
        rec["xs"][label] = x.tolist()
        rec["ws"][label] = out[:, kg.OUT_WON].astype(int).tolist()  # (paired win rates)
        rec["m"][label] = {
            "n": games, "x1": int(x.sum()), "x2": int((x * x).sum()),
            "wins": int(out[:, kg.OUT_WON].sum()), "det": int(out[:, kg.OUT_DETONATED].sum()),
            "guess": int(out[:, kg.OUT_GUESSES].sum()), "moves": int(out[:, kg.OUT_MOVES].sum()),
            "approx": int(out[:, kg.OUT_APPROX].sum()),
            "wrong": int(out[:, kg.OUT_WRONG_FLAGS].sum()),
            "sdet": int(out[:, kg.OUT_SAFE_DETONATIONS].sum()),
            "drop": int(out[:, kg.OUT_DROPPED].sum()), "sec": float(secs.sum())}
        if per_game and not replay:
            frames.append(frame(cfg, seed, first, out, secs))
    return rec, (pd.concat(frames, ignore_index=True) if frames else None)


def run_batch(tasks, seed, per_game=False):
    """Run several chunk tasks in one worker call (amortises scheduling of tiny chunks)."""
    return [run_task(t, seed, per_game) for t in tasks]


# what a replayed chunk must reproduce exactly (its seconds aside)
_SAME = ("n", "x1", "x2", "wins", "det", "guess", "moves", "approx", "wrong", "sdet", "drop")


def check_engine(plan, pending, seed):
    """Before a resumed run adds chunks to a folder, replay each such board's first
    recorded chunk here and require the same games: a folder grown by changed code would
    otherwise mix two engines' results unnoticed (ValueError naming the chunk)."""
    for b in sorted({b for b, _ in pending}):
        if not plan.recs[b]:
            continue
        k = min(plan.recs[b])
        rec = plan.recs[b][k]
        js = [j for j, lab in enumerate(plan.labels) if lab in rec["m"]]
        cfgs = plan.boards[b]["cfgs"]
        task = (b, plan.keys[b], k, k * plan.boards[b]["chunk"], rec["games"],
                [(plan.labels[j], cfgs[j], True) for j in js])
        new, _ = run_task(task, seed)
        for j in js:
            lab = plan.labels[j]
            old = rec["m"][lab]
            diff = [s for s in _SAME if new["m"][lab].get(s, 0) != old.get(s, 0)]
            if diff or (lab in rec["xs"] and new["xs"][lab] != rec["xs"][lab]):
                raise ValueError(
                    f"out: replaying chunk {k} of board {plan.keys[b]} gave {lab} other games "
                    f"than the folder's record ({', '.join(diff) or 'per-game scores'} "
                    f"differ): the engine changed since the folder was written (or, for your "
                    f"own agent, what its code digest does not cover: its constructor's "
                    f"arguments, its state), and growing it would mix the two; use a new "
                    f"folder")


def _backend(backend, workers, scheduler, agents, timeout):
    if backend == "dask":
        return Dask(workers, scheduler, agents, timeout, warm_up)
    return Inline() if workers == 1 else Pool(workers)


def _execute(plan, pending, params, store, workers, backend, scheduler, timeout, quiet, ex):
    """Start the backend (unless ``ex`` is a connected Dask client, which the caller
    closes), then open the output folder (so a backend that fails to start leaves no
    folder behind), run the pending chunks, record them as they finish, extend the plan."""
    # compile in the parent (cache=True) before any worker exists
    t0 = time.perf_counter()
    warm_up(params["agents"], workers if backend != "dask" else 1)
    plan.seconds_compile = time.perf_counter() - t0
    check_engine(plan, pending, params["seed"])
    ex = ex or _backend(backend, workers, scheduler, params["agents"], timeout)
    try:
        if store is not None:
            store.open()
    except BaseException:
        ex.close(cancel=True)
        raise
    nm = len(plan.labels)

    def work(b, k):  # member-games of a chunk task (the progress unit)
        return plan.games_in(b, k) * len(plan.task_members(b, k))

    done_games = sum(r["games"] * len(r["m"]) for recs in plan.recs for r in recs.values())
    progress = Progress(done_games + sum(work(b, k) for b, k in pending), done_games,
                        len(plan.boards) * nm, plan.points_done, quiet=quiet)
    t_play = time.perf_counter()
    # estimated seconds per game of each board (refined from finished chunks); until a
    # board has a timed chunk its batches hold one chunk: the guess can be 1000x too low
    # (look-ahead agents), and a batch's chunks are recorded only when it returns
    est = [b["height"] * b["width"] * 0.4e-6 * nm for b in plan.boards]
    timed = [False] * len(plan.boards)
    seed = params["seed"]
    per_game = store is not None and store.per_game
    inflight = {}
    error = None
    lost, death = [], None  # tasks a dead worker took with it, and the backend's report

    # in this process a batch saves no scheduling; one chunk a batch records each chunk as
    # it finishes, so an agent that ends the process (os._exit, a segfault) loses nothing
    # finished (a worker pool names such an agent and its game instead: .postmortem)
    one_chunk = isinstance(ex, Inline)
    ahead = 1 if one_chunk else 2 * ex.nworkers  # (Inline plays a batch when submitted)

    def take_batch():
        pend_cost = sum(est[b] * plan.games_in(b, k) for b, k in pending)
        target = min(0.5, max(0.02, pend_cost / (2 * ex.nworkers)))
        tasks, cost = [], 0.0
        while pending and cost < target:
            b, k = pending.popleft()
            js = plan.task_members(b, k)
            if not js:
                continue  # every member stopped before chunk k, or has it already
            if tasks and not timed[b]:
                pending.appendleft((b, k))  # an untimed board's chunk goes alone
                break
            g = plan.games_in(b, k)
            cfgs, have = plan.boards[b]["cfgs"], plan.recs[b].get(k, {"m": {}})["m"]
            tasks.append((b, plan.keys[b], k, k * plan.boards[b]["chunk"], g,
                          [(plan.labels[j], cfgs[j], plan.labels[j] in have) for j in js]))
            cost += est[b] * g * len(js) / nm
            if not timed[b] or one_chunk:
                break
        return tasks

    def finish(results):
        _append(store, results)
        for rec, _ in results:
            plan.played += 1
            plan.played_games += rec["games"] * len(rec["m"])
            plan.add(rec)
            sec = sum(m["sec"] for m in rec["m"].values())
            for b in plan.where[rec["key"]]:
                per = sec / max(rec["games"], 1) * nm / len(rec["m"])
                est[b] = 0.5 * est[b] + 0.5 * per if timed[b] else per
                timed[b] = True
                plan.evaluate(b)
                new = plan.new_chunks(b)
                if new:
                    progress.add_total(sum(work(b, k) for k in new))
                    pending.extendleft((b, k) for k in reversed(new))  # extensions first
            progress.update(rec["games"] * len(rec["m"]))

    try:
        while (pending or inflight):
            while error is None and death is None and pending and len(inflight) < ahead:
                tasks = take_batch()
                if tasks:
                    inflight[ex.submit(run_batch, tasks, seed, per_game)] = tasks
            if not inflight:
                break
            try:
                finished = ex.wait(list(inflight))
            except RuntimeError as e:  # the backend lost its workers: nothing more finishes
                if death is None:
                    death = e
                    lost.extend(t for ts in inflight.values() for t in ts)
                ex.close(cancel=True)
                break
            progress.update(0)  # (a line is due every interval, chunks finished or not)
            for f in finished:
                tasks = inflight.pop(f)
                try:
                    res = f.result()
                except SweepWorkerError as e:
                    error = error or e
                    continue
                except Exception as e:
                    if died(e):  # a dead worker process, a lost dask worker
                        death = death or e
                        lost.extend(tasks)
                    else:  # (e.g. a result that cannot be sent back)
                        error = error or SweepWorkerError(
                            f"a worker failed running {_where(tasks)}: {type(e).__name__}: {e}")
                    continue
                finish(res)
            if (error is not None or death is not None) and not inflight:
                break
    except KeyboardInterrupt:
        # keep whatever already finished, then stop; finished chunks are on disk
        def keep(fs):
            for f in fs:
                if f.done() and not f.cancelled() and f.exception() is None:
                    _append(store, f.result())
                    del inflight[f]

        keep(list(inflight))
        ex.close(cancel=True)
        progress.close(finished=False)
        if store is not None:
            print(f"fastsweep: interrupted; finished chunks are kept in {store.path}; re-run "
                  f"the same command to resume", file=sys.stderr)
        raise
    except BaseException:
        ex.close(cancel=True)
        progress.close(finished=False)
        raise
    progress.close(finished=error is None)
    plan.seconds_playing = time.perf_counter() - t_play
    ex.close()
    if error is None and death is not None:  # (a Python error elsewhere names itself)
        error = SweepWorkerError(explain(lost, plan, seed, death))
    if error is not None:
        kept = (f"; chunks recorded before the failure are kept in {store.path}"
                if store is not None else "")
        raise SweepWorkerError(f"{error}{kept}") from error

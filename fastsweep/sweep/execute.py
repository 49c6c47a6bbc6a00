"""Running chunks: the worker side (:func:`run_task`, :func:`run_batch`, :func:`warm_up`)
and the parent's scheduling loop (:func:`_execute`): batches of chunks go to a backend,
finished ones are recorded as they arrive and the plan is extended adaptively.
"""
from __future__ import annotations

import sys
import time

import numpy as np
import pandas as pd

from ..config import GameConfig
from ..kernels import game as kg
from ..options import make_config
from ..runner import frame, play_chunk
from .backends import Dask, Inline, Pool
from .store import _append

BACKENDS = ("process", "dask")


class SweepWorkerError(RuntimeError):
    """A chunk failed in a worker; the message names its configuration and chunk."""


def warm_up(agents):
    """Compile (or load from Numba's cache) the kernels for ``agents``; returns seconds."""
    t0 = time.perf_counter()
    for a in agents:
        for mc in (False, True):
            play_chunk(make_config(a, 4, mines=3, mine_count=mc), 0, 0, 1)
    return time.perf_counter() - t0


def _describe(cfg: GameConfig) -> str:
    return (f"agent={cfg.agent} mine_count={cfg.mine_count} size={cfg.height}x{cfg.width} "
            f"mines={cfg.mines} rules={cfg.rules}")


def _play(cfg, seed, first, games):
    return play_chunk(cfg, seed, first, games)


def run_task(task, seed, per_game=False):
    """Play one chunk for its members; return (record, per-game frame or None).

    ``task`` is (board, chunk, first game, games, [(label, GameConfig)]). Scores are
    kept as integers (flagged mines; the board's mine count divides them later) so sums
    are exact and independent of the order chunks are combined in.
    """
    b, k, first, games, members = task
    rec = {"b": b, "k": k, "first": first, "games": games, "m": {}, "p": {}}
    xs, frames = [], []
    for label, cfg in members:
        try:
            out, secs, _ = _play(cfg, seed, first, games)
            if not np.all(out[:, kg.OUT_MINES] == cfg.mines):
                raise RuntimeError("a game's mine count differs from the configuration's")
        except Exception as e:
            raise SweepWorkerError(
                f"configuration {_describe(cfg)}, chunk {k} (games {first}..{first + games - 1}, "
                f"seed {seed}) failed: {type(e).__name__}: {e}") from e
        x = out[:, kg.OUT_FLAGGED] if cfg.mines > 0 else np.ones(games, np.int64)
        xs.append(x)
        rec["m"][label] = {
            "n": games, "x1": int(x.sum()), "x2": int((x * x).sum()),
            "wins": int(out[:, kg.OUT_WON].sum()), "det": int(out[:, kg.OUT_DETONATED].sum()),
            "guess": int(out[:, kg.OUT_GUESSES].sum()), "moves": int(out[:, kg.OUT_MOVES].sum()),
            "approx": int(out[:, kg.OUT_APPROX].sum()),
            "wrong": int(out[:, kg.OUT_WRONG_FLAGS].sum()),
            "sdet": int(out[:, kg.OUT_SAFE_DETONATIONS].sum()), "sec": float(secs.sum())}
        if per_game:
            frames.append(frame(cfg, seed, first, out, secs))
    labels = [lab for lab, _ in members]
    for i in range(len(members)):
        for j in range(i + 1, len(members)):
            d = xs[j] - xs[i]  # B minus A, game by game
            rec["p"][f"{labels[i]}|{labels[j]}"] = [int(d.sum()), int((d * d).sum())]
    return rec, (pd.concat(frames, ignore_index=True) if per_game else None)


def run_batch(tasks, seed, per_game=False):
    """Run several chunk tasks in one worker call (amortises scheduling of tiny chunks)."""
    return [run_task(t, seed, per_game) for t in tasks]


def _execute(plan, pending, params, store, workers, backend, scheduler, timeout, quiet, ex):
    """Run pending chunks on the backend, record them as they finish, extend adaptively."""
    agents = params["agents"]
    warm_up(agents)  # compile in the parent (cache=True) before any worker exists
    if ex is not None:
        pass  # a connected remote Dask client; the caller closes it
    elif backend == "dask":
        ex = Dask(workers, scheduler, agents, timeout, warm_up)
    elif workers == 1:
        ex = Inline()
    else:
        ex = Pool(workers)
    from tqdm.auto import tqdm

    nm = len(plan.labels)
    done_games = sum(r["games"] * len(r["m"]) for recs in plan.recs for r in recs.values())
    total = done_games + sum(plan.games_in(b, k) * nm for b, k in pending)
    bar = tqdm(total=total, initial=done_games, unit="game", unit_scale=True, smoothing=0.05,
               disable=quiet or not sys.stderr.isatty(), desc="sweep", dynamic_ncols=True)
    # estimated seconds per game of each board (refined from finished chunks)
    est = [b["height"] * b["width"] * 0.4e-6 * nm for b in plan.boards]
    seed = params["seed"]
    per_game = store is not None and store.per_game
    inflight = {}
    error = None

    def take_batch():
        pend_cost = sum(est[b] * plan.games_in(b, k) for b, k in pending)
        target = min(0.5, max(0.02, pend_cost / (2 * ex.nworkers)))
        tasks, cost = [], 0.0
        while pending and cost < target:
            b, k = pending.popleft()
            js = plan.members_needing(b, k)
            if not js:
                continue  # every member stopped before chunk k: skip it
            g = plan.games_in(b, k)
            cfgs = plan.boards[b]["cfgs"]
            tasks.append((b, k, k * plan.boards[b]["chunk"], g,
                          [(plan.labels[j], cfgs[j]) for j in js]))
            cost += est[b] * g * len(js) / nm
        return tasks

    def finish(results):
        _append(store, results)
        for rec, _ in results:
            b = rec["b"]
            plan.add(rec)
            sec = sum(m["sec"] for m in rec["m"].values())
            est[b] = 0.5 * est[b] + 0.5 * sec / max(rec["games"], 1) * nm / len(rec["m"])
            bar.update(rec["games"] * len(rec["m"]))
            plan.evaluate(b)
            new = plan.new_chunks(b)
            if new:
                bar.total += sum(plan.games_in(b, k) for k in new) * nm
                pending.extendleft((b, k) for k in reversed(new))  # extensions first

    try:
        while (pending or inflight):
            while error is None and pending and len(inflight) < 2 * ex.nworkers:
                tasks = take_batch()
                if tasks:
                    inflight[ex.submit(run_batch, tasks, seed, per_game)] = tasks
            if not inflight:
                break
            for f in ex.wait(list(inflight)):
                tasks = inflight.pop(f)
                try:
                    res = f.result()
                except SweepWorkerError as e:
                    error = error or e
                    continue
                except Exception as e:  # a dead worker process, a lost dask worker, ...
                    where = ", ".join(f"board {t[0]} ({_describe(plan.boards[t[0]]['cfgs'][0])}) "
                                      f"chunk {t[1]}" for t in tasks[:3])
                    error = error or SweepWorkerError(
                        f"a worker failed running {where}{' ...' if len(tasks) > 3 else ''}: "
                        f"{type(e).__name__}: {e}")
                    continue
                finish(res)
            if error is not None and not inflight:
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
        bar.close()
        if store is not None:
            print(f"fastsweep: interrupted; finished chunks are kept in {store.path}; re-run "
                  f"the same command to resume", file=sys.stderr)
        raise
    bar.close()
    ex.close()
    if error is not None:
        kept = f"; finished chunks are kept in {store.path}" if store is not None else ""
        raise SweepWorkerError(f"{error}{kept}") from error

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
stopping point (speculation) are recorded but not used.

Output folder (``out=``): ``params.json`` (the run's arguments; a different grid is
refused), ``chunks.jsonl`` (one line of sums per finished chunk, appended and fsynced as
chunks finish, so an interrupted run loses nothing), ``summary.csv`` and ``pairs.csv``
when done, and ``per_game/`` with ``per_game=True``.
"""
from __future__ import annotations

import json
import math
import numbers
import os
import sys
import time
from collections import deque
from dataclasses import dataclass
from itertools import product

import numpy as np
import pandas as pd

from . import stats
from .agents import AGENTS
from .backends import Dask, Inline, Pool
from .config import GameConfig, check_games, check_seed, make_config, parse_size
from .kernels import game as kg
from .runner import frame, play_chunk

FORMAT = 1
TIMING_COLUMNS = ("us_per_game",)  # wall-clock derived: the only non-reproducible columns
BACKENDS = ("process", "dask")
_STATS = ("n", "x1", "x2", "wins", "det", "guess", "moves", "approx", "wrong", "sdet")


class SweepWorkerError(RuntimeError):
    """A chunk failed in a worker; the message names its configuration and chunk."""


@dataclass
class SweepResult:
    """What :func:`sweep` returns: per-configuration ``summary`` and paired ``pairs``
    DataFrames, the resolved ``params`` and the output folder ``path`` (or None)."""

    summary: pd.DataFrame
    pairs: pd.DataFrame
    params: dict
    path: str | None = None


# ---------------------------------------------------------------- argument parsing

def parse_range(spec) -> list[float]:
    """``"a:b:step"`` (inclusive) or ``"x,y,z"`` -> list of floats.

    >>> parse_range("0.1:0.5:0.1")
    [0.1, 0.2, 0.3, 0.4, 0.5]
    """
    s = str(spec).replace(" ", "")
    if ":" in s:
        try:
            a, b, step = (float(v) for v in s.split(":"))
        except ValueError:
            raise ValueError(f"density: expected 'start:stop:step' or a list, got {spec!r}") from None
        if not step > 0 or b < a:
            raise ValueError(f"density: range {spec!r} needs step > 0 and stop >= start")
        n = int(math.floor((b - a) / step + 1e-9)) + 1
        # rounding keeps 0.1*3 from becoming 0.30000000000000004 in files and labels
        return [round(a + i * step, 10) for i in range(n)]
    try:
        return [float(v) for v in s.split(",") if v]
    except ValueError:
        raise ValueError(f"density: expected numbers, got {spec!r}") from None


def _as_list(x, name):
    if x is None:
        return None
    if isinstance(x, str):
        x = [v for v in x.replace(" ", "").split(",") if v]
    elif not isinstance(x, (list, tuple, np.ndarray)) or (
            name == "sizes" and isinstance(x, tuple) and len(x) == 2
            and all(isinstance(v, numbers.Integral) for v in x)):
        x = [x]  # a scalar, or one (H, W) pair
    x = list(x)
    if not x:
        raise ValueError(f"{name}: empty list; the grid is the product of the lists, so every "
                         f"list needs at least one value")
    return x


def _members(agents, mine_count):
    """[(agent, mine_count)] of each board, from a list or an {agent: list} dict."""
    out = []
    for a in agents:
        if not isinstance(a, str) or a not in AGENTS:
            raise ValueError(f"agents: unknown agent {a!r}; known agents: {', '.join(AGENTS)}")
        mc = mine_count.get(a, [False]) if isinstance(mine_count, dict) else mine_count
        mc = _as_list(mc, "mine_count")
        for v in mc:
            if not isinstance(v, (bool, np.bool_)):
                raise ValueError(f"mine_count: expected True/False values, got {v!r}")
            if (a, bool(v)) not in out:
                out.append((a, bool(v)))
    if isinstance(mine_count, dict):
        extra = set(mine_count) - set(agents)
        if extra:
            raise ValueError(f"mine_count: agents {sorted(extra)} are not in agents={agents}")
    return out


def _label(member):
    return f"{member[0]}:{int(member[1])}"


def chunk_size(cells, chunk_games=None) -> int:
    """Games per chunk: given, or about 20,000 cell-games (10..250) so a chunk is a
    fraction of a second whatever the board (a deterministic function of the board)."""
    if chunk_games is not None:
        return chunk_games
    return int(min(250, max(10, math.ceil(20_000 / cells))))


def _resolve(agents, sizes, densities, mines, rules, mine_count, games, ci, min_games,
             max_games, seed, first_click, first_cell, chunk_games):
    """Validate everything; return (params dict, boards list). Writes nothing."""
    agents = _as_list(agents, "agents")
    members = _members(agents, mine_count)
    sizes = [parse_size(s) for s in _as_list(sizes, "sizes")]
    if (densities is None) == (mines is None):
        raise ValueError("densities/mines: give exactly one of densities=[...] or mines=[...]")
    if isinstance(densities, str):
        densities = parse_range(densities)
    densities = _as_list(densities, "densities")
    mines = _as_list(mines, "mines")
    if mines is not None:
        mines = [int(m) if isinstance(m, str) and m.isdigit() else m for m in mines]
    rules = _as_list(rules, "rules")
    seed = check_seed(seed)
    if (games is None) == (ci is None):
        raise ValueError("games/ci: give exactly one of games=N (fixed) or ci=HALF_WIDTH "
                         "(adaptive precision of the mean score)")
    if games is not None:
        games = check_games(games)
    else:
        if (not isinstance(ci, numbers.Real) or isinstance(ci, bool) or not math.isfinite(ci)
                or ci <= 0):
            raise ValueError(f"ci: must be a finite number > 0 (a 95% CI half-width of the mean "
                             f"score, e.g. 0.005), got {ci!r}")
        ci = float(ci)
        min_games = check_games(min_games, "min_games")
        max_games = check_games(max_games, "max_games")
        if min_games < 2 or max_games < min_games:
            raise ValueError(f"min_games/max_games: need 2 <= min_games <= max_games, got "
                             f"{min_games} and {max_games}")
    if chunk_games is not None:
        chunk_games = check_games(chunk_games, "chunk_games")
    boards = []
    for (h, w), x, r in product(sizes, densities if densities is not None else mines, rules):
        kw = dict(density=x) if densities is not None else dict(mines=x)
        cfgs = [make_config(a, (h, w), rules=r, first_click=first_click, first_cell=first_cell,
                            mine_count=mc, **kw) for a, mc in members]
        c0 = cfgs[0]
        boards.append(dict(
            height=h, width=w, mines=c0.mines, rules=r, first_click=c0.first_click,
            first_cell=c0.first_cell if isinstance(c0.first_cell, str) else list(c0.first_cell),
            density=float(x) if densities is not None else c0.mines / (h * w),
            chunk=chunk_size(h * w, chunk_games), cfgs=cfgs))
    # plain Python numbers so params.json round-trips exactly (numpy scalars do not)
    densities = [float(d) for d in densities] if densities is not None else None
    mines = [int(m) for m in mines] if mines is not None else None
    params = dict(
        format=FORMAT, agents=agents, members=[[a, mc] for a, mc in members],
        sizes=[list(s) for s in sizes], densities=densities, mines=mines, rules=rules,
        first_click=first_click,
        first_cell=list(first_cell) if isinstance(first_cell, tuple) else first_cell,
        seed=seed, games=games, ci=ci, min_games=min_games if ci else None,
        max_games=max_games if ci else None, chunk_games=chunk_games)
    return params, boards


# ---------------------------------------------------------------- worker side

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


# ---------------------------------------------------------------- output folder

def _fsync_write(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


class _Store:
    """The output folder: parameters, appended chunk records, per-game files, summaries."""

    def __init__(self, path, params, per_game):
        self.path = path
        self.per_game = per_game
        self.chunks = os.path.join(path, "chunks.jsonl")
        pfile = os.path.join(path, "params.json")
        if os.path.exists(pfile):
            with open(pfile) as f:
                old = json.load(f)
            if old != params:
                diff = sorted(k for k in set(old) | set(params) if old.get(k) != params.get(k))
                raise ValueError(
                    f"out: {path} holds a sweep with different parameters ({', '.join(diff)}); "
                    f"re-run with the same arguments to resume, or choose a new folder")
        elif os.path.isdir(path) and os.listdir(path):
            raise ValueError(f"out: {path} exists, is not empty and has no params.json; "
                             f"choose a new or empty folder")
        os.makedirs(path, exist_ok=True)
        if not os.path.exists(pfile):
            _fsync_write(pfile, json.dumps(params, indent=1) + "\n")
        if per_game:
            os.makedirs(os.path.join(path, "per_game"), exist_ok=True)

    def load(self):
        """Finished chunk records; a torn last line (crash mid-write) is cut off."""
        if not os.path.exists(self.chunks):
            return []
        with open(self.chunks, "rb") as f:
            data = f.read()
        end = data.rfind(b"\n") + 1
        if end < len(data):
            with open(self.chunks, "r+b") as f:
                f.truncate(end)
        return [json.loads(line) for line in data[:end].decode().splitlines() if line.strip()]

    def append(self, results):
        if self.per_game:
            for rec, df in results:
                p = os.path.join(self.path, "per_game", f"b{rec['b']:05d}_k{rec['k']:06d}.csv")
                df.to_csv(p + ".tmp", index=False)
                os.replace(p + ".tmp", p)
        text = "".join(json.dumps(rec, separators=(",", ":")) + "\n" for rec, _ in results)
        # one write + fsync per batch: a line is either complete or cut off and dropped
        with open(self.chunks, "a") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())


def _append(store, results):
    if store is not None:
        store.append(results)


# ---------------------------------------------------------------- scheduling

class _Plan:
    """Chunks each board needs and the prefix stopping rule (pure bookkeeping)."""

    def __init__(self, params, boards):
        self.p = params
        self.boards = boards
        self.labels = [_label(tuple(m)) for m in params["members"]]
        self.recs = [dict() for _ in boards]
        self.prefix = [0] * len(boards)
        self.sched = [0] * len(boards)
        nb = len(boards)
        if params["games"] is not None:
            self.kmax = [math.ceil(params["games"] / b["chunk"]) for b in boards]
            self.kmin = list(self.kmax)
            self.kstar = [[k] * len(self.labels) for k in self.kmax]
        else:
            self.kmax = [math.ceil(params["max_games"] / b["chunk"]) for b in boards]
            self.kmin = [math.ceil(params["min_games"] / b["chunk"]) for b in boards]
            self.kstar = [[None] * len(self.labels) for _ in range(nb)]
        self.acc = [[[0, 0, 0] for _ in self.labels] for _ in range(nb)]
        self.ev = [0] * nb
        self.cap = self.p["games"] if self.p["games"] is not None else self.p["max_games"]

    def games_in(self, b, k):
        c = self.boards[b]["chunk"]
        return min(c, self.cap - k * c)

    def add(self, rec):
        b, k = rec["b"], rec["k"]
        if k not in self.recs[b]:
            self.recs[b][k] = rec
        while self.prefix[b] in self.recs[b]:
            self.prefix[b] += 1

    def evaluate(self, b):
        """Advance the stopping rule of board ``b`` over its finished prefix."""
        if self.p["ci"] is None:
            return
        scale = max(self.boards[b]["mines"], 1)
        while self.ev[b] < self.prefix[b]:
            k = self.ev[b]
            rec = self.recs[b][k]
            for j, lab in enumerate(self.labels):
                if self.kstar[b][j] is not None:
                    continue
                if lab not in rec["m"]:
                    raise ValueError(f"out: chunk {k} of board {b} lacks {lab}; the folder's "
                                     f"records are inconsistent, use a new folder")
                a, m = self.acc[b][j], rec["m"][lab]
                a[0] += m["n"]
                a[1] += m["x1"]
                a[2] += m["x2"]
                _, s = stats.moments(a[0], a[1], a[2], scale)
                if a[0] >= self.p["min_games"] and stats.half_width(a[0], s) <= self.p["ci"]:
                    self.kstar[b][j] = k + 1
                elif k + 1 >= self.kmax[b]:
                    self.kstar[b][j] = k + 1
            self.ev[b] += 1

    def done(self, b):
        return all(v is not None for v in self.kstar[b]) and all(
            k in self.recs[b] for k in range(max(self.kstar[b])))

    def new_chunks(self, b):
        """Chunk indices of board ``b`` to schedule now (none already scheduled/recorded)."""
        if self.p["ci"] is None:
            ks = range(self.sched[b], self.kmax[b])
            self.sched[b] = self.kmax[b]
            return [k for k in ks if k not in self.recs[b]]
        active = [j for j, v in enumerate(self.kstar[b]) if v is None]
        if not active:
            return []
        c = self.boards[b]["chunk"]
        scale = max(self.boards[b]["mines"], 1)
        target = self.kmin[b]
        for j in active:
            n, x1, x2 = self.acc[b][j]
            _, s = stats.moments(n, x1, x2, scale)
            if n >= 2 and s == s:
                need = (stats.Z95 * s / self.p["ci"]) ** 2  # games for the target half-width
                target = max(target, math.ceil(need / c))
        pre = self.prefix[b]
        if self.sched[b] <= pre:  # nothing in flight: always move on, a bit beyond
            target = max(target, pre + max(1, math.ceil(0.1 * pre)))
        target = min(target, self.kmax[b])
        start = max(self.sched[b], pre)
        self.sched[b] = max(self.sched[b], target)
        return [k for k in range(start, target) if k not in self.recs[b]]

    def members_needing(self, b, k):
        return [j for j, v in enumerate(self.kstar[b]) if v is None or v > k]


# ---------------------------------------------------------------- the driver

def sweep(agents, sizes, densities=None, mines=None, rules="keep-going",
          mine_count=(False, True), games=None, ci=None, min_games=200, max_games=100_000,
          seed=0, workers=None, backend="process", scheduler=None, out=None,
          first_click=None, first_cell=None, chunk_games=None, per_game=False, quiet=False,
          timeout=10.0) -> SweepResult:
    """Play the grid ``agents x mine_count x sizes x (densities | mines) x rules``.

    Parameters
    ----------
    agents : list of str (or "a,b")
        Names from ``fastsweep.AGENTS``.
    sizes : list of int, (H, W) or "HxW"
    densities, mines : list (exactly one)
        Mine densities in [0, 1] (a string ``"0.05:0.95:0.05"`` is an inclusive range) or
        mine counts.
    rules : str or list of {"keep-going", "classic"}
    mine_count : list of bool, or dict agent -> list of bool
        Whether agents are told the mine total; a dict sets it per agent.
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
        Output folder; re-running with the same arguments resumes.
    chunk_games : int
        Games per chunk (default: about 20,000 cell-games, 10..250).
    per_game : bool
        Also write every game's row under ``out/per_game/``.
    timeout : float
        Seconds to wait for a Dask scheduler.

    Returns
    -------
    SweepResult with ``summary`` (one row per configuration) and ``pairs`` (paired
    differences B - A of mean score on the same games, for every pair of members).

    Example
    -------
    >>> import fastsweep
    >>> r = fastsweep.sweep(["basic"], 16, densities=[0.1, 0.2], games=200, workers=1)
    >>> r.summary[["density", "mine_count", "games"]].values.tolist()  # doctest: +SKIP
    [[0.1, False, 200], [0.1, True, 200], [0.2, False, 200], [0.2, True, 200]]
    """
    params, boards = _resolve(agents, sizes, densities, mines, rules, mine_count, games, ci,
                              min_games, max_games, seed, first_click, first_cell, chunk_games)
    if workers is None:
        workers = os.cpu_count() or 1
    if not isinstance(workers, numbers.Integral) or isinstance(workers, bool) or workers < 1:
        raise ValueError(f"workers: must be an integer >= 1, got {workers!r}")
    if backend not in BACKENDS:
        raise ValueError(f"backend: unknown backend {backend!r}; allowed: {', '.join(BACKENDS)}")
    if scheduler is not None:
        if backend != "dask":
            raise ValueError("scheduler: only used with backend='dask'")
        if not isinstance(scheduler, str) or ":" not in scheduler:
            raise ValueError(f"scheduler: expected an address like tcp://HOST:PORT, got "
                             f"{scheduler!r}")
    if per_game and out is None:
        raise ValueError("per_game: needs an output folder (out=...)")
    if not isinstance(timeout, numbers.Real) or not timeout > 0:
        raise ValueError(f"timeout: must be a number of seconds > 0, got {timeout!r}")

    ex = None
    if backend == "dask" and scheduler is not None:
        # reach the scheduler before touching the output folder: an unreachable address
        # fails cleanly and writes nothing
        ex = Dask(workers, scheduler, params["agents"], timeout)
    try:
        return _sweep(params, boards, out, per_game, workers, backend, scheduler, timeout,
                      quiet, ex)
    finally:
        if ex is not None:
            ex.close()


def _sweep(params, boards, out, per_game, workers, backend, scheduler, timeout, quiet, ex):
    store = _Store(out, params, per_game) if out is not None else None
    plan = _Plan(params, boards)
    for rec in (store.load() if store else []):
        if rec["b"] >= len(boards) or rec["k"] >= plan.kmax[rec["b"]]:
            raise ValueError(f"out: {out}/chunks.jsonl has a chunk outside this grid; "
                             f"use a new folder")
        plan.add(rec)
    pending = deque()
    for b in range(len(boards)):
        plan.evaluate(b)
        pending.extend((b, k) for k in plan.new_chunks(b))
    if pending:
        _execute(plan, pending, params, store, workers, backend, scheduler, timeout, quiet, ex)
    result = summarize(plan)
    result.path = out
    if store is not None:
        _fsync_write(os.path.join(out, "summary.csv"), result.summary.to_csv(index=False))
        _fsync_write(os.path.join(out, "pairs.csv"), result.pairs.to_csv(index=False))
    return result


def _execute(plan, pending, params, store, workers, backend, scheduler, timeout, quiet, ex):
    """Run pending chunks on the backend, record them as they finish, extend adaptively."""
    agents = params["agents"]
    warm_up(agents)  # compile in the parent (cache=True) before any worker exists
    if ex is not None:
        pass  # a connected remote Dask client; the caller closes it
    elif backend == "dask":
        ex = Dask(workers, scheduler, agents, timeout)
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


# ---------------------------------------------------------------- summaries

def summarize(plan) -> SweepResult:
    """Per-configuration and paired summaries over each configuration's chunk prefix."""
    rows, prows = [], []
    for b, bd in enumerate(plan.boards):
        if not plan.done(b):
            raise ValueError(f"out: board {b} is unfinished; re-run the sweep to complete it")
        scale = max(bd["mines"], 1)
        fc = bd["first_cell"] if isinstance(bd["first_cell"], str) else ",".join(
            map(str, bd["first_cell"]))
        key = dict(board=b, height=bd["height"], width=bd["width"], mines=bd["mines"],
                   density=bd["density"], rules=bd["rules"], first_click=bd["first_click"],
                   first_cell=fc)
        for j, lab in enumerate(plan.labels):
            ks = plan.kstar[b][j]
            t = {s: 0 for s in _STATS}
            sec = 0.0
            for k in range(ks):
                m = plan.recs[b][k]["m"][lab]
                for s in _STATS:
                    t[s] += m[s]
                sec += m["sec"]
            n = t["n"]
            mean, sd = stats.moments(n, t["x1"], t["x2"], scale)
            h = stats.half_width(n, sd)
            wl, wh = stats.wilson(t["wins"], n)
            agent, mc = plan.p["members"][j]
            rows.append(dict(
                key, agent=agent, mine_count=mc, games=n, mean_score=mean, std_score=sd,
                ci_low=mean - h, ci_high=mean + h, ci_half=h, win_rate=t["wins"] / n,
                win_low=wl, win_high=wh, mean_guesses=t["guess"] / n,
                mean_detonations=t["det"] / n, mean_moves=t["moves"] / n,
                mean_wrong_flags=t["wrong"] / n, approx_steps=t["approx"],
                hit_cap=plan.p["ci"] is not None and not (
                    n >= plan.p["min_games"] and h <= plan.p["ci"]),
                us_per_game=sec / n * 1e6, ci_method=stats.CI_METHOD))
        for i, j in ((i, j) for i in range(len(plan.labels)) for j in range(i + 1, len(plan.labels))):
            ks = min(plan.kstar[b][i], plan.kstar[b][j])
            key_p = f"{plan.labels[i]}|{plan.labels[j]}"
            n = d1 = d2 = 0
            for k in range(ks):
                rec = plan.recs[b][k]
                d1 += rec["p"][key_p][0]
                d2 += rec["p"][key_p][1]
                n += rec["games"]
            m, sd, lo, hi = stats.paired_diff(n, d1, d2, scale)
            # for contrast: the half-width if the two means were independent samples
            ra, rb = rows[-len(plan.labels) + i], rows[-len(plan.labels) + j]
            unpaired = stats.Z95 * math.sqrt(ra["std_score"] ** 2 / ra["games"]
                                             + rb["std_score"] ** 2 / rb["games"])
            (aa, ma), (ab, mb) = plan.p["members"][i], plan.p["members"][j]
            prows.append(dict(key, agent_a=aa, mine_count_a=ma, agent_b=ab, mine_count_b=mb,
                              games=n, mean_diff=m, std_diff=sd, ci_low=lo, ci_high=hi,
                              ci_half=(hi - lo) / 2, unpaired_half=unpaired,
                              ci_method=stats.CI_METHOD))
    return SweepResult(pd.DataFrame(rows), pd.DataFrame(prows), plan.p)


def load(out) -> SweepResult:
    """Summaries of a finished sweep folder (recomputed from its chunk records).

    >>> r = load("results/headline")  # doctest: +SKIP
    """
    pfile = os.path.join(out, "params.json")
    if not os.path.exists(pfile):
        raise ValueError(f"out: {out} is not a sweep folder (no params.json)")
    with open(pfile) as f:
        p = json.load(f)
    members = {}
    for a, mc in p["members"]:
        members.setdefault(a, []).append(mc)
    fc = tuple(p["first_cell"]) if isinstance(p["first_cell"], list) else p["first_cell"]
    params, boards = _resolve(p["agents"], [tuple(s) for s in p["sizes"]], p["densities"],
                              p["mines"], p["rules"], members, p["games"], p["ci"],
                              p["min_games"] or 200, p["max_games"] or 100_000, p["seed"],
                              p["first_click"], fc, p["chunk_games"])
    plan = _Plan(p, boards)
    with open(os.path.join(out, "chunks.jsonl")) as f:
        for line in f:
            if line.endswith("\n"):
                plan.add(json.loads(line))
    for b in range(len(boards)):
        plan.evaluate(b)
    r = summarize(plan)
    r.path = out
    return r

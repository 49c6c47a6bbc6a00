"""Studies of many cells (agent x board x options), as the reports' and the noise
studies run them (scripts/studies/reports.py, noise_study.py): :func:`play_cell` plays
one cell and returns its CSV row (scores, win rate, cost, guess share, wrong flags and
dropped clues, each with a 95% CI); :func:`run_study` plays the cells not yet in the
study's CSV on :func:`fastsweep.sweep.run.tasks.run_tasks` (one row appended as each cell
finishes, the longest first; a rerun skips the cells already there); :func:`study_main`
is the scripts' command line.

Game i of a board is the same for every agent (the cell's seed is the study's), and a
cell's numbers do not depend on the number of workers.
"""
from __future__ import annotations

import os
import time

import numpy as np

from ..kernels.engine import game as kg
from ..options import make_config
from ..runner import play_chunk, scores
from ..stats import sample_ci, win_ci
from ..sweep.run.tasks import run_tasks
from .rows import RowFile
from .script_args import parse, parser, write_run

KEY = ("report", "agent", "options", "height", "width", "mines", "rules", "mine_count")
QUICK_GAMES = 10

FIELDS = ["report", "agent", "options", "height", "width", "mines", "density", "rules",
          "mine_count", "games", "score", "score_low", "score_high", "win_rate", "win_low",
          "win_high", "wins_first50", "cost", "cost_low", "cost_high", "guess_share",
          "guess_low", "guess_high", "wrong_flags", "safe_detonations", "approx_steps",
          "seconds_per_game", "seed", "wrong_rate", "wrong_low", "wrong_high",
          "clues_dropped", "safe_det_rate"]


def _opts(extra):
    return ";".join(f"{k}={v[0]},{v[1]}" if isinstance(v, tuple) else f"{k}={v}"
                    for k, v in sorted(extra.items()))


def play_cell(report, agent, size, count, rules, mc, extra, games, seed):
    """Play one cell; returns its CSV row."""
    cfg = _config(agent, size, count, rules, mc, extra)
    play_chunk(cfg, seed, 0, 1)  # loads the compiled kernels: not part of the timing
    t0 = time.perf_counter()
    out, _, _ = play_chunk(cfg, seed, 0, games)
    dt = time.perf_counter() - t0
    # (each interval is fastsweep.stats.sample_ci over the values' known range)
    s, slo, shi = sample_ci(scores(out), 0, 1)
    won = out[:, kg.OUT_WON].astype(bool)
    _, wl, wh = win_ci(int(won.sum()), games)
    m = max(cfg.mines, 1)
    cost, clo, chi = sample_ci(out[:, kg.OUT_DETONATED] / m, 0, 1)  # (each mine once)
    # wrong flags (only under noise) per mine, the unit of the score: at most the safe cells
    wr, wrl, wrh = sample_ci(out[:, kg.OUT_WRONG_FLAGS] / m, 0, max(cfg.cells - m, 1) / m)
    # guesses include the opening move; a move is a reveal, flag or guess
    g, glo, ghi = sample_ci(out[:, kg.OUT_GUESSES] / np.maximum(out[:, kg.OUT_MOVES], 1), 0, 1)
    return dict(report=report, agent=agent, options=_opts(extra), height=cfg.height,
                width=cfg.width, mines=cfg.mines, density=round(cfg.mines / cfg.cells, 4),
                rules=rules, mine_count=mc, games=games, score=s, score_low=slo,
                score_high=shi, win_rate=won.mean(), win_low=wl, win_high=wh,
                wins_first50=int(won[:50].sum()), cost=cost, cost_low=clo, cost_high=chi,
                guess_share=g, guess_low=glo, guess_high=ghi,
                wrong_flags=int(out[:, kg.OUT_WRONG_FLAGS].sum()),
                safe_detonations=int(out[:, kg.OUT_SAFE_DETONATIONS].sum()),
                approx_steps=int(out[:, kg.OUT_APPROX].sum()),
                seconds_per_game=dt / games, seed=seed, wrong_rate=wr, wrong_low=wrl,
                wrong_high=wrh, clues_dropped=out[:, kg.OUT_DROPPED].mean(),
                safe_det_rate=out[:, kg.OUT_SAFE_DETONATIONS].mean() / m)


def _config(agent, size, count, rules, mc, extra):
    kw = {"mines": count[1]} if isinstance(count, tuple) else {"density": count}
    return make_config(agent, size, rules=rules, mine_count=mc, **extra, **kw)


def _key(name, cfg, agent, rules, mc, extra):
    return (name, agent, _opts(extra), cfg.height, cfg.width, cfg.mines, rules, mc)


def tiny(cells):
    """The cells of a ``--quick`` run: for each player (agent, options, rules, mine
    total), its cell on the smallest board at the fewest mines."""
    best = {}
    for c in cells:
        agent, size, count, rules, mc, extra = c
        cfg = _config(*c)
        who = (agent, _opts(extra), rules, mc)
        if who not in best or (cfg.cells, cfg.mines) < best[who][0]:
            best[who] = ((cfg.cells, cfg.mines), c)
    return [c for _, c in best.values()]


def run_study(name, cells, games, workers, out, seed, slow=None, default=None):
    """Play every cell of ``cells`` (agent, size, density or ("mines", m), rules,
    mine_count, extra options) not yet in ``out/<name>.csv``, ``games`` games each
    (other counts for agents in ``slow``: {agent, (study, agent, width) or (study, agent,
    width, "aware") for noise-aware play: games}), on ``workers`` processes; the file's
    rows end in the order of ``cells``. Returns the path.

    A count in ``slow`` below ``games`` lowers it; one above it (a cell made cheap enough
    to play more) raises it, when ``games`` is the study's ``default`` (a ``--games`` or
    ``--quick`` asking for fewer caps every cell)."""
    slow = slow or {}
    more = {k: v for k, v in slow.items() if v > games and games == default}
    path = os.path.join(out, f"{name}.csv")
    rows = RowFile(path, FIELDS, KEY)
    todo, order = [], []
    for agent, size, count, rules, mc, extra in cells:
        cfg = _config(agent, size, count, rules, mc, extra)
        key = _key(name, cfg, agent, rules, mc, extra)
        order.append(key)
        if rows.done(key):
            continue
        n = min(games, slow.get(agent, games), slow.get((name, agent, cfg.width), games))
        if cfg.noise_aware:
            n = min(n, slow.get((name, agent, cfg.width, "aware"), games))
            n = more.get((name, agent, cfg.width, "aware"), n)
        # (a rough cost for the order: slow agents and noise-aware ones take ~50x longer)
        heavy = agent in slow or (cfg.noise_aware and agent in ("inference", "probability"))
        todo.append((cfg.cells * n * (50 if heavy else 1),
                     (name, agent, size, count, rules, mc, extra, n, seed)))
    todo.sort(key=lambda t: -t[0])  # the longest first: the workers end together
    with rows:
        for i, (_, row) in enumerate(run_tasks(play_cell, [t for _, t in todo], workers)):
            rows.add(row)
            print(f"[{name} {i + 1}/{len(todo)}] {row['agent']} {row['options']} "
                  f"{row['height']}x{row['width']}/{row['mines']} {row['rules']} "
                  f"total={row['mine_count']}: score {row['score']:.4f} win "
                  f"{row['win_rate']:.4f} ({row['seconds_per_game'] * 1e3:.2f} ms/game)",
                  flush=True)
    rows.sort(order)
    return path


def study_main(argv, name, doc, studies, games, seed, slow, draw_all):
    """The command line of a study script ``name`` (reports, noise_study): the shared
    options (:mod:`.script_args`) and ``--only``, ``--games``; plays the studies asked
    for into ``--out``, draws their figures with ``draw_all(out, names)`` and writes
    run.json. ``--quick``: :func:`tiny` cells, a few games each."""
    ap = parser(name, doc)
    ap.add_argument("--only", default=",".join(studies),
                    help=f"comma list of studies: {', '.join(studies)}")
    ap.add_argument("--games", type=int, default=games, help=f"games a cell (default {games})")
    a = parse(ap, argv)
    names = a.only.split(",")
    bad = [n for n in names if n not in studies]
    if bad:
        ap.error(f"--only: unknown studies {bad}; known: {', '.join(studies)}")
    if a.games < 1:
        ap.error(f"--games: must be at least 1, got {a.games}")
    if a.quick:
        a.games = min(a.games, QUICK_GAMES)
    for n in names:
        t0 = time.time()
        cells = tiny(studies[n]) if a.quick else studies[n]
        path = run_study(n, cells, a.games, a.workers, a.out, seed, slow, games)
        print(f"{n}: {path} in {time.time() - t0:.0f} s", flush=True)
    for f in draw_all(a.out, names):
        print("wrote", f)
    print("wrote", write_run(a, studies=names, games=a.games, seed=seed))

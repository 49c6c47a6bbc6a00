"""Resumable studies of many cells (agent x board x options): play a cell, write its row.

Shared by ``reports.py`` and ``noise_study.py``. A study is one CSV with one row per cell
(scores, win rate, cost, guess share, wrong flags and dropped clues, each with a 95% CI),
appended as each cell finishes, so an interrupted run loses nothing and a rerun skips the
cells already there. Cells run on a process pool, the longest first.
"""
from __future__ import annotations

import argparse
import csv
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

import numpy as np

from fastsweep.options import make_config
from fastsweep.kernels.engine import game as kg
from fastsweep.runner import play_chunk, scores
from fastsweep.stats import mean_ci, wilson

FIELDS = ["report", "agent", "options", "height", "width", "mines", "density", "rules",
          "mine_count", "games", "score", "score_low", "score_high", "win_rate", "win_low",
          "win_high", "wins_first50", "cost", "cost_low", "cost_high", "guess_share",
          "guess_low", "guess_high", "wrong_flags", "safe_detonations", "approx_steps",
          "seconds_per_game", "seed", "wrong_rate", "wrong_low", "wrong_high",
          "clues_dropped", "safe_det_rate"]


def _key(report, agent, opts, h, w, mines, rules, mc):
    return (report, agent, opts, int(h), int(w), int(mines), rules, str(mc) == "True")


def _opts(extra):
    return ";".join(f"{k}={v[0]},{v[1]}" if isinstance(v, tuple) else f"{k}={v}"
                    for k, v in sorted(extra.items()))


def play_cell(report, agent, size, count, rules, mc, extra, games, seed):
    """Play one cell; returns its CSV row."""
    kw = dict(extra)
    if isinstance(count, tuple):
        kw["mines"] = count[1]
    else:
        kw["density"] = count
    cfg = make_config(agent, size, rules=rules, mine_count=mc, **kw)
    play_chunk(cfg, seed, 0, 1)  # loads the compiled kernels: not part of the timing
    t0 = time.perf_counter()
    out, _, _ = play_chunk(cfg, seed, 0, games)
    dt = time.perf_counter() - t0
    s, slo, shi = mean_ci(scores(out))
    won = out[:, kg.OUT_WON].astype(bool)
    wl, wh = wilson(int(won.sum()), games)
    m = max(cfg.mines, 1)
    cost, clo, chi = mean_ci(out[:, kg.OUT_DETONATED] / m)
    # wrong flags (only under noise) per mine, the unit of the score
    wr, wrl, wrh = mean_ci(out[:, kg.OUT_WRONG_FLAGS] / m)
    # guesses include the opening move; a move is a reveal, flag or guess
    g, glo, ghi = mean_ci(out[:, kg.OUT_GUESSES] / np.maximum(out[:, kg.OUT_MOVES], 1))
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


def _done(path):
    if not os.path.exists(path):
        return set()
    with open(path) as f:
        return {_key(r["report"], r["agent"], r["options"], r["height"], r["width"], r["mines"],
                     r["rules"], r["mine_count"]) for r in csv.DictReader(f)}


def run_study(name, cells, games, workers, out, seed, slow=None):
    """Play every cell of ``cells`` (agent, size, density or ("mines", m), rules,
    mine_count, extra options) not yet in ``out/<name>.csv``, ``games`` games each
    (fewer for agents in ``slow``: {agent, (study, agent, width) or (study, agent, width,
    "aware") for noise-aware play: games}); returns the path."""
    slow = slow or {}
    path = os.path.join(out, f"{name}.csv")
    done = _done(path)
    todo = []
    for agent, size, count, rules, mc, extra in cells:
        kw = {"mines": count[1]} if isinstance(count, tuple) else {"density": count}
        cfg = make_config(agent, size, rules=rules, mine_count=mc,
                          **{k: v for k, v in extra.items()}, **kw)
        if _key(name, agent, _opts(extra), cfg.height, cfg.width, cfg.mines, rules,
                mc) in done:
            continue
        n = min(games, slow.get(agent, games), slow.get((name, agent, cfg.width), games))
        if cfg.noise_aware:
            n = min(n, slow.get((name, agent, cfg.width, "aware"), games))
        # (a rough cost for the order: slow agents and noise-aware ones take ~50x longer)
        heavy = agent in slow or (cfg.noise_aware and agent in ("inference", "probability"))
        todo.append((cfg.cells * n * (50 if heavy else 1),
                     (name, agent, size, count, rules, mc, extra, n, seed)))
    todo.sort(key=lambda t: -t[0])  # the longest first: the pool ends together
    new = not os.path.exists(path)
    fields = FIELDS
    if not new:  # a file written before a column was added keeps its columns
        with open(path) as f:
            fields = next(csv.reader(f))
    with open(path, "a", newline="") as f, ProcessPoolExecutor(workers) as pool:
        wr = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        if new:
            wr.writeheader()
        futs = [pool.submit(play_cell, *args) for _, args in todo]
        for i, fut in enumerate(as_completed(futs)):
            row = fut.result()
            wr.writerow(row)
            f.flush()
            print(f"[{name} {i + 1}/{len(futs)}] {row['agent']} {row['options']} "
                  f"{row['height']}x{row['width']}/{row['mines']} {row['rules']} "
                  f"total={row['mine_count']}: score {row['score']:.4f} win "
                  f"{row['win_rate']:.4f} ({row['seconds_per_game'] * 1e3:.2f} ms/game)",
                  flush=True)
    return path




def study_main(argv, doc, studies, kind, games, seed, slow, draw_all):
    """The command line of a study script (``kind``: its results folder's name, e.g.
    "reports"): --only, --games, --workers, --out, --quick; runs the studies asked for,
    then draws their figures with ``draw_all(out, names)``."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--only", default=",".join(studies),
                    help=f"comma list of studies: {', '.join(studies)}")
    ap.add_argument("--games", type=int, default=games)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", default=None, help=f"folder (default results/{kind}, "
                    f"with --quick out/{kind}-quick)")
    ap.add_argument("--quick", action="store_true", help="20 games a cell (a smoke run)")
    a = ap.parse_args(argv)
    if a.quick:
        a.games = 20
    a.out = a.out or (f"out/{kind}-quick" if a.quick else f"results/{kind}")
    names = a.only.split(",")
    bad = [n for n in names if n not in studies]
    if bad:
        ap.error(f"--only: unknown studies {bad}; known: {', '.join(studies)}")
    os.makedirs(a.out, exist_ok=True)
    for name in names:
        t0 = time.time()
        path = run_study(name, studies[name], a.games, a.workers, a.out, seed, slow)
        print(f"{name}: {path} in {time.time() - t0:.0f} s", flush=True)
    for f in draw_all(a.out, names):
        print("wrote", f)


def figures_main(argv, doc, default_out, names, draw_all):
    """The command line of a figure script: --out (the study's folder) and --only (its
    figures, among ``names``); draws them with ``draw_all(out, names)``."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--out", default=default_out)
    ap.add_argument("--only", default=",".join(names))
    a = ap.parse_args(argv)
    for f in draw_all(a.out, a.only.split(",")):
        print("wrote", f)

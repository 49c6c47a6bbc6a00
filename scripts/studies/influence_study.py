"""Chains of influence against mine density (Dhurandhar's report): per guess, the cells
decided after it, its longest chain of deductions and its reach, with what was known
about the guessed cell beforehand.

For each agent (basic, inference), board (9x9, 16x16) and density (0.05..0.30), plays
traced games (keep-going rules, the default opening: a random cell) and writes one row
per guess (the opening included) to ``OUT/points/<point>.csv.gz`` as each point
finishes, so a rerun skips the finished points; then ``OUT/guesses.csv.gz`` (all rows),
``OUT/summary.csv`` (per point: quartiles of the game's longest chain and reach, and per
guess means), the figures and numbers.txt (``influence_figures.py``) and
``OUT/run.json``.

The guessed cell's features come from the view before the guess: its exact mine
probability given the view and the mine total (``fastsweep.mine_probabilities``; the
agents, not told the total, guess at random among the undetermined cells, so this is a
measurement, not what they saw), whether it touches a revealed clue (frontier), its
hidden neighbours and its neighbours on the board.

Points run on ``--workers`` processes (``fastsweep.sweep.run.tasks``); a point's rows do
not depend on the number of workers. The committed results/influence/ is made by
scripts/reproduce.py (default ``--out``: out/influence_study/).

    python3 scripts/studies/influence_study.py --workers 1   # ~10 min
    python3 scripts/studies/influence_study.py --quick       # seconds: 2 densities, 2 games
"""
from __future__ import annotations

import os
import time

import numpy as np
import pandas as pd

import fastsweep
from fastsweep.studies import influence as fi
from fastsweep.studies.script_args import parse, parser, write_run
from fastsweep.sweep.run.tasks import run_tasks

AGENTS = ("basic", "inference")
DENSITIES = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3)
GAMES = {9: 300, 16: 100}  # games per point (the default run: about 10 minutes, 1 worker)
QUICK = {9: 2, 16: 1}  # (and only the densities QUICK_DENSITIES)
QUICK_DENSITIES = (0.1, 0.2)
SEED = 2017


def _views_before(moves, h, w, js):
    """The views (-1 hidden, -2 known mine, else the clue) before each move in ``js``."""
    cells = moves["cell_index"].to_numpy()
    codes = np.where((moves["kind"].to_numpy() == 1) | (moves["out"].to_numpy() == -1), -2,
                     moves["out"].to_numpy())
    view = np.full(h * w, -1, np.int8)
    out, done = {}, 0
    for j in sorted(js):
        view[cells[done:j]] = codes[done:j]
        done = j
        out[j] = view.reshape(h, w).copy()
    return out


def _neighbours(view, r, c):
    h, w = view.shape
    nb = view[max(r - 1, 0):r + 2, max(c - 1, 0):c + 2]
    return nb.size - 1, int((nb == -1).sum()) - 1, bool((nb >= 0).any())


def play_point(agent, size, density, games, seed):
    """Every guess of ``games`` games of one point, as rows."""
    rows = []
    for g in range(games):
        t0 = time.perf_counter()
        t = fastsweep.play(agent, size, density=density, seed=seed, game=g)
        edges = fi.influence_graph(t)
        inf = fi.influence(t, edges)
        h, w, m = t.config.height, t.config.width, t.result["mines"]
        views = _views_before(t.moves, h, w, (inf["move"] - 1).tolist())
        dt = time.perf_counter() - t0
        for k, gs in enumerate(inf.itertuples(index=False)):
            view = views[gs.move - 1]
            p = fastsweep.mine_probabilities(view, mines=m)[gs.row, gs.col]
            nb, hidden_nb, frontier = _neighbours(view, gs.row, gs.col)
            rows.append(dict(
                agent=agent, height=h, width=w, mines=m, density=density, game=g,
                move=gs.move, opening=gs.opening, guess=k,
                clue=-1 if gs.outcome == "detonated" else int(gs.outcome.split()[1]),
                decided=gs.decided, influenced=gs.influenced,
                longest_chain=gs.longest_chain, reach=gs.reach, p_mine=round(float(p), 6),
                frontier=frontier, hidden_nb=hidden_nb, nb=nb,
                hidden=int((view == -1).sum()), game_seconds=round(dt, 4)))
    return rows


def _name(agent, size, density):
    return f"{agent}-{size}x{size}-{density:.2f}"


def summarise(df):
    """Per point: quartiles of each game's longest chain and reach (over its guesses),
    and per guess means (opening and later guesses apart)."""
    out = []
    for (agent, h, dens), d in df.groupby(["agent", "height", "density"]):
        games = d.groupby("game").agg(chain=("longest_chain", "max"), reach=("reach", "max"),
                                      guesses=("move", "size"), secs=("game_seconds", "first"))
        later = d[~d.opening]
        row = dict(agent=agent, size=f"{h}x{h}", mines=int(d.mines.iat[0]), density=dens,
                   games=len(games), guesses_per_game=games.guesses.mean(),
                   seconds_per_game=games.secs.mean())
        for k in ("chain", "reach"):
            q = games[k].quantile([0.25, 0.5, 0.75]).to_numpy()
            row.update({f"game_{k}_q1": q[0], f"game_{k}_median": q[1], f"game_{k}_q3": q[2],
                        f"game_{k}_mean": games[k].mean()})
        for label, part in (("opening", d[d.opening]), ("later", later)):
            for k in ("decided", "longest_chain", "reach"):
                row[f"{label}_{k}_mean"] = part[k].mean() if len(part) else np.nan
        out.append(row)
    return pd.DataFrame(out)


def main(argv=None):
    ap = parser("influence_study", __doc__, seed=SEED,
                quick="seconds: densities 0.1 and 0.2, 2 games a 9x9 point, 1 a 16x16 one")
    ap.add_argument("--games9", type=int, help=f"games a 9x9 point (default {GAMES[9]})")
    ap.add_argument("--games16", type=int, help=f"games a 16x16 point (default {GAMES[16]})")
    a = parse(ap, argv)
    games = dict(QUICK if a.quick else GAMES)
    for size, n in ((9, a.games9), (16, a.games16)):
        if n is not None:
            if n < 1:
                ap.error(f"--games{size}: must be at least 1, got {n}")
            games[size] = n
    points = os.path.join(a.out, "points")
    os.makedirs(points, exist_ok=True)
    t0 = time.time()
    dens = QUICK_DENSITIES if a.quick else DENSITIES
    todo = [(ag, s, d, games[s], a.seed) for s in (16, 9) for ag in AGENTS  # longest first
            for d in dens if not os.path.exists(os.path.join(points, _name(ag, s, d) + ".csv.gz"))]
    for (ag, s, d, _, _), rows in run_tasks(play_point, todo, a.workers):
        path = os.path.join(points, _name(ag, s, d) + ".csv.gz")
        pd.DataFrame(rows).to_csv(path + ".tmp", index=False, compression="gzip")
        os.replace(path + ".tmp", path)  # a point is there whole or not at all
        print(f"{_name(ag, s, d)}: {len(rows)} guesses, {time.time() - t0:.0f} s", flush=True)
    df = pd.concat([pd.read_csv(os.path.join(points, f)) for f in sorted(os.listdir(points))
                    if f.endswith(".csv.gz")], ignore_index=True)
    df.to_csv(os.path.join(a.out, "guesses.csv.gz"), index=False, compression="gzip")
    summarise(df).round(4).to_csv(os.path.join(a.out, "summary.csv"), index=False)
    from influence_figures import draw_all  # (this folder's figure script)

    for f in draw_all(a.out):
        print("wrote", f)
    print("wrote", write_run(a, points_played=len(todo), games=games, seed=a.seed))
    print(f"done in {time.time() - t0:.0f} s -> {a.out}")


if __name__ == "__main__":
    main()

"""The strongest classic solvers' table (scripts/studies/solver_study.py, issue 16): win
rates with 95% Clopper-Pearson intervals, guesses in won games, speed and paired differences
between agents, from the study's resumable sweep folders (``runs/<row>/<agent>/``).

Agents are paired by chunk: the same chunk index holds the same games for every agent
(same seed and chunk size), and the chunk records are kept in git while the per-game
rows are not, so a fresh clone recomputes the same table.
"""
from __future__ import annotations

import csv
import glob
import json
import os
import re
import sys

import numpy as np
import pandas as pd

# (key, size (H, W), mines, first click, first cell, best published, its source, goal or
# None); "quoted" marks a figure found in no source stored here (it could not be checked)
ROWS = [
    ("expert-safe", (16, 30), 99, "safe", (0, 0), 41.13, "Hill, 10^7 games; quoted", 41.5),
    ("expert-zero", (16, 30), 99, "zero", (3, 3), 54.3, "Hill", 54.5),
    ("16x16-safe", (16, 16), 40, "safe", (0, 0), 78.23, "PSEQ-D256; quoted", 78.5),
    ("16x16-zero", (16, 16), 40, "zero", (2, 2), 89.08, "PSEQ-D256; quoted", 89.3),
    ("9x9-safe", (9, 9), 10, "safe", (0, 0), 91.69, "PSEQ-D256; quoted", 92.0),
    ("9x9-zero", (9, 9), 10, "zero", (2, 2), 97.17, "PSEQ-D256; quoted", 97.3),
    # not a goal: the check of `pseq` against PSEQ's own published "beginner"
    ("8x8-safe", (8, 8), 10, "safe", (0, 0), 81.627, "PSEQ", None),
]


def chunk_wins(path, games):
    """Chunk k -> (games, wins) over the folder's first ``games`` games, from its chunk
    records (kept in git, unlike the per-game rows): the same chunk index holds the same
    games for every agent (same seed and chunk size), so chunks pair agents."""
    out = {}
    with open(os.path.join(path, "chunks.jsonl")) as f:
        for line in f:
            if not line.strip():
                continue
            rec = json.loads(line)
            size = int(re.search(r"_c(\d+)$", rec["key"]).group(1))
            k = rec["k"]
            if k * size < games and rec["games"] == min(size, games - k * size):
                (m,) = rec["m"].values()
                out[k] = (rec["games"], m["wins"])
    return out


def paired(a, b):
    """Mean of a's wins minus b's on the chunks both played (percentage points) and its
    95% half-width, from chunk totals (a ratio estimator over independent chunks)."""
    ks = sorted(k for k in set(a) & set(b) if a[k][0] == b[k][0])  # (a cut last chunk
    # of the shorter run holds fewer games than the longer run's chunk of that index)
    if len(ks) < 2:
        return float("nan"), float("nan")
    n = np.array([a[k][0] for k in ks], float)
    d = np.array([a[k][1] - b[k][1] for k in ks], float)
    est = d.sum() / n.sum()
    r = d - est * n
    se = (len(ks) / (len(ks) - 1) * (r * r).sum()) ** 0.5 / n.sum()
    return 100 * est, 100 * 1.96 * se


def guesses_won(path):
    """Mean guesses after the opening in won games and over how many won games, from the
    per-game rows where present (they are not kept in git), else (NaN, 0)."""
    files = glob.glob(os.path.join(path, "per_game", "*"))
    total, won = 0, 0
    for f in files:
        if f.endswith(".csv"):  # the csv module: pandas' per-file overhead was 4 ms a file,
            with open(f, newline="") as fh:  # minutes for a 10^6-game folder
                rows = csv.reader(fh)
                head = next(rows)
                iw, ig = head.index("won"), head.index("guesses")
                for r in rows:
                    if r[iw] in ("True", "1"):
                        total += int(r[ig]) - 1
                        won += 1
        else:
            g = pd.read_parquet(f, columns=["won", "guesses"])
            g = g[g.won.astype(bool)]
            total += int((g.guesses - 1).sum())
            won += len(g)
    return (total / won if won else float("nan")), won


def table(folder):
    """The results table of the study's ``folder`` from its sweep folders' records
    (``runs/<row>/<agent>/``): win rates, intervals, speed, paired differences; guesses in
    won games from the per-game rows where present, else the figure of the folder's
    earlier ``table.csv`` (a fresh clone has no per-game rows)."""
    path = os.path.join(folder, "table.csv")
    old = pd.read_csv(path) if os.path.exists(path) else None
    out = []
    for key, size, mines, click, cell, best, source, goal in ROWS:
        wins, rows = {}, []
        for path in sorted(glob.glob(os.path.join(folder, "runs", key, "*"))):
            if not os.path.exists(os.path.join(path, "chunks.jsonl")):
                continue
            agent = os.path.basename(path)
            # the summary the sweep wrote when it finished (fastsweep.load would recompute
            # the same from the records, and check them, but takes seconds a folder)
            with open(os.path.join(path, "params.json")) as f:
                want = json.load(f)["games"]
            sfile = os.path.join(path, "summary.csv")
            s = pd.read_csv(sfile).iloc[0] if os.path.exists(sfile) else None
            if s is None or int(s.games) != want:  # a run still going, or stopped
                print(f"{key} {agent}: left out (unfinished)", file=sys.stderr)
                continue
            n = int(s.games)
            wins[agent] = chunk_wins(path, n)
            gw, gn = guesses_won(path)
            prev = old[(old.board == f"{size[1]}x{size[0]}/{mines}")
                       & (old.opening == f"{click} {cell}") & (old.agent == agent)] \
                if old is not None else old
            if gn == 0 and prev is not None and len(prev) and int(prev.iloc[0].games) == n:
                # no per-game rows (a fresh clone): keep the recorded figure, taken over
                # the won games whose per-game rows existed then (guesses_won_games)
                p = prev.iloc[0]
                gw = p.guesses_won
                gn = int(p.guesses_won_games) if "guesses_won_games" in p else int(
                    round(p.win_rate * n / 100))
            rows.append(dict(
                board=f"{size[1]}x{size[0]}/{mines}", opening=f"{click} {cell}",
                agent=agent, games=n, win_rate=100 * s.win_rate,
                win_low=100 * s.win_low, win_high=100 * s.win_high,
                guesses_won=gw, guesses_won_games=gn, games_per_s=1e6 / s.us_per_game,
                best_published=best, source=source, goal=goal))
        for r in rows:  # the same boards: paired differences
            for ref in ("pseq", "probability"):
                d, h = (paired(wins[r["agent"]], wins[ref]) if ref in wins and
                        ref != r["agent"] else (float("nan"), float("nan")))
                r[f"minus_{ref}"], r[f"minus_{ref}_ci"] = d, h
        out += rows
    return pd.DataFrame(out)


def markdown(df):
    """The solver study's table (docs/pages/studies/solver.md): one row per board and
    opening, the agents side by side."""
    lines = ["| board | opening | best published | goal | lookahead | pseq | risk | probability | "
             "lookahead - pseq, paired | lookahead - probability, paired | "
             "guesses after the opening (won games; lookahead / pseq / risk / probability) |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for (board, opening), g in df.groupby(["board", "opening"], sort=False):
        by = g.set_index("agent")

        def cell(a):
            if a not in by.index:
                return "-"
            r = by.loc[a]
            return f"{r.win_rate:.2f} [{r.win_low:.2f}, {r.win_high:.2f}] ({int(r.games):,})"
        first = g.iloc[0]
        goal = "-" if pd.isna(first.goal) else f">= {first.goal}"
        gw = " / ".join(f"{by.loc[a].guesses_won:.2f}" if a in by.index else "-"
                        for a in ("lookahead", "pseq", "risk", "probability"))

        def diff(ref):
            if "lookahead" not in by.index or f"minus_{ref}" not in by.columns:
                return "-"
            r = by.loc["lookahead"]
            d, h = r[f"minus_{ref}"], r[f"minus_{ref}_ci"]
            return "-" if pd.isna(d) else f"{d:+.2f} +- {h:.2f}"
        lines.append(f"| {board} | {opening} | {first.best_published} ({first.source}) | "
                     f"{goal} | {cell('lookahead')} | {cell('pseq')} | {cell('risk')} | "
                     f"{cell('probability')} | {diff('pseq')} | {diff('probability')} | "
                     f"{gw} |")
    return "\n".join(lines)

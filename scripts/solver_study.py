"""The strongest classic solvers against the best published win rates (issue 16).

Classic rules, the mine total told, the literature's openings: safe at the corner (0,0),
or zero (the opening cell and its neighbours free of mines) at (2,2) on 9x9 and 16x16 and
at (3,3) on Expert. Every (board, opening, agent) is one resumable sweep folder under
results/solver/runs/ (same seed: game i is the same board for every agent); the table
results/solver/table.csv has the win rate with its 95% Wilson interval, the mean guesses
in won games, games/s and the wall time.

    python3 scripts/solver_study.py --games 100000 --agents probability,pseq,lookahead
    python3 scripts/solver_study.py --table-only

Re-running with more games grows the folders (finished chunks are kept).
"""
import argparse
import glob
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import pandas as pd  # noqa: E402

import fastsweep  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "..", "results", "solver")

# (key, size (H, W), mines, first click, first cell, best published, its source, goal)
ROWS = [
    ("expert-safe", (16, 30), 99, "safe", (0, 0), 41.13, "Hill (10^7 games)", 41.5),
    ("expert-zero", (16, 30), 99, "zero", (3, 3), 54.3, "Hill", 54.5),
    ("16x16-safe", (16, 16), 40, "safe", (0, 0), 78.23, "PSEQ-D256", 78.5),
    ("16x16-zero", (16, 16), 40, "zero", (2, 2), 89.08, "PSEQ-D256", 89.3),
    ("9x9-safe", (9, 9), 10, "safe", (0, 0), 91.69, "PSEQ-D256", 92.0),
    ("9x9-zero", (9, 9), 10, "zero", (2, 2), 97.17, "PSEQ-D256", 97.3),
]
SEED = 2026


def folder(key, agent):
    return os.path.join(OUT, "runs", key, agent)


def play(agent, games, workers, rows):
    for key, size, mines, click, cell, *_ in ROWS:
        if rows and key not in rows:
            continue
        t = time.time()
        fastsweep.sweep([agent], [size], mines=[mines], rules="classic", mine_count=[True],
                        first_click=click, first_cell=cell, games=games, seed=SEED,
                        workers=workers, out=folder(key, agent), per_game=True, quiet=True)
        print(f"{key} {agent}: {games} games in {time.time() - t:.0f} s", flush=True)


def wilson(k, n, z=1.96):
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5 / d
    return c - h, c + h


def paired(a, b):
    """Mean of a's wins minus b's on the games both played (percentage points) and its
    95% half-width."""
    m = a[["game", "won"]].merge(b[["game", "won"]], on="game")
    d = m.won_x.astype(float) - m.won_y.astype(float)
    if len(d) < 2:
        return float("nan"), float("nan")
    return 100 * d.mean(), 100 * 1.96 * d.std(ddof=1) / len(d) ** 0.5


def table():
    out = []
    for key, size, mines, click, cell, best, source, goal in ROWS:
        games = {}
        for path in sorted(glob.glob(os.path.join(OUT, "runs", key, "*"))):
            files = glob.glob(os.path.join(path, "per_game", "*"))
            if files:
                games[os.path.basename(path)] = pd.concat(
                    [pd.read_csv(f) if f.endswith(".csv") else pd.read_parquet(f)
                     for f in files])
        for agent, g in games.items():
            n, k = len(g), int(g.won.sum())
            lo, hi = wilson(k, n)
            won = g[g.won.astype(bool)]
            out.append(dict(
                board=f"{size[1]}x{size[0]}/{mines}", opening=f"{click} {cell}",
                agent=agent, games=n, win_rate=100 * k / n,
                win_low=100 * lo, win_high=100 * hi,
                guesses_won=(won.guesses - 1).mean() if "guesses" in g else float("nan"),
                games_per_s=n / g.seconds.sum() if "seconds" in g else float("nan"),
                best_published=best, source=source, goal=goal))
            for ref in ("pseq", "probability"):  # the same boards: paired differences
                d, h = paired(g, games[ref]) if ref in games and ref != agent else (
                    float("nan"), float("nan"))
                out[-1][f"minus_{ref}"], out[-1][f"minus_{ref}_ci"] = d, h
    df = pd.DataFrame(out)
    if df.empty:  # a fresh clone has no per-game rows: keep the committed table
        return pd.read_csv(os.path.join(OUT, "table.csv"))
    df.to_csv(os.path.join(OUT, "table.csv"), index=False, float_format="%.4f")
    return df


def markdown(df):
    """The README's table: one row per board and opening, the agents side by side."""
    lines = ["| board | opening | best published | goal | lookahead | pseq | probability | "
             "lookahead - pseq, paired | lookahead - probability, paired | "
             "guesses after the opening (won games; lookahead / pseq / probability) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for (board, opening), g in df.groupby(["board", "opening"], sort=False):
        by = g.set_index("agent")

        def cell(a):
            if a not in by.index:
                return "-"
            r = by.loc[a]
            return f"{r.win_rate:.2f} [{r.win_low:.2f}, {r.win_high:.2f}] ({int(r.games):,})"
        first = g.iloc[0]
        gw = " / ".join(f"{by.loc[a].guesses_won:.2f}" if a in by.index else "-"
                        for a in ("lookahead", "pseq", "probability"))
        def diff(ref):
            if "lookahead" not in by.index or f"minus_{ref}" not in by.columns:
                return "-"
            r = by.loc["lookahead"]
            d, h = r[f"minus_{ref}"], r[f"minus_{ref}_ci"]
            return "-" if pd.isna(d) else f"{d:+.2f} +- {h:.2f}"
        lines.append(f"| {board} | {opening} | {first.best_published} ({first.source}) | "
                     f">= {first.goal} | {cell('lookahead')} | {cell('pseq')} | "
                     f"{cell('probability')} | {diff('pseq')} | {diff('probability')} | "
                     f"{gw} |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--agents", default="probability,pseq,lookahead")
    ap.add_argument("--rows", default="", help="comma list of row keys (default: all)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--table-only", action="store_true")
    a = ap.parse_args()
    if not a.table_only:
        for agent in a.agents.split(","):
            play(agent, a.games, a.workers, [r for r in a.rows.split(",") if r])
    df = table()
    print(df.to_string(index=False))
    print(markdown(df))


if __name__ == "__main__":
    main()

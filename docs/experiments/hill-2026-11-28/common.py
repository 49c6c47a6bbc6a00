"""Shared by the analyses: loading the two solvers' games, and where a chosen cell lies."""
import glob
import json
import os

import numpy as np

from fastsweep.kernels.engine import game as kg

# HILL_ROW picks the study's row (keep ROWS in step with hill_play.js); Expert safe keeps
# the first layout of the files
ROWS = {"expert": (16, 30, 99, "safe", (0, 0)), "16x16": (16, 16, 40, "safe", (0, 0)),
        "9x9": (9, 9, 10, "safe", (0, 0)), "16x16z": (16, 16, 40, "zero", (2, 2)),
        "9x9z": (9, 9, 10, "zero", (2, 2)), "expertz": (16, 30, 99, "zero", (3, 3))}
ROW = os.environ.get("HILL_ROW", "expert")
H, W, MINES, CLICK, CELL = ROWS[ROW]
DATA = "/tmp/hill" if ROW == "expert" else f"/tmp/hill/{ROW}"
KW = dict(mines=MINES, rules="classic", first_click=CLICK, first_cell=CELL, mine_count=True)


def lookahead_won():
    """`lookahead`'s per-game wins (la_play.py's files, in order of their first game), indexed by game."""
    la = np.concatenate([np.load(f) for f in sorted(
        glob.glob(f"{DATA}/la_out_*.npy"), key=lambda f: int(f.split("_")[-2]))])
    return la[:, kg.OUT_WON]


def lookahead_guesses():
    """game -> `lookahead`'s guesses [cell, mine probability, reason], first click dropped."""
    lat = {}
    for fn in sorted(glob.glob(f"{DATA}/la_trace_*.jsonl")):
        for line in open(fn):
            d = json.loads(line.replace("NaN", "null"))
            lat[d["g"]] = d["seq"][1:]
    return lat


def hill_games(files):
    """game -> Hill's record, from hill_play.js outputs (a torn last line is skipped)."""
    out = {}
    for fn in files:
        for line in open(fn):
            try:
                d = json.loads(line)
            except json.JSONDecodeError:
                continue
            out[d["g"]] = d
    return out

NB = [[(r2 * W + c2) for r2 in range(r - 1, r + 2) for c2 in range(c - 1, c + 2)
       if 0 <= r2 < H and 0 <= c2 < W and (r2, c2) != (r, c)] for r in range(H) for c in range(W)]

def revealed_after(mines, clicks):
    """Cells revealed after clicking `clicks` (each safe) with zero flood fill."""
    clue = np.array([sum(mines[j] for j in NB[i]) for i in range(H * W)])
    rev = np.zeros(H * W, bool)
    for c in clicks:
        stack = [c]
        while stack:
            x = stack.pop()
            if rev[x]:
                continue
            rev[x] = True
            if clue[x] == 0:
                stack.extend(j for j in NB[x] if not rev[j])
    return rev

def where(cell, rev):
    r, c = divmod(cell, W)
    front = any(rev[j] for j in NB[cell])
    edge = "corner" if (r in (0, H - 1) and c in (0, W - 1)) else ("edge" if r in (0, H - 1) or c in (0, W - 1) else "inner")
    return ("front" if front else "off") + "-" + edge

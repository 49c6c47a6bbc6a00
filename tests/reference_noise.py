"""Per-game records of every agent under noise on fixed seeds: the reference that a
change to the engine must reproduce game for game under every noise model (the games of
the engine before issue 47's incremental analysis under noise, revision ae13672).

Regenerate only when a change is meant to alter games (say so in the commit):
``.venv/bin/python tests/reference_noise.py tests/data/reference/noise``.
"""
import hashlib
import sys

import pandas as pd

import fastsweep
from fastsweep import AGENTS

NOISES = ["detector:p_neg=0.2,p_pos=0.2", "detector:p_neg=0.3,p_pos=0", "reveal:p=0.7",
          "optimistic:p=0.5", "cautious:p=0.5"]
# (size, mines, rules, mine_count, noise): each noise model once without and once with
# the total, keep-going and classic; the noise-aware agents' default
CONFIGS = [dict(size=9, mines=12, rules="keep-going" if i % 2 == 0 else "classic",
                mine_count=bool(i % 2), noise=NOISES[i // 2])
           for i in range(2 * len(NOISES))]
DROP = ("seconds", "sec", "time")  # wall-clock columns


def games(agent, k):
    """The per-game table of ``agent`` on configuration ``k`` (seed 300 + k)."""
    c = dict(CONFIGS[k])
    size = c.pop("size")
    df = fastsweep.run(agent, size, games=4 if AGENTS[agent].slow else 16, seed=300 + k, **c)
    df = df.drop(columns=[x for x in df.columns if x in DROP])
    df.insert(0, "config", k)
    return df


def trace_digest(agent, k):
    """(moves, digest of the numeric move table) of game 0 of configuration ``k``."""
    c = dict(CONFIGS[k])
    size = c.pop("size")
    m = fastsweep.play(agent, size, seed=300 + k, **c).moves
    h = pd.util.hash_pandas_object(m.select_dtypes("number"), index=False).values
    return len(m), hashlib.sha256(h.tobytes()).hexdigest()[:16]


def main(out):
    frames, rows = [], []
    for agent in AGENTS:
        for k in range(len(CONFIGS)):
            frames.append(games(agent, k))
            rows.append((agent, k, *trace_digest(agent, k)))
        print(agent, flush=True)
    pd.concat(frames).to_csv(out + "_games.csv", index=False)
    pd.DataFrame(rows, columns=["agent", "config", "moves", "digest"]).to_csv(
        out + "_traces.csv", index=False)


if __name__ == "__main__":
    main(sys.argv[1])

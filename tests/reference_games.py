"""Per-game records of every agent on fixed seeds: the reference that a change to the
engine must reproduce game for game (the games of 2026-11-28's engine, revision 0df12de,
before the restructuring into subpackages and the family contract).

Regenerate only when a change is meant to alter games (say so in the commit):
``.venv/bin/python tests/reference_games.py tests/data/reference/games``.
"""
import hashlib
import sys

import pandas as pd

import fastsweep
from fastsweep import AGENTS

CONFIGS = [dict(size=9, mines=10, rules="keep-going", mine_count=False),
           dict(size=9, mines=10, rules="classic", mine_count=True),
           dict(size=(8, 12), mines=20, rules="keep-going", mine_count=True),
           dict(size=12, mines=30, rules="classic", mine_count=False)]
DROP = ("seconds", "sec", "time")  # wall-clock columns


def games(agent, k):
    """The per-game table of ``agent`` on configuration ``k`` (seed 100 + k)."""
    c = dict(CONFIGS[k])
    size = c.pop("size")
    df = fastsweep.run(agent, size, games=12 if AGENTS[agent].slow else 40, seed=100 + k, **c)
    df = df.drop(columns=[x for x in df.columns if x in DROP])
    df.insert(0, "config", k)
    return df


def trace_digest(agent, k):
    """(moves, digest of the numeric move table) of game 0 of configuration ``k``."""
    c = dict(CONFIGS[k])
    size = c.pop("size")
    m = fastsweep.play(agent, size, seed=100 + k, **c).moves
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

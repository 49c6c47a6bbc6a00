"""Reference per-game results of the inference and probability agents, for
tests/test_incremental.py. The stored file tests/data/incremental_ref.npz was produced by
``python tests/incremental_ref.py`` at commit 1ab0ef7, before incremental analysis existed
(every analysis rebuilt and re-counted the whole frontier)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

# (name, size, mines or density, rules, prior, games)
CASES = [
    ("kg30_d04", 30, ("density", 0.4), "keep-going", 0.5, 40),
    ("kg20_d05", 20, ("density", 0.5), "keep-going", 0.5, 80),
    ("kg16_80", 16, ("mines", 80), "keep-going", 0.5, 100),
    ("kg12_d07", 12, ("density", 0.7), "keep-going", 0.5, 100),
    ("kg16_d03_p03", 16, ("density", 0.3), "keep-going", 0.3, 80),
    ("classic_expert", (16, 30), ("mines", 99), "classic", 0.5, 200),
]
AGENTS = ["inference", "probability"]
TRACE_GAMES = 8  # games of kg16_80 whose whole move list is stored
PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "incremental_ref.npz")


def key(case, agent, mc):
    return f"{case}__{agent}__{int(mc)}"


def compute(case, agent, mc, budget=0):
    from fastsweep.agents import AGENTS as REGISTRY
    from fastsweep.options import make_config
    from fastsweep.runner import play_chunk
    name, size, (kind, v), rules, prior, games = next(c for c in CASES if c[0] == case)
    own = {"prior": prior} if "prior" in REGISTRY[agent].options else {}
    cfg = make_config(agent, size, rules=rules, mine_count=mc, budget=budget, **own,
                      **{kind: v})
    out, _, _ = play_chunk(cfg, 2024, 0, games, timing=False)
    return out


def trace_moves(agent, mc, game):
    import fastsweep
    t = fastsweep.play(agent, 16, mines=80, seed=2024, game=game, mine_count=mc)
    m = t.moves
    return (np.stack([m.kind.to_numpy(), m.cell_index.to_numpy(), m.out.to_numpy()], 1)
            .astype(np.int64), m.probability.to_numpy(np.float64))


def main():
    data = {}
    for case in CASES:
        for agent in AGENTS:
            for mc in (False, True):
                data[key(case[0], agent, mc)] = compute(case[0], agent, mc)
                print(key(case[0], agent, mc), flush=True)
    for agent in AGENTS:
        for mc in (False, True):
            for g in range(TRACE_GAMES):
                mv, pr = trace_moves(agent, mc, g)
                data[f"trace__{agent}__{int(mc)}__{g}__moves"] = mv
                data[f"trace__{agent}__{int(mc)}__{g}__prob"] = pr
    np.savez_compressed(PATH, **data)


if __name__ == "__main__":
    main()

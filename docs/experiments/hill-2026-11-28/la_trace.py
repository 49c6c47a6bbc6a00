"""lookahead's guesses (cell, mine probability, reason code) per game, games first..first+n (HILL_ROW)."""
import os, sys, time, json
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import DATA, H, W, KW
import fastsweep
from fastsweep.kernels.engine import layout as kl
first, n = int(sys.argv[1]), int(sys.argv[2])
t = time.time()
with open(f"{DATA}/la_trace_{first}_{n}.jsonl", "w") as f:
    for g in range(first, first + n):
        tr = fastsweep.play("lookahead", (H, W), seed=2026, game=g, **KW)
        m = tr.moves
        gs = m[m.kind == kl.A_GUESS]
        f.write(json.dumps({"g": g, "seq": [[int(c), float(p), int(w)] for c, p, w in
                                            zip(gs.cell_index, gs.probability, gs.why)],
                            "last": int(m.out.iloc[-1])}) + "\n")
        if g % 1000 == 0:
            print(g, time.time() - t, flush=True)

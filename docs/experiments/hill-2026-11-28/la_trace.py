"""lookahead's guesses (cell, mine probability, reason code) per game, games first..first+n."""
import sys, time, json
import fastsweep
from fastsweep.kernels import layout as kl
first, n = int(sys.argv[1]), int(sys.argv[2])
t = time.time()
with open(f"/tmp/hill/la_trace_{first}_{n}.jsonl", "w") as f:
    for g in range(first, first + n):
        tr = fastsweep.play("lookahead", (16, 30), mines=99, seed=2026, game=g, rules="classic",
                            first_click="safe", first_cell=(0, 0), mine_count=True)
        m = tr.moves
        gs = m[m.kind == kl.A_GUESS]
        f.write(json.dumps({"g": g, "seq": [[int(c), float(p), int(w)] for c, p, w in
                                            zip(gs.cell_index, gs.probability, gs.why)],
                            "last": int(m.out.iloc[-1])}) + "\n")
        if g % 1000 == 0:
            print(g, time.time() - t, flush=True)

"""lookahead's per-game wins on the study's Expert safe games first..first+n (seed 2026)."""
import sys, time, numpy as np
from fastsweep.options import make_config
from fastsweep.runner import play_chunk
from fastsweep.kernels import game as kg
first, n = int(sys.argv[1]), int(sys.argv[2])
kw = dict(mines=99, rules="classic", first_click="safe", first_cell=(0, 0), mine_count=True)
cfg = make_config("lookahead", (16, 30), **kw)
t = time.time()
res = []
for s in range(first, first + n, 5000):
    out, _, _ = play_chunk(cfg, 2026, s, min(5000, first + n - s), timing=False)
    res.append(out)
    print(s, time.time() - t, flush=True)
out = np.concatenate(res)
np.save(f"/tmp/hill/la_out_{first}_{n}.npy", out)
print("won", out[:, kg.OUT_WON].mean(), "guesses", out[:, kg.OUT_GUESSES].mean(), time.time() - t)

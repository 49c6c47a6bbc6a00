"""lookahead's per-game wins on the study's games first..first+n of row HILL_ROW (seed 2026)."""
import os, sys, time, numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import DATA, H, W, KW
from fastsweep.options import make_config
from fastsweep.runner import play_chunk
from fastsweep.kernels.engine import game as kg
first, n = int(sys.argv[1]), int(sys.argv[2])
kw = KW
cfg = make_config("lookahead", (H, W), **kw)
t = time.time()
res = []
for s in range(first, first + n, 5000):
    out, _, _ = play_chunk(cfg, 2026, s, min(5000, first + n - s), timing=False)
    res.append(out)
    print(s, time.time() - t, flush=True)
out = np.concatenate(res)
np.save(f"{DATA}/la_out_{first}_{n}.npy", out)
print("won", out[:, kg.OUT_WON].mean(), "guesses", out[:, kg.OUT_GUESSES].mean(), time.time() - t)

"""Export the study's Expert safe (0,0) layouts (seed 2026) as uint8 (games, 480) mines."""
import sys, time, numpy as np, json
from fastsweep.options import make_config
from fastsweep.runner import play_chunk
from fastsweep.kernels import game as kg
first, n = int(sys.argv[1]), int(sys.argv[2])
kw = dict(mines=99, rules="classic", first_click="safe", first_cell=(0, 0), mine_count=True)
cfg = make_config("probability", (16, 30), **kw)
out, secs, (state, mines) = play_chunk(cfg, 2026, first, n, keep_boards=True, timing=False)
assert mines.shape == (n, 480) and (mines.sum(1) == 99).all() and (mines[:, 0] == 0).all()
np.save(f"/tmp/hill/layouts_{first}_{n}.npy", mines.astype(np.uint8))
mines.astype(np.uint8).tofile(f"/tmp/hill/layouts_{first}_{n}.bin")
print("probability won", out[:, kg.OUT_WON].mean())
if len(sys.argv) > 3:
    m = int(sys.argv[3])
    cfg2 = make_config("lookahead", (16, 30), **kw)
    out2, _, (s2, m2) = play_chunk(cfg2, 2026, first, m, keep_boards=True, timing=False)
    print("same layouts:", (m2 == mines[:m]).all(), "lookahead won", out2[:, kg.OUT_WON].mean())

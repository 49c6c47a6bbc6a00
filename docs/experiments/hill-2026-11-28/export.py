"""Export the study's layouts of row HILL_ROW (seed 2026) as uint8 (games, cells) mines."""
import os, sys, time, numpy as np, json
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import CELL, DATA, H, W, MINES, KW
from fastsweep.options import make_config
from fastsweep.runner import play_chunk
from fastsweep.kernels.engine import game as kg
first, n = int(sys.argv[1]), int(sys.argv[2])
kw = KW
os.makedirs(DATA, exist_ok=True)
cfg = make_config("probability", (H, W), **kw)
out, secs, (state, mines) = play_chunk(cfg, 2026, first, n, keep_boards=True, timing=False)
assert mines.shape == (n, H * W) and (mines.sum(1) == MINES).all()
assert (mines[:, CELL[0] * W + CELL[1]] == 0).all()
np.save(f"{DATA}/layouts_{first}_{n}.npy", mines.astype(np.uint8))
mines.astype(np.uint8).tofile(f"{DATA}/layouts_{first}_{n}.bin")
print("probability won", out[:, kg.OUT_WON].mean())
if len(sys.argv) > 3:
    m = int(sys.argv[3])
    cfg2 = make_config("lookahead", (H, W), **kw)
    out2, _, (s2, m2) = play_chunk(cfg2, 2026, first, m, keep_boards=True, timing=False)
    print("same layouts:", (m2 == mines[:m]).all(), "lookahead won", out2[:, kg.OUT_WON].mean())

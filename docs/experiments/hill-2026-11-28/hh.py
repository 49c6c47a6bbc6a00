"""Two Hill runs paired on the games both played (e.g. its own first guess against a forced one)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import hill_games

a, b = hill_games([sys.argv[1]]), hill_games([sys.argv[2]])
idx = sorted(set(a) & set(b))
x = np.array([b[i]["won"] - a[i]["won"] for i in idx], float)
n = len(idx)
print(f"games {n}: {sys.argv[2]} - {sys.argv[1]}: {100*x.mean():+.3f} +- "
      f"{196*x.std(ddof=1)/np.sqrt(n):.3f} (95%), changed {int((x != 0).sum())}")

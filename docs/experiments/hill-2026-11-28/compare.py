"""Paired comparison: Hill's JS solver vs lookahead on the same layouts."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import hill_games, lookahead_won

law = lookahead_won().astype(float)
hw = {g: d["won"] for g, d in hill_games(sys.argv[1:]).items()}
idx = np.array(sorted(hw))
h = np.array([hw[i] for i in idx], float)
l = law[idx]
d = h - l
n = len(idx)
print(f"games {n}: Hill {100*h.mean():.3f}%  lookahead {100*l.mean():.3f}%  "
      f"Hill - lookahead {100*d.mean():+.3f} +- {196*d.std(ddof=1)/np.sqrt(n):.3f} (95%)  "
      f"changed {int((d!=0).sum())} (Hill better {int((d>0).sum())}, worse {int((d<0).sum())})")

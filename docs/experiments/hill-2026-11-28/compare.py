"""Paired comparison: Hill's JS solver vs lookahead on the same layouts."""
import json, sys, glob, numpy as np
from fastsweep.kernels import game as kg
la = np.concatenate([np.load("/tmp/hill/la_out_0_100000.npy"), np.load("/tmp/hill/la_out_100000_100000.npy")])
law = la[:, kg.OUT_WON].astype(float)
hw = {}
for fn in sys.argv[1:]:
    for line in open(fn):
        try:
            d = json.loads(line)
        except json.JSONDecodeError:
            continue
        hw[d["g"]] = d["won"]
idx = np.array(sorted(hw))
h = np.array([hw[i] for i in idx], float)
l = law[idx]
d = h - l
n = len(idx)
print(f"games {n}: Hill {100*h.mean():.3f}%  lookahead {100*l.mean():.3f}%  "
      f"Hill - lookahead {100*d.mean():+.3f} +- {196*d.std(ddof=1)/np.sqrt(n):.3f} (95%)  "
      f"changed {int((d!=0).sum())} (Hill better {int((d>0).sum())}, worse {int((d<0).sum())})")

import json, sys, numpy as np
def load(fn):
    d = {}
    for line in open(fn):
        try: r = json.loads(line)
        except json.JSONDecodeError: continue
        d[r["g"]] = r["won"]
    return d
a, b = load(sys.argv[1]), load(sys.argv[2])
idx = sorted(set(a) & set(b))
x = np.array([b[i] - a[i] for i in idx], float)
n = len(idx)
print(f"games {n}: {sys.argv[2]} - {sys.argv[1]}: {100*x.mean():+.3f} +- {196*x.std(ddof=1)/np.sqrt(n):.3f}, changed {(x!=0).sum()}")

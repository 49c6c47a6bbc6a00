"""Where Hill's and lookahead's games part: first differing guess, by category."""
import os
import sys
from collections import defaultdict

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import DATA, H, W, hill_games, lookahead_guesses, lookahead_won, revealed_after, where

law = lookahead_won()
mines = np.fromfile(f"{DATA}/layouts_0_200000.bin", np.uint8).reshape(-1, H * W)
lat = lookahead_guesses()
hill = hill_games(sys.argv[1:])
rows = []
for g, h in hill.items():
    hg = [(c, p) for c, k, p in h["seq"] if k == "g"]
    lg = lat[g]
    k = 0
    while k < len(hg) and k < len(lg) and hg[k][0] == lg[k][0]:
        k += 1
    if k == len(hg) and k == len(lg):
        assert h["won"] == law[g], g
        continue
    if k >= len(hg) or k >= len(lg):
        rows.append((g, k, "prefix", None, None, None, h["won"], law[g], None, None, None, None))
        continue
    lc, lp, why = lg[k]
    hc, hs = hg[k]
    hp = 1 - hs if hs is not None else None
    clicks = [0]
    gi = 0
    for c, kind, p in h["seq"]:
        if kind == "g":
            if gi == k: break
            gi += 1
        clicks.append(c)
    rev = revealed_after(mines[g], clicks)
    assert not rev[lc] and not rev[hc]
    rows.append((g, k, why, lp, hp, (lc, hc), h["won"], law[g], mines[g, lc], mines[g, hc], where(lc, rev), where(hc, rev)))
n = len(hill)
print(f"games {n}, diverging {len(rows)}")
def report(name, key):
    agg = defaultdict(lambda: [0, 0, 0, 0, 0])
    for r in rows:
        a = agg[key(r)]
        a[0] += 1; a[1] += r[6] - r[7]; a[2] += (r[6] - r[7]) ** 2
        if r[8] is not None:
            a[3] += int(r[8]); a[4] += int(r[9])
    print(f"\n{name}: category, diverging games, (Hill - lookahead) wins per 100 games of all, +- 2 SE, "
          f"la guess hit mine, Hill guess hit mine")
    for c, (m, s, s2, lm, hm) in sorted(agg.items(), key=lambda kv: -kv[1][0]):
        print(f"  {str(c):28s} {m:6d} {100*s/n:+.3f} +- {200*np.sqrt(s2)/n:.3f}   {lm:5d} {hm:5d}")
names = {21: "lookahead", 22: "endgame", 23: "fifty", 25: "corner", 24: "pseudo", 20: "pseq"}
report("our reason", lambda r: names.get(r[2], r[2]))
def pcat(r):
    if r[3] is None or r[4] is None: return "n/a"
    d = r[4] - r[3]
    if abs(d) < 1e-6: return "same P"
    return "Hill riskier" if d > 0 else "Hill safer"
report("Hill's P(mine) vs ours", pcat)
report("reason x P", lambda r: (names.get(r[2], r[2]), pcat(r)))
def bins(r):
    if r[3] is None or r[4] is None: return "n/a"
    d = r[4] - r[3]
    for b in (-0.1, -0.02, -1e-6, 1e-6, 0.02, 0.05, 0.1, 0.2):
        if d < b: return f"<{b}"
    return ">=0.2"
report("Hill P - our P", bins)
report("la reason x where ours -> where Hill's (P Hill vs ours)", lambda r: (names.get(r[2], r[2]), r[10], r[11], pcat(r)) if r[2] in (21, 22) else "other")
report("Hill P == 0.5", lambda r: (names.get(r[2], r[2]), r[4] is not None and abs(r[4] - 0.5) < 1e-6))
report("guess number k", lambda r: min(r[1], 6))
if True:  # examples
    sel = [r for r in rows if r[2] == 21 and r[3] is not None and r[4] is not None and r[4] - r[3] > 1e-6]
    print("\nexamples, lookahead guess where Hill took a riskier cell: g, k, our cell P, Hill cell P, wins H/L, mine la/h")
    for r in sel[:25]:
        (lc, hc) = r[5]
        print(f"  g {r[0]:6d} k {r[1]} ours {divmod(lc,30)} {r[3]:.3f}  Hill {divmod(hc,30)} {r[4]:.3f}  won H{r[6]} L{r[7]}  mine L{r[8]} H{r[9]}")

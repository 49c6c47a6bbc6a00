"""FORCE.json for hill_play.js: at the first guess where Hill's run (argv[1]) and `lookahead`
differ, if `lookahead` guessed there for the reason argv[2] (21 look-ahead, 22 endgame, 23
50/50), make Hill play `lookahead`'s cell. Writes argv[3]."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import hill_games, lookahead_guesses

hill, lat, why = hill_games([sys.argv[1]]), lookahead_guesses(), int(sys.argv[2])
force = {}
for g, h in hill.items():
    hg = [c for c, kind, p in h["seq"] if kind == "g"]
    lg = lat[g]
    k = 0
    while k < len(hg) and k < len(lg) and hg[k] == lg[k][0]:
        k += 1
    if k < len(hg) and k < len(lg) and lg[k][2] == why:
        force[g] = [k, lg[k][0]]
json.dump(force, open(sys.argv[3], "w"))
print(len(force), "games forced")

"""The tutorial's printed outputs (blocks ``tutorial-run``, ``tutorial-own``,
``tutorial-sweep``, ``tutorial-pairs``, ``tutorial-profile``), from
``results/tutorial/outputs.json`` (scripts/studies/tutorial.py).

Renderer for :mod:`readme_tables`.
"""
from __future__ import annotations

import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PATH = os.path.join(ROOT, "results", "tutorial", "outputs.json")
# block name -> the tutorial's bash block (after the install) whose output it shows
ORDER = ("tutorial-run", "tutorial-own", "tutorial-sweep", "tutorial-pairs",
         "tutorial-profile")
MAX_LINES = 30  # a longer output shows its last lines (the progress lines come first)


def _block(i):
    def render():
        with open(PATH) as f:
            rec = json.load(f)
        lines = rec["steps"][i]["output"].rstrip("\n").splitlines()
        cut = len(lines) > MAX_LINES
        lines = (["..."] if cut else []) + lines[-MAX_LINES:]
        head = (f"What it printed ({rec['date'][:10]}, {rec['machine']}; times differ on "
                "other machines, nothing else does):" if i == 0 else "What it printed:")
        return head + "\n\n```text\n" + "\n".join(lines) + "\n```"
    return render


BLOCKS = {name: _block(i) for i, name in enumerate(ORDER)}

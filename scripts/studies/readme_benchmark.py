"""The benchmark's reference cards (block ``benchmark-classic``), from
``results/benchmark/classic-v1/<agent>/card.json`` (``fastsweep benchmark``).

Renderer for :mod:`readme_tables`.
"""
from __future__ import annotations

import os

from fastsweep.benchmark.card import compare, read_card

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RES = os.path.join(ROOT, "results", "benchmark", "classic-v1")
AGENTS = ("probability", "pseq", "lookahead")


def classic():
    cards = [read_card(os.path.join(RES, a, "card.json")) for a in AGENTS]
    c = cards[0]
    head = (f"{c['date']}, {c['machine']}, fastsweep {c['fastsweep']} "
            f"(`fastsweep benchmark AGENT --suite classic --workers 2`):\n\n")
    pub = ["", "Published under the same conditions (marked as published, not re-measured "
           "here):", ""]
    for b in c["boards"]:
        for p in b["published"]:
            who = f"`{p['agent']}`'s" if p["agent"] else "no fastsweep agent's"
            pub.append(f"* {b['board']}: {p['value']}% — {p['source']} ({who} counterpart)")
    return head + compare(cards) + "\n".join(pub)


BLOCKS = {"benchmark-classic": classic}

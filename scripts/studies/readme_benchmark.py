"""The benchmark's reference cards (blocks ``benchmark-classic``,
``benchmark-classic-pairs``, ``benchmark-assignment`` and ``benchmark-identity``), from
``results/benchmark/<suite>-v<N>/<agent>/card.json`` (``fastsweep benchmark``) and
``results/benchmark_identity/identity.csv`` (scripts/bench/card_identity.py) and
``results/bench_cards/time.csv`` (scripts/bench/bench_card_time.py; block
``benchmark-time``).

Renderer for :mod:`readme_tables`.
"""
from __future__ import annotations

import os

import pandas as pd

from fastsweep.benchmark.card import compare, read_card

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RES = os.path.join(ROOT, "results", "benchmark")
SUITES = {"classic": ("classic-v1", ("probability", "pseq", "lookahead")),
          "assignment": ("assignment-v1", ("basic", "inference", "probability"))}


def _cards(suite):
    folder, agents = SUITES[suite]
    return [read_card(os.path.join(RES, folder, a, "card.json")) for a in agents]


def _head(c, suite):
    return (f"{c['date'][:10]}, {c['machine']}, fastsweep {c['fastsweep']} "
            f"(`python3 scripts/studies/benchmark_cards.py`: the suite's reference agents "
            f"on one shared sweep; `fastsweep benchmark AGENT --suite {suite}` makes one "
            "card):\n\n")


def classic():
    cards = _cards("classic")
    c = cards[0]
    pub = ["", "Published under the same conditions (marked as published, not re-measured "
           "here):", ""]
    for b in c["boards"]:
        for p in b["published"]:
            who = f"`{p['agent']}`'s" if p["agent"] else "no fastsweep agent's"
            pub.append(f"* {b['board']}: {p['value']}% — {p['source']} ({who} counterpart)")
    return _head(c, "classic") + compare(cards) + "\n".join(pub)


def classic_pairs():
    """Each reference's paired difference against `probability` (points, 95% CI)."""
    c = _cards("classic")[0]
    refs = sorted({r for b in c["boards"] for r in b["versus"]})
    out = ["Paired differences against `probability` on the same 40,000 games a board "
           "(points, 95% CI; in brackets after: the paired games that pinning the "
           "difference to +-0.5 points would need):", "",
           "| board | " + " | ".join(f"{r} - probability" for r in refs) + " |",
           "|---|" + "---|" * len(refs)]
    for b in c["boards"]:
        cells = [f"{v['diff']:+.2f} [{v['low']:+.2f}, {v['high']:+.2f}] "
                 f"({v['games_for_half_point']:,})" for v in (b["versus"][r] for r in refs)]
        out.append(f"| {b['board']} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def assignment():
    cards = _cards("assignment")
    return _head(cards[0], "assignment") + compare(cards)


def identity():
    path = os.path.join(ROOT, "results", "benchmark_identity", "identity.csv")
    if not os.path.exists(path):
        return "(no identity check recorded yet: python3 scripts/bench/card_identity.py)"
    df = pd.read_csv(path)
    out = ["| card | made on | workers | backend | results digest | same digest as the "
           "committed card | games compared, each the same score and outcome |",
           "|---|---|---|---|---|---|---|"]
    for _, r in df.iterrows():
        out.append(f"| {r['agent']} on {r['suite']} | {r['machine']} | {r['workers']} | "
                   f"{r['backend']} | `{r['digest']}` | {'yes' if r['same'] else '**no**'} | "
                   f"{r['games']:,}: {'yes' if r['games_same'] else '**no**'} |")
    return "\n".join(out)


def card_time():
    path = os.path.join(ROOT, "results", "bench_cards", "time.csv")
    if not os.path.exists(path):
        return "(no timing recorded yet: scripts/bench/bench_card_time.py)"
    df = pd.read_csv(path)
    r0 = df.iloc[0]
    out = [f"{r0['date'][:16]}, {r0['machine']}, {r0['workers']} workers, "
           f"{r0['games']:,} games a board (`python3 scripts/bench/bench_card_time.py "
           f"--workers {r0['workers']}`), wall seconds in a fresh process:", "",
           "| what | seconds |", "|---|---|"]
    for _, r in df.iterrows():
        out.append(f"| {r['what']} | {r['seconds']:.0f} |")
    return "\n".join(out)


BLOCKS = {"benchmark-time": card_time, "benchmark-classic": classic, "benchmark-classic-pairs": classic_pairs,
          "benchmark-assignment": assignment, "benchmark-identity": identity}

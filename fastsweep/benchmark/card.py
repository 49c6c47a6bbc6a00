"""A benchmark card: one agent's results on a suite, in JSON (for tools) and Markdown (for
people), with the suite's version and hash, the machine and versions, each board's
measure with its 95% interval, the paired differences against the suite's reference
agents on the same games, time per game, and the published figures under the same
conditions, marked as published.

The card also says how many games a claim needs: for a difference of ``d`` points with
a paired standard deviation ``s`` a game, about (1.96 s / d)^2 games (the normal
approximation), given for the half-width of each paired difference's interval.
"""
from __future__ import annotations

import hashlib
import json
import math

from .suites import suite_hash

# a card's fields that depend on the machine and the run, not on the games: left out of
# its results digest, so two cards of one agent and suite from any machine, worker count
# or backend have the same digest
RUN_FIELDS = ("us_per_game",)


def games_needed(std_per_game: float, half_width_points: float) -> int:
    """Games for a 95% half-width of ``half_width_points`` percentage points, given the
    per-game standard deviation (in the measure's units: a fraction).

    >>> games_needed(0.5, 0.5)   # a win rate near 50%: 0.5 points needs ~38,000 games
    38416
    """
    if not half_width_points > 0 or not std_per_game >= 0:
        raise ValueError("half_width_points must be > 0 and std_per_game >= 0")
    return int(math.ceil((1.96 * std_per_game / (half_width_points / 100.0)) ** 2))


def _pct(v):
    return None if v is None or (isinstance(v, float) and math.isnan(v)) else round(100 * v, 3)


def results_digest(card) -> str:
    """16 hex digits of the card's results: the suite (name, version, hash), the agent, the
    games and every board's numbers, but not the machine, date or times. Two cards of one
    agent on one suite made on other machines, worker counts or backends have the same
    digest (the games are fixed by the suite; the tests and the benchmark page check it)."""
    keep = {k: card[k] for k in ("suite", "version", "hash", "agent", "measure", "games",
                                 "games_overridden")}
    keep["boards"] = [{k: v for k, v in b.items() if k not in RUN_FIELDS}
                      for b in card["boards"]]
    text = json.dumps(keep, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def stopping_rule(card) -> str:
    """The card's stopping rule, in words."""
    return (f"a fixed {card['games']:,} games a board in the suite's game order, decided "
            "before play (not adaptive: the intervals keep their nominal 95% coverage)")


def claims(card) -> list[str]:
    """What the card's games can and cannot support, one sentence a board and reference:
    a paired difference whose interval holds 0 is not shown, and the games a difference of
    its size would need are given; a 0.5-point claim beyond the games is said so."""
    out = []
    verb = "wins more often than" if card["measure"] == "win_rate" else "scores higher than"
    for b in card["boards"]:
        for ref, v in sorted(b["versus"].items()):
            d, lo, hi, n = v["diff"], v["low"], v["high"], v["games"]
            std = v.get("std")
            if lo > 0 or hi < 0:
                who = ref if d > 0 else card["agent"]
                text = (f"{b['board']}: {who} {verb} "
                        f"{card['agent'] if who == ref else ref} by {abs(d):.2f} points "
                        f"[{min(abs(lo), abs(hi)):.2f}, {max(abs(lo), abs(hi)):.2f}] "
                        f"on {n:,} paired games")
            else:
                need = (games_needed(std, abs(d)) if std and abs(d) > 0 else None)
                text = (f"{b['board']}: no difference shown between {card['agent']} and "
                        f"{ref} ({d:+.2f} [{lo:+.2f}, {hi:+.2f}] on {n:,} games)"
                        + (f"; a difference of {abs(d):.2f} points would need about "
                           f"{need:,} paired games" if need else ""))
            half = v.get("games_for_half_point")
            if half and half > n:
                text += (f"; pinning it to +-0.5 points is beyond these games (that needs "
                         f"about {half:,} paired games)")
            out.append(text)
    return out


def make_card(suite, agent, label_, boards, provenance, games, overridden, references=None):
    """The card's dict. ``boards``: per board key, (summary row of the agent, {reference:
    pairs row (reference - agent)}). ``references``: where the references' games came
    from (a sentence)."""
    measure = suite["measure"]
    lo_col, hi_col = ("win_low", "win_high") if measure == "win_rate" else ("ci_low", "ci_high")
    rows = []
    for b in suite["boards"]:
        row, pairs = boards[b["key"]]
        refs = {}
        for ref, p in pairs.items():
            d, dl, dh = ((p["win_diff"], p["win_diff_low"], p["win_diff_high"])
                         if measure == "win_rate" else
                         (p["mean_diff"], p["ci_low"], p["ci_high"]))
            half = (dh - dl) / 2
            # the paired std a game, from the interval's half-width and the games played
            std = half / 1.96 * math.sqrt(p["games"]) if p["games"] > 0 else float("nan")
            refs[ref] = dict(diff=_pct(d), low=_pct(dl), high=_pct(dh), games=int(p["games"]),
                             std=round(std, 6) if std == std else None,
                             games_for_half_point=games_needed(std, 0.5) if std == std else None)
        rows.append(dict(board=b["key"], height=b["height"], width=b["width"],
                         mines=b.get("mines"), density=b.get("density"),
                         value=_pct(row[measure]), low=_pct(row[lo_col]),
                         high=_pct(row[hi_col]), games=int(row["games"]),
                         us_per_game=round(float(row["us_per_game"]), 2),
                         versus=refs,
                         published=[p for p in suite["published"] if p["board"] == b["key"]]))
    card = dict(card=1, suite=suite["name"], version=suite["version"],
                hash=suite_hash(suite), label=label_, agent=agent, measure=measure,
                games=games, games_overridden=overridden, boards=rows,
                references_from=references or "played in this run", **provenance)
    card["stopping_rule"] = stopping_rule(card)
    card["claims"] = claims(card)
    card["results_digest"] = results_digest(card)
    return card


def card_markdown(card) -> str:
    """The card as Markdown."""
    m = "win rate (%)" if card["measure"] == "win_rate" else "mean score (%)"
    out = [f"# {card['agent']} on {card['label']}", "",
           f"{card['games']:,} games a board (seed {card.get('seed')})"
           + (" — **games overridden: not comparable with the suite's cards**"
              if card["games_overridden"] else "")
           + f"; {card.get('machine')}, fastsweep {card.get('fastsweep')}, "
           f"{card.get('date')}. Results digest `{card.get('results_digest')}` (the same "
           "for this agent and suite on any machine or worker count).", "",
           f"Stopping rule: {card.get('stopping_rule') or stopping_rule(card)}. The "
           f"references' games: {card.get('references_from', 'played in this run')}.", "",
           f"| board | {m} [95% CI] | us a game | published (same conditions) |",
           "|---|---|---|---|"]
    for r in card["boards"]:
        pub = "; ".join(f"{p['value']} ({p['source']})" for p in r["published"]) or "-"
        out.append(f"| {r['board']} | {r['value']:.2f} [{r['low']:.2f}, {r['high']:.2f}] "
                   f"| {r['us_per_game']:,.1f} | {pub} |")
    refs = sorted({ref for r in card["boards"] for ref in r["versus"]})
    if refs:
        out += ["", "Paired differences, reference minus this agent, on the same games "
                "(points, 95% CI; games a 0.5-point half-width needs):", "",
                "| board | " + " | ".join(refs) + " |", "|---|" + "---|" * len(refs)]
        for r in card["boards"]:
            cells = []
            for ref in refs:
                v = r["versus"].get(ref)
                cells.append("-" if v is None else
                             f"{v['diff']:+.2f} [{v['low']:+.2f}, {v['high']:+.2f}] "
                             f"({v['games_for_half_point']:,})")
            out.append(f"| {r['board']} | " + " | ".join(cells) + " |")
    said = card.get("claims") or claims(card)
    if said:
        out += ["", "What these games support:", ""] + [f"* {c}" for c in said]
    return "\n".join(out) + "\n"


def write_card(card, base) -> list[str]:
    """``base.json`` and ``base.md``; returns the paths."""
    with open(base + ".json", "w") as f:
        json.dump(card, f, indent=1, default=str)
    with open(base + ".md", "w") as f:
        f.write(card_markdown(card))
    return [base + ".json", base + ".md"]


def read_card(path) -> dict:
    """A card from its JSON file (a clear error if it is not one)."""
    try:
        with open(path) as f:
            card = json.load(f)
    except (OSError, ValueError) as e:
        raise ValueError(f"card: cannot read {path!r} as a card's JSON: {e}") from None
    if not isinstance(card, dict) or card.get("card") != 1:
        raise ValueError(f"card: {path!r} is not a benchmark card (fastsweep benchmark "
                         "writes card.json)")
    return card


def compare(cards) -> str:
    """A Markdown table of several cards of one suite version (board x agent); cards of
    different suites, versions, hashes or game counts are refused with the reason."""
    if len(cards) < 1:
        raise ValueError("cards: give at least one card")
    first = cards[0]
    for c in cards[1:]:
        for key in ("suite", "version", "hash", "games", "games_overridden"):
            if c[key] != first[key]:
                raise ValueError(
                    f"cards: {c['agent']!r}'s card has {key} {c[key]!r} and "
                    f"{first['agent']!r}'s {first[key]!r}: cards of different suite "
                    "versions (or game counts) are not on the same games")
    m = "win rate (%)" if first["measure"] == "win_rate" else "mean score (%)"
    # a row a board, a column a card: suites have more boards than cards have agents
    out = [f"{first['label']}, {first['games']:,} games a board; {m}, 95% CI", "",
           "| board | " + " | ".join(c["agent"] for c in cards) + " |",
           "|---|" + "---|" * len(cards)]
    for i, b in enumerate(first["boards"]):
        out.append(f"| {b['board']} | " + " | ".join(
            f"{c['boards'][i]['value']:.2f} [{c['boards'][i]['low']:.2f}, "
            f"{c['boards'][i]['high']:.2f}]" for c in cards) + " |")
    return "\n".join(out) + "\n"

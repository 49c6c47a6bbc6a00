"""Are two boards folders of a suite the same games? (:func:`same_games`)

A card's results digest says two cards agree; this compares what lies under them: every
game's score and outcome of every member and chunk that both folders hold. It is how a
card made on other machine code, worker count or backend is checked against the
committed records (scripts/bench/card_identity.py).
"""
from __future__ import annotations

import json
import os


def _scores(boards) -> dict:
    """{(board, chunk key, chunk index, member): (per-game scores, per-game wins)}."""
    out = {}
    for board in sorted(os.listdir(boards)):
        path = os.path.join(boards, board, "chunks.jsonl")
        if not os.path.isfile(path):
            continue
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                for m, xs in (r.get("xs") or {}).items():
                    out[(board, r["key"], r["k"], m)] = (xs, r["ws"][m])
    return out


def same_games(boards, other) -> tuple[int, bool]:
    """(games compared, whether each has the same score and outcome in both) over the
    members and chunks that the boards folders ``boards`` and ``other`` both hold (a chunk
    cut short by a smaller game count holds the first games of the full one: the games
    both hold are compared).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     same_games(d, d)
    (0, True)
    """
    a, b = _scores(boards), _scores(other)
    n, same = 0, True
    for k in sorted(set(a) & set(b)):
        m = min(len(a[k][0]), len(b[k][0]))
        n += m
        same = same and a[k][0][:m] == b[k][0][:m] and a[k][1][:m] == b[k][1][:m]
    return n, same

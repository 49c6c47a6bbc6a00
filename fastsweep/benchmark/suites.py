"""The benchmark's named suites: versioned and frozen, each with a content hash that every
result carries.

A suite fixes its boards (size, mines, rules, first click and first cell, whether the
agent is told the mine total), its games (root seed and count, the same for every agent
and every board), the reference agents it pairs a card's agent with, the measure it
reports (win rate for classic boards, mean score for keep-going ones) and the published
figures that were made under the same conditions (marked as published, with their
source). A definition is never edited: a change is a new version (a new entry of
``SUITES[name]``), and :func:`suite_hash` of the definition tells two apart.

>>> s = get_suite("classic")
>>> s["name"], s["version"], [b["key"] for b in s["boards"]]
('classic', 1, ['beginner', 'intermediate', 'expert'])
>>> len(suite_hash(s))
16
"""
from __future__ import annotations

import copy
import hashlib
import json

_CLASSIC = dict(rules="classic", first_click="safe", first_cell=[0, 0], mine_count=True)

SUITES = {
    "classic": {
        1: dict(
            name="classic", version=1,
            about="The three standard levels under classic rules, a safe first click in "
                  "the corner (0, 0) and the mine total told: the conditions of Tu et al. "
                  "(AAAI-17 workshops), whose PSEQ and lowest-probability figures sit "
                  "beside ours.",
            boards=[dict(key="beginner", height=9, width=9, mines=10, **_CLASSIC),
                    dict(key="intermediate", height=16, width=16, mines=40, **_CLASSIC),
                    dict(key="expert", height=16, width=30, mines=99, **_CLASSIC)],
            measure="win_rate", seed=20261203, games=40_000,
            references=["probability", "pseq", "lookahead"],
            published=[
                dict(board="expert", agent="pseq", value=39.616,
                     source="Tu et al. 2017, PSEQ (safe first click in the corner, total "
                            "known)"),
                dict(board="expert", agent="probability", value=35.6,
                     source="Tu et al. 2017, the lowest-probability baseline (same "
                            "conditions)"),
                dict(board="intermediate", agent="pseq", value=78.122,
                     source="Tu et al. 2017, PSEQ on 16x16/40"),
                dict(board="intermediate", agent=None, value=78.23,
                     source="PSEQ-D256 (Tu et al.'s follow-up), 16x16/40"),
                dict(board="beginner", agent=None, value=91.69,
                     source="PSEQ-D256, 9x9/10"),
            ]),
    },
    "assignment": {
        1: dict(
            name="assignment", version=1,
            about="The assignment's keep-going game on the Rutgers reports' boards: "
                  "mean score (mines safely identified / mines), not told the mine total, "
                  "any first click (the guess order's first cell).",
            boards=[dict(key=f"{d}x{d}-{rho}", height=d, width=d, density=rho,
                         rules="keep-going", first_click="any", first_cell="random",
                         mine_count=False)
                    for d in (10, 20, 30, 40) for rho in (0.1, 0.2, 0.3, 0.5)],
            measure="mean_score", seed=20261203, games=2_000,
            references=["basic", "inference", "probability"],
            published=[]),
    },
}


def versions(name: str) -> list[int]:
    """The versions of suite ``name``, oldest first."""
    return sorted(SUITES[name])


def get_suite(name: str, version: int | None = None) -> dict:
    """A copy of suite ``name`` (``"classic"`` or ``"classic@1"``), its newest version
    unless ``version`` is given; a clear error names what exists."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"suite: expected a suite's name, one of {', '.join(SUITES)}, "
                         f"got {name!r}")
    base, _, ver = name.partition("@")
    if base not in SUITES:
        raise ValueError(f"suite: unknown suite {base!r}; suites: {', '.join(SUITES)}")
    if ver:
        if not ver.isdigit():
            raise ValueError(f"suite: a version is a whole number (classic@1), got {name!r}")
        version = int(ver)
    if version is None:
        version = versions(base)[-1]
    if version not in SUITES[base]:
        raise ValueError(f"suite: {base!r} has versions "
                         f"{', '.join(map(str, versions(base)))}, not {version}")
    return copy.deepcopy(SUITES[base][version])


def suite_hash(suite: dict) -> str:
    """The first 16 hex digits of the SHA-256 of the definition as canonical JSON: two
    definitions that differ in anything (a board, the games, a reference, a published
    figure) have different hashes."""
    text = json.dumps(suite, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def label(suite: dict) -> str:
    """``name@version #hash``: how a card names its suite."""
    return f"{suite['name']}@{suite['version']} #{suite_hash(suite)}"

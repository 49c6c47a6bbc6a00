"""What a run may change in an existing sweep folder (:func:`check_growth`).

A chunk's games are fixed by the root seed, its board (size, mines, rules, first click and
cell: the board key) and its index, and a member's play by its agent, mine_count and the
single-valued options (prior, budget). So a folder can *grow*: more games, a tighter or
looser ``ci`` (any ``games`` / ``ci`` / ``min_games`` / ``max_games``), more sizes,
densities or mines, rules, agents or mine_count settings; its finished chunks are reused.
A run that changes what fixes the games (seed, first_click, first_cell, prior, budget,
chunk_games, or a later option that one of the folder's agents takes, such as the look-ahead's
``corner_opening``) would mix different games under one summary and is refused; so is a run that
leaves out part of the folder's grid (the folder only grows, so that re-running any
earlier command never silently drops its points).
"""
from __future__ import annotations

from ..grid import member_name, with_defaults
from .integrity import FIXED_LATER, options_taken

PRECISION = ("games", "ci", "min_games", "max_games")  # free: the stopping rule only
# descriptive (agents: derived from members; own_agents: each user agent's code, checked
# by _check_own_agents, so that a folder grows by a user's agent as by a built-in one;
# summaries: the digest of summary.csv and pairs.csv, written when a run ends)
META = ("format", "ci_method", "agents", "own_agents", "summaries")
AXES = ("members", "sizes", "densities", "mines", "rules")


def fixed_keys(params) -> list:
    """Keys of ``params`` that fix the games: everything but the axes, precision and
    metadata (an unknown key from a newer version counts as fixed: safe)."""
    return [k for k in params if k not in PRECISION + META + AXES]


def _show(axis, v):
    if axis == "members":
        return member_name(*v)
    if axis == "sizes":
        return f"{v[0]}x{v[1]}"
    return f"{v:g}" if isinstance(v, float) else str(v)


def keep_ignored(stored: dict, params: dict) -> dict:
    """``params`` with the folder's values of the later options that no agent of the
    folder or of this run takes: they cannot change a game, and keeping them keeps the
    folder's params.json and its records' digests as they are.

    >>> keep_ignored({"members": [["basic", False]], "endgame": 500},
    ...              {"members": [["basic", False]], "endgame": 1000})["endgame"]
    500
    """
    stored = with_defaults(stored)
    taken = options_taken({a for p in (stored, params) for a, _ in p.get("members") or []},
                          _own(stored, params))
    return dict(params, **{k: stored[k] for k in FIXED_LATER if k not in taken and k in stored})


def _own(*ps) -> set:
    """The users' agents named in ``own_agents`` of any of ``ps``."""
    return {a for p in ps for a in (p.get("own_agents") or {})}


def _check_own_agents(stored, params, path):
    """A user's agent whose code changed since the folder's games of it were played is
    refused: its new games would be mixed with the old code's (``fresh`` sets its old
    games aside instead: :mod:`.store`)."""
    old = stored.get("own_agents") or {}
    for name, now in (params.get("own_agents") or {}).items():
        was = old.get(name)
        if was and was.get("digest") and was.get("digest") != now.get("digest"):
            raise ValueError(
                f"out: {path} holds games of your agent {name!r} played by other code (code "
                f"digest {was.get('digest')} there, {now.get('digest')} now{_what(name, was, now)}"
                f"); its new games would be mixed with the old code's: play its games afresh "
                f"with fresh={name!r} (fresh=True: all of your agents whose code changed), "
                f"restore that code, or choose a new folder")


def _what(name, was, now) -> str:
    """What changed in an agent's code: the parts of its digest (user.code_id) that differ,
    or, for a folder written before those parts (its digest: the agent's file's bytes),
    whether that file is still the one it digested."""
    a, b = was.get("code"), now.get("code") or {}
    if isinstance(a, dict) and a:
        changed = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
        return f"; changed: {', '.join(changed)}" if changed else ""
    from ...agents import USER_AGENTS
    from ...user.resolve import file_digest

    info = USER_AGENTS.get(name)
    obj = getattr(getattr(info, "player", None), "source_object", None)
    if obj is not None and file_digest(obj) == was.get("digest"):
        return ("; the folder digested its file alone, written before fastsweep digested "
                "what an agent imports: the file is unchanged, but the rest was not checked")
    return ""


def check_growth(stored: dict, params: dict, path: str) -> bool:
    """Raise a one-line ValueError if ``params`` may not run on a folder holding
    ``stored``; return whether the folder's ``params.json`` must be rewritten.

    >>> from fastsweep.sweep.grid import _resolve
    >>> old, _ = _resolve(["basic"], 8, [0.2], None, "keep-going", [False], 100, None,
    ...                   200, 1000, 0, None)
    >>> new, _ = _resolve(["basic"], 8, [0.2, 0.3], None, "keep-going", [False], 400, None,
    ...                   200, 1000, 0, None)
    >>> check_growth(old, new, "out")  # more densities and games: grows
    True
    >>> check_growth(new, old, "out")
    Traceback (most recent call last):
    ...
    ValueError: out: out holds densities 0.3 that this run lacks; a sweep folder only grows: keep them in the arguments, or choose a new folder
    """
    stored = with_defaults(stored)
    _check_own_agents(stored, params, path)
    # an option that none of the folder's agents takes did not shape its games (an agent
    # added now plays new records, whose digests carry this run's value)
    taken = options_taken({a for a, _ in stored.get("members") or []}, _own(stored, params))
    keys = sorted(k for k in set(fixed_keys(stored)) | set(fixed_keys(params))
                  if k not in FIXED_LATER or k in taken)
    diff = [k for k in keys if stored.get(k) != params.get(k)]
    if diff:
        detail = "; ".join(f"{k} {stored.get(k)!r} there, {params.get(k)!r} here" for k in diff)
        raise ValueError(
            f"out: {path} holds a sweep with different parameters ({', '.join(diff)}) that "
            f"fix its games ({detail}); re-run with the folder's values to resume or grow it, "
            f"or choose a new folder")
    for axis in AXES:
        old = [tuple(v) if isinstance(v, list) else v for v in stored.get(axis) or []]
        new = {tuple(v) if isinstance(v, list) else v for v in params.get(axis) or []}
        lacking = [v for v in old if v not in new]
        if lacking:
            what = "agents" if axis == "members" else axis
            raise ValueError(
                f"out: {path} holds {what} {', '.join(_show(axis, v) for v in lacking)} that "
                f"this run lacks; a sweep folder only grows: keep them in the arguments, or "
                f"choose a new folder")
    return any(stored.get(k) != params.get(k) for k in PRECISION + AXES)

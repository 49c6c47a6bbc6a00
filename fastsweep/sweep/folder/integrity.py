"""Trust nothing in a sweep folder that this run cannot check: record digests and record
checks (one run per folder at a time: :mod:`.lock`).

* Every chunk record carries ``id``: a digest of the record's whole content (its board
  key, chunk, games, every sum, per-game list and second) together with what fixes its
  games in *this run's* arguments (the root seed, the single-valued options its agents
  take, a user's agent's source digest). A record is read only if its digest matches: an
  edited number, or an edited ``params.json`` (another seed, say), cannot pass off games
  as other games. (A digest is a check against edits and mix-ups, not a signature: whoever
  reads this code can forge one.) Folders of format 3 (2026-11-27 .. 29) hold digests of
  the identity alone; they are still read, with every number checked for consistency, and
  rewritten with full digests when a run grows them. Records without a digest are read
  only from folders written before digests (format <= 2), with a warning.
* ``summary.csv`` and ``pairs.csv`` are tied to ``params.json`` by ``summaries`` there
  (:func:`summaries_id`, written when a run ends): a digest of the two files' text
  together with the whole of ``params.json``. A folder read without chunk records (as
  committed) is refused if it does not match (an edited seed or row); one from before
  (format <= 4) is read with a warning that its numbers are unchecked.
* A record must be well formed: fields, types and ranges (integers where counts are,
  ``wins <= n``, per-game scores within the board's mines, sums equal to the per-game
  lists), its first game ``k * chunk``, and two records of one chunk must agree.
  Anything else is refused with the file and line.
"""

from __future__ import annotations

import hashlib
import json
import math
import warnings

from ...agents import AGENTS, agent_info, is_agent
from ...options import OPTIONS, ORIGINAL

# a folder's format (params.json): 5, summary.csv and pairs.csv carry a digest
# (``summaries`` in params.json) and users' agents are digested by their code
# (user.code_id); 4, record digests cover their numbers; 3, their identity only; 2, board
# keys, no digest; 1, board indices. Records are written as in format 4.
FORMAT = 5
RECORD_FORMAT = 4
BIG = 2 ** 53  # counts beyond it cannot be a sweep's (and floats would lose them)
FIXED = ("seed", "first_click", "first_cell", "prior", "budget")
# options added later fix the games too; each with its neutral value (the option table's
# ``neutral`` column), the play from before it existed (not always today's default:
# corner_opening is on by default since 2026-11-27). An option enters a record's digest
# only when one of the record's agents takes it and it is not neutral, so records written
# before it existed keep their digests
FIXED_LATER = {o.name: o.neutral for o in OPTIONS if o.neutral != ORIGINAL}


def _member(label):
    """(agent, mine_count) of a record's member label ``"agent:0"``."""
    agent, _, mc = str(label).rpartition(":")
    return agent, mc


# later options of the game itself (the sensors), not of an agent: they shape every game
GAME_OPTIONS = ("noise",)


def options_taken(agents, own=()) -> set:
    """The later options (``FIXED_LATER``) that shape the games of ``agents``: the game's
    own and those any of them takes; the others cannot change their games (an unknown
    agent, from a newer version, takes them all: safe). ``own``: the users' agents of the
    folder (``own_agents``), which take the game's options only, registered in this
    process or not (a folder is read without its agents' code).

    >>> sorted(options_taken(["probability", "risk"]))
    ['flag_threshold', 'noise', 'noise_aware', 'risk_rules']
    """
    out = set(GAME_OPTIONS)
    for a in agents:
        if a in own and a not in AGENTS:
            continue
        out |= set(agent_info(a).options) & set(FIXED_LATER) if is_agent(a) else set(FIXED_LATER)
    return out


def identity_id(params, rec, legacy=False) -> str:
    """The digest a record of format 3 carries: what identifies its games, not its numbers
    (16 hex digits); ``legacy``: as written before 2026-11-27, with every later option
    away from neutral, taken by the record's agents or not."""
    what = [3, [params.get(k) for k in FIXED], rec.get("key"), rec.get("k"),
            rec.get("first"), rec.get("games"), sorted(rec.get("m", {}))]
    return _digest(what + _fixing(params, rec, legacy))


def record_id(params, rec) -> str:
    """The digest a record of the run ``params`` carries (16 hex digits): its whole
    content but ``id`` and what fixes its games in ``params``."""
    content = {f: v for f, v in rec.items() if f != "id"}
    what = [RECORD_FORMAT, [params.get(k) for k in FIXED], content]
    return _digest(what + _fixing(params, rec, False))


def _fixing(params, rec, legacy):
    """The later options and user agents' code digests that fix ``rec``'s games."""
    out = []
    own = params.get("own_agents") or {}
    taken = (set(FIXED_LATER) if legacy
             else options_taken((a for a, _ in map(_member, rec.get("m", {}))), own))
    later = sorted((k, params[k]) for k, d in FIXED_LATER.items()
                   if k in taken and params.get(k, d) != d)
    if later:
        out.append(later)
    code = sorted((a, own[a].get("digest")) for a, _ in map(_member, rec.get("m", {}))
                  if a in own)
    if code:  # a user's agent's games are its code's: the digest of its source
        out.append(code)
    return out


def summaries_id(params, summary_text, pairs_text) -> str:
    """The digest that ties a folder's ``summary.csv`` and ``pairs.csv`` (their text, line
    ends aside) to its ``params.json`` (all of it but this digest itself), 16 hex
    digits."""
    p = {k: v for k, v in params.items() if k != "summaries"}
    text = [hashlib.sha256(t.replace("\r\n", "\n").encode()).hexdigest()
            for t in (summary_text, pairs_text)]
    return _digest(["summaries", p, text])


def summaries_problem(stored, summary_text, pairs_text) -> str | None:
    """Why a folder's summaries may not be read with its ``params.json`` (None: they may;
    "unchecked": a folder from before their digest, whose numbers nothing ties to it)."""
    have = stored.get("summaries")
    if have is None:
        if stored.get("format", 1) >= 5:
            return (f"its params.json says format {stored['format']}, whose summaries carry "
                    f"a digest (summaries), but it has none: removed, or params.json "
                    f"rewritten by a run that did not finish; re-run the sweep's command")
        return "unchecked"
    if have != summaries_id(stored, summary_text, pairs_text):
        return ("summary.csv, pairs.csv and params.json are not as the sweep wrote them "
                "together (the digest in params.json does not match: one of them was "
                "edited, or params.json was rewritten by a run that did not finish); re-run "
                "the sweep's command to rewrite them, or restore the files")
    return None


def _digest(what) -> str:
    return hashlib.sha256(json.dumps(what, sort_keys=True).encode()).hexdigest()[:16]


def _int(v, lo=0, hi=BIG):
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


COUNTS = ("n", "x1", "x2", "wins")  # a member's sums every record holds
MORE = ("det", "guess", "moves", "approx", "wrong", "sdet", "drop")  # 0 when absent (older)


def record_problem(rec, params, boards, fmt=RECORD_FORMAT) -> str | None:
    """Why ``rec`` may not be used by the run ``params`` (None: it may). ``boards``: the
    run's boards by key (games per chunk ``chunk``, ``mines``); ``fmt``: the folder's
    format (which digests its records may carry)."""
    if not isinstance(rec, dict):
        return "not a record"
    key, k, first, games, m = (rec.get(f) for f in ("key", "k", "first", "games", "m"))
    if not isinstance(key, str) or not _int(k) or not _int(games, 1) or not _int(first):
        return "key, chunk index, first game or game count missing or invalid"
    if not isinstance(m, dict) or not m:
        return "no member results"
    bd = boards.get(key)
    top = max(bd["mines"], 1) if bd else BIG  # a game's score: mines found (1 if none)
    for lab, s in m.items():
        if not isinstance(s, dict) or not all(_int(s.get(f)) for f in COUNTS):
            return f"member {lab!r}: sums n, x1, x2, wins missing or not non-negative integers"
        if not all(_int(s.get(f, 0)) for f in MORE):
            bad = next(f for f in MORE if not _int(s.get(f, 0)))
            return f"member {lab!r}: {bad} is {s[bad]!r}, not a non-negative integer"
        sec = s.get("sec")
        if (not isinstance(sec, (int, float)) or isinstance(sec, bool)
                or not math.isfinite(sec) or sec < 0):
            return f"member {lab!r}: sec is {sec!r}, not a number of seconds >= 0"
        n, x1, x2 = s["n"], s["x1"], s["x2"]
        if n != games or s["wins"] > n or x1 > n * top or x2 > x1 * top or x2 * n < x1 * x1:
            return (f"member {lab!r}: sums inconsistent with {games} games of at most "
                    f"{top} mines found each")
    xs = rec.get("xs", {})
    if not isinstance(xs, dict):
        return "per-game scores (xs) not a mapping"
    for lab, v in xs.items():
        if (lab not in m or not isinstance(v, list) or len(v) != games
                or not all(_int(x, 0, top) for x in v)):
            return (f"per-game scores (xs) of {lab!r}: not {games} integers in [0, {top}] "
                    f"of a member of the record")
        if sum(v) != m[lab]["x1"] or sum(x * x for x in v) != m[lab]["x2"]:
            return f"per-game scores (xs) of {lab!r} do not add up to its sums x1, x2"
    ws = rec.get("ws", {})
    if not isinstance(ws, dict) or any(lab not in m or not isinstance(v, list)
                                       or len(v) != games or not all(_int(w, 0, 1) for w in v)
                                       or sum(v) != m[lab]["wins"]
                                       for lab, v in ws.items()):
        return "per-game wins (ws) not 0/1, of the wrong length or not summing to the wins"
    p = rec.get("p", {})
    if not isinstance(p, dict) or not all(  # (format 1: [sum of B - A, sum of its square])
            isinstance(v, list) and len(v) == 2 and _int(v[0], -BIG) and _int(v[1])
            for v in p.values()):
        return "paired sums (p) not pairs of integers"
    if bd is not None and (first != k * bd["chunk"] or games > bd["chunk"]):
        return (f"games {first}.. of chunk {k} do not match the board's chunks of "
                f"{bd['chunk']} games")
    if "id" not in rec:
        if fmt >= 3:
            return (f"no digest (id), but the folder's params.json says format {fmt}, whose "
                    f"records all carry one: removed or edited")
        return None
    ok = rec["id"] == record_id(params, rec) or (
        fmt == 3 and rec["id"] in (identity_id(params, rec), identity_id(params, rec, True)))
    if not ok:
        return ("written by a sweep with other parameters (seed, first click or cell, prior, "
                "budget, agent options) or edited since (its digest does not match)")
    return None


def check_records(recs, lines, params, boards, path, fmt=RECORD_FORMAT) -> int:
    """Raise a ValueError naming ``path`` and the line of the first record that may not
    be used (``boards``, ``fmt``: as :func:`record_problem`); warn once if some records
    predate digests (they cannot be checked against the arguments). Returns how many
    records lack a digest of their content (to rewrite when the folder is next written)."""
    legacy = short = 0
    seen = {}
    for rec, line in zip(recs, lines):
        why = record_problem(rec, params, boards, fmt)
        if why:
            raise ValueError(f"out: {path} line {line}: chunk record refused: {why}; move the "
                             f"folder aside (or delete that line) and re-run")
        legacy += "id" not in rec
        short += rec.get("id") != record_id(params, rec)
        for lab, s in rec["m"].items():
            # (a last chunk cut at another game count is another record, not a duplicate)
            at = (rec["key"], rec["k"], rec["games"], lab)
            if at in seen and seen[at][0] != (s["n"], s["x1"], s["x2"]):
                raise ValueError(
                    f"out: {path} lines {seen[at][1]} and {line}: two records of chunk "
                    f"{rec['k']} of board {rec['key']} give {lab} different results; the "
                    f"folder is damaged: move it aside")
            seen.setdefault(at, ((s["n"], s["x1"], s["x2"]), line))
    if legacy:
        warnings.warn(f"{path}: {legacy} chunk record(s) written before record digests "
                      f"(fastsweep format <= 2) cannot be checked against this run's "
                      f"arguments; they are used as the folder's params.json describes them",
                      stacklevel=4)
    return short

"""Trust nothing in a sweep folder that this run cannot check: record digests, record
checks, and one run per folder at a time.

* Every chunk record carries ``id``: a digest of what identifies its games (the record
  format, the root seed, the single-valued options that fix the games, its board key,
  chunk index and game range, and the members it holds). A record is read only if the
  digest computed from *this run's* arguments matches: an edited ``params.json`` (another
  seed, say) cannot pass off old games under new parameters.
* A record must be well formed (fields, types, ranges; its first game ``k * chunk``), and
  two records of one chunk must agree. Anything else is refused with the file and line.
* :class:`FolderLock`: an exclusive lock file beside the folder (``.NAME.lock``, created
  with O_EXCL, holding the owner's pid and host), removed on exit; a lock left by a
  crashed run on this host (its pid is gone) is taken over with a warning.
"""
from __future__ import annotations

import hashlib
import json
import os
import socket
import time
import warnings

from ..agents import agent_info, is_agent
from ..options import OPTIONS, ORIGINAL

RECORD_FORMAT = 3  # format 3: records carry "id" (format 2: keys, no digest; 1: indices)
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


def options_taken(agents) -> set:
    """The later options (``FIXED_LATER``) that shape the games of ``agents``: the game's
    own and those any of them takes; the others cannot change their games (an unknown
    agent, from a newer version, takes them all: safe).

    >>> sorted(options_taken(["probability", "risk"]))
    ['flag_threshold', 'noise', 'noise_aware', 'risk_rules']
    """
    out = set(GAME_OPTIONS)
    for a in agents:
        out |= set(agent_info(a).options) & set(FIXED_LATER) if is_agent(a) else set(FIXED_LATER)
    return out


def record_id(params, rec, legacy=False) -> str:
    """The digest a record of the run ``params`` must carry (16 hex digits); ``legacy``:
    as written before 2026-11-27, with every later option away from neutral, taken by the
    record's agents or not (still accepted when read)."""
    what = [RECORD_FORMAT, [params.get(k) for k in FIXED], rec.get("key"), rec.get("k"),
            rec.get("first"), rec.get("games"), sorted(rec.get("m", {}))]
    taken = (set(FIXED_LATER) if legacy
             else options_taken(a for a, _ in map(_member, rec.get("m", {}))))
    later = sorted((k, params[k]) for k, d in FIXED_LATER.items()
                   if k in taken and params.get(k, d) != d)
    if later:
        what.append(later)
    own = params.get("own_agents") or {}
    code = sorted((a, own[a].get("digest")) for a, _ in map(_member, rec.get("m", {}))
                  if a in own)
    if code:  # a user's agent's games are its code's: the digest of its source
        what.append(code)
    return hashlib.sha256(json.dumps(what, sort_keys=True).encode()).hexdigest()[:16]


def _int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def record_problem(rec, params, chunk_of_key) -> str | None:
    """Why ``rec`` may not be used by the run ``params`` (None: it may).
    ``chunk_of_key``: games per chunk of each board key of the run's grid."""
    if not isinstance(rec, dict):
        return "not a record"
    key, k, first, games, m = (rec.get(f) for f in ("key", "k", "first", "games", "m"))
    if not isinstance(key, str) or not _int(k) or k < 0 or not _int(games) or games < 1:
        return "key, chunk index or game count missing or invalid"
    if not isinstance(m, dict) or not m:
        return "no member results"
    for lab, s in m.items():
        if not isinstance(s, dict) or not all(_int(s.get(f)) for f in ("n", "x1", "x2")):
            return f"member {lab!r}: sums missing or not integers"
        if s["n"] != games or s["x1"] < 0 or s["x2"] < s["x1"]:
            return f"member {lab!r}: sums inconsistent with {games} games"
    xs = rec.get("xs", {})
    if not isinstance(xs, dict) or any(not isinstance(v, list) or len(v) != games
                                       for v in xs.values()):
        return "per-game scores of the wrong length"
    ws = rec.get("ws", {})
    if not isinstance(ws, dict) or any(not isinstance(v, list) or len(v) != games
                                       or any(w not in (0, 1) for w in v)
                                       or (lab in m and sum(v) != m[lab].get("wins"))
                                       for lab, v in ws.items()):
        return "per-game wins (ws) not 0/1, of the wrong length or not summing to the wins"
    c = chunk_of_key.get(key)
    if c is not None and (first != k * c or games > c):
        return f"games {first}.. of chunk {k} do not match the board's chunks of {c} games"
    if "id" in rec and rec["id"] != record_id(params, rec) and rec["id"] != record_id(
            params, rec, legacy=True):
        return ("written by a sweep with other parameters (seed, first click or cell, prior, "
                "budget, agent options) or edited since")
    return None


def check_records(recs, lines, params, chunk_of_key, path):
    """Raise a ValueError naming ``path`` and the line of the first record that may not
    be used; warn once if some records predate digests (they cannot be checked against
    the arguments)."""
    legacy = 0
    seen = {}
    for rec, line in zip(recs, lines):
        why = record_problem(rec, params, chunk_of_key)
        if why:
            raise ValueError(f"out: {path} line {line}: chunk record refused: {why}; move the "
                             f"folder aside (or delete that line) and re-run")
        legacy += "id" not in rec
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


class FolderLock:
    """One sweep per output folder at a time (see the module header)."""

    def __init__(self, folder):
        self.folder = folder
        folder = os.path.abspath(folder)
        self.path = os.path.join(os.path.dirname(folder), f".{os.path.basename(folder)}.lock")
        self.held = False

    def acquire(self):
        try:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
        except OSError as e:
            raise OSError(f"out: cannot create {os.path.dirname(self.path)}: "
                          f"{e.strerror or e}") from None
        me = {"pid": os.getpid(), "host": socket.gethostname(), "since": time.time()}
        for attempt in range(2):
            try:
                fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except PermissionError as e:
                raise OSError(f"out: cannot write beside {self.folder} (its lock file "
                              f"{self.path}): {e.strerror}") from None
            except FileExistsError:
                owner = self._owner()
                if attempt == 0 and self._stale(owner):
                    warnings.warn(f"{self.path}: taking over the lock of a sweep that is gone "
                                  f"(pid {owner.get('pid')} on {owner.get('host')})",
                                  stacklevel=3)
                    try:
                        os.remove(self.path)
                    except FileNotFoundError:
                        pass
                    continue
                since = time.strftime("%Y-%m-%d %H:%M:%S",
                                      time.localtime(owner.get("since", 0)))
                raise ValueError(
                    f"out: {self.folder} is in use by another sweep "
                    f"(pid {owner.get('pid')} on {owner.get('host')}, since {since}); wait for "
                    f"it, or delete {self.path} if no such run is alive") from None
            with os.fdopen(fd, "w") as f:
                json.dump(me, f)
            self.held = True
            return self

    def _owner(self):
        try:
            with open(self.path) as f:
                return json.load(f)
        except (OSError, ValueError):
            return {}

    @staticmethod
    def _stale(owner):
        """A lock of this host whose process is gone (or an unreadable lock file)."""
        if not owner:
            return True
        if owner.get("host") != socket.gethostname():
            return False  # another machine's run: cannot tell; leave it to the user
        try:
            os.kill(int(owner["pid"]), 0)
        except ProcessLookupError:
            return True
        except (PermissionError, KeyError, ValueError, TypeError):
            return False
        return False

    def release(self):
        if self.held:
            self.held = False
            try:
                os.remove(self.path)
            except FileNotFoundError:
                pass

    def __enter__(self):
        return self.acquire()

    def __exit__(self, *exc):
        self.release()

"""The sweep's output folder: ``params.json`` (the sweep it holds; a run may grow it, see
:mod:`.grow`), ``chunks.jsonl`` (one line of sums per finished chunk, appended and
fsynced; a torn last line is cut off) and ``per_game/`` files.

Opening is read-only (:class:`_Store` checks the folder against the run and reads its
records); :meth:`_Store.open` writes, and the driver calls it only once the backend has
started, so a run that fails to start leaves no folder (or an unchanged one) behind.
"""
from __future__ import annotations

import json
import os
import re

from ..grid import board_key, from_params
from .grow import check_growth, keep_ignored
from .integrity import FORMAT, check_records, record_id, summaries_id


def _fsync_write(path, text):
    """Write ``path`` whole or not at all (a temporary file, fsynced, then renamed); a
    failure (a full disk) leaves no temporary file behind."""
    tmp = f"{path}.{os.getpid()}.tmp"  # per process: two writers never share a temp file
    try:
        with open(tmp, "w") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise


def folder_arg(value, name) -> str:
    """A folder argument (``out``, ``path``) as a string: a non-empty str or path."""
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str) or not value.strip() or "\0" in value:
        raise ValueError(f"{name}: expected a folder's path (a non-empty string or "
                         f"os.PathLike), got {value!r}")
    return value


REQUIRED = ("members", "sizes", "rules", "seed")


def read_params(pfile) -> dict:
    """A folder's ``params.json``, refused in one line if it is not a sweep's."""
    try:
        with open(pfile) as f:
            stored = json.load(f)
    except ValueError:
        raise ValueError(f"out: {pfile} is not valid JSON (damaged or not written by "
                         f"fastsweep); move the folder aside") from None
    except OSError as e:
        raise OSError(f"out: cannot read {pfile}: {e.strerror}") from None
    if not isinstance(stored, dict) or any(k not in stored for k in REQUIRED):
        raise ValueError(f"out: {pfile} does not describe a fastsweep sweep (it needs "
                         f"{', '.join(REQUIRED)}); choose another folder")
    why = _params_problem(stored)
    if why:
        raise ValueError(f"out: {pfile}: {why} (damaged or edited); move the folder aside")
    return stored


def _params_problem(p) -> str | None:
    """What is malformed in a stored ``params.json`` (its shapes only: the values are
    checked when the grid is rebuilt from it), or None."""
    fmt = p.get("format", 1)
    if not isinstance(fmt, int) or isinstance(fmt, bool) or not 1 <= fmt <= FORMAT:
        return (f"format {fmt!r} is not one this fastsweep reads (1..{FORMAT}; a newer "
                f"fastsweep wrote it?)")
    members = p["members"]
    if (not isinstance(members, list) or not members
            or not all(isinstance(m, list) and len(m) == 2 and isinstance(m[0], str)
                       and isinstance(m[1], bool) for m in members)):
        return "members must be a non-empty list of [agent, mine_count] pairs"
    sizes = p["sizes"]
    if (not isinstance(sizes, list) or not sizes
            or not all(isinstance(s, list) and len(s) == 2
                       and all(isinstance(v, int) and not isinstance(v, bool) for v in s)
                       for s in sizes)):
        return "sizes must be a non-empty list of [height, width] integer pairs"
    rules = p["rules"]
    if not isinstance(rules, list) or not rules or not all(isinstance(r, str) for r in rules):
        return "rules must be a non-empty list of names"
    seed = p["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        return f"seed {seed!r} is not a non-negative integer"
    return None


def read_records(path, params):
    """(records, byte length of the complete lines) of ``path``/chunks.jsonl; records of
    format 1 (a board index ``b`` instead of a ``key``) get the key of that board in
    ``params`` (the folder's own stored parameters)."""
    chunks = os.path.join(path, "chunks.jsonl")
    if not os.path.exists(chunks):
        return [], 0, []
    try:
        with open(chunks, "rb") as f:
            data = f.read()
    except OSError as e:
        raise OSError(f"out: cannot read {chunks}: {e.strerror}") from None
    end = data.rfind(b"\n") + 1  # a crash mid-write leaves a torn last line: drop it
    recs, lines = [], []
    for i, line in enumerate(data[:end].decode(errors="replace").splitlines(), 1):
        if not line.strip():
            continue
        try:
            recs.append(json.loads(line))
        except ValueError:
            raise ValueError(f"out: {chunks} line {i}: not a chunk record (damaged or "
                             f"edited); move the folder aside (or delete that line) and "
                             f"re-run") from None
        lines.append(i)
    if any(not isinstance(r, dict) for r in recs):
        i = lines[next(j for j, r in enumerate(recs) if not isinstance(r, dict))]
        raise ValueError(f"out: {chunks} line {i}: not a chunk record; move the folder aside")
    if any("key" not in r for r in recs):
        keys = [board_key(bd) for bd in from_params(params)[1]]
        for r, i in zip(recs, lines):
            if "key" not in r:
                b = r.pop("b", None)
                if not isinstance(b, int) or isinstance(b, bool) or not 0 <= b < len(keys):
                    raise ValueError(f"out: {chunks} line {i}: a chunk of board {b!r}, outside "
                                     f"the folder's grid; move the folder aside")
                r["key"] = keys[b]
    return recs, end, lines


class _Store:
    """The output folder: parameters, appended chunk records, per-game files, summaries."""

    def __init__(self, path, params, per_game, boards=None, fresh=()):
        self.path = path
        self.params = params
        self.per_game = per_game
        self.chunks = os.path.join(path, "chunks.jsonl")
        self.pfile = os.path.join(path, "params.json")
        self.stored = None
        self.rewrite = True
        if os.path.exists(path) and not os.path.isdir(path):
            raise ValueError(f"out: {path} is a file; give a folder (new, empty, or one "
                             f"written by fastsweep sweep)")
        self.dropped = 0  # records changed by setting aside a changed agent's games
        if os.path.exists(self.pfile):
            self.stored = read_params(self.pfile)
            renewed = _renewed(self.stored, params, fresh)
            if renewed and per_game and os.path.isdir(os.path.join(path, "per_game")):
                raise ValueError(f"fresh: {path} keeps per-game files, which hold the old "
                                 "code's games with the others'; use a new folder")
            self.rewrite = check_growth(_with_digests(self.stored, params, renewed), params,
                                        path)
            self.params = params = keep_ignored(self.stored, params)
        elif os.path.isdir(path) and os.listdir(path):
            raise ValueError(f"out: {path} exists, is not empty and has no params.json; "
                             f"choose a new or empty folder")
        self.records, self._end, lines = (read_records(path, self.stored) if self.stored
                                          else ([], 0, []))
        if self.stored and renewed:
            self.records, lines, self.dropped = _set_aside(self.records, lines, renewed,
                                                           params)
            self.rewrite = True
        # every record is checked against this run's arguments before any is used
        fmt = self.stored.get("format", 1) if self.stored else FORMAT  # (checked on reading)
        self.short = check_records(self.records, lines, params, boards or {}, self.chunks, fmt)

    def open(self):
        try:
            self._open()
        except OSError as e:
            raise OSError(f"out: cannot write to {self.path}: {e.strerror or e}") from None

    def _open(self):
        """Create the folder and write ``params.json`` (again, if the run grows the sweep).
        When ``params.json`` is rewritten (a grown folder), its records are too if some
        lack a digest of their content (formats 1-3; format-1 records also get their board
        keys, since their indices refer to the old grid), so that every record of a
        folder of this format carries one."""
        os.makedirs(self.path, exist_ok=True)
        if os.path.exists(self.chunks) and os.path.getsize(self.chunks) > self._end:
            with open(self.chunks, "r+b") as f:
                f.truncate(self._end)
        if self.rewrite:
            # (a changed agent's games set aside with fresh: the records without them)
            if self.dropped or self.short:
                for r in self.records:
                    r["id"] = record_id(self.params, r)
                _fsync_write(self.chunks, "".join(
                    json.dumps(r, separators=(",", ":")) + "\n" for r in self.records))
            _fsync_write(self.pfile, json.dumps(self.params, indent=1) + "\n")
            self.rewrite = False
        if self.per_game:
            os.makedirs(os.path.join(self.path, "per_game"), exist_ok=True)

    def write_summaries(self, summary_text, pairs_text):
        """Write ``summary.csv`` and ``pairs.csv``, then their digest into ``params.json``
        (``summaries``: :func:`.integrity.summaries_id` over the two and the params.json
        on disk), so that a folder read without its chunk records is checked."""
        _fsync_write(os.path.join(self.path, "summary.csv"), summary_text)
        _fsync_write(os.path.join(self.path, "pairs.csv"), pairs_text)
        params = read_params(self.pfile)
        sid = summaries_id(params, summary_text, pairs_text)
        if params.get("summaries") != sid:
            _fsync_write(self.pfile, json.dumps(dict(params, summaries=sid), indent=1) + "\n")

    def append(self, results):
        try:
            self._append(results)
        except OSError as e:
            raise OSError(f"out: cannot write to {self.path}: {e.strerror or e} (the chunks "
                          f"written so far are kept; re-run to resume)") from None

    def _append(self, results):
        if self.per_game:
            for rec, df in results:
                if df is None:
                    continue
                who = "-".join(_file_safe(f"{a}{int(mc)}") for a, mc in
                               df[["agent", "mine_count"]].drop_duplicates().itertuples(index=False))
                p = os.path.join(self.path, "per_game", f"{rec['key']}_k{rec['k']:06d}_{who}.csv")
                df.to_csv(p + ".tmp", index=False)
                os.replace(p + ".tmp", p)
        for rec, _ in results:
            rec["id"] = record_id(self.params, rec)
        text = "".join(json.dumps(rec, separators=(",", ":")) + "\n" for rec, _ in results)
        # one write + fsync per batch: a line is either complete or cut off and dropped
        with open(self.chunks, "a") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())


def _renewed(stored, params, fresh) -> set:
    """The agents of ``fresh`` whose source digest differs from the folder's record."""
    old = stored.get("own_agents") or {}
    new = params.get("own_agents") or {}
    return {a for a in fresh if a in old and a in new
            and old[a].get("digest") != new[a].get("digest")}


def _with_digests(stored, params, renewed):
    """``stored`` with the renewed agents' digests replaced by this run's."""
    if not renewed:
        return stored
    own = dict(stored.get("own_agents") or {})
    for a in renewed:
        own[a] = params["own_agents"][a]
    return dict(stored, own_agents=own)


def _set_aside(records, lines, renewed, params):
    """The records without the renewed agents' members (a record left with no member is
    dropped), their digests recomputed for this run; (records, lines, records changed)."""
    keep, kept_lines, changed = [], [], 0
    for rec, line in zip(records, lines):
        labels = [lab for lab in rec.get("m", {}) if str(lab).rpartition(":")[0] in renewed]
        if labels:
            changed += 1
            for field in ("m", "xs", "ws"):
                for lab in labels:
                    rec.get(field, {}).pop(lab, None)
            if "p" in rec:
                rec["p"] = {k: v for k, v in rec["p"].items()
                            if not any(lab in k.split("|") for lab in labels)}
            if not rec["m"]:
                continue
            rec["id"] = record_id(params, rec)
        keep.append(rec)
        kept_lines.append(line)
    return keep, kept_lines, changed


def _file_safe(name: str) -> str:
    """``name`` as a file name's part: a user's agent named by import path
    (``dir/file.py:Attr``) keeps its letters, digits, dots and dashes; the rest become _.

    >>> _file_safe("examples/basic_python.py:Basic1")
    'examples_basic_python.py_Basic1'
    """
    return re.sub(r"[^A-Za-z0-9.+-]", "_", name)


def _append(store, results):
    if store is not None:
        store.append(results)

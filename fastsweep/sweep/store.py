"""The sweep's output folder: ``params.json`` (a different grid is refused),
``chunks.jsonl`` (one line of sums per finished chunk, appended and fsynced; a torn last
line is cut off on load) and ``per_game/`` files.
"""
from __future__ import annotations

import json
import os

from .grid import with_defaults


def _fsync_write(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


class _Store:
    """The output folder: parameters, appended chunk records, per-game files, summaries."""

    def __init__(self, path, params, per_game):
        self.path = path
        self.per_game = per_game
        self.chunks = os.path.join(path, "chunks.jsonl")
        pfile = os.path.join(path, "params.json")
        if os.path.exists(pfile):
            with open(pfile) as f:
                old = with_defaults(json.load(f))
            if old != params:
                diff = sorted(k for k in set(old) | set(params) if old.get(k) != params.get(k))
                raise ValueError(
                    f"out: {path} holds a sweep with different parameters ({', '.join(diff)}); "
                    f"re-run with the same arguments to resume, or choose a new folder")
        elif os.path.isdir(path) and os.listdir(path):
            raise ValueError(f"out: {path} exists, is not empty and has no params.json; "
                             f"choose a new or empty folder")
        os.makedirs(path, exist_ok=True)
        if not os.path.exists(pfile):
            _fsync_write(pfile, json.dumps(params, indent=1) + "\n")
        if per_game:
            os.makedirs(os.path.join(path, "per_game"), exist_ok=True)

    def load(self):
        """Finished chunk records; a torn last line (crash mid-write) is cut off."""
        if not os.path.exists(self.chunks):
            return []
        with open(self.chunks, "rb") as f:
            data = f.read()
        end = data.rfind(b"\n") + 1
        if end < len(data):
            with open(self.chunks, "r+b") as f:
                f.truncate(end)
        return [json.loads(line) for line in data[:end].decode().splitlines() if line.strip()]

    def append(self, results):
        if self.per_game:
            for rec, df in results:
                p = os.path.join(self.path, "per_game", f"b{rec['b']:05d}_k{rec['k']:06d}.csv")
                df.to_csv(p + ".tmp", index=False)
                os.replace(p + ".tmp", p)
        text = "".join(json.dumps(rec, separators=(",", ":")) + "\n" for rec, _ in results)
        # one write + fsync per batch: a line is either complete or cut off and dropped
        with open(self.chunks, "a") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())


def _append(store, results):
    if store is not None:
        store.append(results)


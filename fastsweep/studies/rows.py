"""A study's CSV of one row per finished task (:class:`RowFile`): appended and flushed as
each task ends, so an interrupted run loses nothing and a rerun skips the tasks already
there (by a key of some columns); when the study is done, :meth:`RowFile.sort` puts the
rows in the order of the study's tasks, so the file does not depend on which worker
finished first.
"""
from __future__ import annotations

import csv
import os


class RowFile:
    """The CSV at ``path`` with columns ``fields``, rows keyed by the columns ``key``.

    A file written before a column was added keeps its own columns (the new one is left
    out of its rows). Keys compare as the text written to the file (``str`` of each
    value), so ``done((30, 0.2))`` matches a row written from the same values.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "t.csv")
    >>> with RowFile(path, ["a", "b", "x"], key=("a", "b")) as f:
    ...     f.add(dict(a=2, b="y", x=0.5)); f.add(dict(a=1, b="y", x=0.25))
    >>> f = RowFile(path, ["a", "b", "x"], key=("a", "b"))
    >>> f.done((1, "y")), f.done((3, "y"))
    (True, False)
    >>> f.sort([(1, "y"), (2, "y")]); open(path).read().split()
    ['a,b,x', '1,y,0.25', '2,y,0.5']
    """

    def __init__(self, path, fields, key):
        self.path, self.key = path, tuple(key)
        self.fields = list(fields)
        self._done = set()
        self._f = self._w = None
        if os.path.exists(path):
            with open(path, newline="") as f:
                rows = csv.DictReader(f)
                self.fields = list(rows.fieldnames or self.fields)
                self._done = {tuple(r[k] for k in self.key) for r in rows}

    @staticmethod
    def _text(values):
        return tuple(str(v) for v in values)

    def done(self, values) -> bool:
        """Whether a row with these key values is in the file."""
        return self._text(values) in self._done

    def add(self, row):
        """Append ``row`` (a dict; columns not in the file are left out) and flush."""
        if self._f is None:
            new = not os.path.exists(self.path) or os.path.getsize(self.path) == 0
            self._f = open(self.path, "a", newline="")
            self._w = csv.DictWriter(self._f, fieldnames=self.fields, extrasaction="ignore")
            if new:
                self._w.writeheader()
        self._w.writerow(row)
        self._f.flush()
        self._done.add(self._text(row[k] for k in self.key))

    def close(self):
        if self._f is not None:
            self._f.close()
            self._f = self._w = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def sort(self, order):
        """Rewrite the file with its rows in the order of the keys ``order`` (rows of
        other keys, from an earlier run with other settings, last, as they were)."""
        self.close()
        if not os.path.exists(self.path):
            return
        rank = {self._text(k): i for i, k in enumerate(order)}
        with open(self.path, newline="") as f:
            rows = list(csv.DictReader(f))
        rows.sort(key=lambda r: rank.get(tuple(r[k] for k in self.key), len(rank)))
        tmp = self.path + ".tmp"
        with open(tmp, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=self.fields)
            w.writeheader()
            w.writerows(rows)
        os.replace(tmp, self.path)

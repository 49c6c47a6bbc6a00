"""Progress of a running sweep: a tqdm bar on a terminal; otherwise (output redirected to a
file, a CI log, nohup) a plain line every :data:`INTERVAL` seconds, since a bar is either
disabled or an unreadable stream of carriage returns there.
"""
from __future__ import annotations

import sys
import time

INTERVAL = 15.0  # seconds between plain progress lines


def _hms(seconds):
    """``75 -> '1:15'``, ``3725 -> '1:02:05'``."""
    s = int(round(seconds))
    h, m = divmod(s // 60, 60)
    return f"{h}:{m:02d}:{s % 60:02d}" if h else f"{m}:{s % 60:02d}"


class Progress:
    """Games done out of an estimated total (``add_total`` when the adaptive plan grows).

    ``points`` is the number of configurations and ``points_done()`` counts the finished
    ones (asked only when a line is printed). ``clock`` and ``interval`` are for tests.

    >>> import io
    >>> t = [0.0]
    >>> out = io.StringIO()
    >>> p = Progress(1000, 200, 4, lambda: 1, quiet=False, stream=out, clock=lambda: t[0],
    ...              interval=10)
    >>> t[0] = 12.0; p.update(200)
    >>> print(out.getvalue().splitlines()[-1])
    sweep: 1/4 points done, 400/1,000 games, 0:12 elapsed, about 0:36 remaining
    """

    def __init__(self, total, initial, points, points_done, quiet=False, stream=None,
                 clock=time.monotonic, interval=None):
        self.stream = stream or sys.stderr
        self.total, self.done, self.start_done = total, initial, initial
        self.points, self.points_done = points, points_done
        self.clock, self.interval = clock, INTERVAL if interval is None else interval
        self.t0 = self.last = clock()
        tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.plain = not quiet and not tty
        self.bar = None
        if not quiet and tty:
            from tqdm.auto import tqdm

            self.bar = tqdm(total=total, initial=initial, unit="game", unit_scale=True,
                            smoothing=0.05, desc="sweep", dynamic_ncols=True, file=self.stream)
        if self.plain:
            self._line(f"sweep: {points:,} points, {total - initial:,} games planned so far"
                       + (f" ({initial:,} done already)" if initial else "")
                       + f"; a line every {self.interval:g} s")

    def _line(self, text):
        print(text, file=self.stream, flush=True)

    def add_total(self, n):
        self.total += n
        if self.bar is not None:
            self.bar.total += n

    def update(self, n):
        self.done += n
        if self.bar is not None:
            self.bar.update(n)
        if self.plain and self.clock() - self.last >= self.interval:
            self.last = now = self.clock()
            el = now - self.t0
            played = self.done - self.start_done
            left = (f", about {_hms(el * max(self.total - self.done, 0) / played)} remaining"
                    if played > 0 else "")
            self._line(f"sweep: {self.points_done():,}/{self.points:,} points done, "
                       f"{self.done:,}/{self.total:,} games, {_hms(el)} elapsed{left}")

    def close(self, finished=True):
        if self.bar is not None:
            self.bar.close()
        elif self.plain and finished:
            self._line(f"sweep: {self.points_done():,}/{self.points:,} points done, "
                       f"{self.done - self.start_done:,} games played in "
                       f"{_hms(self.clock() - self.t0)}")

"""Parsers of option values shared by the API and the command line (``fastsweep sweep``
takes lists and ranges), named in the option table's ``parse`` column
(:mod:`fastsweep.options`)."""
import math
import numbers

from .config import FIRST_CELLS

MAX_AXIS = 1000  # values per axis of a sweep's grid
# seconds a sweep waits to reach a Dask scheduler: finite (Dask's time parser fails on
# inf with a KeyError traceback) and at most a day
MAX_TIMEOUT = 86_400.0


def split_list(s):
    return s.split(",")


def int_list(s, name="mines"):
    """``"10,20"`` -> [10, 20]; ValueError naming ``name`` (int()'s own message would not)."""
    try:
        return [int(m) for m in s.replace(" ", "").split(",")]
    except ValueError:
        raise ValueError(f"{name}: expected comma-separated integers, e.g. 10,20, got "
                         f"{s!r}") from None


def range_spec(s):
    return parse_range(s)


def mine_count_spec(s):
    return parse_mine_count(s)


def check_timeout(timeout, name="timeout") -> float:
    """Seconds to reach the scheduler: a number in (0, MAX_TIMEOUT]; not a bool, NaN or inf.

    >>> check_timeout(float("inf"))
    Traceback (most recent call last):
    ...
    ValueError: timeout: must be a finite number of seconds in (0, 86400], got inf
    """
    if (isinstance(timeout, bool) or not isinstance(timeout, numbers.Real)
            or not math.isfinite(timeout) or not 0 < timeout <= MAX_TIMEOUT):
        raise ValueError(f"{name}: must be a finite number of seconds in (0, "
                         f"{MAX_TIMEOUT:g}], got {timeout!r}")
    return float(timeout)


def cell_spec(s):
    """``corner|center|random`` or ``ROW,COL`` -> the value, a (row, col) tuple."""
    if s is None or s in FIRST_CELLS:
        return s
    try:
        return tuple(int(v) for v in s.replace(" ", "").strip("()").split(","))
    except ValueError:
        raise ValueError(f"first_cell: expected corner, center, random or ROW,COL, got "
                         f"{s!r}") from None


def parse_range(spec) -> list[float]:
    """``"a:b:step"`` (inclusive) or ``"x,y,z"`` -> list of floats.

    >>> parse_range("0.1:0.5:0.1")
    [0.1, 0.2, 0.3, 0.4, 0.5]
    """
    s = str(spec).replace(" ", "")
    if ":" in s:
        try:
            a, b, step = (float(v) for v in s.split(":"))
        except ValueError:
            raise ValueError(f"density: expected 'start:stop:step' or a list, got {spec!r}") from None
        if not all(math.isfinite(v) for v in (a, b, step)) or not step > 0 or b < a:
            raise ValueError(f"density: range {spec!r} needs finite numbers, step > 0 and "
                             f"stop >= start")
        n = int(math.floor((b - a) / step + 1e-9)) + 1
        if n > MAX_AXIS:  # checked before the list is built
            raise ValueError(f"density: range {spec!r} has {n:,} values; at most {MAX_AXIS:,} "
                             f"per axis")
        # rounding keeps 0.1*3 from becoming 0.30000000000000004 in files and labels
        return [round(a + i * step, 10) for i in range(n)]
    try:
        return [float(v) for v in s.split(",") if v]
    except ValueError:
        raise ValueError(f"density: expected numbers, got {spec!r}") from None


MINE_COUNT = {"both": [False, True], "no": [False], "yes": [True]}


def parse_mine_count(spec):
    """``both|yes|no`` for every agent, or ``AGENT=both|yes|no,...`` per agent.

    >>> parse_mine_count("basic=no,probability=both")
    {'basic': [False], 'probability': [False, True]}
    """
    spec = spec.replace(" ", "").lower()
    if spec in MINE_COUNT:
        return MINE_COUNT[spec]
    out = {}
    for part in spec.split(","):
        name, _, v = part.partition("=")
        if v not in MINE_COUNT:
            raise ValueError(f"mine_count: expected both, yes, no or AGENT=both|yes|no,..., "
                             f"got {spec!r}")
        out[name] = MINE_COUNT[v]
    return out

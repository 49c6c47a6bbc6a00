"""Parsers of the command line's option values (``fastsweep sweep`` takes lists and ranges),
named in the option table's ``parse`` column (:mod:`fastsweep.options`)."""
from .config import FIRST_CELLS


def split_list(s):
    return s.split(",")


def int_list(s):
    return [int(m) for m in s.split(",")]


def range_spec(s):
    from .sweep.grid import parse_range

    return parse_range(s)


def mine_count_spec(s):
    from .sweep_cli import parse_mine_count

    return parse_mine_count(s)


def cell_spec(s):
    """``corner|center|random`` or ``ROW,COL`` -> the value, a (row, col) tuple."""
    if s is None or s in FIRST_CELLS:
        return s
    try:
        return tuple(int(v) for v in s.replace(" ", "").strip("()").split(","))
    except ValueError:
        raise ValueError(f"first_cell: expected corner, center, random or ROW,COL, got "
                         f"{s!r}") from None

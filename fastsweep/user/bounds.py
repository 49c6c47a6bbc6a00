"""A user's Numba policy recompiled with bounds checks (:func:`bounds_checked`), for
``check_agent``: compiled code does not check its indices, so a policy that reads or
writes past an array's end reads garbage or corrupts memory (a segfault, or wrong play)
instead of raising. With ``boundscheck=True`` such an index raises ``IndexError``.

Numba decides bounds checks per compiled function, so the copy is made of the policy and
of every function of the user's own that it calls (the Numba dispatchers reached
through its globals and closure, at any depth); NumPy's, Numba's and fastsweep's own
functions (``fastsweep.user.blocks``) are left as they are. The copies are compiled in
this process only (no disk cache: the user's cached code stays as it was).
"""
from __future__ import annotations

import types

from numba import njit

_THEIRS = ("numba", "numpy", "fastsweep", "llvmlite")  # not the user's code


def _users(v) -> bool:
    """Whether ``v`` is a Numba dispatcher of the user's own code."""
    py = getattr(v, "py_func", None)
    if py is None or not hasattr(v, "targetoptions"):
        return False
    return (getattr(py, "__module__", None) or "").split(".")[0] not in _THEIRS


def _contents(cell):
    try:
        return cell.cell_contents
    except ValueError:  # an empty cell
        return None


def _cell(c):
    try:
        return types.CellType(c.cell_contents)
    except ValueError:  # an empty cell
        return types.CellType()


def _names(code):
    out = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            out |= _names(c)
    return out


def bounds_checked(policy):
    """A copy of Numba dispatcher ``policy`` compiled with ``boundscheck=True``, calling
    bounds-checked copies of the user's own functions it calls (see the module's doc).

    >>> import numpy as np
    >>> from numba import njit
    >>> @njit
    ... def last(a):
    ...     return a[a.shape[0]]  # one past the end
    >>> last_checked = bounds_checked(last)
    >>> last_checked(np.arange(3))
    Traceback (most recent call last):
    ...
    IndexError: index is out of bounds
    """
    made = {}

    def copy(disp):
        if id(disp) in made:
            return made[id(disp)]
        py = disp.py_func
        g = dict(py.__globals__)  # (the copy's own: the user's module is not touched)
        cells = None
        if py.__closure__:
            cells = tuple(_cell(c) for c in py.__closure__)
        f = types.FunctionType(py.__code__, g, py.__name__, py.__defaults__, cells)
        f.__qualname__, f.__module__ = py.__qualname__, py.__module__
        options = {k: v for k, v in disp.targetoptions.items() if k != "nopython"}
        new = made[id(disp)] = njit(**dict(options, boundscheck=True))(f)
        for name in _names(py.__code__):
            if _users(g.get(name)):
                g[name] = copy(g[name])
        for cell in cells or ():
            if _users(_contents(cell)):
                cell.cell_contents = copy(cell.cell_contents)
        return new

    if not hasattr(policy, "py_func"):
        raise TypeError(f"policy: expected a Numba @njit function, got "
                        f"{type(policy).__name__}")
    return copy(policy)

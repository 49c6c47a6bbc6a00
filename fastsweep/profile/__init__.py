"""Profiling agents: how each agent's time per game grows with the board, what work
explains it, and where it goes.

:func:`profile` plays a grid of boards (sizes x densities x rules x mine-total settings)
with every agent, timed in repeats interleaved across the agents (``run.py``), counted
in a work pass (``measure.py``), and fits the growth (``fit.py``). Its folder holds
``timing.csv`` (one row per agent, board and repeat), ``work.csv`` (one per agent and
board: the kernels' work counters, Numba's allocations, the split of the time),
``fits.csv`` (exponents with intervals), ``summary.csv`` and ``run.json``; the figures
(``fig_scaling``, ``fig_work``, ``fig_phases``) come from ``fastsweep plot FOLDER``
(``viz/profile_figures.py``).
"""
from __future__ import annotations

import math
import numbers
import os
import time
from typing import NamedTuple

import pandas as pd

from ..config import check_seed, parse_size
from ..options import sweep_options
from ..user.resolve import resolve_agent
from ..values import parse_range
from .run import TIMING, WORK, run_grid
from .summary import fits_table, summary_table, write_run

DEFAULT_SIZES = (8, 16, 32, 64, 128)
DEFAULT_DENSITIES = (0.1, 0.2, 0.3)


class ProfileResult(NamedTuple):
    """What :func:`profile` returns (and ``load`` reads back from a folder)."""

    summary: pd.DataFrame  # one row per agent and board: time per game / move with CIs
    fits: pd.DataFrame  # one row per agent, setting, density and quantity: the exponent
    work: pd.DataFrame  # the work pass's rows
    timing: pd.DataFrame  # every timed repeat
    out: str | None


def _list(x, name):
    if isinstance(x, (str, numbers.Number)):
        return [x]
    try:
        x = list(x)
    except TypeError:
        raise ValueError(f"{name}: expected a value or a list, got {x!r}") from None
    if not x:
        raise ValueError(f"{name}: the list is empty")
    return x


def _positive(v, name, lo=0.0, integer=False):
    ok = isinstance(v, numbers.Real) and not isinstance(v, bool) and math.isfinite(v) and v > lo
    if integer:
        ok = ok and float(v) == int(v)
    if not ok:
        raise ValueError(f"{name}: must be a {'whole ' if integer else ''}number above {lo}, "
                         f"got {v!r}")
    return int(v) if integer else float(v)


def profile(agents, sizes=DEFAULT_SIZES, densities=DEFAULT_DENSITIES, rules="keep-going",
            mine_count=False, repeats=5, seconds=2.0, max_game=2.0, max_games=100_000,
            seed=0, out=None, quiet=False, **options) -> ProfileResult:
    """Profile ``agents`` over boards of ``sizes`` x ``densities``.

    Parameters
    ----------
    agents : list
        Built-in names, import paths ``"module:attr"`` / ``"file.py:attr"`` or agent
        objects, as in :func:`fastsweep.sweep`.
    sizes : list of int (square boards) or "HxW"
        Board sizes, played in increasing order of cells.
    densities : list of float, or a range string ``"0.1:0.3:0.1"``
    rules : "keep-going" / "classic" or a list; mine_count : bool or a list of bools
    repeats : int
        Timed repeats per agent and board (interleaved across the agents); the intervals
        of time per game are over them.
    seconds : float
        About how long an agent's repeats at one board take together (the games per
        repeat are set from a pilot game).
    max_game : float
        Once an agent's game takes longer than this (seconds) at a size, it plays no
        larger board at that density.
    seed : int; out : folder (resumed and extended: more sizes, densities, agents or
        repeats add to it); options : single-valued game options, as in a sweep.

    Returns
    -------
    :class:`ProfileResult`.

    Example
    -------
    >>> import fastsweep
    >>> r = fastsweep.profile(["basic"], sizes=[8, 16, 32], densities=[0.1], repeats=2,
    ...                       seconds=0.05, quiet=True)
    >>> bool(r.fits.loc[r.fits.quantity == "time", "exponent"].between(0.3, 2.0).all())
    True
    """
    single = {o.name for o in sweep_options("single")}
    unknown = sorted(set(options) - single)
    if unknown:
        raise TypeError(f"{unknown[0]}: not an option of a profile; its game options: "
                        f"{', '.join(sorted(single))}")
    try:
        names = [resolve_agent(a) for a in _list(agents, "agents")]
    except (TypeError, ValueError) as e:
        raise ValueError(f"agents: {str(e).removeprefix('agent: ')}") from None
    if len(set(names)) != len(names):
        raise ValueError(f"agents: an agent is listed twice: {names}")
    dims = sorted({parse_size(s) for s in _list(sizes, "sizes")}, key=lambda hw: hw[0] * hw[1])
    if any(h != w for h, w in dims):
        raise ValueError(f"sizes: square boards only (the fits are against cells and the "
                         f"folder keys boards by side), got {dims}")
    if isinstance(densities, str):
        densities = parse_range(densities)
    dens = [float(d) for d in _list(densities, "densities")]
    for d in dens:
        if not 0.0 < d < 1.0:
            raise ValueError(f"densities: each must be in (0, 1), got {d!r}")
    rules = _list(rules, "rules")
    for r in rules:
        if r not in ("keep-going", "classic"):
            raise ValueError(f"rules: 'keep-going' or 'classic', got {r!r}")
    mcs = _list(mine_count, "mine_count")
    for m in mcs:
        if not isinstance(m, bool):
            raise ValueError(f"mine_count: True or False (or a list of them), got {m!r}")
    spec = dict(agents=names, sizes=[h for h, _ in dims], densities=dens, rules=rules,
                mine_count=mcs, repeats=_positive(repeats, "repeats", integer=True),
                seconds=_positive(seconds, "seconds"), max_game=_positive(max_game, "max_game"),
                max_games=_positive(max_games, "max_games", integer=True),
                seed=check_seed(seed), options=options)
    spec["block"] = spec["max_games"]  # repeat r plays games r * block ..
    tmp = None
    if out is None:
        import tempfile
        tmp = tempfile.TemporaryDirectory(prefix="fastsweep-profile-")
        folder = tmp.name
    else:
        folder = os.fspath(out)
        os.makedirs(folder, exist_ok=True)
    t0 = time.perf_counter()
    say = (lambda s: None) if quiet else (lambda s: print(s, flush=True))
    try:
        timing, work = run_grid(spec, folder, say)
        res = _results(timing, work, out)
        if out is not None:
            res.summary.to_csv(os.path.join(folder, "summary.csv"), index=False,
                               float_format="%.6g")
            res.fits.to_csv(os.path.join(folder, "fits.csv"), index=False, float_format="%.6g")
            write_run(folder, spec, time.perf_counter() - t0)
    finally:
        if tmp is not None:
            tmp.cleanup()
    return res


def _results(timing, work, out):
    return ProfileResult(summary_table(timing, work), fits_table(timing, work), work, timing,
                         out)


def load(folder) -> ProfileResult:
    """The :class:`ProfileResult` of a profile's folder (its CSVs, read back)."""
    folder = os.fspath(folder)
    paths = [os.path.join(folder, n) for n in (TIMING, WORK)]
    if not all(os.path.exists(p) for p in paths):
        raise ValueError(f"folder: {folder} holds no profile ({TIMING} and {WORK}); make one "
                         "with fastsweep.profile(..., out=FOLDER) or `fastsweep profile`")
    timing, work = (pd.read_csv(p) for p in paths)
    return _results(timing, work, folder)


def is_profile(folder) -> bool:
    """Whether ``folder`` holds a profile (``fastsweep plot`` draws its figures)."""
    return os.path.exists(os.path.join(os.fspath(folder), TIMING))

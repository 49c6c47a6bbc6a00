"""Compile the families' kernels (or load them from the disk cache) before a batch of
work, on every core where the work is independent: :func:`warm`.

A family's compile runs on one core, so families compile side by side in separate
processes, each writing the disk cache, and the caller then loads them. In two stages:
the exact family compiles the inference engine's kernels, which the risk and solver
families call; compiled beside it, each would compile its own copy of the engine (687 s
cold on 2026-11-29, against 537 s staged), so they start only once the engine is cached.
Used by ``fastsweep.sweep`` before its workers start, by the test suite before its
workers start (``tests/conftest.py``) and by ``scripts/bench/compile.py``.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time

from .agents import AGENTS, agent_info, kernels_for

# the families that call the exact inference engine start once it is cached
_LATE = ("risk", "solver")
# a family's relative compile weight (cold, 2026-12-01): how the processes share a stage
_WEIGHT = {"exact": 5, "solver": 5, "risk": 4, "reports": 2, "basic": 1}
_PLAY = """
import sys
import fastsweep
for agent in sys.argv[1:]:
    fastsweep.run(agent, 5, mines=3, games=2, rules="classic", mine_count=True)
    fastsweep.play(agent, 5, mines=3, seed=0)
"""


def is_cold(agent) -> bool:
    """Whether one of ``agent``'s family's kernels (the game loop, its move and guess) is
    not compiled in this process and has no cache index on disk (Numba's cache files, a
    private detail, hence the guard)."""
    try:
        return any(not k.overloads and not os.path.exists(k._cache._cache_file._index_path)
                   for k in kernels_for(agent).FAMILY.kernels())
    except AttributeError:
        return False


def _stages(agents, processes):
    """``agents`` (one per cold family) in two stages of at most ``processes`` groups,
    the heaviest family first, each group one process."""
    stages = []
    for late in (False, True):
        todo = sorted((a for a in agents if (agent_info(a).family in _LATE) == late),
                      key=lambda a: -_WEIGHT.get(agent_info(a).family, 1))
        groups, load = [[] for _ in range(processes)], [0] * processes
        for a in todo:
            i = load.index(min(load))
            groups[i].append(a)
            load[i] += _WEIGHT.get(agent_info(a).family, 1)
        stages.append([g for g in groups if g])
    return [s for s in stages if s]


def warm(agents=None, processes=None, quiet=True, load=True) -> float:
    """Compile or load the kernels that play ``agents`` (names; default: one agent of
    every built-in family) and return the seconds it took. Families not on disk yet
    compile in up to ``processes`` processes at once (default: the cores, at most one per
    family); then this process loads them all (a second call is free), unless ``load``
    is False (the caller only prepares the disk cache for other processes).

    Example::

        >>> import fastsweep
        >>> seconds = fastsweep.warm(["basic"])   # about 15 s cold, under 2 s cached
    """
    if agents is None:
        agents = list({info.family: name for name, info in reversed(AGENTS.items())}.values())
    agents = list(agents)
    for a in agents:
        agent_info(a)  # KeyError naming an unknown agent before any process starts
    if processes is None:
        processes = os.cpu_count() or 1
    if isinstance(processes, bool) or not isinstance(processes, int) or processes < 1:
        raise ValueError(f"processes: a positive integer, got {processes!r}")
    t0 = time.perf_counter()
    cold = {}
    for a in agents:
        if isinstance(a, str) and agent_info(a).player is None and is_cold(a):
            cold.setdefault(agent_info(a).family, a)
    # in processes when they run side by side, or when this one is not to load them
    # (the test suite's controller: its workers would each compile a lone cold family)
    if cold and (not load or (processes > 1 and len(cold) > 1)):
        out = subprocess.DEVNULL if quiet else None
        for stage in _stages(list(cold.values()), processes):
            procs = [subprocess.Popen([sys.executable, "-c", _PLAY, *group], stdout=out)
                     for group in stage]
            for p in procs:
                p.wait()  # a failure shows again, with its message, when played below
    if not load:
        return time.perf_counter() - t0
    from .options import make_config
    from .runner import play_chunk
    for a in agents:
        for mc in (False, True):
            play_chunk(make_config(a, 4, mines=3, mine_count=mc), 0, 0, 1)
    return time.perf_counter() - t0

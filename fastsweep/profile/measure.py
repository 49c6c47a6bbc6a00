"""One point of a profile: an agent on one board, timed (the timed passes) and counted
(the work pass).

Timed passes play games with nothing but the per-game clock (``runner.play_chunk``);
their seconds are the kernels' own per-game clock for compiled agents and the player's
for Python ones. The work pass plays the first block of games again with the
kernels' work counters read from the result table, Numba's allocation statistics on,
and the phase clocks (``kernels/engine/work.py``) or, for a Python agent, the Python
clocks of ``split.py``; its time per game is recorded too, so the clocks' own cost
shows.
"""
from __future__ import annotations

import time

from numba.core.runtime import _nrt_python as nrt, rtsys

from ..agents import agent_info, kernels_for
from ..kernels.engine import game as kg
from ..kernels.engine import layout as kl
from ..runner import play_chunk, scores
from ..user.batch_player import BatchPlayer
from ..user.python_player import PythonPlayer
from .split import PY_PARTS, Split

KERNEL_PHASES = ("rules", "frontier", "count", "combine", "whatif")  # layout.PH_* order
assert len(KERNEL_PHASES) == kl.N_PHASES
WORK_COLUMNS = ("analyses", "components", "comp_max", "states", "whatifs")
_OUT_WORK = (kg.OUT_ANALYSES, kg.OUT_COMPONENTS, kg.OUT_COMP_MAX, kg.OUT_STATES,
             kg.OUT_WHATIFS)


def timed(cfg, seed, first, games) -> dict:
    """Play games ``first ..`` of ``cfg``: their totals (a row of the timing table)."""
    t0 = time.perf_counter()
    out, secs, _ = play_chunk(cfg, seed, first, games)
    wall = time.perf_counter() - t0
    return dict(games=games, first_game=first, secs=float(secs.sum()), wall=wall,
                moves=int(out[:, kg.OUT_MOVES].sum()),
                guesses=int(out[:, kg.OUT_GUESSES].sum()),
                won=int(out[:, kg.OUT_WON].sum()), score=float(scores(out).sum()))


def _player(cfg):
    p = kernels_for(cfg.agent)
    return p if isinstance(p, (PythonPlayer, BatchPlayer)) else None


def split_kind(agent) -> str:
    """How the work pass splits the agent's time: ``kernel clocks`` (compiled agents,
    the user's Numba agents included) or ``python clocks`` (a Python ``act`` agent or a
    batched ``act_batch`` one: its own code, its knowledge, its observation, the
    engine)."""
    p = agent_info(agent).player
    return "python clocks" if isinstance(p, (PythonPlayer, BatchPlayer)) else "kernel clocks"


def counted(cfg, seed, games) -> dict:
    """The work pass: games ``0 .. games - 1`` of ``cfg`` with the counters and clocks on.
    Returns a row of the work table: per game, each counter (``WORK_COLUMNS``: the
    analyses' counters, ``comp_max`` the mean of each game's largest component), Numba's
    allocations (``allocs``), the seconds of each part (``phase_*``) and the pass's time
    (``secs``, with the clocks)."""
    kind = split_kind(cfg.agent)
    player = _player(cfg)
    split = Split() if player is not None else None
    if player is not None:
        player.split = split
    was = nrt.memsys_stats_enabled()
    nrt.memsys_enable_stats()
    try:
        a0 = rtsys.get_allocation_stats().alloc
        if split is not None:
            with split:
                out, secs, _ = play_chunk(cfg, seed, 0, games, phases=True)
        else:
            out, secs, _ = play_chunk(cfg, seed, 0, games, phases=True)
        allocs = rtsys.get_allocation_stats().alloc - a0
    finally:
        if not was:
            nrt.memsys_disable_stats()
        if player is not None:
            player.split = None
    row = dict(games=games, kind=kind, secs=float(secs.sum()) / games,
               moves=float(out[:, kg.OUT_MOVES].mean()),
               guesses=float(out[:, kg.OUT_GUESSES].mean()), allocs=allocs / games)
    work = out[:, list(_OUT_WORK)].sum(axis=0)
    if split is not None:
        work = work + split.work  # (its knowledge's analyses)
    for name, v in zip(WORK_COLUMNS, work):
        row[name] = float(v) / games
    for part in KERNEL_PHASES + PY_PARTS:  # (every row has every column: one CSV)
        row["phase_" + part] = float("nan")
    if kind == "python clocks":
        for part in PY_PARTS:
            row["phase_" + part] = split.secs[part] / games
    elif kind == "kernel clocks":
        ns = out[:, kg.OUT_PHASE_NS:kg.OUT_PHASE_NS + kl.N_PHASES].sum(axis=0)
        for part, v in zip(KERNEL_PHASES, ns):
            row["phase_" + part] = float(v) * 1e-9 / games
    return row


def phase_names(kind) -> tuple:
    """The parts a work row of ``kind`` splits the time into."""
    return {"python clocks": PY_PARTS, "kernel clocks": KERNEL_PHASES}.get(kind, ())


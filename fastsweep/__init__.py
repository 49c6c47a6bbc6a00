"""fastsweep: a Numba-accelerated, high-throughput Minesweeper agent simulator.

Public API: :func:`run` (a batch of games as a DataFrame), :func:`play` (one game with
its play-by-play), ``AGENTS`` (the registry).
"""
from .agents import AGENTS
from .runner import run
from .trace import play

__all__ = ["AGENTS", "play", "run"]
__version__ = "0.1.0"

"""fastsweep: a Numba-accelerated, high-throughput Minesweeper agent simulator.

Public API: :func:`run` (a batch of games as a DataFrame), :func:`play` (one game with
its play-by-play), :func:`sweep` (a grid of configurations on every core, resumable and
growable), :func:`load` (a sweep folder read back), ``AGENTS`` (the registry), :func:`deduce`, :func:`mine_probabilities` and
:func:`outcome_probabilities` (exact inference on one view).
"""
from .agents import AGENTS
from .inference import deduce, mine_probabilities, outcome_probabilities
from .runner import run
from .sweep import load, sweep  # sweep: the function; the module stays importable
from .trace import play

__all__ = ["AGENTS", "deduce", "load", "mine_probabilities", "outcome_probabilities", "play",
           "run", "sweep"]
__version__ = "0.1.0"

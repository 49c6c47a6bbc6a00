"""fastsweep: a Numba-accelerated, high-throughput Minesweeper agent simulator.

Public API: :func:`run` (a batch of games as a DataFrame), :func:`play` (one game with
its play-by-play), :func:`sweep` (a grid of configurations on every core, resumable and
growable), :func:`load` (a sweep folder read back), :func:`hard_board` (a search for
layouts an agent scores low on), ``AGENTS`` (the registry), :func:`deduce`, :func:`mine_probabilities` and
:func:`outcome_probabilities` (exact inference on one view), :func:`advise` (an agent's
move in a position of a real game, :class:`Advice`), :func:`parse_position` (a position's
text form) and :class:`ManualGame` (an agent playing a real game through a person).
Your own agent (``fastsweep.user``): any of these takes an object with ``act(obs)``, a
function, a batched ``act_batch(obs)`` or a Numba policy (:class:`NumbaAgent`) wherever it
takes an agent's name; its moves are ``(row, col)``, :class:`Safe` and :class:`Flag`
(``reveal`` / ``safe`` / ``flag``: the move codes of the batched and Numba forms).
:func:`warm` compiles (or loads) the families' kernels ahead of a batch of work.
:func:`profile` times agents as the board grows and counts the work that explains it.
:func:`benchmark` plays a named, versioned suite and returns an agent's card.
"""
from .advisor.advice import Advice
from .advisor.manual import advise
from .agents import AGENTS
from .studies.hard import hard_board
from .inference import deduce, mine_probabilities, outcome_probabilities
from .advisor.manual import ManualGame
from .advisor.position_text import parse_position
from .benchmark import benchmark  # the function; the module stays importable
from .profile import profile  # the function; the module stays importable
from .runner import run
from .sweep import load, sweep  # sweep: the function; the module stays importable
from .trace import play
from .warmup import warm
from .user import AgentError, Flag, Guess, NumbaAgent, Safe, check_agent, flag, reveal, safe

__all__ = ["AGENTS", "Advice", "ManualGame", "advise", "benchmark", "deduce", "hard_board", "load",
           "mine_probabilities", "outcome_probabilities", "parse_position", "play", "profile", "run",
           "sweep", "warm", "AgentError", "check_agent", "Flag", "Guess", "NumbaAgent", "Safe", "flag", "reveal", "safe"]
__version__ = "0.1.0"

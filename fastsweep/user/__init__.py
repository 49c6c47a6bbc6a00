"""Users' own agents: Python (``act(obs)`` or a function), batched numpy
(``act_batch(obs)``) and Numba (``@njit`` policies), played by the same engine, drivers
and tools as the built-in agents (see ``resolve.py`` for how an agent is named and found,
``observation.py`` for what it sees, ``moves.py`` for what it returns).
"""
from .check import AgentCheckError, CheckReport, check_agent
from .moves import Flag, Guess, Safe, flag, reveal, safe
from .numba_player import NumbaAgent
from .observation import GameInfo, Knowledge, Observation
from .python_player import AgentError
from .resolve import resolve_agent

__all__ = ["AgentCheckError", "AgentError", "CheckReport", "check_agent", "Flag", "GameInfo",
           "Guess", "Knowledge", "NumbaAgent", "Observation", "Safe", "flag", "resolve_agent",
           "reveal", "safe"]

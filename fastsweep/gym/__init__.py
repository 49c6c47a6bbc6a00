"""Gymnasium environments at compiled speed (``pip install fastsweep[gym]``).

Importing this package registers ``fastsweep/Minesweeper-v0``: ``gymnasium.make`` gives
:class:`MinesweeperEnv` (one game), ``gymnasium.make_vec(...,
vectorization_mode="vector_entry_point")`` gives :class:`MinesweeperVectorEnv` (N games
stepped in one compiled call, with auto-reset). Both take the game options of
:func:`fastsweep.run` and play its games: episode k after ``reset(seed=s)`` is game k
of ``fastsweep.run(..., seed=s)`` (env i of the vector env plays games i, i + N, ...).

Rewards (``rewards={...}`` overrides any): ``reveal`` +1 (a safe cell revealed),
``mine`` -1 (a detonation), ``flag`` 0 and ``wrong_flag`` 0 (a flag on a mine or on a
safe cell; nonzero values tell the agent at once whether its flag is right), ``win`` 0
(added when a game ends with no detonation).

>>> import gymnasium as gym, fastsweep.gym
>>> "fastsweep/Minesweeper-v0" in gym.registry
True
"""
import gymnasium

from .env import MaskedDiscrete, MinesweeperEnv
from .game import REWARDS
from .vector import MaskedMultiDiscrete, MinesweeperVectorEnv, random_actions

ENV_ID = "fastsweep/Minesweeper-v0"

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="fastsweep.gym.env:MinesweeperEnv",
                       vector_entry_point="fastsweep.gym.vector:MinesweeperVectorEnv")

__all__ = ["ENV_ID", "REWARDS", "MaskedDiscrete", "MaskedMultiDiscrete", "MinesweeperEnv",
           "MinesweeperVectorEnv", "random_actions"]

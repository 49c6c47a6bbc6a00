"""Gymnasium environments at compiled speed (``pip install fastsweep[gym]``).

Importing this package registers ``fastsweep/Minesweeper-v0``: ``gymnasium.make`` gives
:class:`MinesweeperEnv` (one game), ``gymnasium.make_vec`` gives
:class:`MinesweeperVectorEnv` (N games stepped in one compiled call, with auto-reset).
Both take the game options of :func:`fastsweep.run`, with its defaults, and play its
games: episode k after ``reset(seed=s)`` is game k of ``fastsweep.run(..., seed=s)``
(env i of the vector env plays games i, i + N, ...).

The standard levels play the classic game with the conventions of RL environments
(:data:`LEVEL_OPTIONS`: ``rules="classic"``, a detonation ends it; ``open_zeros=True``, a
revealed 0 opens its neighbours; ``illegal_action="end"``, an action on a cell not hidden
ends the episode with a penalty, so every action of the space is valid; the first click
safe, made by the environment in the corner): ``fastsweep/Minesweeper-Beginner-v0`` (9x9,
10 mines), ``fastsweep/Minesweeper-Intermediate-v0`` (16x16, 40) and
``fastsweep/Minesweeper-Expert-v0`` (16x30, 99); :data:`LEVELS` holds them. Any argument
given to ``make`` or ``make_vec`` overrides theirs.

Rewards (``rewards={...}`` overrides any): ``reveal`` +1 (a safe cell revealed),
``mine`` -1 (a detonation), ``flag`` 0 and ``wrong_flag`` 0 (a flag on a mine or on a
safe cell; nonzero values tell the agent at once whether its flag is right), ``win`` 0
(added when a game ends with no detonation), ``illegal`` -1 (an action on a cell not
hidden, under ``illegal_action="ignore"`` or ``"end"``).

>>> import gymnasium as gym, fastsweep.gym
>>> "fastsweep/Minesweeper-v0" in gym.registry
True
>>> gym.spec("fastsweep/Minesweeper-Expert-v0").kwargs
{'size': (16, 30), 'mines': 99, 'rules': 'classic', 'open_zeros': True,
 'illegal_action': 'end'}
"""
import gymnasium

from .env import MaskedDiscrete, MinesweeperEnv
from .game import ILLEGAL, REWARDS
from .vector import MaskedMultiDiscrete, MinesweeperVectorEnv, random_actions

ENV_ID = "fastsweep/Minesweeper-v0"
#: the standard levels: id -> (size, mines), each played with LEVEL_OPTIONS
LEVELS = {"fastsweep/Minesweeper-Beginner-v0": ((9, 9), 10),
          "fastsweep/Minesweeper-Intermediate-v0": ((16, 16), 40),
          "fastsweep/Minesweeper-Expert-v0": ((16, 30), 99)}
#: the options of the level ids: the classic game, every action of the space valid
LEVEL_OPTIONS = {"rules": "classic", "open_zeros": True, "illegal_action": "end"}

for _id, _kwargs in [(ENV_ID, {}), *[(i, {"size": s, "mines": m, **LEVEL_OPTIONS})
                                     for i, (s, m) in LEVELS.items()]]:
    if _id not in gymnasium.registry:
        gymnasium.register(id=_id, entry_point="fastsweep.gym.env:MinesweeperEnv",
                           vector_entry_point="fastsweep.gym.vector:MinesweeperVectorEnv",
                           kwargs=_kwargs)

__all__ = ["ENV_ID", "ILLEGAL", "LEVELS", "LEVEL_OPTIONS", "REWARDS", "MaskedDiscrete",
           "MaskedMultiDiscrete", "MinesweeperEnv", "MinesweeperVectorEnv", "random_actions"]

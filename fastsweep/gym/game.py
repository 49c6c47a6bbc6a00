"""What the Gymnasium environments share (``fastsweep.gym``): a game's options, validated
once (:class:`Game`), the observation space, the reward vector and the per-game results
given when an episode ends."""
from __future__ import annotations

import math
import numbers

import numpy as np
from gymnasium import spaces

from ..config import check_flag, parse_size
from ..kernels.agents import gym_steps as kgs
from ..kernels.agents import user as ku
from ..kernels.engine import game as kg
from ..noise import parse_noise
from ..options import kernel_params, make_config
from ..runner import scores

#: the rewards and their defaults; ``rewards={...}`` overrides any of them
REWARDS = {"reveal": 1.0,  # a safe cell revealed (each cell a 0 opens, with open_zeros)
           "mine": -1.0,  # a mine revealed (a detonation)
           "flag": 0.0,  # a mine flagged (flags=True)
           "wrong_flag": 0.0,  # a safe cell flagged (flags=True)
           "win": 0.0,  # added at the end of a game with no detonation
           "illegal": -1.0}  # a masked-out action (illegal_action "ignore" or "end")
_RW = {"reveal": kgs.RW_REVEAL, "mine": kgs.RW_MINE, "flag": kgs.RW_FLAG,
       "wrong_flag": kgs.RW_WRONG_FLAG, "win": kgs.RW_WIN, "illegal": kgs.RW_ILLEGAL}
#: what a masked-out action (its cell not hidden) does: ``illegal_action=`` one of these
ILLEGAL = {"raise": kgs.ILLEGAL_RAISE,  # ValueError, nothing played (the default)
           "ignore": kgs.ILLEGAL_IGNORE,  # nothing played, reward rewards["illegal"]
           "end": kgs.ILLEGAL_END}  # the same, and the episode ends (terminated, not won)
#: the per-game results given in the info when an episode ends (``fastsweep.run``'s columns)
RESULTS = {"flagged": kg.OUT_FLAGGED, "detonated": kg.OUT_DETONATED,
           "revealed": kg.OUT_REVEALED, "guesses": kg.OUT_GUESSES, "moves": kg.OUT_MOVES}
DEFAULT_BOARD = ((9, 9), 10)  # size and mines when neither mines nor density is given
RENDER_MODES = ["ansi", "rgb_array"]


class Game:
    """The options of a game (those of ``fastsweep.run`` validated by
    ``fastsweep.options.make_config``; ``open_zeros`` and ``illegal_action`` here), its
    kernel parameters per root seed, the spaces and the reward vector.

    >>> g = Game((4, 5), 3, None, True, None, None, rules="classic")
    >>> g.n, g.actions, g.cfg.first_cell, g.describe(23)
    (20, 40, 'corner', 'action 23 (flag cell 3 = row 0, col 3)')
    >>> Game(9, 10, None, False, None, None, illegal_action="skip")
    Traceback (most recent call last):
    ...
    ValueError: illegal_action: expected 'raise', 'ignore' or 'end', got 'skip'
    """

    def __init__(self, size, mines, density, flags, rewards, render_mode, *,
                 open_zeros=False, illegal_action="raise", **options):
        if mines is None and density is None and options.get("layout") is None:
            if parse_size(size) != DEFAULT_BOARD[0]:
                raise ValueError("mines, density: give one (the number of mines, or their "
                                 "fraction of the cells); only the default 9x9 board has a "
                                 "default, 10 mines")
            mines = DEFAULT_BOARD[1]
        self.cfg = make_config("basic", size, mines=mines, density=density, **options)
        self.h, self.w = self.cfg.height, self.cfg.width
        self.n = self.h * self.w
        if not isinstance(flags, (bool, np.bool_)):
            raise ValueError(f"flags: expected True or False, got {flags!r}")
        self.flags = bool(flags)
        self.actions = 2 * self.n if self.flags else self.n
        self.rewards = reward_vector(rewards)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode: expected None or one of {RENDER_MODES}, got "
                             f"{render_mode!r}")
        self.layout = (self.cfg.layout if self.cfg.layout is not None
                       else np.zeros(0, np.uint8))
        self.classic = self.cfg.rules == "classic"
        self.open_zeros = check_flag(open_zeros, "open_zeros")
        noise = parse_noise(self.cfg.noise)
        if self.open_zeros and noise.name != "reveal" and (noise.a or noise.b):
            raise ValueError(f"open_zeros: needs exact clues (noise 'none', 'reveal:p=...' or "
                             f"a model at 0); under noise {noise.spec!r} a 0 shown does not "
                             "prove its neighbours safe")
        if not isinstance(illegal_action, str) or illegal_action not in ILLEGAL:
            raise ValueError("illegal_action: expected 'raise', 'ignore' or 'end', got "
                             f"{illegal_action!r}")
        self.illegal_action = illegal_action
        self.observation_space = spaces.Dict({
            "view": spaces.Box(ku.VIEW_BLANK, 8, (self.h, self.w), np.int8),
            "action_mask": spaces.MultiBinary(self.actions)})

    def params(self, seed: int):
        return kernel_params(self.cfg, seed)[0]

    def describe(self, action) -> str:
        """What an action is, for error messages."""
        a = int(action)
        if not 0 <= a < self.actions:
            return f"action {a}"
        kind, cell = ("flag", a - self.n) if a >= self.n else ("reveal", a)
        return f"action {a} ({kind} cell {cell} = row {cell // self.w}, col {cell % self.w})"

    def allowed(self) -> str:
        return (f"actions are 0..{self.n - 1} (reveal cell row * {self.w} + col)"
                + (f" and {self.n}..{2 * self.n - 1} (flag cell action - {self.n})"
                   if self.flags else "")
                + " whose action_mask entry is 1 (a hidden cell)")

    def why(self, action) -> str:
        """Why legal-looking ``action`` (an integer) was refused, for error messages."""
        if not 0 <= action < self.actions:
            return "out of range"
        return ("its cell is not hidden (already revealed, flagged or detonated); "
                "illegal_action='ignore' or 'end' would penalise it instead of raising")


def reward_vector(rewards) -> np.ndarray:
    """The float64 reward vector (``gym_steps.RW_*``) of ``rewards`` (a dict overriding
    :data:`REWARDS`)."""
    r = dict(REWARDS)
    if rewards is not None:
        if not isinstance(rewards, dict):
            raise ValueError(f"rewards: expected a dict with keys among {', '.join(REWARDS)}; "
                             f"got {type(rewards).__name__}")
        for k, v in rewards.items():
            if k not in REWARDS:
                raise ValueError(f"rewards: unknown key {k!r}; keys: {', '.join(REWARDS)}")
            if (not isinstance(v, numbers.Real) or isinstance(v, bool)
                    or not math.isfinite(v)):
                raise ValueError(f"rewards[{k!r}]: expected a finite number, got {v!r}")
            r[k] = float(v)
    vec = np.zeros(kgs.RW_LEN, np.float64)
    for k, v in r.items():
        vec[_RW[k]] = v
    return vec


def results(out_row) -> dict:
    """A finished game's results (``fastsweep.run``'s columns) from its OUT_* row."""
    d = {k: int(out_row[i]) for k, i in RESULTS.items()}
    d["won"] = bool(out_row[kg.OUT_WON])
    d["score"] = float(scores(out_row[None])[0])
    return d

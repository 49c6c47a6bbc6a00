"""The single Gymnasium environment :class:`MinesweeperEnv` (``fastsweep/Minesweeper-v0``)
and its action space.

Episode k after ``reset(seed=s)`` is ``fastsweep.run``'s game k for seed s: the same
kernels set up the board and make the opening move, and each action is one
``user_move`` (``kernels/agents/gym_steps.py``), its reward computed in the same
compiled call. The true board stays in the kernel's state; observations are copies of
the view.
"""
from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces

from ..config import check_game_index, check_seed
from ..kernels.agents import gym_steps as kgs
from ..kernels.agents import user as ku
from ..kernels.engine import game as kg
from .game import RENDER_MODES, REWARDS, Game, results  # noqa: F401 (REWARDS: re-exported)
from .render import ansi, rgb


class MaskedDiscrete(spaces.Discrete):
    """``Discrete(n)`` whose ``sample()`` draws a legal action of the game in play: uniform
    over the ones of ``mask`` (the env's action-mask buffer, updated in place); once the
    game is over (no ones), over the actions on the cells still hidden in ``view`` (the
    env's view buffer), as in a new game. ``sample(mask=...)`` and
    ``sample(probability=...)`` are Gymnasium's. (``env.step(env.action_space.sample())``
    then never raises while a game is in play.)

    >>> mask = np.array([0, 0, 1, 0], np.int8)
    >>> space = MaskedDiscrete(4, mask, np.full(4, -1, np.int8), seed=0)
    >>> int(space.sample()), space
    (2, Discrete(4))
    """

    def __init__(self, n, mask, view, seed=None):
        super().__init__(n, seed=seed)
        self.mask = mask
        self.view = view

    def sample(self, mask=None, probability=None):
        if mask is None and probability is None and self.mask is not None:
            mask = self.mask
            if not mask.any():
                hidden = (self.view == ku.VIEW_HIDDEN).astype(np.int8)
                mask = np.tile(hidden, self.n // hidden.size) if hidden.any() else None
        return super().sample(mask=mask, probability=probability)


class MinesweeperEnv(gymnasium.Env):
    """Minesweeper as a Gymnasium environment, played by fastsweep's compiled kernels.

    Arguments: ``size``, ``mines`` or ``density``, ``rules``, ``first_click``,
    ``first_cell``, ``mine_count``, ``noise``, ``layout`` as in :func:`fastsweep.run`
    (validated by it; with neither mines nor density, the 9x9 board has 10 mines);
    ``flags`` (default False) adds the flag actions; ``rewards`` a dict overriding
    :data:`REWARDS`; ``render_mode`` "ansi" or "rgb_array".

    Observation: ``{"view": int8 (H, W), "action_mask": int8 (A,)}``; view values -1
    hidden, -2 flagged, -3 detonated (keep-going rules), -4 revealed with nothing shown
    (a noisy sensor), 0..8 the clue. Action: ``Discrete(A)``: ``cell = row * W + col``
    reveals the cell; with ``flags=True`` A = 2 * H * W and ``H * W + cell`` flags it.
    The environment makes the opening move, so the first observation shows it. An
    illegal action (a cell not hidden, out of range) raises ValueError;
    ``action_space.sample()`` draws a legal one (:class:`MaskedDiscrete`). A game over
    at its opening (classic rules with ``first_click="any"``) has an all-zero mask: its
    one step, whatever the action, ends it with reward 0.

    ``reset(seed=s)`` plays game 0 of root seed s, each later ``reset()`` the next game
    index (``options={"game": k}``: game k); before any seed, the root seed is 0, as
    in ``fastsweep.run``. Episode k is ``fastsweep.run(agent, size, seed=s, ...)``'s
    game k. ``info``: ``game``, ``move`` (moves made, the opening included), ``order``
    (the game's guess order: flat cell indices), ``mines`` if told; at the end also the
    game's results (``flagged``, ``detonated``, ``revealed``, ``guesses``, ``moves``,
    ``won``, ``score``) as ``fastsweep.run``'s row.

    >>> import gymnasium as gym, fastsweep.gym
    >>> env = gym.make("fastsweep/Minesweeper-v0", size=(4, 5), mines=3, rules="classic")
    >>> obs, info = env.reset(seed=7)
    >>> obs["view"].shape, obs["action_mask"].shape, info["game"]
    ((4, 5), (20,), 0)
    >>> action = int(obs["action_mask"].argmax())  # the first hidden cell
    >>> obs, reward, terminated, truncated, info = env.step(action)
    >>> reward in (1.0, -1.0), truncated
    (True, False)
    """

    metadata = {"render_modes": RENDER_MODES, "render_fps": 4}

    def __init__(self, size=9, mines=None, density=None, *, rules="keep-going",
                 first_click=None, first_cell=None, mine_count=False, noise="none",
                 layout=None, flags=False, rewards=None, render_mode=None):
        self.game = Game(size, mines, density, flags, rewards, render_mode, rules=rules,
                         first_click=first_click, first_cell=first_cell,
                         mine_count=mine_count, noise=noise, layout=layout)
        g = self.game
        self.observation_space = g.observation_space
        # (the mask and view buffers are updated in place: the action space reads them)
        self._mask = np.zeros(g.actions, np.int8)
        self._view = np.full(g.n, ku.VIEW_HIDDEN, np.int8)
        self.action_space = MaskedDiscrete(g.actions, self._mask, self._view)
        self.render_mode = render_mode
        self.root_seed = 0
        self._params = g.params(0)
        self._S, self._scratch = kg.new_batch_state(self._params, False)
        self._info = np.zeros(ku.I_LEN, np.int64)
        self._order = np.zeros(g.n, np.int64)
        self._out = np.zeros((1, kg.OUT_LEN), np.int64)
        self._game = -1  # the game in play (-1: none yet)
        self._status = None  # gym_steps.SLOT_* of the game in play; SLOT_ENDED once over

    def reset(self, *, seed=None, options=None):
        if seed is not None:
            seed = check_seed(seed)
        if options is not None and not isinstance(options, dict):  # (before any reseeding)
            raise ValueError(f"options: expected None or a dict such as {{'game': 3}}, got "
                             f"{options!r}")
        super().reset(seed=seed)
        if seed is not None:
            self.root_seed = seed
            self._params = self.game.params(self.root_seed)
            self.action_space.seed(self.root_seed)  # (sampled actions reproducible too)
        game = 0 if seed is not None else self._game + 1
        if options:
            unknown = set(options) - {"game"}
            if unknown:
                raise ValueError(f"options: unknown key {sorted(unknown)[0]!r}; the only "
                                 "option is 'game' (the game index to play)")
            if "game" in options:
                game = check_game_index(options["game"])
        self._game = game
        self._status = kgs.start_game(self._S, self._params, self.game.layout,
                                      self._scratch, np.int64(game), self._view, self._info,
                                      self._order, self._mask)
        return self._obs(), self._infos(None)

    def step(self, action):
        g = self.game
        if self._status is None or self._status == kgs.SLOT_ENDED:
            raise ValueError("step: no game in play (the episode is over, or reset() was "
                             "never called); call reset()")
        if self._status == kgs.SLOT_NOOP:  # over at its opening: the no-op step
            kgs.end_noop(self._S, self._out)
            self._status = kgs.SLOT_ENDED
            return self._obs(), 0.0, True, False, self._infos(self._out[0])
        a = _action(action, g)
        code, reward = kgs.step_one(self._S, self._view, self._info, self._mask, a,
                                    g.rewards, g.classic, self._out)
        if code < 0:
            why = ("out of range" if code == ku.ERR_CELL else
                   "its cell is not hidden (already revealed, flagged or detonated)")
            raise ValueError(f"step: {g.describe(a)} is illegal: {why}; {g.allowed()}")
        over = code == ku.STEP_OVER
        if over:
            self._status = kgs.SLOT_ENDED
        return (self._obs(), float(reward), over, False,
                self._infos(self._out[0] if over else None))

    def _obs(self):
        return {"view": self._view.reshape(self.game.h, self.game.w).copy(),
                "action_mask": self._mask.copy()}

    def _infos(self, out_row):
        d = {"game": self._game, "move": int(self._info[ku.I_MOVE]),
             "order": self._order.copy()}
        if self._info[ku.I_MINES] >= 0:
            d["mines"] = int(self._info[ku.I_MINES])
        if out_row is not None:
            d.update(results(out_row))
        return d

    def render(self):
        view = self._view.reshape(self.game.h, self.game.w)
        if self.render_mode == "ansi":
            return ansi(view, f"game {self._game}, move {int(self._info[ku.I_MOVE])}")
        if self.render_mode == "rgb_array":
            return rgb(view)
        return None


def _action(action, g: Game) -> np.int64:
    """The action as an int64 (a ValueError naming it if it is not one integer)."""
    if isinstance(action, np.integer) or (type(action) is int and abs(action) < 2**62):
        return np.int64(action)
    a = np.asarray(action)
    if a.shape != () or not np.issubdtype(a.dtype, np.integer):
        raise ValueError(f"step: action {action!r:.60} is not one integer; {g.allowed()}")
    return np.int64(a)

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
    game is over (or before the first, the mask then all ones), over the actions on the
    cells still hidden in ``view`` (the env's view buffer), as in a new game.
    ``sample(mask=...)`` and ``sample(probability=...)`` are Gymnasium's.
    (``env.step(env.action_space.sample())`` then never raises while a game is in play.)

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
            if mask.all():  # no game in play (one in play has its opening revealed)
                hidden = (self.view == ku.VIEW_HIDDEN).astype(np.int8)
                if hidden.any():
                    mask = np.tile(hidden, self.n // hidden.size)
        return super().sample(mask=mask, probability=probability)


class MinesweeperEnv(gymnasium.Env):
    """Minesweeper as a Gymnasium environment, played by fastsweep's compiled kernels.

    Arguments: ``size``, ``mines`` or ``density``, ``rules``, ``first_click``,
    ``first_cell``, ``mine_count``, ``noise``, ``layout`` as in :func:`fastsweep.run`
    (validated by it; with neither mines nor density, the 9x9 board has 10 mines);
    ``flags`` (default False) adds the flag actions; ``open_zeros`` (default False): a
    revealed 0 opens its hidden neighbours, and so on, in the same step (the classic
    game's flood fill; refused under a sensor that can show a false 0); ``rewards`` a
    dict overriding :data:`REWARDS`; ``illegal_action``: what an action whose cell is
    not hidden does: ``"raise"`` (default: ValueError, nothing played), ``"ignore"``
    (nothing played, reward ``rewards["illegal"]``, -1 by default) or ``"end"`` (the
    same, and the episode ends: terminated, not won), for learners without masks (an
    action out of range always raises); ``render_mode`` "ansi" or "rgb_array". The ids
    ``fastsweep/Minesweeper-Beginner-v0`` (9x9, 10 mines), ``-Intermediate-v0`` (16x16,
    40) and ``-Expert-v0`` (16x30, 99) are the classic game for RL: ``rules="classic",
    open_zeros=True, illegal_action="end"``.

    Observation: ``{"view": int8 (H, W), "action_mask": int8 (A,)}``; view values -1
    hidden, -2 flagged, -3 detonated (keep-going rules), -4 revealed with nothing shown
    (a noisy sensor), 0..8 the clue. Action: ``Discrete(A)``: ``cell = row * W + col``
    reveals the cell; with ``flags=True`` A = 2 * H * W and ``H * W + cell`` flags it.
    The mask (also :meth:`action_masks`, bool) marks the legal actions, the hidden cells';
    once a game is over it is all ones, as nothing is left to mask (a masking policy
    never sees an all-zero row). The environment makes the opening move, so the first
    observation shows it; ``action_space.sample()`` draws a legal action
    (:class:`MaskedDiscrete`). A game over at its opening (classic rules with
    ``first_click="any"``) still needs one step: whatever its action, it ends the
    episode with reward 0.

    ``reset(seed=s)`` plays game 0 of root seed s, each later ``reset()`` the next game
    index (``options={"game": k}``: game k); before any seed, the root seed is 0, as
    in ``fastsweep.run``. Episode k is ``fastsweep.run(agent, size, seed=s, ...)``'s
    game k (the same board and opening; with ``open_zeros`` the environment's flood
    fills are moves a ``run`` agent makes itself). ``info``: ``game``, ``move`` (moves
    made, the opening and each cell a 0 opened included), ``order`` (the game's guess
    order: flat cell indices), ``mines`` if told, ``illegal`` (True) after a masked-out
    action; at the end also the game's results (``flagged``, ``detonated``,
    ``revealed``, ``guesses``, ``moves``, ``won``, ``score``) as ``fastsweep.run``'s row.

    >>> import gymnasium as gym, fastsweep.gym
    >>> env = gym.make("fastsweep/Minesweeper-v0", size=(4, 5), mines=3, rules="classic")
    >>> obs, info = env.reset(seed=7)
    >>> obs["view"].shape, obs["action_mask"].shape, info["game"]
    ((4, 5), (20,), 0)
    >>> action = int(obs["action_mask"].argmax())  # the first hidden cell
    >>> obs, reward, terminated, truncated, info = env.step(action)
    >>> reward in (1.0, -1.0), truncated
    (True, False)

    The classic game, and a learner without masks:

    >>> env = gym.make("fastsweep/Minesweeper-Beginner-v0")  # (illegal_action="end")
    >>> obs, info = env.reset(seed=2)
    >>> int((obs["view"] != -1).sum()) > 1  # the opening's 0 opened its neighbours
    True
    >>> opened = int((obs["view"] != -1).argmax())  # a cell already revealed
    >>> obs, reward, terminated, truncated, info = env.step(opened)
    >>> reward, terminated, info["illegal"], info["won"], bool(env.unwrapped.action_masks().all())
    (-1.0, True, True, False, True)
    """

    metadata = {"render_modes": RENDER_MODES, "render_fps": 4}

    def __init__(self, size=9, mines=None, density=None, *, rules="keep-going",
                 first_click=None, first_cell=None, mine_count=False, noise="none",
                 layout=None, flags=False, open_zeros=False, rewards=None,
                 illegal_action="raise", render_mode=None):
        self.game = Game(size, mines, density, flags, rewards, render_mode, rules=rules,
                         first_click=first_click, first_cell=first_cell,
                         mine_count=mine_count, noise=noise, layout=layout,
                         open_zeros=open_zeros, illegal_action=illegal_action)
        g = self.game
        self.observation_space = g.observation_space
        # (the mask and view buffers are updated in place: the action space reads them)
        self._mask = np.ones(g.actions, np.int8)
        self._view = np.full(g.n, ku.VIEW_HIDDEN, np.int8)
        self.action_space = MaskedDiscrete(g.actions, self._mask, self._view)
        self.render_mode = render_mode
        self.root_seed = 0
        self._params = g.params(0)
        self._S, self._scratch = kg.new_batch_state(self._params, False)
        self._info = np.zeros(ku.I_LEN, np.int64)
        self._order = np.zeros(g.n, np.int64)
        self._stack = np.zeros(g.n, np.int64)  # open_zeros' scratch
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
                                      self._order, self._mask, self.game.open_zeros,
                                      self._stack)
        return self._obs(), self._infos(None)

    def step(self, action):
        g = self.game
        if self._status is None or self._status == kgs.SLOT_ENDED:
            raise ValueError("step: no game in play (the episode is over, or reset() was "
                             "never called); call reset()")
        if self._status == kgs.SLOT_NOOP:  # over at its opening: the no-op step
            return self._end(0.0, True)
        a = _action(action, g)
        code, reward = kgs.step_one(self._S, self._view, self._info, self._mask, a,
                                    g.rewards, g.classic, g.open_zeros, self._stack,
                                    self._out)
        if code == ku.ERR_TAKEN and g.illegal_action != "raise":
            r = float(g.rewards[kgs.RW_ILLEGAL])
            if g.illegal_action == "end":
                return self._end(r, False, illegal=True)
            return self._obs(), r, False, False, {**self._infos(None), "illegal": True}
        if code < 0:
            raise ValueError(f"step: {g.describe(a)} is illegal: {g.why(a)}; {g.allowed()}")
        over = code == ku.STEP_OVER
        if over:
            self._status = kgs.SLOT_ENDED
        return (self._obs(), float(reward), over, False,
                self._infos(self._out[0] if over else None))

    def _end(self, reward, finished, illegal=False):
        """End the episode on a step that played nothing: (obs, reward, True, False,
        info with the game's results)."""
        kgs.end_game(self._S, self._out, finished)
        self._status = kgs.SLOT_ENDED
        self._mask[:] = 1
        info = self._infos(self._out[0])
        if illegal:
            info["illegal"] = True
        return self._obs(), reward, True, False, info

    def action_masks(self) -> np.ndarray:
        """bool (A,): the legal actions (``obs["action_mask"]`` as bools; all True once
        the game is over), for maskable learners (sb3-contrib's ``MaskablePPO`` calls it).
        """
        return self._mask.astype(bool)

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

"""The single Gymnasium environment :class:`MinesweeperEnv` (``fastsweep/Minesweeper-v0``)
and what it shares with the vector one: the game's options, the spaces, the rewards and
the pictures.

Episode k after ``reset(seed=s)`` is ``fastsweep.run``'s game k for seed s: the same
kernels set up the board and make the opening move, and each action is one
``user_move`` (``kernels/agents/gym_steps.py``), its reward computed in the same
compiled call. The true board stays in the kernel's state; observations are copies of
the view.
"""
from __future__ import annotations

import math
import numbers

import gymnasium
import numpy as np
from gymnasium import spaces

from ..config import check_game_index, check_seed, parse_size
from ..kernels.agents import gym_steps as kgs
from ..kernels.agents import user as ku
from ..kernels.engine import game as kg
from ..options import kernel_params, make_config
from ..runner import scores

#: the rewards and their defaults; ``rewards={...}`` overrides any of them
REWARDS = {"reveal": 1.0,  # a safe cell revealed
           "mine": -1.0,  # a mine revealed (a detonation)
           "flag": 0.0,  # a mine flagged (flags=True)
           "wrong_flag": 0.0,  # a safe cell flagged (flags=True)
           "win": 0.0}  # added at the end of a game with no detonation
_RW = {"reveal": kgs.RW_REVEAL, "mine": kgs.RW_MINE, "flag": kgs.RW_FLAG,
       "wrong_flag": kgs.RW_WRONG_FLAG, "win": kgs.RW_WIN}
#: the per-game results given in the info when an episode ends (``fastsweep.run``'s columns)
RESULTS = {"flagged": kg.OUT_FLAGGED, "detonated": kg.OUT_DETONATED,
           "revealed": kg.OUT_REVEALED, "guesses": kg.OUT_GUESSES, "moves": kg.OUT_MOVES}
DEFAULT_BOARD = ((9, 9), 10)  # size and mines when neither mines nor density is given
RENDER_MODES = ["ansi", "rgb_array"]


class Game:
    """The options of a game (validated by ``fastsweep.options.make_config``), its kernel
    parameters per root seed, the spaces and the reward vector.

    >>> g = Game((4, 5), 3, None, True, None, None, rules="classic")
    >>> g.n, g.actions, g.cfg.first_cell, g.describe(23)
    (20, 40, 'corner', 'action 23 (flag cell 3 = row 0, col 3)')
    """

    def __init__(self, size, mines, density, flags, rewards, render_mode, **options):
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


SYMBOLS = {ku.VIEW_HIDDEN: "?", ku.VIEW_FLAG: "F", ku.VIEW_DETONATED: "*", ku.VIEW_BLANK: "-",
           **{v: str(v) for v in range(9)}}


def ansi(view, head: str) -> str:
    """The view as text: ``?`` hidden, ``0``-``8`` clue, ``F`` flagged, ``*`` detonated,
    ``-`` revealed with nothing shown (a noisy sensor)."""
    return "\n".join([head] + [" ".join(SYMBOLS[int(v)] for v in row) for row in view]) + "\n"


_FONT = {  # 3x5 glyphs
    "1": (".#.", "##.", ".#.", ".#.", "###"), "2": ("##.", "..#", ".#.", "#..", "###"),
    "3": ("##.", "..#", ".#.", "..#", "##."), "4": ("#.#", "#.#", "###", "..#", "..#"),
    "5": ("###", "#..", "##.", "..#", "##."), "6": (".##", "#..", "###", "#.#", "###"),
    "7": ("###", "..#", ".#.", ".#.", ".#."), "8": ("###", "#.#", "###", "#.#", "###"),
    "F": ("###", "#..", "##.", "#..", "#.."), "*": ("#.#", ".#.", "###", ".#.", "#.#"),
    "-": ("...", "...", "###", "...", "..."),
}
TILE = 16  # pixels a cell
_INK = {"1": (0, 0, 255), "2": (0, 128, 0), "3": (255, 0, 0), "4": (0, 0, 128),
        "5": (128, 0, 0), "6": (0, 128, 128), "7": (0, 0, 0), "8": (96, 96, 96),
        "F": (255, 255, 255), "*": (0, 0, 0), "-": (128, 128, 128)}
_PAPER = {ku.VIEW_HIDDEN: (200, 200, 200), ku.VIEW_FLAG: (0, 158, 115),
          ku.VIEW_DETONATED: (213, 94, 0), ku.VIEW_BLANK: (240, 240, 240)}


def _tiles() -> np.ndarray:
    """uint8 (13, TILE, TILE, 3): the picture of each view value v at index v + 4."""
    tiles = np.zeros((13, TILE, TILE, 3), np.uint8)
    for v in range(ku.VIEW_BLANK, 9):
        t = tiles[v - ku.VIEW_BLANK]
        t[:] = _PAPER.get(v, (255, 255, 255))
        ch = SYMBOLS[v]
        if ch in _FONT:
            glyph = np.array([[c == "#" for c in row] for row in _FONT[ch]])
            t[3:13, 5:11][glyph.repeat(2, 0).repeat(2, 1)] = _INK[ch]  # 2x: 6 x 10 pixels
        t[TILE - 1, :] = t[:, TILE - 1] = (140, 140, 140)  # the grid
    return tiles


TILES = _tiles()


def rgb(view) -> np.ndarray:
    """The view as a picture: uint8 (H * 16, W * 16, 3)."""
    h, w = view.shape
    t = TILES[view.astype(np.int64) - ku.VIEW_BLANK]  # (H, W, TILE, TILE, 3)
    return np.ascontiguousarray(t.transpose(0, 2, 1, 3, 4).reshape(h * TILE, w * TILE, 3))


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

"""The vector environment :class:`MinesweeperVectorEnv`: N boards stepped in one compiled
call (``kernels/agents/gym_steps.vec_step``) with auto-reset, registered as the vector
entry point of ``fastsweep/Minesweeper-v0`` (``gymnasium.make_vec(...,
vectorization_mode="vector_entry_point")``).

Env i plays ``fastsweep.run``'s game i for the same root seed, then game i + N, i + 2N,
...: episode j of env i is game ``i + j * N``, the same board and luck as row ``game``
of ``fastsweep.run(agent, size, seed=s, ...)``.
"""
from __future__ import annotations

import os

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..config import check_flag, check_game_index, check_seed
from ..kernels.agents import gym_steps as kgs
from ..kernels.agents import user as ku
from ..kernels.engine import game as kg
from .game import ILLEGAL, RESULTS, Game
from .render import ansi, rgb

_MODES = (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP)
TRIES = 4  # rejection rounds of random_actions before the exact draw


def random_actions(masks, rng) -> np.ndarray:
    """One uniformly random legal action per row of ``masks`` (int8 (N, A), 1 = legal; a
    row with none gets 0), vectorised numpy: draw any action and redraw the rows whose
    draw is illegal (a few rounds: most of a board is hidden in most steps), then the
    remaining rows exactly (the k-th legal action, k uniform).

    >>> import numpy as np
    >>> m = np.array([[0, 1, 0, 1], [0, 0, 1, 0], [0, 0, 0, 0]], np.int8)
    >>> a = random_actions(m, np.random.default_rng(1))
    >>> a.tolist()[1:], int(a[0]) in (1, 3)
    ([2, 0], True)
    """
    B, A = masks.shape
    flat = np.ascontiguousarray(masks).reshape(-1)
    row = np.arange(0, B * A, A)
    a = (rng.random(B) * A).astype(np.int64)
    bad = np.flatnonzero(flat[row + a] == 0)
    for _ in range(TRIES):
        if bad.size == 0:
            return a
        a[bad] = (rng.random(bad.size) * A).astype(np.int64)
        bad = bad[flat[row[bad] + a[bad]] == 0]
    if bad.size:
        m = masks[bad]
        k = (rng.random(bad.size) * m.sum(axis=1)).astype(np.int64)
        a[bad] = (np.cumsum(m, axis=1) > k[:, None]).argmax(axis=1)
    return a


class MaskedMultiDiscrete(spaces.MultiDiscrete):
    """The vector env's action space: ``sample()`` draws a legal action for every env
    (:func:`random_actions` over the env's mask buffer, updated in place); with a
    ``mask`` or ``probability`` argument as Gymnasium's.

    >>> masks = np.array([[0, 1, 0], [1, 0, 0]], np.int8)
    >>> MaskedMultiDiscrete(np.array([3, 3]), masks, seed=0).sample().tolist()
    [1, 0]
    """

    def __init__(self, nvec, masks, seed=None):
        super().__init__(nvec, seed=seed)
        self.masks = masks

    def sample(self, mask=None, probability=None):
        if mask is None and probability is None and self.masks is not None:
            return random_actions(self.masks, self.np_random).astype(self.dtype)
        return super().sample(mask=mask, probability=probability)


class MinesweeperVectorEnv(VectorEnv):
    """``num_envs`` Minesweeper games stepped in one compiled call, with auto-reset.

    Arguments: ``num_envs`` and those of :class:`fastsweep.gym.MinesweeperEnv` (size,
    mines or density, rules, first_click, first_cell, mine_count, noise, layout, flags,
    open_zeros, rewards, illegal_action, render_mode), with the same meaning;
    ``autoreset_mode``: ``AutoresetMode.NEXT_STEP`` (Gymnasium's default: the step after
    an episode ends starts the env's next game, its action ignored, reward 0) or
    ``SAME_STEP`` (the ending step returns the next game's first observation; the final
    one in ``info["final_obs"]``); ``max_episode_steps`` (default None: no limit; as
    ``gymnasium.make``'s, which passes it here): an episode still going after that many
    steps is truncated (``truncated`` True, its results in ``final_info``, not won) and
    the env auto-resets; ``copy`` (default True): observations are fresh arrays, else
    the env's buffers, overwritten by the next step. The memory the envs need is
    checked before any is allocated (a ValueError names how many fit).

    Observations ``{"view": int8 (N, H, W), "action_mask": int8 (N, A)}``, actions
    int (N,) as the single env's; a row of the mask is all ones once its game is over
    (the next-step auto-reset ignores its action), so no row is ever all zeros;
    :meth:`action_masks` gives them as bools. ``reset(seed=s)``: env i starts game i of
    root seed s (``options={"game": k}``: game k + i); ``reset()`` without a seed: each
    env its next game. ``info["game"]``: each env's game index; when episodes end,
    ``final_info`` holds their results (``game``, ``flagged``, ``detonated``,
    ``revealed``, ``guesses``, ``moves``, ``won``, ``score``: ``fastsweep.run``'s row),
    valid where ``info["_final_info"]``; ``info["illegal"]`` (valid where
    ``info["_illegal"]``) marks masked-out actions under ``illegal_action`` "ignore" or
    "end". An action out of range, or masked out under ``illegal_action="raise"``, raises
    ValueError (nothing is played); ``action_space.sample()`` draws legal ones
    (:class:`MaskedMultiDiscrete`). :meth:`guess_orders` gives each game's guess order.

    >>> import numpy as np, gymnasium as gym, fastsweep.gym
    >>> envs = gym.make_vec("fastsweep/Minesweeper-v0", num_envs=3, size=(4, 5), mines=3,
    ...                     vectorization_mode="vector_entry_point")
    >>> obs, info = envs.reset(seed=7)
    >>> obs["view"].shape, info["game"].tolist()
    ((3, 4, 5), [0, 1, 2])
    >>> actions = obs["action_mask"].argmax(axis=1)  # each env's first hidden cell
    >>> obs, rewards, terminated, truncated, info = envs.step(actions)
    >>> rewards.shape, bool(truncated.any()), sorted(info)[:1]
    ((3,), False, ['game'])

    Expert boards for a learner without masks, episodes cut at 500 steps:

    >>> envs = gym.make_vec("fastsweep/Minesweeper-Expert-v0", num_envs=4,
    ...                     illegal_action="ignore", max_episode_steps=500)
    >>> obs, info = envs.reset(seed=0)
    >>> obs, rewards, terminated, truncated, info = envs.step(np.zeros(4, np.int64))
    >>> envs.unwrapped.action_masks().shape, bool(info["illegal"][0]), float(rewards[0])
    ((4, 480), True, -1.0)
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4,
                "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs=1, size=9, mines=None, density=None, *, rules="keep-going",
                 first_click=None, first_cell=None, mine_count=False, noise="none",
                 layout=None, flags=False, open_zeros=False, rewards=None,
                 illegal_action="raise", render_mode=None,
                 autoreset_mode=AutoresetMode.NEXT_STEP, max_episode_steps=None, copy=True):
        if not isinstance(num_envs, (int, np.integer)) or isinstance(num_envs, bool) \
                or not 1 <= num_envs <= 2**20:
            raise ValueError(f"num_envs: expected an integer in [1, 2**20], got {num_envs!r}")
        try:
            autoreset_mode = AutoresetMode(autoreset_mode)
        except ValueError:
            autoreset_mode = None
        if autoreset_mode not in _MODES:
            raise ValueError("autoreset_mode: expected AutoresetMode.NEXT_STEP or SAME_STEP")
        if max_episode_steps is not None and (
                not isinstance(max_episode_steps, (int, np.integer))
                or isinstance(max_episode_steps, bool) or not 1 <= max_episode_steps < 2**62):
            raise ValueError("max_episode_steps: expected None or a positive integer, got "
                             f"{max_episode_steps!r}")
        self.game = g = Game(size, mines, density, flags, rewards, render_mode, rules=rules,
                             first_click=first_click, first_cell=first_cell,
                             mine_count=mine_count, noise=noise, layout=layout,
                             open_zeros=open_zeros, illegal_action=illegal_action)
        self.num_envs = B = int(num_envs)
        self.metadata = {**type(self).metadata, "autoreset_mode": autoreset_mode}
        self.render_mode = render_mode
        self.copy = check_flag(copy, "copy")
        self._same = autoreset_mode == AutoresetMode.SAME_STEP
        self.root_seed = 0
        self._params = g.params(0)
        S0, self._scratch = kg.new_batch_state(self._params, False)
        check_memory(B, S0.nbytes, g, self._same, self.copy)
        self.single_observation_space = g.observation_space
        self._masks = np.ones((B, g.actions), np.int8)  # (updated in place)
        self.single_action_space = spaces.Discrete(g.actions)
        self.observation_space = batch_space(g.observation_space, B)
        self.action_space = MaskedMultiDiscrete(np.full(B, g.actions), self._masks)
        self._SS = np.repeat(S0[None], B, axis=0)
        self._views = np.full((B, g.n), ku.VIEW_HIDDEN, np.int8)
        self._infos = np.zeros((B, ku.I_LEN), np.int64)
        self._orders = np.zeros((B, g.n), np.int64)
        self._status = np.full(B, -1, np.int64)  # -1: not reset yet
        self._next = np.arange(B, dtype=np.int64)  # each slot's next game
        self._steps = np.zeros(B, np.int64)  # steps of each slot's episode
        self._slots = (self._views, self._infos, self._orders, self._masks, self._status,
                       self._next, self._steps)
        self._settings = np.zeros(kgs.M_LEN, np.int64)
        self._settings[kgs.M_STRIDE] = B
        self._settings[kgs.M_SAME_STEP] = self._same
        self._settings[kgs.M_OPEN_ZEROS] = g.open_zeros
        self._settings[kgs.M_ILLEGAL] = ILLEGAL[g.illegal_action]
        self._settings[kgs.M_MAX_STEPS] = max_episode_steps or 0
        self._final = np.zeros((B, g.n) if self._same else (0, 0), np.int8)
        self._work = (np.zeros(B, np.int64), np.zeros(g.n, np.int64))  # todo, stack

    def reset(self, *, seed=None, options=None):
        if seed is not None:
            seed = check_seed(seed)
        if options is not None and not isinstance(options, dict):  # (before any reseeding)
            raise ValueError(f"options: expected None or a dict such as {{'game': 3}}, got "
                             f"{options!r}")
        super().reset(seed=seed)
        B = self.num_envs
        first = None
        if seed is not None:
            self.root_seed = seed
            self._params = self.game.params(self.root_seed)
            self.action_space.seed(self.root_seed)
            first = 0
        if options:
            unknown = set(options) - {"game"}
            if unknown:
                raise ValueError(f"options: unknown key {sorted(unknown)[0]!r}; the only "
                                 "option is 'game' (env i plays game game + i)")
            if "game" in options:
                first = check_game_index(options["game"], B)
        if first is not None or self._status[0] < 0:
            self._next[:] = np.arange(B) + (first or 0)
        kgs.vec_start(self._SS, self._params, self.game.layout, self._scratch, self._slots,
                      self._settings, self._work[1])
        return self._obs(), {"game": self._infos[:, ku.I_GAME].copy()}

    def step(self, actions):
        if self._status[0] < 0:
            raise ValueError("step: call reset() first")
        B, g = self.num_envs, self.game
        a = np.asarray(actions)
        if a.shape != (B,) or not np.issubdtype(a.dtype, np.integer):
            raise ValueError(f"step: actions must be {B} integers (one per env), got "
                             f"{a.dtype} of shape {a.shape}; {g.allowed()}")
        a = np.ascontiguousarray(a, np.int64)
        res = (np.empty(B, np.float64), np.empty(B, np.bool_), np.empty(B, np.bool_),
               np.empty(B, np.bool_), np.empty((B, kg.OUT_LEN), np.int64),
               np.empty(B, np.int64), np.empty(B, np.float64), self._final)
        bad = kgs.vec_step(self._SS, self._params, g.layout, self._scratch, self._slots, a,
                           g.rewards, self._settings, res, self._work)
        if bad >= 0:
            raise ValueError(f"step: env {bad} (game {int(self._infos[bad, ku.I_GAME])}): "
                             f"{g.describe(a[bad])} is illegal: {g.why(a[bad])}; "
                             f"{g.allowed()}; nothing was played")
        rew, term, trunc, illegal, out, games, score, _ = res
        info = {"game": self._infos[:, ku.I_GAME].copy()}
        if illegal.any():
            info["illegal"] = illegal
            info["_illegal"] = illegal.copy()
        ended = term | trunc
        if ended.any():
            info.update(self._final_info(ended, out, games, score))
        return self._obs(), rew, term, trunc, info

    def _final_info(self, ended, out, games, score):
        """The results of the episodes that ended: arrays (N,), valid where ``ended``."""
        g = self.game
        mask = ended.copy()
        fi = {"game": games, **{k: out[:, i] for k, i in RESULTS.items()},
              "won": out[:, kg.OUT_WON] != 0, "score": score}
        fi.update({"_" + k: mask for k in list(fi)})
        d = {"final_info": fi, "_final_info": mask}
        if self._same:  # the final observations (their masks all 1: the games are over)
            over = np.ones(g.actions, np.int8)
            over.flags.writeable = False
            idx = np.flatnonzero(ended)
            fo = np.full(self.num_envs, None, dtype=object)
            fo[idx] = [{"view": v, "action_mask": over}
                       for v in self._final[idx].reshape(-1, g.h, g.w)]
            d["final_obs"] = fo
            d["_final_obs"] = mask
        return d

    def _obs(self):
        B, g = self.num_envs, self.game
        v = self._views.reshape(B, g.h, g.w)
        if self.copy:
            return {"view": v.copy(), "action_mask": self._masks.copy()}
        return {"view": v, "action_mask": self._masks}

    def action_masks(self) -> np.ndarray:
        """bool (N, A): each env's legal actions (``obs["action_mask"]`` as bools; a row
        is all True once its game is over), for maskable learners."""
        return self._masks.astype(bool)

    def guess_orders(self) -> np.ndarray:
        """int64 (N, H * W): each env's game's guess order (flat cell indices, in the
        order the built-in agents guess them)."""
        return self._orders.copy()

    def render(self):
        g = self.game
        views = self._views.reshape(self.num_envs, g.h, g.w)
        if self.render_mode == "ansi":
            return tuple(ansi(v, f"env {i}, game {int(self._infos[i, ku.I_GAME])}, move "
                                 f"{int(self._infos[i, ku.I_MOVE])}")
                         for i, v in enumerate(views))
        if self.render_mode == "rgb_array":
            return tuple(rgb(v) for v in views)
        return None


def available_memory() -> int | None:
    """Bytes of memory available to new allocations (Linux: MemAvailable), or None when
    this system does not say."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def env_bytes(state_bytes: int, g: Game, same_step: bool, copy: bool) -> int:
    """The bytes one env of the vector env takes: its state, view, mask, info row and
    guess order, and its share of a step's results and observations."""
    held = state_bytes + g.n * 9 + g.actions + (ku.I_LEN + 4) * 8 + (g.n if same_step else 0)
    per_step = (kg.OUT_LEN + 12) * 8 + (g.n + g.actions) * (2 if copy else 1)
    return held + per_step


def check_memory(num_envs: int, state_bytes: int, g: Game, same_step: bool, copy: bool):
    """Refuse, before allocating anything, ``num_envs`` envs that need more memory than
    is available (allocating first took a minute to fail with 2**20 envs of 30x30)."""
    avail = available_memory()
    each = env_bytes(state_bytes, g, same_step, copy)
    if avail is not None and num_envs * each > avail:
        raise ValueError(f"num_envs: {num_envs:,} envs of {g.h}x{g.w} need "
                         f"{num_envs * each / 2**30:.1f} GiB, and {avail / 2**30:.1f} GiB "
                         f"of memory is available: at most {avail // each:,} envs of this "
                         "size fit")

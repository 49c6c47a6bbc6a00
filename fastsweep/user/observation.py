"""What a user's agent sees: :class:`Observation` (one game's move), :class:`GameInfo`
(given to ``reset``), :class:`Knowledge` (exact inference kept across a game's moves).

Nothing here holds or reaches the true board: the view, the guess order and the
knowledge are copies or knowledge-only states made from what the game showed.
"""
from __future__ import annotations

from time import perf_counter
from typing import NamedTuple

import numpy as np

from ..inference import _check_args, _check_state, _memory, _refuse
from ..kernels.agents import user as ku
from ..kernels.engine import env as ke
from ..kernels.engine import layout as kl
from ..kernels.inference import count as kc
from ..kernels.inference import results as kr

RULES = ("keep-going", "classic")
#: fastsweep.profile's clock of the knowledge's analyses: [seconds] while it profiles a
#: Python agent (``profile/split.py``), else None
KNOWLEDGE_CLOCK = None
FIRST_CLICK = ("any", "safe", "zero")
# (the end of the knowledge's errors: what can make it inconsistent)
_HINT = ("; the clues of a noisy sensor are not exact (fastsweep.mine_probabilities(obs, "
         "likelihood=...) weighs them) and a flag counts as a mine")


class GameInfo(NamedTuple):
    """The game an agent's ``reset(info)`` is called for."""

    game: int  # the game's index: (seed, game) fixes its board and luck
    seed: int
    height: int
    width: int
    mines: int | None  # the mine total if the agent is told it (mine_count=True)
    rules: str  # "keep-going" or "classic"
    first_click: str  # "any", "safe" or "zero"


class _Game:
    """One game's shared part of its observations (made by the player)."""

    __slots__ = ("info", "order_src", "_rng", "_knowledge", "log")

    def __init__(self, info: GameInfo, order_src):
        self.info = info
        self.order_src = order_src.copy()  # (the player's buffer holds the next game's later)
        self.order_src.flags.writeable = False
        self._rng = self._knowledge = None
        self.log = []  # (cell, view value) of every move, for Knowledge


class Observation:
    """What an agent sees before its move.

    Attributes: ``view`` (int8 (H, W), read-only: -1 hidden, -2 flagged by the agent, -3
    a detonated mine (keep-going rules), -4 revealed but nothing shown (a noisy sensor),
    0..8 the clue shown; the game's live view, not a copy: it shows later moves as they
    are made, so keep a position with ``obs.view.copy()``), ``mines`` (the mine total if told, else None), ``rules``,
    ``first_click``, ``move`` (moves made so far, the opening included), ``game`` (its
    index), ``last`` ((row, col) of the last move), ``order`` (the game's guess order:
    the flat cell indices, row * W + col, in the order the built-in agents guess them),
    ``rng`` (a numpy Generator seeded from (seed, game)) and ``knowledge``
    (:class:`Knowledge`).

    >>> import numpy as np, fastsweep
    >>> def first_hidden(obs):  # guesses the first hidden cell of the guess order
    ...     cell = next(c for c in obs.order if obs.view.flat[c] == -1)
    ...     return divmod(int(cell), obs.view.shape[1])
    >>> df = fastsweep.run(first_hidden, 5, mines=3, games=2)
    >>> df.agent.tolist()
    ['first_hidden', 'first_hidden']
    """

    __slots__ = ("view", "mines", "move", "last", "_game")

    def __init__(self, view, mines, move, last, game: _Game):
        self.view = view
        self.mines = mines
        self.move = move
        self.last = last
        self._game = game

    @property
    def game(self) -> int:
        return self._game.info.game

    @property
    def rules(self) -> str:
        return self._game.info.rules

    @property
    def first_click(self) -> str:
        return self._game.info.first_click

    @property
    def order(self) -> np.ndarray:
        g = self._game
        return g.order_src

    @property
    def rng(self) -> np.random.Generator:
        g = self._game
        if g._rng is None:
            g._rng = np.random.default_rng([g.info.seed, g.info.game])
        return g._rng

    @property
    def knowledge(self) -> "Knowledge":
        g = self._game
        if g._knowledge is None:
            g._knowledge = Knowledge(g)
        return g._knowledge

    def __repr__(self):
        h, w = self.view.shape
        return (f"Observation(game={self.game}, move={self.move}, {h}x{w}, "
                f"mines={self.mines}, rules={self.rules!r})")


class Knowledge:
    """Exact inference on what this game has shown, kept across its moves: each call
    adds only the moves made since the last one (no view is parsed again). The same
    kernels as ``fastsweep.deduce`` / ``mine_probabilities`` (exact; a component over
    the work budget is estimated and ``approx_steps`` says so).

    >>> import fastsweep
    >>> class Lowest:  # guesses the lowest exact mine probability
    ...     def act(self, obs):
    ...         p = obs.knowledge.mine_probabilities()
    ...         p[obs.view != -1] = 2.0
    ...         return divmod(int(p.argmin()), p.shape[1])
    >>> bool(fastsweep.run(Lowest(), 6, mines=4, games=3, mine_count=True).score.mean() >= 0)
    True
    """

    def __init__(self, game: _Game):
        self._game = game
        info = game.info
        self._shape = (info.height, info.width)  # (read-only: the kernels' buffers follow it)
        self._S = ke.new_state(info.height, info.width)
        n = info.height * info.width
        self._S[n, kl.C_KMINES] = -1 if info.mines is None else info.mines
        self._seen = 0
        self.approx_steps = 0  # components estimated (over the work budget) in the last call

    @property
    def shape(self) -> tuple:
        """(H, W) of the board (read-only)."""
        return self._shape

    def _sync(self):
        log = self._game.log
        for cell, value in log[self._seen:]:
            ku.observe_value(self._S, cell, value)
        self._seen = len(log)

    def _analyse(self, prior, budget, want_prob):
        if KNOWLEDGE_CLOCK is None:
            return self._analysed(prior, budget, want_prob)
        t0 = perf_counter()  # (fastsweep.profile: the knowledge's share of an agent's time)
        try:
            return self._analysed(prior, budget, want_prob)
        finally:
            KNOWLEDGE_CLOCK[0] += perf_counter() - t0

    def _analysed(self, prior, budget, want_prob):
        # the arguments, the clues and the total checked as fastsweep.mine_probabilities
        # checks them (the counting sees only the clues with hidden neighbours)
        _check_args(prior, budget, "auto")
        self._sync()
        mines = self._game.info.mines
        _check_state(self._S, self._shape[1], mines, "knowledge", _HINT)
        n = self._shape[0] * self._shape[1]
        prob = np.zeros(n, np.float64)
        ded = np.zeros(n, np.int8)
        q = kc.Query(mines is not None, float(prior), int(budget), want_prob,
                     0, np.zeros((0, 9), np.float64))
        with _memory(self._shape, budget):
            status, approx, _, _ = kr.cell_results(self._S, q, prob, ded)
        _refuse(status, mines, "knowledge", _HINT)
        self.approx_steps = int(approx)
        return prob.reshape(self._shape), ded.reshape(self._shape)

    def deduce(self, budget: int = 0):
        """(safe, mine): bool (H, W) arrays of the hidden cells certainly safe / mines.
        Arguments and errors as in ``fastsweep.deduce``: a ValueError when no layout
        agrees with what the game showed (a noisy sensor's clues, a flag on a safe
        cell)."""
        _, ded = self._analyse(0.5, budget, False)
        return ded == 1, ded == 2

    def mine_probabilities(self, prior: float = 0.5, budget: int = 0) -> np.ndarray:
        """Exact mine probability of each cell (float64 (H, W)): with the mine total if
        the agent is told it, else under the per-cell ``prior``. Arguments and errors as
        in ``fastsweep.mine_probabilities``."""
        return self._analyse(prior, budget, True)[0]

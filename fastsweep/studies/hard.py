"""Hard boards: mine layouts on which an agent scores low (after Patel, Prabhala, Shah and
Goradia, Rutgers, 2020).

:func:`hard_board` starts from a random layout and moves one mine one step at a time
(:func:`fastsweep.studies.search_layouts.local_search`) to lower the agent's mean score over a
fixed set of games. Game i of a seed has the same guess order whatever the layout (the
kernels draw it from the seed and the game index alone, before and apart from the mines),
so every layout is scored on the same luck: the objective is deterministic and two
layouts' scores are paired game by game. The drop it reports is measured on other games
(held out from the search), so it is not inflated by the search fitting its own games.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..config import check_games, check_seed
from ..options import make_config
from ..runner import play_chunk, scores
from .search_layouts import (
    SearchResult, _check_int, exhaustive, layout_key, layout_text, local_search,
)
from ..stats import sample_ci


class ScoreObjective:
    """An agent's mean score on a layout over games ``first_game .. first_game + games - 1``
    of ``seed``: a deterministic function of the layout (the objective of
    :func:`hard_board`). ``options`` are :func:`fastsweep.run`'s game options.

    >>> f = ScoreObjective("basic", 3, games=50)
    >>> lay = np.zeros((3, 3), bool); lay[1, 1] = True
    >>> f(lay) == f(lay), f.scores(lay).shape
    (True, (50,))
    """

    def __init__(self, agent, size, games, seed=0, first_game=0, **options):
        if "layout" in options or "mines" in options or "density" in options:
            raise ValueError("layout: the objective is given the layout; do not pass "
                             "layout, mines or density")
        self.games = check_games(games, "plays")
        self.seed = check_seed(seed)
        self.first_game = first_game
        self.agent, self.size, self.options = agent, size, options
        make_config(agent, size, mines=1, **options)  # agent, size and options checked now

    def config(self, layout):
        return make_config(self.agent, self.size, layout=np.asarray(layout, bool),
                           **self.options)

    def allowed(self, layout) -> bool:
        """Whether the game options accept the layout (a fixed first cell that must be
        safe or a zero, say)."""
        try:
            self.config(layout)
        except ValueError:
            return False
        return True

    def scores(self, layout) -> np.ndarray:
        """Each game's score on ``layout``."""
        out, _, _ = play_chunk(self.config(layout), self.seed, self.first_game, self.games,
                               timing=False)
        return scores(out)

    def __call__(self, layout) -> float:
        return float(self.scores(layout).mean())


def layout_stats(layout) -> dict:
    """How clustered a layout is: ``border`` (share of its mines on the board's edge) and
    ``neighbours`` (mean number of mines among a mine's 8 neighbours), each with its
    expectation over uniformly random layouts of as many mines (``border_random``,
    ``neighbours_random``).

    >>> s = layout_stats(np.array([[1, 1, 0], [0, 0, 0], [0, 0, 0]], bool))
    >>> s["border"], s["neighbours"], s["border_random"]
    (1.0, 1.0, 0.8888888888888888)
    """
    lay = np.asarray(layout, bool)
    h, w = lay.shape
    n, m = lay.size, int(lay.sum())
    edge = np.zeros_like(lay)
    edge[0, :] = edge[-1, :] = edge[:, 0] = edge[:, -1] = True
    pad = np.pad(lay, 1).astype(int)
    around = sum(pad[1 + dr:1 + dr + h, 1 + dc:1 + dc + w]
                 for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))
    deg = sum(np.pad(np.ones_like(lay, int), 1)[1 + dr:1 + dr + h, 1 + dc:1 + dc + w]
              for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))
    return dict(
        border=float(edge[lay].mean()) if m else math.nan,
        neighbours=float(around[lay].mean()) if m else math.nan,
        border_random=float(edge.mean()),
        # a mine's neighbour is one of the other m - 1 mines with chance (m-1)/(n-1)
        neighbours_random=float(deg.mean()) * (m - 1) / (n - 1) if n > 1 else math.nan)


@dataclass
class HardBoard:
    """The result of :func:`hard_board`. ``score`` and ``start_score`` are mean scores on
    the search's games; ``drop`` (``drop_low``, ``drop_high``: 95% CI) is the mean paired
    difference start minus searched on ``eval_plays`` other games, ``eval_start`` and
    ``eval_score`` the two layouts' mean scores there."""

    agent: str
    height: int
    width: int
    mines: int
    plays: int
    eval_plays: int
    seed: int
    options: dict
    start: np.ndarray
    layout: np.ndarray
    start_score: float
    score: float
    drop: float
    drop_low: float
    drop_high: float
    eval_start: float
    eval_score: float
    search: SearchResult = field(repr=False)

    @property
    def history(self) -> pd.DataFrame:
        """The search's rounds (see :class:`fastsweep.studies.search_layouts.SearchResult`)."""
        return self.search.history

    @property
    def relative_drop(self) -> float:
        """The held-out drop as a share of the random layout's score there."""
        return self.drop / self.eval_start if self.eval_start else math.nan

    def text(self) -> str:
        """The two layouts side by side and the numbers, as printed by the CLI."""
        s = self.search
        a, b = layout_stats(self.start), layout_stats(self.layout)
        left = layout_text(self.start).splitlines()
        right = layout_text(self.layout).splitlines()
        gap = max(len(left[0]), len("random layout")) + 4
        opts = ", ".join(f"{k}={v}" for k, v in self.options.items())
        lines = [f"hard board for {self.agent} on {self.height}x{self.width}, "
                 f"{_n(self.mines, 'mine')}{', ' + opts if opts else ''}, seed {self.seed}",
                 f"search: {self.plays:,} games a layout (games 0..{self.plays - 1}), "
                 f"{_n(s.rounds, 'round')}, {_n(s.steps, 'move')} kept, "
                 f"{_n(s.evaluations, 'layout')} scored, stopped: {s.stopped}",
                 "", "random layout".ljust(gap) + "searched layout"]
        lines += [x.ljust(gap) + y for x, y in zip(left, right)]
        lines += ["",
                  f"score on the search games  {self.start_score:.4f} -> {self.score:.4f}",
                  f"held-out games             {self.eval_start:.4f} -> {self.eval_score:.4f}"
                  f"  ({self.eval_plays:,} games, {self.plays}..{self.plays + self.eval_plays - 1})",
                  f"paired drop                {self.drop:.4f}  (95% CI {self.drop_low:.4f} .. "
                  f"{self.drop_high:.4f}), {100 * self.relative_drop:.1f}% of the random "
                  "layout's score",
                  f"mines on the border        {a['border']:.2f} -> {b['border']:.2f}  "
                  f"(random layouts: {a['border_random']:.2f} expected)",
                  f"mine neighbours of a mine  {a['neighbours']:.2f} -> {b['neighbours']:.2f}"
                  f"  (random layouts: {a['neighbours_random']:.2f} expected)"]
        return "\n".join(lines)


def _n(k, noun):
    return f"{k:,} {noun}{'' if k == 1 else 's'}"


def _mines_in_range(cfg, mines):
    n = cfg.cells
    if not 1 <= cfg.mines <= n - 1:
        name = "mines" if mines is not None else "density"
        raise ValueError(f"{name}: a hard board needs between 1 and {n - 1} mines (cells - 1) "
                         f"on {cfg.height}x{cfg.width}, got {cfg.mines} mines")


def random_layout(h, w, mines, rng, allowed=None, attempts=1000):
    """A uniformly random layout of ``mines`` mines that ``allowed`` accepts."""
    for _ in range(attempts):
        x = np.zeros(h * w, bool)
        x[rng.choice(h * w, size=mines, replace=False)] = True
        x = x.reshape(h, w)
        if allowed is None or allowed(x):
            return x
    raise ValueError(f"first_click: no random layout of {mines} mines on {h}x{w} met the "
                     f"first-click rule in {attempts} draws")


def search_board(objective, name, minimize, salt, agent, size, mines, density, plays,
                 eval_plays, patience, tries, seed, min_gain, max_rounds, options, check=None):
    """The local search over layouts shared by :func:`hard_board` and
    :func:`fastsweep.studies.influence_search.longest_chain_board`: checks the arguments (errors
    name them; ``name`` is the caller's), draws the random start (its own stream, ``salt``)
    and runs :func:`~fastsweep.studies.search_layouts.local_search` on ``objective(agent, (h, w),
    plays, seed, 0, **options)``. ``check(cfg)`` refuses configurations the objective
    cannot score. Returns (cfg, plays, eval_plays, seed, search result)."""
    if "layout" in options:
        raise ValueError(f"layout: {name} searches the layout; give mines or density")
    if "games" in options:
        raise ValueError(f"games: {name} takes plays= (games a layout) and eval_plays=")
    cfg = make_config(agent, size, mines=mines, density=density, **options)
    if check is not None:
        check(cfg)
    _mines_in_range(cfg, mines)
    plays = check_games(plays, "plays")
    eval_plays = check_games(eval_plays, "eval_plays")
    patience = _check_int("patience", patience, 0)
    if tries is not None:
        tries = _check_int("tries", tries, 1)
    seed = check_seed(seed)
    h, w = cfg.height, cfg.width
    obj = objective(agent, (h, w), plays, seed, 0, **options)
    rng = np.random.default_rng([seed, salt])
    start = random_layout(h, w, cfg.mines, rng, obj.allowed)
    res = local_search(obj, start, minimize=minimize, patience=patience, tries=tries,
                       min_gain=min_gain, seed=rng, max_rounds=max_rounds,
                       allowed=obj.allowed)
    return cfg, plays, eval_plays, seed, res


def hard_board(agent, size, mines=None, density=None, plays=200, patience=5, tries=16,
               seed=0, eval_plays=1000, min_gain=0.01, max_rounds=10_000,
               **options) -> HardBoard:
    """Search for a layout of ``mines`` mines (or ``density``) on which ``agent`` scores low.

    From a random layout, each round tries moving one mine one step up, down, left or right
    onto an empty cell (``tries`` such moves drawn at random, or every one with
    ``tries=None``), keeps the move that lowers the mean score over ``plays`` games most if
    it lowers it by at least ``min_gain`` (1%) relative, and stops after ``patience``
    non-improving rounds in a row (at once when a round tried every move). Game i of ``seed`` has the same guess order
    on every layout, so the score is a deterministic function of the layout and layouts
    are compared on the same games. ``options``: :func:`fastsweep.run`'s game options
    (``rules``, ``mine_count``, ``prior``, ...).

    The reported ``drop`` is paired on ``eval_plays`` further games (indices ``plays``
    onward), which the search never saw.

    >>> import fastsweep
    >>> r = fastsweep.hard_board("basic", 5, mines=5, plays=100, eval_plays=200)
    >>> r.score < r.start_score, int(r.layout.sum())
    (True, 5)
    """
    cfg, plays, eval_plays, seed, res = search_board(
        ScoreObjective, "hard_board", True, 0x48415244,  # "HARD": apart from the game streams
        agent, size, mines, density, plays, eval_plays, patience, tries, seed, min_gain,
        max_rounds, options)
    h, w = cfg.height, cfg.width
    held = ScoreObjective(agent, (h, w), eval_plays, seed, plays, **options)
    a, b = held.scores(res.start), held.scores(res.layout)
    d, lo, hi = sample_ci(a - b, -1, 1, about=0)  # (paired: the same plays)
    return HardBoard(agent=agent, height=h, width=w, mines=cfg.mines, plays=plays,
                     eval_plays=eval_plays, seed=seed, options=dict(options),
                     start=res.start, layout=res.layout, start_score=res.start_value,
                     score=res.value, drop=d, drop_low=lo, drop_high=hi,
                     eval_start=float(a.mean()), eval_score=float(b.mean()), search=res)


def hardest_layouts(agent, size, mines, plays=2000, seed=0, symmetric=False,
                    **options) -> pd.DataFrame:
    """Every layout of ``mines`` mines on a small board with ``agent``'s mean score over
    games 0 .. ``plays`` - 1 of ``seed`` (the same guess orders for every layout), hardest
    first: columns ``layout`` (:func:`~fastsweep.studies.search_layouts.layout_key`: rows of 0/1
    joined by ``/``), ``score``, ``low``, ``high`` (95% CI
    of that layout's mean over its games), ``orbit``. Layouts the game options refuse (a
    fixed first cell that must be safe, say) get NaN and come last.

    ``symmetric=True`` scores one layout per orbit of the board's symmetries
    (:func:`fastsweep.studies.search_layouts.exhaustive`; ``orbit``: the layouts it stands for).
    That is sound for the expected score with a random opening cell: the guess order is
    uniform, the agents act on every certain cell before guessing and break ties of
    probability by the guess order, so a rotated or mirrored layout is played the same
    way under the rotated or mirrored order. A fixed opening cell (``first_cell``) breaks
    the symmetry: then leave it False.

    >>> df = hardest_layouts("basic", 2, 1, plays=20)
    >>> len(df), bool(df.score.between(0, 1).all())
    (4, True)
    """
    obj = ScoreObjective(agent, size, plays, seed, 0, **options)
    cfg = make_config(agent, size, mines=mines, **options)
    _mines_in_range(cfg, mines)
    ci = {}

    def value(x):
        if not obj.allowed(x):
            ci[layout_key(x)] = (math.nan, math.nan)
            return math.nan
        m, lo, hi = sample_ci(obj.scores(x), 0, 1)
        ci[layout_key(x)] = (lo, hi)
        return m

    if symmetric and cfg.first_cell != "random":
        raise ValueError("symmetric: a fixed first cell breaks the board's symmetry; use "
                         "symmetric=False")
    df = exhaustive(value, (cfg.height, cfg.width), cfg.mines, symmetric=symmetric)
    df = df.rename(columns={"value": "score"})
    df["low"] = [ci[k][0] for k in df.layout]
    df["high"] = [ci[k][1] for k in df.layout]
    return df[["layout", "score", "low", "high", "orbit"]]

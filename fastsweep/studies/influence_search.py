"""The longest chain of influence over layouts (Dhurandhar's report): a local search that
moves one mine one step at a time to lengthen an agent's longest chain of deductions.

:class:`ChainObjective` is a layout's mean, over fixed games, of the game's longest chain
(the largest ``longest_chain`` of :func:`fastsweep.studies.influence.influence` over the game's
guesses). Game i of a seed has the same guess order whatever the layout, so the objective
is a deterministic function of the layout, as the hard-board search's score
(:mod:`fastsweep.studies.hard`). :func:`longest_chain_board` maximises it with
:func:`fastsweep.studies.search_layouts.local_search` and measures start and searched layouts
again on games the search never saw (a maximum over noisy means is biased upward).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .hard import ScoreObjective, search_board
from ..options import make_config
from .search_layouts import SearchResult, _check_int
from ..trace import play


def _exact_game(cfg):
    # the same refusals as influence() itself, raised before any game is played
    if cfg.noise != "none":
        raise ValueError(f"noise: the longest chain needs exact clues (noise='none'), "
                         f"got {cfg.noise!r}")
    if cfg.mine_count:
        raise ValueError("mine_count: the longest chain needs games played without the "
                         "mine total (mine_count=False)")


class ChainObjective(ScoreObjective):
    """The mean over games ``first_game .. first_game + plays - 1`` of ``seed`` of each
    game's longest chain of deductions on a layout: deterministic in the layout.
    ``options``: :func:`fastsweep.play`'s game options (no noise, no mine total).

    >>> f = ChainObjective("basic", 5, plays=3)
    >>> lay = np.zeros((5, 5), bool); lay[4, 4] = True
    >>> f(lay) == f(lay), f.chains(lay).shape
    (True, (3,))
    """

    def __init__(self, agent, size, plays, seed=0, first_game=0, **options):
        super().__init__(agent, size, plays, seed, _check_int("first_game", first_game, 0),
                         **options)
        _exact_game(make_config(agent, size, mines=1, **options))

    @property
    def plays(self) -> int:
        return self.games

    def chains(self, layout) -> np.ndarray:
        """Each game's longest chain on ``layout``."""
        lay = np.asarray(layout, bool)
        return np.array([play(self.agent, self.size, layout=lay, seed=self.seed,
                              game=self.first_game + i, **self.options)
                         .influence()["longest_chain"].max()
                         for i in range(self.games)], np.int64)

    def __call__(self, layout) -> float:
        return float(self.chains(layout).mean())


@dataclass
class ChainBoard:
    """The result of :func:`longest_chain_board`. ``start_chain`` and ``chain``: the mean
    longest chain of the start and searched layouts on the search's ``plays`` games;
    ``eval_start`` and ``eval_chain``: the same on ``eval_plays`` other games."""

    agent: str
    height: int
    width: int
    mines: int
    plays: int
    eval_plays: int
    seed: int
    start: np.ndarray
    layout: np.ndarray
    start_chain: float
    chain: float
    eval_start: float
    eval_chain: float
    search: SearchResult = field(repr=False)

    @property
    def path(self) -> list:
        """The start and the layout after each kept move, in order."""
        return self.search.path

    @property
    def history(self):
        """The search's rounds (see :class:`fastsweep.studies.search_layouts.SearchResult`)."""
        return self.search.history


def longest_chain_board(agent, size, mines=None, density=None, plays=20, patience=3,
                        tries=16, seed=0, eval_plays=100, min_gain=0.01, max_rounds=10_000,
                        **options) -> ChainBoard:
    """Search for a layout of ``mines`` mines (or ``density``) on which ``agent``'s longest
    chain of deductions is long, by local search from a random layout (the hard-board
    search of :func:`fastsweep.hard_board`, maximising :class:`ChainObjective` over
    ``plays`` games instead of minimising the score): each round tries ``tries`` random
    one-step mine moves (all with ``tries=None``), keeps the best if it lengthens the mean
    chain by ``min_gain`` (relative) and stops after ``patience`` rounds without.
    ``eval_chain`` and ``eval_start`` measure both layouts on games ``plays`` onward.

    >>> r = longest_chain_board("basic", 5, mines=4, plays=3, tries=4, patience=0,
    ...                         eval_plays=3)
    >>> r.chain >= r.start_chain, int(r.layout.sum()), len(r.path) == r.search.steps + 1
    (True, 4, True)
    """
    cfg, plays, eval_plays, seed, res = search_board(
        ChainObjective, "longest_chain_board", False, 0x43484149,  # "CHAI": own stream
        agent, size, mines, density, plays, eval_plays, patience, tries, seed, min_gain,
        max_rounds, options, check=_exact_game)
    h, w = cfg.height, cfg.width
    held = ChainObjective(agent, (h, w), eval_plays, seed, plays, **options)
    return ChainBoard(agent=agent, height=h, width=w, mines=cfg.mines, plays=plays,
                      eval_plays=eval_plays, seed=seed, start=res.start, layout=res.layout,
                      start_chain=res.start_value, chain=res.value,
                      eval_start=held(res.start), eval_chain=held(res.layout), search=res)

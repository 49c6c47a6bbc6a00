"""Batches of games from Python: :func:`run` (a DataFrame per game) and :func:`play_chunk`
(raw arrays for one chunk of game indices, used by the sweep driver).
"""
from __future__ import annotations

import time

import numpy as np
import pandas as pd

from .agents import kernels_for
from .config import GameConfig, check_games, check_seed
from .kernels.engine import game as kg
from .options import OPTIONS, agent_params, make_config, takes_options

COLUMNS = ["game", "seed", "agent", "height", "width", "mines", "rules", "first_click",
           "mine_count", "flagged", "detonated", "revealed", "guesses", "moves", "won",
           "score", "seconds", "approx_steps", "wrong_flags", "safe_detonations",
           "clues_dropped"]


def play_chunk(cfg: GameConfig, seed: int, first_game: int, games: int, keep_boards=False,
               timing=True, phases=False):
    """Play games ``first_game .. first_game + games - 1`` of ``cfg`` in one kernel call.

    Returns ``(out, secs, boards)``: the int64 result table (columns ``kernels.game.OUT_*``),
    per-game seconds (zeros if not ``timing``: the per-game clock costs ~1 us a game),
    and ``(final_state, mines)`` arrays of shape (games, N) if ``keep_boards`` else None.
    Game ``i`` depends only on (seed, i) and ``cfg``. ``phases``: run the kernels' phase
    clocks (``kernels/engine/work.py``; the result table's ``OUT_PHASE_NS`` columns), as
    ``fastsweep.profile`` does in its work pass.
    """
    params, fparams = agent_params(cfg, seed)
    if phases:  # (the table gets the work columns too)
        params[kg.P_PROFILE] = 1
    layout = cfg.layout if cfg.layout is not None else np.zeros(0, np.uint8)
    out = np.zeros((games, kg.OUT_WORK_LEN if phases else kg.OUT_LEN), np.int64)
    secs = np.zeros(games if timing else 0, np.float64)
    boards = np.zeros((2, games, cfg.cells) if keep_boards else (2, 0, 0), np.int8)
    kernels_for(cfg.agent).play_batch(params, fparams, layout, first_game, out, secs, boards)
    if not timing:
        secs = np.zeros(games, np.float64)
    return out, secs, ((boards[0], boards[1].view(np.uint8)) if keep_boards else None)


def scores(out: np.ndarray) -> np.ndarray:
    """Score of each game: mines correctly flagged / mines (1.0 with no mines); a flag on a
    safe cell (a built-in agent's only under a noisy sensor; a user's agent's anywhere)
    is not a mine found."""
    mines = out[:, kg.OUT_MINES]
    right = out[:, kg.OUT_FLAGGED] - out[:, kg.OUT_WRONG_FLAGS]
    return np.where(mines > 0, right / np.maximum(mines, 1), 1.0)


def frame(cfg: GameConfig, seed: int, first_game: int, out, secs) -> pd.DataFrame:
    """The per-game DataFrame of a chunk's raw results."""
    g = out.shape[0]
    return pd.DataFrame({
        "game": np.arange(first_game, first_game + g, dtype=np.int64),
        "seed": np.full(g, seed, dtype=np.uint64),
        "agent": cfg.agent,
        "height": cfg.height,
        "width": cfg.width,
        "mines": out[:, kg.OUT_MINES],
        "rules": cfg.rules,
        "first_click": cfg.first_click,
        "mine_count": cfg.mine_count,
        "flagged": out[:, kg.OUT_FLAGGED],
        "detonated": out[:, kg.OUT_DETONATED],
        "revealed": out[:, kg.OUT_REVEALED],
        "guesses": out[:, kg.OUT_GUESSES],
        "moves": out[:, kg.OUT_MOVES],
        "won": out[:, kg.OUT_WON].astype(bool),
        "score": scores(out),
        "seconds": secs,
        "approx_steps": out[:, kg.OUT_APPROX],
        "wrong_flags": out[:, kg.OUT_WRONG_FLAGS],
        "safe_detonations": out[:, kg.OUT_SAFE_DETONATIONS],
        "clues_dropped": out[:, kg.OUT_DROPPED],
    }, columns=COLUMNS)


@takes_options([o for o in OPTIONS if o.name != "size"])
def run(agent, size, mines=None, density=None, games=1, seed=0, **options) -> pd.DataFrame:
    """Play ``games`` games of one configuration; one DataFrame row per game.

    Parameters
    ----------
    agent : str
        A name from ``fastsweep.AGENTS`` (``"basic"``, ...).
    size : int or (int, int)
        ``d`` for a d x d board or ``(H, W)``.
    mines, density : int or float
        Exactly one: the number of mines, or the fraction of cells (rounded).
    games : int
        Games to play; game ``i`` is the same board and luck for any batch.
    seed : int
        Root seed in [0, 2**64 - 1]; (seed, game index) fixes a game.
    rules : {"keep-going", "classic"}
        keep-going: a detonation is learned as a mine and play goes on until every cell is
        resolved. classic: the game ends at the first detonation.
    first_click : {"any", "safe", "zero"}, optional
        Guarantee for the opening cell (default "safe" for classic, "any" otherwise).
    first_cell : {"corner", "center", "random"} or (row, col), optional
        Opening cell (default "corner" for classic, "random" otherwise: the first cell of
        the guess order).
    mine_count : bool
        Whether the agent is told the total number of mines.
    layout : bool array (H, W) or list of (row, col), optional
        A fixed mine layout instead of random placement (then omit mines/density).
    prior : float
        Per-cell mine prior for probability agents that do not know the mine count.
    budget : int
        Work budget of exact analyses (0 = the agent's default).
    threshold : float
        ``threshold`` agent: every cell below this mine probability is revealed at once.
    risk_rules : {"complete", "basic"}
        ``risk`` agent: cells its look-ahead counts as decided come from complete deduction
        or from the single-clue rules only.
    max_component : int
        ``bruteforce`` agents: the largest frontier component (cells) they enumerate.
    noise : str
        The sensor's noise model: ``"none"``, ``"detector:p_neg=A,p_pos=B"``,
        ``"reveal:p=P"``, ``"optimistic[:p=P]"`` or ``"cautious[:p=P]"`` (the guide's
        "Noisy sensors" page). The noise of game i is the same for every agent.
    noise_aware : bool or None
        Under noise, ``inference`` / ``probability`` reason on the exact posterior given
        the shown values (None, the default: yes for them) or trust the shown clues
        (False). Other agents always trust them.
    flag_threshold : float
        Noise-aware ``probability``: flag cells whose posterior mine probability is at
        least this (default 1: only certain mines).
    endgame, endgame_nodes, candidate_cut : int, int, float
        ``lookahead``: exact endgame search once at most ``endgame`` layouts are
        consistent (0: off; needs the mine total), within ``endgame_nodes`` search nodes a
        move; it scores the cells at least ``candidate_cut`` as safe as the safest
        (the guide's "Agents" page, ``lookahead``).
    pseudo_fifty : bool
        ``lookahead``: guess a pseudo-50/50 early (a cell that, were it a mine, would
        certainly be half of a 50/50 no reveal can resolve); on by default.
    corner_opening : bool
        ``lookahead``: when the opening cell shows a number and nothing is certain, guess
        the corner farthest from it if no hidden cell is safer (on by default; False
        plays the look-ahead's own first guess).
    offedge_limit : bool
        ``lookahead``: off the frontier, score only the cells D. Hill's solver scores
        (two steps from a clue, or in a corner or nook; all when fewer than 30): a
        cheaper setting (the guide's "Agents" page, ``lookahead``).
    fifty_blocks : bool
        ``lookahead``: guess early also the unavoidable 50/50s over more than two cells
        (2x2 blocks and other sets linked by clues, whose two mine patterns no clue can
        ever tell apart); by default only pairs.
    far_ties : bool
        ``lookahead``: of candidates it cannot tell apart (equally safe, and for cells
        no clue touches the same neighbourhood), score first and so prefer the one
        farthest from the revealed cells (on by default; False leaves it to the guess
        order).

    Returns
    -------
    pandas.DataFrame with columns game, seed, agent, height, width, mines, rules,
    first_click, mine_count, flagged, detonated, revealed, guesses (the opening move
    included), moves, won (no detonation), score (mines flagged correctly / mines),
    seconds, approx_steps, wrong_flags (flags on safe cells), safe_detonations
    (detonations on cells the agent had deduced safe), clues_dropped (clues the agent
    dropped because its knowledge contradicted them; both 0 under exact clues).

    Example
    -------
    >>> import fastsweep
    >>> df = fastsweep.run("basic", 30, density=0.2, games=100, seed=1)
    >>> round(df.score.mean(), 2)  # doctest: +SKIP
    0.85
    """
    cfg = make_config(agent, size, mines=mines, density=density, **options)
    games = check_games(games)
    seed = check_seed(seed)
    out, secs, _ = play_chunk(cfg, seed, 0, games)
    return frame(cfg, seed, 0, out, secs)


def timed_run(cfg: GameConfig, seed: int, games: int):
    """(out, wall seconds) of a batch without per-game clocks; used by the benchmarks."""
    t0 = time.perf_counter()
    out, _, _ = play_chunk(cfg, seed, 0, games, timing=False)
    return out, time.perf_counter() - t0

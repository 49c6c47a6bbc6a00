""":class:`GameConfig` and the parsers of user arguments, with their error messages.

Every public entry point (``run``, ``play``, ``sweep``, the CLI) builds its games through
:func:`fastsweep.options.make_config`, which runs each option through its row of the
option table and these parsers, so a bad argument always gets the same clear
``ValueError`` naming the argument and what is allowed.
"""
from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field

import numpy as np


MAX_CELLS = 4_000_000  # a game state is ~150 bytes a cell (600 MB here) per worker
RULES = ("keep-going", "classic")
FIRST_CLICKS = ("any", "safe", "zero")
FIRST_CELLS = ("corner", "center", "random")
#: Root seeds are the kernels' uint64: every entry point (run, play, sweep, advise,
#: ManualGame, hard_board, the Gymnasium envs, the CLI's --seed) checks them with
#: :func:`check_seed`, so the limit and its message live here only.
MAX_SEED = 2**64 - 1
SEED_RANGE = "[0, 2**64 - 1]"


@dataclass(frozen=True)
class GameConfig:
    """One board configuration plus one agent: everything a batch of games needs. Made by
    :func:`fastsweep.options.make_config` only, which fills every field from the option
    table (the one place defaults are written)."""

    agent: str
    height: int
    width: int
    mines: int
    rules: str
    first_click: str
    first_cell: object  # "corner" | "center" | "random" | (row, col)
    mine_count: bool
    layout: np.ndarray | None = field(compare=False, repr=False)
    prior: float
    budget: int
    threshold: float
    risk_rules: str
    max_component: int
    noise: str  # the normalised spec (see fastsweep.noise.parse_noise)
    noise_aware: bool  # resolved per agent by the option table
    flag_threshold: float
    endgame: int
    endgame_nodes: int
    candidate_cut: float
    pseudo_fifty: bool
    corner_opening: bool
    offedge_limit: bool
    fifty_blocks: bool
    far_ties: bool

    @property
    def cells(self) -> int:
        return self.height * self.width

    def first_cell_index(self) -> int:
        """Flat index of the opening cell, or -1 for a random one."""
        fc = self.first_cell
        if fc == "random":
            return -1
        if fc == "corner":
            return 0
        if fc == "center":
            return (self.height // 2) * self.width + self.width // 2
        r, c = fc
        return r * self.width + c


def _is_int(x) -> bool:
    return isinstance(x, numbers.Integral) and not isinstance(x, bool)


def parse_size(size) -> tuple[int, int]:
    """``d`` (square), ``(H, W)`` or a string ``"d"`` / ``"HxW"`` -> (H, W)."""
    if isinstance(size, str):
        parts = size.lower().replace(" ", "").split("x")
        try:
            vals = [int(p) for p in parts]
        except ValueError:
            raise ValueError(f"size: expected an integer d or 'HxW', got {size!r}") from None
        if len(vals) == 1:
            size = vals[0]
        elif len(vals) == 2:
            size = tuple(vals)
        else:
            raise ValueError(f"size: expected an integer d or 'HxW', got {size!r}")
    if _is_int(size):
        h = w = int(size)
    elif isinstance(size, (tuple, list)) and len(size) == 2 and all(_is_int(v) for v in size):
        h, w = int(size[0]), int(size[1])
    else:
        raise ValueError(f"size: expected an integer d or a pair (H, W) of integers, got {size!r}")
    if h < 1 or w < 1:
        raise ValueError(f"size: height and width must be >= 1, got {h}x{w}")
    if h * w > MAX_CELLS:
        raise ValueError(
            f"size: {h}x{w} = {h * w} cells is too large; at most {MAX_CELLS} cells per board")
    return h, w


def parse_layout(layout, h, w) -> np.ndarray:
    """Boolean H x W array or list of (row, col) mine positions -> flat uint8 array."""
    if isinstance(layout, np.ndarray) and layout.ndim == 2:
        if layout.shape != (h, w):
            raise ValueError(f"layout: shape {layout.shape} does not match the board {h}x{w}")
        if layout.dtype != bool and not np.all(np.isin(layout, (0, 1))):
            raise ValueError("layout: a 2-D layout must be boolean (or 0/1)")
        return np.ascontiguousarray(layout, dtype=np.uint8).ravel()
    try:
        cells = [tuple(p) for p in layout]
    except TypeError:
        raise ValueError("layout: expected an H x W boolean array or a list of (row, col)") from None
    flat = np.zeros(h * w, np.uint8)
    for p in cells:
        if len(p) != 2 or not all(_is_int(v) for v in p):
            raise ValueError(f"layout: expected (row, col) integer pairs, got {p!r}")
        r, c = p
        if not (0 <= r < h and 0 <= c < w):
            raise ValueError(f"layout: mine {p} is off the {h}x{w} board")
        if flat[r * w + c]:
            raise ValueError(f"layout: mine {p} is listed twice")
        flat[r * w + c] = 1
    return flat


def resolve_mines(mines, density, cells) -> int:
    """Exactly one of ``mines`` (int in [0, cells]) or ``density`` (in [0, 1])."""
    if (mines is None) == (density is None):
        raise ValueError("mines/density: give exactly one of mines=M or density=rho")
    if mines is not None:
        if not _is_int(mines):
            raise ValueError(f"mines: expected an integer, got {mines!r}")
        if mines < 0 or mines > cells:
            raise ValueError(f"mines: must be between 0 and {cells} (cells on the board), got {mines}")
        return int(mines)
    return int(round(check_density(density) * cells))


def check_density(density):
    """A mine density in [0, 1] (returned as given)."""
    if not isinstance(density, numbers.Real) or isinstance(density, bool):
        raise ValueError(f"density: expected a number in [0, 1], got {density!r}")
    if math.isnan(density) or not 0.0 <= density <= 1.0:
        raise ValueError(f"density: must be in [0, 1], got {density!r}")
    return density


def parse_first_cell(first_cell, h, w):
    if isinstance(first_cell, np.ndarray):
        first_cell = first_cell.tolist()  # (an array's `in` test would be ambiguous)
    if isinstance(first_cell, str) and first_cell in FIRST_CELLS:
        return first_cell
    if isinstance(first_cell, str):
        parts = first_cell.replace(" ", "").strip("()").split(",")
        try:
            first_cell = tuple(int(p) for p in parts)
        except ValueError:
            raise ValueError(
                f"first_cell: expected one of {', '.join(FIRST_CELLS)} or 'row,col', "
                f"got {first_cell!r}") from None
    if (isinstance(first_cell, (tuple, list)) and len(first_cell) == 2
            and all(_is_int(v) for v in first_cell)):
        r, c = int(first_cell[0]), int(first_cell[1])
        if not (0 <= r < h and 0 <= c < w):
            raise ValueError(
                f"first_cell: ({r}, {c}) is off the {h}x{w} board (rows 0..{h - 1}, cols 0..{w - 1})")
        return (r, c)
    raise ValueError(
        f"first_cell: expected one of {', '.join(FIRST_CELLS)} or a (row, col) pair, got {first_cell!r}")


def _check_first_click(cfg: GameConfig, nbr_count) -> None:
    """Fail early when the first-click rule cannot be honoured."""
    if cfg.first_click == "any":
        return
    n = cfg.cells
    fc = cfg.first_cell_index()
    if cfg.layout is None:
        # worst case over openings: an interior cell excludes 9 cells for 'zero'
        if fc >= 0:
            excl = 1 if cfg.first_click == "safe" else 1 + nbr_count(fc)
        else:
            excl = 1 if cfg.first_click == "safe" else min(9, n)
        if cfg.mines > n - excl:
            raise ValueError(
                f"first_click: rule {cfg.first_click!r} needs {excl} mine-free cells, so mines must "
                f"be at most {n - excl} on a {cfg.height}x{cfg.width} board (got {cfg.mines}); "
                f"use first_click='any' or fewer mines")
        return
    lay = cfg.layout.reshape(cfg.height, cfg.width)

    def ok(r, c):
        if cfg.first_click == "safe":
            return not lay[r, c]
        return not lay[max(r - 1, 0):r + 2, max(c - 1, 0):c + 2].any()

    if fc >= 0:
        r, c = divmod(fc, cfg.width)
        if not ok(r, c):
            raise ValueError(
                f"first_click: the layout breaks rule {cfg.first_click!r} at the first cell ({r}, {c})")
    elif not any(ok(r, c) for r in range(cfg.height) for c in range(cfg.width)):
        raise ValueError(f"first_click: no cell of the layout satisfies rule {cfg.first_click!r}")


def check_flag(value, name) -> bool:
    """An on/off argument: True or False only (a truthy "no" or 2 meant something else)."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name}: expected True or False, got {value!r}")
    return bool(value)


def check_seed(seed, name="seed") -> int:
    """A root seed: an integer in :data:`SEED_RANGE` (not a bool, not a float, not None:
    callers where None means something, like Gymnasium's ``reset(seed=None)``, handle it
    first); ValueError naming ``name`` otherwise."""
    if not _is_int(seed) or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"{name}: must be an integer in {SEED_RANGE}, got {seed!r}")
    return int(seed)


#: The most games one call may ask for: ``run`` holds one row per game in memory, and a
#: sweep configuration keeps each game's score in its chunk records.
MAX_GAMES = 10**7


def check_games(games, name="games", limit=MAX_GAMES) -> int:
    if not _is_int(games) or not 1 <= games <= limit:
        raise ValueError(f"{name}: must be an integer in [1, {limit:,}], got {games!r}")
    return int(games)


#: Game indices: game i's random stream is derived from (seed, configuration, i).
MAX_GAME_INDEX = 2**62


def check_game_index(game, games=1) -> int:
    if not _is_int(game) or not 0 <= game <= MAX_GAME_INDEX - games:
        raise ValueError(f"game: must be an integer in [0, 2**62 - games], got {game!r}")
    return int(game)

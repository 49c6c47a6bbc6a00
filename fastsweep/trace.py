"""Play-by-play of one game: :func:`play` returns a :class:`Trace` (moves, reasons, boards;
its pictures are drawn by :mod:`fastsweep.viz.pictures`).

The game is played by the same compiled loop as the batch runner, with recording on, so
the trace is exactly the game ``run`` would have played with the same seed and index.
"""
from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .agents import agent_info, counted, kernels_for, reason_text
from .config import GameConfig, check_game_index, check_seed
from .studies.influence import influence as _influence
from .studies.influence import influence_graph as _influence_graph
from .kernels.engine import layout as kl
from .kernels.engine import game as kg
from .options import OPTIONS, agent_params, make_config, takes_options

ACTIONS = {kl.A_REVEAL: "reveal", kl.A_FLAG: "flag", kl.A_GUESS: "guess"}
LEGEND = ("legend: ? hidden, 0-8 clue (as shown), - revealed with no clue shown (noise), "
          "F flagged (a mine, unless wrong under noise), * detonated mine, "
          "M mine still hidden (shown when the game is over)")


def _rc(cell: int, width: int) -> str:
    r, c = divmod(int(cell), width)
    return f"({r},{c})"


@dataclass
class Trace:
    """One traced game. ``moves`` has one row per move: move, action, cell (row, col),
    row, col, outcome (clue, or 'detonated' / 'flagged'), reason; and for programs: kind
    (layout.A_*), cell_index, out (the value shown, -1 detonated, -2 flagged),
    probability, why (the reason's code, layout.R_*) and ref (its reference cell index,
    e.g. the clue of a single-clue rule; see layout.R_*)."""

    config: GameConfig
    seed: int
    game: int
    moves: pd.DataFrame
    result: dict
    final_state: np.ndarray  # (H, W) int: kernels.env HIDDEN / REVEALED / FLAGGED / DETONATED
    mines: np.ndarray  # (H, W) bool
    clues: np.ndarray  # (H, W) int

    def _upto(self, upto, name="upto") -> int:
        """``upto`` checked: an integer in [0, moves] (None: all the moves)."""
        n = len(self.moves)
        if upto is None:
            return n
        if isinstance(upto, (bool, np.bool_)) or not isinstance(upto, (int, np.integer)) \
                or not 0 <= upto <= n:
            raise ValueError(f"{name}: must be an integer in [0, {n}] (moves played so far; "
                             f"this game has {n} moves), got {upto!r}")
        return int(upto)

    def state(self, upto: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(status, shown) after ``upto`` moves (default: the end), two (H, W) int arrays:
        status as in :mod:`fastsweep.kernels.engine.layout` (0 HIDDEN, 1 REVEALED, 2 FLAGGED,
        3 DETONATED) and the value each revealed cell showed (its clue; -3 no clue shown,
        under noise; -3 too where nothing was revealed).

        >>> t = play("basic", (2, 3), mines=0, seed=1)
        >>> t.state(0)[0].tolist()
        [[0, 0, 0], [0, 0, 0]]
        >>> st, shown = t.state()
        >>> st.tolist(), shown.tolist()
        ([[1, 1, 1], [1, 1, 1]], [[0, 0, 0], [0, 0, 0]])
        """
        m = self._upto(upto)
        h, w = self.config.height, self.config.width
        st = np.full(h * w, kl.HIDDEN, np.int64)
        cells = self.moves["cell_index"].to_numpy()[:m]
        kinds = self.moves["kind"].to_numpy()[:m]
        outs = self.moves["out"].to_numpy()[:m]
        st[cells] = np.where(kinds == kl.A_FLAG, kl.FLAGGED,
                             np.where(outs == -1, kl.DETONATED, kl.REVEALED))
        shown = np.full(h * w, kl.OUT_BLANK, np.int64)  # what the sensor showed
        shown[cells] = outs
        shown[st != kl.REVEALED] = kl.OUT_BLANK
        return st.reshape(h, w), shown.reshape(h, w)

    def view(self, upto: int | None = None) -> np.ndarray:
        """The agent's view after ``upto`` moves, as :func:`fastsweep.mine_probabilities`
        takes it: an int8 (H, W) array, -1 hidden, -2 known mine (flagged or detonated),
        0..8 a revealed clue. Under noise a shown clue is not a hard fact (the agent
        weighs it by the sensor's likelihoods), so a noisy game has no such view: a
        ValueError.

        >>> t = play("basic", (2, 3), mines=0, seed=1)
        >>> t.view(0).tolist(), t.view().tolist()
        ([[-1, -1, -1], [-1, -1, -1]], [[0, 0, 0], [0, 0, 0]])
        """
        if self.config.noise != "none":
            raise ValueError(f"view: the game was played under noise ({self.config.noise}): "
                             "its clues are soft, not a view of hard clues")
        st, shown = self.state(upto)
        v = np.where(st == kl.REVEALED, shown, np.where(st == kl.HIDDEN, -1, -2))
        return v.astype(np.int8)

    def plot(self, k: int | None = None, probabilities: bool = False,
             show_mines: bool | None = None, width: float | None = None):
        """The board after ``k`` moves (default: the end) as a matplotlib Figure: the
        move's cell outlined and its reason in the caption; ``probabilities=True`` shades
        each hidden cell by its exact mine probability from the agent's view
        (:meth:`view`); ``show_mines`` marks the mines still hidden (default: at the end
        only). See :func:`fastsweep.viz.pictures.plot_board`.

        >>> t = play("basic", (4, 5), mines=3, seed=2)
        >>> fig = t.plot(3, probabilities=True)
        >>> fig.axes[0].images[0].get_array().shape
        (4, 5)
        """
        from .viz.pictures import plot_board

        return plot_board(self, k, probabilities=probabilities, show_mines=show_mines,
                          width=width)

    def animate(self, gif=None, mp4=None, every_frame: int = 1, probabilities: bool = False,
                fps: float = 4.0) -> list:
        """Write the game as an animation (``gif=`` a .gif file, ``mp4=`` a .mp4 file: it
        needs ffmpeg): a frame after every ``every_frame`` moves and after the last move.
        Returns the move counts of the frames. See :func:`fastsweep.viz.pictures.animate`."""
        from .viz.pictures import animate

        return animate(self, gif=gif, mp4=mp4, every_frame=every_frame,
                       probabilities=probabilities, fps=fps)

    def board(self, upto: int | None = None, coords: bool = True,
              show_mines: bool | None = None) -> str:
        """The board as text after ``upto`` moves (default: the end), with row numbers on
        the left and column numbers on top (read downwards on boards wider than 10; both
        repeated on the far side of boards larger than 20), as in the moves' (row,col).

        Legend (:data:`LEGEND`): ``?`` hidden, ``0``-``8`` revealed clue, ``F`` flagged,
        ``*`` detonated, ``M`` a mine still hidden (``show_mines``; by default only on the
        board at the end of the game). ``coords=False``: the bare grid.

        >>> t = play("basic", (3, 12), mines=0, seed=1)
        >>> print(t.board(0))
                              1 1
              0 1 2 3 4 5 6 7 8 9 0 1
            0 ? ? ? ? ? ? ? ? ? ? ? ?
            1 ? ? ? ? ? ? ? ? ? ? ? ?
            2 ? ? ? ? ? ? ? ? ? ? ? ?
        """
        h, w = self.config.height, self.config.width
        m = len(self.moves) if upto is None else upto
        st, shown = (a.ravel() for a in self.state(m))
        if show_mines is None:
            show_mines = m >= len(self.moves)
        sym = np.array(["?", "", "F", "*"], dtype=object)[st]
        revealed = st == kl.REVEALED
        sym[revealed] = np.where(shown[revealed] == kl.OUT_BLANK, "-",
                                 shown[revealed].astype(str))
        if show_mines:
            sym[(st == kl.HIDDEN) & self.mines.ravel()] = "M"
        rows = [" ".join(r) for r in sym.reshape(h, w)]
        if not coords:
            return "\n".join(rows)
        rw, cw = len(str(h - 1)), len(str(w - 1))
        cols = [str(c).rjust(cw) for c in range(w)]
        head = [" " * (rw + 1) + " ".join(c[d] for c in cols) for d in range(cw)]
        right = w > 20
        body = [f"{r:>{rw}} {row}" + (f" {r}" if right else "") for r, row in enumerate(rows)]
        return "\n".join(head + body + (head if h > 20 else []))

    def influence(self):
        """Per guess (the opening included): cells decided before the next guess, cells
        whose chains of deductions lead back to it, its longest chain and its reach; see
        :func:`fastsweep.studies.influence.influence` (with an example)."""
        return _influence(self)

    def influence_graph(self):
        """The deduction graph's edges (decided move -> the known cells it needed); see
        :func:`fastsweep.studies.influence.influence_graph` (with an example)."""
        return _influence_graph(self)

    def text(self, every: int = 0) -> str:
        """The play-by-play: one line per move, the board every ``every`` moves (0: only
        at the end, where the mines still hidden are shown), the legend and a summary line."""
        if not isinstance(every, numbers.Integral) or isinstance(every, bool) or every < 0:
            raise ValueError(f"every: must be an integer >= 0 (the board every N moves; 0: "
                             f"only at the end), got {every!r}")
        lines = []
        for i, mv in enumerate(self.moves.itertuples(index=False), start=1):
            lines.append(f"{mv.move:5d}  {mv.action:<6} {mv.cell:<10} {mv.outcome:<10} {mv.reason}")
            if every and i % every == 0 and i < len(self.moves):
                lines += ["", self.board(i), ""]
        lines += ["", self.board(), LEGEND, "", self.summary()]
        return "\n".join(lines)

    def summary(self) -> str:
        r = self.result
        return (f"{self.config.agent} on {self.config.height}x{self.config.width}, "
                f"{counted(r['mines'], 'mine')}, {self.config.rules}: "
                f"{counted(r['moves'], 'move')}, {counted(r['guesses'], 'guess', 'guesses')}, "
                f"{r['flagged']} flagged, {r['detonated']} detonated, "
                f"score {r['score']:.3f}, {'won' if r['won'] else 'lost'}"
                + (f"; noise {self.config.noise}: {counted(r['wrong_flags'], 'wrong flag')}, "
                   f"{counted(r['safe_detonations'], 'safe-believed detonation')}, "
                   f"{counted(r['clues_dropped'], 'clue')} dropped"
                   if self.config.noise != "none" else ""))


def _prior_notes(cfg: GameConfig, cell, outc, why, reasons) -> list:
    """``reasons`` with a note on each probability guess that the prior set some cells'
    probabilities: without the mine total a cell no clue touches is a mine with
    probability ``prior`` (not the density, which the agent does not know)."""
    guesses = np.flatnonzero((why == kl.R_PROB_GUESS) | (why == kl.R_APPROX_GUESS))
    if cfg.mine_count or "prior" not in agent_info(cfg.agent).options or not len(guesses):
        return reasons
    h, w = cfg.height, cfg.width
    never = len(cell) + 1
    resolved_at = np.full(h * w, never)
    resolved_at[cell] = np.arange(len(cell))
    shown_at = np.full((h + 2, w + 2), never)  # the move that revealed each clue
    clue = outc >= 0
    shown_at[1 + cell[clue] // w, 1 + cell[clue] % w] = np.flatnonzero(clue)
    touched_at = np.full((h, w), never)  # the first move that revealed a neighbour
    for dr in (0, 1, 2):
        for dc in (0, 1, 2):
            if dr != 1 or dc != 1:
                np.minimum(touched_at, shown_at[dr:dr + h, dc:dc + w], out=touched_at)
    touched_at = touched_at.ravel()
    reasons = list(reasons)
    for j in guesses:
        free = int(((resolved_at >= j) & (touched_at >= j)).sum())  # hidden, untouched
        if free:
            note = (f"prior {cfg.prior:g} for the {free} cell{'s' * (free != 1)} no clue touches"
                    + (", this one included" if touched_at[cell[j]] >= j else ""))
            reasons[j] = reasons[j][:-1] + f"; {note})"
    return reasons


def _outcome(x, true, noisy):
    """A move's outcome as text; under noise a shown clue that is not the true one says
    so (the agent never sees the true value)."""
    if x == -1:
        return "detonated"
    if x == -2:
        return "flagged"
    if x == kl.OUT_BLANK:
        return "no clue"  # (fits the outcome column)
    return f"clue {x}" + (f" (true {true})" if noisy and x != true else "")


@takes_options([o for o in OPTIONS if o.name != "size"])
def play(agent, size, mines=None, density=None, seed=0, game=0, **options) -> Trace:
    """Play game ``game`` of root ``seed`` with every move recorded.

    Arguments as in :func:`fastsweep.run`. The same (seed, game) gives the same game as
    row ``game`` of ``run(..., games=game + 1, seed=seed)``.

    Example
    -------
    >>> import fastsweep
    >>> t = fastsweep.play("basic", (16, 30), mines=99, seed=3)
    >>> print(t.text(every=100))  # doctest: +SKIP
    """
    cfg = make_config(agent, size, mines=mines, density=density, **options)
    seed = check_seed(seed)
    game = check_game_index(game)
    params, fparams = agent_params(cfg, seed)
    n = cfg.cells
    lay = cfg.layout if cfg.layout is not None else np.zeros(0, np.uint8)
    moves = np.zeros((n, 6), np.int32)
    probs = np.full(n, np.nan)
    final = np.zeros((3, n), np.int32)
    out = np.zeros((1, kg.OUT_LEN), np.int64)
    player = kernels_for(cfg.agent)
    player.play_traced(params, fparams, lay, int(game), moves, probs, final, out)
    own = getattr(player, "reasons", None) or {}  # a user's agent's own reasons, by move
    o = out[0]
    k = int(o[kg.OUT_MOVES])
    mv = moves[:k]
    w = cfg.width
    kind, cell, outc, why, ref, a = (mv[:, j] for j in range(6))
    df = pd.DataFrame({
        "move": np.arange(1, k + 1),
        "action": [ACTIONS[x] for x in kind],
        "cell": [_rc(c, w) for c in cell],
        "row": cell // w,
        "col": cell % w,
        "outcome": [_outcome(x, final[2, c], cfg.noise != "none") for x, c in zip(outc, cell)],
        "reason": _prior_notes(cfg, cell, outc, why, [
            own.get(i) or reason_text(y, r, aa, p, w)
            for i, (y, r, aa, p) in enumerate(zip(why, ref, a, probs[:k]))]),
        "kind": kind,
        "cell_index": cell,
        "out": outc,
        "probability": probs[:k],
        "why": why,  # reason code (layout.R_*)
        "ref": ref,  # the reason's reference cell (see layout.R_*), e.g. the rule's clue
    })
    mines_ = int(o[kg.OUT_MINES])
    result = {
        "mines": mines_, "flagged": int(o[kg.OUT_FLAGGED]), "detonated": int(o[kg.OUT_DETONATED]),
        "revealed": int(o[kg.OUT_REVEALED]), "guesses": int(o[kg.OUT_GUESSES]),
        "moves": k, "won": bool(o[kg.OUT_WON]),
        "score": (o[kg.OUT_FLAGGED] - o[kg.OUT_WRONG_FLAGS]) / mines_ if mines_ else 1.0,
        "approx_steps": int(o[kg.OUT_APPROX]), "wrong_flags": int(o[kg.OUT_WRONG_FLAGS]),
        "safe_detonations": int(o[kg.OUT_SAFE_DETONATIONS]),
        "clues_dropped": int(o[kg.OUT_DROPPED]),
    }
    h = cfg.height
    return Trace(cfg, seed, int(game), df, result, final[0].reshape(h, w),
                 final[1].reshape(h, w).astype(bool), final[2].reshape(h, w))

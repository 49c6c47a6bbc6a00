"""Play-by-play of one game: :func:`play` returns a :class:`Trace` (moves, reasons, boards).

The game is played by the same compiled loop as the batch runner, with recording on, so
the trace is exactly the game ``run`` would have played with the same seed and index.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .agents import kernels_for, reason_text
from .config import GameConfig, check_seed
from .kernels import layout as kl
from .kernels import game as kg
from .options import agent_params, given, make_config

ACTIONS = {kl.A_REVEAL: "reveal", kl.A_FLAG: "flag", kl.A_GUESS: "guess"}


def _rc(cell: int, width: int) -> str:
    r, c = divmod(int(cell), width)
    return f"({r},{c})"


@dataclass
class Trace:
    """One traced game. ``moves`` has one row per move: move, action, cell (row, col),
    row, col, outcome (clue, or 'detonated' / 'flagged'), reason."""

    config: GameConfig
    seed: int
    game: int
    moves: pd.DataFrame
    result: dict
    final_state: np.ndarray  # (H, W) int: kernels.env HIDDEN / REVEALED / FLAGGED / DETONATED
    mines: np.ndarray  # (H, W) bool
    clues: np.ndarray  # (H, W) int

    def board(self, upto: int | None = None) -> str:
        """The board as text after ``upto`` moves (default: the end).

        Legend: ``?`` hidden, ``0``-``8`` revealed clue, ``F`` flagged, ``*`` detonated.
        """
        h, w = self.config.height, self.config.width
        st = np.full(h * w, kl.HIDDEN, np.int64)
        m = len(self.moves) if upto is None else upto
        cells = self.moves["cell_index"].to_numpy()[:m]
        kinds = self.moves["kind"].to_numpy()[:m]
        outs = self.moves["out"].to_numpy()[:m]
        st[cells] = np.where(kinds == kl.A_FLAG, kl.FLAGGED,
                             np.where(outs == -1, kl.DETONATED, kl.REVEALED))
        clue = self.clues.ravel()
        rows = []
        for r in range(h):
            row = []
            for c in range(w):
                s = st[r * w + c]
                row.append("?" if s == kl.HIDDEN else "F" if s == kl.FLAGGED
                           else "*" if s == kl.DETONATED else str(clue[r * w + c]))
            rows.append(" ".join(row))
        return "\n".join(rows)

    def text(self, every: int = 0) -> str:
        """The play-by-play: one line per move, the board every ``every`` moves (0: only
        at the end) and a summary line."""
        lines = []
        for i, mv in enumerate(self.moves.itertuples(index=False), start=1):
            lines.append(f"{mv.move:5d}  {mv.action:<6} {mv.cell:<10} {mv.outcome:<10} {mv.reason}")
            if every and i % every == 0 and i < len(self.moves):
                lines += ["", self.board(i), ""]
        lines += ["", self.board(), "", self.summary()]
        return "\n".join(lines)

    def summary(self) -> str:
        r = self.result
        return (f"{self.config.agent} on {self.config.height}x{self.config.width}, "
                f"{r['mines']} mines, {self.config.rules}: {r['moves']} moves, "
                f"{r['guesses']} guesses, {r['flagged']} flagged, {r['detonated']} detonated, "
                f"score {r['score']:.3f}, {'won' if r['won'] else 'lost'}")


def play(agent, size, mines=None, density=None, seed=0, game=0, rules="keep-going",
         first_click=None, first_cell=None, mine_count=False, layout=None, prior=0.5,
         budget=0) -> Trace:
    """Play game ``game`` of root ``seed`` with every move recorded.

    Arguments as in :func:`fastsweep.run`. The same (seed, game) gives the same game as
    row ``game`` of ``run(..., games=game + 1, seed=seed)``.

    Example
    -------
    >>> import fastsweep
    >>> t = fastsweep.play("basic", (16, 30), mines=99, seed=3)
    >>> print(t.text(every=100))  # doctest: +SKIP
    """
    cfg = make_config(agent, size, **given(locals()))  # every row of options.OPTIONS
    seed = check_seed(seed)
    if not isinstance(game, (int, np.integer)) or isinstance(game, bool) or game < 0:
        raise ValueError(f"game: must be an integer >= 0, got {game!r}")
    params, fparams = agent_params(cfg, seed)
    n = cfg.cells
    lay = cfg.layout if cfg.layout is not None else np.zeros(0, np.uint8)
    moves = np.zeros((n, 6), np.int32)
    probs = np.full(n, np.nan)
    final = np.zeros((3, n), np.int32)
    out = np.zeros((1, kg.OUT_LEN), np.int64)
    kernels_for(cfg.agent).play_traced(params, fparams, lay, int(game), moves, probs, final,
                                       out)
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
        "outcome": ["detonated" if x == -1 else "flagged" if x == -2 else f"clue {x}" for x in outc],
        "reason": [reason_text(y, r, aa, p, w) for y, r, aa, p in zip(why, ref, a, probs[:k])],
        "kind": kind,
        "cell_index": cell,
        "out": outc,
        "probability": probs[:k],
    })
    mines_ = int(o[kg.OUT_MINES])
    result = {
        "mines": mines_, "flagged": int(o[kg.OUT_FLAGGED]), "detonated": int(o[kg.OUT_DETONATED]),
        "revealed": int(o[kg.OUT_REVEALED]), "guesses": int(o[kg.OUT_GUESSES]),
        "moves": k, "won": bool(o[kg.OUT_WON]),
        "score": o[kg.OUT_FLAGGED] / mines_ if mines_ else 1.0,
        "approx_steps": int(o[kg.OUT_APPROX]),
    }
    h = cfg.height
    return Trace(cfg, seed, int(game), df, result, final[0].reshape(h, w),
                 final[1].reshape(h, w).astype(bool), final[2].reshape(h, w))

"""The advisor: what an agent would do in a position of a real game, and why.

:func:`advise` (in ``manual.py``, as it plays the agent's move through a
:class:`~fastsweep.advisor.manual.ManualGame`) takes a position (a view, e.g. from :func:`fastsweep.parse_position`) and
returns an :class:`Advice`: the certain cells and each hidden cell's mine probability
(exact inference, :func:`fastsweep.deduce` and :func:`fastsweep.mine_probabilities`), and
the agent's own next move with its trace text, computed by the agent's compiled code on
knowledge typed in from the position (:class:`fastsweep.advisor.manual.ManualGame`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..agents import counted
from ..inference import deduce, mine_probabilities

FIRST_CLICK_NOTE = {"safe": "the game makes the first click safe",
                    "zero": "the game makes the first click a 0 (its neighbours are safe too)"}

LEGEND = ("legend: 0-8 revealed clue, F known mine; a hidden cell shows its mine probability "
          "in percent (01-99: rounded, never 00 or 100 unless certain), S if certainly safe, "
          "M if certainly a mine; [ ] the recommended move")


def _rc(cell):
    return f"({cell[0]},{cell[1]})"


def _cells(mask, most=12):
    cells = [_rc(c) for c in np.argwhere(mask)]
    return " ".join(cells[:most]) + (f" ... ({len(cells)} in all)" if len(cells) > most else "")


@dataclass(frozen=True)
class Advice:
    """An agent's advice on one position.

    ``safe`` / ``mine``: boolean H x W masks of the hidden cells that are certainly safe /
    certainly mines (complete deduction, whatever the agent); ``probabilities``: each
    cell's exact mine probability (H x W; with the mine total if given, else the prior);
    ``move``: the agent's next cell (row, col), None when no cell is hidden; ``action``:
    "reveal" (its rules or deduction found the cell safe), "guess" or None; ``reason``: the
    agent's own words for the move (as in :func:`fastsweep.play`'s trace); ``probability``:
    the move's mine probability; ``flags``: the cells the agent flags before its move;
    ``note``: the advisor's remark (the first-click rule of an opening; safe cells that
    complete deduction finds and the agent's rules do not), or "".
    """

    view: np.ndarray
    safe: np.ndarray
    mine: np.ndarray
    probabilities: np.ndarray
    move: tuple | None
    action: str | None
    reason: str
    probability: float
    flags: tuple
    note: str
    agent: str
    mines: int | None

    def board(self) -> str:
        """The position with each hidden cell's mine probability (see :data:`LEGEND`), rows
        numbered on the left and columns on top (read downwards), as on ``play``'s boards.
        """
        v, p = self.view, self.probabilities
        h, w = v.shape
        cell = np.empty((h, w), object)
        pct = np.clip(np.rint(100 * p), 1, 99).astype(int)
        for r in range(h):
            for c in range(w):
                x = v[r, c]
                cell[r, c] = (f"{x:>2}" if x >= 0 else " F" if x == -2 else
                              " S" if self.safe[r, c] else " M" if self.mine[r, c] else
                              f"{pct[r, c]:02d}")
        rw, cw = len(str(h - 1)), len(str(w - 1))
        cols = [str(c).rjust(cw) for c in range(w)]
        head = [" " * (rw + 1) + "".join(f"  {col[d]}" for col in cols) for d in range(cw)]
        lines = []
        for r in range(h):
            seps = [" "] * (w + 1)
            if self.move is not None and self.move[0] == r:
                seps[self.move[1]], seps[self.move[1] + 1] = "[", "]"
            row = "".join(s + x for s, x in zip(seps, cell[r])) + seps[w]
            lines.append(f"{r:>{rw}} {row.rstrip()}" + (f" {r}" if w > 20 else ""))
        return "\n".join(head + [ln.rstrip() for ln in lines] + (head if h > 20 else []))

    def text(self) -> str:
        """The advice as ``fastsweep advise`` prints it: certain cells, the move and its
        reason, the board of probabilities and its legend."""
        h, w = self.view.shape
        known = int((self.view == -2).sum())
        total = (f"{self.mines} mines ({known} known)" if self.mines is not None else
                 "mine total not given")
        out = [f"{self.agent} agent, board {h}x{w}, {total}",
               f"certain: {int(self.safe.sum())} safe" + (f": {_cells(self.safe)}"
                                                           if self.safe.any() else "")
               + f"; {counted(int(self.mine.sum()), 'mine')}" + (
                   f": {_cells(self.mine)}" if self.mine.any() else "")]
        if self.flags:
            # the agent flags what its rules found so far: say which certain mines wait
            # (read alone, "flags first: (2,3)" seemed to pass over a certain (0,0))
            later = self.mine.copy()
            for f in self.flags:
                later[f] = False
            out.append(f"the agent flags before its move: {' '.join(map(_rc, self.flags))}"
                       + (f"; it leaves the certain {'mine' if later.sum() == 1 else 'mines'}"
                          f" {_cells(later)} for later" if later.any() else ""))
        if self.move is None:
            out.append(self.reason)
        else:
            out.append(f"move: {self.action} {_rc(self.move)}: {self.reason}")
            if self.action == "guess":
                out.append(f"      mine probability of this cell: {self.probability:.3f}")
        if self.note:
            out.append(f"note: {self.note}")
        out += ["", self.board(), LEGEND]
        return "\n".join(out)


def advice_of(game) -> Advice:
    """The :class:`Advice` of a :class:`~fastsweep.advisor.manual.ManualGame`'s position now."""
    cfg = game.cfg
    view = game.view(pending_flags=False)
    safe, mine = deduce(view, game.mines, budget=cfg.budget)
    prob = mine_probabilities(view, game.mines, prior=cfg.prior, budget=cfg.budget)
    p = game.pending()
    if p is None:
        rows = game.rows[len(game.tape):]
        flags = tuple(divmod(int(c), view.shape[1]) for c in rows[:, 1])
        reason = ("the board is done: every cell is revealed or a known mine" + (
            f" once the agent has flagged the last {counted(len(flags), 'hidden cell')}"
            if flags else ""))
        return Advice(view, safe, mine, prob, None, None, reason, float("nan"), flags, "",
                      game.agent, game.mines)
    cell = p["cell"]
    notes = []
    probability = float(prob[cell])
    if game.opening and not game.tape and cfg.first_click != "any":
        notes.append(FIRST_CLICK_NOTE[cfg.first_click])
        probability = 0.0
    if p["action"] == "guess" and mine[cell]:
        notes.append("complete deduction says this cell is a mine")
    if p["action"] == "guess" and safe.any():
        k = int(safe.sum())
        notes.append(f"complete deduction finds {k} safe cell{'s' * (k != 1)} here, e.g. "
                     f"{_rc(tuple(np.argwhere(safe)[0]))}, which the {game.agent} agent "
                     "does not")
    return Advice(view, safe, mine, prob, cell, p["action"], p["reason"], probability,
                  tuple(p["flags"]), "; ".join(notes), game.agent, game.mines)

"""The advisor: what an agent would do in a position of a real game, and why.

:func:`advise` takes a position (a view, e.g. from :func:`fastsweep.parse_position`) and
returns an :class:`Advice`: the certain cells and each hidden cell's mine probability
(exact inference, :func:`fastsweep.deduce` and :func:`fastsweep.mine_probabilities`), and
the agent's own next move with its trace text, computed by the agent's compiled code on
knowledge typed in from the position (:class:`fastsweep.manual.ManualGame`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .inference import deduce, mine_probabilities
from .manual import FIRST_CLICK_NOTE, ManualGame

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
               + f"; {int(self.mine.sum())} mines" + (f": {_cells(self.mine)}"
                                                       if self.mine.any() else "")]
        if self.flags:
            out.append(f"the agent flags first: {' '.join(map(_rc, self.flags))}")
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


def advice_of(game: ManualGame) -> Advice:
    """The :class:`Advice` of a :class:`~fastsweep.manual.ManualGame`'s position now."""
    cfg = game.cfg
    view = game.view(pending_flags=False)
    safe, mine = deduce(view, game.mines, budget=cfg.budget)
    prob = mine_probabilities(view, game.mines, prior=cfg.prior, budget=cfg.budget)
    p = game.pending()
    if p is None:
        rows = game.rows[len(game.tape):]
        flags = tuple(divmod(int(c), view.shape[1]) for c in rows[:, 1])
        reason = ("the board is done: every cell is revealed or a known mine" + (
            f" once the agent has flagged the last {len(flags)} hidden cells" if flags else ""))
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


def advise(view, mines=None, agent="probability", *, order=None, seed=0, first_click="safe",
           first_cell="corner", prior=0.5, budget=0, threshold=0.125, risk_rules="complete",
           max_component=20) -> Advice:
    """What agent ``agent`` would do next in position ``view``, and why.

    ``view``: -1 hidden, -2 known mine, 0..8 a revealed clue (an int array or a list of
    lists; :func:`fastsweep.parse_position` reads the text form). ``mines``: the game's
    mine total, if known (the agent is then told it). The move is the agent's own
    (every registered agent; for those with complete deduction a certain safe cell
    whenever one exists), and its random guesses and ties follow ``order`` (cell indices;
    default: the guess order of game 0 of root ``seed``). An all-hidden board gets the
    opening move, on ``first_cell``; ``first_click`` is what the game guarantees about it.
    The other options as in :func:`fastsweep.run`. Returns an :class:`Advice`
    (``.text()`` prints it as the command line does).

    Raises ValueError for an unknown agent or option, and for a position no mine layout
    agrees with (naming the row and column of the first clue that contradicts the clues
    before it) or whose clue is impossible among its neighbours.

    Example
    -------
    >>> import fastsweep
    >>> view = fastsweep.parse_position('''
    ... 1 ? ?
    ... 1 ? ?
    ... ? ? ?
    ... ''')
    >>> a = fastsweep.advise(view, mines=2)
    >>> a.move, a.action, a.reason
    ((2, 0), 'reveal', 'safe by deduction from 2 clues, e.g. at (1,0)')
    >>> a.safe.astype(int).tolist()
    [[0, 0, 0], [0, 0, 0], [1, 1, 0]]
    >>> a.probabilities.round(2).tolist()
    [[0.0, 0.5, 0.33], [0.0, 0.5, 0.33], [0.0, 0.0, 0.33]]
    """
    game = ManualGame(view, mines, agent, order=order, seed=seed, first_click=first_click,
                      first_cell=first_cell, prior=prior, budget=budget, threshold=threshold,
                      risk_rules=risk_rules, max_component=max_component)
    return game.advice()

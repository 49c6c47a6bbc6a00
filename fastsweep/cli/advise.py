"""Command line of the advisor: ``fastsweep advise`` (added to :mod:`fastsweep.cli.main` by
:func:`add_parsers`), one position or the interactive manual-input loop.

``fastsweep advise POSITION`` prints the certain cells, the agent's move with its reason
and the board of mine probabilities (``--png``: a heat map). ``--interactive`` plays a
real game through the person at the keyboard: it prints the agent's move, reads what the
game showed (a clue, ``m`` for a mine; ``undo``, ``board``, ``quit``) and goes on until
the board is done. An interactive game may start from an empty board of ``--size HxW``.
"""
from __future__ import annotations

import sys

from ..agents import AGENTS
from ..advisor.manual import MANUAL_OPTIONS
from ..config import MAX_CELLS
from ..options import add_flags

COMMANDS = ("a clue 0-8, m (it was a mine), undo (take the last answer back), board (the "
            "probabilities now), quit")
# what is read from a file or a stream, at most: /dev/zero or an endless pipe would
# otherwise be read until memory runs out. A position of MAX_CELLS cells written with a
# space after each cell is 2 characters a cell; the rest is room for comments.
MAX_POSITION_CHARS = 32_000_000
MAX_ANSWER_CHARS = 1000  # an answer of the interactive game (a clue, m, undo, ...)


def add_parsers(sub):
    """Add ``advise`` to the subcommands ``sub`` of ``fastsweep``."""
    p = sub.add_parser("advise", help="the agent's move in a position of a real game, "
                                      "its reason and the mine probabilities")
    p.add_argument("position", nargs="?", metavar="POSITION",
                   help="a file with one row of cells per line (? or . hidden, F or * known "
                        "mine, 0-8 a clue; spaces allowed), or - for standard input; at "
                        f"most {MAX_POSITION_CHARS:,} characters are read")
    p.add_argument("--size", metavar="SIZE", default=None,
                   help="instead of POSITION: an empty board of this size (d or HxW), e.g. to "
                        "start an --interactive game")
    p.add_argument("--mines", type=int, metavar="M", default=None,
                   help="the game's mine total (the agent is told it; default: not known)")
    p.add_argument("--agent", default="probability",
                   help=f"one of: {', '.join(AGENTS)} (default probability); or your own "
                        "agent by import path: module:attr or path/to/file.py:attr")
    p.add_argument("--first-click", dest="first_click", metavar="RULE", default="safe",
                   help="what the game guarantees about the first click: safe (default), "
                        "zero or any")
    p.add_argument("--first-cell", dest="first_cell", metavar="CELL", default="corner",
                   help="the agent's opening cell on an empty board: corner (default), "
                        "center, random or ROW,COL")
    add_flags(p, only=MANUAL_OPTIONS)  # every agent's options, flags and help from the table
    p.add_argument("--seed", type=int, default=0,
                   help="the agent's random guesses follow the guess order of game 0 of this "
                        "root seed (default 0)")
    p.add_argument("--png", metavar="FILE", default=None,
                   help="also write a heat map of the mine probabilities (.png)")
    p.add_argument("--interactive", action="store_true",
                   help="play a real game: print each move, read what the game showed")
    p.set_defaults(func=cmd_advise)


def read_position(a):
    """The starting view from POSITION or --size (exactly one)."""
    import numpy as np

    from ..config import parse_size
    from ..advisor.position_text import parse_position

    if (a.position is None) == (a.size is None):
        raise ValueError("position: give a POSITION file (- for standard input) or --size HxW "
                         "for an empty board, one of the two")
    if a.size is not None:
        return np.full(parse_size(a.size), -1, np.int8)
    if a.position == "-":
        if a.interactive:
            raise ValueError("position: - (standard input) cannot be used with --interactive, "
                             "which reads the answers there; give a file or --size")
        return parse_position(_read_at_most(sys.stdin, "standard input"))
    try:
        with open(a.position) as f:
            text = _read_at_most(f, repr(a.position))
    except OSError as e:
        raise ValueError(f"position: cannot read {a.position!r}: {e.strerror}") from None
    return parse_position(text)


def _read_at_most(f, what):
    """The text of ``f``, refused (ValueError naming ``position``) past
    :data:`MAX_POSITION_CHARS` characters, which are all that is read."""
    try:
        text = f.read(MAX_POSITION_CHARS + 1)
    except UnicodeDecodeError:
        raise ValueError(f"position: {what} is not text (UTF-8)") from None
    if len(text) > MAX_POSITION_CHARS:
        raise ValueError(f"position: {what} is longer than {MAX_POSITION_CHARS:,} characters, "
                         f"the most a position is read to (a board has at most "
                         f"{MAX_CELLS:,} cells)")
    return text


class _BoundedLines:
    """Standard input whose ``readline`` (what ``input`` calls on a pipe or a file) reads
    at most :data:`MAX_ANSWER_CHARS` characters a line: ``input`` alone would read
    /dev/zero forever."""

    def __init__(self, f):
        self._f = f

    def readline(self, size=-1):
        try:
            line = self._f.readline(MAX_ANSWER_CHARS + 1)
        except UnicodeDecodeError:
            raise ValueError("answer: standard input is not text (UTF-8)") from None
        if len(line) > MAX_ANSWER_CHARS:
            raise ValueError(f"answer: a line of standard input is longer than "
                             f"{MAX_ANSWER_CHARS:,} characters; expected {COMMANDS}")
        return line

    def __getattr__(self, name):
        return getattr(self._f, name)


def cmd_advise(a):
    from ..advisor.manual import ManualGame
    from ..advisor.position_text import check_position

    view = read_position(a)
    if a.png is not None:
        from ..advisor.heatmap import check_png_path

        check_png_path(a.png)
    check_position(view, a.mines, name="position")  # errors name the file's row and column
    game = ManualGame(view, a.mines, a.agent, seed=a.seed, first_click=a.first_click,
                      first_cell=a.first_cell, **{k: getattr(a, k) for k in MANUAL_OPTIONS})
    if a.interactive:
        stdin = sys.stdin
        try:
            if not stdin.isatty():  # (at a terminal a person types: input's line editing)
                sys.stdin = _BoundedLines(stdin)
        except (AttributeError, OSError, ValueError):
            pass
        try:
            return interactive(game, a.png)
        finally:
            sys.stdin = stdin
    advice = game.advice()
    print(advice.text())
    if a.png is not None:
        from ..advisor.heatmap import heat_map

        print(f"wrote {heat_map(advice, a.png)}")
    return 0


def _move_line(k, action, cell, reason):
    return f"move {k:>3}: {action:<6} ({cell[0]},{cell[1]})  {reason}"


def interactive(game, png=None, read=None, write=print):
    """The manual-input loop on ``game`` (a :class:`~fastsweep.advisor.manual.ManualGame`):
    ``read(prompt)`` gives each answer (default ``input``; EOF ends the game), ``write``
    prints. Answers read from a pipe are echoed, so the transcript reads as a dialogue."""
    from ..agents import counted, reason_text
    from ..kernels.engine import layout as kl

    if read is None:
        read = input
        try:
            echo = not sys.stdin.isatty()
        except (AttributeError, OSError, ValueError):
            echo = True
    else:
        echo = True
    write(f"{game.agent} agent on a {game.shape[0]}x{game.shape[1]} board. After each move "
          f"type what the game showed: {COMMANDS}.")
    while True:
        advice = game.advice()
        rows, probs = game.moves()
        w = game.shape[1]
        for j in range(len(game.tape), len(rows) - (advice.move is not None)):
            _, cell, _, why, ref, a_ = (int(x) for x in rows[j])
            write(_move_line(j + 1, "flag", divmod(cell, w),
                             reason_text(why, ref, a_, float(probs[j]), w)))
        if advice.move is None:
            kinds, outs = rows[:, 0], rows[:, 2]
            write(f"\nthe board is done: {counted(len(rows), 'move')}, "
                  f"{counted(int((kinds == kl.A_GUESS).sum()), 'guess', 'guesses')}, "
                  f"{counted(int(((kinds != kl.A_FLAG) & (outs == -1)).sum()), 'mine')} hit\n")
            write(advice.board())
            if png:
                from ..advisor.heatmap import heat_map

                write(f"wrote {heat_map(advice, png)}")
            return 0
        write(_move_line(len(rows), advice.action, advice.move, advice.reason))
        if advice.action == "guess":
            write(f"           mine probability of this cell: {advice.probability:.3f}")
        if advice.note:
            write(f"           note: {advice.note}")
        r, c = advice.move
        while True:
            try:
                got = read(f"what did ({r},{c}) show? ").strip().lower()
            except EOFError:
                write("\nstopped: end of input")
                return 0
            if echo:
                write(got)
            if got in ("q", "quit", "exit"):
                return 0
            if got in ("b", "board"):
                write(advice.text())
                continue
            if got in ("u", "undo"):
                try:
                    game.undo()
                except ValueError as e:
                    write(f"  {e}")
                    continue
                write("  taken back")
                break
            try:
                game.answer("mine" if got in ("m", "mine") else got)
            except ValueError as e:
                write(f"  {e}; type it again (0-8, m, undo, board, quit)")
                continue
            break

"""The manual-input agent: a registered agent playing a real game through a person.

The assignment's "manual input" mode: the agent says which cell to open, the person
types what the real game showed (a clue, or that it was a mine), and the agent goes on.
:class:`ManualGame` runs the registered agent itself, with its own compiled steps (the
rules' loop step ``game.settle`` and its family's move, as in the family's game loop),
on knowledge typed in from a starting position through the knowledge's own
observations (``actions.observe`` / ``actions.flag``). Nothing stands behind the
board: the environment answers from a tape (``layout.SENSOR_TAPE``, as in the blind
replay of ``tests/test_knowledge.py``) that holds the answers typed so far and, for the
moves beyond them, a placeholder (a mine). A move never depends on its own answer, so
the first reveal beyond the answered moves (and the flags before it) is the agent's
next move; whatever the agent did after it, on the placeholder, is discarded.

Each question replays the game from the starting position with the answers so far, so
the agent's work list, guess pointer and a threshold agent's batch are its own, exactly
as in a simulated game: fed the true answers, a game started from the empty board makes
the moves :func:`fastsweep.play` makes (``tests/test_advise.py``).
"""
from __future__ import annotations

import numpy as np

from ..agents import agent_info, is_agent, kernels_for, reason_text
from ..config import check_game_index, check_seed
from ..kernels.engine import actions as ka
from ..kernels.engine import env as ke
from ..kernels.engine import game as kg
from ..kernels.engine import layout as kl
from ..options import BY_NAME, GAME, OPTIONS, kernel_params, make_config, takes_options
from .advice import FIRST_CLICK_NOTE, Advice, advice_of
from .position_text import check_position
from ..user.advisor_steps import user_steps
from ..user.resolve import resolve_agent

PLACEHOLDER = -1  # the tape's answer to a move not answered yet: a mine (see the notes)
# the options a manual game takes besides its own arguments: every agent's options (the
# game's are fixed by the position: its size, mines and what the player saw), and the
# sensor's noise model for the noise-aware agents; their defaults are the option table's
MANUAL_OPTIONS = tuple(o.name for o in OPTIONS if o.name not in GAME or o.name == "noise")


def guess_order(h, w, seed=0, game=0):
    """The guess order (cell indices) of game ``game`` of root ``seed`` on an H x W board:
    the order in which ``fastsweep.play(..., seed=seed, game=game)`` guesses at random.

    >>> guess_order(2, 3, seed=1).tolist()
    [2, 1, 4, 5, 3, 0]
    """
    seed, game = check_seed(seed), check_game_index(game)
    cfg = make_config("basic", (h, w), mines=0)
    params, _ = kernel_params(cfg, seed)
    order = np.zeros(h * w, np.int32)
    kg.draw_game(params, np.zeros(0, np.uint8), game, order, np.zeros(h * w, np.uint8))
    return order.astype(np.int64)


def _check_order(order, n):
    try:
        o = np.asarray(order)
        ok = (o.ndim == 1 and o.size == n and np.issubdtype(o.dtype, np.integer)
              and np.array_equal(np.sort(o), np.arange(n)))
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise ValueError(f"order: expected a permutation of the {n} cell indices 0..{n - 1} "
                         f"(row * width + col), got {order!r:.60}")
    return o.astype(np.int64)


class ManualGame:
    """Agent ``agent`` playing the game whose position is ``view`` (see
    :func:`fastsweep.deduce`; all hidden for a new game), told the mine total ``mines``
    if given. Ask :meth:`advice` (or :meth:`pending`) for its next move, give the real
    game's answer to :meth:`answer`, take it back with :meth:`undo`.

    ``order``: the guess order of its random guesses and tie-breaks (cell indices), by
    default that of game 0 of root ``seed`` (:func:`guess_order`). ``first_cell``: the
    opening cell of an empty board (corner, center, random or (row, col)); ``first_click``:
    what the game guarantees about it (safe, zero or any). ``options``: every agent's
    options and ``noise`` (:data:`MANUAL_OPTIONS`), as in :func:`fastsweep.run`, with the
    option table's defaults; one the agent does not read is refused.

    >>> g = ManualGame([[-1] * 3] * 3, mines=1, agent="probability")
    >>> g.pending()["cell"], g.pending()["reason"]
    ((0, 0), 'opening move, 9 hidden cells')
    >>> g.answer(1)  # the game showed a 1 there
    >>> g.pending()["cell"], g.pending()["reason"]
    ((0, 2), 'safe by deduction from the clues and the mine total (5 cells touch no clue)')
    >>> g.undo(); g.pending()["cell"]
    (0, 0)
    """

    @takes_options([BY_NAME[n] for n in MANUAL_OPTIONS])
    def __init__(self, view, mines=None, agent="probability", *, order=None, seed=0,
                 first_click="safe", first_cell="corner", **options):
        if not is_agent(agent):
            agent = resolve_agent(agent)  # your own agent (an object or an import path)
        for name in options:
            if name not in MANUAL_OPTIONS:
                raise ValueError(f"{name}: not an option of a manual game; it takes the "
                                 f"agents' options ({', '.join(MANUAL_OPTIONS)})")
        seed = check_seed(seed)  # checked even with an order given: a bad argument is named
        self.start = check_position(view, mines)
        h, w = self.shape = self.start.shape
        n = h * w
        self.cfg = make_config(agent, (h, w), mines=0 if mines is None else mines,
                               mine_count=mines is not None, first_click=first_click,
                               first_cell=first_cell, **options)
        self.agent, self.mines = agent, mines
        self.params, self.fparams = kernel_params(self.cfg)
        self.order = (guess_order(h, w, seed) if order is None else _check_order(order, n))
        self.m0 = int((self.start != -1).sum())  # moves "made" before the start
        self.opening = not (self.start >= 0).any()
        self.tape = []  # the outcome of each move since the start (clue, -1 mine, -2 flag)
        self._replay()

    # ------------------------------------------------------------------ the replay

    def _state(self):
        """The agent's knowledge of the starting position, ready to play from the tape."""
        h, w = self.shape
        n = h * w
        S = ke.new_state(h, w)
        flat = self.start.ravel()
        for c in np.flatnonzero(flat == -2):
            ka.flag(S, int(c))
        for c in np.flatnonzero(flat >= 0):
            ka.observe(S, int(c), int(flat[c]))
        S[n, kl.C_KMINES] = -1 if self.mines is None else int(self.mines)
        F = S.reshape(-1)
        base = S[n, kl.C_ORDER]
        F[base:base + n] = F[S[n, kl.C_PLANEOF] + self.order]  # as word indices
        S[n, kl.C_TRACE] = 1
        S[n, kl.C_SENSOR] = kl.SENSOR_TAPE
        end = self.m0 + len(self.tape)
        S[self.m0:end, kl.F_TOUT] = self.tape
        S[end:n, kl.F_TOUT] = PLACEHOLDER
        return S, F, end

    def _replay(self):
        """Play from the start on the tape until the agent makes a reveal that has no
        answer yet, or the board is done; keep its moves (``self.rows``) and the index
        of that reveal (``self.ask``, None when done)."""
        S, F, end = self._state()
        n = self.start.size
        trp = np.full(n, np.nan)
        player = agent_info(self.agent).player  # your own agent's, else None
        if player is None:
            family = kernels_for(self.agent).FAMILY  # the family contract (agents/family.py)
            ws = family.new_workspace(n)
        mine_count = self.mines is not None

        def asked():
            k = ke.moves(S)
            return any(S[j, kl.F_TKIND] != kl.A_FLAG for j in range(end, k))

        if self.opening and ke.hidden_left(S) > 0:
            first = kg._first_cell(S, self.params, np.zeros(0, np.uint8))
            kg.open_game(S, int(first))
        if player is not None:  # your own agent: its moves from its view (user_steps)
            user_steps(player, S, self.shape, self.mines, self.order, asked)
        while player is None and not asked():
            step = kg.settle(S, F, False, mine_count, True)  # keep-going: play goes on
            if step == kg.OVER or asked():
                break
            if step == kg.AGENT:  # the family's move, as in its game loop
                family.step(S, trp, self.params, self.fparams, ws)
        k = int(ke.moves(S))
        rows = S[self.m0:k, [kl.F_TKIND, kl.F_TCELL, kl.F_TOUT, kl.F_TWHY, kl.F_TREF,
                              kl.F_TA]].astype(np.int64)
        probs = trp[self.m0:k]
        ask = next((j for j in range(len(self.tape), len(rows))
                    if rows[j, 0] != kl.A_FLAG), None)
        stop = len(rows) if ask is None else ask + 1
        self.rows, self.probs, self.ask = rows[:stop], probs[:stop], ask

    # ------------------------------------------------------------------ the questions

    def pending(self):
        """The agent's next move: a dict with ``cell`` (row, col), ``action`` ("reveal": a
        cell its rules or deduction found safe; "guess"), ``reason`` (its trace text),
        ``probability`` (of a guess by mine probability, else NaN), ``flags`` (cells it
        flags first), ``why`` (the ``layout.R_*`` reason); None when the board is done."""
        if self.ask is None:
            return None
        w = self.shape[1]
        kind, cell, _, why, ref, a = (int(x) for x in self.rows[self.ask])
        flags = [divmod(int(c), w) for c in self.rows[len(self.tape):self.ask, 1]]
        p = float(self.probs[self.ask])
        reason = reason_text(why, ref, a, p, w)
        if (why in (kl.R_PROB_GUESS, kl.R_APPROX_GUESS) and self.mines is None
                and "prior" in agent_info(self.agent).options):
            reason = self._prior_note(reason, cell)
        return {"cell": divmod(cell, w), "action": "guess" if kind == kl.A_GUESS else "reveal",
                "reason": reason, "probability": p, "flags": flags, "why": why}

    def _prior_note(self, reason, cell):
        """``reason`` with the note ``fastsweep.play`` adds to a probability guess made
        without the mine total: the prior, not the density, set the probability of the
        hidden cells no clue touches (same words as ``trace._prior_notes``)."""
        v = self.view()
        h, w = self.shape
        clue = np.pad(v >= 0, 1)
        touched = np.zeros((h, w), bool)
        for dr in (0, 1, 2):
            for dc in (0, 1, 2):
                if dr != 1 or dc != 1:
                    touched |= clue[dr:dr + h, dc:dc + w]
        free = int(((v == -1) & ~touched).sum())
        if not free:
            return reason
        note = (f"prior {self.cfg.prior:g} for the {free} cell{'s' * (free != 1)} no clue "
                f"touches" + (", this one included" if not touched.flat[cell] else ""))
        return reason[:-1] + f"; {note})"

    def view(self, pending_flags=True):
        """The position now: the start, the answered moves and (``pending_flags``) the
        flags the agent places before its next move."""
        v = self.start.copy().ravel()
        flagged = len(self.rows) if self.ask is None else self.ask
        upto = flagged if pending_flags else len(self.tape)
        for cell, out in self.rows[:upto, 1:3]:
            v[cell] = out if out >= 0 else -2
        return v.reshape(self.shape)

    def done(self) -> bool:
        """Whether every cell is revealed or a known mine (the agent has nothing to ask)."""
        return self.ask is None

    def answer(self, value):
        """What the game showed at the pending cell: a clue 0..8, or ``"mine"`` (or -1) if
        it was a mine. Raises ValueError (nothing changes) for a value that is not one,
        or that no mine layout agrees with (e.g. a typing error), naming the cell."""
        if self.ask is None:
            raise ValueError("answer: the board is done; nothing was asked")
        mine = isinstance(value, str) and value.strip().lower() in ("m", "mine")
        if not mine:
            if isinstance(value, (bool, np.bool_)):
                raise ValueError(f"answer: expected a clue 0..8 or 'mine', got {value!r}")
            try:
                ok = float(value) == int(value) and -1 <= int(value) <= 8
            except (TypeError, ValueError):
                ok = False
            if not ok:
                raise ValueError(f"answer: expected a clue 0..8 or 'mine', got {value!r}")
            mine = int(value) == -1
        out = -1 if mine else int(value)
        r, c = self.pending()["cell"]
        w = self.shape[1]
        if self.rows[self.ask, 3] == kl.R_FIRST and self.cfg.first_click != "any":
            if mine or (self.cfg.first_click == "zero" and out != 0):
                raise ValueError(f"answer: the opening at ({r},{c}) cannot show "
                                 f"{'a mine' if mine else out}: "
                                 f"{FIRST_CLICK_NOTE[self.cfg.first_click]} "
                                 f"(first_click={self.cfg.first_click!r})")
        v = self.view().ravel()
        v[r * w + c] = -2 if mine else out
        try:
            check_position(v.reshape(self.shape), self.mines, name="position")
        except ValueError as e:
            raise ValueError(f"answer: {'a mine' if mine else f'clue {out}'} at ({r},{c}) "
                             f"is impossible here ({e})") from None
        self.tape = [int(x) for x in self.rows[:self.ask, 2]] + [out]
        self._replay()

    def undo(self):
        """Take the last answer back (and the flags that followed it)."""
        answered = [j for j in range(len(self.tape)) if self.rows[j, 0] != kl.A_FLAG]
        if not answered:
            raise ValueError("undo: no answer to take back")
        self.tape = self.tape[:answered[-1]]
        self._replay()

    def moves(self):
        """The moves since the start as int64 rows (kind, cell, outcome, reason, ref, a),
        the pending one last (its outcome a placeholder), and their probabilities."""
        return self.rows.copy(), self.probs.copy()

    def advice(self):
        """The :class:`fastsweep.Advice` of the position now (see :func:`fastsweep.advise`)."""
        return advice_of(self)


@takes_options([BY_NAME[n] for n in MANUAL_OPTIONS])
def advise(view, mines=None, agent="probability", *, order=None, seed=0, first_click="safe",
           first_cell="corner", **options) -> Advice:
    """What agent ``agent`` would do next in position ``view``, and why.

    ``view``: -1 hidden, -2 known mine, 0..8 a revealed clue (an int array or a list of
    lists; :func:`fastsweep.parse_position` reads the text form). ``mines``: the game's
    mine total, if known (the agent is then told it). The move is the agent's own
    (every registered agent; for those with complete deduction a certain safe cell
    whenever one exists), and its random guesses and ties follow ``order`` (cell indices;
    default: the guess order of game 0 of root ``seed``, an integer in [0, 2**64 - 1];
    None is refused: the default is 0). An all-hidden board gets the
    opening move, on ``first_cell``; ``first_click`` is what the game guarantees about it.
    ``options``: the agent's options, as for :class:`ManualGame`. Returns an :class:`Advice`
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
                      first_cell=first_cell, **options)
    return game.advice()

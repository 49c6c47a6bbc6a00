"""Python agents in the engine: the player that runs a user's ``act(obs)`` (or a plain
function) one move at a time, and a batched agent's ``act_batch(obs)`` on many games at
once, with the same entry points as a compiled family (``play_batch``, ``play_traced``,
``play_blind``; see ``kernels/agents/family.py``), so every driver plays them as it plays
the built-in agents.

Per move, Python pays for one kernel call (:func:`kernels.agents.user.user_move`: check,
answer, view update) and an :class:`Observation`: O(cells changed), nothing of the size
of the board. The agent's ``obs.view`` is the game's own view seen through a read-only
buffer (it cannot be made writeable, and it shows each move's answer as it lands: an
agent keeps a position with ``obs.view.copy()``). The game's set-up, opening and scoring
are the built-in agents' kernels, so game i is the same board and luck for every agent.
"""
from __future__ import annotations

import time

import numpy as np
from numba import typeof

from ..kernels.agents import user as ku
from ..kernels.agents.family import MODE_BATCH, MODE_BLIND, MODE_TRACED
from ..kernels.engine import game as kg
from .moves import ERRORS, Flag, Guess, Safe, describe, encode

_RECORDS = (Guess, Safe, Flag)
from .observation import FIRST_CLICK, RULES, GameInfo, Observation, _Game


class AgentError(RuntimeError):
    """A user's agent raised, or made a move the game refuses; the message names the
    agent, the game and the move number (the agent's own exception is the cause)."""


# what an agent's code can raise that fails the agent, not the run: SystemExit too (an
# agent calling sys.exit or exit() would otherwise end a sweep silently with its status,
# and a stray GeneratorExit would pass unnamed);
# KeyboardInterrupt stays the user's way to stop
AGENT_FAILURES = (Exception, SystemExit, GeneratorExit)


def _where(name, game, made):
    """Where an agent failed: ``made`` moves were made (the opening included), so the
    move at fault is number made + 1, as in its trace (``fastsweep.play``)."""
    return f"agent {name!r}, game {game}, move {made + 1}"


class _Board:
    """The buffers of one game in play: the state (holding the truth: never given to the
    agent), the view, the info row and the guess order."""

    def __init__(self, params, traced):
        self.S, self.scratch = kg.new_batch_state(params, traced)
        self.h, self.w = int(params[kg.P_H]), int(params[kg.P_W])
        n = self.h * self.w
        self.view = np.empty(n, np.int8)
        # what the agent is given: the same memory through a read-only buffer, so no
        # copy a move, and no way for the agent to write it (numpy refuses to make an
        # array over a read-only buffer writeable)
        self.shown = np.frombuffer(memoryview(self.view).toreadonly(), np.int8).reshape(
            self.h, self.w)
        self.info = np.zeros(ku.I_LEN, np.int64)
        self.order = np.empty(n, np.int64)

    def start(self, params, layout, game, tape=None):
        first = kg.setup_game(self.S, params, layout, game, self.scratch)
        if tape is not None:
            kg.blindfold(self.S, tape)
        return ku.open_user_game(self.S, params, first, game, self.view, self.info, self.order)

    def game_info(self, params, seed):
        i = self.info
        return GameInfo(int(i[ku.I_GAME]), seed, self.h, self.w,
                        None if i[ku.I_MINES] < 0 else int(i[ku.I_MINES]),
                        RULES[int(i[ku.I_RULES])], FIRST_CLICK[int(i[ku.I_FIRST_CLICK])])


def _entry(kernel, args):
    """``kernel``'s compiled entry point for arguments like ``args``: called a move, it
    skips the dispatcher's typing of every argument (about a microsecond a call)."""
    sig = tuple(typeof(a) for a in args)
    if sig not in kernel.overloads:
        kernel.compile(sig)  # (or loads it from the disk cache)
    return kernel.overloads[sig].entry_point


def _seed(params) -> int:
    return int(np.array([params[kg.P_SEED]], np.int64).view(np.uint64)[0])


class PythonPlayer:
    """Plays a Python agent ``act(obs) -> move`` (with ``reset(info)`` if it has one)."""

    def __init__(self, name, act, reset=None):
        self.name = name
        self.act = act
        self.reset = reset
        self.reasons = {}
        # fastsweep.profile's split of a move's time (None: not profiling): seconds in the
        # agent's code, making its observation and the engine's move (``profile/split.py``)
        self.split = None

    def _game(self, board, params, layout, game, seed, classic, tape=None, user_move=None):
        """Play one game on ``board``; return its moves (the view's log)."""
        st = board.start(params, layout, game, tape)
        info = board.game_info(params, seed)
        g = _Game(info, board.order)
        first = int(board.info[ku.I_LAST])
        g.log.append((first, int(board.view[first])))
        if self.reset is not None:
            try:
                self.reset(info)
            except AGENT_FAILURES as e:
                raise AgentError(f"agent {self.name!r}, game {game} (reset): raised "
                                 f"{type(e).__name__}: {e}") from e
        view, S, binfo, h, w = board.shown, board.S, board.info, board.h, board.w
        act, log, mines = self.act, g.log, info.mines
        user_move = user_move or ku.user_move
        make_obs = Observation
        if self.split is not None:  # the same loop, each part through a clock
            act, make_obs, user_move = self.split.wrap(act, make_obs, user_move)
        # (the info row's move count and last cell, kept here: each accepted move adds one
        # and is the last; reading them back from the array cost two numpy scalars a move)
        move = int(binfo[ku.I_MOVE])
        last = divmod(first, w)
        while st == ku.STEP_GOING:
            try:
                mv = act(make_obs(view, mines, move, last, g))
            except AGENT_FAILURES as e:
                raise AgentError(f"{_where(self.name, game, move)}: raised "
                                 f"{type(e).__name__}: {e}") from e
            try:
                code = encode(mv, h, w)
            except ValueError as e:
                raise ValueError(f"{_where(self.name, game, move)}: {e}") from None
            except AGENT_FAILURES as e:  # a move object whose own methods raise
                raise ValueError(f"{_where(self.name, game, move)}: returned a "
                                 f"{type(mv).__name__} that cannot be read as a move: "
                                 f"{type(e).__name__}: {e}") from e
            st = user_move(S, board.view, binfo, code, classic)
            if st < 0:
                raise ValueError(f"{_where(self.name, game, move)}: returned "
                                 f"{describe(code, w)}, which is refused: {ERRORS[st]}")
            cell = code % ku.MOVE_UNIT
            log.append((cell, int(board.view[cell])))
            if type(mv) in _RECORDS and mv.why:
                self.reasons[move] = mv.why  # (move index in the trace: moves made before it)
            move += 1
            last = divmod(cell, w)
        if self.split is not None:
            self.split.game_over(g)

    def _play(self, mode, params, layout, first_game, out, secs, boards, moves, final):
        self.reasons = {}  # the agent's own reasons of the last game's moves, if it gave any
        board = _Board(params, mode != MODE_BATCH)
        seed = _seed(params)
        classic = bool(params[kg.P_RULES] == kg.RULES_CLASSIC)
        step = _entry(ku.user_move, (board.S, board.view, board.info, 0, classic))
        made = 0
        for i in range(out.shape[0] if mode == MODE_BATCH else 1):
            t0 = time.perf_counter()
            self._game(board, params, layout, first_game + i, seed, classic,
                       moves if mode == MODE_BLIND else None, step)
            if mode == MODE_BATCH:
                kg.record(board.S, out, secs, boards, i, t0)
            else:
                if mode == MODE_TRACED:
                    kg.summarize(board.S, out, 0)
                made = kg.read_trace(board.S, moves, final)
        return made

    # the family entry points (kernels/agents/family.py)
    def play_batch(self, params, fparams, layout, first_game, out, secs, boards):
        self._play(MODE_BATCH, params, layout, first_game, out, secs, boards,
                   np.zeros((0, 6), np.int32), np.zeros((0, 0), np.int32))

    def play_traced(self, params, fparams, layout, game, moves, probs, final, out):
        self._play(MODE_TRACED, params, layout, game, out, np.zeros(0), np.zeros((2, 0, 0), np.int8),
                   moves, final)

    def play_blind(self, params, fparams, layout, game, moves):
        return self._play(MODE_BLIND, params, layout, game, np.zeros((1, kg.OUT_LEN), np.int64),
                          np.zeros(0), np.zeros((2, 0, 0), np.int8), moves,
                          np.zeros((0, 0), np.int32))

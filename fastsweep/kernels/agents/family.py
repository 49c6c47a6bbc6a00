"""The family contract, written once: a family provides its move, this module plays it.

A family (a group of agents compiled together, named in ``fastsweep.agents.FAMILIES``)
is a kernel module that declares ``FAMILY = Family("<name>", move, guess, new_workspace,
"<time>")`` and ``play_batch, play_traced, play_blind = FAMILY.entry_points()``, with

- ``move(S, trp, params, fparams, ws, guess)``: the agent's move once the single-clue
  rules are exhausted and the game is not over (act at least once: deduce, flag or
  guess). ``trp`` (float64, N or empty) receives the mine probability of a traced guess
  that has one; ``ws`` is the family's workspace; ``guess`` is the family's guess, which
  the move calls when it guesses by mine probability (families of the exact engine share
  one move, ``policies.next_move``, and differ by their guess);
- ``guess(S, trp, params, fparams, pcell, approx, logw)``: that guess (``pcell``: each
  hidden cell's mine probability, partly approximated if ``approx`` > 0; ``logw``: the
  analysis's log total weight); :func:`no_guess` for a family whose move never calls it;
- ``new_workspace(n)``: the workspace for an N-cell board, made once per batch and kept
  across moves and games (:func:`no_workspace` for families that keep none).

The game loop, :func:`_play`, is compiled once for every family: it receives the move,
the guess and the workspace maker as first-class functions (Numba's ``FunctionType``:
called through their addresses, not inlined), so it is compiled and cached once per
workspace type (two: an array for every family but ``reports``, whose workspace is a
typed list). Each move and guess is compiled and cached on its own, once, by its own
module's key: an edit to ``pseq`` recompiles the solver's guess, not the loop nor the
exact engine's move. (Before, each family compiled its own copy of the loop with its
move inlined, and each copy optimised the whole engine and inference again.)
"""
from __future__ import annotations

from numba import typeof, types

import numpy as np

from ..engine.env import flat, ncells
from ..engine.game import (
    OUT_LEN, P_MINE_COUNT, P_RULES, RULES_CLASSIC, blindfold, clock, detonated, game_over,
    local_rules, new_batch_state, open_game, read_trace, record, setup_game, summarize,
)
from ..engine.layout import C_QLEN
from ..engine.local import apply_mine_count, drain_local
from ..jit import compile_notice, njit

MODE_BATCH = 0  # games first_game .. first_game + len(out) - 1, results per game
MODE_TRACED = 1  # one game, every move recorded with its final board
MODE_BLIND = 2  # one game replayed on a zeroed truth plane (game.blindfold)

# the types of the first-class functions (the state S is int32 (rows, K); the arrays C)
_S = types.int32[:, ::1]
_F64 = types.float64[::1]
_I64 = types.int64[::1]
GUESS_TYPE = types.FunctionType(types.none(_S, _F64, _I64, _F64, _F64, types.int64,
                                           types.float64))


def move_type(ws_type):
    """The first-class type of a move whose workspace has Numba type ``ws_type``."""
    return types.FunctionType(types.none(_S, _F64, _I64, _F64, ws_type, GUESS_TYPE))


def workspace_maker_type(ws_type):
    return types.FunctionType(ws_type(types.int64))


@njit(cache=True)
def _play(mode, params, fparams, layout, first_game, out, secs, boards, moves, probs, final,
          move, guess, new_workspace):
    """Play ``out.shape[0]`` games from ``first_game`` (MODE_BATCH: row i of ``out`` is
    game first_game + i; ``secs``: each game's seconds, or empty; ``boards``: int8 (2,
    games, N) final statuses and mines, or (2, 0, 0)), or one traced / blind game (see
    the MODE_* constants; ``moves`` int32 (N, 6), ``probs`` the probability of each
    traced guess, ``final`` int32 (3, N) or (0, 0)) with the family's ``move``, ``guess``
    and ``new_workspace``. Returns the moves read back (traced and blind modes), else 0."""
    S, scratch = new_batch_state(params, mode != MODE_BATCH)
    ws = new_workspace(scratch.shape[0] // 2)
    classic = params[P_RULES] == RULES_CLASSIC
    mine_count = params[P_MINE_COUNT] != 0
    local = local_rules(params)
    n = ncells(S)
    F = flat(S)  # the hot kernels index it (see env._ix)
    made = 0
    for i in range(out.shape[0] if mode == MODE_BATCH else 1):
        t0 = clock(secs.shape[0] > 0)
        first = setup_game(S, params, layout, first_game + i, scratch)
        if mode == MODE_BLIND:
            blindfold(S, moves)
        open_game(S, first)
        # the rules' loop step (game.settle) spelled out: a call of settle costs four
        # reference-count calls per move, which Numba cannot prune around its inner calls
        while True:
            if classic and detonated(S):
                break
            if local:
                drain_local(F, classic)
            else:
                S[n, C_QLEN] = 0  # clues read as noisy: the single-clue rules are unsound
            if game_over(S, classic):
                break
            if mine_count and apply_mine_count(S, classic) > 0:  # (the agent's rule)
                continue
            move(S, probs, params, fparams, ws, guess)
        if mode == MODE_BATCH:
            record(S, out, secs, boards, i, t0)
        else:
            if mode == MODE_TRACED:
                summarize(S, out, 0)
            made = read_trace(S, moves, final)
    return made


@njit(cache=True)
def _step(S, trp, params, fparams, ws, move, guess):
    """One move of a family from Python (the advisor): ``move`` with ``guess``."""
    move(S, trp, params, fparams, ws, guess)


_NO_SECS = np.zeros(0, np.float64)
_NO_BOARDS = np.zeros((2, 0, 0), np.int8)
_NO_MOVES = np.zeros((0, 6), np.int32)
_NO_FINAL = np.zeros((0, 0), np.int32)


def _arg_key(a):
    """What Numba's type of argument ``a`` depends on, cheaply (``typeof`` costs ~5 us)."""
    if isinstance(a, np.ndarray):
        f = a.flags
        return a.dtype.str, a.ndim, f.c_contiguous, f.f_contiguous, f.writeable, f.aligned
    return type(a)


_ENTRY = {}  # (kernel, argument keys, function types) -> the compile's entry point


def _call_compiled(kernel, args, fn_types):
    """Call ``kernel`` on ``args`` (first-class functions last, typed ``fn_types``) by
    its compile for those types: Numba would type a dispatcher passed from Python as its
    own type and compile the kernel again for every function passed."""
    data = args[:len(args) - len(fn_types)]
    key = (kernel, tuple(_arg_key(a) for a in data), fn_types)
    entry = _ENTRY.get(key)
    if entry is None:
        sig = tuple(typeof(a) for a in data) + tuple(fn_types)
        if sig not in kernel.overloads:
            kernel.compile(sig)  # (or loads it from the disk cache)
        entry = _ENTRY[key] = kernel.overloads[sig].entry_point
    return entry(*args)


class Family:
    """A family: its name, move, guess and workspace maker (njit kernels, see the module
    docstring), and roughly how long its cold compile takes (the user is told)."""

    def __init__(self, name, move, guess, new_workspace, compile_time):
        self.name, self.move, self.guess = name, move, guess
        self.new_workspace, self.compile_time = new_workspace, compile_time
        self._types = None

    def kernels(self):
        """The compiled functions a game of this family runs: the loop, its move, guess
        and workspace maker."""
        return (_play, self.move, self.guess, self.new_workspace)

    def modules(self):
        """The kernel modules whose compiled code a game of this family runs (each keyed
        on its own import closure, ``cache_keys``): the loop's, the move's, the guess's
        and the workspace maker's."""
        from ..cache_keys import module_of
        return tuple(sorted({module_of(k.py_func.__module__) for k in self.kernels()}))

    def fn_types(self):
        """(move, guess, workspace maker) as first-class function types."""
        if self._types is None:
            ws_type = typeof(self.new_workspace(1))
            self._types = (move_type(ws_type), GUESS_TYPE, workspace_maker_type(ws_type))
        return self._types

    def play(self, *args):
        """:func:`_play` with this family's move (``args``: its arguments up to ``final``)."""
        with compile_notice(self.kernels(), f"the {self.name} family's kernels",
                            self.compile_time):
            return _call_compiled(_play, (*args, self.move, self.guess, self.new_workspace),
                                  self.fn_types())

    def step(self, S, trp, params, fparams, ws):
        """One move (as the game loop makes it) on state ``S`` with workspace ``ws``."""
        _call_compiled(_step, (S, trp, params, fparams, ws, self.move, self.guess),
                       self.fn_types()[:2])

    def entry_points(self):
        """``play_batch``, ``play_traced``, ``play_blind`` with the arguments the drivers
        pass (each one call of :meth:`play`; the arrays they do not use are empty)."""
        play = self.play

        def play_batch(params, fparams, layout, first_game, out, secs, boards):
            """Play games first_game .. first_game + len(out) - 1 into ``out``."""
            play(MODE_BATCH, params, fparams, layout, first_game, out, secs, boards,
                 _NO_MOVES, _NO_SECS, _NO_FINAL)

        def play_traced(params, fparams, layout, game, moves, probs, final, out):
            """Play game ``game`` recording every move into ``moves`` (int32 (N, 6)), the
            final state, mines and true clues into ``final`` (int32 (3, N)) and each
            guess's mine probability into ``probs``."""
            play(MODE_TRACED, params, fparams, layout, game, out, _NO_SECS, _NO_BOARDS,
                 moves, probs, final)

        def play_blind(params, fparams, layout, game, moves):
            """Replay game ``game`` on a zeroed truth plane, answering from
            ``moves[:, 2]`` (see ``game.blindfold``); overwrite ``moves`` with the moves
            made; return their number."""
            return play(MODE_BLIND, params, fparams, layout, game,
                        np.zeros((1, OUT_LEN), np.int64), _NO_SECS, _NO_BOARDS, moves,
                        _NO_SECS, _NO_FINAL)

        return play_batch, play_traced, play_blind


@njit(cache=True)
def no_workspace(n):
    """The workspace of a family that keeps none."""
    return np.zeros((0, 0), np.float64)


@njit(cache=True)
def no_guess(S, trp, params, fparams, pcell, approx, logw):
    """The guess of a family whose move never guesses by mine probability."""
    raise AssertionError("this family's move has no guess by mine probability")

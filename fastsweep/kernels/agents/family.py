"""The family contract, written once: a family provides its move, this module makes its
game loop and entry point.

A family (a group of agents compiled together, named in ``fastsweep.agents.FAMILIES``)
is a kernel module that defines

- ``agent_move(S, trp, params, fparams, ws)``: the agent's move once the single-clue
  rules are exhausted and the game is not over (act at least once: deduce, flag or
  guess). ``trp`` (float64, N or empty) receives the mine probability of a traced guess
  that has one; ``ws`` is the family's workspace;
- ``new_workspace(n)``: that workspace for an N-cell board, made once per batch and kept
  across moves and games (families without one return an empty array);

and ends with ``FAMILY = make_family("<name>", agent_move, new_workspace, "<time>")`` and
``play_batch, play_traced, play_blind = FAMILY.entry_points()``.

``make_family`` compiles one kernel per family, :func:`_play`, specialised to the
family's move (its globals ``agent_move`` and ``new_workspace`` replaced, see
``jit.specialise``). One entry point with a mode argument instead of three (batch, traced,
blind) because each compiled entry point carries its own copy of everything it calls:
three entry points compiled the family's whole inference engine three times.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..engine.env import flat, ncells
from ..engine.game import (
    OUT_LEN, P_MINE_COUNT, P_RULES, RULES_CLASSIC, blindfold, clock, detonated, game_over,
    local_rules, new_batch_state, open_game, read_trace, record, setup_game, summarize,
)
from ..engine.layout import C_QLEN
from ..engine.local import apply_mine_count, drain_local
from ..jit import compile_notice, njit, specialise

MODE_BATCH = 0  # games first_game .. first_game + len(out) - 1, results per game
MODE_TRACED = 1  # one game, every move recorded with its final board
MODE_BLIND = 2  # one game replayed on a zeroed truth plane (game.blindfold)


def agent_move(S, trp, params, fparams, ws):  # replaced by each family's (make_family)
    raise NotImplementedError


def new_workspace(n):  # replaced by each family's (make_family)
    raise NotImplementedError


def _play(mode, params, fparams, layout, first_game, out, secs, boards, moves, probs, final):
    """Play ``out.shape[0]`` games from ``first_game`` (MODE_BATCH: row i of ``out`` is
    game first_game + i; ``secs``: each game's seconds, or empty; ``boards``: int8 (2,
    games, N) final statuses and mines, or (2, 0, 0)), or one traced / blind game (see
    the MODE_* constants; ``moves`` int32 (N, 6), ``probs`` the probability of each
    traced guess, ``final`` int32 (3, N) or (0, 0)). Returns the moves read back (traced
    and blind modes), else 0."""
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
            agent_move(S, probs, params, fparams, ws)
        if mode == MODE_BATCH:
            record(S, out, secs, boards, i, t0)
        else:
            if mode == MODE_TRACED:
                summarize(S, out, 0)
            made = read_trace(S, moves, final)
    return made


_NO_SECS = np.zeros(0, np.float64)
_NO_BOARDS = np.zeros((2, 0, 0), np.int8)
_NO_MOVES = np.zeros((0, 6), np.int32)
_NO_FINAL = np.zeros((0, 0), np.int32)


class Family(NamedTuple):
    """A compiled family: its name, move, workspace maker and the one entry kernel."""

    name: str
    agent_move: object
    new_workspace: object
    play: object
    compile_time: str  # roughly how long a cold compile takes (the user is told)

    def _call(self, *args):
        with compile_notice(self.play, f"the {self.name} family's kernels", self.compile_time):
            return self.play(*args)

    def entry_points(self):
        """``play_batch``, ``play_traced``, ``play_blind`` with the arguments the drivers
        pass (each one call of :attr:`play`; the arrays they do not use are empty)."""
        play = self._call

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


def make_family(name, move, workspace, compile_time) -> Family:
    """The family ``name`` whose agents move by ``move`` (an njit kernel with
    :func:`agent_move`'s signature) and keep the workspace ``workspace(n)`` makes;
    ``compile_time``: roughly how long its cold compile takes (told to the user)."""
    play = njit(cache=True)(specialise(_play, name, agent_move=move, new_workspace=workspace))
    return Family(name, move, workspace, play, compile_time)


@njit(cache=True)
def no_workspace(n):
    """The workspace of a family that keeps none."""
    return np.zeros(0, np.int32)

"""Batched agents: ``act_batch(obs) -> moves`` acts on many games at once (arrays in,
arrays out), so a vectorised numpy agent pays Python's cost once per step of the batch.

:class:`BatchObservation` (one step of the batch): ``view`` int8 (B, H, W) read-only;
``active`` bool (B): the slot is in play (an inactive slot's move is ignored); ``new``
bool (B): the slot's game started since the last call; ``game``, ``move``, ``last`` int64
(B) (last: flat cell index of the slot's last move); ``order`` int64 (B, N) each game's
guess order; ``mines`` the mine total if told, else None; ``rules``, ``first_click``.
The agent returns int64 (B,) move codes (``fastsweep.reveal`` / ``safe`` / ``flag`` of
flat cell indices). A slot whose game ends starts the next game at once. The arrays are
read-only views of the live batch, valid until ``act_batch`` returns (copy what you keep).
"""
from __future__ import annotations

import time

import numpy as np

from ..kernels.agents import user as ku
from ..kernels.engine import game as kg
from .moves import ERRORS, Flag, Guess, Safe, describe
from .observation import FIRST_CLICK, RULES, GameInfo
from .python_player import AGENT_FAILURES, AgentError, PythonPlayer, _seed, _where

BATCH = 256  # slots (games in play at once) by default


class BatchObservation:
    """One step of a batch of games (see the module's doc)."""

    __slots__ = ("view", "active", "new", "game", "move", "last", "order", "mines", "rules",
                 "first_click")

    def __init__(self, **kw):
        for k, v in kw.items():
            setattr(self, k, v)

    def __repr__(self):
        b, h, w = self.view.shape
        return f"BatchObservation({b} slots, {int(self.active.sum())} in play, {h}x{w})"


def _readonly(a):
    """A read-only view of the player's live array (no copy: the batch's cost per step
    stays O(B); the agent must not keep it past its return)."""
    a = a.view()
    a.flags.writeable = False
    return a


class BatchPlayer:
    """Plays a batched agent: ``slots`` games at a time (one state each)."""

    def __init__(self, name, act_batch, reset=None, slots: int = BATCH):
        self.name = name
        self.act_batch = act_batch
        self.reset = reset
        self.slots = slots
        self.split = None  # fastsweep.profile's clocks (``profile/split.py``), or None

    def play_batch(self, params, fparams, layout, first_game, out, secs, boards):
        games = out.shape[0]
        t0 = time.perf_counter()
        B = max(1, min(self.slots, games))
        S0, scratch = kg.new_batch_state(params, False)
        SS = np.repeat(S0[None], B, axis=0)
        h, w = int(params[kg.P_H]), int(params[kg.P_W])
        n = h * w
        views = np.full((B, n), ku.VIEW_HIDDEN, np.int8)
        infos = np.zeros((B, ku.I_LEN), np.int64)
        orders = np.zeros((B, n), np.int64)
        status = np.full(B, ku.SLOT_IDLE, np.int64)
        end = first_game + games
        nxt = ku.batch_fill(SS, params, layout, scratch, views, infos, orders, out, boards,
                            first_game, first_game, end, status)
        mines = None if params[kg.P_MINE_COUNT] == 0 else int(params[kg.P_MINES])
        rules = RULES[int(params[kg.P_RULES])]
        first_click = FIRST_CLICK[int(params[kg.P_FIRST_CLICK])]
        if self.reset is not None:
            self._reset(params, h, w, mines, rules, first_click)
        step = 0
        act_batch, batch_step, make_obs = self.act_batch, ku.batch_step, BatchObservation
        if self.split is not None:  # the same loop, each part through a clock
            act_batch, make_obs, batch_step = self.split.wrap(act_batch, make_obs, batch_step)
        while (status == ku.STEP_GOING).any():
            active = status == ku.STEP_GOING
            obs = make_obs(
                view=_readonly(views.reshape(B, h, w)), active=active,
                # (copies: the engine reads its info rows; an agent can make a view writeable)
                new=active & (infos[:, ku.I_MOVE] == 1), game=_readonly(infos[:, ku.I_GAME].copy()),
                move=_readonly(infos[:, ku.I_MOVE].copy()),
                last=_readonly(infos[:, ku.I_LAST].copy()),
                order=_readonly(orders), mines=mines, rules=rules, first_click=first_click)
            try:
                moves = act_batch(obs)
            except AGENT_FAILURES as e:
                games_on = infos[active, ku.I_GAME]
                raise AgentError(f"agent {self.name!r}, batch step {step} (games "
                                 f"{games_on.min()}..{games_on.max()} in play): raised "
                                 f"{type(e).__name__}: {e}") from e
            moves = self._check(moves, B, infos, active)
            nxt = batch_step(SS, params, layout, scratch, views, infos, orders, moves,
                             out, boards, first_game, nxt, end, status)
            bad = np.flatnonzero(status < 0)
            if bad.size:
                b = bad[0]
                raise ValueError(f"{_where(self.name, int(infos[b, ku.I_GAME]), int(infos[b, ku.I_MOVE]))}"
                                 f" (slot {b}): returned {describe(int(moves[b]), w)}, which "
                                 f"is refused: {ERRORS[int(status[b])]}")
            step += 1
        if secs.shape[0]:  # (the games share the batch's time: each gets its share)
            secs[:] = (time.perf_counter() - t0) / games

    def _reset(self, params, h, w, mines, rules, first_click):
        try:
            self.reset(GameInfo(-1, _seed(params), h, w, mines, rules, first_click))
        except AGENT_FAILURES as e:
            raise AgentError(f"agent {self.name!r} (reset): raised {type(e).__name__}: "
                             f"{e}") from e

    def _check(self, moves, B, infos, active):
        where = f"agent {self.name!r}: act_batch"
        try:
            arr = np.asarray(moves)
        except Exception:
            arr = None
        if arr is None or arr.shape != (B,):
            raise ValueError(f"{where} returned {type(moves).__name__} of shape "
                             f"{getattr(arr, 'shape', None)}; expected int64 move codes of "
                             f"shape ({B},) (fastsweep.reveal / safe / flag of cells)")
        if not np.issubdtype(arr.dtype, np.integer):
            raise ValueError(f"{where} returned moves of dtype {arr.dtype}; expected integer "
                             "move codes (fastsweep.reveal / safe / flag of flat cell indices)")
        return np.ascontiguousarray(arr, np.int64)

    # one game (traces, the blindfold check): a batch of one slot through PythonPlayer
    def _single(self):
        def act(obs):
            b = BatchObservation(
                view=obs.view[None], active=np.ones(1, bool), new=np.array([obs.move == 1]),
                game=np.array([obs.game]), move=np.array([obs.move]),
                last=np.array([obs.last[0] * obs.view.shape[1] + obs.last[1]]),
                order=obs.order[None], mines=obs.mines, rules=obs.rules,
                first_click=obs.first_click)
            code = int(self._check(self.act_batch(b), 1, None, None)[0])
            kind, cell = divmod(code, ku.MOVE_UNIT)
            w = obs.view.shape[1]
            return {ku.MOVE_GUESS: Guess, ku.MOVE_SAFE: Safe, ku.MOVE_FLAG: Flag}.get(
                kind, lambda r, c: code)(cell // w, cell % w)
        return PythonPlayer(self.name, act, None)

    def play_traced(self, *args):
        self._single().play_traced(*args)

    def play_blind(self, *args):
        return self._single().play_blind(*args)

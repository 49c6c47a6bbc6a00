"""Your own agent in the advisor (``advisor/manual.py``): its moves on a real game's
position, from the knowledge typed in (no board behind it), until it asks for a reveal
the person has not answered yet.
"""
from __future__ import annotations

import numpy as np

from ..kernels.agents import user as ku
from ..kernels.engine import env as ke
from ..kernels.engine import layout as kl
from .batch_player import BatchPlayer
from .moves import ERRORS, describe, encode
from .numba_player import NumbaPlayer
from .observation import GameInfo, Observation, _Game

_CODE = {kl.HIDDEN: ku.VIEW_HIDDEN, kl.FLAGGED: ku.VIEW_FLAG, kl.DETONATED: ku.VIEW_DETONATED}


def _view(S, n):
    """The agent's view of state ``S`` (statuses and the clues shown)."""
    v = np.empty(n, np.int8)
    for c in range(n):
        st = int(ke.status(S, c))
        v[c] = _CODE[st] if st in _CODE else int(ke.clue(S, c))
    return v


def _stepper(player, shape, mines, order, view):
    """(a function (view (H, W), info) -> move code playing ``player``'s agent, its
    game's move log or None)."""
    h, w = shape
    if isinstance(player, BatchPlayer):
        player = player._single()
    if isinstance(player, NumbaPlayer):
        memory, _ = player.agent.new_memory(h, w)
        return (lambda view, info: int(player.agent.policy(view, info, order, memory))), None
    game = _Game(GameInfo(-1, 0, h, w, mines, "keep-going", "any"), order)
    game.log[:] = [(int(c), int(x)) for c, x in enumerate(view) if x != ku.VIEW_HIDDEN]
    if player.reset is not None:
        player.reset(game.info)

    def step(view, info):
        last = int(info[ku.I_LAST])
        snap = view.copy()
        snap.flags.writeable = False
        mv = player.act(Observation(snap, mines, int(info[ku.I_MOVE]),
                                    (last // w, last % w) if last >= 0 else None, game))
        return encode(mv, h, w)
    return step, game.log


def user_steps(player, S, shape, mines, order, asked):
    """Play ``player``'s moves on ``S`` (trace on, answers from the tape) until
    ``asked()`` or the board is resolved."""
    h, w = shape
    n = h * w
    view = _view(S, n)
    info = np.zeros(ku.I_LEN, np.int64)
    info[ku.I_MOVE] = ke.moves(S)
    info[ku.I_LAST] = S[ke.moves(S) - 1, kl.F_TCELL] if ke.moves(S) > 0 else -1
    info[ku.I_MINES] = -1 if mines is None else mines
    info[ku.I_GAME] = -1
    info[ku.I_H], info[ku.I_W] = h, w
    step, log = _stepper(player, shape, mines, np.asarray(order, np.int64), view)
    # a NumbaAgent(rules=True): the engine's rules before each of its moves, as in its game
    # loop (they play on the tape like its moves; the replay stops at their first reveal
    # that has no answer yet)
    rules = isinstance(player, NumbaPlayer) and player.agent.rules
    while not asked() and ke.hidden_left(S) > 0:
        if rules and (ku.user_rules(S, view, info, False, mines is not None) == ku.STEP_OVER
                      or asked() or ke.hidden_left(S) == 0):
            break
        code = step(view.reshape(h, w), info)
        st = ku.user_move(S, view, info, code, False)
        if st < 0:
            raise ValueError(f"agent {player.name!r}: returned {describe(code, w)}, which is "
                             f"refused: {ERRORS[st]}")
        if log is not None:
            cell = code % ku.MOVE_UNIT
            log.append((cell, int(view[cell])))

"""Where a Python agent's move time goes: its own code, the knowledge it asks
(``obs.knowledge``), making its observation, and the engine's move (for a batched agent:
its ``act_batch``, the batch's observation and the engine's step of every slot).

Python clocks (``time.perf_counter``) around each part of the player's loop
(``user/python_player.py``, ``user/batch_player.py``), on in the profile's work pass
only: what they cost shows in that pass's time per game against the timed passes' (the
profile records both).
"""
from __future__ import annotations

from time import perf_counter

import numpy as np

from ..kernels.engine import layout as kl
from ..user import observation as uo

PY_PARTS = ("agent", "knowledge", "observation", "engine")
WORK_SLOTS = (kl.WK_ANALYSES, kl.WK_COMPONENTS, kl.WK_COMP_MAX, kl.WK_STATES,
              kl.WK_WHATIFS)


def knowledge_work(S) -> np.ndarray:
    """The work counters (``WORK_SLOTS``) of a knowledge-only state (``obs.knowledge``'s:
    its analyses count there, not in the game's state)."""
    n = S.shape[0] * S.shape[1]
    F = S.reshape(n)
    cells = int(F[-1])
    base = int(F[cells * kl.K + kl.C_ORDER]) + cells + kl.NOISE_INTS
    return np.array([F[base + k] for k in WORK_SLOTS], np.int64)


class Split:
    """Accumulates a Python agent's split over the games of one work pass."""

    def __init__(self):
        self.secs = dict.fromkeys(PY_PARTS, 0.0)
        self.work = np.zeros(len(WORK_SLOTS), np.int64)
        self._clock = [0.0]

    def __enter__(self):
        uo.KNOWLEDGE_CLOCK = self._clock
        return self

    def __exit__(self, *exc):
        uo.KNOWLEDGE_CLOCK = None
        self.secs["knowledge"] = self._clock[0]
        self.secs["agent"] -= self._clock[0]  # (the knowledge is asked inside act)

    def wrap(self, act, make_obs, user_move):
        """The player loop's three calls, each through a clock."""
        secs = self.secs

        def timed_act(obs):
            t0 = perf_counter()
            try:
                return act(obs)
            finally:
                secs["agent"] += perf_counter() - t0

        def timed_obs(*args, **kw):
            t0 = perf_counter()
            o = make_obs(*args, **kw)
            secs["observation"] += perf_counter() - t0
            return o

        def timed_move(*args):
            t0 = perf_counter()
            st = user_move(*args)
            secs["engine"] += perf_counter() - t0
            return st

        return timed_act, timed_obs, timed_move

    def game_over(self, game):
        """A game ended: add its knowledge's work (if the agent asked for it)."""
        kn = game._knowledge
        if kn is not None:  # (WK_COMP_MAX too: the sum of each game's largest)
            self.work += knowledge_work(kn._S)

"""The work a game's analyses do, counted where it is done, and the phase clocks.

Counters (the WORK region of the state, ``layout.WK_*``):
analyses run, components counted and the largest, the DP states made and the what-if
positions evaluated. Each is one add per analysis or per component (an analysis costs
microseconds to milliseconds), so they always run; they are cleared at a game's start and
written to the result table (``game.OUT_*``) only when the phase clocks run (a profile's
work pass), which keeps a game without them at its old cost (writing them every game
cost basic 4% on 9x9 boards, an A/B). A knowledge-only state (``obs.knowledge``) keeps
them from its making: ``profile/split.py`` reads them there.

Phase clocks: when a profile asks for them (``params[P_PROFILE]``, copied to WK_FLAG),
the code that starts a phase calls :func:`enter` and, when done, :func:`leave` with what
it returned; the time between two switches goes to the phase that was running, so nested
phases (an analysis inside a what-if) are counted once, in the inner phase. A switch is
one read of the monotonic clock; without the flag it is one load and a
branch. The time before the first switch of a game, and after the last, is PH_RULES.
"""
import numpy as np

from ..jit import njit
from .env import flat, work_at
from .layout import K, KSHIFT, PH_RULES, WK_FLAG, WK_PHASE, WK_SECS, WK_T, WORK_INTS
from .timer import seconds


# (the counters and the flag are read and written through S's rows: a flat view of S
# costs a reference count pair each time it is made, which the A/B saw)
@njit(cache=True, inline="always")
def count_work(S, k, v):
    """Add ``v`` to work counter ``k`` (WK_*)."""
    j = work_at(S) + k
    S[j >> KSHIFT, j & (K - 1)] += v


@njit(cache=True, inline="always")
def max_work(S, k, v):
    """Raise work counter ``k`` to ``v`` if it is lower."""
    j = work_at(S) + k
    if S[j >> KSHIFT, j & (K - 1)] < v:
        S[j >> KSHIFT, j & (K - 1)] = v


@njit(cache=True)
def _switch(S, ph):
    """Charge the time since the last switch to the running phase; start ``ph``.
    Returns the phase that was running."""
    F = flat(S)
    wk = work_at(S)
    now = seconds()
    sec = np.int64(now)
    ns = np.int64((now - sec) * 1e9)
    prev = F[wk + WK_PHASE]
    d = (sec - F[wk + WK_T]) * 1_000_000_000 + ns - F[wk + WK_T + 1]
    j = wk + WK_SECS + 2 * prev
    tot = np.int64(F[j + 1]) + d
    F[j] += np.int32(tot // 1_000_000_000)
    F[j + 1] = np.int32(tot % 1_000_000_000)
    F[wk + WK_T] = np.int32(sec)
    F[wk + WK_T + 1] = np.int32(ns)
    F[wk + WK_PHASE] = ph
    return prev


@njit(cache=True, inline="always")
def enter(S, ph):
    """Start phase ``ph`` (PH_*) if the clocks run; returns what to pass to :func:`leave`
    (-1: they do not)."""
    if not clocks_on(S):
        return -1
    return _switch(S, ph)


@njit(cache=True, inline="always")
def leave(S, prev):
    """End the phase :func:`enter` started: ``prev`` runs again."""
    if prev >= 0:
        _switch(S, prev)


@njit(cache=True, inline="always")
def clocks_on(S):
    """Whether the phase clocks run (WK_FLAG), read without a flat view of ``S`` (making
    one costs a reference count pair, a few percent of a 9x9 game of ``basic``)."""
    j = work_at(S) + WK_FLAG
    return S[j >> KSHIFT, j & (K - 1)] != 0


@njit(cache=True, inline="always")
def start_clocks(S):
    """A new game: the phases' times cleared and PH_RULES running from now (if the clocks
    run; inlined, so a game without them pays one load and a branch)."""
    if clocks_on(S):
        _start(flat(S), work_at(S))


@njit(cache=True)
def _start(F, wk):
    for j in range(WK_FLAG + 1, WORK_INTS):  # the counters too: they are read only here
        F[wk + j] = 0
    now = seconds()
    sec = np.int64(now)
    F[wk + WK_T] = np.int32(sec)
    F[wk + WK_T + 1] = np.int32((now - sec) * 1e9)
    F[wk + WK_PHASE] = PH_RULES


@njit(cache=True, inline="always")
def stop_clocks(S):
    """The game is over: charge the running phase. Returns whether the clocks ran."""
    on = clocks_on(S)
    if on:
        _switch(S, PH_RULES)
    return on


@njit(cache=True, inline="always")
def phase_ns(S, ph):
    """Nanoseconds charged to phase ``ph`` this game."""
    F = flat(S)
    j = work_at(S) + WK_SECS + 2 * ph
    return np.int64(F[j]) * 1_000_000_000 + F[j + 1]


@njit(cache=True)
def set_clocks(S, on):
    """Run the phase clocks in this state's games (``on``: 0 or 1)."""
    flat(S)[work_at(S) + WK_FLAG] = on


"""Actions: the environment's answer to a move and the knowledge's observation primitives.

* :func:`act` is the environment's answer to one move: it reads the truth word (or, in
  a blind replay, a recorded tape), scores the move and passes the value shown to the
  agent's knowledge through one observation (:func:`_know`);
* the knowledge changes only through :func:`observe` (cell revealed, showing a value),
  :func:`observe_mine` (cell detonated: a mine) and :func:`flag` (the agent's own mark);
* :func:`save_knowledge` / :func:`restore_knowledge` copy the knowledge (counters and
  plane: ``layout.knowledge_ints`` ints) for look-aheads.

See ``env.py`` for why one array, the plane, mines-left / safe-left and the fire table.
"""
import numpy as np

from .env import _ix, flat, mines_left, ncells, ncells_flat, t_clue, w_hidden
from ..jit import njit
from .layout import (
    A_FLAG, A_GUESS, A_REVEAL, C_DET, C_FLAG, C_GUESS, C_NOISE, C_P, C_QLEN, C_REV,
    C_SAFE_DET, C_SENSOR, C_TRACE, C_W2, C_WORDS, C_WRONG_FLAG, DETONATED, F_PLANE, F_RH,
    F_RM, F_SEQ, F_TA, F_TCELL, F_TKIND, F_TOUT, F_TREF, F_TWHY, FIRE_SIZE, FLAGGED, K,
    NB_BIAS, NB_BLANK, NB_FIELD, NB_FIRE_BITS, NB_MASK_SHIFT, NB_ML, NB_NOTREV, NB_OBS,
    NB_QUEUED, NB_SL, NB_SL_SHIFT, NB_ST_SHIFT, OUT_BLANK, R_CLUE_MINES, R_CLUE_SAFE,
    REVEALED, SENSOR_TAPE, T_MINE,
)
from .sensor import T_BLANK, noisy_word


@njit(cache=True)
def act(S, c, kind, why, ref, a):
    """Apply one move to hidden cell ``c``; return the outcome.

    kind A_REVEAL / A_GUESS: query the cell; the environment answers (:func:`_answer`)
    and the knowledge observes the answer: a clue, or -1 if it was a mine (detonated: the
    agent learns it is a mine, no clue). kind A_FLAG: the agent marks a mine; outcome -2.
    """
    return act_flat(flat(S), S[c, F_PLANE], kind, why, ref, a)


@njit(cache=True)
def act_flat(F, p, kind, why, ref, a):
    """:func:`act` on :func:`flat` state and the word at flat index ``p``."""
    cnt = _ix(ncells_flat(F), 0)
    out, q = _act(F, cnt, F[cnt + np.uint64(C_W2)], p, kind, why, ref, a,
                  F[cnt + np.uint64(C_QLEN)], observed(F, cnt))
    F[cnt + np.uint64(C_QLEN)] = q
    return out


@njit(cache=True)
def observe(S, c, v):
    """The agent's knowledge learns that hidden cell ``c`` is safe and shows ``v``.

    No environment, no truth and no trace: for look-aheads on a copy of the knowledge
    (:func:`save_knowledge`) and for knowledge built from a real game's position.
    """
    _know_flat(flat(S), S[c, F_PLANE], REVEALED, v * NB_OBS)


@njit(cache=True)
def observe_mine(S, c):
    """The agent's knowledge learns that hidden cell ``c`` is a mine (it detonated)."""
    _know_flat(flat(S), S[c, F_PLANE], DETONATED, 0)


@njit(cache=True)
def flag(S, c):
    """The agent marks hidden cell ``c`` as a mine in its knowledge (no environment)."""
    _know_flat(flat(S), S[c, F_PLANE], FLAGGED, 0)


@njit(cache=True)
def _know_flat(F, p, st, inc):
    cnt = _ix(ncells_flat(F), 0)
    F[cnt + np.uint64(C_QLEN)] = _know(F, cnt, F[cnt + np.uint64(C_W2)], np.uint64(p), st,
                                       inc, F[cnt + np.uint64(C_QLEN)])


@njit(cache=True)
def save_knowledge(S, buf):
    """Copy the knowledge (counters row and PLANE) into ``buf`` (int32, at least
    ``layout.knowledge_ints(h, w)`` long): a look-ahead's snapshot. Returns the ints
    copied."""
    n = ncells(S)
    F = flat(S)
    cnt = _ix(n, 0)
    words = np.uint64(S[n, C_WORDS])
    p = np.uint64(S[n, C_P])
    for j in range(np.uint64(K)):
        buf[j] = F[cnt + j]
    for j in range(p):
        buf[np.uint64(K) + j] = F[words + j]
    return K + S[n, C_P]


@njit(cache=True)
def restore_knowledge(S, buf):
    """Undo everything observed since :func:`save_knowledge` wrote ``buf``."""
    n = ncells(S)
    F = flat(S)
    cnt = _ix(n, 0)
    words = np.uint64(S[n, C_WORDS])
    p = np.uint64(S[n, C_P])
    for j in range(np.uint64(K)):
        F[cnt + j] = buf[j]
    for j in range(p):
        F[words + j] = buf[np.uint64(K) + j]


@njit(cache=True, inline="always")
def _touch(F, d, delta, fire_base, queue, q):
    """Update neighbour word ``d`` by ``delta``; push it if a rule now fires on it.
    Branch-free: the slot at the top of the work list is always written (the list has a
    spare slot), and the length advances by 0 or 1. Returns the new length."""
    w = F[d] + delta
    fire = F[fire_base + np.uint64(w & NB_FIRE_BITS)]
    F[queue + np.uint64(q)] = np.int32(d)
    F[d] = w | (fire * NB_QUEUED)
    return q + fire


@njit(cache=True)
def _tape(F, cnt):
    """Under SENSOR_TAPE, the truth word the environment answers move m (m = moves so
    far) with, from the answer written in advance in the trace row's F_TOUT (tests run
    agents on a zeroed truth plane this way: -1 a mine, -2 a flag, OUT_BLANK nothing
    shown, else the clue shown)."""
    m = F[cnt + np.uint64(C_REV)] + F[cnt + np.uint64(C_FLAG)] + F[cnt + np.uint64(C_DET)]
    v = F[_ix(m, F_TOUT)]
    if v == OUT_BLANK:
        return T_BLANK
    return T_MINE if v < 0 else v * NB_OBS


@njit(cache=True)
def _record(F, cnt, pu, out, kind, why, ref, a):
    """Trace mode: record this move (outcome ``out``: the value shown, -1 a detonation,
    -2 a flag, OUT_BLANK nothing shown) in row m of the trace, m = moves so far."""
    m = F[cnt + np.uint64(C_REV)] + F[cnt + np.uint64(C_FLAG)] + F[cnt + np.uint64(C_DET)]
    im = _ix(m, 0)
    cells = 2 * np.uint64(F[cnt + np.uint64(C_P)])  # word p's cell is at p + 2P
    F[im + np.uint64(F_TKIND)] = kind
    F[im + np.uint64(F_TCELL)] = F[pu + cells]
    F[im + np.uint64(F_TOUT)] = out
    F[im + np.uint64(F_TWHY)] = why
    if why == R_CLUE_MINES or why == R_CLUE_SAFE:  # the rule loop passes a word index
        ref = F[np.uint64(ref) + cells]
    F[im + np.uint64(F_TREF)] = ref
    F[im + np.uint64(F_TA)] = a


@njit(cache=True, inline="always")
def _know(F, cnt, w2, pu, st, inc, q):
    """The one knowledge update: word ``pu`` becomes status ``st`` (REVEALED showing v,
    given as ``inc`` = v * NB_OBS; FLAGGED or DETONATED), its neighbours lose a hidden
    neighbour (a safe one or a mine), the counters count it, and cells whose rule now
    fires are pushed on the work list (length ``q``, returned)."""
    w0 = F[pu]
    fire_base = cnt + np.uint64(K)
    queue = fire_base + np.uint64(FIRE_SIZE)
    if st == REVEALED:
        F[cnt + np.uint64(C_REV)] += 1
        # ML += v, SL -= v (see the module notes); it may already satisfy a rule: push
        # it (branch-free, as in _touch)
        w = ((w0 & ~NB_NOTREV) | (REVEALED << NB_ST_SHIFT)) + inc
        fire = F[fire_base + np.uint64(w & NB_FIRE_BITS)]
        F[queue + np.uint64(q)] = np.int32(pu)
        q += fire
        F[pu] = w | (fire * NB_QUEUED)
        delta = -NB_SL  # the neighbours have one unknown safe cell fewer
    else:
        F[pu] = w0 | (st << NB_ST_SHIFT)
        F[cnt + np.uint64(C_FLAG if st == FLAGGED else C_DET)] += 1
        delta = -NB_ML  # the neighbours have one unknown mine fewer
    # Each neighbour: one hidden neighbour fewer (delta and this cell's bit in its mask:
    # this cell is in direction 7 - k of its neighbour in direction k), written out so
    # that every step has constant offsets.
    up = pu - np.uint64(w2)
    dn = pu + np.uint64(w2)
    one = np.uint64(1)
    q = _touch(F, up - one, delta - (1 << (NB_MASK_SHIFT + 7)), fire_base, queue, q)
    q = _touch(F, up, delta - (1 << (NB_MASK_SHIFT + 6)), fire_base, queue, q)
    q = _touch(F, up + one, delta - (1 << (NB_MASK_SHIFT + 5)), fire_base, queue, q)
    q = _touch(F, pu - one, delta - (1 << (NB_MASK_SHIFT + 4)), fire_base, queue, q)
    q = _touch(F, pu + one, delta - (1 << (NB_MASK_SHIFT + 3)), fire_base, queue, q)
    q = _touch(F, dn - one, delta - (1 << (NB_MASK_SHIFT + 2)), fire_base, queue, q)
    q = _touch(F, dn, delta - (1 << (NB_MASK_SHIFT + 1)), fire_base, queue, q)
    q = _touch(F, dn + one, delta - (1 << NB_MASK_SHIFT), fire_base, queue, q)
    return q


@njit(cache=True, inline="always")
def observed(F, cnt):
    """Whether moves need the rare parts of :func:`_act` (a trace, a tape, a noisy
    sensor); ``cnt``: row N's flat index."""
    return (F[cnt + np.uint64(C_TRACE)] | F[cnt + np.uint64(C_NOISE)]) != 0


@njit(cache=True, inline="always")
def _act(F, cnt, w2, p, kind, why, ref, a, q, full):
    """The move (see :func:`act`) on word ``p``, with row N at flat index ``cnt``, plane
    width ``w2`` and work-list length ``q`` held by the caller (in a register, in the
    rule loop). Returns (outcome, new length). The environment's part: read the truth
    word (the answer), score the move; the knowledge's part: :func:`_know`.

    ``full`` (:func:`observed`): the move may be traced, answered from a tape or by a
    noisy sensor. The rule loop passes it as a constant in one of two copies of itself,
    so that its hot copy has no call in it: a call to the rare parts, even one never
    taken, made the basic agent's games 25% slower (``scripts/bench_ab.py``)."""
    pu = np.uint64(p)
    t = F[pu + np.uint64(F[cnt + np.uint64(C_P)])]
    if full:
        t = _observed(F, cnt, pu, t, kind, why, ref, a)  # a tape, a noisy sensor, a trace
    inc = 0
    if kind == A_FLAG:
        if (t & T_MINE) == 0:
            F[cnt + np.uint64(C_WRONG_FLAG)] += 1  # scoring, not knowledge
        out = -2
        st = FLAGGED
    elif (t & T_MINE) != 0:
        if kind == A_REVEAL:
            F[cnt + np.uint64(C_SAFE_DET)] += 1
        out = -1
        st = DETONATED
    else:
        st = REVEALED
        if full and t == T_BLANK:  # the sensor showed nothing
            out = OUT_BLANK
            inc = _blank_inc(F[pu])
        else:
            out = t_clue(t)
            inc = t
    if kind == A_GUESS:
        F[cnt + np.uint64(C_GUESS)] += 1
    return out, _know(F, cnt, w2, pu, st, inc, q)


@njit(cache=True)
def _observed(F, cnt, pu, t, kind, why, ref, a):
    """The rare parts of a move, out of line: the answer from a tape, a noisy sensor's
    value, the trace's record. Returns the truth word the move is scored on (T_BLANK: a
    reveal that showed nothing)."""
    traced = F[cnt + np.uint64(C_TRACE)] != 0
    tape = traced and F[cnt + np.uint64(C_SENSOR)] == SENSOR_TAPE
    if tape:
        t = _tape(F, cnt)
    if kind != A_FLAG and (t & T_MINE) == 0 and F[cnt + np.uint64(C_NOISE)] != 0:
        t = _noisy_reveal(F, cnt, pu, t, tape)
    if traced:
        out = -2 if kind == A_FLAG else (-1 if t & T_MINE else (
            OUT_BLANK if t == T_BLANK else t_clue(t)))
        _record(F, cnt, pu, out, kind, why, ref, a)
    return t


@njit(cache=True)
def _noisy_reveal(F, cnt, pu, t, tape):
    """A reveal under a noisy sensor: the environment's shown value (truth word ``t``
    made noisy, unless a tape already holds what was shown), and the agent's record of
    the reveal (its known-mine and hidden neighbours then, and the reveal's rank)."""
    w0 = F[pu]
    cells = 2 * np.uint64(F[cnt + np.uint64(C_P)])
    c = F[pu + cells]
    n = ncells_flat(F)
    if not tape:
        t = noisy_word(F, cnt, pu, t, w0, c, n)
    ic = _ix(c, 0)
    F[ic + np.uint64(F_RM)] = -mines_left(w0)  # before a reveal ML = -known mines
    F[ic + np.uint64(F_RH)] = w_hidden(w0)
    F[ic + np.uint64(F_SEQ)] = F[cnt + np.uint64(C_REV)]
    return t


@njit(cache=True, inline="always")
def _blank_inc(w0):
    """What a blank reveal adds to hidden word ``w0`` (see :func:`_know`'s REVEALED
    path): mines-left and safe-left to zero, the blank and queued bits (so it never
    fires)."""
    return ((NB_BIAS - (w0 & NB_FIELD)) * NB_ML
            + (NB_BIAS - ((w0 >> NB_SL_SHIFT) & NB_FIELD)) * NB_SL + NB_BLANK + NB_QUEUED)

"""The environment's noisy sensor: the value a reveal shows under each noise model.

The noise models (``layout.NOISE_*``; the README's "Noisy sensors" has their user view):

* detector (p_neg, p_pos): each mined neighbour is missed with probability p_neg and each
  safe neighbour counted with probability p_pos, independently;
* reveal (p): the clue is shown with probability p, else nothing (a blank);
* optimistic (p): with probability p the value is uniform on [m, C], else C, where C is
  the true clue and m the agent's known-mine neighbours at the reveal (m above C, which
  only wrong flags cause, counts as C);
* cautious (p): with probability p uniform on [C, m + h], else C, h the hidden
  neighbours at the reveal.

Common random numbers: every random number is a hash of (the game's noise key, the cell,
a draw index), never a stream consumed move by move, so two agents that reveal the same
cell of the same game see the same noise whatever they did before (only optimistic and
cautious, whose ranges depend on the agent's knowledge, can then show different values).
A probability p is a 30-bit cut-off ``round(p * 2**30)``: an event happens when 30 hash
bits are below it (the option parser rounds p to that grid, so the agents' likelihoods use
exactly the probabilities the sensor draws with); p = 0 never fires, so noise 0 gives the
exact clues.
"""
import numpy as np

from .board import _GOLDEN, _mix64
from .env import flat, ncells, t_clue
from ..jit import njit
from .layout import (
    C_NOISE, C_ORDER, C_OFF, C_P, K, N_CUT_A, N_CUT_B, N_KEY_HI, N_KEY_LO, NB_BORDER,
    NB_FIELD, NB_OBS, NB_SL_SHIFT, NOISE_BITS, NOISE_CAUTIOUS, NOISE_DETECTOR,
    NOISE_OPTIMISTIC, NOISE_REVEAL, T_MINE,
)

T_BLANK = 1 << 29  # a "truth word" that means: the sensor showed nothing
_KEY_MASK = 0x7FFFFFFF
_INV53 = 1.0 / 9007199254740992.0  # 2**-53
_D_SHOW = 8  # draw indices: 0..7 the neighbours (detector), 8 whether, 9 the value
_D_VALUE = 9


@njit(cache=True, inline="always")
def clues_exact(model, a, b):
    """Whether every shown clue is the true one under noise ``model`` with probabilities
    (or cut-offs) ``a``, ``b``: no noise, ``reveal`` (a clue is shown true or not at all),
    or a model at noise 0. Agents then reason on hard clues, with the single-clue rules,
    exactly as without noise (so noise 0 plays the noiseless games)."""
    if model == NOISE_DETECTOR:
        return a == 0 and b == 0
    if model == NOISE_OPTIMISTIC or model == NOISE_CAUTIOUS:
        return a == 0
    return True


@njit(cache=True)
def noise_base(F, n):
    """Flat index of the NOISE region of flat state ``F`` with ``n`` cells."""
    return np.uint64(F[np.uint64(n) * np.uint64(K) + np.uint64(C_ORDER)] + n)


@njit(cache=True)
def set_noise(S, model, cut_a, cut_b):
    """Configure the sensor of state ``S``: model NOISE_* and two 30-bit cut-offs."""
    n = ncells(S)
    F = flat(S)
    b = noise_base(F, n)
    S[n, C_NOISE] = model
    F[b + np.uint64(N_CUT_A)] = cut_a
    F[b + np.uint64(N_CUT_B)] = cut_b


@njit(cache=True, inline="always")
def set_noise_key(S, key):
    """Game's noise key (uint64; 62 bits are kept)."""
    n = ncells(S)
    F = flat(S)
    b = noise_base(F, n)
    F[b + np.uint64(N_KEY_LO)] = np.int32(np.int64(key & np.uint64(_KEY_MASK)))
    F[b + np.uint64(N_KEY_HI)] = np.int32(np.int64((key >> np.uint64(31))
                                                   & np.uint64(_KEY_MASK)))


@njit(cache=True, inline="always")
def _draw(key, cell, d):
    """The random 64 bits of draw ``d`` of cell ``cell`` of the game with ``key``."""
    return _mix64(key + np.uint64(cell * 16 + d + 1) * _GOLDEN)


@njit(cache=True, inline="always")
def _below(key, cell, d, cut):
    """Whether draw d of the cell happens with probability cut / 2**30."""
    return np.int64(_draw(key, cell, d) >> np.uint64(64 - NOISE_BITS)) < cut


@njit(cache=True, inline="always")
def _uniform_int(key, cell, d, lo, hi):
    """Uniform integer in [lo, hi] from draw d of the cell."""
    u = np.float64(_draw(key, cell, d) >> np.uint64(11)) * _INV53
    return lo + np.int64(u * (hi - lo + 1))


@njit(cache=True)
def noisy_word(F, cnt, pu, t, w0, cell, n):
    """What the sensor shows on revealing the safe cell at word ``pu`` whose truth word
    is ``t`` (its true clue times NB_OBS): the shown clue times NB_OBS, or T_BLANK.
    ``w0``: the agent's word of the cell before the reveal (known mines and hidden
    neighbours around it); ``cnt``: row N's flat index."""
    model = F[cnt + np.uint64(C_NOISE)]
    b = noise_base(F, n)
    cut_a = F[b + np.uint64(N_CUT_A)]
    cut_b = F[b + np.uint64(N_CUT_B)]
    key = (np.uint64(F[b + np.uint64(N_KEY_LO)])
           | (np.uint64(F[b + np.uint64(N_KEY_HI)]) << np.uint64(31)))
    c = t_clue(t)
    if model == NOISE_DETECTOR:
        P = np.uint64(F[cnt + np.uint64(C_P)])
        v = 0
        for k in range(8):
            q = np.uint64(np.int64(pu) + F[cnt + np.uint64(C_OFF + k)])
            if F[q] & NB_BORDER:
                continue
            if F[q + P] & T_MINE:
                v += 0 if _below(key, cell, k, cut_a) else 1  # missed with p_neg
            elif _below(key, cell, k, cut_b):
                v += 1  # a safe neighbour counted, with p_pos
        return v * NB_OBS
    if model == NOISE_REVEAL:
        return t if _below(key, cell, _D_SHOW, cut_a) else T_BLANK
    if not _below(key, cell, _D_SHOW, cut_a):
        return t
    known = 8 - (w0 & NB_FIELD)  # before its reveal a word's ML is minus its known mines
    hidden = ((w0 & NB_FIELD) - 8) + (((w0 >> NB_SL_SHIFT) & NB_FIELD) - 8)
    if model == NOISE_OPTIMISTIC:
        return _uniform_int(key, cell, _D_VALUE, min(known, c), c) * NB_OBS
    if model == NOISE_CAUTIOUS:
        return _uniform_int(key, cell, _D_VALUE, c, max(c, known + hidden)) * NB_OBS
    return t

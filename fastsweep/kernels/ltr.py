"""Long-term risk (after D. Hill's LongTermRiskHelper): how much revealing a cell now
spares a forced 50/50 later.

A 50/50 that no reveal can ever resolve forms where two hidden cells hold one mine
between them and every cell that sees only one of the two is a mine (or off the board):

- a pair: two orthogonally adjacent cells, the three cells beyond each end mined;
- a 2x2 block with its two mines on one diagonal, the four cells diagonally outside its
  corners mined (every other neighbour sees one cell of each diagonal).

For a hidden cell t, ``influence`` = P(t is safe in such a pattern): summed over the
four pairs holding t (its partner mined), plus the largest over the four blocks holding
t (t's diagonal safe). Revealing t now settles that 50/50 in those layouts instead of
meeting it later, so the look-ahead weighs t's score by 1 + WEIGHT x influence / P(t
safe) (Hill: 0.9). Patterns with a revealed cell where a mine must be, or more than
MAX_MISSING hidden such cells (besides the partner or the other diagonal), are skipped.
Every probability is exact: the pattern's mines are observed on a copy of the knowledge
and the position analysed (its layout count against the position's).
"""
import math

import numpy as np
from numba import njit

from .actions import observe_mine, restore_knowledge, save_knowledge
from .count import METHOD_AUTO, ST_OK, Query, analyse
from .env import mines_left, new_state, status, word
from .layout import C_KMINES, C_P, F_AUX, F_NBR, F_NNB, HIDDEN, K, REVEALED
from .view import fill_state

WEIGHT = 0.9  # Hill's FIFTYFIFTY_SCALE
MAX_MISSING = 4  # Hill's limit on the hidden cells a pattern still needs mined


@njit(cache=True)
def _need(S, h, w, r, c, mk, m):
    """Cell (r, c) must be a mine: append it to ``mk`` if hidden. Returns the new length,
    -1 if it is revealed (no pattern); off the board or a known mine: unchanged."""
    if r < 0 or r >= h or c < 0 or c >= w:
        return m
    x = r * w + c
    st = status(S, x)
    if st == REVEALED:
        return -1
    if st == HIDDEN:
        mk[m] = x
        return m + 1
    return m


@njit(cache=True)
def _safe_share(S, q, t, mk, m, logz, buf):
    """(P(every cell of mk[:m] is a mine and t is safe), approximated)."""
    save_knowledge(S, buf)
    ok = True
    for i in range(m):
        observe_mine(S, mk[i])
    for i in range(m):  # a clue with too many mines now (the analysis checks only the
        for k in range(S[mk[i], F_NNB]):  # clues that still have hidden neighbours)
            d = S[mk[i], F_NBR + k]
            if status(S, d) == REVEALED and mines_left(word(S, d)) < 0:
                ok = False
    p = 0.0
    approx = 0
    if ok:
        res, approx, _, _, bprob, pu, _, logw, _, _ = analyse(S, q)
        if res == ST_OK:
            b = S[t, F_AUX]
            p = math.exp(logw - logz) * (1.0 - (bprob[b] if b >= 0 else pu))
    restore_knowledge(S, buf)
    return p, approx


@njit(cache=True)
def influence(S, q, h, w, t, logz):
    """(influence of hidden cell ``t`` (module notes), approximated analyses); ``logz``:
    the position's log layout count (its analysis with ``q``)."""
    buf = np.empty(K + S[h * w, C_P], np.int32)
    mk = np.empty(16, np.int64)
    r, c = t // w, t % w
    pairs = 0.0
    block = 0.0
    approx = 0
    for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
        ur, uc = r + dr, c + dc
        if ur < 0 or ur >= h or uc < 0 or uc >= w or status(S, ur * w + uc) != HIDDEN:
            continue
        m = 0
        for e in (-1, 1):  # the three cells beyond each end
            for s in (-1, 0, 1):
                if m >= 0:
                    if dr == 0:
                        m = _need(S, h, w, r + s, (min(c, uc) - 1 if e < 0 else max(c, uc) + 1),
                                  mk, m)
                    else:
                        m = _need(S, h, w, (min(r, ur) - 1 if e < 0 else max(r, ur) + 1),
                                  c + s, mk, m)
        if m < 0 or m > MAX_MISSING:
            continue
        mk[m] = ur * w + uc
        p, ap = _safe_share(S, q, t, mk, m + 1, logz, buf)
        pairs += p
        approx += ap
    for br, bc in ((0, 0), (0, -1), (-1, 0), (-1, -1)):  # the block's top-left corner
        R, C = r + br, c + bc
        if R < 0 or R + 1 >= h or C < 0 or C + 1 >= w:
            continue
        d = (2 * R + 1 - r) * w + (2 * C + 1 - c)  # t's diagonal partner
        if status(S, d) != HIDDEN:
            continue
        m = 0
        for rr, cc in ((R - 1, C - 1), (R - 1, C + 2), (R + 2, C - 1), (R + 2, C + 2)):
            if m >= 0:
                m = _need(S, h, w, rr, cc, mk, m)
        if m < 0 or m > MAX_MISSING:
            continue
        for rr, cc in ((r, 2 * C + 1 - c), (2 * R + 1 - r, c)):  # the other diagonal
            if m >= 0:
                m = _need(S, h, w, rr, cc, mk, m)
        if m < 0:
            continue
        # P(pattern mines, t safe, d safe) = P(.., t safe) - P(.., d mine, t safe)
        p1, a1 = _safe_share(S, q, t, mk, m, logz, buf)
        mk[m] = d
        p2, a2 = _safe_share(S, q, t, mk, m + 1, logz, buf)
        block = max(block, p1 - p2)
        approx += a1 + a2
    return pairs + block, approx


@njit(cache=True)
def influence_view(v, mines):
    """:func:`influence` of every hidden cell of view ``v`` (int8 H x W: -1 hidden, -2
    known mine, 0..8 a clue; consistent) told the mine total ``mines``: float64 H x W,
    NaN elsewhere (tests).

    >>> import numpy as np
    >>> v = np.array([[-1, -1, -1]], np.int8)  # 1 x 3, two mines: 3 layouts
    >>> influence_view(v, 2)[0]  # (0,1) is in two pairs walled by a mine and the edge
    array([0.33333333, 0.66666667, 0.33333333])
    """
    h, w = v.shape
    S = new_state(h, w)
    if fill_state(v, S)[0] != 0:
        raise ValueError("v: a clue disagrees with its neighbours")
    S[h * w, C_KMINES] = mines
    q = Query(True, 0.5, 0, True, METHOD_AUTO, np.zeros((0, 9), np.float64))
    res, _, _, _, _, _, _, logz, _, _ = analyse(S, q)
    if res != ST_OK:
        raise ValueError("v: no layout agrees with the view and mines")
    out = np.full((h, w), np.nan)
    for t in range(h * w):
        if status(S, t) == HIDDEN:
            out[t // w, t % w] = influence(S, q, h, w, t, logz)[0]
    return out

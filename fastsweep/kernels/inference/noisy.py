"""The agent's side of a noisy sensor: likelihoods of the shown values, and dropping
clues that the rest of the knowledge contradicts.

* :func:`soft_rows`: for every revealed clue, L(shown | t) for its true count t = 0..8
  (the soft clues of ``frontier.soften``), from the noise model and what the agent
  recorded at the reveal (``F_RM``, ``F_RH``): the exact posterior of noise-aware agents.
  When every shown clue is true (``sensor.clues_exact``) there are no soft rows.
* :func:`drop_contradicting`: when no layout agrees with the knowledge, the agent drops
  the newest clue of the contradiction (see the function), counted in ``C_DROPPED``.
"""
import numpy as np

from .count import DEFAULT_BUDGET, ST_OK, analyse_frontier
from ..engine.env import (
    drop_clue, mines_left, ncells, safe_left, w_blank, w_clue, w_status, word,
)
from ..jit import njit
from ..engine.sensor import clues_exact
from .frontier import CK_CELL, CK_COMP, frontier, frontier_of, soften
from ..engine.layout import (
    F_AUX, F_NNB, F_RH, F_RM, F_SEQ, NOISE_CAUTIOUS, NOISE_DETECTOR, NOISE_OPTIMISTIC,
    REVEALED,
)


@njit(cache=True)
def _binom_pmf(n, q, out):
    """out[k] = P(Binomial(n, q) = k), k = 0..n."""
    ways = 1.0  # C(n, k), built up exactly (n <= 8)
    for k in range(n + 1):
        out[k] = ways * q ** k * (1.0 - q) ** (n - k)
        ways = ways * (n - k) / (k + 1)


@njit(cache=True)
def likelihood(model, a, b, s, n, m, h, row):
    """row[t] = L(s shown | t of the cell's n neighbours mined), t = 0..8, under noise
    model ``model`` with probabilities ``a``, ``b`` (detector: p_neg, p_pos; optimistic /
    cautious: p, unused), the agent's known-mine and hidden neighbours at the reveal
    ``m``, ``h`` (see ``sensor.py`` for the models)."""
    row[:] = 0.0
    if model == NOISE_DETECTOR:
        pm = np.zeros(9)
        ps = np.zeros(9)
        for t in range(n + 1):
            _binom_pmf(t, 1.0 - a, pm)  # mined neighbours counted
            _binom_pmf(n - t, b, ps)  # safe neighbours counted
            x = 0.0
            for k in range(max(0, s - (n - t)), min(t, s) + 1):
                x += pm[k] * ps[s - k]
            row[t] = x
        return
    for t in range(n + 1):
        x = 1.0 - a if s == t else 0.0
        if model == NOISE_OPTIMISTIC:
            lo = min(m, t)
            if lo <= s <= t:
                x += a / (t - lo + 1)
        elif model == NOISE_CAUTIOUS:
            hi = max(t, m + h)
            if t <= s <= hi:
                x += a / (hi - t + 1)
        else:
            x = 1.0 if s == t else 0.0
        row[t] = x


@njit(cache=True)
def soft_rows(S, model, a, b):
    """Likelihood rows (float64 (N, 9); NaN in column 0: no soft clue) of every revealed
    clue of ``S`` under the noise model; (0, 9) when the clues are exact."""
    n = ncells(S)
    if clues_exact(model, a, b):
        return np.zeros((0, 9), np.float64)
    soft = np.full((n, 9), np.nan)
    row = np.zeros(9)
    for c in range(n):
        w = word(S, c)
        if w_status(w) != REVEALED or w_blank(w):
            continue
        likelihood(model, a, b, w_clue(w), S[c, F_NNB], S[c, F_RM], S[c, F_RH], row)
        soft[c, :] = row
    return soft


@njit(cache=True)
def _newest(S, cells, k):
    best = -1
    for j in range(k):
        c = cells[j]
        if best < 0 or S[c, F_SEQ] > S[best, F_SEQ]:
            best = c
    return best


@njit(cache=True, inline="always")  # (a layer inlined: see design/compile.md)
def drop_contradicting(S, soft, budget):
    """Drop one clue of a contradiction in the knowledge of ``S`` (``soft``: the soft
    rows in use, or (0, 9)); returns 1 if one was dropped, 0 if there is no clue left to
    drop. In turn:

    1. a hard clue contradicted on its own (more known mines around it than it shows, or
       fewer hidden neighbours than the mines it needs): the newest such;
    2. else the first frontier component that no layout agrees with: its newest clue;
    3. else (the components agree, the mine total does not): the newest frontier clue.

    "Newest" is the latest revealed (``F_SEQ``): the clue that arrived when the knowledge
    stopped agreeing with itself, if the knowledge agreed before it.
    """
    n = ncells(S)
    cand = np.empty(n, np.int64)
    k = 0
    for c in range(n):
        w = word(S, c)
        if w_status(w) != REVEALED or w_blank(w):
            continue
        if soft.shape[0] > 0 and soft[c, 0] == soft[c, 0]:
            continue
        if mines_left(w) < 0 or safe_left(w) < 0:
            cand[k] = c
            k += 1
    if k > 0:
        drop_clue(S, _newest(S, cand, k))
        return 1
    fr = frontier(S)
    if fr.ncon == 0:
        return 0
    con = fr.con.copy()
    for c in range(n):
        S[c, F_AUX] = -1
    none = np.zeros((0, 3), np.int64)
    budget = budget if budget > 0 else DEFAULT_BUDGET
    for i in range(fr.ncomp):
        k = 0
        for j in range(fr.ncon):  # (ascending cells, as build_from wants)
            if con[j, CK_COMP] == i:
                cand[k] = con[j, CK_CELL]
                k += 1
        sub = frontier_of(S, cand.astype(np.int32), k)
        if soft.shape[0] > 0:
            sub = soften(sub, S, soft)
        if analyse_frontier(S, sub, False, 0.5, budget, none, 0).status != ST_OK:
            drop_clue(S, _newest(S, cand, k))
            return 1
    for j in range(fr.ncon):
        cand[j] = con[j, CK_CELL]
    drop_clue(S, _newest(S, cand, fr.ncon))
    return 1

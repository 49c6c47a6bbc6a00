"""What-if questions on a copy of the knowledge: the distribution of a cell's clue.

For a hidden cell x and a value v, P(x is safe and shows v) is the total weight of the
layouts that agree with the position *and* with "x shows v", over the total weight of
those that agree with the position. Both are analyses' ``logw`` (count.py), so the
distribution is exact: observe v at x on the knowledge (actions.observe), analyse,
restore the knowledge. Without the mine total, the hypothetical position has one hidden
cell less, whose prior weight (1 - prior) of being safe is put back here.

Cost: one analysis per (cell, possible value), on the whole frontier (the components x
does not touch are re-counted too; reusing them is future work).
"""
import math

import numpy as np
from numba import njit

from .actions import observe, restore_knowledge, save_knowledge
from .count import ST_OK, Query, analyse
from .results import cell_results
from .env import nb_hidden, nb_mines, ncells
from .env import status as cell_status
from .layout import C_P, HIDDEN, K, REVEALED

OUT_MINE = 9  # column of "the cell is a mine"; columns 0..8: safe and shows that clue


@njit(cache=True)
def outcome_table(S, q, out):
    """Fill ``out`` (float64 (N, 10)): for a hidden cell c, ``out[c, v]`` = P(c is safe and
    shows v) for v = 0..8 and ``out[c, 9]`` = P(c is a mine); a known mine has
    ``out[c, 9] = 1``, a revealed cell zeros (NaN entries where an analysis had to be
    approximated: no exact weight). Returns (status, approximated analyses, quality of
    the position's own analysis as in ``results.cell_results``):
    status as ``count.analyse`` for the position itself. ``q``: a ``count.Query``
    (its ``want_prob`` is ignored: probabilities are needed)."""
    q = Query(q.mine_count, q.prior, q.budget, True, q.method, q.soft)
    n = ncells(S)
    prob = np.zeros(n, np.float64)
    ded = np.zeros(n, np.int8)
    status, approx, logw, quality = cell_results(S, q, prob, ded)
    out[:] = 0.0
    if status != ST_OK:
        return status, approx, quality
    buf = np.empty(K + S[n, C_P], np.int32)  # see layout.knowledge_ints
    safe_factor = 0.0 if q.mine_count else math.log1p(-q.prior)
    for c in range(n):
        st = cell_status(S, c)
        if st == REVEALED:
            continue
        if st != HIDDEN:
            out[c, OUT_MINE] = 1.0
            continue
        out[c, OUT_MINE] = prob[c]
        if ded[c] == 2:
            continue
        km = nb_mines(S, c)
        hn = nb_hidden(S, c)
        for v in range(km, min(km + hn, 8) + 1):
            save_knowledge(S, buf)
            observe(S, c, v)
            res = analyse(S, q)
            restore_knowledge(S, buf)
            if res[1] > 0:
                approx += res[1]
            if res[0] == ST_OK:
                out[c, v] = math.exp(res[7] - logw + safe_factor)
    return status, approx, quality

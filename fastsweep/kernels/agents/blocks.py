"""Building blocks for a user's Numba agent, on its view (``user.VIEW_*`` codes): the
single-clue rules, complete deduction and exact mine probabilities, each a kernel the
user's ``@njit`` policy calls (re-exported as ``fastsweep.user.blocks``).

The view is copied into a knowledge-only state (no truth in it) on each call: O(N), small
next to an analysis. The analyses are the built-in agents' own kernels
(``inference.results.cell_results``), so their numbers are theirs.
"""


from ..engine.env import _put, new_state, recount, set_cell, word
from ..engine.layout import (
    C_FLAG, C_KMINES, C_REV, DETONATED, F_PLANE, FLAGGED, HIDDEN, NB_BLANK, NB_FIELD,
    NB_QUEUED, NB_SL_SHIFT, NB_ZERO, REVEALED,
)
from ..inference.count import ST_OK, query
from ..inference.results import cell_results
from ..jit import njit
from .user import VIEW_BLANK, VIEW_DETONATED, VIEW_FLAG, VIEW_HIDDEN, flag, safe

NO_RULE = -1  # single_clue_move: no rule applies


@njit(cache=True)
def knowledge_state(view, mines):
    """A knowledge-only state holding view ``view`` (int8 (H, W), VIEW_* codes or a clue)
    and the mine total ``mines`` (-1: not told)."""
    h, w = view.shape
    n = h * w
    S = new_state(h, w)
    rev = 0
    known = 0
    for c in range(n):
        x = view[c // w, c % w]
        if x == VIEW_HIDDEN:
            set_cell(S, c, HIDDEN, 0)
        elif x == VIEW_FLAG:
            set_cell(S, c, FLAGGED, 0)
            known += 1
        elif x == VIEW_DETONATED:
            set_cell(S, c, DETONATED, 0)
            known += 1
        else:
            set_cell(S, c, REVEALED, max(x, 0))
            rev += 1
    for c in range(n):
        recount(S, c)
    for c in range(n):  # a blank: revealed, no clue (never a constraint; see layout.py)
        if view[c // w, c % w] == VIEW_BLANK:
            j = S[c, F_PLANE]
            _put(S, j, (word(S, c) & ~(NB_FIELD | (NB_FIELD << NB_SL_SHIFT))) | NB_ZERO
                 | NB_BLANK | NB_QUEUED)
    S[n, C_REV] = rev
    S[n, C_FLAG] = known
    S[n, C_KMINES] = mines
    return S


@njit(cache=True)
def single_clue_move(view):
    """A move of the single-clue rules on ``view``: ``flag`` of a hidden neighbour of a
    clue whose hidden neighbours are all mines, ``safe`` of one of a clue whose mines are
    all known; NO_RULE if no clue allows either (a scan of the board)."""
    h, w = view.shape
    for c in range(h * w):
        r0, c0 = c // w, c % w
        v = view[r0, c0]
        if v < 0:
            continue
        hidden = 0
        known = 0
        first = -1
        for r in range(max(r0 - 1, 0), min(r0 + 2, h)):
            for cc in range(max(c0 - 1, 0), min(c0 + 2, w)):
                y = view[r, cc]
                if y == VIEW_HIDDEN:
                    hidden += 1
                    if first < 0:
                        first = r * w + cc
                elif y == VIEW_FLAG or y == VIEW_DETONATED:
                    known += 1
        if hidden > 0 and v - known == hidden:
            return flag(first)
        if hidden > 0 and v == known:
            return safe(first)
    return NO_RULE


@njit(cache=True)
def analyse_view(view, mines, prior, want_prob, prob, ded):
    """Complete deduction (and, if ``want_prob``, exact mine probabilities under the
    total ``mines``, or the per-cell ``prior`` when ``mines`` is -1) on ``view``:
    ``ded`` (int8, N) 1 certainly safe, 2 certainly a mine, 0 neither or not hidden;
    ``prob`` (float64, N) each cell's mine probability. Returns True, or False when no
    layout agrees with the view (e.g. noisy clues read as exact)."""
    S = knowledge_state(view, mines)
    q = query(mines >= 0, prior, 0, want_prob)
    status, approx, logw, quality = cell_results(S, q, prob, ded)
    return status == ST_OK




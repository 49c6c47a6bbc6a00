"""Building blocks for a user's Numba agent, on its view (``user.VIEW_*`` codes): the
single-clue rules, complete deduction and exact mine probabilities, each a kernel the
user's ``@njit`` policy calls (re-exported as ``fastsweep.user.blocks``).

Two ways to the knowledge-only state (no truth in it) an analysis reads:
:func:`knowledge_state` builds it from the view on each call (~30 us on Expert, as much
as the analysis itself); :func:`knowledge` keeps it in the agent's memory across the
game's moves (``NumbaAgent(knowledge=True)`` reserves the room), adding only the cells
whose view changed since its last call (the same observations ``obs.knowledge`` adds for
a Python agent). The analyses are the built-in agents' own kernels
(``inference.results.cell_results``), so their numbers are theirs.

The room :func:`knowledge` uses, at the end of the memory (the engine zeroes only the
agent's own words and the first of these at each game's start): ``[base]`` 1 once built
this game, then the state (int32, viewed in place), then the last view it saw (int8);
the memory's last three words hold the state's rows, :data:`KNOWLEDGE_MAGIC` and
``base``.
"""


from ..engine.env import _put, new_state, recount, set_cell, word
import numpy as np

from ..engine.layout import (
    C_FLAG, C_KMINES, C_REV, DETONATED, F_PLANE, FLAGGED, HIDDEN, K, NB_BLANK, NB_FIELD,
    NB_QUEUED, NB_SL_SHIFT, NB_ZERO, REVEALED,
)
from ..inference.count import ST_OK, query
from ..inference.results import cell_results
from ..jit import njit
from .user import (
    I_MINES, VIEW_BLANK, VIEW_DETONATED, VIEW_FLAG, VIEW_HIDDEN, flag, observe_value, safe,
)

NO_RULE = -1  # single_clue_move: no rule applies
KNOWLEDGE_MAGIC = 0x6B6E6F776C656467  # memory[-2] when the engine reserved knowledge()'s room


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
def knowledge_words(h, w):
    """(int64 words :func:`knowledge` needs on an h x w board, the state's rows); the
    engine reserves them for ``NumbaAgent(knowledge=True)``."""
    rows = new_state(h, w).shape[0]
    return 1 + (rows * K + 1) // 2 + (h * w + 7) // 8 + 3, rows


@njit(cache=True)
def knowledge(view, info, memory):
    """The knowledge-only state of this game's view, kept in ``memory`` across the
    game's moves: built at the game's first call, then each call observes only the cells
    whose view changed since the last one (a byte compare of the view, then O(cells
    changed)). Pass it to :func:`analyse_knowledge`. Needs the room
    ``NumbaAgent(policy, knowledge=True)`` reserves at the end of the memory (a
    ValueError otherwise); the agent's own words are untouched."""
    if memory.shape[0] < 4 or memory[memory.shape[0] - 2] != KNOWLEDGE_MAGIC:
        raise ValueError("knowledge(view, info, memory): the memory has no room for the "
                         "knowledge: make the agent with NumbaAgent(policy, knowledge=True)")
    h, w = view.shape
    n = h * w
    end = memory.shape[0]
    base = memory[end - 1]
    rows = memory[end - 3]
    sw = (rows * K + 1) // 2
    S = memory[base + 1:base + 1 + sw].view(np.int32)[:rows * K].reshape((rows, K))
    seen = memory[base + 1 + sw:base + 1 + sw + (n + 7) // 8].view(np.int8)[:n]
    if memory[base] == 0:  # a new game (the engine zeroed this word)
        S[:] = new_state(h, w)
        S[n, C_KMINES] = info[I_MINES]
        seen[:] = VIEW_HIDDEN
        memory[base] = 1
    v = view.reshape(n)  # (a view of the C-ordered view: no copy)
    for c in range(n):
        x = v[c]
        if x != seen[c]:
            observe_value(S, c, x)
            seen[c] = x
    return S


@njit(cache=True)
def analyse_knowledge(S, mines, prior, want_prob, prob, ded):
    """:func:`analyse_view` on a knowledge-only state (:func:`knowledge`)."""
    q = query(mines >= 0, prior, 0, want_prob)
    status, approx, logw, quality = cell_results(S, q, prob, ded)
    return status == ST_OK


@njit(cache=True)
def analyse_view(view, mines, prior, want_prob, prob, ded):
    """Complete deduction (and, if ``want_prob``, exact mine probabilities under the
    total ``mines``, or the per-cell ``prior`` when ``mines`` is -1) on ``view``:
    ``ded`` (int8, N) 1 certainly safe, 2 certainly a mine, 0 neither or not hidden;
    ``prob`` (float64, N) each cell's mine probability. Returns True, or False when no
    layout agrees with the view (e.g. noisy clues read as exact)."""
    return analyse_knowledge(knowledge_state(view, mines), mines, prior, want_prob, prob,
                             ded)




"""Incremental analysis without the mine total: re-count only the components that changed.

Hard clues and soft (noisy) clues alike: a soft clue's likelihood row is fixed at its
reveal (:func:`soft_cache` keeps it), and its constraint depends only on the cell's key
below, as a hard clue's does.

A move changes one cell and its neighbours' counts; between two guesses most of the
frontier stays as it was. Without the mine total, a component's deductions and box
probabilities depend on that component alone, so a component none of whose cells changed
since the last analysis gives the same results as then: nothing certain (had something
been certain, the agent would have acted on it, and that changes cells) and the same
probabilities, kept per cell in the workspace. Only the components that hold a changed
cell are rebuilt (numbered as in a full build, so their DP, and every float of it, is the
same as in a full analysis) and re-counted.

Change detection needs no help from the actions: every cell's (state, hidden neighbours,
known-mine neighbours) is compared with its value at the previous analysis. A cell's key
changes iff it or one of its neighbours changed state (cells never become hidden again).
A current component none of whose clues and hidden cells changed is exactly a component
of the previous analysis: its clues have the same hidden neighbours and values, its cells
touch the same clues. Whether a hidden cell is on the frontier (touches a revealed clue)
changes only with its key, so it is kept with the key and the frontier's size is kept
as a running total.

The scan reads the words of the plane row by row and the keys from one contiguous array,
so it touches a few kilobytes; reading each cell's state row and workspace row instead
(128 and 72 bytes apart) made it, with the probability fill, a third of ``probability``'s
time at 30 x 30 / 0.45 (a perf profile, the performance page).

Workspace (float64, kept across moves and games; ``S[N, C_AGENT_CACHE]`` is 0 after
``reset_state`` (a new game) or a dropped clue (``env.drop_clue``: its neighbours' keys do
not change), which invalidates it). Rows 0..N, columns:

* ``W_PROB``  mine probability of a frontier cell (from the last count of its component)
* ``W_KLO``   for one cell per component (its representative): the fewest mines of the
  component's layouts, else -1
* ``W_KHI``   the representative's most mines * 2 + 1 if the component was approximated
* row N: the sums of these over all represented components (``T_*``) and the number of
  frontier cells (``T_FRONT``)

Rows N + 1 .. 2N: the soft clues' likelihood rows (:func:`soft_cache`). Then, read as one
int64 array of N (:func:`snapshots`): each cell's key at the previous analysis, plus
``FRONT`` if it was on the frontier, plus its whole word shifted by ``WORD_SHIFT`` (-1:
none yet). The word holds the key's fields and a few more (the work list's queued bit),
so an unchanged word, one compare, is an unchanged key; the key is read only when the
word changed.
"""
from collections import namedtuple

import numpy as np

from .count import DEFAULT_BUDGET, ST_CLUES, ST_OK, analyse_frontier
from ..engine.env import (
    flat, hidden_left, mines_left_known, ncells, w_blank, w_clue, w_hidden, w_mines,
    w_status, word,
)
from ..jit import njit
from ..engine.layout import (
    C_AGENT_CACHE, C_W2, C_WORDS, F_AUX, F_NBR, F_NNB, F_RH, F_RM, HIDDEN, PH_FRONTIER,
    REVEALED,
)
from ..engine.sensor import clues_exact
from ..engine.work import enter, leave
from .noisy import likelihood

from ..engine.env import status as cell_status
from .frontier import CB_C, CB_LEN, CB_SIZE, frontier_of, soften


@njit(cache=True)
def next_to_clue(S, c):
    """Whether hidden cell ``c`` touches a constraint (a revealed cell with a usable clue:
    not a blank, whose word holds no hidden neighbours)."""
    for k in range(S[c, F_NNB]):
        d = S[c, F_NBR + k]
        w = word(S, d)
        if w_status(w) == REVEALED and w_hidden(w) > 0:
            return True
    return False

W_PROB = 0
W_KLO = 2
W_KHI = 3
W_LEN = 4
WS_WIDTH = 9  # (the soft rows' width; the first W_LEN columns of rows 0..N as above)
T_SMIN = 0  # row N: totals over the cached components (fewest, most mines; approximated)
T_SMAX = 1
T_APPROX = 2
T_FRONT = 3  # row N: the frontier's cells (hidden cells next to a clue)
FRONT = 1024  # a snapshot's mark of a frontier cell (keys are below 1024)
WORD_SHIFT = 11  # a snapshot holds the cell's word above its key and frontier mark
SEL = -2  # F_AUX mark of the cells to re-count

#: Result of :func:`analyse_changed`: ``status`` and ``approx`` (approximated components,
#: changed or not) as in ``count.analyse``; the box table ``box`` of the re-counted
#: components and its ``nbox`` boxes (CB_DED: their deductions; unchanged components
#: have none); [``smin``, ``smax``] the range of possible frontier totals, ``u`` the
#: unconstrained hidden cells and ``mleft`` the mines left (for the caller's test whether
#: the total can matter, ``count.total_free``).
Changed = namedtuple("Changed", "status approx box nbox smin smax u mleft")


@njit(cache=True)
def new_workspace(n):
    return np.zeros((2 * n + 1 + (n + WS_WIDTH - 1) // WS_WIDTH, WS_WIDTH), np.float64)


@njit(cache=True)
def snapshots(ws, n):
    """The snapshot keys of the N cells: a contiguous int64 view of the workspace's
    last rows."""
    base = (2 * n + 1) * WS_WIDTH
    return ws.reshape(ws.size)[base:base + n].view(np.int64)


@njit(cache=True)
def _begin(S, ws):
    """Invalidate everything cached if ``S`` holds a new game (or dropped a clue)."""
    n = ncells(S)
    if S[n, C_AGENT_CACHE] != 0:
        return
    snap = snapshots(ws, n)
    for c in range(n):
        snap[c] = -1
        ws[c, W_KLO] = -1.0
        ws[n + 1 + c, :] = np.nan
    ws[n, T_SMIN] = 0.0
    ws[n, T_SMAX] = 0.0
    ws[n, T_APPROX] = 0.0
    ws[n, T_FRONT] = 0.0
    S[n, C_AGENT_CACHE] = 1


@njit(cache=True)
def soft_cache(S, ws, model, a, b):
    """The soft rows of ``noisy.soft_rows`` (the same floats), each computed once, at the
    first analysis after its clue's reveal: a view of the workspace (not to be written),
    or (0, 9) when the clues are exact."""
    if clues_exact(model, a, b):
        return np.zeros((0, 9), np.float64)
    _begin(S, ws)
    n = ncells(S)
    soft = ws[n + 1:2 * n + 1]
    for c in range(n):
        w = word(S, c)
        clue = w_status(w) == REVEALED and not w_blank(w)
        if clue != (soft[c, 0] == soft[c, 0]):
            if clue:
                likelihood(model, a, b, w_clue(w), S[c, F_NNB], S[c, F_RM], S[c, F_RH],
                           soft[c])
            else:
                soft[c, :] = np.nan
    return soft


@njit(cache=True)
def _drop_rep(ws, c, n):
    """Forget the component cell ``c`` represents (if any): it is being re-counted."""
    if ws[c, W_KLO] >= 0.0:
        kh = int(ws[c, W_KHI])
        ws[n, T_SMIN] -= ws[c, W_KLO]
        ws[n, T_SMAX] -= kh >> 1
        ws[n, T_APPROX] -= kh & 1
        ws[c, W_KLO] = -1.0


@njit(cache=True, inline="always")  # (a layer inlined: see design/compile.md)
def analyse_changed(S, ws, prior, budget, soft, blanks):
    """Analysis without the mine total, counting only the changed components: a
    :data:`Changed`. ``ws[c, W_PROB]`` is the mine probability of every frontier cell c
    afterwards. ``soft``: the soft rows (:func:`soft_cache`) or (0, 9) for hard clues;
    ``blanks``: revealed cells may be blanks (noise: ``reveal``, dropped clues), which
    are not constraints.
    A status other than ST_OK invalidates the cache (the caller's full analysis may drop
    clues).
    """
    n = ncells(S)
    _begin(S, ws)
    if budget <= 0:
        budget = DEFAULT_BUDGET
    ph = enter(S, PH_FRONTIER)  # (the change scan and the changed components' build)
    queue = np.empty(n, np.int32)
    qt = 0
    snap = snapshots(ws, n)
    fcells = int(ws[n, T_FRONT])
    F = flat(S)
    w2 = S[n, C_W2]
    width = w2 - 2
    for r in range(n // width):  # the plane row by row, cells in index order
        j0 = np.uint64(S[n, C_WORDS] + (r + 1) * w2 + 1)  # (unsigned: see env._ix)
        for x in range(width):
            c = r * width + x
            w = F[j0 + np.uint64(x)]
            old = snap[c]
            if w == old >> WORD_SHIFT:  # the same word: the same key (most cells)
                continue
            st = w_status(w)
            h = w_hidden(w)
            km = w_mines(w)
            key = st | (h << 2) | (km << 6)
            if old >= 0 and key == old & (FRONT - 1):  # another field (the queued bit)
                snap[c] = (np.int64(w) << WORD_SHIFT) | (old & (2 * FRONT - 1))
                continue
            front = st == HIDDEN and S[c, F_NNB] - h - km > 0
            if front and blanks:
                front = next_to_clue(S, c)  # (a revealed neighbour may be a blank)
            if old >= 0 and old & FRONT:
                fcells -= 1
            fcells += front
            snap[c] = (np.int64(w) << WORD_SHIFT) | key | (FRONT * front)
            _drop_rep(ws, c, n)
            if soft.shape[0] > 0 and st == REVEALED and h == 0 and \
                    soft[c, 0] == soft[c, 0] and soft[c, km] == 0.0:
                # a settled soft clue that rules the position out (count._settled_soft)
                S[n, C_AGENT_CACHE] = 0
                leave(S, ph)
                return Changed(ST_CLUES, 0, np.empty((0, CB_LEN), np.int32), 0, 0, 0,
                               0, 0)
            if front or (st == REVEALED and h > 0):
                S[c, F_AUX] = SEL
                queue[qt] = c
                qt += 1
            else:
                # in no component: clear an id or mark of an earlier build (a blank
                # was a box cell when hidden; build_from takes a revealed cell with
                # an id for a constraint)
                S[c, F_AUX] = -1
    ws[n, T_FRONT] = fcells
    # the components of the changed cells: alternate hidden cells and clues
    qh = 0
    ncon = 0
    while qh < qt:
        c = queue[qh]
        qh += 1
        if cell_status(S, c) == HIDDEN:
            _drop_rep(ws, c, n)
            for k in range(S[c, F_NNB]):
                d = S[c, F_NBR + k]
                w = word(S, d)  # a constraint: revealed, hidden neighbours (not a blank)
                if S[d, F_AUX] != SEL and w_status(w) == REVEALED and w_hidden(w) > 0:
                    S[d, F_AUX] = SEL
                    queue[qt] = d
                    qt += 1
        else:
            ncon += 1
            for k in range(S[c, F_NNB]):
                d = S[c, F_NBR + k]
                if S[d, F_AUX] != SEL and cell_status(S, d) == HIDDEN:
                    S[d, F_AUX] = SEL
                    queue[qt] = d
                    qt += 1
    leave(S, ph)
    hid = hidden_left(S)
    u = hid - fcells
    mleft = mines_left_known(S)
    status = ST_OK
    nbox = 0
    box = np.empty((0, CB_LEN), np.int32)
    if ncon > 0:
        clues = np.empty(ncon, np.int32)
        j = 0
        for i in range(qt):
            if cell_status(S, queue[i]) == REVEALED:
                clues[j] = queue[i]
                j += 1
        clues.sort()
        ph = enter(S, PH_FRONTIER)
        fr = frontier_of(S, clues, ncon)
        if soft.shape[0] > 0:
            fr = soften(fr, S, soft)
        leave(S, ph)
        box = fr.box
        nbox = fr.nbox
        cinfo = np.zeros((fr.ncomp, 3), np.int64)
        a = analyse_frontier(S, fr, False, prior, budget, cinfo, 0)
        status = a.status
        if status != ST_OK:
            S[n, C_AGENT_CACHE] = 0
            return Changed(status, a.approx, box, nbox, 0, 0, u, mleft)
        bprob = a.bprob
        for b in range(nbox):
            p = bprob[b]
            for j in range(box[b, CB_SIZE]):
                ws[box[b, CB_C + j], W_PROB] = p
        for i in range(fr.ncomp):
            r = box[fr.order[fr.cstart[i]], CB_C]
            ws[r, W_KLO] = cinfo[i, 0]
            ws[r, W_KHI] = 2 * cinfo[i, 1] + cinfo[i, 2]
            ws[n, T_SMIN] += cinfo[i, 0]
            ws[n, T_SMAX] += cinfo[i, 1]
            ws[n, T_APPROX] += cinfo[i, 2]
    # totals over every component, changed or not
    return Changed(status, int(ws[n, T_APPROX]), box, nbox, int(ws[n, T_SMIN]),
                   int(ws[n, T_SMAX]), u, mleft)

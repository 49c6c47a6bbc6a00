"""Pseudo-50/50s for the ``lookahead`` agent (after D. Hill's solver), checked exactly.

A hidden cell ``a`` is a pseudo-50/50 when, were it a mine, it would certainly be one
half of a 50/50 that no reveal can ever resolve. Two shapes, as in Hill's solver:

* an orthogonal pair (a, b): a mine, b safe;
* a 2 x 2 block of hidden cells: a and its diagonal partner mines, the other two safe.

The layout with the pattern swapped (b mine and a safe; the other diagonal) shows the
same value on every cell except the *tells*, the cells next to exactly one cell of the
shape (for a pair: up to three beyond each end; for a block: its four outer corners).
If every tell is a mine, no reveal tells the two patterns apart, and one of the shape's
cells must be guessed at even odds some time. So guessing ``a`` now loses exactly in
the layouts where a is a mine, all of which hold such a 50/50; and it is information
while the agent's other guesses still lie ahead (Hill guesses such a cell at once).

The check is exact: on a copy of the knowledge, ``a`` is flagged and complete deduction
(one analysis, the agent's own mine-total setting) must prove every other cell of the
pattern (safe or mine) and every tell a mine. Only shapes whose tells are revealed
nowhere and whose hidden tells number at most one (pair) or none (block) are analysed
(Hill's limits: the others rarely pass, and each check costs an analysis).
"""
import numpy as np

from ...engine.actions import flag, restore_knowledge, save_knowledge
from ...inference.count import ST_OK, analyse
from ...engine.env import cell_of, flat, ncells, status
from ...inference.frontier import CB_DED
from ...jit import njit
from ...engine.layout import C_GPTR, C_ORDER, C_W2, DETONATED, F_AUX, FLAGGED, HIDDEN, REVEALED

PAIR = 2  # a shape's cells
BLOCK = 4
MAX_TELLS_HIDDEN = (1, 0)  # hidden (not known mine) tells allowed: pair, block
EPS = 1e-12
TIE_RTOL = 1e-9  # probabilities closer than this tie (as lookahead.TIE_RTOL)


@njit(cache=True)
def shape_cells(a, k, h, w, cells, tells):
    """Shape ``k`` through ``a``: its cells into ``cells`` (``a`` first, then for a block
    its diagonal partner, then the cells safe in the pattern) and its on-board tells into
    ``tells``. k 0..3: the pair with the cell right, left, below, above; k 4..7: the block
    with ``a`` at its top-left, top-right, bottom-left, bottom-right corner. Returns
    (size, tells), size 0 if the shape leaves the board."""
    r, c = divmod(a, w)
    if k < 4:
        dr, dc = ((0, 1), (0, -1), (1, 0), (-1, 0))[k]
        if not (0 <= r + dr < h and 0 <= c + dc < w):
            return 0, 0
        cells[0] = a
        cells[1] = (r + dr) * w + c + dc
        t = 0
        for er, ec in ((r - dr, c - dc), (r + 2 * dr, c + 2 * dc)):  # behind a, beyond b
            for s in (-1, 0, 1):  # across the pair's direction
                tr, tc = er + s * dc, ec + s * dr
                if 0 <= tr < h and 0 <= tc < w:
                    tells[t] = tr * w + tc
                    t += 1
        return PAIR, t
    dr, dc = ((1, 1), (1, -1), (-1, 1), (-1, -1))[k - 4]
    if not (0 <= r + dr < h and 0 <= c + dc < w):
        return 0, 0
    cells[0] = a
    cells[1] = (r + dr) * w + c + dc
    cells[2] = (r + dr) * w + c
    cells[3] = r * w + c + dc
    t = 0
    for tr in (r - dr, r + 2 * dr):  # the block's outer corners
        for tc in (c - dc, c + 2 * dc):
            if 0 <= tr < h and 0 <= tc < w:
                tells[t] = tr * w + tc
                t += 1
    return BLOCK, t


@njit(cache=True)
def _plausible(st, cells, m, tells, t, pcell):
    """Cheap necessary conditions: the shape hidden, no tell revealed, few hidden tells,
    and the marginals (P(a, x mine) = 0 needs p(a) + p(x) <= 1; x certainly a mine when
    a is needs p(x) >= p(a)). ``st``: each cell's status."""
    for i in range(m):
        if st[cells[i]] != HIDDEN:
            return False
    pa = pcell[cells[0]]
    hidden_tells = 0
    for i in range(t):
        d = tells[i]
        if st[d] == REVEALED:
            return False
        if st[d] == HIDDEN:
            hidden_tells += 1
            if pcell[d] < pa - EPS:
                return False
    if hidden_tells > MAX_TELLS_HIDDEN[0 if m == PAIR else 1]:
        return False
    first_safe = 1 if m == PAIR else 2
    if m == BLOCK and pcell[cells[1]] < pa - EPS:
        return False
    for i in range(first_safe, m):
        if pa + pcell[cells[i]] > 1.0 + EPS:
            return False
    return True


@njit(cache=True)
def _decided(S, box, uded, c):
    """Deduction of hidden cell ``c`` in the last analysis: 0 undecided, 1 safe, 2 mine."""
    b = S[c, F_AUX]
    return box[b, CB_DED] if b >= 0 else uded


@njit(cache=True)
def sealed_if_mine(S, qd, cells, m, tells, t, buf):
    """Whether flagging ``cells[0]`` makes deduction prove the shape's pattern and every
    hidden tell a mine (exact; False if the analysis was approximated)."""
    save_knowledge(S, buf)
    flag(S, cells[0])
    a = analyse(S, qd)
    ok = a.status == ST_OK and a.approx == 0
    first_safe = 1 if m == PAIR else 2
    for i in range(1, m):
        if ok:
            ok = _decided(S, a.box, a.uded, cells[i]) == (1 if i >= first_safe else 2)
    for i in range(t):
        if ok and status(S, tells[i]) == HIDDEN:
            ok = _decided(S, a.box, a.uded, tells[i]) == 2
    restore_knowledge(S, buf)
    return ok


@njit(cache=True)
def pseudo_cells(S, qd, pcell, buf):
    """Pseudo-50/50 cells (module notes) as an (m, 3) array of rows (cell, partner, shape
    size), safest first (within TIE_RTOL: the guess order); ``qd``: a deduction-only
    query."""
    n = ncells(S)
    w = S[n, C_W2] - 2
    h = n // w
    F = flat(S)
    order = S[n, C_ORDER]
    cells = np.empty(BLOCK, np.int64)
    tells = np.empty(6, np.int64)
    st = np.empty(n, np.int8)  # HIDDEN, REVEALED, or FLAGGED for any known mine
    for c in range(n):
        x = status(S, c)
        st[c] = FLAGGED if x == DETONATED else x
    found = np.empty((n, 3), np.int64)
    m = 0
    for i in range(S[n, C_GPTR], n):
        a = cell_of(F, F[order + i])
        if st[a] != HIDDEN:
            continue
        for k in range(8):
            size, t = shape_cells(a, k, h, w, cells, tells)
            if size == 0 or not _plausible(st, cells, size, tells, t, pcell):
                continue
            if sealed_if_mine(S, qd, cells, size, tells, t, buf):
                found[m, 0] = a
                found[m, 1] = cells[1]
                found[m, 2] = size
                m += 1
                break
    # insertion sort: safer by more than TIE_RTOL first, else the guess order (probabilities
    # equal in exact arithmetic can differ in their last bits)
    for i in range(1, m):
        j = i
        while j > 0 and pcell[found[j, 0]] < pcell[found[j - 1, 0]] - TIE_RTOL:
            for x in range(3):
                found[j, x], found[j - 1, x] = found[j - 1, x], found[j, x]
            j -= 1
    return found[:m]

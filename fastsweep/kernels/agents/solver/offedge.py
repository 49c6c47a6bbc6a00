"""Which cells off the frontier the look-ahead scores, with ``offedge_limit`` (Hill's rule).

Off the frontier (a hidden cell with no revealed neighbour) every cell has the same mine
probability, so on an open board the look-ahead's candidates are hundreds of cells, and
each that is not isolated (``risk.iso_key``) costs its own what-ifs. D. Hill's
JSMinesweeper scores only some of them, which this reproduces (its idea, our code):

* none at all unless their safety is above 0.95 x the best safety on the frontier
  (and the frontier holds no certainly safe cell);
* all of them when fewer than 30 cells are off the frontier;
* else those two cells from a revealed cell with hidden neighbours, orthogonally (at
  mine density above 0.4 among the hidden cells, with the total told: anywhere on the
  ring of cells two steps away), and those with 2 or 3 hidden neighbours (corners,
  nooks).

The rule only narrows the look-ahead's choice; it is a heuristic of the search, not of
the probabilities. If it would leave no candidate the candidates are kept as they were.
Measured (docs/DESIGN.md): 0.62x the time per Expert game, -0.06 +- 0.09 points.
"""
import numpy as np

from ...engine.env import hidden_left, mines_left_known, nb_hidden, ncells, status
from ...jit import njit
from ...engine.layout import C_W2, F_NBR, F_NNB, HIDDEN, REVEALED

FEW = 30  # fewer cells than this off the frontier: score them all
INCLUDE = 0.95  # off the frontier only if safer than this x the frontier's best


@njit(cache=True)
def on_frontier(S, c):
    """Whether hidden cell ``c`` has a revealed neighbour."""
    for k in range(S[c, F_NNB]):
        if status(S, S[c, F_NBR + k]) == REVEALED:
            return True
    return False


@njit(cache=True)
def _witness(S, r, k, h, w):
    """Whether (r, k) is on the board, revealed, and has a hidden neighbour."""
    if r < 0 or r >= h or k < 0 or k >= w:
        return False
    d = r * w + k
    return status(S, d) == REVEALED and nb_hidden(S, d) > 0


@njit(cache=True)
def _promising(S, c, h, w, ring):
    """Two steps from a witness (orthogonally, or anywhere on the ring), or 2-3 hidden
    neighbours."""
    r, k = c // w, c % w
    for dr in range(-2, 3):
        for dk in range(-2, 3):
            if abs(dr) != 2 and abs(dk) != 2:
                continue  # not on the ring
            if not ring and dr != 0 and dk != 0:
                continue  # orthogonal steps only
            if _witness(S, r + dr, k + dk, h, w):
                return True
    hc = nb_hidden(S, c)
    return 1 < hc < 4


@njit(cache=True)
def limit_offedge(S, pcell, cells):
    """``cells`` (hidden cells, any order) without the off-frontier cells the rule above
    leaves out, in the same order; ``cells`` itself if none would remain."""
    n = ncells(S)
    w = S[n, C_W2] - 2
    h = n // w
    off = 0
    best_on = -1.0
    off_safe = 0.0
    for c in range(n):
        if status(S, c) == HIDDEN:
            if on_frontier(S, c):
                best_on = max(best_on, 1.0 - pcell[c])
            else:
                off += 1
                off_safe = 1.0 - pcell[c]
    if off == 0 or best_on < 0.0:
        return cells  # one kind of cell only: nothing to choose between
    include = best_on < 1.0 and off_safe > INCLUDE * best_on
    ml = mines_left_known(S)
    ring = ml >= 0 and ml * 5 > hidden_left(S) * 2
    out = np.empty(cells.size, np.int64)
    m = 0
    for c in cells:
        if on_frontier(S, c) or (include and (off < FEW or _promising(S, c, h, w, ring))):
            out[m] = c
            m += 1
    if m == 0:
        return cells
    return out[:m]


@njit(cache=True)
def reveal_distance(S):
    """Each cell's distance in king moves to the nearest revealed cell (a breadth-first
    search from all of them; 10**6 when none is revealed). ``far_ties`` orders equally
    safe candidates by it, farthest first: a reveal far from the revealed region can open
    a second one, which the corner opening measured worth more later (docs/DESIGN.md)."""
    n = ncells(S)
    d = np.full(n, 10**6, np.int64)
    queue = np.empty(n, np.int64)
    tail = 0
    for c in range(n):
        if status(S, c) == REVEALED:
            d[c] = 0
            queue[tail] = c
            tail += 1
    head = 0
    while head < tail:
        c = queue[head]
        head += 1
        for k in range(S[c, F_NNB]):
            e = S[c, F_NBR + k]
            if d[e] > d[c] + 1:
                d[e] = d[c] + 1
                queue[tail] = e
                tail += 1
    return d

"""Deduction without counting when every clue is a one-sided bound (one-sided noise).

Under detector noise with p_neg = 0 (a mined neighbour is always counted, a safe one
sometimes) a shown clue s allows exactly the true counts 0..s: each constraint says "at
most u mines among my hidden neighbours". With p_pos = 0 instead (a safe neighbour is never
counted, a mined one sometimes missed) each says "at least l". A deduction-only analysis
asks which layouts are possible, not how likely, so only these supports matter, and they
make the possible layouts a family closed under removing a mine (every constraint an
upper bound: "down") or under adding one (every one a lower bound: "up"). Then:

* down: the empty layout is possible; a cell can be a mine iff the layout with it alone
  is possible, i.e. every constraint it touches allows u >= 1. So the certain cells are
  the safe ones of the constraints with u = 0, and there is no certain mine.
* up: the layout with every frontier cell mined is possible; a cell can be safe iff that
  layout without it is possible. The certain cells are the mines of the constraints
  with l = its hidden neighbours, and there is no certain safe cell.

That is the whole deduction, read off one pass over the constraints, where the counting
DP (``count.py``) has nothing to prune with such clues and counts every component whole
(it made noise-aware ``inference`` take seconds a 30 x 30 game under one-sided noise).

With the mine total the same witnesses (the layouts named above, the unconstrained cells
taking the rest) stay possible when the total leaves room for them: 1 <= M <= U - 1
(down) or F + 1 <= M <= F + U - 1 (up), for M mines left, U unconstrained cells and F
frontier cells. Otherwise, or when the constraints are of mixed kinds (hard clues with a
positive value are both bounds at once), :func:`one_sided_deduction` answers -1 and the
counting analysis runs. ``tests/test_one_sided.py`` checks it against the counting
analysis on random positions.
"""
import numpy as np

from ..jit import njit
from .frontier import CB_DED, CB_K, CB_NK, CB_SIZE, CK_B, CK_NB, CK_VAL, is_soft

DOWN = 1  # every constraint: at most u mines
UP = 2  # every constraint: at least l mines


@njit(cache=True)
def one_sided_deduction(fr, bym, hidden, mleft):
    """Mark ``fr.box[:, CB_DED]`` (1 safe, 2 mine, 0 neither) when every constraint of
    frontier ``fr`` is a one-sided bound of one kind (see the module); ``bym``: the mine
    total is used, ``hidden`` the hidden cells (frontier and unconstrained), ``mleft``
    the mines left.
    Returns DOWN or UP when it decided the position, -1 when the caller must count
    (mixed bounds, a constraint with no possible count, or a total that may matter).
    """
    ncon = fr.ncon
    lo = np.empty(ncon, np.int64)
    hi = np.empty(ncon, np.int64)
    cells = np.empty(ncon, np.int64)  # each constraint's hidden neighbours
    kind = DOWN | UP
    for k in range(ncon):
        nh = 0
        for j in range(fr.con[k, CK_NB]):
            nh += fr.box[fr.con[k, CK_B + j], CB_SIZE]
        cells[k] = nh
        if is_soft(fr, k):
            # the counts 0..nh its likelihood allows, which must be one interval
            a = -1
            b = -1
            for r in range(nh + 1):
                if fr.lik[k, r] > 0.0:
                    if a < 0:
                        a = r
                    elif b != r - 1:
                        return -1  # (a gap: no detector model makes one)
                    b = r
            if a < 0:
                return -1  # no count possible: the counting analysis says ST_CLUES
        else:
            a = fr.con[k, CK_VAL]
            b = a
            if a < 0 or a > nh:
                return -1
        lo[k] = a
        hi[k] = b
        if a > 0:
            kind &= ~DOWN
        if b < nh:
            kind &= ~UP
        if kind == 0:
            return -1
    fc = 0
    for b in range(fr.nbox):
        fc += fr.box[b, CB_SIZE]
    u = hidden - fc
    if kind & DOWN:
        kind = DOWN
        if bym and not (1 <= mleft <= u - 1):
            return -1
    else:
        kind = UP
        if bym and not (fc + 1 <= mleft <= fc + u - 1):
            return -1
    for b in range(fr.nbox):
        d = 0
        for j in range(fr.box[b, CB_NK]):
            k = fr.box[b, CB_K + j]
            if kind == DOWN and hi[k] == 0:
                d = 1
            elif kind == UP and lo[k] == cells[k]:
                d = 2
        fr.box[b, CB_DED] = d
    return kind

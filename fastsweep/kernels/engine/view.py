"""Knowledge typed in from a view (the inference API, the advisor): no board behind it.

``fill_state`` copies a view (-1 hidden, -2 known mine, 0..8 a clue) into a new state's
knowledge plane and checks each clue against its neighbours.
"""

from .env import clue, nb_hidden, nb_mines, recount, set_cell, status
from ..jit import njit
from .layout import C_FLAG, C_REV, F_NNB, FLAGGED, HIDDEN, REVEALED

HIDDEN_CODE = -1
MINE_CODE = -2


@njit(cache=True)
def fill_state(v, S):
    """Copy view ``v`` (int8 H x W, values already checked) into state ``S``; count
    hidden and known-mine neighbours. Returns (code, cell, known, hidden): code 0 ok,
    or 1/2/3 for the first clue that is larger than its neighbours / smaller than its
    known mines / needs more mines than its hidden neighbours."""
    h, w = v.shape
    n = h * w
    known = 0
    hidden = 0
    rev = 0
    for c in range(n):
        x = v[c // w, c % w]
        if x == HIDDEN_CODE:
            st = HIDDEN
            hidden += 1
        elif x == MINE_CODE:
            st = FLAGGED
            known += 1
        else:
            st = REVEALED
            rev += 1
        set_cell(S, c, st, max(x, 0))
    for c in range(n):
        recount(S, c)
    for c in range(n):
        if status(S, c) == REVEALED:
            x = clue(S, c)
            if x > S[c, F_NNB]:
                return 1, c, known, hidden
            if x < nb_mines(S, c):
                return 2, c, known, hidden
            if x - nb_mines(S, c) > nb_hidden(S, c):
                return 3, c, known, hidden
    S[n, C_REV] = rev
    S[n, C_FLAG] = known
    return 0, -1, known, hidden

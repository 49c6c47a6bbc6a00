"""Each clue of a knowledge state checked on its own, before counting: for the public API
(a view typed in, ``fastsweep.inference``) and a user agent's knowledge built move by move
(``fastsweep.user.observation.Knowledge``), one check for both.

The counting (``count.analyse``) sees only the clues with hidden neighbours. Under exact
clues a clue whose neighbours are all known agrees with them; under a noisy sensor (or
after a flag on a safe cell) it may not, and nothing else would notice.
"""
from ..engine.env import ncells, w_blank, w_clue, w_hidden, w_mines, w_status, word
from ..engine.layout import F_NNB, HIDDEN, REVEALED
from ..jit import njit


@njit(cache=True)
def clue_problem(S):
    """(code, cell, known mines, hidden cells) of state ``S``: code 0 if every clue
    (a revealed cell with a usable clue, not a blank) agrees with its neighbours on its
    own, else 1/2/3 for the lowest cell whose clue is larger than its number of
    neighbours / smaller than its known-mine neighbours / needs more mines than its
    hidden neighbours hold (the codes of ``engine.view.fill_state``)."""
    n = ncells(S)
    known = 0
    hidden = 0
    code = 0
    cell = -1
    for c in range(n):
        w = word(S, c)
        st = w_status(w)
        if st == HIDDEN:
            hidden += 1
        elif st != REVEALED:
            known += 1  # flagged or detonated
        elif code == 0 and not w_blank(w):
            x = w_clue(w)
            if x > S[c, F_NNB]:
                code = 1
            elif x < w_mines(w):
                code = 2
            elif x - w_mines(w) > w_hidden(w):
                code = 3
            if code:
                cell = c
    return code, cell, known, hidden

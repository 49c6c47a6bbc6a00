"""Isolated hidden cells: those that, with their hidden neighbours, touch no clue.

Why a module of its own: several what-if users share it (``whatif.base.outcome_table``, the
``risk`` agent, ``pseq`` and ``lookahead``). Observing v at an isolated cell adds one
component of its own (its hidden neighbours, v less its known mines) and touches no other,
so its what-ifs depend only on its class (hidden and known-mine neighbours): they are
counted once per class.
"""
from ...engine.env import nb_hidden, nb_mines
from ...engine.env import status as cell_status
from ...engine.layout import F_NBR, F_NNB, HIDDEN, REVEALED
from ...jit import njit

N_KEYS = 9 * 9  # isolated-cell classes: hidden neighbours x known-mine neighbours


@njit(cache=True)
def isolated(S, c):
    """Whether hidden cell ``c`` and its hidden neighbours touch no revealed cell."""
    for k in range(S[c, F_NNB]):
        d = S[c, F_NBR + k]
        st = cell_status(S, d)
        if st == REVEALED:
            return False
        if st == HIDDEN:
            for j in range(S[d, F_NNB]):
                if cell_status(S, S[d, F_NBR + j]) == REVEALED:
                    return False
    return True


@njit(cache=True)
def iso_key(S, c):
    """The class of hidden cell ``c``'s what-ifs: hidden x 9 + known-mine neighbours if it
    is isolated (:func:`isolated`), else -1. Observing v at an isolated cell adds one
    component of its own (its hidden neighbours, v less its known mines) and touches no
    other, so ``whatif.whatif_logw`` does the same sums for every cell of a class."""
    if not isolated(S, c):
        return -1
    return nb_hidden(S, c) * 9 + nb_mines(S, c)

"""Unavoidable 50/50s for the ``lookahead`` agent: pairs, 2x2 blocks, linked sets.

A *link* is a revealed clue with exactly two hidden neighbours and one mine left among
them: in every layout exactly one of the two is a mine. Links join hidden cells into
sets; a set's links colour its cells in two classes A and B (a cell and its partner get
different classes), so every layout holds one of exactly two patterns on the set: A all
mines and B all safe, or the reverse.

The set is an *unavoidable 50/50* when swapping the two patterns keeps every clue that
exists or can ever exist: |A| = |B| (the mine total is kept), and every cell outside the
set that is next to it and not a known mine (hidden: a clue it may show once revealed;
revealed: a clue shown) has as many neighbours in A as in B. Then the swap maps the
layouts holding one pattern one to one onto those holding the other, with the same
weight and the same value on every cell outside the set, present or future: the two
patterns are equally likely now and for ever, and some cell of the set must be guessed
at even odds. Guessing it now costs nothing and its answer is information.

* a pair (two cells, one link): every other cell next to exactly one of them must be a
  known mine or off the board (``fifty_set(..., blocks=False)`` finds only these);
* a 2x2 block linked on its sides: the two diagonals are the patterns; the cells on its
  sides see one cell of each, its four outer corners must be known mines or off the
  board;
* any other linked set that passes the test (none other was met in the tests' shapes:
  a line of cells fails it, as a cell beside the line's middle sees two cells of one
  class and one of the other).

Sets are found in the order of their first link's clue (cell order); the first that
passes is returned.
"""
import numpy as np

from ...engine.env import mines_left, nb_hidden, ncells, status, word
from ...jit import njit
from ...engine.layout import F_NBR, F_NNB, HIDDEN, REVEALED

HALF_TOL = 1e-9  # a set's cells must be at 0.5 (a check on the certificate, never a proof)


@njit(cache=True)
def _link_cells(S, w):
    """The two hidden neighbours of clue ``w`` if it is a link, else (-1, -1)."""
    if status(S, w) != REVEALED or nb_hidden(S, w) != 2 or mines_left(word(S, w)) != 1:
        return -1, -1
    a = -1
    b = -1
    for k in range(S[w, F_NNB]):
        d = S[w, F_NBR + k]
        if status(S, d) == HIDDEN:
            if a < 0:
                a = d
            else:
                b = d
    return a, b


@njit(cache=True)
def fifty_set(S, pcell, blocks):
    """The first unavoidable 50/50 (module notes) as (cells, colours): int64 arrays, the
    cells of the set in the order they were reached and their class (0 or 1), the
    cell of the first link first; empty arrays if there is none. ``blocks`` False: pairs
    only (sets of two cells)."""
    n = ncells(S)
    w = 0
    while w < n and _link_cells(S, w)[0] < 0:
        w += 1
    if w == n:  # no link (most positions): nothing to allocate
        return np.empty(0, np.int64), np.empty(0, np.int64)
    nl = np.zeros(n, np.int64)
    lk = np.empty((n, 8), np.int64)  # a cell's links: at most one per clue next to it
    for w in range(w, n):
        a, b = _link_cells(S, w)
        if a >= 0:
            lk[a, nl[a]] = b
            nl[a] += 1
            lk[b, nl[b]] = a
            nl[b] += 1
    colour = np.full(n, -1, np.int64)
    setof = np.full(n, -1, np.int64)  # the first link's clue of the set a cell was put in
    diff = np.zeros(n, np.int64)
    cells = np.empty(n, np.int64)
    for w in range(n):
        a, _ = _link_cells(S, w)
        if a < 0 or colour[a] >= 0:
            continue  # not a link, or its set was tried already
        colour[a] = 0
        setof[a] = w
        cells[0] = a
        m = 1
        ok = True
        i = 0
        while i < m:  # breadth first over the links, colouring
            x = cells[i]
            i += 1
            for j in range(nl[x]):
                y = lk[x, j]
                if colour[y] < 0:
                    colour[y] = 1 - colour[x]
                    setof[y] = w
                    cells[m] = y
                    m += 1
                elif colour[y] == colour[x]:
                    ok = False  # an odd cycle: no layout agrees (not a 50/50)
        if not ok or (m > 2 and not blocks):
            continue
        ones = 0
        for i in range(m):
            ones += colour[cells[i]]
            if abs(pcell[cells[i]] - 0.5) > HALF_TOL:
                ok = False
        if not ok or 2 * ones != m:
            continue
        # every cell next to the set, outside it and not a known mine, sees as many
        # cells of one class as of the other
        for i in range(m):
            x = cells[i]
            s = 1 - 2 * colour[x]
            for k in range(S[x, F_NNB]):
                diff[S[x, F_NBR + k]] += s
        for i in range(m):
            x = cells[i]
            for k in range(S[x, F_NNB]):
                d = S[x, F_NBR + k]
                st = status(S, d)
                if diff[d] != 0 and setof[d] != w and (st == HIDDEN or st == REVEALED):
                    ok = False
        for i in range(m):
            x = cells[i]
            for k in range(S[x, F_NNB]):
                diff[S[x, F_NBR + k]] = 0
        if ok:
            return cells[:m].copy(), colour[cells[:m]]
    return np.empty(0, np.int64), np.empty(0, np.int64)


@njit(cache=True)
def partner(S, cells, colours, c):
    """A cell of the set ``cells`` in the other class than ``c``, next to it if one is
    (for a pair: the other cell): the one the trace names."""
    other = -1
    for i in range(cells.size):
        if cells[i] == c:
            mine = colours[i]
    for i in range(cells.size):
        if colours[i] != mine:
            for k in range(S[c, F_NNB]):
                if S[c, F_NBR + k] == cells[i]:
                    return cells[i]
            if other < 0:
                other = cells[i]
    return other

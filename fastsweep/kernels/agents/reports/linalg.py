"""The reports' linear-algebra reduction (the ``linalg`` and ``linalg-plus`` agents).

Rele, Raman, Eng and Patel (Rutgers, 2019) write one equation per revealed clue that has
hidden neighbours (coefficient 1 on each hidden neighbour, right-hand side the clue minus
its known-mine neighbours) and, when the agent knows the mine total, one more over every
hidden cell (= mines left); they bring the system to reduced row echelon form and read
decisions off its rows:

* ``linalg``: a row with a single nonzero coefficient decides its cell (right-hand side
  0: safe; equal to the coefficient: a mine);
* ``linalg-plus`` (the CS440 report's variant): also a row whose right-hand side equals
  the sum of its positive coefficients (those cells are mines, the negative ones safe) or
  the sum of its negative coefficients (those mines, the positive ones safe).

Arithmetic is exact: fraction-free Gauss-Jordan elimination on int64 rows, each row
divided by the gcd of its entries after every update. Both rules are invariant under
scaling a row, so an integer row decides exactly what its rational RREF row (pivot 1)
decides. Every row at every stage is an integer combination of the equations, so a
decision from it is sound even if the reduction is cut short.

Columns: the frontier cells (hidden, next to a revealed cell) in cell order, then the
unconstrained hidden cells (only in the mine-total row). Those last columns are all equal
(1 in the total row, 0 elsewhere), and row operations keep equal columns equal, so they
are held as one aggregate column ``U`` standing for ``u`` equal copies: the RREF is the
same as with ``u`` explicit columns (the decision rules count the copies).

Overflow guard: every entry is kept below 2**31 in magnitude, so an update
``a * x - b * y`` (a, b, x, y all below 2**31) stays below 2**63. A row whose entries
would leave that range after its gcd division is dropped (sound: less information) and
the analysis is counted in ``C_APPROX``; so is a position whose matrix would exceed
``MAX_ENTRIES`` (no reduction at all: the agent guesses). Neither happened in any game
measured (see the tests).

This module is the full reduction of one position (:func:`decide`). The agents' move keeps
the reduced system across moves and brings only the changes into it (``linalg_inc.py``:
the same rows, so the same decisions); it reduces in full on a game's first move, where
the kept rows could differ from these (overflow, noisy clues) and as the reference of
its check mode.
"""
import numpy as np

from ...engine.env import (
    mines_left, mines_left_known, ncells, w_hidden, w_mines, w_status, word,
)
from ...jit import njit
from ...engine.layout import C_KMINES, F_NBR, F_NNB, HIDDEN, REVEALED

LIMIT = 1 << 31  # entries stay below this in magnitude (see the module notes)
MAX_ENTRIES = 1 << 24  # largest matrix (rows x columns) reduced; beyond it: no reduction

DEC_SAFE = 1
DEC_MINE = 2


@njit(cache=True, inline="always")
def gcd(a, b):
    if a < 0:
        a = -a
    if b < 0:
        b = -b
    while b != 0:
        a, b = b, a % b
    return a


@njit(cache=True)
def eliminate(M, rhs, lo, hi, nrows, ncols):
    """Gauss-Jordan elimination of ``M[:nrows]`` (row i nonzero only in columns
    ``lo[i]..hi[i]``, the rest undefined) with right-hand sides ``rhs``, in place.
    Returns the number of rows dropped by the overflow guard."""
    dropped = 0
    r = 0
    rows = np.arange(nrows)  # rows[t]: the matrix row in position t (swaps permute it)
    for j in range(ncols):
        if r >= nrows:
            break
        # the pivot: the smallest nonzero magnitude in column j among rows r..
        best = -1
        bv = 0
        for t in range(r, nrows):
            i = rows[t]
            if lo[i] <= j <= hi[i]:
                v = abs(M[i, j])
                if v != 0 and (best < 0 or v < bv):
                    best = t
                    bv = v
        if best < 0:
            continue
        p = rows[best]
        rows[best] = rows[r]
        rows[r] = p
        pv = M[p, j]
        for t in range(nrows):
            if t == r:
                continue
            i = rows[t]
            if not (lo[i] <= j <= hi[i]) or M[i, j] == 0:
                continue
            g = gcd(pv, M[i, j])
            a = pv // g
            b = M[i, j] // g
            nlo = min(lo[i], lo[p])
            nhi = max(hi[i], hi[p])
            for k in range(nlo, lo[i]):  # widen row i's band: zeros first
                M[i, k] = 0
            for k in range(hi[i] + 1, nhi + 1):
                M[i, k] = 0
            gg = 0
            first = -1
            last = -1
            for k in range(nlo, nhi + 1):
                x = a * M[i, k]
                if lo[p] <= k <= hi[p]:
                    x -= b * M[p, k]
                M[i, k] = x
                if x != 0:
                    if first < 0:
                        first = k
                    last = k
                    gg = gcd(gg, x)
            y = a * rhs[i] - b * rhs[p]
            gg = gcd(gg, y)
            if gg > 1:
                y //= gg
            rhs[i] = y
            big = abs(y) >= LIMIT
            if first < 0:
                lo[i] = 1
                hi[i] = 0  # an empty row (0 = y: consistent knowledge gives y = 0)
                continue
            for k in range(first, last + 1):
                if gg > 1:
                    M[i, k] //= gg
                if abs(M[i, k]) >= LIMIT:
                    big = True
            lo[i] = first
            hi[i] = last
            if big:  # the overflow guard: forget this row (sound, see the notes)
                lo[i] = 1
                hi[i] = 0
                rhs[i] = 0
                dropped += 1
        r += 1
    return dropped


@njit(cache=True)
def build(S):
    """The system of ``S``'s knowledge: (status, M, rhs, lo, hi, nrows, ncols, cellof,
    colof, u, ucol). status 0: built; 1: no rows or no columns (nothing to reduce); 2:
    larger than MAX_ENTRIES (not built). Row i of ``M`` is nonzero only in columns
    ``lo[i]..hi[i]``; ``cellof[k]`` is column k's cell (k < number of frontier cells),
    ``colof[c]`` cell c's column or -1; ``u`` the unconstrained hidden cells, ``ucol``
    their aggregate column or -1."""
    n = ncells(S)
    colof = np.full(n, -1, np.int64)
    cellof = np.empty(n, np.int64)
    nf = 0
    u = 0
    nrows = 0
    for c in range(n):
        w = word(S, c)
        st = w_status(w)
        if st == HIDDEN:
            if S[c, F_NNB] - w_hidden(w) - w_mines(w) > 0:  # a revealed neighbour
                colof[c] = nf
                cellof[nf] = c
                nf += 1
            else:
                u += 1
        elif st == REVEALED and w_hidden(w) > 0:
            nrows += 1
    total = S[n, C_KMINES] >= 0 and nf + u > 0
    if total:
        nrows += 1
    ucol = nf if (total and u > 0) else -1  # the aggregate column of unconstrained cells
    ncols = nf + (1 if ucol >= 0 else 0)
    status = 0
    if nrows == 0 or ncols == 0:
        status = 1
    elif nrows * ncols > MAX_ENTRIES:
        status = 2
    if status != 0:
        nrows = 0  # (nothing built)
    M = np.empty((nrows, ncols), np.int64)
    rhs = np.empty(nrows, np.int64)
    lo = np.empty(nrows, np.int64)
    hi = np.empty(nrows, np.int64)
    if status != 0:
        return status, M, rhs, lo, hi, nrows, ncols, cellof, colof, u, ucol
    i = 0
    for c in range(n):
        w = word(S, c)
        if w_status(w) != REVEALED or w_hidden(w) <= 0:  # (a blank: <= 0)
            continue
        a = ncols
        b = -1
        for k in range(S[c, F_NNB]):
            j = colof[S[c, F_NBR + k]]
            if j >= 0:
                a = min(a, j)
                b = max(b, j)
        for k in range(a, b + 1):
            M[i, k] = 0
        for k in range(S[c, F_NNB]):
            j = colof[S[c, F_NBR + k]]
            if j >= 0:
                M[i, j] = 1
        lo[i] = a
        hi[i] = b
        rhs[i] = mines_left(w)
        i += 1
    if total:
        for k in range(ncols):
            M[i, k] = 1
        lo[i] = 0
        hi[i] = ncols - 1
        rhs[i] = mines_left_known(S)
    return status, M, rhs, lo, hi, nrows, ncols, cellof, colof, u, ucol


@njit(cache=True, inline="always")
def row_rule(nz, pos, neg, y, plus):
    """The rule a row fires (``nz`` cells with a nonzero coefficient, ``pos`` / ``neg``
    the sums of the positive / negative coefficients, right-hand side ``y``): 1 / -1 the
    positive / negative coefficients' cells are mines and the others safe; 2 every cell
    a mine; 3 every cell safe; 0 none. Scale-invariant (also under a negative scale)."""
    if nz == 1:
        if y == 0:
            return 3
        if y == pos + neg:
            return 2
        return 0
    if plus:
        if y == pos:
            return 1
        if y == neg:
            return -1
    return 0


@njit(cache=True, inline="always")
def verdict(mines_sign, x):
    """DEC_MINE / DEC_SAFE: a cell of coefficient ``x`` in a row firing ``mines_sign``."""
    mine = mines_sign == 2 or (mines_sign != 3 and (x > 0) == (mines_sign == 1))
    return DEC_MINE if mine else DEC_SAFE


@njit(cache=True)
def read_rows(S, M, rhs, lo, hi, nrows, cellof, colof, u, ucol, plus, ded):
    """The decisions of the reduced rows into ``ded`` (see :func:`decide`). Returns (cells
    decided, the largest magnitude in the rows)."""
    n = ncells(S)
    decided = 0
    biggest = 0
    for i in range(nrows):
        if lo[i] > hi[i]:
            continue
        nz = 0
        pos = 0
        neg = 0
        for k in range(lo[i], hi[i] + 1):
            x = M[i, k]
            biggest = max(biggest, abs(x))
            if x == 0:
                continue
            copies = u if k == ucol else 1
            nz += copies
            if x > 0:
                pos += x * copies
            else:
                neg += x * copies
        biggest = max(biggest, abs(rhs[i]))
        mines_sign = row_rule(nz, pos, neg, rhs[i], plus)
        if mines_sign == 0:
            continue
        for k in range(lo[i], hi[i] + 1):
            x = M[i, k]
            if x == 0:
                continue
            v = verdict(mines_sign, x)
            if k == ucol:
                for c in range(n):
                    if colof[c] < 0 and w_status(word(S, c)) == HIDDEN and ded[c] == 0:
                        ded[c] = v
                        decided += 1
            elif ded[cellof[k]] == 0:
                ded[cellof[k]] = v
                decided += 1
    return decided, biggest


@njit(cache=True)
def decide(S, plus, ded):
    """The reduction on ``S``'s knowledge, from scratch: ``ded[c]`` (int8, N, zeroed)
    becomes DEC_SAFE / DEC_MINE for each hidden cell the RREF decides (``plus``: the
    linalg-plus rules too). Returns (cells decided, cut short: 1 if the overflow guard
    dropped a row or the matrix was too large, else 0, the largest magnitude in the
    reduced matrix)."""
    status, M, rhs, lo, hi, nrows, ncols, cellof, colof, u, ucol = build(S)
    if status == 1:
        return 0, 0, 0
    if status == 2:
        return 0, 1, 0
    cut = 1 if eliminate(M, rhs, lo, hi, nrows, ncols) > 0 else 0
    decided, biggest = read_rows(S, M, rhs, lo, hi, nrows, cellof, colof, u, ucol, plus,
                                 ded)
    return decided, cut, biggest

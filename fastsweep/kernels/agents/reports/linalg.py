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
"""
import numpy as np

from ...engine.actions import act_flat
from ...engine.env import (
    flat, mines_left, mines_left_known, ncells, w_hidden, w_mines, w_status, word,
)
from ...jit import njit
from ...engine.layout import (
    A_FLAG, A_REVEAL, C_APPROX, C_KMINES, F_NBR, F_NNB, F_PLANE, HIDDEN, R_LINALG_MINE,
    R_LINALG_SAFE, REVEALED,
)

LIMIT = 1 << 31  # entries stay below this in magnitude (see the module notes)
MAX_ENTRIES = 1 << 24  # largest matrix (rows x columns) reduced; beyond it: no reduction

DEC_SAFE = 1
DEC_MINE = 2


@njit(cache=True, inline="always")
def _gcd(a, b):
    if a < 0:
        a = -a
    if b < 0:
        b = -b
    while b != 0:
        a, b = b, a % b
    return a


@njit(cache=True)
def _reduce(M, rhs, lo, hi, nrows, ncols):
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
            g = _gcd(pv, M[i, j])
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
                    gg = _gcd(gg, x)
            y = a * rhs[i] - b * rhs[p]
            gg = _gcd(gg, y)
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
def decide(S, plus, ded):
    """The reduction on ``S``'s knowledge: ``ded[c]`` (int8, N, zeroed) becomes DEC_SAFE
    / DEC_MINE for each hidden cell the RREF decides (``plus``: the linalg-plus rules
    too). Returns (cells decided, cut short: 1 if the overflow guard dropped a row or the
    matrix was too large, else 0, the largest magnitude in the reduced matrix)."""
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
    if nrows == 0 or ncols == 0:
        return 0, 0, 0
    if nrows * ncols > MAX_ENTRIES:
        return 0, 1, 0
    M = np.empty((nrows, ncols), np.int64)
    rhs = np.empty(nrows, np.int64)
    lo = np.empty(nrows, np.int64)
    hi = np.empty(nrows, np.int64)
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
    cut = 1 if _reduce(M, rhs, lo, hi, nrows, ncols) > 0 else 0
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
        y = rhs[i]
        # the rule that fires: 1 / -1 the positive / negative coefficients' cells are
        # mines and the others safe; 2 every cell a mine; 3 every cell safe
        mines_sign = 0
        if nz == 1:
            if y == 0:
                mines_sign = 3
            elif y == pos + neg:
                mines_sign = 2
        elif plus:
            if y == pos:
                mines_sign = 1
            elif y == neg:
                mines_sign = -1
        if mines_sign == 0:
            continue
        for k in range(lo[i], hi[i] + 1):
            x = M[i, k]
            if x == 0:
                continue
            mine = mines_sign == 2 or (mines_sign != 3 and (x > 0) == (mines_sign == 1))
            v = DEC_MINE if mine else DEC_SAFE
            if k == ucol:
                for c in range(n):
                    if colof[c] < 0 and w_status(word(S, c)) == HIDDEN and ded[c] == 0:
                        ded[c] = v
                        decided += 1
            elif ded[cellof[k]] == 0:
                ded[cellof[k]] = v
                decided += 1
    return decided, cut, biggest


@njit(cache=True)
def linalg_move(S, plus, stop_on_detonation):
    """The agent's move once the rules are exhausted: act on every cell the reduction
    decides (flags, then reveals, in cell order); none: a random guess in the guess order
    (done by the caller when this returns 0). Returns the number of actions, or -1 if a
    detonation ended the game (impossible for sound decisions; counted by ``act``)."""
    n = ncells(S)
    ded = np.zeros(n, np.int8)
    decided, cut, _ = decide(S, plus, ded)
    if cut:
        S[n, C_APPROX] += 1
    if decided == 0:
        return 0
    F = flat(S)
    acted = 0
    for c in range(n):
        if ded[c] == DEC_MINE:
            act_flat(F, S[c, F_PLANE], A_FLAG, R_LINALG_MINE, -1, decided)
            acted += 1
    for c in range(n):
        if ded[c] == DEC_SAFE:
            acted += 1
            if act_flat(F, S[c, F_PLANE], A_REVEAL, R_LINALG_SAFE, -1, decided) == -1:
                if stop_on_detonation:
                    return -1
    return acted

"""Between the full linalg reduction and the rows kept across moves (``linalg_inc.py``):
:func:`seed` runs the full reduction and keeps its rows when they are the exact reduced
row echelon form; :func:`check_rows` (the internal check mode, for tests) compares the kept
rows and their decisions with a full reduction of the same knowledge."""
import numpy as np

from ...engine.env import ncells, w_hidden, w_mines, w_status, word
from ...engine.layout import C_KMINES, F_NNB, HIDDEN, REVEALED
from ...jit import njit
from .linalg import build, decide, eliminate, read_rows
from .linalg_rows import (
    F_LEN, F_PIV, F_RHS, F_ST, F_START, H_HW, H_TOLD, H_U, H_UCOL, H_VALID, K_FREE,
    K_FRONT, K_MINE, K_SAFE, RF, ST_LIVE, W_META, W_POOL, W_ROWS, buf_at, clear, cls_at,
    entry, new_slot, piv_at, put,
)


@njit(cache=True, inline="always")
def _cell(k, cellof, ucol, n):
    """The stored column (a cell, or N for the aggregate) of the full matrix's column k."""
    return n if k == ucol else cellof[k]


@njit(cache=True)
def seed(ws, S, plus, ded, keep):
    """The full reduction's decisions (``linalg.decide``: (decided, cut)); with ``keep``,
    its rows become the stored system when they are exact: no row dropped, consistent
    (no row reduced to 0 = y, y != 0), within MAX_ENTRIES. Else nothing is stored and
    the next move reduces in full again."""
    n = ncells(S)
    status, M, rhs, lo, hi, nrows, ncols, cellof, colof, u, ucol = build(S)
    if status == 2:
        return 0, 1
    decided = 0
    cut = 0
    if status == 0:
        cut = 1 if eliminate(M, rhs, lo, hi, nrows, ncols) > 0 else 0
        decided, _ = read_rows(S, M, rhs, lo, hi, nrows, cellof, colof, u, ucol, plus, ded)
    if not keep or cut:
        return decided, cut
    for i in range(nrows):
        if lo[i] > hi[i] and rhs[i] != 0:
            return decided, cut
    clear(ws, n)
    meta = ws[W_META]
    c0 = cls_at(n)
    p0 = piv_at(n)
    for c in range(n):
        w = word(S, c)
        st = w_status(w)
        if st == HIDDEN:
            meta[c0 + c] = K_FRONT if S[c, F_NNB] - w_hidden(w) - w_mines(w) > 0 else K_FREE
        else:
            meta[c0 + c] = K_SAFE if st == REVEALED else K_MINE
    b0 = buf_at(n)
    for i in range(nrows):
        if lo[i] > hi[i]:
            continue
        s = new_slot(ws)
        m = 0
        for k in range(lo[i], hi[i] + 1):
            if M[i, k] != 0:
                meta[b0 + 2 * m] = _cell(k, cellof, ucol, n)
                meta[b0 + 2 * m + 1] = M[i, k]
                m += 1
        put(ws, s, b0, m, rhs[i])  # (primitive already: unchanged)
        lead = meta[b0]
        R = ws[W_ROWS]
        R[s * RF + F_PIV] = lead
        R[s * RF + F_ST] = ST_LIVE
        meta[p0 + lead] = s
    meta[H_U] = u
    meta[H_UCOL] = 1 if ucol >= 0 else 0
    meta[H_TOLD] = 1 if S[n, C_KMINES] >= 0 else 0
    meta[H_VALID] = 1
    return decided, cut


@njit(cache=True)
def check_rows(ws, S, plus, ded, decided):
    """Raise AssertionError unless the stored rows are the full reduction's rows of
    ``S``'s knowledge up to sign, and ``ded`` / ``decided`` its decisions."""
    n = ncells(S)
    ded2 = np.zeros(n, np.int8)
    d2, cut2, _ = decide(S, plus, ded2)
    if cut2 != 0 or d2 != decided or not np.array_equal(ded, ded2):
        raise AssertionError("linalg: the kept system decides otherwise than the full one")
    status, M, rhs, lo, hi, nrows, ncols, cellof, colof, u, ucol = build(S)
    if status == 0:
        eliminate(M, rhs, lo, hi, nrows, ncols)
    meta = ws[W_META]
    R = ws[W_ROWS]
    pool = ws[W_POOL]
    if meta[H_U] != u or meta[H_UCOL] != (1 if ucol >= 0 else 0):
        raise AssertionError("linalg: the kept system has other columns")
    live = 0
    for s in range(meta[H_HW]):
        if R[s * RF + F_ST] == ST_LIVE:
            live += 1
            lead = pool[R[s * RF + F_START]]
            if meta[piv_at(n) + lead] != s or R[s * RF + F_PIV] != lead:
                raise AssertionError("linalg: a kept row's pivot is not its leading column")
    for i in range(nrows):
        if lo[i] > hi[i]:
            continue
        live -= 1
        lead = _cell(lo[i], cellof, ucol, n)
        s = meta[piv_at(n) + lead]
        if s < 0:
            raise AssertionError("linalg: a pivot of the full reduction is not kept")
        sign = 1 if (M[i, lo[i]] > 0) == (entry(R, pool, s, lead) > 0) else -1
        nz = 0
        for k in range(lo[i], hi[i] + 1):
            if M[i, k] != 0:
                nz += 1
            if entry(R, pool, s, _cell(k, cellof, ucol, n)) != sign * M[i, k]:
                raise AssertionError("linalg: a kept row differs from the full reduction's")
        if nz != R[s * RF + F_LEN] or R[s * RF + F_RHS] != sign * rhs[i]:
            raise AssertionError("linalg: a kept row differs from the full reduction's")
    if live != 0:
        raise AssertionError("linalg: the kept system has other rows than the full one")

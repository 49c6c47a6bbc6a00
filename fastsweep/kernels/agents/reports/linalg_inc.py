"""The linalg agents' move with the reduced system kept across moves (incremental
elimination): after a move only the changed knowledge is brought into it.

Why it decides exactly what the full reduction (``linalg.decide``) decides: the reduced
row echelon form of a rational system is unique (for a given column order: the cell
order, the aggregate column last), both keep every row primitive (divided by its gcd),
so both hold the same rows up to sign, and the rules are invariant under a row's scale.
That needs the same row space, consistent knowledge and no row dropped by the overflow
guard; wherever one of these is not certain, the move falls back to the full reduction:

* the first move of a game, and any move after the stored system was invalidated;
* an update whose entries would reach ``LIMIT`` (the full reduction then decides,
  dropping rows as it always did, and counts it in ``C_APPROX``);
* noisy clues (``C_NOISE``): a clue can be dropped (a row leaves the system) and the
  knowledge can contradict itself (the full reduction's rows then depend on its pivot
  order), so every such move is the full reduction;
* a matrix over ``MAX_ENTRIES`` (no reduction, counted, as in the full reduction).

One case is beyond this: a full reduction that would drop a row (an intermediate entry
of its own pivot order reaching LIMIT) while the kept rows stay below it; the kept rows
are then the exact RREF and decide more (soundly). No full reduction has dropped a row
in any game measured (tests/test_linalg.py, tests/test_linalg_incremental.py).

The row space after a move: knowledge only grows (exact clues). A cell that became known
is a column substituted out (revealed: 0, flagged or detonated: 1; right-hand sides
move); a newly revealed clue adds its row; an unconstrained cell that gained a revealed
neighbour leaves the aggregate column N for its own column, equal to column N's entries
(the aggregate stands for equal columns); the last one leaving removes column N. Every
old row so transformed is the old equation over the current knowledge, and the total's
row stays the total over the hidden cells: the span is that of the current system.

A live row loses its echelon form only where its pivot column is substituted out or
removed, or a new column is set left of its pivot: such rows become pending and are
re-inserted (``linalg_rows.insert``), like the new clue rows.
"""
import numpy as np

from ...engine.actions import act_flat
from ...engine.env import flat, mines_left, ncells, w_hidden, w_mines, w_status, word
from ...engine.layout import (
    A_FLAG, A_REVEAL, C_AGENT_CACHE, C_APPROX, C_KMINES, C_NOISE, F_NBR, F_NNB, F_PLANE,
    HIDDEN, R_LINALG_MINE, R_LINALG_SAFE, REVEALED,
)
from ...jit import njit
from .linalg import DEC_MINE, DEC_SAFE, MAX_ENTRIES, decide, row_rule, verdict
from .linalg_check import check_rows, seed
from .linalg_rows import (
    F_LEN, F_PIV, F_RHS, F_ST, F_START, H_FULL, H_HW, H_TOLD, H_U, H_UCOL, H_VALID, K_FREE,
    K_FRONT, K_MINE, K_SAFE, RF, ST_LIVE, ST_PEND, W_META, W_POOL, W_ROWS, buf_at, cls_at,
    insert, new_slot, normalize, piv_at, prepare, put,
)

MODE_INCREMENTAL = 0  # params[P_BUDGET] of the linalg agents (an internal switch):
MODE_FULL = -1  # the full reduction at every move
MODE_CHECK = -2  # incremental, and checked against the full reduction at every move

UPD_OK = 0
UPD_LARGE = 1  # the system is over MAX_ENTRIES: no reduction (cut short)
UPD_FAIL = -1  # fall back to the full reduction


@njit(cache=True)
def _unpivot(R, meta, p0, s):
    """Live row ``s`` leaves the echelon form (pending re-insertion)."""
    if R[s * RF + F_ST] == ST_LIVE:
        meta[p0 + R[s * RF + F_PIV]] = -1
        R[s * RF + F_PIV] = -1
        R[s * RF + F_ST] = ST_PEND


@njit(cache=True)
def _update(ws, S, n):
    """Bring the stored system up to ``S``'s knowledge (see the module notes). Returns
    (UPD_*, rows of the full system, its columns)."""
    meta = ws[W_META]
    c0 = cls_at(n)
    p0 = piv_at(n)
    told = 1 if S[n, C_KMINES] >= 0 else 0
    if told != meta[H_TOLD]:
        return UPD_FAIL, 0, 0
    # the changes since the last analysis, from each cell's class
    sub = np.empty(n, np.int64)  # frontier cells now known (value in bit 0: mine)
    ns = 0
    usum = 0  # unconstrained cells now known: how many, and the mines among them
    un = 0
    ins = np.empty(n, np.int64)  # unconstrained cells now on the frontier (cell order)
    ni = 0
    new = np.empty(n, np.int64)  # newly revealed cells with hidden neighbours
    nn = 0
    nf = 0
    u = 0
    nclue = 0
    for c in range(n):
        w = word(S, c)
        st = w_status(w)
        if st == HIDDEN:
            k = K_FRONT if S[c, F_NNB] - w_hidden(w) - w_mines(w) > 0 else K_FREE
            if k == K_FRONT:
                nf += 1
            else:
                u += 1
        elif st == REVEALED:
            k = K_SAFE
            if w_hidden(w) > 0:
                nclue += 1
        else:
            k = K_MINE
        old = meta[c0 + c]
        if k == old:
            continue
        meta[c0 + c] = k
        mine = 1 if k == K_MINE else 0
        if old == K_FRONT and k != K_FREE:
            sub[ns] = 2 * c + mine
            ns += 1
        elif old == K_FREE and k == K_FRONT:
            ins[ni] = c
            ni += 1
        elif old == K_FREE:
            un += 1
            usum += mine
        else:  # a known cell changed, or a frontier cell lost its revealed neighbours
            return UPD_FAIL, 0, 0
        if k == K_SAFE and w_hidden(w) > 0:
            new[nn] = c
            nn += 1
    ucol = meta[H_UCOL]
    if meta[H_U] - un - ni != u:
        return UPD_FAIL, 0, 0
    nrows = nclue + (1 if told == 1 and nf + u > 0 else 0)
    ncols = nf + (1 if told == 1 and u > 0 else 0)
    if nrows * ncols > MAX_ENTRIES:
        return UPD_LARGE, nrows, ncols
    # substitute the known cells and move the cells leaving the aggregate column
    mark = np.zeros(n + 1, np.int8)  # frontier cells now known: 1 safe, 2 mine
    for i in range(ns):
        mark[sub[i] >> 1] = 1 + (sub[i] & 1)
    b0 = buf_at(n)
    R = ws[W_ROWS]
    for s in range(meta[H_HW]):
        o = s * RF
        if R[o + F_ST] != ST_LIVE and R[o + F_ST] != ST_PEND:
            continue
        pool = ws[W_POOL]
        base = R[o + F_START]
        m = R[o + F_LEN]
        touched = False
        if ns > 0:
            for i in range(m):
                c = pool[base + 2 * i]
                if mark[c] != 0:
                    R[o + F_RHS] -= (mark[c] - 1) * pool[base + 2 * i + 1]
                    pool[base + 2 * i + 1] = 0  # (normalize drops the pair)
                    touched = True
                    if R[o + F_PIV] == c:
                        _unpivot(R, meta, p0, s)
        if ucol == 1 and m > 0 and pool[base + 2 * (m - 1)] == n:
            y = pool[base + 2 * (m - 1) + 1]
            R[o + F_RHS] -= usum * y  # unconstrained cells now known: copies substituted
            if ni > 0:  # cells leaving the aggregate: their columns are copies of it
                if R[o + F_PIV] > ins[0]:
                    _unpivot(R, meta, p0, s)
                k = 0
                j = 0
                for i in range(m - 1):  # merge the row (column N last) with ins
                    c = pool[base + 2 * i]
                    while j < ni and ins[j] < c:
                        meta[b0 + 2 * k] = ins[j]
                        meta[b0 + 2 * k + 1] = y
                        k += 1
                        j += 1
                    meta[b0 + 2 * k] = c
                    meta[b0 + 2 * k + 1] = pool[base + 2 * i + 1]
                    k += 1
                while j < ni:
                    meta[b0 + 2 * k] = ins[j]
                    meta[b0 + 2 * k + 1] = y
                    k += 1
                    j += 1
                if u > 0:
                    meta[b0 + 2 * k] = n
                    meta[b0 + 2 * k + 1] = y
                    k += 1
                elif R[o + F_PIV] == n:
                    _unpivot(R, meta, p0, s)
                if put(ws, s, b0, k, R[o + F_RHS]) < 0:
                    return UPD_FAIL, 0, 0
            elif u == 0:  # the last one left: no aggregate column any more
                pool[base + 2 * (m - 1) + 1] = 0
                if R[o + F_PIV] == n:
                    _unpivot(R, meta, p0, s)
            touched = True
        if touched and normalize(ws, s) < 0:
            return UPD_FAIL, 0, 0
    if u == 0:
        meta[H_UCOL] = 0
    meta[H_U] = u
    # the pending rows and the new clues' rows into the echelon form
    for s in range(meta[H_HW]):
        if R[s * RF + F_ST] == ST_PEND:
            if not 0 <= insert(ws, s, n) <= 1:  # (contradiction or overflow)
                return UPD_FAIL, 0, 0
    for i in range(nn):
        c = new[i]
        s = new_slot(ws)
        R = ws[W_ROWS]
        k = 0
        for j in range(S[c, F_NNB]):
            d = S[c, F_NBR + j]
            if w_status(word(S, d)) == HIDDEN:  # (insertion sort: columns in cell order)
                t = k
                while t > 0 and meta[b0 + 2 * (t - 1)] > d:
                    meta[b0 + 2 * t] = meta[b0 + 2 * (t - 1)]
                    t -= 1
                meta[b0 + 2 * t] = d
                meta[b0 + 2 * t + 1] = 1
                k += 1
        put(ws, s, b0, k, mines_left(word(S, c)))
        if not 0 <= insert(ws, s, n) <= 1:  # (contradiction or overflow)
            return UPD_FAIL, 0, 0
    return UPD_OK, nrows, ncols


@njit(cache=True)
def _read(ws, n, plus, ded):
    """The decisions of the stored rows into ``ded`` (as ``linalg.read_rows``)."""
    meta = ws[W_META]
    R = ws[W_ROWS]
    pool = ws[W_POOL]
    c0 = cls_at(n)
    u = meta[H_U]
    decided = 0
    for s in range(meta[H_HW]):
        o = s * RF
        if R[o + F_ST] != ST_LIVE:
            continue
        base = R[o + F_START]
        m = R[o + F_LEN]
        nz = 0
        pos = 0
        neg = 0
        for i in range(m):
            x = pool[base + 2 * i + 1]
            copies = u if pool[base + 2 * i] == n else 1
            nz += copies
            if x > 0:
                pos += x * copies
            else:
                neg += x * copies
        mines_sign = row_rule(nz, pos, neg, R[o + F_RHS], plus)
        if mines_sign == 0:
            continue
        for i in range(m):
            k = pool[base + 2 * i]
            v = verdict(mines_sign, pool[base + 2 * i + 1])
            if k == n:
                for c in range(n):
                    if meta[c0 + c] == K_FREE and ded[c] == 0:
                        ded[c] = v
                        decided += 1
            elif ded[k] == 0:
                ded[k] = v
                decided += 1
    return decided


@njit(cache=True)
def decide_ws(S, plus, ded, ws, mode):
    """``linalg.decide``'s decisions and cut (no largest magnitude) from the system kept
    in ``ws`` (``mode``: MODE_*). Returns (cells decided, cut short 0/1)."""
    n = ncells(S)
    if mode < 0 and mode != MODE_CHECK:  # (MODE_FULL; budgets >= 0 are not read)
        decided, cut, _ = decide(S, plus, ded)
        return decided, cut
    prepare(ws, n)
    meta = ws[W_META]
    if S[n, C_AGENT_CACHE] == 0:  # a new game: the stored system is another game's
        meta[H_VALID] = 0
        S[n, C_AGENT_CACHE] = 1
    if S[n, C_NOISE] == 0 and meta[H_VALID] == 1:
        st, nrows, ncols = _update(ws, S, n)
        if st == UPD_LARGE:
            meta[H_VALID] = 0
            return 0, 1
        if st == UPD_OK:
            decided = 0
            if nrows > 0 and ncols > 0:
                decided = _read(ws, n, plus, ded)
            if mode == MODE_CHECK:
                check_rows(ws, S, plus, ded, decided)
            return decided, 0
        meta[H_VALID] = 0
    # the full reduction, its rows kept for the next move when they are the exact RREF
    meta[H_FULL] += 1
    decided, cut = seed(ws, S, plus, ded, S[n, C_NOISE] == 0)
    return decided, cut


@njit(cache=True)
def linalg_move(S, plus, stop_on_detonation, ws, mode):
    """The agent's move once the rules are exhausted: act on every cell the reduction
    decides (flags, then reveals, in cell order); none: a random guess in the guess order
    (done by the caller when this returns 0). ``ws``: the family's workspace, ``mode``
    MODE_* (``params[P_BUDGET]``). Returns the number of actions, or -1 if a detonation
    ended the game (impossible for sound decisions; counted by ``act``)."""
    n = ncells(S)
    ded = np.zeros(n, np.int8)
    decided, cut = decide_ws(S, plus, ded, ws, mode)
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

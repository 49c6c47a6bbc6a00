"""The reports' brute-force enumeration (the ``bruteforce`` and ``linalg-bruteforce`` agents).

Rele, Raman, Eng and Patel (Rutgers, 2019) split the frontier into independent pieces,
enumerate every mine layout of each piece that agrees with its clues, and read off each
cell's share of those layouts: a share of 0 or 1 decides the cell, otherwise the agent
reveals the cell of lowest share (or a cell away from the frontier when that looks
safer). This module and ``brute_step.py`` do exactly that, after the single-clue rules:
steps 1-4 here (:func:`analyse`), step 5 and the agents' move there.

1. Frontier: hidden cells with a revealed neighbour. Two frontier cells are in one
   component when they share a clue (a revealed cell with hidden neighbours); a clue's
   constraint is that its hidden neighbours hold exactly its mines left (clue minus
   known-mine neighbours). Every clue lies inside one component.
2. Components of more than ``max_component`` cells are skipped (their cells get no
   share; a step that skips one is counted in ``C_APPROX``). Each other component is
   enumerated by backtracking: cells in a greedy order that finishes clues early (next:
   a cell of the clue with the fewest cells still unordered), each assignment checked
   against every clue it touches (mines still needed between 0 and the cells still
   unassigned), so every leaf is a consistent layout. Per mine count k it tallies the
   layouts ``cnt[k]`` and, per cell, the layouts with that cell a mine.
3. Told the mine total (L = mines left): ``min_c`` = fewest mines of component c's
   layouts (0 for a skipped component); component c keeps only its layouts with
   k <= L - sum of the other components' min_c. Without the total every layout is kept.
4. A cell's share = (kept layouts with it a mine) / (kept layouts), unweighted: every
   layout counts once, whatever the rest of the board (no binomial weighting for the
   cells outside the component; this is the report's method, so the share is not the
   mine probability). Shares of 0 / 1 decide: every such cell is acted on (flags first,
   then reveals, cell order; reasons R_BRUTE_MINE / R_BRUTE_SAFE, a = cells decided).
5. No certain cell: p* = the lowest share (ties within ``brute_step.TIE_RTOL``: the
   earliest cell of the guess order, as ``policies.guess_lowest``). Told the total, with U the off-frontier
   hidden cells (no revealed neighbour) and t = (L - sum of all min_c) / |U|: reveal the
   p* cell if U is empty or p* < t, else the first off-frontier cell of the guess order.
   Without the total the agent has no t: it reveals the p* cell. No component enumerated
   (no frontier, or all skipped): a random guess (``local.guess_in_order``).

Pinned down here (the project's definition; the report's text was not checked line by
line): the cell order, ties, skipping large components, and the trace: the off-frontier
guess is R_BRUTE_GUESS with ref -2 and probability t (a frontier guess: ref -1 and p*),
not R_RANDOM, since it need not be the first hidden cell of the guess order, which is
what a "random guess" promises. t is the largest possible mean of mines per off-frontier
cell (every enumerated component at its fewest, skipped ones at none).
"""
from collections import namedtuple

import numpy as np

from ...engine.bits import lowest_bit
from ...engine.env import (
    flat, mines_left, mines_left_known, ncells, w_hidden, w_mask, w_status, word,
)
from ...jit import njit
from ...engine.layout import (
    C_KMINES, C_OFF, C_P, C_PLANEOF, F_NBR, F_NNB, HIDDEN, PH_COUNT, REVEALED, WK_ANALYSES,
    WK_COMPONENTS, WK_COMP_MAX, WK_STATES,
)
from ...engine.work import count_work, enter, leave, max_work

#: Result of :func:`analyse`: frontier components ``enumerated`` and ``skipped`` (larger
#: than the largest enumerated), cells ``decided``, ``summin`` the sum of the enumerated
#: components' fewest mines, ``u`` the off-frontier hidden cells.
Enumeration = namedtuple("Enumeration", "enumerated skipped decided summin u")

DEC_SAFE = 1
DEC_MINE = 2

@njit(cache=True)
def _find(parent, x):
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@njit(cache=True)
def _enumerate(S, cells, m, clues, ncl, locof, cnt, cm, row0, memb, memb_n, rem, unk, left,
               order, state, val):
    """Tally every consistent layout of the component of ``m`` cells ``cells`` (cell
    order; ``locof[cell]`` = its index there) whose clues are ``clues[:ncl]``:
    ``cnt[k]`` layouts with k mines, ``cm[row0 + j, k]`` of them with cell j a mine.
    The rest is scratch (at least ``m`` / ``ncl`` long; ``memb`` m x 8)."""
    memb_n[:m] = 0  # clues of each cell (at most 8)
    unk[:ncl] = 0  # cells still unassigned
    for i in range(ncl):
        c = clues[i]
        rem[i] = mines_left(word(S, c))
        for k in range(S[c, F_NNB]):
            d = S[c, F_NBR + k]
            if w_status(word(S, d)) == HIDDEN:
                j = locof[d]
                memb[j, memb_n[j]] = i
                memb_n[j] += 1
                unk[i] += 1
    # the order: next, a cell of the clue with the fewest cells left unordered
    # (partly ordered clues first among equals), so clues are finished early
    left[:ncl] = unk[:ncl]
    val[:m] = 0  # (here: 1 once placed in the order)
    for s in range(m):
        best = -1
        bs = 1 << 30
        for j in range(m):
            if val[j]:
                continue
            sc = 1 << 30
            for t in range(memb_n[j]):
                i = memb[j, t]
                x = 2 * left[i] - (1 if left[i] < unk[i] else 0)
                if x < sc:
                    sc = x
            if sc < bs:
                bs = sc
                best = j
        val[best] = 1
        order[s] = best
        for t in range(memb_n[best]):
            left[memb[best, t]] -= 1
    # depth-first search; state[i]: 0 untried, 1 tried safe, 2 tried mine
    mines = val  # (reused) the cells set to mines, a stack
    state[0] = 0
    i = 0
    k = 0
    while i >= 0:
        if i == m:
            cnt[k] += 1
            for t in range(k):  # the mines, in the order they were set
                cm[row0 + mines[t], k] += 1
            i -= 1
            continue
        j = order[i]
        s = state[i]
        if s > 0:  # undo the value tried last
            v = s - 1
            for t in range(memb_n[j]):
                q = memb[j, t]
                unk[q] += 1
                rem[q] += v
            k -= v  # (a mine undone is the last one set: mines is a stack)
            if s == 2:
                state[i] = 0
                i -= 1
                continue
        v = s
        state[i] = s + 1
        ok = True
        for t in range(memb_n[j]):
            q = memb[j, t]
            unk[q] -= 1
            rem[q] -= v
            if rem[q] < 0 or rem[q] > unk[q]:
                ok = False
        if v:
            mines[k] = j
        k += v
        if ok:
            i += 1
            state[i] = 0


@njit(cache=True)
def analyse(S, maxc, ded, share):
    """Steps 1-4 on ``S``'s knowledge: ``share[c]`` (float64, N, NaN-filled) becomes each
    enumerated cell's share and ``ded[c]`` (int8, N, zeroed) DEC_SAFE / DEC_MINE where it
    is 0 / 1. Returns an :data:`Enumeration`."""
    n = ncells(S)
    F = flat(S)
    planeof = S[n, C_PLANEOF]
    two_p = 2 * S[n, C_P]  # the cell of the word at flat index p is at p + 2P (cell_of)
    parent = np.full(n, -1, np.int64)  # union-find over frontier cells (cell-indexed)
    rank = np.zeros(n, np.int8)
    clues = np.empty(n, np.int64)  # clues (revealed, with hidden neighbours), cell order
    nclue = 0
    hid = 0
    for c in range(n):
        w = F[F[planeof + c]]
        st = w_status(w)
        if st == HIDDEN:
            hid += 1
        elif st == REVEALED and w_hidden(w) > 0:
            clues[nclue] = c
            nclue += 1
    if nclue == 0:
        return Enumeration(0, 0, 0, 0, hid)
    first = np.empty(nclue, np.int64)  # a hidden neighbour of each clue
    for i in range(nclue):
        p = F[planeof + clues[i]]
        mask = w_mask(F[p])  # the hidden neighbours
        r0 = -1
        while mask != 0:
            d = F[p + S[n, C_OFF + lowest_bit(mask)] + two_p]
            mask &= mask - 1
            if parent[d] < 0:
                parent[d] = d  # a frontier cell
            r = _find(parent, d)
            if r0 < 0:
                r0 = r
                first[i] = d
            elif r != r0:  # union by rank
                if rank[r] > rank[r0]:
                    r, r0 = r0, r
                parent[r] = r0
                if rank[r] == rank[r0]:
                    rank[r0] += 1
    front = np.empty(n, np.int64)  # frontier cells, in cell order
    nf = 0
    for c in range(n):
        if parent[c] >= 0:
            front[nf] = c
            nf += 1
    u = hid - nf
    # components: numbered by their first cell, members in cell order (counting sort)
    root = np.empty(nf, np.int64)
    for i in range(nf):
        root[i] = _find(parent, front[i])
    idof = np.empty(n, np.int64)  # each root's component id (cell-indexed)
    idof[root] = -1
    ncomp = 0
    for i in range(nf):
        if idof[root[i]] < 0:
            idof[root[i]] = ncomp
            ncomp += 1
    cid = parent  # (reused: the union-find is done) each frontier cell's component id
    mstart = np.zeros(ncomp + 1, np.int64)  # sizes, then where each one's members start
    for i in range(nf):
        cid[front[i]] = idof[root[i]]
        mstart[cid[front[i]] + 1] += 1
    for b in range(ncomp):
        mstart[b + 1] += mstart[b]
    members = np.empty(nf, np.int64)
    fill = mstart[:ncomp].copy()
    locof = np.empty(n, np.int64)
    for i in range(nf):
        c = front[i]
        b = cid[c]
        members[fill[b]] = c
        locof[c] = fill[b] - mstart[b]
        fill[b] += 1
    cstart = np.zeros(ncomp + 1, np.int64)
    for i in range(nclue):
        cstart[cid[first[i]] + 1] += 1
    ncmax = 1  # the most clues of a component
    for b in range(ncomp):
        ncmax = max(ncmax, cstart[b + 1])
        cstart[b + 1] += cstart[b]
    cfill = cstart[:ncomp].copy()
    cclues = np.empty(nclue, np.int64)
    for i in range(nclue):
        b = cid[first[i]]
        cclues[cfill[b]] = clues[i]
        cfill[b] += 1
    # enumerate the components that are small enough
    row0 = np.full(ncomp, -1, np.int64)
    ne = 0
    for b in range(ncomp):
        m = mstart[b + 1] - mstart[b]
        if m <= maxc:
            row0[b] = ne
            ne += m
    cnt = np.zeros((ncomp, maxc + 1), np.int64)
    cm = np.zeros((ne, maxc + 1), np.int64)
    enumerated = 0
    skipped = 0
    summin = 0
    kmin = np.zeros(ncomp, np.int64)
    memb = np.empty((maxc, 8), np.int64)  # the enumeration's scratch
    memb_n = np.empty(maxc, np.int64)
    order = np.empty(maxc, np.int64)
    state = np.empty(maxc + 1, np.int8)
    val = np.empty(maxc, np.int64)
    rem = np.empty(ncmax, np.int64)
    unk = np.empty(ncmax, np.int64)
    left = np.empty(ncmax, np.int64)
    ph = enter(S, PH_COUNT)  # (the profile's phase clocks: the enumeration counts)
    for b in range(ncomp):
        m = mstart[b + 1] - mstart[b]
        if row0[b] < 0:
            skipped += 1
            continue
        _enumerate(S, members[mstart[b]:mstart[b + 1]], m, cclues[cstart[b]:cstart[b + 1]],
                   cstart[b + 1] - cstart[b], locof, cnt[b], cm, row0[b], memb, memb_n, rem,
                   unk, left, order, state, val)
        enumerated += 1
        k = 0
        while k < m and cnt[b, k] == 0:
            k += 1
        kmin[b] = k
        summin += k
        # the profile's work counters (engine/work.py): a component, its cells, the
        # layouts it found
        count_work(S, WK_COMPONENTS, 1)
        max_work(S, WK_COMP_MAX, m)
        found = 0
        for k in range(m + 1):
            found += cnt[b, k]
        count_work(S, WK_STATES, min(found, 2 ** 30))
    count_work(S, WK_ANALYSES, 1)
    leave(S, ph)
    told = S[n, C_KMINES] >= 0
    L = mines_left_known(S)
    decided = 0
    for b in range(ncomp):
        if row0[b] < 0:
            continue
        m = mstart[b + 1] - mstart[b]
        cap = min(m, L - (summin - kmin[b])) if told else m
        kept = 0
        for k in range(cap + 1):
            kept += cnt[b, k]
        if kept == 0:
            continue  # inconsistent knowledge: no share
        for j in range(m):
            c = members[mstart[b] + j]
            mm = 0
            for k in range(cap + 1):
                mm += cm[row0[b] + j, k]
            share[c] = mm / kept
            if mm == 0 or mm == kept:
                ded[c] = DEC_SAFE if mm == 0 else DEC_MINE
                decided += 1
    return Enumeration(enumerated, skipped, decided, summin, u)

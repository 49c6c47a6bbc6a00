"""The frontier of a position: constraints, boxes, components and an elimination order.

* A constraint is a revealed clue with hidden neighbours: the sum of its hidden
  neighbours equals clue - known-mine neighbours.
* A box is a set of hidden cells touching exactly the same constraints: one variable
  (0..size mines, C(size, m) ways). Every box lies inside one clue's neighbourhood, so it
  has at most 8 cells and 8 constraints.
* Components are the connected groups of boxes and constraints; they are counted apart.
* Each component gets an order for the dynamic programme in ``count.py``: boxes are taken
  greedily so that few constraints are "open" (touched by boxes on both sides of the cut)
  at any time; every open constraint owns a 4-bit slot of the DP state key.

Tables are int32 2-D arrays with named columns (one array argument per table: see the
note on reference counting in env.py). ``S[:, F_AUX]`` maps a revealed cell to its
constraint id and a hidden cell to its box id (-1: none).
"""
from collections import namedtuple

import numpy as np

from ..engine.env import mines_left, nb_mines, ncells, status, w_hidden, w_status, word
from ..jit import njit
from ..engine.layout import F_AUX, F_NBR, F_NNB, HIDDEN, REVEALED


# constraint table columns
CK_CELL = 0
CK_VAL = 1  # clue - known-mine neighbours
CK_NB = 2  # number of boxes
CK_B = 3  # .. CK_B + 7: box ids
CK_COMP = 11
CK_SLOT = 12
CK_LEN = 13

# box table columns
CB_SIZE = 0
CB_NK = 1  # number of constraints
CB_K = 2  # .. +7: constraint ids (ascending)
CB_C = 10  # .. +7: cells
CB_COMP = 18
CB_OPEN = 19  # bit q set: constraint q of this box is first touched by this box (DP order)
CB_CAP = 20  # .. +7: cells of constraint q's boxes still to come after this box
CB_SLOT = 28  # .. +7: state slot of constraint q
CB_REF = 36  # a clue cell of the box (for traces)
CB_NCLUE = 37  # clues in the box's component (for traces)
CB_DED = 38  # result: 0 undetermined, 1 safe, 2 mine
CB_LEN = 39

MAX_SLOTS = 32  # two 64-bit words of 4-bit residuals


@njit(cache=True)
def build_frontier(S):
    """Constraints and boxes of the position in ``S``: returns (con, box, ncon, nbox).
    Every cell that is neither a constraint nor in a box gets ``S[c, F_AUX] = -1``."""
    n = ncells(S)
    ncon = 0
    for c in range(n):
        w = word(S, c)
        if w_status(w) == REVEALED and w_hidden(w) > 0:
            ncon += 1
    clues = np.empty(ncon, np.int32)
    j = 0
    for c in range(n):
        S[c, F_AUX] = -1
        w = word(S, c)
        if w_status(w) == REVEALED and w_hidden(w) > 0:
            clues[j] = c
            j += 1
    return build_from(S, clues, ncon)


@njit(cache=True)
def build_from(S, clues, ncon):
    """Constraints and boxes of the clues ``clues[:ncon]`` (ascending cells, each a
    revealed cell with hidden neighbours). The set must be closed (every clue next to a
    hidden neighbour of one of them is in it), so it covers whole components, numbered
    as in a full build. Their hidden neighbours must have ``F_AUX < 0``; only these
    cells' and the clues' ``F_AUX`` are written."""
    n = ncells(S)
    con = np.empty((ncon, CK_LEN), np.int32)
    for j in range(ncon):
        c = clues[j]
        S[c, F_AUX] = j
        con[j, CK_CELL] = c
        con[j, CK_VAL] = mines_left(word(S, c))  # clue - known-mine neighbours
        con[j, CK_NB] = 0
    box = np.empty((max(1, min(n, 8 * ncon)), CB_LEN), np.int32)
    nbox = 0
    for j in range(ncon):
        c = con[j, CK_CELL]
        nn = S[c, F_NNB]
        for a in range(nn):
            d = S[c, F_NBR + a]
            if status(S, d) != HIDDEN or S[d, F_AUX] >= 0:
                continue
            b = nbox
            nbox += 1
            nk = 0
            for q in range(S[d, F_NNB]):
                e = S[d, F_NBR + q]
                if status(S, e) == REVEALED and S[e, F_AUX] >= 0:
                    box[b, CB_K + nk] = S[e, F_AUX]
                    nk += 1
            box[b, CB_NK] = nk
            box[b, CB_C] = d
            box[b, CB_REF] = c
            S[d, F_AUX] = b
            size = 1
            # the other cells of d's box all neighbour clue c: look only there
            for a2 in range(a + 1, nn):
                d2 = S[c, F_NBR + a2]
                if status(S, d2) != HIDDEN or S[d2, F_AUX] >= 0:
                    continue
                m = 0
                same = True
                for q in range(S[d2, F_NNB]):
                    e = S[d2, F_NBR + q]
                    if status(S, e) == REVEALED and S[e, F_AUX] >= 0:
                        if m >= nk or box[b, CB_K + m] != S[e, F_AUX]:
                            same = False
                            break
                        m += 1
                if same and m == nk:
                    box[b, CB_C + size] = d2
                    S[d2, F_AUX] = b
                    size += 1
            box[b, CB_SIZE] = size
            for q in range(nk):
                k = box[b, CB_K + q]
                con[k, CK_B + con[k, CK_NB]] = b
                con[k, CK_NB] += 1
    return con, box, ncon, nbox


@njit(cache=True)
def order_components(con, box, ncon, nbox):
    """Label components and order each one's boxes for the DP.

    Returns (order, cstart, ncomp, width): boxes of component i are
    ``order[cstart[i]:cstart[i + 1]]`` in DP order; ``width[i]`` is the largest number of
    simultaneously open constraints (slots). Fills CB_COMP, CB_OPEN, CB_CAP, CB_SLOT,
    CB_NCLUE and CK_COMP, CK_SLOT.
    """
    order = np.empty(max(nbox, 1), np.int32)
    cstart = np.empty(nbox + 1, np.int32)
    width = np.zeros(max(nbox, 1), np.int32)
    for b in range(nbox):
        box[b, CB_COMP] = -1
    for k in range(ncon):
        con[k, CK_COMP] = -1
        con[k, CK_SLOT] = -1
    # scratch: per constraint, unprocessed boxes and remaining capacity; per box, state
    krem = np.empty(max(ncon, 1), np.int32)
    kcap = np.empty(max(ncon, 1), np.int32)
    bstate = np.zeros(max(nbox, 1), np.int8)  # 0 new, 1 candidate, 2 placed
    queue = np.empty(max(nbox, 1), np.int32)
    cand = np.empty(max(nbox, 1), np.int32)
    ncomp = 0
    pos = 0
    for b0 in range(nbox):
        if box[b0, CB_COMP] >= 0:
            continue
        # BFS labels the component; its last box is far from b0: a good start
        qh = 0
        qt = 1
        queue[0] = b0
        box[b0, CB_COMP] = ncomp
        nclue = 0
        while qh < qt:
            b = queue[qh]
            qh += 1
            for q in range(box[b, CB_NK]):
                k = box[b, CB_K + q]
                if con[k, CK_COMP] < 0:
                    con[k, CK_COMP] = ncomp
                    nclue += 1
                    krem[k] = con[k, CK_NB]
                    cap = 0
                    for r in range(con[k, CK_NB]):
                        b2 = con[k, CK_B + r]
                        cap += box[b2, CB_SIZE]
                        if box[b2, CB_COMP] < 0:
                            box[b2, CB_COMP] = ncomp
                            queue[qt] = b2
                            qt += 1
                    kcap[k] = cap
        for i in range(qt):
            box[queue[i], CB_NCLUE] = nclue
        cstart[ncomp] = pos
        # greedy order: among boxes touching open constraints, the one that opens the
        # fewest new constraints net of those it closes (keeps the DP state small)
        start = queue[qt - 1]
        ncand = 1
        cand[0] = start
        bstate[start] = 1
        freeslots = np.int64(0xFFFFFFFF)  # bit i set: slot i free
        used = 0
        wmax = 0
        for _ in range(qt):
            best = -1
            bscore = 1 << 30
            bi = -1
            for i in range(ncand):
                b = cand[i]
                sc = 0
                for q in range(box[b, CB_NK]):
                    k = box[b, CB_K + q]
                    if con[k, CK_SLOT] < 0:
                        sc += 1
                    if krem[k] == 1:
                        sc -= 1
                if sc < bscore:
                    bscore = sc
                    best = b
                    bi = i
            # remove best from the candidate list, keeping the others' order (ties go
            # to the oldest candidate, which follows the frontier around)
            for i in range(bi, ncand - 1):
                cand[i] = cand[i + 1]
            ncand -= 1
            b = best
            bstate[b] = 2
            order[pos] = b
            pos += 1
            openbits = 0
            for q in range(box[b, CB_NK]):
                k = box[b, CB_K + q]
                if con[k, CK_SLOT] < 0:
                    # lowest free slot
                    sl = 0
                    while sl < 64 and ((freeslots >> sl) & 1) == 0:
                        sl += 1
                    if sl >= MAX_SLOTS:
                        sl = MAX_SLOTS  # too wide: the caller approximates
                    else:
                        freeslots &= ~(np.int64(1) << sl)
                    con[k, CK_SLOT] = sl
                    openbits |= 1 << q
                    used += 1
                    if used > wmax:
                        wmax = used
                    for r in range(con[k, CK_NB]):
                        b2 = con[k, CK_B + r]
                        if bstate[b2] == 0:
                            bstate[b2] = 1
                            cand[ncand] = b2
                            ncand += 1
                kcap[k] -= box[b, CB_SIZE]
                krem[k] -= 1
                box[b, CB_CAP + q] = kcap[k]
                box[b, CB_SLOT + q] = con[k, CK_SLOT]
            box[b, CB_OPEN] = openbits
            for q in range(box[b, CB_NK]):
                k = box[b, CB_K + q]
                if krem[k] == 0:
                    sl = con[k, CK_SLOT]
                    if sl < MAX_SLOTS:
                        freeslots |= np.int64(1) << sl
                    used -= 1
        width[ncomp] = wmax
        ncomp += 1
    cstart[ncomp] = pos
    return order, cstart, ncomp, width


#: A position's frontier: the constraint and box tables and the components in DP order
#: (see :func:`build_frontier` and :func:`order_components`); ``lik`` (float64
#: (ncon, 9), or (0, 9) when every clue is hard) holds soft clues' likelihoods by the
#: mines among their hidden neighbours (NaN in column 0: a hard clue), see :func:`soften`.
Frontier = namedtuple("Frontier", "con box ncon nbox order cstart ncomp width lik")


@njit(cache=True, inline="always")
def span(fr, i):
    """Component ``i`` of ``fr``: (its first position in ``fr.order``, its number of
    boxes, its first entry in a per-component layer table such as ``Pool.lay``)."""
    b0 = fr.cstart[i]
    return b0, fr.cstart[i + 1] - b0, b0 + i


@njit(cache=True)
def component_clues(fr, i, loc):
    """The clues of component ``i``, each once, in the order its boxes first touch them.
    Writes each one's index in that list into ``loc`` (int, at least ``fr.ncon``) and
    returns the list (int64)."""
    b0, nb, _ = span(fr, i)
    box = fr.box
    for j in range(nb):
        b = fr.order[b0 + j]
        for q in range(box[b, CB_NK]):
            loc[box[b, CB_K + q]] = -1
    clues = np.empty(8 * nb, np.int64)
    nk = 0
    for j in range(nb):
        b = fr.order[b0 + j]
        for q in range(box[b, CB_NK]):
            k = box[b, CB_K + q]
            if loc[k] < 0:
                loc[k] = nk
                clues[nk] = k
                nk += 1
    return clues[:nk]


@njit(cache=True)
def frontier(S):
    """The whole frontier of the position in ``S`` as a :data:`Frontier`."""
    con, box, ncon, nbox = build_frontier(S)
    order, cstart, ncomp, width = order_components(con, box, ncon, nbox)
    return Frontier(con, box, ncon, nbox, order, cstart, ncomp, width,
                    np.zeros((0, 9), np.float64))


@njit(cache=True)
def frontier_of(S, clues, ncon):
    """The frontier of the closed clue set ``clues[:ncon]`` (see :func:`build_from`)."""
    con, box, ncon, nbox = build_from(S, clues, ncon)
    order, cstart, ncomp, width = order_components(con, box, ncon, nbox)
    return Frontier(con, box, ncon, nbox, order, cstart, ncomp, width,
                    np.zeros((0, 9), np.float64))


@njit(cache=True)
def soften(fr, S, soft):
    """``fr`` with soft clues: ``soft`` (float64 (N, 9)) row c is L(shown | t) for the true
    count t = 0..8 of clue cell c's mined neighbours (known mines included), NaN in
    column 0 for a hard clue. Returns a Frontier whose ``lik[k, r]`` is the likelihood
    of r mines among constraint k's hidden neighbours (NaN row: hard)."""
    lik = np.full((fr.ncon, 9), np.nan)
    for k in range(fr.ncon):
        c = fr.con[k, CK_CELL]
        if soft[c, 0] != soft[c, 0]:
            continue
        km = nb_mines(S, c)
        for r in range(9):
            lik[k, r] = soft[c, r + km] if r + km <= 8 else 0.0
    return Frontier(fr.con, fr.box, fr.ncon, fr.nbox, fr.order, fr.cstart, fr.ncomp,
                    fr.width, lik)


@njit(cache=True)
def informative(S, soft):
    """The soft frontier of the clues that can rule a layout out (``soft`` as in
    :func:`soften`): for deduction, which layouts are possible and not how likely, a soft
    clue whose likelihood is positive for every count its hidden neighbours can hold
    rules nothing out, so it is left out and its hidden neighbours count as cells next
    to no clue. Under two-sided detector noise that is every clue: the deduction-only
    analysis then has nothing to count, where the full one counts the whole frontier."""
    n = ncells(S)
    clues = np.empty(n, np.int32)
    k = 0
    for c in range(n):
        S[c, F_AUX] = -1
    for c in range(n):
        w = word(S, c)
        if w_status(w) != REVEALED or w_hidden(w) <= 0:
            continue
        if soft[c, 0] == soft[c, 0]:
            km = nb_mines(S, c)
            vacuous = True
            for r in range(w_hidden(w) + 1):
                if not soft[c, km + r] > 0.0:
                    vacuous = False
                    break
            if vacuous:
                continue
        clues[k] = c
        k += 1
    return soften(frontier_of(S, clues, k), S, soft)


@njit(cache=True, inline="always")
def clue_bounds(fr, k):
    """(fewest, most) mines among constraint k's hidden neighbours that its clue allows:
    its value for a hard clue; the support of its likelihood for a soft one."""
    if fr.lik.shape[0] == 0 or fr.lik[k, 0] != fr.lik[k, 0]:
        v = fr.con[k, CK_VAL]
        return v, v
    lo = 9
    hi = -1
    for r in range(9):
        if fr.lik[k, r] > 0.0:
            lo = min(lo, r)
            hi = max(hi, r)
    return lo, hi


@njit(cache=True, inline="always")
def is_soft(fr, k):
    return fr.lik.shape[0] > 0 and fr.lik[k, 0] == fr.lik[k, 0]

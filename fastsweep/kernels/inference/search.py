"""Complete deduction by search, for a component too large to count.

A box is certainly safe iff no layout that agrees with the clues puts a mine in it, and
certainly full of mines iff none leaves a cell of it free. Instead of counting layouts,
ask those questions directly: a depth-first search over the component's boxes (in its
path order, so each clue closes soon after it opens) with forward checking on every
clue (what is still needed fits in what is still unassigned), and on the component's
total when the mine total bounds it. Every layout found is a witness for all its boxes
at once, so most questions are answered by the first few layouts; only the boxes never
witnessed get a search of their own ("is there a layout with a mine here?").

Soft clues are held to the support of their likelihood. The search is exponential in
the worst case: it stops after ``nodes`` assignments and says so (the boxes it could
not decide stay undetermined, which is sound).
"""
from collections import namedtuple

import numpy as np

from .frontier import (
    CB_DED, CB_K, CB_NK, CB_SIZE, CK_B, CK_NB, clue_bounds, component_clues, is_soft, span,
)
from ..jit import njit

SEARCH_OK = 0
SEARCH_NONE = 1  # no layout agrees
SEARCH_LIMIT = 2  # stopped at the node limit: some boxes left undetermined

#: A component's clues for the propagation (:func:`_clues_of`): ``clues`` (the clue
#: indices), ``kbox`` (nk, 8) and ``kn`` each clue's boxes as local positions (in path
#: order) and their number, ``bclue`` (nb, 8) and ``bn`` each box's clues as local indices
#: and their number; ``queue`` and ``inq`` (nk + 1) the propagation's work list and its
#: membership flags (all 0 between calls); ``cells`` the component's cells.
ComponentClues = namedtuple("ComponentClues", "clues kbox kn bclue bn queue inq cells")


@njit(cache=True)
def _clues_of(fr, i):
    """Component ``i``'s clues and their boxes as local positions, and each box's clues as
    local indices: a :data:`ComponentClues`."""
    b0, nb, _ = span(fr, i)
    box = fr.box
    pos = np.full(fr.nbox, -1, np.int64)
    for t in range(nb):
        pos[fr.order[b0 + t]] = t
    seen = np.empty(fr.ncon, np.int64)
    clues = component_clues(fr, i, seen)
    nk = clues.shape[0]
    bclue = np.zeros((nb, 8), np.int64)
    bn = np.zeros(nb, np.int64)
    for t in range(nb):
        b = fr.order[b0 + t]
        for q in range(box[b, CB_NK]):
            bclue[t, bn[t]] = seen[box[b, CB_K + q]]
            bn[t] += 1
    kbox = np.zeros((nk, 8), np.int64)
    kn = np.zeros(nk, np.int64)
    for j in range(nk):
        k = clues[j]
        for r in range(fr.con[k, CK_NB]):
            kbox[j, kn[j]] = pos[fr.con[k, CK_B + r]]
            kn[j] += 1
    cells = 0
    for t in range(nb):
        cells += box[fr.order[b0 + t], CB_SIZE]
    return ComponentClues(clues, kbox, kn, bclue, bn, np.empty(nk + 1, np.int64),
                          np.zeros(nk + 1, np.uint8), cells)


@njit(cache=True)
def _propagate(fr, cl, lo, hi, total, trail, t0):
    """Tighten the boxes' count bounds ``lo``/``hi`` to a fixpoint of every clue's and
    the total's bounds (a work list of clues whose boxes changed; index nk: the total),
    pushing old bounds on ``trail`` = (rows, top). ``t0`` < 0: every clue is checked;
    else only box t0 changed since the bounds were last a fixpoint, and the work list
    starts from its clues and the total. Each clue's tightening is idempotent (one pass
    over a sum's boxes reaches its own bounds), so the fixpoint reached, the greatest
    one below the start, does not depend on the order: starting from box t0 gives the
    same bounds and the same contradictions as checking everything, in time local to
    the change instead of the whole component. A total that allows every count (0 to
    the component's cells) can neither tighten nor contradict: it is left out, so a
    step costs the clues of the boxes it changes, not a pass over every box. Returns
    False on a contradiction."""
    clues, kbox, kn, bclue, bn, queue, inq, cells = cl
    nk = clues.shape[0]
    last = nk if _vacuous(cl, total) else nk + 1  # (work-list entries: clues, total)
    qn = 0
    if t0 < 0:
        for j in range(last):
            queue[j] = j
            inq[j] = 1
        qn = last
    else:
        for q in range(bn[t0] + 1):
            j = bclue[t0, q] if q < bn[t0] else nk
            if j < last:
                queue[qn] = j
                inq[j] = 1
                qn += 1
    return _settle(fr, cl, lo, hi, total, trail, (0, qn))


@njit(cache=True, inline="always")
def _vacuous(cl, total):
    return total[0] <= 0 and total[1] >= cl.cells


@njit(cache=True)
def _settle(fr, cl, lo, hi, total, trail, qstate):
    """The work-list loop of :func:`_propagate`; on a contradiction the clues still
    listed are unflagged (``inq`` stays all 0 between calls)."""
    clues, kbox, kn, bclue, bn, queue, inq, cells = cl
    rows, top = trail
    nb = lo.shape[0]
    nk = clues.shape[0]
    qh, qn = qstate
    tlo, thi = total
    last = nk if _vacuous(cl, total) else nk + 1
    ok = True
    while qn > 0 and ok:
        j = queue[qh]
        qh = (qh + 1) % (nk + 1)
        qn -= 1
        inq[j] = 0
        if j < nk:
            k = clues[j]
            klo, khi = clue_bounds(fr, k)
            cnt = kn[j]
        else:
            klo = tlo
            khi = thi
            cnt = nb
        slo = 0
        shi = 0
        for r in range(cnt):
            t = kbox[j, r] if j < nk else r
            slo += lo[t]
            shi += hi[t]
        if slo > khi or shi < klo:
            ok = False
            break
        if j < nk and slo == shi and is_soft(fr, k) and fr.lik[k, slo] <= 0.0:
            ok = False
            break
        for r in range(cnt):
            t = kbox[j, r] if j < nk else r
            nlo = max(lo[t], klo - (shi - hi[t]))
            nhi = min(hi[t], khi - (slo - lo[t]))
            if nlo > nhi:
                ok = False
                break
            if nlo != lo[t] or nhi != hi[t]:
                _push(rows, top, t, lo, hi)
                slo += nlo - lo[t]
                shi += nhi - hi[t]
                lo[t] = nlo
                hi[t] = nhi
                for q in range(bn[t] + 1):
                    j2 = bclue[t, q] if q < bn[t] else nk
                    if j2 < last and not inq[j2] and j2 != j:
                        inq[j2] = 1
                        queue[(qh + qn) % (nk + 1)] = j2
                        qn += 1
    while qn > 0:  # (after a contradiction: the clues still listed)
        inq[queue[qh]] = 0
        qh = (qh + 1) % (nk + 1)
        qn -= 1
    return ok


@njit(cache=True)
def _push(rows, top, t, lo, hi):
    j = top[0]
    rows[j, 0] = t
    rows[j, 1] = lo[t]
    rows[j, 2] = hi[t]
    top[0] = j + 1


@njit(cache=True)
def _undo(rows, top, to, lo, hi):
    while top[0] > to:
        top[0] -= 1
        j = top[0]
        lo[rows[j, 0]] = rows[j, 1]
        hi[rows[j, 0]] = rows[j, 2]


@njit(cache=True)
def _dfs(fr, cl, start, total, nodes, m, t0):
    """One layout of the component of ``cl`` (:func:`_clues_of`) with box t (in path
    order) holding between ``start[0][t]`` and ``start[1][t]`` mines and the component's
    total in ``total`` (lo, hi); written into ``m``. Bounds propagation at every node,
    first from box ``t0`` (-1: every clue; ``start`` was a fixpoint before box t0 was
    restricted). Returns (found, nodes left); nodes < 0: gave up."""
    lo = start[0].copy()
    hi = start[1].copy()
    nb = lo.shape[0]
    # the trail follows the current path: along it each box's bounds only tighten (at
    # most 9 times each) plus one push per decision, so 20 rows per box suffice
    rows = np.empty((20 * nb + 16, 3), np.int64)
    top = np.zeros(1, np.int64)
    trail = (rows, top)
    if not _propagate(fr, cl, lo, hi, total, trail, t0):
        return False, nodes
    dt = np.empty(nb, np.int64)  # decision: box, trail mark, value tried, its old hi
    dmark = np.empty(nb, np.int64)
    dval = np.empty(nb, np.int64)
    dhi = np.empty(nb, np.int64)
    d = 0
    while True:
        t = -1  # fail first: the open box with the fewest values left
        for u in range(nb):
            if lo[u] < hi[u] and (t < 0 or hi[u] - lo[u] < hi[t] - lo[t]):
                t = u
        if t < 0:
            for u in range(nb):
                m[u] = lo[u]
            return True, nodes
        dt[d] = t
        dmark[d] = top[0]
        dval[d] = lo[t]
        dhi[d] = hi[t]
        d += 1
        _push(rows, top, t, lo, hi)
        hi[t] = lo[t]
        nodes -= 1
        ok = _propagate(fr, cl, lo, hi, total, trail, t)
        while not ok:
            if nodes < 0:
                return False, nodes
            # the last decision with a value left: undo to it, take its next value
            while d > 0:
                d -= 1
                _undo(rows, top, dmark[d], lo, hi)
                if dval[d] < dhi[d]:
                    break
                if d == 0:
                    return False, nodes
            else:
                return False, nodes
            if dval[d] >= dhi[d]:
                return False, nodes
            t = dt[d]
            dval[d] += 1
            d += 1
            _push(rows, top, t, lo, hi)
            lo[t] = dval[d - 1]
            hi[t] = dval[d - 1]
            nodes -= 1
            ok = _propagate(fr, cl, lo, hi, total, trail, t)


@njit(cache=True)
def decide_by_search(fr, i, total, nodes):
    """Set CB_DED of every box of component ``i`` (1 safe, 2 mine, 0 undetermined) by
    search; ``total`` = (fewest, most) mines the component may hold. Returns
    SEARCH_OK, SEARCH_NONE or SEARCH_LIMIT. Every question starts from the bounds the
    propagation gives the whole component (its clues' indices and work list built once):
    a question then costs what its own box changes, not a pass over the component."""
    b0, nb, _ = span(fr, i)
    box = fr.box
    cl = _clues_of(fr, i)
    lo = np.zeros(nb, np.int64)
    hi = np.empty(nb, np.int64)
    for t in range(nb):
        hi[t] = box[fr.order[b0 + t], CB_SIZE]
    rows = np.empty((20 * nb + 16, 3), np.int64)
    if not _propagate(fr, cl, lo, hi, total, (rows, np.zeros(1, np.int64)), -1):
        return SEARCH_NONE  # (lo, hi): the fixpoint every question starts from
    m = np.empty(nb, np.int64)
    some = np.zeros(nb, np.uint8)  # a layout with a mine in the box was seen
    free = np.zeros(nb, np.uint8)  # a layout with a free cell in the box was seen
    found, nodes = _dfs(fr, cl, (lo, hi), total, nodes, m, -1)
    if nodes < 0:
        for t in range(nb):
            box[fr.order[b0 + t], CB_DED] = 0
        return SEARCH_LIMIT
    if not found:
        return SEARCH_NONE
    _witness(fr, i, m, some, free)
    ded = np.zeros(nb, np.int8)
    status = SEARCH_OK
    for t in range(nb):
        s = box[fr.order[b0 + t], CB_SIZE]
        for want in range(2):  # 0: a mine in box t? 1: a free cell in box t?
            if (some[t] if want == 0 else free[t]) or status == SEARCH_LIMIT:
                continue
            qlo = lo.copy()
            qhi = hi.copy()
            if want == 0:
                qlo[t] = max(qlo[t], 1)
            else:
                qhi[t] = min(qhi[t], s - 1)
            found = False
            if qlo[t] <= qhi[t]:
                found, nodes = _dfs(fr, cl, (qlo, qhi), total, nodes, m, t)
            if nodes < 0:
                status = SEARCH_LIMIT  # undecided boxes stay 0 (sound)
            elif found:
                _witness(fr, i, m, some, free)
            else:
                ded[t] = 1 if want == 0 else 2
    for t in range(nb):
        box[fr.order[b0 + t], CB_DED] = ded[t]
    return status


@njit(cache=True)
def _witness(fr, i, m, some, free):
    b0, nb, _ = span(fr, i)
    for t in range(nb):
        if m[t] > 0:
            some[t] = 1
        if m[t] < fr.box[fr.order[b0 + t], CB_SIZE]:
            free[t] = 1


@njit(cache=True)
def feasible_totals(fr, i, total, nodes, wx):
    """Mark in ``wx[k]`` (uint8, indexed by k) every total k in ``total`` = (lo, hi) that
    some layout of component ``i`` has, by search (each layout found marks its own total
    first). Returns False if the node limit stopped it (then every k in the range is
    marked: sound)."""
    b0, nb, _ = span(fr, i)
    lo, hi = total
    cl = _clues_of(fr, i)
    dlo = np.zeros(nb, np.int64)
    dhi = np.empty(nb, np.int64)
    for t in range(nb):
        dhi[t] = fr.box[fr.order[b0 + t], CB_SIZE]
    m = np.empty(nb, np.int64)
    for k in range(lo, hi + 1):
        if wx[k]:
            continue
        found, nodes = _dfs(fr, cl, (dlo, dhi), (k, k), nodes, m, -1)
        if nodes < 0:
            for j in range(lo, hi + 1):
                wx[j] = 1
            return False
        if found:
            wx[k] = 1
    return True

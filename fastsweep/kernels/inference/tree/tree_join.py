"""The tree DP's join: the table of two disjoint box sets, and its backward pass.

A pair of states (one per operand) is compatible when every clue both see gets at most
its value and can still reach it, and every clue the join closes (all its boxes now
inside) gets exactly its value. The operand ``b`` is sorted by the counts of the closing
clues, so each state of ``a`` meets only its matching run of ``b``. The compatible pairs
are kept (``TreePool.pairs``): the coefficient vectors are convolved along them, and the
backward pass walks the same list to hand outside weights and alive flags back.
"""
import math
from collections import namedtuple

import numpy as np

from ..frontier import CK_VAL, clue_bounds, is_soft
from ...jit import njit
from .tree_tables import (
    MAX_CLOSE, MAX_OPEN, SOFT_TINY, T_HI, T_K0, T_K1, T_LEN, T_LO, T_OFF, X_ALIVE, X_EXISTS, TreePool,
    _clue_cells, _coefficients, _grow1, _grow2, _nib, put_state, state_room,
)

#: The layout of a join (:func:`_plan`): ``dest[side, slot]`` is the slot of the
#: operand's clue in the result (>= 0), -1 - its closing slot for a hard clue, or -17 -
#: its slot among the soft clues the join closes; ``shared`` rows are (result slot, most,
#: cells outside, fewest) of the open clues both operands see (row 0's last column holds
#: their number); ``valcl`` the packed values of the hard closing clues; ``soft`` the soft
#: closing clues (count in entry MAX_CLOSE); ``ok`` 0 when the result would exceed
#: MAX_OPEN / MAX_CLOSE.
JoinPlan = namedtuple("JoinPlan", "dest shared valcl soft ok")


@njit(cache=True)
def _plan(fr, tp, ab, o):
    """The layout of table ``o`` = join of tables ``ab`` = (a, b), a :data:`JoinPlan`
    (the result's slots are o's); writes o's open clues."""
    a, b = ab
    dest = np.full((2, MAX_OPEN), 0, np.int64)
    shared = np.zeros((MAX_OPEN + 1, 4), np.int64)
    soft = np.zeros(MAX_CLOSE + 1, np.int64)
    nsh = 0
    no = 0
    ncl = 0
    nsc = 0
    valcl = np.int64(0)
    # merge the two sorted clue lists
    ia = 0
    ib = 0
    na = tp.ntc[a]
    nb = tp.ntc[b]
    while ia < na or ib < nb:
        ka = tp.tclue[a, ia] if ia < na else 1 << 30
        kb = tp.tclue[b, ib] if ib < nb else 1 << 30
        k = min(ka, kb)
        cin = 0
        if ka == k:
            cin += tp.tin[a, ia]
        if kb == k:
            cin += tp.tin[b, ib]
        cap = _clue_cells(fr, k)
        if cin == cap and is_soft(fr, k):
            if nsc >= MAX_CLOSE:
                return JoinPlan(dest, shared, valcl, soft, 0)
            d = -17 - nsc
            soft[nsc] = k
            nsc += 1
        elif cin == cap:
            if ncl >= MAX_CLOSE:
                return JoinPlan(dest, shared, valcl, soft, 0)
            d = -1 - ncl
            valcl += np.int64(fr.con[k, CK_VAL]) << (4 * ncl)
            ncl += 1
        else:
            if no >= MAX_OPEN:
                return JoinPlan(dest, shared, valcl, soft, 0)
            d = no
            tp.tclue[o, no] = k
            tp.tin[o, no] = cin
            if ka == k and kb == k:
                lo, hi = clue_bounds(fr, k)
                shared[nsh + 1, 0] = no
                shared[nsh + 1, 1] = hi
                shared[nsh + 1, 2] = cap - cin
                shared[nsh + 1, 3] = lo
                nsh += 1
            no += 1
        if ka == k:
            dest[0, ia] = d
            ia += 1
        if kb == k:
            dest[1, ib] = d
            ib += 1
    tp.ntc[o] = no
    shared[0, 3] = nsh
    soft[MAX_CLOSE] = nsc
    return JoinPlan(dest, shared, valcl, soft, 1)


@njit(cache=True)
def _remap(tp, t, dest, side):
    """Each state of table ``t`` re-keyed in the join's layout: (k0, k1, hard closing
    word, soft closing word)."""
    e0 = tp.trange[t, 0]
    e1 = tp.trange[t, 1]
    out = np.zeros((e1 - e0, 4), np.int64)
    n = tp.ntc[t]
    for e in range(e0, e1):
        k0 = tp.TI[e, T_K0]
        k1 = tp.TI[e, T_K1]
        r0 = np.int64(0)
        r1 = np.int64(0)
        rc = np.int64(0)
        rs = np.int64(0)
        for s in range(n):
            c = _nib(k0, k1, s)
            d = dest[side, s]
            if d >= 0:
                if d < 16:
                    r0 += c << (4 * d)
                else:
                    r1 += c << (4 * (d - 16))
            elif d >= -16:
                rc += c << (4 * (-1 - d))
            else:
                rs += c << (4 * (-17 - d))
        out[e - e0, 0] = r0
        out[e - e0, 1] = r1
        out[e - e0, 2] = rc
        out[e - e0, 3] = rs
    return out


@njit(cache=True, inline="always")
def _fits(a0, a1, b0, b1, shared):
    """Whether two re-keyed states agree on their shared open clues."""
    for q in range(1, shared[0, 3] + 1):
        s = shared[q, 0]
        c = _nib(a0, a1, s) + _nib(b0, b1, s)
        if c > shared[q, 1] or c + shared[q, 2] < shared[q, 3]:
            return False
    return True


@njit(cache=True, inline="always")  # (once per pair: a call would pass the frontier)
def _soft_factor(lik, soft, sa, sb):
    """The likelihood of the soft clues a pair closes (packed counts ``sa`` + ``sb``); -1
    when it is positive but below SOFT_TINY (see there)."""
    f = 1.0
    for q in range(soft[MAX_CLOSE]):
        c = ((sa >> (4 * q)) & 15) + ((sb >> (4 * q)) & 15)
        if c > 8 or lik[soft[q], c] == 0.0:
            return 0.0
        f *= lik[soft[q], c]
    return -1.0 if f < SOFT_TINY else f


@njit(cache=True, inline="always")
def _offsets(TI, pair, bym):
    """Where a pair's coefficients start (a, b) and where their product's first term
    goes in the result's vector (its mine count lo_a + lo_b, relative to the result's)."""
    ea, eb, eo = pair
    base = TI[eo, T_OFF] + (TI[ea, T_LO] + TI[eb, T_LO] - TI[eo, T_LO] if bym else 0)
    return TI[ea, T_OFF], TI[eb, T_OFF], base


@njit(cache=True)
def _with(tp, TI, tab, top):
    """``tp`` with the states of :func:`put_state`."""
    return TreePool(TI, tp.PV, tp.PB, tp.PX, tab, top, tp.ptop, tp.trange, tp.tclue, tp.ntc,
                    tp.tin, tp.pairs, tp.qtop, tp.qrange, tp.tls, tp.pf)


@njit(cache=True)
def join(fr, tp, ab, o, bym, limits):
    """Table ``o`` = the join of tables ``ab`` = (a, b). ``limits`` = (most pairs, most
    coefficient products, most states: the pool's first free state may not pass it)
    allowed. Returns (pool, status, work): status 0 ok, 1 no
    compatible pair, 2 too wide or over a limit; work the coefficient products done."""
    a, b = ab
    dest, shared, valcl, soft, ok = _plan(fr, tp, ab, o)
    if ok == 0:
        return tp, 2, 0
    ra = _remap(tp, a, dest, 0)
    rb = _remap(tp, b, dest, 1)
    ea0 = tp.trange[a, 0]
    eb0 = tp.trange[b, 0]
    byc = np.argsort(rb[:, 2], kind="mergesort")
    rcs = rb[byc, 2]
    # pass 1: the compatible pairs and the result states (with their mine ranges)
    tp.trange[o, 0] = tp.top
    tp.qrange[o, 0] = tp.qtop
    pairs = tp.pairs
    pf = tp.pf
    q = tp.qtop
    lik = fr.lik
    # room for every pair the keys allow and as many result states (within the limits)
    # before the loop, so that no array is re-bound inside it (see put_state)
    most = 0
    for i in range(ra.shape[0]):
        want = valcl - ra[i, 2]
        most += np.searchsorted(rcs, want, side="right") - np.searchsorted(rcs, want)
    most = min(most, max(limits[0] - q, 0) + 1)
    if q + most > pairs.shape[0]:
        pairs = _grow2(pairs, q + most)
        pf = _grow1(pf, q + most)
    top = tp.top
    TI, tab = state_room(tp.TI, tp.tab, top, min(most, max(limits[2] - top, 0) + 1))
    for i in range(ra.shape[0]):
        want = valcl - ra[i, 2]
        lo = np.searchsorted(rcs, want)
        ea = ea0 + i
        for jj in range(lo, rcs.shape[0]):
            if rcs[jj] != want:
                break
            j = byc[jj]
            if not _fits(ra[i, 0], ra[i, 1], rb[j, 0], rb[j, 1], shared):
                continue
            f = 1.0
            if soft[MAX_CLOSE] > 0:
                f = _soft_factor(lik, soft, ra[i, 3], rb[j, 3])
                if f < 0.0:
                    return _with(tp, TI, tab, top), 2, 0
                if f == 0.0:
                    continue
            eb = eb0 + j
            if q >= limits[0] or top >= limits[2]:
                return _with(tp, TI, tab, top), 2, 0
            top, eo = put_state(TI, tab, top, o, ra[i, 0] + rb[j, 0], ra[i, 1] + rb[j, 1],
                                TI[ea, T_LO] + TI[eb, T_LO], TI[ea, T_HI] + TI[eb, T_HI])
            pairs[q, 0] = ea
            pairs[q, 1] = eb
            pairs[q, 2] = eo
            pf[q] = f
            q += 1
    tp = TreePool(TI, tp.PV, tp.PB, tp.PX, tab, top, tp.ptop, tp.trange, tp.tclue,
                  tp.ntc, tp.tin, pairs, q, tp.qrange, tp.tls, pf)
    tp.trange[o, 1] = tp.top
    tp.qrange[o, 1] = q
    if tp.top == tp.trange[o, 0]:
        return tp, 1, 0
    tp = _coefficients(tp, tp.trange[o, 0], tp.top, bym)
    # pass 2: convolve the coefficient vectors of every pair into its result
    TI = tp.TI
    PV = tp.PV
    PX = tp.PX
    work = 0
    for p in range(tp.qrange[o, 0], q):
        ea = pairs[p, 0]
        eb = pairs[p, 1]
        eo = pairs[p, 2]
        oa, ob, base = _offsets(TI, (ea, eb, eo), bym)
        la = TI[ea, T_LEN]
        lb = TI[eb, T_LEN]
        work += la * lb
        for ja in range(la):
            if PX[oa + ja] == 0:
                continue
            va = PV[oa + ja] * pf[p]
            for jb in range(lb):
                if PX[ob + jb] != 0:
                    PV[base + ja + jb] += va * PV[ob + jb]
                    PX[base + ja + jb] = X_EXISTS
        if work > limits[1]:
            return tp, 2, work
    fmax = 0.0
    for j in range(TI[tp.trange[o, 0], T_OFF], tp.ptop):
        fmax = max(fmax, PV[j])
    tp.tls[o] = tp.tls[a] + tp.tls[b]
    if fmax > 0.0:
        inv = 1.0 / fmax
        for j in range(TI[tp.trange[o, 0], T_OFF], tp.ptop):
            PV[j] *= inv
        tp.tls[o] += math.log(fmax)
    return tp, 0, work


@njit(cache=True)
def join_back(tp, ab, o, bym):
    """Backward through ``o`` = join(a, b): the outside weights and alive flags of a's
    and b's coefficients from o's (then each operand rescaled by its maximum)."""
    a, b = ab
    TI = tp.TI
    PV = tp.PV
    PB = tp.PB
    PX = tp.PX
    spans = ((TI[tp.trange[a, 0], T_OFF], TI[tp.trange[a, 1] - 1, T_OFF]
              + TI[tp.trange[a, 1] - 1, T_LEN]),
             (TI[tp.trange[b, 0], T_OFF], TI[tp.trange[b, 1] - 1, T_OFF]
              + TI[tp.trange[b, 1] - 1, T_LEN]))
    for j0, j1 in spans:
        for j in range(j0, j1):
            PB[j] = 0.0
            PX[j] &= X_EXISTS
    pairs = tp.pairs
    for p in range(tp.qrange[o, 0], tp.qrange[o, 1]):
        ea = pairs[p, 0]
        eb = pairs[p, 1]
        eo = pairs[p, 2]
        oa, ob, base = _offsets(TI, (ea, eb, eo), bym)
        for ja in range(TI[ea, T_LEN]):
            if PX[oa + ja] == 0:
                continue
            for jb in range(TI[eb, T_LEN]):
                if PX[ob + jb] == 0:
                    continue
                bo = PB[base + ja + jb] * tp.pf[p]
                PB[oa + ja] += PV[ob + jb] * bo
                PB[ob + jb] += PV[oa + ja] * bo
                if PX[base + ja + jb] & X_ALIVE:
                    PX[oa + ja] |= X_ALIVE
                    PX[ob + jb] |= X_ALIVE
    for j0, j1 in spans:
        m = 0.0
        for j in range(j0, j1):
            m = max(m, PB[j])
        if m > 0.0:
            inv = 1.0 / m
            for j in range(j0, j1):
                PB[j] *= inv

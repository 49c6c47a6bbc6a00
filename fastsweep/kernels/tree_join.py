"""The tree DP's join: the table of two disjoint box sets, and its backward pass.

A pair of states (one per operand) is compatible when every clue both see gets at most
its value and can still reach it, and every clue the join closes (all its boxes now
inside) gets exactly its value. The operand ``b`` is sorted by the counts of the closing
clues, so each state of ``a`` meets only its matching run of ``b``. The compatible pairs
are kept (``TreePool.pairs``): the coefficient vectors are convolved along them, and the
backward pass walks the same list to hand outside weights and alive flags back.
"""
import math

import numpy as np
from numba import njit

from .frontier import CK_VAL
from .tree_tables import (
    MAX_CLOSE, MAX_OPEN, T_HI, T_K0, T_K1, T_LEN, T_LO, T_OFF, X_ALIVE, X_EXISTS, TreePool,
    _clue_cells, _coefficients, _grow2, _nib, _state,
)


@njit(cache=True)
def _plan(fr, tp, a, b, o):
    """The layout of table ``o`` = join of tables ``a`` and ``b``: writes o's open clues.
    Returns (dest, shared, valcl, nshared, ok): ``dest[side, slot]`` is the slot of
    the operand's clue in o (>= 0), or -1 - its closing slot; ``shared`` rows are
    (o slot, value, cells outside) of the open clues both operands see; ``valcl`` the
    packed values of the closing clues; ok 0 when o would exceed MAX_OPEN / MAX_CLOSE."""
    dest = np.full((2, MAX_OPEN), 0, np.int64)
    shared = np.zeros((MAX_OPEN, 3), np.int64)
    nsh = 0
    no = 0
    ncl = 0
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
        if cin == cap:
            if ncl >= MAX_CLOSE:
                return dest, shared, valcl, nsh, 0
            d = -1 - ncl
            valcl += np.int64(fr.con[k, CK_VAL]) << (4 * ncl)
            ncl += 1
        else:
            if no >= MAX_OPEN:
                return dest, shared, valcl, nsh, 0
            d = no
            tp.tclue[o, no] = k
            tp.tin[o, no] = cin
            if ka == k and kb == k:
                shared[nsh, 0] = no
                shared[nsh, 1] = fr.con[k, CK_VAL]
                shared[nsh, 2] = cap - cin
                nsh += 1
            no += 1
        if ka == k:
            dest[0, ia] = d
            ia += 1
        if kb == k:
            dest[1, ib] = d
            ib += 1
    tp.ntc[o] = no
    return dest, shared, valcl, nsh, 1


@njit(cache=True)
def _remap(tp, t, dest, side):
    """Each state of table ``t`` re-keyed in the join's layout: (k0, k1, closing word)."""
    e0 = tp.trange[t, 0]
    e1 = tp.trange[t, 1]
    out = np.zeros((e1 - e0, 3), np.int64)
    n = tp.ntc[t]
    for e in range(e0, e1):
        k0 = tp.TI[e, T_K0]
        k1 = tp.TI[e, T_K1]
        r0 = np.int64(0)
        r1 = np.int64(0)
        rc = np.int64(0)
        for s in range(n):
            c = _nib(k0, k1, s)
            d = dest[side, s]
            if d >= 0:
                if d < 16:
                    r0 += c << (4 * d)
                else:
                    r1 += c << (4 * (d - 16))
            else:
                rc += c << (4 * (-1 - d))
        out[e - e0, 0] = r0
        out[e - e0, 1] = r1
        out[e - e0, 2] = rc
    return out


@njit(cache=True, inline="always")
def _fits(a0, a1, b0, b1, shared, nsh):
    """Whether two re-keyed states agree on their shared open clues."""
    for q in range(nsh):
        s = shared[q, 0]
        c = _nib(a0, a1, s) + _nib(b0, b1, s)
        if c > shared[q, 1] or c + shared[q, 2] < shared[q, 1]:
            return False
    return True


@njit(cache=True)
def join(fr, tp, ab, o, bym, limits):
    """Table ``o`` = the join of tables ``ab`` = (a, b). ``limits`` = (most pairs, most
    coefficient products) allowed. Returns (pool, status, work): status 0 ok, 1 no
    compatible pair, 2 too wide or over a limit; work the coefficient products done."""
    a, b = ab
    dest, shared, valcl, nsh, ok = _plan(fr, tp, a, b, o)
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
    q = tp.qtop
    for i in range(ra.shape[0]):
        want = valcl - ra[i, 2]
        lo = np.searchsorted(rcs, want)
        ea = ea0 + i
        for jj in range(lo, rcs.shape[0]):
            if rcs[jj] != want:
                break
            j = byc[jj]
            if not _fits(ra[i, 0], ra[i, 1], rb[j, 0], rb[j, 1], shared, nsh):
                continue
            eb = eb0 + j
            tp, eo = _state(tp, o, ra[i, 0] + rb[j, 0], ra[i, 1] + rb[j, 1],
                            tp.TI[ea, T_LO] + tp.TI[eb, T_LO], tp.TI[ea, T_HI] + tp.TI[eb, T_HI])
            if q + 1 > pairs.shape[0]:
                pairs = _grow2(pairs, q + 1)
            if q >= limits[0]:
                return tp, 2, 0
            pairs[q, 0] = ea
            pairs[q, 1] = eb
            pairs[q, 2] = eo
            q += 1
    tp = TreePool(tp.TI, tp.PV, tp.PB, tp.PX, tp.tab, tp.top, tp.ptop, tp.trange, tp.tclue,
                  tp.ntc, tp.tin, pairs, q, tp.qrange, tp.tls)
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
        oa = TI[ea, T_OFF]
        ob = TI[eb, T_OFF]
        base = TI[eo, T_OFF] + (TI[ea, T_LO] + TI[eb, T_LO] - TI[eo, T_LO] if bym else 0)
        la = TI[ea, T_LEN]
        lb = TI[eb, T_LEN]
        work += la * lb
        for ja in range(la):
            if PX[oa + ja] == 0:
                continue
            va = PV[oa + ja]
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
def join_back(tp, a, b, o, bym):
    """Backward through ``o`` = join(a, b): the outside weights and alive flags of a's
    and b's coefficients from o's (then each operand rescaled by its maximum)."""
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
        oa = TI[ea, T_OFF]
        ob = TI[eb, T_OFF]
        base = TI[eo, T_OFF] + (TI[ea, T_LO] + TI[eb, T_LO] - TI[eo, T_LO] if bym else 0)
        for ja in range(TI[ea, T_LEN]):
            if PX[oa + ja] == 0:
                continue
            va = PV[oa + ja]
            for jb in range(TI[eb, T_LEN]):
                if PX[ob + jb] == 0:
                    continue
                bo = PB[base + ja + jb]
                PB[oa + ja] += PV[ob + jb] * bo
                PB[ob + jb] += va * bo
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

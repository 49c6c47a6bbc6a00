"""The path DP: exact counting of one frontier component along its box order.

A state is the residual of every open constraint (4 bits each, in two int64 words) plus,
when the mine total is known, the mines placed so far; its value is the total weight of
the partial layouts reaching it. Layouts that share a state have the same completions, so
they are counted once: the work grows with the number of states, not with the number of
layouts (which can exceed 10^30 on 30x30 boards).

* :func:`forward`: states layer by layer; each transition (state, m mines in the box)
  remembers its successor. The last layer gives the component's weight by mine count.
* :func:`backward`: completion weights (times the caller's global factor of the
  component's mine count) give each box's expected mines, and "alive" flags (a
  completion with a feasible total exists) give the deduction, read off integer facts,
  never off a float.

Box weights carry a tilt x^m (x ~ the odds of a hidden cell being a mine) and every layer
is rescaled by its maximum, so the floats stay in range.

All components of one analysis share one :data:`Pool` of states (grown on demand).
"""
import math
from collections import namedtuple

import numpy as np

from .frontier import (
    CB_CAP, CB_DED, CB_K, CB_NK, CB_OPEN, CB_SIZE, CB_SLOT, CK_B, CK_NB, CK_VAL, span,
)
from ..jit import njit

# State pool: int64 columns of PI ...
P_K0 = 0
P_K1 = 1
P_KC = 2  # mines placed so far (0 when the total is not used)
P_ALIVE = 3
P_SUCC = 4  # .. +8: successor state for m = 0..8 mines in the box, -1 if none
P_LO = 13  # fewest / most mines placed by the partial layouts reaching the state
P_HI = 14
P_LEN = 15
# ... and float64 columns of PF
Q_F = 0  # forward weight
Q_B = 1  # backward (completion) weight

#: The DP's storage: states (PI int64, PF float64), the hash table of the layer being
#: built (tab), each component's layer starts (lay), the first free state (top) and each
#: component's log scale (lsc: its true weights are the stored ones times exp(lsc)).
Pool = namedtuple("Pool", "PI PF tab lay top lsc")

_BINOM = np.zeros((9, 9), np.float64)
for _s in range(9):
    for _m in range(_s + 1):
        _BINOM[_s, _m] = math.comb(_s, _m)


@njit(cache=True)
def new_pool(nbox, ncomp):
    """An empty pool for a frontier of ``nbox`` boxes in ``ncomp`` components."""
    return Pool(np.empty((1024, P_LEN), np.int64), np.empty((1024, 2), np.float64),
                np.zeros((256, 2), np.int64), np.empty(nbox + ncomp + 2, np.int64), 0,
                np.zeros(max(ncomp, 1), np.float64))


@njit(cache=True)
def _grow(a, cap):
    b = np.empty((cap, a.shape[1]), a.dtype)
    b[:a.shape[0]] = a
    return b


@njit(cache=True, inline="always")
def _hash(k0, k1, kc, mask):
    h = np.uint64(k0) * np.uint64(0x9E3779B97F4A7C15)
    h ^= np.uint64(k1) * np.uint64(0xC2B2AE3D27D4EB4F) + np.uint64(kc) * np.uint64(0x165667B19E3779F9)
    h ^= h >> np.uint64(29)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(32)
    return np.int64(h & np.uint64(mask))


@njit(cache=True)
def weights(wt, s, x):
    xm = 1.0
    for m in range(s + 1):
        wt[m] = _BINOM[s, m] * xm
        xm *= x


@njit(cache=True)
def forward(fr, i, x, bym, budget, pool):
    """Forward DP of component ``i`` of the frontier ``fr``, appended to ``pool``.

    Layer t (boxes before position t placed) is ``PI[lay[li + t]:lay[li + t + 1]]`` with
    ``li = cstart[i] + i``. ``x``: the tilt; ``bym``: key the states by mines placed too.
    Returns (pool, status): status 0 ok, 1 no layout, 2 over the budget of states.
    """
    con = fr.con
    box = fr.box
    order = fr.order
    b0, nb, li = span(fr, i)
    PI, PF, tab, lay, top, lsc = pool
    lsc[i] = 0.0
    wt = np.empty(9, np.float64)
    e0 = top
    if top + 1 > PI.shape[0]:
        PI = _grow(PI, 2 * PI.shape[0])
        PF = _grow(PF, 2 * PF.shape[0])
    PI[top, P_K0] = 0
    PI[top, P_K1] = 0
    PI[top, P_KC] = 0
    PI[top, P_LO] = 0
    PI[top, P_HI] = 0
    PF[top, Q_F] = 1.0
    top += 1
    lay[li] = e0
    for t in range(nb):
        b = order[b0 + t]
        s = box[b, CB_SIZE]
        nk = box[b, CB_NK]
        weights(wt, s, x)
        add0 = np.int64(0)
        add1 = np.int64(0)
        d0 = np.int64(0)
        d1 = np.int64(0)
        for q in range(nk):
            sl = box[b, CB_SLOT + q]
            unit = np.int64(1) << (4 * (sl & 15))
            if sl < 16:
                d0 += unit
            else:
                d1 += unit
            if (box[b, CB_OPEN] >> q) & 1:
                # the constraint opens here: its residual starts at its value
                val = np.int64(con[box[b, CB_K + q], CK_VAL])
                if sl < 16:
                    add0 += val * unit
                else:
                    add1 += val * unit
        ls = lay[li + t]
        le = top
        stamp = li + t + 1
        # room for every state this layer can make, before the loop: the arrays are then
        # never re-bound inside it (a re-bound array costs reference counting per pass)
        need = min((le - ls) * (s + 1), e0 + budget - top)
        if top + need + 1 > PI.shape[0]:
            cap = min(max(2 * PI.shape[0], top + need + 1), e0 + budget + 1)
            PI = _grow(PI, cap)
            PF = _grow(PF, cap)
        if 2 * need > tab.shape[0]:
            size = tab.shape[0]
            while 2 * need > size:
                size *= 2
            tab = np.zeros((size, 2), np.int64)
        mask = tab.shape[0] - 1
        for e in range(ls, le):
            k0 = PI[e, P_K0] + add0
            k1 = PI[e, P_K1] + add1
            kc = PI[e, P_KC]
            elo = PI[e, P_LO]
            ehi = PI[e, P_HI]
            f = PF[e, Q_F]
            mlo = 0
            mhi = s
            for q in range(nk):
                sl = box[b, CB_SLOT + q]
                if sl < 16:
                    r = (k0 >> (4 * sl)) & 15
                else:
                    r = (k1 >> (4 * (sl - 16))) & 15
                if r < mhi:
                    mhi = r
                lo = r - box[b, CB_CAP + q]
                if lo > mlo:
                    mlo = lo
            for m in range(s + 1):
                PI[e, P_SUCC + m] = -1
            for m in range(mlo, mhi + 1):
                n0 = k0 - m * d0
                n1 = k1 - m * d1
                nc = kc + m if bym else 0
                h = _hash(n0, n1, nc, mask)
                idx = -1
                while tab[h, 1] == stamp:
                    j = tab[h, 0]
                    if PI[j, P_K0] == n0 and PI[j, P_K1] == n1 and PI[j, P_KC] == nc:
                        idx = j
                        break
                    h = (h + 1) & mask
                if idx < 0:
                    if top - e0 >= budget:
                        # over the budget mid-layer: stop before the pool grows past it
                        # (the layer's end would find it over the budget all the same)
                        return Pool(PI, PF, tab, lay, top, lsc), 2
                    idx = top
                    PI[idx, P_K0] = n0
                    PI[idx, P_K1] = n1
                    PI[idx, P_KC] = nc
                    PI[idx, P_LO] = elo + m
                    PI[idx, P_HI] = ehi + m
                    PF[idx, Q_F] = 0.0
                    top += 1
                    tab[h, 0] = idx
                    tab[h, 1] = stamp
                else:
                    if elo + m < PI[idx, P_LO]:
                        PI[idx, P_LO] = elo + m
                    if ehi + m > PI[idx, P_HI]:
                        PI[idx, P_HI] = ehi + m
                PF[idx, Q_F] += f * wt[m]
                PI[e, P_SUCC + m] = idx
        lay[li + t + 1] = le
        if top == le:
            return Pool(PI, PF, tab, lay, top, lsc), 1
        if top - e0 > budget:
            return Pool(PI, PF, tab, lay, top, lsc), 2
        fmax = 0.0
        for j in range(le, top):
            if PF[j, Q_F] > fmax:
                fmax = PF[j, Q_F]
        if fmax > 0.0:
            inv = 1.0 / fmax
            for j in range(le, top):
                PF[j, Q_F] *= inv
            lsc[i] += math.log(fmax)
    lay[li + nb + 1] = top
    return Pool(PI, PF, tab, lay, top, lsc), 0


@njit(cache=True)
def backward(fr, i, x, pool, G, Gex, bprob):
    """Backward pass of component ``i`` after :func:`forward`, given the global factor
    ``G[k]`` of its mine count k (``Gex[k]``: some feasible completion of the other cells
    exists; without the mine total both are a single 1).
    Fills ``bprob`` and CB_DED of its boxes. Returns 0 ok, 1 no feasible layout,
    2 the weights underflowed (the caller approximates)."""
    box = fr.box
    order = fr.order
    b0, nb, li = span(fr, i)
    PI, PF, tab, lay, top, lsc = pool
    wt = np.empty(9, np.float64)
    for e in range(lay[li + nb], lay[li + nb + 1]):
        kc = PI[e, P_KC]
        PF[e, Q_B] = G[kc]
        PI[e, P_ALIVE] = Gex[kc]
    code = 0
    for t in range(nb - 1, -1, -1):
        b = order[b0 + t]
        s = box[b, CB_SIZE]
        weights(wt, s, x)
        num = 0.0
        den = 0.0
        bmax = 0.0
        mmin = 9
        mmax = -1
        for e in range(lay[li + t], lay[li + t + 1]):
            bs = 0.0
            ms = 0.0
            al = 0
            for m in range(s + 1):
                j = PI[e, P_SUCC + m]
                if j >= 0:
                    v = wt[m] * PF[j, Q_B]
                    bs += v
                    ms += m * v
                    if PI[j, P_ALIVE] != 0:
                        al = 1
                        if m < mmin:
                            mmin = m
                        if m > mmax:
                            mmax = m
            PF[e, Q_B] = bs
            PI[e, P_ALIVE] = al
            f = PF[e, Q_F]
            num += f * ms
            den += f * bs
            if bs > bmax:
                bmax = bs
        if mmax < 0:
            return 1
        # deduction from integer facts: which m have a feasible layout through them
        box[b, CB_DED] = 1 if mmax == 0 else (2 if mmin == s else 0)
        if den > 0.0 and bmax > 0.0:
            bprob[b] = num / (s * den)
            inv = 1.0 / bmax
            for e in range(lay[li + t], lay[li + t + 1]):
                PF[e, Q_B] *= inv
        else:
            code = 2
            bprob[b] = np.nan
    return code


@njit(cache=True)
def heuristic(fr, i, bprob):
    """Approximate box probabilities of a component that was too large to count:
    the largest residual density among its clues. Returns its expected mines."""
    con = fr.con
    box = fr.box
    order = fr.order
    b0, nb, _ = span(fr, i)
    tot = 0.0
    for t in range(nb):
        b = order[b0 + t]
        p = 0.0
        for q in range(box[b, CB_NK]):
            k = box[b, CB_K + q]
            cap = 0
            for r in range(con[k, CK_NB]):
                cap += box[con[k, CK_B + r], CB_SIZE]
            v = con[k, CK_VAL] / cap
            if v > p:
                p = v
        bprob[b] = min(p, 1.0)
        box[b, CB_DED] = 0
        tot += bprob[b] * box[b, CB_SIZE]
    return tot

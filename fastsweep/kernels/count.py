"""Exact counting over the frontier: deduction and mine probabilities.

For each component (see ``frontier.py``) a dynamic programme runs over its boxes in the
component's order. A state is the residual of every open constraint (4 bits each, in
two int64 words) plus, when the mine total is known, the mines placed so far; its value
is the total weight of the partial layouts reaching it. Layouts that share a state have
the same completions, so they are counted once: the work grows with the number of
states, not with the number of layouts (which can exceed 10^30 on 30x30 boards).

* Forward pass: states layer by layer; each transition (state, m mines in the box)
  remembers its successor.
* Combination: the complete layouts of component i by mine count k give W_i[k]. With the
  total M known, a configuration with K frontier mines weighs C(U, M_left - K) (the U
  unconstrained cells take the rest); without it, every cell is a mine with
  probability ``prior`` on its own, so components are independent.
* Backward pass: completion weights (including that global factor) give each box's
  expected mines, and "alive" flags (a completion with a feasible total exists) give
  the deduction. Deduction is read off these integer facts, never off a float.

Scaling: box weights carry a tilt x^m (x ~ the odds of a hidden cell being a mine), which
the global factor divides out again; each layer and each combination step is rescaled
by its maximum; the binomials of the unconstrained cells are taken in log space. So
100x100 boards with thousands of mines stay finite.

No silent caps: a component whose DP needs more than ``budget`` states (or more than 32
open constraints) is approximated (no deduction from it, heuristic probabilities) and
the analysis reports it.
"""
import math

import numpy as np
from numba import njit

from .env import hidden_left, mines_left_known, ncells
from .layout import F_AUX, HIDDEN, REVEALED
from .env import status as cell_status
from .frontier import (
    CB_CAP, CB_DED, CB_K, CB_NK, CB_OPEN, CB_SIZE, CB_SLOT, CK_B, CK_NB, CK_VAL,
    MAX_SLOTS, build_frontier, order_components,
)

DEFAULT_BUDGET = 1 << 20  # DP states per component

# pool of DP states: int64 columns, float64 columns
P_K0 = 0
P_K1 = 1
P_KC = 2  # mines placed so far (0 when the total is not used)
P_ALIVE = 3
P_SUCC = 4  # .. +8: successor state for m = 0..8 mines in the box, -1 if none
P_LO = 13  # fewest / most mines placed by the partial layouts reaching the state
P_HI = 14
P_LEN = 15
Q_F = 0  # forward weight
Q_B = 1  # backward (completion) weight

ST_OK = 0
ST_CLUES = 1  # no layout agrees with the clues
ST_TOTAL = 2  # layouts agree with the clues, but none with the mine total

_BINOM = np.zeros((9, 9), np.float64)
for _s in range(9):
    for _m in range(_s + 1):
        _BINOM[_s, _m] = math.comb(_s, _m)


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
def _weights(wt, s, x):
    xm = 1.0
    for m in range(s + 1):
        wt[m] = _BINOM[s, m] * xm
        xm *= x


@njit(cache=True)
def _forward(con, box, order, b0, nb, x, bym, budget, PI, PF, top, lay, li, tab):
    """Forward DP of one component. Layer t (boxes before position t placed) is
    PI[lay[li + t]:lay[li + t + 1]]. Returns (PI, PF, top, tab, status): status 0 ok,
    1 no layout, 2 over budget or too wide."""
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
        _weights(wt, s, x)
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
                    idx = top
                    if top + 1 > PI.shape[0]:
                        PI = _grow(PI, 2 * PI.shape[0])
                        PF = _grow(PF, 2 * PF.shape[0])
                    PI[idx, P_K0] = n0
                    PI[idx, P_K1] = n1
                    PI[idx, P_KC] = nc
                    PI[idx, P_LO] = elo + m
                    PI[idx, P_HI] = ehi + m
                    PF[idx, Q_F] = 0.0
                    top += 1
                    tab[h, 0] = idx
                    tab[h, 1] = stamp
                    if 2 * (top - le) > tab.shape[0]:
                        # rehash the layer being built into a table twice as large
                        tab = np.zeros((2 * tab.shape[0], 2), np.int64)
                        mask = tab.shape[0] - 1
                        for j in range(le, top):
                            h2 = _hash(PI[j, P_K0], PI[j, P_K1], PI[j, P_KC], mask)
                            while tab[h2, 1] == stamp:
                                h2 = (h2 + 1) & mask
                            tab[h2, 0] = j
                            tab[h2, 1] = stamp
                else:
                    if elo + m < PI[idx, P_LO]:
                        PI[idx, P_LO] = elo + m
                    if ehi + m > PI[idx, P_HI]:
                        PI[idx, P_HI] = ehi + m
                PF[idx, Q_F] += f * wt[m]
                PI[e, P_SUCC + m] = idx
        lay[li + t + 1] = le
        if top == le:
            return PI, PF, top, tab, 1
        if top - e0 > budget:
            return PI, PF, top, tab, 2
        fmax = 0.0
        for j in range(le, top):
            if PF[j, Q_F] > fmax:
                fmax = PF[j, Q_F]
        if fmax > 0.0:
            inv = 1.0 / fmax
            for j in range(le, top):
                PF[j, Q_F] *= inv
    lay[li + nb + 1] = top
    return PI, PF, top, tab, 0


@njit(cache=True)
def _backward(box, order, b0, nb, x, PI, PF, lay, li, G, Gex, goff, bprob):
    """Backward pass of one component given the global factor ``G[goff + k]`` of its
    mine count k (``Gex``: some feasible completion of the other cells exists).
    Fills ``bprob`` and CB_DED of its boxes. Returns 0 ok, 1 no feasible layout,
    2 the weights underflowed (the caller approximates)."""
    wt = np.empty(9, np.float64)
    for e in range(lay[li + nb], lay[li + nb + 1]):
        kc = PI[e, P_KC]
        PF[e, Q_B] = G[goff + kc]
        PI[e, P_ALIVE] = Gex[goff + kc]
    code = 0
    for t in range(nb - 1, -1, -1):
        b = order[b0 + t]
        s = box[b, CB_SIZE]
        _weights(wt, s, x)
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
def _heuristic(con, box, order, b0, nb, bprob):
    """Approximate box probabilities of a component that was too large to count:
    the largest residual density among its clues. Returns its expected mines."""
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


@njit(cache=True)
def _lnbinom(n, k):
    return math.lgamma(n + 1.0) - math.lgamma(k + 1.0) - math.lgamma(n - k + 1.0)


@njit(cache=True)
def analyse(S, mine_count, prior, budget, want_prob):
    """Complete deduction and exact mine probabilities for the position in ``S``.

    Returns (status, approx, box, nbox, bprob, pu, uded):
    status ST_OK / ST_CLUES / ST_TOTAL; approx = components approximated (0: exact);
    box = the box table (CB_DED: 0 undetermined, 1 safe, 2 mine; cells in CB_C..);
    bprob[b] = mine probability of each cell of box b; pu = mine probability of an
    unconstrained hidden cell; uded = 0/1/2 deduction for the unconstrained cells.
    ``S[c, F_AUX]`` is the box of hidden cell c, -1 if unconstrained.

    With ``want_prob`` False (deduction only) and the mine total known, the cheaper count
    without the total runs first: when every possible frontier total leaves the
    unconstrained cells between none and all mines, the total rules nothing out and that
    deduction is already complete (``bprob`` and ``pu`` are then not meaningful).
    """
    con, box, ncon, nbox = build_frontier(S)
    order, cstart, ncomp, width = order_components(con, box, ncon, nbox)
    if budget <= 0:
        budget = DEFAULT_BUDGET
    if mine_count and not want_prob:
        status, approx, bprob, pu, uded, smin, smax, u, mleft = _analyse(
            S, con, box, ncon, nbox, order, cstart, ncomp, width, False, 0.5, budget,
            np.zeros((0, 3), np.int64))
        if status != ST_OK or approx > 0 or (u > 0 and mleft - u < smin and smax < mleft) \
                or (u == 0 and smin == mleft and smax == mleft):
            if status == ST_OK and approx == 0:
                uded = 0
            return status, approx, box, nbox, bprob, pu, uded
    status, approx, bprob, pu, uded, smin, smax, u, mleft = _analyse(
        S, con, box, ncon, nbox, order, cstart, ncomp, width, mine_count, prior, budget,
        np.zeros((0, 3), np.int64))
    return status, approx, box, nbox, bprob, pu, uded


@njit(cache=True)
def _analyse(S, con, box, ncon, nbox, order, cstart, ncomp, width, bym, prior, budget,
             cinfo):
    """The analysis proper; ``bym``: count by mines (the total is used). Returns
    (status, approx, bprob, pu, uded, smin, smax, u, mleft) with [smin, smax] the range of
    possible frontier totals. ``cinfo`` (int64 (ncomp, 3) or empty) receives each
    component's fewest and most mines and 1 if it was approximated (filled only when
    ``bym`` is False)."""
    hid = hidden_left(S)
    fc = 0
    for b in range(nbox):
        fc += box[b, CB_SIZE]
        box[b, CB_DED] = 0
    u = hid - fc
    mleft = mines_left_known(S)
    if bym:
        p = (mleft + 0.5) / (hid + 1.0)
        x = p / (1.0 - p)
    else:
        x = prior / (1.0 - prior)
    bprob = np.empty(max(nbox, 1), np.float64)
    PI = np.empty((1024, P_LEN), np.int64)
    PF = np.empty((1024, 2), np.float64)
    tab = np.zeros((256, 2), np.int64)
    lay = np.empty(nbox + ncomp + 2, np.int64)
    capx = np.zeros(max(ncomp, 1), np.int8)
    clen = np.zeros(max(ncomp, 1), np.int64)
    kmin = np.zeros(max(ncomp, 1), np.int64)
    kmax = np.zeros(max(ncomp, 1), np.int64)
    woff = np.zeros(ncomp + 1, np.int64)
    top = 0
    approx = 0
    for i in range(ncomp):
        b0 = cstart[i]
        nb = cstart[i + 1] - b0
        li = b0 + i
        for t in range(nb):
            clen[i] += box[order[b0 + t], CB_SIZE]
        woff[i + 1] = woff[i] + clen[i] + 1
        st = 2
        if width[i] <= MAX_SLOTS:
            PI, PF, top2, tab, st = _forward(con, box, order, b0, nb, x, bym, budget,
                                             PI, PF, top, lay, li, tab)
        if st == 1:
            return ST_CLUES, approx, bprob, 0.0, 0, 0, 0, u, mleft
        if st == 2:
            capx[i] = 1
            approx += 1
            lay[li] = top
            lay[li + nb + 1] = top
        else:
            top = top2
    # each component's weight (and existence) by its mine count, on its support
    wv = np.zeros(woff[ncomp], np.float64)
    wx = np.zeros(woff[ncomp], np.uint8)
    smin = 0
    smax = 0
    for i in range(ncomp):
        b0 = cstart[i]
        nb = cstart[i + 1] - b0
        li = b0 + i
        if capx[i]:
            est = _heuristic(con, box, order, b0, nb, bprob)
            kstar = min(max(int(round(est)), 0), clen[i]) if bym else 0
            wv[woff[i] + kstar] = 1.0
            kmin[i] = 0
            kmax[i] = clen[i]
            for k in range(clen[i] + 1):
                wx[woff[i] + k] = 1  # unknown: allow every count (deductions stay sound)
        else:
            kmin[i] = clen[i]
            kmax[i] = 0
            for e in range(lay[li + nb], lay[li + nb + 1]):
                wv[woff[i] + PI[e, P_KC]] += PF[e, Q_F]
                wx[woff[i] + PI[e, P_KC]] = 1
                kmin[i] = min(kmin[i], PI[e, P_LO])
                kmax[i] = max(kmax[i], PI[e, P_HI])
        smin += kmin[i]
        smax += kmax[i]
    keep = cinfo.shape[0] > 0
    if keep:
        for i in range(ncomp):
            cinfo[i, 0] = kmin[i]
            cinfo[i, 1] = kmax[i]
            cinfo[i, 2] = capx[i]
    if not bym:
        one = np.ones(1, np.float64)
        onex = np.ones(1, np.uint8)
        for i in range(ncomp):
            if capx[i]:
                continue
            b0 = cstart[i]
            nb = cstart[i + 1] - b0
            code = _backward(box, order, b0, nb, x, PI, PF, lay, b0 + i, one, onex, 0, bprob)
            if code == 1:
                return ST_CLUES, approx, bprob, 0.0, 0, smin, smax, u, mleft
            if code == 2:
                approx += 1
                _heuristic(con, box, order, b0, nb, bprob)
                if keep:
                    cinfo[i, 2] = 1
        return ST_OK, approx, bprob, prior, 0, smin, smax, u, mleft
    # with the mine total: prefix convolutions P_i of components 0..i-1, stored over
    # totals 0..sum of their sizes but filled only on [lo_i, hi_i] (sums of supports)
    ltot = woff[ncomp] - ncomp
    poff = np.zeros(ncomp + 2, np.int64)
    plo = np.zeros(ncomp + 1, np.int64)
    phi = np.zeros(ncomp + 1, np.int64)
    pre = 0
    for i in range(ncomp + 1):
        poff[i + 1] = poff[i] + pre + 1
        if i < ncomp:
            pre += clen[i]
            plo[i + 1] = plo[i] + kmin[i]
            phi[i + 1] = phi[i] + kmax[i]
    pv = np.zeros(poff[ncomp + 1], np.float64)
    px = np.zeros(poff[ncomp + 1], np.uint8)
    pv[0] = 1.0
    px[0] = 1
    for i in range(ncomp):
        a0 = poff[i]
        a1 = poff[i + 1]
        wo = woff[i]
        for a in range(plo[i], phi[i] + 1):
            if px[a0 + a] == 0:
                continue
            va = pv[a0 + a]
            for k in range(kmin[i], kmax[i] + 1):
                if wx[wo + k]:
                    pv[a1 + a + k] += va * wv[wo + k]
                    px[a1 + a + k] = 1
        mx = 0.0
        for a in range(plo[i + 1], phi[i + 1] + 1):
            mx = max(mx, pv[a1 + a])
        if mx > 0.0:
            inv = 1.0 / mx
            for a in range(plo[i + 1], phi[i + 1] + 1):
                pv[a1 + a] *= inv
    t0 = poff[ncomp]
    # global factor g(K) = C(U, M_left - K) / x^K, in log space, for K frontier mines
    g = np.zeros(ltot + 1, np.float64)
    gx = np.zeros(ltot + 1, np.uint8)
    lx = math.log(x)
    lmax = -np.inf
    for kk in range(smin, smax + 1):
        r = mleft - kk
        if 0 <= r <= u:
            gx[kk] = 1
            g[kk] = _lnbinom(u, r) - kk * lx
            if px[t0 + kk] and g[kk] > lmax:
                lmax = g[kk]
    if lmax == -np.inf:
        return ST_TOTAL, approx, bprob, 0.0, 0, smin, smax, u, mleft
    for kk in range(smin, smax + 1):
        g[kk] = math.exp(g[kk] - lmax) if gx[kk] else 0.0
    # unconstrained cells
    z = 0.0
    zu = 0.0
    allsafe = True
    allmine = True
    for kk in range(smin, smax + 1):
        if px[t0 + kk] and gx[kk]:
            v = pv[t0 + kk] * g[kk]
            z += v
            r = mleft - kk
            zu += v * r
            if r != 0:
                allsafe = False
            if r != u:
                allmine = False
    pu = zu / (u * z) if u > 0 and z > 0.0 else 0.0
    uded = 0
    if u > 0:
        uded = 1 if allsafe else (2 if allmine else 0)
    # backward over components: R = weight of the later components and the
    # unconstrained cells given the mines before them (rolling, rescaled)
    R = g.copy()
    Rx = gx.copy()
    G = np.zeros(ltot + 1, np.float64)
    Gx = np.zeros(ltot + 1, np.uint8)
    for i in range(ncomp - 1, -1, -1):
        b0 = cstart[i]
        nb = cstart[i + 1] - b0
        a0 = poff[i]
        wo = woff[i]
        if not capx[i]:
            for k in range(kmin[i], kmax[i] + 1):
                sv = 0.0
                sx = 0
                for a in range(plo[i], phi[i] + 1):
                    if px[a0 + a] and Rx[a + k]:
                        sv += pv[a0 + a] * R[a + k]
                        sx = 1
                G[k] = sv
                Gx[k] = sx
            code = _backward(box, order, b0, nb, x, PI, PF, lay, b0 + i, G, Gx, 0, bprob)
            if code == 1:
                return ST_TOTAL, approx, bprob, 0.0, 0, smin, smax, u, mleft
            if code == 2:
                approx += 1
                _heuristic(con, box, order, b0, nb, bprob)
        mx = 0.0
        for j in range(plo[i], phi[i] + 1):
            sv = 0.0
            sx = 0
            for k in range(kmin[i], kmax[i] + 1):
                if wx[wo + k] and Rx[j + k]:
                    sv += wv[wo + k] * R[j + k]
                    sx = 1
            R[j] = sv
            Rx[j] = sx
            if sv > mx:
                mx = sv
        if mx > 0.0:
            inv = 1.0 / mx
            for j in range(plo[i], phi[i] + 1):
                R[j] *= inv
    return ST_OK, approx, bprob, pu, uded, smin, smax, u, mleft


@njit(cache=True)
def cell_results(S, mine_count, prior, budget, want_prob, prob, ded):
    """Per-cell results of :func:`analyse` for the public API: ``prob`` (float64 N) and
    ``ded`` (int8 N: 0 undetermined or not hidden, 1 safe, 2 mine). Returns
    (status, approx)."""
    n = ncells(S)
    status, approx, box, nbox, bprob, pu, uded = analyse(S, mine_count, prior, budget,
                                                       want_prob)
    if status != ST_OK:
        return status, approx
    for c in range(n):
        st = cell_status(S, c)
        ded[c] = 0
        if st != HIDDEN:
            prob[c] = 0.0 if st == REVEALED else 1.0
            continue
        b = S[c, F_AUX]
        if b >= 0:
            prob[c] = bprob[b]
            ded[c] = box[b, CB_DED]
        else:
            prob[c] = pu
            ded[c] = uded
        # exact zero / one where deduced (the float can differ in the last bit)
        if ded[c] == 1:
            prob[c] = 0.0
        elif ded[c] == 2:
            prob[c] = 1.0
    return status, approx

"""Exact counting over the frontier: complete deduction and mine probabilities.

An analysis runs in named steps over the position's :data:`~.frontier.Frontier`:

1. :func:`_count_components`: the path DP (``count_path.forward``) of every component,
   giving its weight by mine count (``Comps``) and whether it was counted at all.
2. :func:`_component_weights`: each component's weight and feasibility by mine count,
   its fewest and most mines.
3. Marginals (``combine.py``): without the mine total every hidden cell is a mine with
   probability ``prior`` on its own, so components are independent
   (``combine.marginals_free``); with the total they are coupled through the
   unconstrained cells (``combine.combine_total``).

Deduction is read off integer facts (which box counts have a feasible layout through
them), never off a float. Scaling: box weights carry a tilt x^m (x ~ the odds of a hidden
cell being a mine) which the global factor divides out again; binomials of the
unconstrained cells are taken in log space, so 100x100 boards with thousands of mines
stay finite.

No silent caps: a component whose DP needs more than ``budget`` states (or more than 32
open constraints) is approximated (no deduction from it, heuristic probabilities) and
the analysis reports it.
"""
import math
from collections import namedtuple

import numpy as np

from .combine import (
    HOW_APPROX, HOW_PATH, HOW_TREE, ST_CLUES, ST_OK, ST_TOTAL, Comps, Counted,
    combine_total, log_weight_free, marginals_free,
)
from .count_path import P_HI, P_KC, P_LO, Q_F, Pool, forward, heuristic, new_pool
from .tree.count_tree import forward_tree, new_tree_plan, new_tree_pool, root_states
from ..jit import njit
from .tree.tree_tables import T_HI, T_LEN, T_LO, T_OFF, X_EXISTS
from .estimate import SAMPLES
from .one_sided import one_sided_deduction
from .overbudget import sample_approximated, search_approximated
from .tree.treedec import clue_order
from ..engine.env import hidden_left, mines_left_known, nb_hidden, nb_mines, ncells
from ..engine.env import status as cell_status
from .frontier import (
    CB_DED, CB_SIZE, CK_COMP, MAX_SLOTS, frontier, informative, is_soft, soften, span,
)
from ..engine.layout import (
    PH_COMBINE, PH_COUNT, PH_FRONTIER, REVEALED, WK_ANALYSES, WK_COMPONENTS, WK_COMP_MAX,
    WK_STATES,
)
from ..engine.work import count_work, enter, leave, max_work

__all__ = ["ST_OK", "ST_CLUES", "ST_TOTAL", "DEFAULT_BUDGET", "MAX_BUDGET", "SAMPLES",
           "Analysis", "Comps", "PositionAnalysis", "Query", "query", "analyse",
           "analyse_frontier", "total_free"]

DEFAULT_BUDGET = 1 << 20  # DP states per component
#: The largest budget the API and the options accept: the DP's memory follows the budget
#: (README, "Exact inference": at most about 300 bytes per unit, so about 5 GB here).
MAX_BUDGET = 1 << 24

#: Components whose path order keeps more clues open than this are counted on a tree
#: decomposition (``count_tree.py``); the path DP is faster on narrow ones.
PATH_WIDTH = 12
LOG_ODDS_TILT = 20.0  # |log odds| of a prior beyond which counting goes by mine count
METHOD_AUTO = 0
METHOD_PATH = 1
METHOD_TREE = 2

#: Result of :func:`analyse_frontier`: status (ST_*), components approximated, box
#: probabilities, the unconstrained cells' probability and deduction (0/1 safe/2 mine),
#: the range [smin, smax] of frontier mine totals, the unconstrained cells u and the
#: mines left (-1 unknown), and the log of the total weight of the layouts that agree
#: (with the total: their number; without: their probability under the prior; NaN when
#: a component was approximated), and the approximated components whose deduction by
#: search stopped at its node limit (0: deduction complete everywhere), and for the
#: probabilities of those components, estimated by sampling (``estimate.py``): (largest
#: standard error of a box's probability, smallest effective sample size).
Analysis = namedtuple("Analysis",
                      "status approx bprob pu uded smin smax u mleft logw undecided est")

#: Result of :func:`analyse`: status (ST_*); approx, the components approximated (0:
#: exact); the box table ``box`` (CB_DED: 0 undetermined, 1 safe, 2 mine; cells in
#: CB_C..) and its ``nbox`` boxes in use; ``bprob[b]``, the mine probability of each cell
#: of box b; ``pu``, that of an unconstrained hidden cell, and ``uded``, their deduction
#: (0/1 safe/2 mine); ``logw``, the log of the total weight (see :data:`Analysis`; NaN
#: when only deduction was asked for); ``undecided`` and ``est`` as in :data:`Analysis`.
#: ``S[c, F_AUX]`` is the box of hidden cell c afterwards, -1 if unconstrained.
PositionAnalysis = namedtuple("PositionAnalysis",
                              "status approx box nbox bprob pu uded logw undecided est")


@njit(cache=True)
def total_free(smin, smax, u, mleft):
    """True when the mine total rules nothing out: every frontier total in [smin, smax]
    leaves the ``u`` unconstrained cells strictly between none and all of the ``mleft``
    mines left (or, with no unconstrained cell, every total equals ``mleft``). Then the
    deduction without the total is already complete."""
    if u > 0:
        return mleft - u < smin and smax < mleft
    return smin == mleft and smax == mleft


#: What an analysis is asked: use the mine total (the agent's ``C_KMINES``); the prior of
#: a hidden cell being a mine when the total is not used; the work budget (0: default);
#: whether probabilities are wanted (else deduction only); the counting method
#: (METHOD_*); soft clues (float64 (N, 9) likelihood rows, see ``frontier.soften``, or
#: an empty (0, 9) array).
Query = namedtuple("Query", "mine_count prior budget want_prob method soft")


@njit(cache=True)
def query(mine_count, prior, budget, want_prob):
    """A :data:`Query` with the default method and hard clues."""
    return Query(mine_count, prior, budget, want_prob, METHOD_AUTO,
                 np.zeros((0, 9), np.float64))


# (inlined into its callers: compiled on its own, a thin layer re-optimises everything
# below it; see docs/pages/design/compile.md)
@njit(cache=True, inline="always")
def analyse(S, q):
    """Complete deduction and exact mine probabilities for the position in ``S``: a
    :data:`PositionAnalysis` (status ST_OK / ST_CLUES / ST_TOTAL, the box table and its
    deductions, the mine probabilities, the log total weight...).

    ``q`` is a :data:`Query`. With ``want_prob`` False (deduction only) and the mine
    total known, the cheaper count without the total runs first; when :func:`total_free`
    holds, that deduction is already complete (``bprob`` and ``pu`` are then not
    meaningful).
    """
    mine_count, prior, budget, want_prob, method, soft = q
    lconst = 0.0
    ph = enter(S, PH_FRONTIER)
    if soft.shape[0] == 0:
        fr = frontier(S)
    else:
        # (deduction only: the clues that rule nothing out are left out, see informative)
        fr = soften(frontier(S), S, soft) if want_prob else informative(S, soft)
        lconst = _settled_soft(S, soft)
    leave(S, ph)
    if soft.shape[0] > 0:
        if lconst == -np.inf:
            return PositionAnalysis(ST_CLUES, 0, fr.box, fr.nbox, np.zeros(1), 0.0, 0, np.nan,
                                    0, (0.0, 0.0))
        ph = enter(S, PH_COUNT)  # (a deduction that replaces the count)
        sided = not want_prob and method == METHOD_AUTO and one_sided_deduction(
            fr, mine_count, hidden_left(S), mines_left_known(S)) > 0
        leave(S, ph)
        if sided:
            # every clue a bound of one side: the deduction without counting (one_sided.py;
            # a forced method counts, which the tests compare it with)
            return PositionAnalysis(ST_OK, 0, fr.box, fr.nbox, np.full(max(fr.nbox, 1), np.nan),
                                    np.nan, 0, np.nan, 0, (0.0, 0.0))
    if budget <= 0:
        budget = DEFAULT_BUDGET
    none = np.zeros((0, 3), np.int64)
    if mine_count and not want_prob:
        a = analyse_frontier(S, fr, False, 0.5, budget, none, method)
        # (an approximated component's range is not known: the total may matter there)
        if a.status != ST_OK or (a.approx == 0 and total_free(a.smin, a.smax, a.u, a.mleft)):
            return PositionAnalysis(a.status, a.approx, fr.box, fr.nbox, a.bprob, a.pu, 0,
                                    np.nan, a.undecided, a.est)
    a = analyse_frontier(S, fr, mine_count, prior, budget, none, method)
    # (a soft deduction-only count left clues out: its weight is not the position's)
    logw = a.logw + lconst if want_prob or soft.shape[0] == 0 else np.nan
    return PositionAnalysis(a.status, a.approx, fr.box, fr.nbox, a.bprob, a.pu, a.uded, logw,
                            a.undecided, a.est)


@njit(cache=True)
def _settled_soft(S, soft):
    """The log of the likelihood of the soft clues with no hidden neighbour left: their
    count is known (their known-mine neighbours), so they weigh every layout alike (-inf
    if one of them rules the position out)."""
    lw = 0.0
    for c in range(ncells(S)):
        if soft[c, 0] == soft[c, 0] and cell_status(S, c) == REVEALED \
                and nb_hidden(S, c) == 0:
            lw += math.log(soft[c, nb_mines(S, c)]) if soft[c, nb_mines(S, c)] > 0 else -np.inf
    return lw


@njit(cache=True)
def analyse_frontier(S, fr, bym, prior, budget, cinfo, method=0):
    """The analysis of frontier ``fr`` of ``S``; ``bym``: use the mine total. Returns an
    :data:`Analysis`. ``cinfo`` (int64 (ncomp, 3) or empty) receives each component's
    fewest and most mines and 1 if it was approximated (filled only without the total)."""
    fc = 0
    for b in range(fr.nbox):
        fc += fr.box[b, CB_SIZE]
        fr.box[b, CB_DED] = 0
    hid = hidden_left(S)
    u = hid - fc
    mleft = mines_left_known(S)
    # the odds of the prior, in log space: extreme priors are counted by mine count and
    # weighed afterwards (a tilt x^m with such an x would underflow)
    lodds = math.log(prior) - math.log1p(-prior)
    by_mines = bym or abs(lodds) > LOG_ODDS_TILT
    if bym:
        p = (mleft + 0.5) / (hid + 1.0)
        x = p / (1.0 - p)
    elif by_mines:
        x = 1.0
    else:
        x = prior / (1.0 - prior)
    bprob = np.empty(max(fr.nbox, 1), np.float64)
    ph = enter(S, PH_COUNT)
    status, approx, cd, cm = _count_components(fr, x, by_mines, budget, method)
    leave(S, ph)
    _tally(S, fr, cm, cd)
    if status != ST_OK:
        return Analysis(status, approx, bprob, 0.0, 0, 0, 0, u, mleft, np.nan, 0, (0.0, 0.0))
    ph = enter(S, PH_COMBINE)
    a = _combine(fr, (bym, by_mines, x, lodds, prior), (status, approx, cd, cm),
                 (bprob, fc, u, mleft), cinfo)
    leave(S, ph)
    return a


@njit(cache=True, inline="always")
def _tally(S, fr, cm, cd):
    """The work counters of one analysis (``engine/work.py``)."""
    count_work(S, WK_ANALYSES, 1)
    count_work(S, WK_COMPONENTS, fr.ncomp)
    big = 0
    for i in range(fr.ncomp):
        big = max(big, cm.clen[i])
    max_work(S, WK_COMP_MAX, big)
    count_work(S, WK_STATES, cd.pool.top + cd.tp.top)


@njit(cache=True, inline="always")
def _combine(fr, how, counted, sizes, cinfo):
    """Steps 2 and 3 of :func:`analyse_frontier`: the components' weights by mine count,
    the approximated ones searched and sampled, the marginals."""
    bym, by_mines, x, lodds, prior = how
    status, approx, cd, cm = counted
    bprob, fc, u, mleft = sizes
    smin, smax = _component_weights(fr, cm, cd, by_mines, bprob)
    status, undecided = search_approximated(fr, cm, (smin, smax), (bym, u, mleft))
    if status != ST_OK:
        return Analysis(status, approx, bprob, 0.0, 0, 0, 0, u, mleft, np.nan, 0, (0.0, 0.0))
    est = (0.0, 0.0)
    if approx > 0:
        lx = math.log(x) if bym else lodds
        cd, est = sample_approximated(fr, cm, cd, (lx, bym), (smin, smax, u, mleft), bprob)
    if cinfo.shape[0] > 0:
        for i in range(fr.ncomp):
            cinfo[i, 0] = cm.kmin[i]
            cinfo[i, 1] = cm.kmax[i]
            cinfo[i, 2] = cm.how[i] == HOW_APPROX
    if bym:
        status, more, pu, uded, logw, se = combine_total(fr, cm, cd, x, bprob, u, mleft,
                                                         (smin, smax))
        est = (max(est[0], se), est[1])
    else:
        status, more = marginals_free(fr, cm, cd, (x, lodds, by_mines), bprob, cinfo)
        pu = prior
        uded = 0
        logw = log_weight_free(cm, lodds, by_mines) + fc * math.log1p(-prior)
    for i in range(fr.ncomp):
        logw += cm.lsc[i]
    if approx + more > 0:
        logw = np.nan
    return Analysis(status, approx + more, bprob, pu, uded, smin, smax, u, mleft, logw,
                    undecided, est)


@njit(cache=True, inline="always")  # (a layer inlined: see design/compile.md)
def _count_components(fr, x, bym, budget, method):
    """Step 1: count every component forward, on its path order when that is narrow
    (at most PATH_WIDTH open clues), else on a tree decomposition; either falls back to
    the other when over the budget. Returns (status, approx, counted, comps) with
    ``comps`` sized but its weights not yet filled; status ST_CLUES if a component has
    no layout. ``method``: METHOD_AUTO, or METHOD_PATH / METHOD_TREE to force one
    (tests and benchmarks)."""
    ncomp = fr.ncomp
    nc = max(ncomp, 1)
    clen = np.zeros(nc, np.int64)
    woff = np.zeros(ncomp + 1, np.int64)
    how = np.zeros(nc, np.int8)
    pool = new_pool(fr.nbox, ncomp)
    # components with a soft clue are counted on the tree (the path DP takes hard ones)
    soft = np.zeros(nc, np.int8)
    for k in range(fr.ncon):
        if is_soft(fr, k):
            soft[fr.con[k, CK_COMP]] = 1
    ntree = 0
    for i in range(ncomp):
        if soft[i] or _tree_first(fr.width[i], method):
            ntree += 1
    # the tree DP's storage only when some component may need it
    tp = new_tree_pool(2 * fr.nbox if ntree > 0 else 0)
    plan = new_tree_plan(fr.nbox if ntree > 0 else 0, ncomp if ntree > 0 else 0)
    loc = np.empty(fr.ncon if ntree > 0 else 0, np.int32)
    approx = 0
    for i in range(ncomp):
        b0, nb, li = span(fr, i)
        for t in range(nb):
            clen[i] += fr.box[fr.order[b0 + t], CB_SIZE]
        woff[i + 1] = woff[i] + clen[i] + 1
        tree_first = soft[i] == 1 or _tree_first(fr.width[i], method)
        tries = 1 if method != METHOD_AUTO or fr.width[i] > MAX_SLOTS or soft[i] else 2
        st = 2
        for attempt in range(tries):
            if tree_first == (attempt == 0):
                if tp.trange.shape[0] == 0:
                    tp = new_tree_pool(2 * fr.nbox)
                    plan = new_tree_plan(fr.nbox, ncomp)
                    loc = np.empty(fr.ncon, np.int32)
                if clue_order(fr, i, loc, budget)[1] < 0:
                    st = 2  # its clue graph alone is over the budget (treedec.py)
                else:
                    tp, st = forward_tree(fr, i, x, bym, budget, tp, plan, loc)
                how[i] = HOW_TREE
            elif fr.width[i] > MAX_SLOTS:
                # too wide for the path DP's two words of 4-bit residuals (reached only
                # when the path is forced): over its budget, never run on garbage slots
                st = 2
                how[i] = HOW_PATH
            else:
                after, st = forward(fr, i, x, bym, budget, pool)
                if st == 2:  # the states it made are dropped
                    after.lay[li] = pool.top
                    after.lay[li + nb + 1] = pool.top
                    pool = Pool(after.PI, after.PF, after.tab, after.lay, pool.top, pool.lsc)
                else:
                    pool = after
                how[i] = HOW_PATH
            if st != 2:
                break
        if st == 1:
            return ST_CLUES, approx, Counted(pool, tp, plan, _no_draws()), _comps(clen, how, woff)
        if st == 2:
            how[i] = HOW_APPROX
            approx += 1
            pool.lay[li] = pool.top
            pool.lay[li + nb + 1] = pool.top
    return ST_OK, approx, Counted(pool, tp, plan, _no_draws()), _comps(clen, how, woff)


@njit(cache=True)
def _no_draws():
    return (np.zeros((0, 0), np.int8), np.zeros((0, 0), np.float64), np.zeros((0, 0), np.int64))


@njit(cache=True)
def _tree_first(width, method):
    if method == METHOD_AUTO:
        return width > PATH_WIDTH
    return method == METHOD_TREE


@njit(cache=True)
def _comps(clen, how, woff):
    nc = clen.shape[0]
    return Comps(clen, np.zeros(nc, np.int64), np.zeros(nc, np.int64), how, woff,
                 np.zeros(woff[-1], np.float64), np.zeros(woff[-1], np.uint8),
                 np.zeros(nc, np.float64))


@njit(cache=True)
def _component_weights(fr, cm, cd, bym, bprob):
    """Step 2: each component's weight (``cm.wv``) and feasibility (``cm.wx``) by its
    mine count, from the last layer of its path DP or its tree's root table; an
    approximated component gets its heuristic box probabilities, a unit weight at its
    expected count and every count allowed (so deductions elsewhere stay sound).
    Returns (smin, smax) over the frontier."""
    PI = cd.pool.PI
    PF = cd.pool.PF
    TI = cd.tp.TI
    smin = 0
    smax = 0
    for i in range(fr.ncomp):
        b0, nb, li = span(fr, i)
        wo = cm.woff[i]
        if cm.how[i] == HOW_APPROX:
            est = heuristic(fr, i, bprob)
            kstar = min(max(int(round(est)), 0), cm.clen[i]) if bym else 0
            cm.wv[wo + kstar] = 1.0
            cm.kmin[i] = 0
            cm.kmax[i] = cm.clen[i]
            for k in range(cm.clen[i] + 1):
                cm.wx[wo + k] = 1
        elif cm.how[i] == HOW_TREE:
            cm.kmin[i] = cm.clen[i]
            cm.kmax[i] = 0
            r0, r1 = root_states(cd.tp, cd.plan, i)
            cm.lsc[i] = cd.tp.tls[cd.plan.crange[i, 3]]
            for e in range(r0, r1):
                for j in range(TI[e, T_LEN]):
                    o = TI[e, T_OFF] + j
                    if cd.tp.PX[o] & X_EXISTS:
                        kc = TI[e, T_LO] + j if bym else 0
                        cm.wv[wo + kc] += cd.tp.PV[o]
                        cm.wx[wo + kc] = 1
                cm.kmin[i] = min(cm.kmin[i], TI[e, T_LO])
                cm.kmax[i] = max(cm.kmax[i], TI[e, T_HI])
        else:
            cm.kmin[i] = cm.clen[i]
            cm.kmax[i] = 0
            cm.lsc[i] = cd.pool.lsc[i]
            for e in range(cd.pool.lay[li + nb], cd.pool.lay[li + nb + 1]):
                kc = PI[e, P_KC]
                cm.wv[wo + kc] += PF[e, Q_F]
                cm.wx[wo + kc] = 1
                cm.kmin[i] = min(cm.kmin[i], PI[e, P_LO])
                cm.kmax[i] = max(cm.kmax[i], PI[e, P_HI])
        smin += cm.kmin[i]
        smax += cm.kmax[i]
    return smin, smax

"""What-if deductions: the hidden cells complete deduction decides once a hidden cell
shows a value (or is a mine), re-counting only the components that observation touches.

Why: the ``risk`` agent (``agents/risk.py``) asks this for every hidden cell and outcome,
and a whole ``count.analyse`` per what-if re-counts every component of the frontier.
Observing v at x changes only the components holding x or one of its hidden neighbours
(a mine at x: only x's own); the clues of those components and x's new clue form a
closed clue set (as in ``whatif.whatif_logw``). So the position is analysed once
(:func:`ded_base`: each component's decided cells, fewest / most mines, cells) and each
what-if (:func:`decided_after`) counts only that clue set's components.

* Without the mine total a component's deduction depends on it alone: the what-if
  decides the untouched components' cells decided in the position plus those decided in
  the re-counted ones.
* With the total, ``count.analyse`` (deduction only) first counts without it and keeps
  that deduction when ``count.total_free`` holds (the total rules no frontier count
  out). The what-if's fewest / most frontier mines and unconstrained cells are summed
  here from the untouched components' (the base's) and the re-counted ones', and the
  same test is made. When it fails, the total may decide cells in any component (and
  the unconstrained cells): that what-if takes the whole analysis (exact; rare: the
  endgame).
* A position whose own analysis was approximated or found no layout, and a what-if
  whose re-counted components were approximated, take the whole analysis too (or give
  its answer, -1, directly when that is certain).

The counts are the whole analysis's, integer for integer (tests/test_whatif_deductions.py).
"""
from collections import namedtuple

import numpy as np

from ...engine.actions import observe, observe_mine, restore_knowledge, save_knowledge
from ...engine.env import hidden_left, mines_left_known, ncells
from ...engine.layout import C_P, K, PH_WHATIF, WK_WHATIFS
from ...engine.work import count_work, enter, leave
from ...jit import njit
from ..combine import marginals_free
from ..count import DEFAULT_BUDGET, ST_OK, analyse, analyse_frontier, total_free
from ..frontier import CB_C, CB_COMP, CB_DED, CB_SIZE, frontier
from .base import clue_set, set_frontier, touch

MINE = 9  # the outcome "the cell is a mine" (as whatif.OUT_MINE); 0..8: shows that value

#: :func:`ded_base`'s result: ``ok`` (the position's no-total count was exact: what-ifs
#: may re-count locally); the frontier ``fr``; each cell's component ``comp`` (-1: none);
#: per component its fewest and most mines (``kmin``, ``kmax``), its cells ``clen``, the
#: cells it decides (``dec``) and proves safe (``safe``); the query's counting arguments
#: (the prior the no-total count uses, the budget, the method) and whether the total is
#: used (``told``).
DedBase = namedtuple("DedBase",
                     "ok fr comp kmin kmax clen dec safe prior budget method told")


@njit(cache=True)
def whole_counts(S, q):
    """(decided, safe): hidden cells complete deduction decides / proves safe on ``S``'s
    knowledge by a whole ``count.analyse`` (``q``: deduction only); (-1, -1) if it was
    approximated or found no layout."""
    a = analyse(S, q)
    if a.status != ST_OK or a.approx > 0:
        return -1, -1
    box = a.box
    d = 0
    sd = 0
    fc = 0
    for b in range(a.nbox):
        fc += box[b, CB_SIZE]
        if box[b, CB_DED] != 0:
            d += box[b, CB_SIZE]
        if box[b, CB_DED] == 1:
            sd += box[b, CB_SIZE]
    if a.uded != 0:
        d += hidden_left(S) - fc
    if a.uded == 1:
        sd += hidden_left(S) - fc
    return d, sd


@njit(cache=True)
def _tally(fr, ncomp):
    """Per component of ``fr``: (cells, cells decided, cells proved safe), read off the
    box table after an analysis."""
    clen = np.zeros(max(ncomp, 1), np.int64)
    dec = np.zeros(max(ncomp, 1), np.int64)
    safe = np.zeros(max(ncomp, 1), np.int64)
    for b in range(fr.nbox):
        i = fr.box[b, CB_COMP]
        s = fr.box[b, CB_SIZE]
        clen[i] += s
        if fr.box[b, CB_DED] != 0:
            dec[i] += s
        if fr.box[b, CB_DED] == 1:
            safe[i] += s
    return clen, dec, safe


@njit(cache=True)
def ded_base(S, q):
    """Analyse the position once for :func:`decided_after` (``q``: a deduction query,
    hard clues): its frontier counted without the total, as ``count.analyse``'s first
    (or only) pass does. Returns a :data:`DedBase`."""
    n = ncells(S)
    budget = q.budget if q.budget > 0 else DEFAULT_BUDGET
    # analyse's count without the total: the query's prior, or 0.5 before using the total
    prior = 0.5 if q.mine_count else q.prior
    fr = frontier(S)
    cinfo = np.zeros((max(fr.ncomp, 1), 3), np.int64)
    a = analyse_frontier(S, fr, False, prior, budget, cinfo, q.method)
    ok = a.status == ST_OK and a.approx == 0 and q.soft.shape[0] == 0
    comp = np.full(n, -1, np.int32)
    for b in range(fr.nbox):
        for j in range(fr.box[b, CB_SIZE]):
            comp[fr.box[b, CB_C + j]] = fr.box[b, CB_COMP]
    clen, dec, safe = _tally(fr, fr.ncomp)
    return DedBase(ok, fr, comp, cinfo[:, 0].copy(), cinfo[:, 1].copy(), clen, dec, safe,
                   prior, budget, q.method, q.mine_count)


@njit(cache=True)
def _part(sub, srange):
    """What the clue set's frontier ``sub`` adds, once analysed without the total (its
    box deductions in ``CB_DED``; ``srange``: its fewest / most mines): (cells decided,
    proved safe, its cells, fewest, most mines)."""
    d = 0
    sd = 0
    fc = 0
    for b in range(sub.nbox):
        s = sub.box[b, CB_SIZE]
        fc += s
        if sub.box[b, CB_DED] != 0:
            d += s
        if sub.box[b, CB_DED] == 1:
            sd += s
    return d, sd, fc, srange[0], srange[1]


@njit(cache=True)
def untouched_part(base, touched):
    """The untouched components' share of a what-if, the base's: (cells decided, proved
    safe, cells, fewest, most mines). The same for every value of one cell."""
    d = 0
    sd = 0
    fc = 0
    smin = 0
    smax = 0
    for i in range(base.fr.ncomp):
        if not touched[i]:
            d += base.dec[i]
            sd += base.safe[i]
            fc += base.clen[i]
            smin += base.kmin[i]
            smax += base.kmax[i]
    return d, sd, fc, smin, smax


@njit(cache=True)
def _finish(S, told, part, upart):
    """(decided, safe) of a what-if from the re-counted components' ``part``
    (:func:`_part`) and the untouched ones' ``upart`` (:func:`untouched_part`); (-2, -2)
    when the total (``told``) may decide (``S``: the what-if knowledge)."""
    d = part[0] + upart[0]
    smin = part[3] + upart[3]
    smax = part[4] + upart[4]
    u = hidden_left(S) - part[2] - upart[2]
    if told and not total_free(smin, smax, u, mines_left_known(S)):
        return -2, -2
    return d, part[1] + upart[1]


@njit(cache=True)
def decided_sub(S, base, upart, sub):
    """(decided, safe) of a what-if from its clue set's frontier ``sub`` (``S``: the
    what-if knowledge; ``upart``: :func:`untouched_part` of the base's components it
    does not re-count; see ``whatif.base.clue_set``, whose set is the touched components'
    clues and c's with hidden neighbours left, as in the whole frontier). (-1, -1) as
    the whole analysis's failure, (-2, -2) when the whole analysis must decide (the
    total may matter, or an approximation)."""
    cinfo = np.zeros((max(sub.ncomp, 1), 3), np.int64)
    a = analyse_frontier(S, sub, False, base.prior, base.budget, cinfo, base.method)
    if a.status != ST_OK:
        return -1, -1  # a re-counted component has no layout: so has the whole frontier
    if a.approx > 0:
        # the whole analysis fails too without the total; with it, it counts again
        return (-2, -2) if base.told else (-1, -1)
    return _finish(S, base.told, _part(sub, (a.smin, a.smax)), upart)


@njit(cache=True)
def decided_counted(S, told, upart, sub, counted, tilt, bprob):
    """:func:`decided_sub` on counts already made (``counted`` = (status, approximated,
    Counted, Comps): ``whatif.base.count_cd`` of ``sub`` with ``tilt`` = (x, log odds of the
    prior, by mine count), the very counts ``count.analyse_frontier`` makes without the
    total: the caller checks that its x and keying are the same); the rest of that
    analysis (its backward passes) runs here. ``bprob`` (float64, at least ``sub``'s
    boxes) is scratch."""
    status, approx, cd, cm = counted
    if status != ST_OK:
        return -1, -1
    if approx > 0:
        return (-2, -2) if told else (-1, -1)
    for b in range(sub.nbox):  # (as analyse_frontier: every box is decided afresh)
        sub.box[b, CB_DED] = 0
    smin = 0
    smax = 0
    for i in range(sub.ncomp):
        smin += cm.kmin[i]
        smax += cm.kmax[i]
    # (no cinfo: analyse_frontier's only records an underflow, which ``more`` counts)
    status, more = marginals_free(sub, cm, cd, tilt, bprob, np.zeros((0, 3), np.int64))
    if status != ST_OK:
        return -1, -1
    if more > 0:
        return (-2, -2) if told else (-1, -1)
    return _finish(S, told, _part(sub, (smin, smax)), upart)


@njit(cache=True)
def decided_after(S, q, base, c, v, touched, buf):
    """(decided, safe, whole): hidden cells complete deduction decides / proves safe once
    hidden cell ``c`` shows ``v`` (``MINE``: is a mine), as ``whole_counts`` on that
    what-if position ((-1, -1) where it fails), and 1 if the whole analysis was taken.
    ``q``: the deduction query ``base`` was made with (:func:`ded_base`); ``touched``
    (uint8, at least the base's components) and ``buf`` (int32,
    ``layout.knowledge_ints``) are scratch. ``S`` is left as it was (its ``F_AUX``
    scratch aside)."""
    ph = enter(S, PH_WHATIF)
    count_work(S, WK_WHATIFS, 1)
    save_knowledge(S, buf)
    if v == MINE:
        observe_mine(S, c)
    else:
        observe(S, c, v)
    d, sd = -2, -2
    if base.ok and v == MINE and base.comp[c] < 0:
        # a mine touching no clue changes no component: nothing to count again
        touched[:] = 0
        d, sd = _finish(S, base.told, (0, 0, 0, 0, 0), untouched_part(base, touched))
    elif base.ok:
        touch(S, base.comp, c, v == MINE, touched)
        # (a clue of the set left without hidden neighbours is left out, as in the
        # whole frontier: the whole analysis does not check it either)
        clues, j, _ = clue_set(S, base.fr, touched, c, v != MINE)
        sub = set_frontier(S, clues, j)
        d, sd = decided_sub(S, base, untouched_part(base, touched), sub)
    whole = d == -2
    if whole:
        d, sd = whole_counts(S, q)
    restore_knowledge(S, buf)
    leave(S, ph)
    return d, sd, int(whole)


@njit(cache=True)
def ded_scratch(S, base):
    """(touched, buf): :func:`decided_after`'s scratch for ``base`` on ``S``."""
    return (np.zeros(max(base.fr.ncomp, 1), np.uint8),
            np.empty(K + S[ncells(S), C_P], np.int32))

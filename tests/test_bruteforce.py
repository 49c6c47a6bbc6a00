"""The reports' brute-force agents (``bruteforce``, ``linalg-bruteforce``).

* the kernel's enumeration (backtracking per frontier component, see
  ``kernels/bruteforce.py``) gives the same certain cells, the same shares (to 1e-12) and
  the same guess as a plain-Python reference that tries every one of the 2**m
  assignments of each component, straight from the agent's definition, on many random
  views, with and without the mine total, with small ``max_component`` so that
  components are skipped;
* what it decides is certain (a subset of ``fastsweep.deduce``), and with every
  component enumerated it decides everything ``linalg`` decides without the total;
* full games on 10x10 and 30x30 at densities 0.1-0.5 pass the contract's batch and
  trace checks, and a traced game's brute-force guesses report their share.
"""
import numpy as np
import pytest

import fastsweep
import naive
from test_linalg import views as linalg_views
import test_agent_contract as contract
from fastsweep.options import make_config
from fastsweep.kernels.agents.reports.brute_step import G_FRONTIER, G_NONE, G_OFF, G_ORDER
from fastsweep.runner import play_chunk
from views import brute_view, decide_view

RTOL = 1e-12


# ---- the reference ----------------------------------------------------------------------

def components(view):
    """(clues: {clue cell: (hidden neighbours, mines left)}, components: lists of frontier
    cells in cell order, ordered by their first cell)."""
    h, w = view.shape
    v = view.ravel()
    clues = {}
    for c in range(h * w):
        if v[c] >= 0:
            nb = naive.neighbours(h, w, c)
            hid = [d for d in nb if v[d] == -1]
            if hid:
                clues[c] = (hid, int(v[c]) - sum(1 for d in nb if v[d] == -2))
    frontier = sorted({d for hid, _ in clues.values() for d in hid})
    seen, comps = set(), []
    for c0 in frontier:
        if c0 in seen:
            continue
        seen.add(c0)
        todo, comp = [c0], []
        while todo:
            x = todo.pop()
            comp.append(x)
            for hid, _ in clues.values():
                if x in hid:
                    for y in hid:
                        if y not in seen:
                            seen.add(y)
                            todo.append(y)
        comps.append(sorted(comp))
    return clues, comps


def tally(comp, clues):
    """(cnt[k], per cell: layouts with it a mine, by k) over all 2**m assignments."""
    m = len(comp)
    idx = np.arange(2 ** m, dtype=np.int64)
    bits = {c: ((idx >> j) & 1).astype(np.uint8) for j, c in enumerate(comp)}
    ok = np.ones(2 ** m, bool)
    for hid, need in clues.values():
        if hid[0] in bits:
            ok &= sum(bits[d].astype(np.int16) for d in hid) == need
    k = sum(b.astype(np.int16) for b in bits.values())[ok]
    cnt = np.bincount(k, minlength=m + 1)
    per = {c: np.bincount(k[bits[c][ok] == 1], minlength=m + 1) for c in comp}
    return cnt, per


def reference(view, mines, maxc, order, cache=None):
    """(ded, share, guess cell, kind, p) of the agent's step, from its definition."""
    h, w = view.shape
    v = view.ravel()
    n = h * w
    clues, comps = components(view)
    ded = np.zeros(n, np.int8)
    share = np.full(n, np.nan)
    done = []
    for comp in comps:
        if len(comp) > maxc:
            continue
        key = tuple(comp)
        if cache is None or key not in cache:
            t = tally(comp, clues)
            if cache is not None:
                cache[key] = t
        done.append((comp, *(cache[key] if cache is not None else t)))
    kmin = [int(np.flatnonzero(cnt)[0]) for _, cnt, _ in done]
    told = mines is not None
    left = mines - int((v == -2).sum()) if told else None
    for i, (comp, cnt, per) in enumerate(done):
        cap = min(len(comp), left - (sum(kmin) - kmin[i])) if told else len(comp)
        kept = int(cnt[:cap + 1].sum())
        if kept == 0:
            continue
        for c in comp:
            mm = int(per[c][:cap + 1].sum())
            share[c] = mm / kept
            if mm == 0 or mm == kept:
                ded[c] = 1 if mm == 0 else 2
    if (ded > 0).any():
        return ded, share, -1, G_NONE, np.nan
    hidden = [c for c in order if v[c] == -1]
    best, bp = -1, 2.0
    for c in hidden:
        if not np.isnan(share[c]) and share[c] < bp - RTOL * bp:
            best, bp = c, share[c]
    if best < 0:
        return ded, share, (hidden[0] if hidden else -1), G_ORDER, np.nan
    front = {d for hid, _ in clues.values() for d in hid}
    off = [c for c in hidden if c not in front]
    if told and off:
        t = (left - sum(kmin)) / len(off)
        if not bp < t:
            return ded, share, off[0], G_OFF, t
    return ded, share, best, G_FRONTIER, bp


VIEWS = linalg_views(150)
ORDERS = [np.random.default_rng(k).permutation(v.size) for k, (v, _) in enumerate(VIEWS)]
CACHES = [{} for _ in VIEWS]


@pytest.mark.parametrize("maxc", [4, 8, 20])
@pytest.mark.parametrize("told", [False, True], ids=["nototal", "total"])
def test_kernel_enumeration_is_the_reference(maxc, told):
    decided = skipped = 0
    seen = set()
    for k, (view, total) in enumerate(VIEWS):
        mines = total if told else None
        ded, share, cell, kind, p = brute_view(view, mines=total if told else -1,
                                               max_component=maxc, order=ORDERS[k])
        rded, rshare, rcell, rkind, rp = reference(view, mines, maxc, ORDERS[k], CACHES[k])
        at = (k, view, total if told else None, maxc)
        assert np.array_equal(ded.ravel(), rded), at + (ded, rded)
        fin = np.isfinite(rshare)
        assert np.array_equal(np.isfinite(share.ravel()), fin), at
        assert np.allclose(share.ravel()[fin], rshare[fin], rtol=RTOL, atol=0), at
        assert (cell, kind) == (rcell, rkind), at + ((cell, kind), (rcell, rkind))
        assert (np.isnan(p) and np.isnan(rp)) or abs(p - rp) <= RTOL * abs(rp), at + (p, rp)
        decided += int((ded > 0).sum())
        skipped += int(any(len(c) > maxc for c in components(view)[1]))
        seen.add(kind)
    assert decided > (100 if maxc == 4 else 300)  # the views are not trivial
    assert maxc == 20 or skipped > 10  # small max_component skips components
    assert {G_NONE, G_FRONTIER} <= seen and (G_OFF in seen) == told


@pytest.mark.parametrize("told", [False, True], ids=["nototal", "total"])
def test_decisions_are_certain(told):
    for k, (view, total) in enumerate(VIEWS):
        safe, mine = fastsweep.deduce(view, total if told else None)
        ded, _, _, _, _ = brute_view(view, mines=total if told else -1, max_component=20,
                                    order=ORDERS[k])
        assert safe[ded == 1].all() and mine[ded == 2].all(), (k, view, ded)


@pytest.mark.parametrize("told", [False, True], ids=["nototal", "total"])
def test_linalg_bruteforce_decides_at_least_linalg(told):
    more = 0
    for k, (view, total) in enumerate(VIEWS):
        tot = total if told else -1
        a, _, _ = decide_view(view, mines=tot, plus=False)
        b, share, _, _, _ = brute_view(view, mines=tot, max_component=30, order=ORDERS[k])
        step = a if (a > 0).any() else b  # linalg-bruteforce's step on this view
        assert (step[a > 0] == a[a > 0]).all(), k
        if not told:  # with every component enumerated the enumeration decides more
            enumerated = np.isfinite(share)
            assert (b[(a > 0) & enumerated] == a[(a > 0) & enumerated]).all(), (k, view, a, b)
            more += int(((b > 0) & (a == 0)).sum())
    if not told:
        assert more > 0, "the enumeration never decided more than linalg on these views"


def test_the_off_frontier_rule():
    # 1 at (0,0): its mine at (0,1) or (1,1), share 1/2 each; 4 cells no clue touches
    view = np.array([[1, -1, -1, -1],
                     [1, -1, -1, -1]], np.int8)
    order = np.arange(8)
    for total, kind, p in [(1, G_OFF, 0.0), (3, G_OFF, 0.5), (4, G_FRONTIER, 0.5)]:
        _, share, cell, k, q = brute_view(view, mines=total, max_component=20, order=order)
        assert (k, q) == (kind, p) and cell == (2 if kind == G_OFF else 1), total
        assert share[0, 1] == share[1, 1] == 0.5
    # without the total: no t
    _, _, cell, k, q = brute_view(view, mines=-1, max_component=20, order=order)
    assert (cell, k, q) == (1, G_FRONTIER, 0.5)
    # component skipped: a guess in order
    _, _, cell, k, _ = brute_view(view, mines=3, max_component=1, order=order[::-1].copy())
    assert (cell, k) == (7, G_ORDER)


# ---- full games -------------------------------------------------------------------------

GAMES = [(size, d, mc) for size in (10, 30) for d in (0.1, 0.2, 0.3, 0.5) for mc in (False, True)]


@pytest.mark.parametrize("agent", ["bruteforce", "linalg-bruteforce"])
def test_full_games_pass_the_contract(agent):
    for size, density, mc in GAMES:
        cfg = make_config(agent, size, density=density, mine_count=mc)
        games = 60 if size == 10 else 12
        out, _, (fst, fmine) = play_chunk(cfg, 7, 0, games, keep_boards=True)
        where = (agent, size, density, mc)
        contract.check_batch(cfg, out, fst, fmine, where)
        for g in range(2):
            t = fastsweep.play(agent, size, density=density, mine_count=mc, seed=7, game=g)
            contract.check_trace(t, out[g], fst[g], fmine[g], where + (g,))


@pytest.mark.parametrize("mc", [False, True], ids=["nototal", "total"])
def test_traced_guesses_report_their_share(mc):
    checked = off = 0
    for g in range(12):
        t = fastsweep.play("bruteforce", 9, density=0.25, mine_count=mc, seed=11, game=g)
        cfg = t.config
        order, _ = contract.guess_order(cfg, t.seed, t.game)
        mv = t.moves
        cells, outs = mv.cell_index.to_numpy(), mv.out.to_numpy()
        clue = list(t.clues.ravel())
        for i in np.flatnonzero(mv.reason.str.startswith(("share of", "off-frontier"))):
            view = naive.view_after(9, 9, clue, cells[:i], outs[:i])
            ded, share, cell, kind, p = brute_view(view, mines=cfg.mines if mc else -1,
                                                   max_component=20, order=order)
            at = (mc, g, i, mv.reason.iloc[i])
            assert not ded.any() and cell == cells[i], at
            assert mv.action.iloc[i] == "guess" and mv.probability.iloc[i] == p, at
            if kind == G_FRONTIER:
                assert p == share.ravel()[cells[i]], at
            else:
                assert kind == G_OFF and mc, at
                off += 1
            checked += 1
        random = mv.reason.str.startswith("random guess").to_numpy()
        assert np.isnan(mv.probability.to_numpy()[random]).all()
    assert checked >= 20 and (off > 0) == mc


def test_linalg_bruteforce_flags_at_least_as_much_on_average():
    # not per game (different decisions change the later guesses), but on average
    a = fastsweep.run("linalg", 16, density=0.3, games=300, seed=5, mine_count=True)
    b = fastsweep.run("linalg-bruteforce", 16, density=0.3, games=300, seed=5, mine_count=True)
    assert a.score.mean() <= b.score.mean() + 0.01

"""The ``risk`` and ``threshold`` agents (the CS440 follow-up's and the 2020 report's).

* risk's scores (expected cells decided after revealing a cell) equal a brute-force
  reference: P(mine), P(shows v) and the cells decided in every what-if position by
  enumerating all layouts (complete deduction) or by the single-clue rules, with and
  without the total; its exact shortcuts for isolated cells change nothing;
* the "improved cost" agent of the follow-up is the probability agent: averaging the
  mine probability of X over the outcomes of a look-ahead at Y gives P(X) back (law of
  total probability) on every pair of cells of many views;
* threshold reveals at once every cell below its threshold and agrees with probability's
  choice when none is; full games pass the contract's checks.
"""
import functools

import numpy as np
import pytest

import fastsweep
import naive
import test_agent_contract as contract
from fastsweep.options import make_config
from fastsweep.kernels.agents.risk import RULES_BASIC, RULES_COMPLETE
from fastsweep.studies.positions import random_view
from fastsweep.runner import play_chunk
from views import risk_view


def _a_clue_decides(view):
    """Whether some clue's hidden neighbours are all safe or all mines by that clue alone."""
    h, w = view.shape

    def around(mask):
        p = np.zeros((h + 2, w + 2), np.int64)
        p[1:-1, 1:-1] = mask
        return sum(p[1 + a:h + 1 + a, 1 + b:w + 1 + b] for a in (-1, 0, 1)
                   for b in (-1, 0, 1) if a or b)

    hid, known = around(view == -1), around(view == -2)
    clue = view >= 0
    return bool((clue & (hid > 0) & ((view == known) | (view == known + hid))).any())


def views(count=60, max_hidden=12):
    out = []
    rng = np.random.default_rng(440)
    while len(out) < count:
        h, w = [(3, 4), (4, 4), (3, 5), (4, 5), (2, 6)][len(out) % 5]
        view, mines = naive.random_view(rng, h, w, [0.15, 0.25, 0.4][len(out) % 3],
                                        [0.3, 0.5, 0.7][len(out) % 3], [0.0, 0.3][len(out) % 2])
        hidden = int((view == -1).sum())
        # (a clue that decides its neighbours alone rejects the view before the brute
        # force, which cost ~40 s here: the views kept are the brute force's choice)
        if 0 < hidden <= max_hidden and not _a_clue_decides(view):
            safe, mine, _ = naive.brute_force_view(view, mines)
            if not safe.any() and not mine.any():  # the agent only looks ahead then
                out.append((view, mines))
    return out


@functools.lru_cache(maxsize=None)
def all_views():
    """The views, made when a test first needs them: not at import (collection), where
    every xdist worker paid its ~200,000 random draws (about 40 s each on this VM)."""
    return views()


def basic_closure(view, told):
    """Cells the single-clue rules (and the count rules if ``told`` = mines) decide on a
    view, to a fixed point, revealing nothing."""
    h, w = view.shape
    v = view.ravel().astype(int)
    mark = {}
    changed = True
    while changed:
        changed = False
        for c in range(h * w):
            if v[c] < 0:
                continue
            nb = naive.neighbours(h, w, c)
            unk = [d for d in nb if v[d] == -1 and d not in mark]
            need = v[c] - sum(1 for d in nb if v[d] == -2 or mark.get(d) == 2)
            if unk and need in (0, len(unk)):
                for d in unk:
                    mark[d] = 1 if need == 0 else 2
                changed = True
        if told is not None and not changed:
            unk = [d for d in range(h * w) if v[d] == -1 and d not in mark]
            left = told - int((v == -2).sum()) - sum(1 for x in mark.values() if x == 2)
            if unk and left in (0, len(unk)):
                for d in unk:
                    mark[d] = 1 if left == 0 else 2
    return len(mark)


def decided(view, mines, rules):
    if rules == RULES_BASIC:
        return basic_closure(view, mines)
    safe, mine, _ = naive.brute_force_view(view, mines)
    return int(safe.sum() + mine.sum())


def reference_scores(view, mines, rules):
    out = naive.brute_force_outcomes(view, mines)
    h, w = view.shape
    score = np.full((h, w), np.nan)
    for r, c in zip(*np.nonzero(view == -1)):
        s = 0.0
        for v in range(10):
            p = out[r, c, v]
            if p <= 0:
                continue
            after = view.copy()
            after[r, c] = -2 if v == 9 else v
            s += p * decided(after, mines, rules)
        score[r, c] = s
    return score, out[..., 9]


@pytest.mark.parametrize("rules", [RULES_COMPLETE, RULES_BASIC], ids=["complete", "basic"])
@pytest.mark.parametrize("told", [False, True], ids=["nototal", "total"])
def test_risk_scores_equal_the_brute_force_look_ahead(rules, told):
    positive = 0
    for k, (view, mines) in enumerate(all_views()):
        total = mines if told else None
        score, pmine, exact = risk_view(view, mines=total if told else -1, prior=0.5,
                                        rules=rules, shortcut=True)
        ref, rp = reference_scores(view, total, rules)
        hid = view == -1
        assert exact, k
        assert np.allclose(pmine[hid], rp[hid], atol=1e-12), (k, view)
        assert np.allclose(score[hid], ref[hid], atol=1e-9), (k, view, score, ref)
        assert np.isnan(score[~hid]).all()
        positive += int((ref[hid] > 0).sum())
    assert positive > 100  # the look-ahead decides something on many cells


def isolated_cells(view):
    """Hidden cells that, with their hidden neighbours, touch no revealed cell."""
    h, w = view.shape

    def nbrs(r, c):
        return [(i, j) for i in range(max(r - 1, 0), min(r + 2, h))
                for j in range(max(c - 1, 0), min(c + 2, w)) if (i, j) != (r, c)]

    def touches_clue(r, c):
        return any(view[x] >= 0 for x in nbrs(r, c))

    out = np.zeros(view.shape, bool)
    for r in range(h):
        for c in range(w):
            if view[r, c] == -1 and not touches_clue(r, c):
                out[r, c] = not any(view[x] == -1 and touches_clue(*x) for x in nbrs(r, c))
    return out


@pytest.mark.parametrize("rules", [RULES_COMPLETE, RULES_BASIC], ids=["complete", "basic"])
@pytest.mark.parametrize("told", [False, True], ids=["nototal", "total"])
def test_the_isolated_cell_shortcut_is_exact(rules, told):
    """Without the total the shortcut is a formula (equal to rounding); with it, the
    what-ifs are counted once per class, so the scores are bit for bit the same."""
    isolated_seen = 0
    for i in range(40):
        view, mines = random_view(12, 14, 30, 10 + 3 * i, seed=i)
        total = mines if told else -1
        a, pa, ea = risk_view(view, mines=total, prior=0.3, rules=rules, shortcut=True)
        b, pb, eb = risk_view(view, mines=total, prior=0.3, rules=rules, shortcut=False)
        assert ea and eb
        hid = view == -1
        if told:
            assert np.array_equal(a[hid], b[hid]), i
        else:
            assert np.allclose(a[hid], b[hid], rtol=1e-12, atol=1e-12), i
        assert np.array_equal(pa[hid], pb[hid])
        isolated_seen += int(isolated_cells(view).sum())
    assert isolated_seen > 200  # the shortcut was taken on many cells


def test_improved_cost_is_the_probability_agent():
    """The follow-up's "improved cost" agent scores X by the mine probability it will have
    after looking at another cell Y; averaged over Y's outcomes that is P(X) itself."""
    worst = 0.0
    pairs = 0
    for view, mines in all_views()[:25]:
        out = naive.brute_force_outcomes(view, mines)
        _, _, p = naive.brute_force_view(view, mines)
        hid = list(zip(*np.nonzero(view == -1)))
        for y in hid:
            for x in hid:
                if x == y:
                    continue
                avg = 0.0
                for v in range(10):
                    pv = out[y][v]
                    if pv <= 0:
                        continue
                    after = view.copy()
                    after[y] = -2 if v == 9 else v
                    _, _, pa = naive.brute_force_view(after, mines)
                    avg += pv * pa[x]
                worst = max(worst, abs(avg - p[x]))
                pairs += 1
    assert pairs > 500 and worst < 1e-12


def test_threshold_reveals_every_cell_below_it_at_once():
    seen_batch = seen_lowest = 0
    for g in range(30):
        t = fastsweep.play("threshold", 12, density=0.15, seed=9, game=g, threshold=0.2)
        p = fastsweep.play("probability", 12, density=0.15, seed=9, game=g)
        mv = t.moves
        guesses = mv[mv.action == "guess"].iloc[1:]
        for _, m in guesses.iterrows():
            if "revealed without recomputing" in m.reason:
                assert m.probability < 0.2
                seen_batch += 1
            else:
                assert "lowest" in m.reason and m.probability >= 0.2
                seen_lowest += 1
        # until the first batch the two agents play the same game
        first = next((i for i, r in enumerate(mv.reason) if "without recomputing" in r), None)
        if first is not None:
            same = p.moves.iloc[:first]
            assert (same.cell_index.to_numpy() == mv.cell_index.to_numpy()[:first]).all()
    assert seen_batch > 20 and seen_lowest > 5


@pytest.mark.parametrize("agent", ["threshold", "risk"])
def test_full_games_pass_the_contract(agent):
    for size, density, mc in [(8, 0.15, False), (8, 0.3, True), (12, 0.2, False),
                              (12, 0.45, True)]:
        for kw in ({}, {"risk_rules": "basic"} if agent == "risk" else {"threshold": 0.3}):
            cfg = make_config(agent, size, density=density, mine_count=mc, **kw)
            out, _, (fst, fmine) = play_chunk(cfg, 11, 0, 20, keep_boards=True)
            where = (agent, size, density, mc, kw)
            contract.check_batch(cfg, out, fst, fmine, where)
            for g in range(2):
                t = fastsweep.play(agent, size, density=density, mine_count=mc, seed=11,
                                   game=g, **kw)
                contract.check_trace(t, out[g], fst[g], fmine[g], where + (g,))

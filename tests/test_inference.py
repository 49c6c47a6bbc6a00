"""Exact inference (fastsweep.deduce / mine_probabilities) and the inference and
probability agents, checked against the brute-force oracle in naive.py."""

import warnings

import numpy as np
import pytest

import fastsweep
from fastsweep.options import make_config
from fastsweep.inference import ApproximationWarning
from fastsweep.kernels.engine import layout as kl
from fastsweep.kernels.engine import game as kg
from fastsweep.runner import play_chunk
from naive import brute_force_outcomes, brute_force_view, random_view


def check_view(view, mines, prior=0.5):
    """Both counting methods (path DP, tree DP) against the oracle."""
    s0, m0, p0, w0 = brute_force_view(view, mines, prior, log_weight=True)
    for method in ("path", "tree"):
        s1, m1 = fastsweep.deduce(view, mines, method=method)
        p1, info = fastsweep.mine_probabilities(view, mines, prior, method=method, info=True)
        assert (s1 == s0).all() and (m1 == m0).all(), (view, mines, method)
        assert np.abs(p1 - p0).max() < 1e-12, (view, mines, prior, method, p0, p1)
        assert abs(info["log_weight"] - w0) < 1e-9 * max(1.0, abs(w0)), (view, mines, prior,
                                                                          method, w0, info)


@pytest.mark.parametrize("seed", range(4))
def test_random_views_match_oracle(seed):
    rng = np.random.default_rng(seed)
    for _ in range(100):
        h, w = (int(v) for v in rng.integers(1, 7, 2))
        view, mines = random_view(rng, h, w, rng.uniform(0.05, 0.7), rng.uniform(0.0, 0.95),
                                  rng.uniform(0.0, 0.6), max_hidden=14)
        check_view(view, None, 0.5)
        check_view(view, None, float(rng.uniform(0.05, 0.95)))
        check_view(view, mines)


@pytest.mark.parametrize("prior", [1e-300, 1e-160, 1e-100, 1e-25, 0.999999999999, 1 - 1e-16])
def test_extreme_priors_match_oracle(prior):
    """Weights stay exact for any prior in (0, 1): no NaN, no spurious approximation
    (the oracle weighs in log space too)."""
    rng = np.random.default_rng(int(-np.log10(min(prior, 1 - prior))))
    for _ in range(40):
        h, w = (int(v) for v in rng.integers(1, 6, 2))
        view, _ = random_view(rng, h, w, rng.uniform(0.1, 0.6), rng.uniform(0.2, 0.9),
                              rng.uniform(0.0, 0.5), max_hidden=12)
        with warnings.catch_warnings():
            warnings.simplefilter("error", ApproximationWarning)
            check_view(view, None, prior)


@pytest.mark.parametrize("seed", range(3))
def test_outcome_probabilities_match_oracle(seed):
    """What each cell would show: exact against enumeration, rows sum to 1, entry 9 is the
    mine probability; with and without the total, several priors, both methods."""
    rng = np.random.default_rng(50 + seed)
    for _ in range(25):
        h, w = (int(v) for v in rng.integers(1, 6, 2))
        view, mines = random_view(rng, h, w, rng.uniform(0.1, 0.6), rng.uniform(0.1, 0.9),
                                  rng.uniform(0.0, 0.5), max_hidden=11)
        prior = float(rng.uniform(0.05, 0.95))
        for m, pr in ((None, 0.5), (None, prior), (None, 1e-40), (mines, 0.5)):
            want = brute_force_outcomes(view, m, pr)
            for method in ("path", "tree"):
                got = fastsweep.outcome_probabilities(view, m, pr, method=method)
                assert got.shape == view.shape + (10,)
                assert np.abs(got - want).max() < 1e-9, (view, m, pr, method)
            hidden = view == -1
            assert np.allclose(got[hidden].sum(axis=1), 1.0)
            assert (got[view >= 0] == 0).all() and (got[view == -2, 9] == 1).all()
            assert np.allclose(got[..., 9][hidden],
                               fastsweep.mine_probabilities(view, m, pr)[hidden])


@pytest.mark.parametrize("seed", range(2))
def test_outcomes_reuse_untouched_components(seed):
    """outcome_probabilities counts only the components a cell touches per what-if; on
    views too large to enumerate (several components, unconstrained cells) it must equal
    the ratio of two whole analyses' log weights (``info["log_weight"]`` of the view and
    of the view with the cell showing v), with and without the total, extreme priors."""
    from fastsweep.studies.positions import random_view as board_view
    rng = np.random.default_rng(70 + seed)
    view, mines = board_view(16, 30, 99, int(rng.integers(60, 160)), seed=seed)
    hidden = np.argwhere(view == -1)
    for m, pr in ((None, 0.5), (None, 0.2), (None, 1e-30), (mines, 0.5)):
        got = fastsweep.outcome_probabilities(view, m, pr)
        _, info = fastsweep.mine_probabilities(view, m, pr, info=True)
        lw = info["log_weight"]
        safe = 0.0 if m is not None else np.log1p(-pr)
        for r, c in hidden[rng.choice(len(hidden), 12, replace=False)]:
            for v in range(9):
                w2 = view.copy()
                w2[r, c] = v
                try:
                    _, i2 = fastsweep.mine_probabilities(w2, m, pr, info=True)
                    want = np.exp(i2["log_weight"] - lw + safe)
                except ValueError:  # no layout shows v there
                    want = 0.0
                assert abs(got[r, c, v] - want) <= 1e-9 * max(want, 1e-300) + 1e-300, (
                    m, pr, (r, c), v, got[r, c, v], want)
        assert np.allclose(got[view == -1].sum(axis=1), 1.0, atol=1e-12)


def _soft_rows(rng, view, frac):
    """Random likelihood rows (some entries 0) on a fraction of the revealed cells."""
    L = np.full(view.shape + (9,), np.nan)
    for r, c in np.argwhere(view >= 0):
        if rng.random() < frac:
            row = rng.random(9) * (rng.random(9) < 0.7)
            row[int(rng.integers(9))] += 0.1  # never all zero
            L[r, c] = row
    return L


@pytest.mark.parametrize("seed", range(3))
def test_soft_clues_match_oracle(seed):
    """Likelihood-weighted clues: marginals, deduction, log weight and outcome
    distributions equal the enumeration's, which weighs each layout by the product of its
    soft clues' L(t); with and without the total."""
    rng = np.random.default_rng(70 + seed)
    for _ in range(30):
        h, w = (int(v) for v in rng.integers(1, 6, 2))
        view, mines = random_view(rng, h, w, rng.uniform(0.1, 0.6), rng.uniform(0.2, 0.9),
                                  rng.uniform(0.0, 0.5), max_hidden=11)
        L = _soft_rows(rng, view, 0.5)
        for m, pr in ((None, float(rng.uniform(0.1, 0.9))), (mines, 0.5)):
            try:
                s0, m0, p0, w0 = brute_force_view(view, m, pr, log_weight=True, likelihood=L)
            except ValueError:
                with pytest.raises(ValueError):
                    fastsweep.mine_probabilities(view, m, pr, likelihood=L)
                continue
            p1, info = fastsweep.mine_probabilities(view, m, pr, likelihood=L, info=True)
            s1, m1 = fastsweep.deduce(view, m, likelihood=L)
            assert (s1 == s0).all() and (m1 == m0).all(), (view, m, L)
            assert np.abs(p1 - p0).max() < 1e-9, (view, m, pr, L, p0, p1)
            assert abs(info["log_weight"] - w0) < 1e-9 * max(1.0, abs(w0))
            o1 = fastsweep.outcome_probabilities(view, m, pr, likelihood=L)
            assert np.abs(o1 - brute_force_outcomes(view, m, pr, likelihood=L)).max() < 1e-9


def test_hard_rows_as_soft_change_nothing():
    """A one-hot likelihood at the shown value is the hard clue (through the tree)."""
    rng = np.random.default_rng(5)
    for _ in range(20):
        view, mines = random_view(rng, 5, 6, 0.3, 0.5, 0.3, max_hidden=14)
        L = np.full(view.shape + (9,), np.nan)
        for r, c in np.argwhere(view >= 0):
            known = int((view[max(r - 1, 0):r + 2, max(c - 1, 0):c + 2] == -2).sum())
            L[r, c] = 0.0
            L[r, c, view[r, c]] = 1.0
            assert known <= view[r, c]
        for m in (None, mines):
            assert np.allclose(fastsweep.mine_probabilities(view, m, likelihood=L),
                               fastsweep.mine_probabilities(view, m), atol=1e-12)


def test_soft_evidence_errors():
    view = np.array([[1, -1, -1]], np.int8)
    L = np.full((1, 3, 9), np.nan)
    with pytest.raises(ValueError, match="shape"):
        fastsweep.mine_probabilities(view, likelihood=np.zeros((1, 3, 8)))
    bad = L.copy()
    bad[0, 1] = 1.0
    with pytest.raises(ValueError, match="not a revealed cell"):
        fastsweep.mine_probabilities(view, likelihood=bad)
    bad = L.copy()
    bad[0, 0] = 0.0
    with pytest.raises(ValueError, match="all zeros"):
        fastsweep.mine_probabilities(view, likelihood=bad)
    bad = L.copy()
    bad[0, 0, :4] = 1.0
    with pytest.raises(ValueError, match="finite"):
        fastsweep.mine_probabilities(view, likelihood=bad)
    # evidence no layout explains (only counts above the neighbours): zero total likelihood
    bad = L.copy()
    bad[0, 0] = 0.0
    bad[0, 0, 5] = 1.0
    with pytest.raises(ValueError, match="inconsistent"):
        fastsweep.mine_probabilities(view, likelihood=bad)


def test_outcome_probabilities_errors():
    with pytest.raises(ValueError, match="inconsistent"):
        fastsweep.outcome_probabilities(np.array([[3, -1]], np.int8))
    with pytest.raises(ValueError, match="prior"):
        fastsweep.outcome_probabilities(np.array([[1, -1]], np.int8), prior=1.0)


def test_special_views_match_oracle():
    rng = np.random.default_rng(11)
    views = [
        np.full((3, 4), -1, np.int8),  # all hidden: empty frontier
        np.array([[0, 1], [1, -2]], np.int8),  # no hidden cell
        np.array([[-2, -2], [-2, -2]], np.int8),  # only known mines
        np.array([[-1]], np.int8),
        np.array([[1, -1, -1, -1, 1]], np.int8),  # a row: clues at both ends
    ]
    for v in views:
        n_hidden = int((v == -1).sum())
        known = int((v == -2).sum())
        for mines in [None] + list(range(known, known + n_hidden + 1)):
            try:
                brute_force_view(v, mines)
            except ValueError:
                with pytest.raises(ValueError):
                    fastsweep.mine_probabilities(v, mines)
                continue
            check_view(v, mines)
            check_view(v, mines, 0.3)
    # corners and edges with known mines, denser boards
    for _ in range(60):
        view, mines = random_view(rng, 4, 5, 0.4, 0.6, 0.5, max_hidden=12)
        check_view(view, mines)


def test_only_the_total_decides():
    view = np.array([[1, -1, -1],
                     [1, -1, -1]], np.int8)
    safe, mine = fastsweep.deduce(view)
    assert not safe.any() and not mine.any()
    safe, mine = fastsweep.deduce(view, mines=1)  # the one mine is next to the clues
    assert safe.tolist() == [[False, False, True], [False, False, True]]
    safe, mine = fastsweep.deduce(view, mines=3)  # 1 in the box, 2 in the two free cells
    assert mine.tolist() == [[False, False, True], [False, False, True]]
    p = fastsweep.mine_probabilities(view, mines=2)
    # layouts: 1 mine in the box (2 ways) x 1 of 2 free cells (2 ways): all 1/2
    assert np.allclose(p, [[0, 0.5, 0.5], [0, 0.5, 0.5]], rtol=0, atol=1e-15)


def test_all_unconstrained():
    view = np.full((4, 5), -1, np.int8)
    view[0, 0] = -2
    p = fastsweep.mine_probabilities(view, mines=7)
    assert p[0, 0] == 1.0
    assert np.allclose(p.ravel()[1:], 6 / 19, rtol=1e-14)
    p = fastsweep.mine_probabilities(view, prior=0.3)
    assert np.allclose(p.ravel()[1:], 0.3, rtol=1e-14)
    safe, mine = fastsweep.deduce(view, mines=1)
    assert safe.sum() == 19 and not mine.any()
    safe, mine = fastsweep.deduce(view, mines=20)
    assert mine.sum() == 19 and not safe.any()
    safe, mine = fastsweep.deduce(view)
    assert not safe.any() and not mine.any()


def _midgame_view(agent, size, mines, seed, frac, **kw):
    t = fastsweep.play(agent, size, mines=mines, seed=seed, **kw)
    h, w = t.config.height, t.config.width
    m = int(len(t.moves) * frac)
    v = np.full(h * w, -1, np.int8)
    clues = t.clues.ravel()
    for cell, out in zip(t.moves.cell_index[:m], t.moves.out[:m]):
        v[cell] = -2 if out < 0 else clues[cell]
    return v.reshape(h, w), int(t.mines.sum())


def test_large_view_finite_and_sums_to_total():
    view, mines = _midgame_view("probability", 100, 2000, 3, 0.4, mine_count=True)
    assert (view == -1).sum() > 3000
    p, info = fastsweep.mine_probabilities(view, mines, info=True)
    assert info["approx_steps"] == 0
    assert np.isfinite(p).all() and (p >= 0).all() and (p <= 1).all()
    assert abs(p.sum() - mines) < 1e-6 * mines
    p = fastsweep.mine_probabilities(view)
    assert np.isfinite(p).all()
    safe, mine = fastsweep.deduce(view, mines)
    assert (p[safe] < 1e-9).all()


def test_budget_exceeded_is_reported():
    view, mines = _midgame_view("basic", 16, 40, 1, 0.5)
    assert fastsweep.mine_probabilities(view, mines, info=True)[1]["approx_steps"] == 0
    with pytest.warns(ApproximationWarning):
        p, info = fastsweep.mine_probabilities(view, mines, budget=2, info=True)
    assert info["approx_steps"] > 0
    with pytest.warns(ApproximationWarning):
        safe, mine, info = fastsweep.deduce(view, mines, budget=2, info=True)
    exact_safe, exact_mine = fastsweep.deduce(view, mines)
    # approximate deduction stays sound: a subset of the exact one
    assert not (safe & ~exact_safe).any() and not (mine & ~exact_mine).any()


@pytest.mark.parametrize("view, mines, text", [
    (np.array([[3, -1], [-1, 0]], np.int8), None, "needs more mines"),
    (np.array([[1, -2], [-2, -1]], np.int8), None, "smaller than its known-mine"),
    (np.array([[1, -1, 0]], np.int8), None, "no mine layout agrees"),
    (np.array([[0, -1], [-1, 2]], np.int8), None, "no mine layout agrees"),
    (np.array([[1, -1], [-1, -1]], np.int8), 0, "inconsistent with mines=0"),
    (np.array([[1, -1], [-1, -1]], np.int8), 3, "inconsistent with mines=3"),
    (np.array([[1, -1], [-1, -1]], np.int8), 4, "only 0 known mines and 3 hidden"),
    (np.array([[-2, -1]], np.int8), 0, "already shows 1 known mine$"),
])
def test_inconsistent_views_raise(view, mines, text):
    with pytest.raises(ValueError, match=text):
        fastsweep.mine_probabilities(view, mines)
    with pytest.raises(ValueError, match=text):
        fastsweep.deduce(view, mines)


def test_random_inconsistent_views_agree_with_oracle():
    rng = np.random.default_rng(5)
    raised = 0
    for _ in range(300):
        h, w = (int(v) for v in rng.integers(1, 5, 2))
        view = rng.choice([-2, -1, -1, -1, 0, 1, 2, 3], size=(h, w)).astype(np.int8)
        mines = None if rng.random() < 0.5 else int(rng.integers(0, h * w + 1))
        try:
            brute_force_view(view, mines)
        except ValueError:
            raised += 1
            with pytest.raises(ValueError):
                fastsweep.deduce(view, mines)
            continue
        check_view(view, mines)
    assert raised > 30  # the generator does produce inconsistent views


@pytest.mark.parametrize("view, text", [
    (np.zeros((2, 2), np.float64), "integer"),
    (np.zeros((2, 2), bool), "integer"),
    (np.zeros(4, np.int8), "2-D"),
    (np.zeros((2, 2, 2), np.int8), "2-D"),
    ([[0, -1], [2]], "rows of equal length"),
    ([[0, -1.5]], r"value -1.5 at \(0,1\) is not an integer"),
    ([[0, -1.0]], "got dtype float64"),
    ([[0, None]], "got dtype object"),
    ([["0", "-1"]], "got dtype <U2"),
    ([[]], "empty"),
    (np.array([[9, -1]], np.int8), "value 9"),
    (np.array([[-5, -1]], np.int8), "value -5"),  # (-3 / -4: an agent's detonation / blank)
    (np.array([[4, -1]], np.int8), "larger than its number of neighbours"),
    (np.zeros((0, 3), np.int8), "empty"),
])
def test_malformed_views_raise(view, text):
    with pytest.raises(ValueError, match=text):
        fastsweep.deduce(view)


def test_array_likes_of_integers_are_views():
    """A list of lists (or any integer array-like) is the same view as its int8 array."""
    rows = [[1, -1, -1], [1, -1, -2], [0, 1, -1]]
    arr = np.array(rows, np.int8)
    for mines in (None, 2):
        s1, m1 = fastsweep.deduce(rows, mines)
        s2, m2 = fastsweep.deduce(arr, mines)
        assert (s1 == s2).all() and (m1 == m2).all()
        assert np.array_equal(fastsweep.mine_probabilities(rows, mines),
                              fastsweep.mine_probabilities(arr, mines))
        assert np.array_equal(fastsweep.outcome_probabilities(rows, mines),
                              fastsweep.outcome_probabilities(arr, mines))
    for like in (tuple(map(tuple, rows)), arr.astype(np.int64), arr.astype(np.uint8) * 0):
        assert fastsweep.mine_probabilities(like).shape == (3, 3)
    soft = np.full((3, 3, 9), np.nan)
    soft[0, 0] = [0.1, 0.9, 0, 0, 0, 0, 0, 0, 0]
    assert np.array_equal(fastsweep.mine_probabilities(rows, likelihood=soft),
                          fastsweep.mine_probabilities(arr, likelihood=soft))


def test_hostile_views_raise_clearly():
    """A view past the board limit is refused before any state is built (it used to
    overflow the int32 state and crash); a masked array is refused (the kernel would read
    the masked entries' data)."""
    with pytest.raises(ValueError, match="too large"):
        fastsweep.mine_probabilities(np.full((7850, 7850), -1, np.int8))
    masked = np.ma.masked_array(np.array([[1, -1], [-3, -1]], np.int8),
                                mask=[[0, 0], [1, 0]])
    with pytest.raises(ValueError, match="masked"):
        fastsweep.deduce(masked)


def test_bad_arguments_raise():
    v = np.full((2, 2), -1, np.int8)
    for kw, text in [({"mines": 1.5}, "mines"), ({"mines": True}, "mines"),
                     ({"prior": 0.0}, "prior"), ({"prior": 1.0}, "prior"),
                     ({"budget": -1}, "budget"),
                     ({"budget": 2**24 + 1}, r"budget: must be an integer in \[0, 2\*\*24\]")]:
        with pytest.raises(ValueError, match=text):
            fastsweep.mine_probabilities(v, **kw)


# ---- agents -----------------------------------------------------------------------

@pytest.mark.parametrize("agent", ["inference", "probability"])
@pytest.mark.parametrize("mine_count", [False, True])
@pytest.mark.parametrize("rules, size, mines, games", [
    ("classic", (9, 9), 10, 1500),
    ("classic", (16, 30), 99, 500),
    ("keep-going", (10, 10), 30, 1500),
    ("keep-going", (16, 16), 80, 300),
])
def test_agents_sound_in_play(agent, mine_count, rules, size, mines, games):
    cfg = make_config(agent, size, mines=mines, rules=rules, mine_count=mine_count)
    out, _, (fst, fmine) = play_chunk(cfg, 17, 0, games, keep_boards=True)
    assert out[:, kg.OUT_WRONG_FLAGS].sum() == 0
    assert out[:, kg.OUT_SAFE_DETONATIONS].sum() == 0
    assert (out[:, kg.OUT_DETONATED] <= out[:, kg.OUT_GUESSES]).all()
    assert out[:, kg.OUT_APPROX].sum() == 0
    assert (fmine[fst == kl.FLAGGED] == 1).all()
    if rules == "keep-going":
        assert (fst != kl.HIDDEN).all()  # every cell resolved


def _views_at_guesses(t):
    """(view, move) just before each guess after the opening move of trace ``t``."""
    h, w = t.config.height, t.config.width
    clues = t.clues.ravel()
    v = np.full(h * w, -1, np.int8)
    for i, mv in enumerate(t.moves.itertuples(index=False)):
        if mv.kind == kl.A_GUESS and i > 0:
            yield v.reshape(h, w).copy(), mv
        v[mv.cell_index] = -2 if mv.out < 0 else clues[mv.cell_index]


@pytest.mark.parametrize("agent", ["inference", "probability"])
@pytest.mark.parametrize("mine_count", [False, True])
def test_agents_guess_only_when_nothing_is_certain(agent, mine_count):
    """Replay: before every guess the oracle finds no certain cell (the deduction was
    complete), and the probability agent's guess has the lowest exact probability."""
    guesses = 0
    for game in range(12):
        for (h, w), mines in (((4, 4), 5), ((3, 6), 6), ((4, 5), 8)):
            # the prior steers only probability's guesses (inference does not read it)
            prior = dict(prior=0.4) if agent == "probability" else {}
            t = fastsweep.play(agent, (h, w), mines=mines, seed=9, game=game,
                               mine_count=mine_count, **prior)
            for view, mv in _views_at_guesses(t):
                safe, mine, p = brute_force_view(view, mines if mine_count else None, 0.4)
                assert not safe.any() and not mine.any(), (view, mv)
                if agent == "probability":
                    hidden = view == -1
                    assert p.ravel()[mv.cell_index] <= p[hidden].min() + 1e-12
                    assert abs(mv.probability - p.ravel()[mv.cell_index]) < 1e-12
                    assert "mine probability" in mv.reason
                guesses += 1
    assert guesses > 50


def test_trace_reasons():
    t = fastsweep.play("probability", (16, 30), mines=99, seed=3, rules="classic",
                       mine_count=True)
    reasons = " | ".join(t.moves.reason)
    assert "by deduction from" in reasons
    assert "lowest of" in reasons


def test_registered():
    assert {"inference", "probability"} <= set(fastsweep.AGENTS)
    df = fastsweep.run("probability", 9, mines=10, games=20, seed=1, rules="classic")
    assert (df.approx_steps == 0).all()

"""A user agent's knowledge (``obs.knowledge``) against a fresh analysis of its view
(``fastsweep.mine_probabilities`` / ``deduce`` on the observation), issue 57, part 1:

* its methods check their arguments as the public functions do (one checking path);
* it refuses every position the fresh analysis refuses, with the same message, and
  answers the same elsewhere: seeded games under every noise model, with wrong flags,
  moved by the fresh analysis (so a fault of the knowledge cannot steer the walk away
  from where it shows);
* the issue's example: a clue with no hidden neighbour left, contradicted by its
  detonated neighbours (the counting sees only clues with hidden neighbours).
"""
import collections
import warnings

import numpy as np
import pytest

import fastsweep
from fastsweep.inference import ApproximationWarning
from fastsweep.user.observation import _HINT, GameInfo, Knowledge, _Game


def _error(f, *args, **kw):
    """The message of the ValueError ``f(*args, **kw)`` raises, else None (its result is
    dropped). Any other exception fails the test."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ApproximationWarning)
            f(*args, **kw)
    except ValueError as e:
        return str(e)
    return None


BAD_PRIORS = [1.5, -0.5, float("nan"), 0.0, 1.0, "x", None, True, np.inf]
BAD_BUDGETS = [-1, 2**25, 10**30, 1.5, "x", None, True, 2**24 + 1]


def _check_arguments(obs):
    k = obs.knowledge
    for prior in BAD_PRIORS:
        want = _error(fastsweep.mine_probabilities, obs, prior=prior)
        assert want is not None and want.startswith("prior: "), prior
        assert _error(k.mine_probabilities, prior=prior) == want, prior
        assert _error(k.mine_probabilities, prior) == want, prior
    for budget in BAD_BUDGETS:
        want = _error(fastsweep.mine_probabilities, obs, budget=budget)
        assert want is not None and want.startswith("budget: "), budget
        assert _error(k.mine_probabilities, budget=budget) == want, budget
        assert _error(fastsweep.deduce, obs, budget=budget) == want, budget
        assert _error(k.deduce, budget=budget) == want, budget
        assert _error(k.deduce, budget) == want, budget
    # what is allowed still answers, as the public functions do
    for prior, budget in [(0.3, 0), (np.float32(0.7), 10**4), (0.5, 2**24),
                          (1e-9, np.int64(5000))]:
        p = k.mine_probabilities(prior=prior, budget=budget)
        assert np.allclose(p, fastsweep.mine_probabilities(obs, prior=prior, budget=budget),
                           atol=1e-12, rtol=0)
    safe, mine = k.deduce(budget=np.int32(10**4))
    s2, m2 = fastsweep.deduce(obs, budget=10**4)
    assert (safe == s2).all() and (mine == m2).all()


@pytest.mark.parametrize("mine_count", [False, True])
def test_the_knowledge_checks_its_arguments_as_the_inference_api(mine_count):
    checked = []

    def agent(obs):
        if obs.move == 3:
            _check_arguments(obs)
            checked.append(obs.game)
        return next(divmod(int(c), obs.view.shape[1]) for c in obs.order
                    if obs.view.flat[c] == -1)

    fastsweep.run(agent, (5, 6), mines=5, games=3, seed=2, mine_count=mine_count)
    assert checked


def _knowledge(h, w, mines, log):
    """A game's knowledge after the moves of ``log`` ((cell, view value) pairs)."""
    game = _Game(GameInfo(0, 0, h, w, mines, "keep-going", "any"), np.arange(h * w))
    game.log[:] = log
    return Knowledge(game)


@pytest.mark.parametrize("mines", [2, None])
def test_a_settled_clue_its_detonated_neighbours_contradict_is_refused(mines):
    # [-3, 1, -3, -1]: the clue 1 shown (a detector that missed a mine, or an optimistic
    # sensor), then both its neighbours detonated; it has no hidden neighbour left. With
    # the total (2 mines, both known) the knowledge called the last hidden cell safe.
    view = np.array([[-3, 1, -3, -1]], np.int8)
    k = _knowledge(1, 4, mines, [(1, 1), (0, -3), (2, -3)])
    want = ("view is inconsistent: clue 1 at (0,1) is smaller than its known-mine "
            "neighbours (2 known mines, 0 hidden neighbours)")
    assert _error(fastsweep.deduce, view, mines) == want
    assert _error(fastsweep.mine_probabilities, view, mines) == want
    mine = want.replace("view is", "knowledge is") + _HINT
    assert _error(k.deduce) == mine
    assert _error(k.mine_probabilities) == mine
    assert "\n" not in mine


def test_the_knowledge_refuses_a_total_its_flags_exceed():
    # three flags (two of them wrong) where the total is 1
    view = np.array([[-2, -2, -2, -1, 0]], np.int8)
    k = _knowledge(1, 5, 1, [(4, 0), (0, -2), (1, -2), (2, -2)])
    want = "view is inconsistent with mines=1: it already shows 3 known mines"
    assert _error(fastsweep.deduce, view, 1) == want
    assert _error(k.deduce) == want.replace("view is", "knowledge is") + _HINT


class _Compare:
    """At every move: the knowledge's answers and refusals against a fresh analysis.
    Moves by the fresh analysis: a certain safe cell, else (sometimes) a certain mine
    flagged, else the lowest probability or a random hidden cell, now and then a random
    flag (a wrong flag makes the knowledge inconsistent without noise)."""

    def __init__(self, tally):
        self.tally = tally

    def act(self, obs):
        t = self.tally
        k = obs.knowledge
        t["moves"] += 1
        fresh = {}
        for name, mine_f, know_f in (("p", fastsweep.mine_probabilities, k.mine_probabilities),
                                     ("d", fastsweep.deduce, k.deduce)):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ApproximationWarning)
                try:
                    want = mine_f(obs)
                except ValueError as e:
                    got = _error(know_f)
                    # refused too, with the same message (the knowledge's own ending)
                    assert got == str(e).replace("view is", "knowledge is", 1) + _HINT, \
                        (obs.view.tolist(), obs.mines, str(e), got)
                    t["refused"] += 1
                    continue
                got = know_f()
            fresh[name] = want
            if name == "p":
                assert np.allclose(got, want, atol=1e-12, rtol=0), obs.view.tolist()
            else:
                assert (got[0] == want[0]).all() and (got[1] == want[1]).all(), \
                    obs.view.tolist()
            t["answered"] += 1
        hidden = obs.view == -1
        r = obs.rng.random()
        if "d" in fresh:
            safe, mine = fresh["d"][0] & hidden, fresh["d"][1] & hidden
            if safe.any() and r < 0.8:
                return fastsweep.Safe(*np.argwhere(safe)[0])
            if mine.any() and r < 0.9:
                return fastsweep.Flag(*np.argwhere(mine)[0])
        cells = np.argwhere(hidden)
        cell = tuple(int(x) for x in cells[obs.rng.integers(len(cells))])
        if r > 0.97:
            return fastsweep.Flag(*cell)
        if "p" in fresh and r < 0.7:
            p = np.where(hidden, fresh["p"], 2.0)
            return tuple(int(x) for x in np.unravel_index(p.argmin(), p.shape))
        return cell


NOISES = ["detector:p_neg=0.2,p_pos=0", "optimistic:p=0.5", "none",
          "detector:p_neg=0.2,p_pos=0.2", "cautious:p=0.5", "reveal:p=0.7"]


@pytest.mark.parametrize("noise", NOISES)
def test_the_knowledge_refuses_and_answers_as_a_fresh_analysis_move_by_move(noise):
    tally = collections.Counter()
    for mine_count in (False, True):
        for rules in ("keep-going", "classic"):
            for size, mines in (((5, 6), 6), ((8, 8), 12)):
                fastsweep.run(_Compare(tally), size, mines=mines, games=10, seed=57,
                              noise=noise, mine_count=mine_count, rules=rules)
    # both kinds of position, in numbers (two analyses a move)
    assert tally["moves"] >= 500, tally
    assert tally["answered"] >= 300 and tally["refused"] >= 100, tally

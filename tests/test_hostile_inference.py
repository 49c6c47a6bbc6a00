"""Hostile inputs to the inference API (issue 46, items 6, 7, 9, 10), against the
brute force of naive.py.

* tiny work budgets: every certain cell reported is certain, and a result that does not
  warn of an incomplete deduction is the complete one (on tiny views it always is);
* soft clues with extreme but valid likelihood rows (a row is defined up to a constant
  factor): exact against a brute force that weighs in log space, malformed rows refused
  with the argument and the cell named;
* huge views under an address-space cap (a subprocess): no allocation of the machine's
  size;
* the layout search draws its moves before copying layouts (memory, same results).
"""
import warnings

import numpy as np
import pytest

import fastsweep
from fastsweep.inference import ApproximationWarning
from naive import brute_force_view, random_view


def _run(view, mines, budget):
    """(safe, mine, claims complete, warned) of deduce with a budget."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always", ApproximationWarning)
        safe, mine = fastsweep.deduce(view, mines, budget=budget)
    msgs = [str(x.message) for x in w if issubclass(x.category, ApproximationWarning)]
    complete = all("deduction there is complete" in m for m in msgs)
    return safe, mine, complete, bool(msgs)


def test_issue_view_with_budget_one_is_complete():
    view = [[1, -1, 1], [-1, -1, -1], [-1, -1, -1], [2, -1, 1], [-1, 1, 0]]
    s0, m0, _ = brute_force_view(np.array(view), 3)
    for budget in (1, 2, 5, 10, 0):
        safe, mine, complete, _ = _run(view, 3, budget)
        assert (safe == s0).all() and (mine == m0).all(), budget
        assert complete, budget
    assert np.argwhere(s0).tolist() == [[1, 0], [1, 2], [2, 0], [2, 2], [3, 1]]
    assert np.argwhere(m0).tolist() == [[2, 1], [4, 0]]


@pytest.mark.parametrize("seed", range(3))
def test_tiny_budgets_are_sound_and_complete_when_they_say_so(seed):
    rng = np.random.default_rng(4600 + seed)
    checked = 0
    for _ in range(120):
        h, w = (int(v) for v in rng.integers(2, 6, 2))
        view, total = random_view(rng, h, w, rng.uniform(0.1, 0.5), rng.uniform(0.2, 0.8),
                                  rng.uniform(0.0, 0.4), max_hidden=12)
        for mines in (None, total):
            try:
                s0, m0, _ = brute_force_view(view, mines)
            except ValueError:
                continue
            for budget in (1, 2, 3, 7):
                safe, mine, complete, _ = _run(view, mines, budget)
                # (a) every claim is right
                assert not (safe & ~s0).any() and not (mine & ~m0).any(), (view, mines, budget)
                # (b) a claim of completeness is the complete answer; tiny views always
                # finish (the search's node limit does not depend on the budget)
                assert complete, (view.tolist(), mines, budget)
                assert (safe == s0).all() and (mine == m0).all(), (view.tolist(), mines,
                                                                   budget)
                checked += 1
    assert checked > 300

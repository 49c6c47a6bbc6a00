"""What-if deductions re-counted locally (``inference/whatif/ded.py``, the risk agent's).

For every hidden cell of many random positions and every value it could show (and "it
is a mine"), the cells complete deduction decides, and proves safe, on the what-if
position, counted on the components the outcome touches, equal a whole
``count.analyse`` of that position, with and without the mine total: integer for
integer, so the risk agent's choices cannot change. On small boards both also equal a
brute-force enumeration of the layouts (every what-if that has one). The local count
is the one taken on most what-ifs (the whole analysis only where the total may decide).
"""
import numpy as np
import pytest

import naive
from fastsweep.kernels.inference.whatif.ded import MINE
from fastsweep.kernels.inference.whatif.check import whatif_routes
from fastsweep.studies.positions import random_view
from views import state_of


def check(view, mines, prior):
    """``whatif.check.whatif_routes`` on ``view`` (``mines`` < 0: not told; one count for
    a value's weight and deduction at the prior 0.5, apart at 0.3): assert the local
    deductions equal the whole analyses, and the joint pass outcome_table. Returns
    (got, ok)."""
    h, w = view.shape
    S = state_of(view, mines=mines)
    got = np.zeros((h * w, 10, 3), np.int64)
    want = np.zeros((h * w, 10, 2), np.int64)
    joint = np.zeros((h * w, 10, 2), np.int64)
    out = np.zeros((h * w, 10))
    ref = np.zeros((h * w, 10))
    ok = whatif_routes(S, mines >= 0, prior, got, want, joint, out, ref)
    bad = np.argwhere((got[..., :2] != want).any(axis=2))
    assert len(bad) == 0, (view, mines, bad[:5], got[tuple(bad[0])], want[tuple(bad[0])])
    # the joint pass: outcome_table's floats bit for bit, and the same deductions
    assert np.array_equal(out, ref, equal_nan=True), view
    counted = joint[..., 0] != -2
    assert np.array_equal(joint[counted], want[counted]), view
    # counted where risk needs it: isolated cells only with the total (else a formula)
    wanted = (out[:, :9] > 0) & ~(isolated_mask(view).ravel()[:, None] & (mines < 0))
    assert (counted[:, :9] == wanted).all(), view
    assert not counted[:, 9].any()
    return got, ok


def isolated_mask(view):
    """Hidden cells that, with their hidden neighbours, touch no revealed cell."""
    h, w = view.shape
    p = np.zeros((h + 2, w + 2), np.int64)
    p[1:-1, 1:-1] = view >= 0
    near = sum(p[1 + a:h + 1 + a, 1 + b:w + 1 + b] for a in (-1, 0, 1) for b in (-1, 0, 1))
    hidden = view == -1
    q = np.zeros((h + 2, w + 2), np.int64)
    q[1:-1, 1:-1] = hidden & (near > 0)  # (near counts the cell itself: 0 for hidden)
    touching = sum(q[1 + a:h + 1 + a, 1 + b:w + 1 + b] for a in (-1, 0, 1) for b in (-1, 0, 1))
    return hidden & (near == 0) & (touching == 0)


def small_views(count, max_hidden):
    rng = np.random.default_rng(47)
    out = []
    while len(out) < count:
        h, w = [(3, 4), (4, 4), (3, 5), (4, 5), (2, 6)][len(out) % 5]
        view, mines = naive.random_view(rng, h, w, [0.15, 0.25, 0.4][len(out) % 3],
                                        [0.3, 0.5, 0.7][len(out) % 3], [0.0, 0.3][len(out) % 2])
        if 0 < int((view == -1).sum()) <= max_hidden:
            out.append((view, mines))
    return out


@pytest.mark.parametrize("told", [False, True], ids=["nototal", "total"])
def test_local_deductions_equal_brute_force_on_small_boards(told):
    checked = 0
    for view, mines in small_views(40, 10):
        total = mines if told else None
        got, _ = check(view, mines if told else -1, 0.5)
        out = naive.brute_force_outcomes(view, total)
        h, w = view.shape
        for r, c in zip(*np.nonzero(view == -1)):
            for v in range(10):
                if out[r, c, v] <= 0:  # no layout: the what-if cannot happen
                    continue
                after = view.copy()
                after[r, c] = -2 if v == MINE else v
                safe, mine, _ = naive.brute_force_view(after, total)
                assert got[r * w + c, v, 0] == safe.sum() + mine.sum(), (view, r, c, v)
                assert got[r * w + c, v, 1] == safe.sum(), (view, r, c, v)
                checked += 1
    assert checked > 400


@pytest.mark.parametrize("told", [False, True], ids=["nototal", "total"])
def test_local_deductions_equal_whole_analyses(told):
    """Larger random positions (many components, some wide), openings to endgames: the
    total rules frontier counts out there, and the whole analysis decides those."""
    local = whole = decided = 0
    for i in range(36):
        h, w = [(9, 9), (12, 14), (16, 16)][i % 3]
        mines = [10, 30, 40][i % 3]
        view, m = random_view(h, w, mines, [5, 20, 60, 120, 170, 200][i % 6] % (h * w - mines),
                              seed=i)
        got, ok = check(view, m if told else -1, [0.5, 0.3][i % 2])
        asked = got[..., 0] != -9
        local += int((asked & (got[..., 2] == 0)).sum())
        whole += int((asked & (got[..., 2] == 1)).sum())
        decided += int((got[..., 0] > 0).sum())
    assert decided > 1000  # the what-ifs decide cells
    assert local > 10 * whole  # the local count is the rule, not the exception
    if told:
        assert whole > 0  # and the fallback was met and checked

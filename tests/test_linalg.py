"""The reports' linear-algebra agents (``linalg``, ``linalg-plus``).

* the kernel's reduction (fraction-free integer Gauss-Jordan, unconstrained cells held as
  one aggregate column) decides exactly the cells that a plain-Python RREF over
  ``fractions.Fraction`` with every hidden cell as its own column decides, on many random
  views, with and without the mine total;
* what they decide is certain (a subset of ``fastsweep.deduce``), and ``linalg-plus``
  decides a superset of ``linalg``;
* full games on 10x10 and 30x30 at densities 0.1-0.5 pass the contract's batch and
  trace checks, and the overflow guard never fired.
"""
from fractions import Fraction

import numpy as np
import pytest

import fastsweep
import naive
import test_agent_contract as contract
from fastsweep.options import make_config
from fastsweep.studies.positions import random_view
from fastsweep.runner import play_chunk
from views import decide_view


# ---- the reference ----------------------------------------------------------------------

def equations(view, mines):
    """(columns: hidden cells, frontier first then unconstrained, each in cell order; rows
    of (coefficients, rhs)) of a view, as the reports write them."""
    h, w = view.shape
    v = view.ravel()
    hidden = [c for c in range(h * w) if v[c] == -1]
    frontier = [c for c in hidden if any(v[d] >= 0 for d in naive.neighbours(h, w, c))]
    cols = frontier + [c for c in hidden if c not in set(frontier)]
    col = {c: j for j, c in enumerate(cols)}
    rows = []
    for c in range(h * w):
        if v[c] < 0:
            continue
        nb = naive.neighbours(h, w, c)
        hid = [d for d in nb if v[d] == -1]
        if hid:
            row = [0] * len(cols)
            for d in hid:
                row[col[d]] = 1
            rows.append((row, int(v[c]) - sum(1 for d in nb if v[d] == -2)))
    if mines is not None and cols:
        rows.append(([1] * len(cols), mines - int((v == -2).sum())))
    return cols, rows


def rref(rows, ncols):
    """Reduced row echelon form over the rationals (pivot 1, zero rows dropped)."""
    m = [[Fraction(x) for x in r] + [Fraction(b)] for r, b in rows]
    r = 0
    for j in range(ncols):
        p = next((i for i in range(r, len(m)) if m[i][j] != 0), None)
        if p is None:
            continue
        m[r], m[p] = m[p], m[r]
        pv = m[r][j]
        m[r] = [x / pv for x in m[r]]
        for i in range(len(m)):
            if i != r and m[i][j] != 0:
                f = m[i][j]
                m[i] = [x - f * y for x, y in zip(m[i], m[r])]
        r += 1
    return [row for row in m if any(x != 0 for x in row[:-1])]


def reference(view, mines, plus):
    """ded (H x W: 1 safe, 2 mine, 0 undecided) from the Fraction RREF."""
    cols, rows = equations(view, mines)
    ded = np.zeros(view.size, np.int8)
    for row in rref(rows, len(cols)):
        coef, y = row[:-1], row[-1]
        nz = [j for j, x in enumerate(coef) if x != 0]
        pos = sum(x for x in coef if x > 0)
        neg = sum(x for x in coef if x < 0)
        if len(nz) == 1:
            if y == 0:
                ded[cols[nz[0]]] = 1
            elif y == coef[nz[0]]:
                ded[cols[nz[0]]] = 2
        elif plus and (y == pos or y == neg):
            mine_sign = 1 if y == pos else -1
            for j in nz:
                ded[cols[j]] = 2 if (coef[j] > 0) == (mine_sign == 1) else 1
    return ded.reshape(view.shape)


def views(count=120):
    """Random consistent views: (view, mine total), ``count`` from each of both
    random-view builders (tests/test_bruteforce.py uses them too)."""
    out = []
    for i in range(count):
        h, w = [(3, 4), (5, 5), (6, 8), (8, 8), (4, 11), (9, 7)][i % 6]
        n = h * w
        m = [n // 8, n // 5, n // 3, n // 2][i % 4]
        out.append(random_view(h, w, m, (n - m) // [2, 3, 4][i % 3], seed=i,
                               known_mine_frac=[0.0, 0.2, 0.5][i % 3]))
    rng = np.random.default_rng(2019)
    for i in range(count):
        h, w = [(4, 4), (5, 6), (7, 7), (6, 9)][i % 4]
        out.append(naive.random_view(rng, h, w, [0.15, 0.25, 0.35, 0.5][i % 4],
                                     [0.3, 0.5, 0.7][i % 3], [0.0, 0.3][i % 2]))
    return out


VIEWS = views()


@pytest.mark.parametrize("plus", [False, True], ids=["linalg", "linalg-plus"])
@pytest.mark.parametrize("told", [False, True], ids=["nototal", "total"])
def test_kernel_reduction_is_the_fraction_rref(plus, told):
    decided = 0
    for k, (view, total) in enumerate(VIEWS):
        ded, cut, biggest = decide_view(view, mines=total if told else -1, plus=plus)
        assert cut == 0 and biggest < 2**31, k
        ref = reference(view, total if told else None, plus)
        assert np.array_equal(ded, ref), (k, view, ded, ref)
        decided += int((ded > 0).sum())
    assert decided > 200  # the views are not trivial


@pytest.mark.parametrize("told", [False, True], ids=["nototal", "total"])
def test_decisions_are_certain_and_plus_decides_more(told):
    more = 0
    for k, (view, total) in enumerate(VIEWS):
        mines = total if told else None
        safe, mine = fastsweep.deduce(view, mines)
        a, _, _ = decide_view(view, mines=total if told else -1, plus=False)
        b, _, _ = decide_view(view, mines=total if told else -1, plus=True)
        for ded in (a, b):
            assert safe[ded == 1].all() and mine[ded == 2].all(), (k, view, ded)
        assert (b[a > 0] == a[a > 0]).all(), (k, "linalg-plus keeps linalg's decisions")
        more += int(((b > 0) & (a == 0)).sum())
    assert more > 0, "linalg-plus never decided more on these views"


def test_the_aggregate_column_counts_its_cells():
    # 1 at (0,0): its mine is at (0,1) or (1,1); the total says 1 mine: everything else
    # is safe, the unconstrained cells included (a row over all of them: linalg-plus only)
    view = np.array([[1, -1, -1, -1],
                     [1, -1, -1, -1]], np.int8)
    a, _, _ = decide_view(view, mines=1, plus=False)
    b, _, _ = decide_view(view, mines=1, plus=True)
    assert np.array_equal(b, reference(view, 1, True))
    assert np.array_equal(a, reference(view, 1, False))
    assert (b[:, 2:] == 1).all() and (a[:, 2:] == 0).all()
    # one unconstrained cell: its aggregate row is a single-cell row (linalg decides it)
    one = np.array([[1, -1, -1]], np.int8)
    a, _, _ = decide_view(one, mines=1, plus=False)
    assert a.tolist() == [[0, 2, 1]] == reference(one, 1, False).tolist()


# ---- full games -------------------------------------------------------------------------

GAMES = [(size, d, mc) for size in (10, 30) for d in (0.1, 0.2, 0.3, 0.5) for mc in (False, True)]


@pytest.mark.parametrize("agent", ["linalg", "linalg-plus"])
def test_full_games_pass_the_contract(agent):
    for size, density, mc in GAMES:
        cfg = make_config(agent, size, density=density, mine_count=mc)
        games = 60 if size == 10 else 12
        out, _, (fst, fmine) = play_chunk(cfg, 7, 0, games, keep_boards=True)
        where = (agent, size, density, mc)
        contract.check_batch(cfg, out, fst, fmine, where)
        assert (out[:, 8] == 0).all(), (where, "the overflow guard fired")  # OUT_APPROX
        for g in range(2):
            t = fastsweep.play(agent, size, density=density, mine_count=mc, seed=7, game=g)
            contract.check_trace(t, out[g], fst[g], fmine[g], where + (g,))


def test_plus_flags_at_least_as_much_on_average():
    # not per game (different decisions change the later guesses), but on average
    a = fastsweep.run("linalg", 16, density=0.3, games=300, seed=5, mine_count=True)
    b = fastsweep.run("linalg-plus", 16, density=0.3, games=300, seed=5, mine_count=True)
    i = fastsweep.run("inference", 16, density=0.3, games=300, seed=5, mine_count=True)
    assert a.score.mean() <= b.score.mean() + 0.01
    assert b.score.mean() <= i.score.mean() + 0.01

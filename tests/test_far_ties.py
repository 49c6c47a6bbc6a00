"""The look-ahead's ``far_ties`` (kernels/offedge.py ``reveal_distance``, kernels/lookahead.py
``_candidates``): of candidates it cannot tell apart, the one farthest from the revealed
cells. The distance equals a plain Chebyshev minimum; on random views the choice is never
a cell with an equally safe, alike (same isolated class) cell farther away, and the option
changes choices; whole games pass the contract."""
import numpy as np

import fastsweep
from fastsweep.options import make_config
import naive
from fastsweep.kernels.engine import layout as kl
from fastsweep.kernels.agents.solver.offedge import reveal_distance
from fastsweep.kernels.agents.risk import iso_key
from test_pseq import CASES
from views import lookahead_view, state_of


def chebyshev(view):
    """Each cell's distance in king moves to the nearest revealed cell (naive)."""
    h, w = view.shape
    rr, cc = np.nonzero(view >= 0)
    out = np.full((h, w), 10 ** 6)
    for r in range(h):
        for c in range(w):
            if rr.size:
                out[r, c] = np.max([np.abs(rr - r), np.abs(cc - c)], axis=0).min()
    return out


def test_reveal_distance_is_the_chebyshev_distance():
    rng = np.random.default_rng(3)
    for _ in range(200):
        h, w = rng.integers(1, 9, 2)
        view, mines = naive.random_view(rng, h, w, 0.2, rng.choice([0.0, 0.05, 0.3]), 0.3)
        S = state_of(view, mines=mines, order=np.arange(h * w))
        assert (reveal_distance(S).reshape(h, w) == chebyshev(view)).all(), view


def test_the_choice_has_no_farther_twin():
    rng = np.random.default_rng(5)
    checked = changed = 0
    for _ in range(1500):
        h, w = (6, 9) if rng.random() < 0.5 else (8, 8)
        view, mines = naive.random_view(rng, h, w, 0.15, 0.08, 0.0)
        order = rng.permutation(h * w)
        far = lookahead_view(view, mines=mines, order=order, cut=0.9, far=True)
        near = lookahead_view(view, mines=mines, order=order, cut=0.9, far=False)
        if far[1] != kl.R_LOOKAHEAD_GUESS:
            continue
        S = state_of(view, mines=mines, order=order)
        d = reveal_distance(S)
        c = far[0]
        k = iso_key(S, c)
        if k < 0:
            continue
        twins = [x for x in range(h * w) if view.flat[x] == -1 and iso_key(S, x) == k]
        assert d[c] == max(d[x] for x in twins), (view, c)
        checked += 1
        changed += far[0] != near[0]
    assert checked >= 50 and changed >= 10, (checked, changed)


def test_full_games_pass_the_contract():
    # on by default: test_lookahead plays these very games (the same configs); not again here
    assert all(make_config("lookahead", **c, far_ties=True) == make_config("lookahead", **c)
               for c in CASES)
    kw = dict(mines=99, games=40, seed=2, rules="classic", mine_count=True)
    on = fastsweep.run("lookahead", (16, 30), far_ties=True, **kw).drop(columns="seconds")
    off = fastsweep.run("lookahead", (16, 30), far_ties=False, **kw).drop(columns="seconds")
    assert not on.equals(off)  # it changes Expert games
    # on by default since 2026-11-28: the default's config is the "on" run's (the same
    # games, without playing them a third time)
    assert make_config("lookahead", (16, 30), mines=99) == make_config(
        "lookahead", (16, 30), mines=99, far_ties=True)

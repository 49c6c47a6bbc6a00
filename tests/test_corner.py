"""The look-ahead's corner opening (``corner_opening``, on by default, kernels/lookahead.py):
after an opening that shows a number, with nothing certain, the corner farthest from it if
no hidden cell is safer, unless the endgame search answers first; hand-made views where it
applies and where it must not, the contract on full games, no effect after a zero
opening; and the look-ahead switches (``corner_opening``, ``pseudo_fifty``,
``fifty_blocks``)."""
import numpy as np
import pandas as pd
import pytest

import fastsweep
from fastsweep.options import make_config
import naive
from fastsweep.cli import main as cli
from fastsweep.kernels.engine import layout as kl
from test_pseq import CASES
from views import lookahead_view


def opening(h, w, r, c, value):
    v = np.full((h, w), -1, np.int8)
    v[r, c] = value
    return v


def test_the_far_corner_after_a_corner_number():
    v = opening(16, 30, 0, 0, 1)
    order = np.arange(480)
    endgame = dict(endgame=1000, nodes=10 ** 6)
    assert lookahead_view(v, mines=99, order=order, cut=0.9, corner=True, **endgame) == (
        479, kl.R_CORNER_GUESS, 0, -1)
    cell, why, _, _ = lookahead_view(v, mines=99, order=order, cut=0.9, corner=False,
                                     **endgame)
    assert why == kl.R_LOOKAHEAD_GUESS and cell != 479  # the look-ahead's own choice
    # from the centre every corner is as far: the first of them in the guess order
    v = opening(5, 5, 2, 2, 2)
    order = np.array([7, 20, 4, 0, 24] + [c for c in range(25) if c not in (7, 20, 4, 0, 24)])
    assert lookahead_view(v, mines=4, order=order, cut=0.9, corner=True)[:3] == (
        20, kl.R_CORNER_GUESS, 12)


def test_not_when_a_cell_is_safer_or_more_is_known():
    # 4 x 4, 10 mines: the far cells hold 9 of 12, the opening's neighbours 1 of 3
    v = opening(4, 4, 0, 0, 1)
    _, _, p = naive.brute_force_view(v, 10)
    assert p[3, 3] > p[0, 1]
    cell, why, _, _ = lookahead_view(v, mines=10, order=np.arange(16), cut=0.9, corner=True)
    assert why != kl.R_CORNER_GUESS and cell in (1, 4, 5)
    # a second revealed cell: the game is past its opening
    v = opening(3, 6, 0, 0, 1)
    v[0, 3] = 2
    safe, sure, p = naive.brute_force_view(v, 4)
    assert not safe.any() and not sure.any()
    assert p[2, 5] == pytest.approx(p[v == -1].min())  # the far corner is among the safest
    why = lookahead_view(v, mines=4, order=np.arange(18), cut=0.9, corner=True)[1]
    assert why != kl.R_CORNER_GUESS


def test_the_endgame_search_comes_first():
    # 4 x 4, 2 mines, a 1 in the corner: 3 x 12 = 36 layouts, within the endgame's reach;
    # its exact move stands before the heuristic (which would take the far corner)
    v = opening(4, 4, 0, 0, 1)
    order = np.arange(16)
    assert lookahead_view(v, mines=2, order=order, cut=0.9, corner=True)[:3] == (
        15, kl.R_CORNER_GUESS, 0)
    why = lookahead_view(v, mines=2, order=order, cut=0.9, corner=True, endgame=1000,
                         nodes=10 ** 6)[1]
    assert why == kl.R_ENDGAME_GUESS


def test_full_games_pass_the_contract_and_say_why():
    # on by default: test_lookahead plays these very games (the same configs); not again here
    assert all(make_config("lookahead", **c, corner_opening=True) == make_config("lookahead", **c)
               for c in CASES)
    said = []
    for g in range(10):
        t = fastsweep.play("lookahead", (16, 30), mines=99, rules="classic",
                           mine_count=True, seed=4, game=g, corner_opening=True)
        said += list(t.moves[t.moves.reason.str.startswith("corner opening")].reason)
        assert all(m.reason.startswith("corner opening") == (m.cell == "(15,29)" and k == 1)
                   for k, m in enumerate(t.moves.itertuples()) if m.action == "guess")
    assert said and all("the corner farthest from it" in r for r in said), said


@pytest.mark.parametrize("name", ["corner_opening", "pseudo_fifty", "fifty_blocks", "far_ties"])
def test_the_lookahead_switches(name):
    with pytest.raises(ValueError, match=fr"{name}: expected True or False, got 1"):
        fastsweep.run("lookahead", 9, mines=10, **{name: 1})
    with pytest.raises(SystemExit):  # a switch: it takes no value
        cli.main(["run", "--agent", "lookahead", "--size", "9", "--mines", "10",
                  "--" + name.replace("_", "-"), "no"])
    kw = dict(mines=10, games=50, seed=1, rules="classic", mine_count=True, **{name: True})
    a, b = (fastsweep.run("lookahead", 9, **kw).drop(columns="seconds") for _ in range(2))
    assert a.equals(b)  # reproducible
    if name == "corner_opening":  # (pseudo-50/50s and blocks are too rare on 50 9x9 games)
        off = fastsweep.run("lookahead", 9, **{**kw, name: False})
        assert not a.equals(off.drop(columns="seconds"))  # the switch changes games
        # on by default: the default's config is the "on" run's
        opts = {k: v for k, v in kw.items() if k not in ("games", "seed", name)}
        assert make_config("lookahead", 9, **opts) == make_config("lookahead", 9, **opts,
                                                                    **{name: True})


def test_corner_opening_is_on_by_default_and_the_cli_turns_it_off(tmp_path):
    base = ["run", "--agent", "lookahead", "--size", "5", "--mines", "4", "--rules",
            "classic", "--mine-count", "--games", "3", "--seed", "2"]
    for k, (extra, want) in enumerate((([], True), (["--corner-opening"], True),
                                       (["--no-corner-opening"], False))):
        path = tmp_path / f"g{k}.csv"
        assert cli.main(base + extra + ["--out", str(path)]) == 0
        assert pd.read_csv(path).corner_opening.tolist() == [want] * 3, extra


@pytest.mark.parametrize("size,mines,cell", [((9, 9), 10, (2, 2)), ((16, 16), 40, (2, 2))])
def test_no_effect_after_a_zero_opening(size, mines, cell):
    """A zero opening shows a 0 and opens its neighbours: the rule (the opening cell alone
    revealed) cannot fire, so the study's zero rows are the same games either way."""
    kw = dict(mines=mines, games=150, seed=2026, rules="classic", first_click="zero",
              first_cell=cell, mine_count=True)
    on, off = (fastsweep.run("lookahead", size, corner_opening=c, **kw).drop(columns="seconds")
               for c in (True, False))
    assert on.equals(off)

"""The game engine and the basic agent against the naive reference, plus invariants."""
import numpy as np
import pytest

import naive
from fastsweep import run
from fastsweep.options import agent_params, make_config
from fastsweep.kernels.engine import game as kg
from fastsweep.kernels.engine import layout as kl
from fastsweep.runner import play_chunk

SHAPES = [(1, 1), (1, 2), (1, 7), (7, 1), (2, 2), (3, 3), (4, 6), (5, 5), (6, 4), (8, 9)]


def kernel_draw(cfg, seed, game):
    params, _ = agent_params(cfg, seed)
    n = cfg.cells
    order = np.zeros(n, np.int32)
    mine = np.zeros(n, np.uint8)
    lay = cfg.layout if cfg.layout is not None else np.zeros(0, np.uint8)
    first = kg.draw_game(params, lay, game, order, mine)
    return order, mine, first


def mine_counts(n):
    return sorted({0, 1, n // 5, n // 2, max(n - 1, 0), n})


@pytest.mark.parametrize("h,w", SHAPES)
def test_draws_match_reference_rng(h, w):
    n = h * w
    for m in mine_counts(n):
        for first_click, fc in (("any", "random"), ("safe", "corner"), ("zero", "center")):
            try:
                cfg = make_config("basic", (h, w), mines=m, first_click=first_click, first_cell=fc)
            except ValueError:
                continue  # rule impossible for this count: covered in test_config
            for seed, game in ((0, 0), (7, 3), (2**64 - 1, 11)):
                order, mine, first = kernel_draw(cfg, seed, game)
                o2, m2, f2 = naive.draw(h, w, m, seed, game, first_click, cfg.first_cell_index())
                assert list(order) == o2 and list(mine) == m2 and first == f2
                assert sorted(order) == list(range(n)) and mine.sum() == m


def compare_with_reference(cfg, seed, games):
    out, _, (fst, fmine) = play_chunk(cfg, seed, 0, games, keep_boards=True)
    classic = cfg.rules == "classic"
    for g in range(games):
        order, mine, first = kernel_draw(cfg, seed, g)
        st, res = naive.basic_agent(cfg.height, cfg.width, list(mine), list(order), first,
                                    classic=classic, mine_count=cfg.mine_count)
        row = out[g]
        got = dict(flagged=row[kg.OUT_FLAGGED], detonated=row[kg.OUT_DETONATED],
                   revealed=row[kg.OUT_REVEALED], guesses=row[kg.OUT_GUESSES],
                   moves=row[kg.OUT_MOVES], won=bool(row[kg.OUT_WON]), mines=row[kg.OUT_MINES])
        assert got == res, (cfg, seed, g)
        assert list(fst[g]) == st
        assert list(fmine[g]) == list(mine)


@pytest.mark.parametrize("h,w", SHAPES)
@pytest.mark.parametrize("rules", ["keep-going", "classic"])
@pytest.mark.parametrize("mine_count", [False, True])
def test_basic_agent_matches_reference(h, w, rules, mine_count):
    n = h * w
    for m in mine_counts(n):
        try:
            cfg = make_config("basic", (h, w), mines=m, rules=rules, mine_count=mine_count)
        except ValueError:
            continue
        compare_with_reference(cfg, seed=12345 + m, games=12)


def test_basic_agent_matches_reference_random_configs():
    rng = np.random.default_rng(2024)
    for _ in range(40):
        h, w = (int(x) for x in rng.integers(1, 12, size=2))
        m = int(rng.integers(0, h * w + 1))
        rules = ["keep-going", "classic"][int(rng.integers(2))]
        click = ["any", "safe", "zero"][int(rng.integers(3))]
        cell = ["corner", "center", "random"][int(rng.integers(3))]
        try:
            cfg = make_config("basic", (h, w), mines=m, rules=rules, first_click=click,
                              first_cell=cell, mine_count=bool(rng.integers(2)))
        except ValueError:
            continue
        compare_with_reference(cfg, seed=int(rng.integers(2**63)), games=5)


def test_clues_match_reference():
    for h, w in SHAPES:
        cfg = make_config("basic", (h, w), mines=(h * w) // 3)
        _, mine, _ = kernel_draw(cfg, 5, 0)
        from fastsweep import play
        t = play("basic", (h, w), mines=(h * w) // 3, seed=5)
        assert list(t.clues.ravel()) == naive.clues(h, w, list(mine))
        assert list(t.mines.ravel().astype(int)) == list(mine)


@pytest.mark.parametrize("rules", ["keep-going", "classic"])
def test_invariants_many_games(rules):
    cfg = make_config("basic", (16, 30), mines=99, rules=rules)
    games = 3000
    out, _, (fst, fmine) = play_chunk(cfg, 99, 0, games, keep_boards=True)
    flagged = fst == naive.FLAGGED
    detonated = fst == naive.DETONATED
    assert np.all(fmine[flagged] == 1), "a flag on a safe cell"
    assert np.all(fmine[detonated] == 1)
    assert np.all(fmine[fst == naive.REVEALED] == 0)
    assert np.all(out[:, kg.OUT_WRONG_FLAGS] == 0)
    assert np.all(out[:, kg.OUT_SAFE_DETONATIONS] == 0), "a deduced-safe cell detonated"
    assert np.all(out[:, kg.OUT_FLAGGED] == flagged.sum(1))
    assert np.all(out[:, kg.OUT_DETONATED] == detonated.sum(1))
    if rules == "keep-going":
        assert np.all(fst != naive.HIDDEN), "keep-going leaves nothing hidden"
        assert np.all(out[:, kg.OUT_FLAGGED] + out[:, kg.OUT_DETONATED] == 99)
        assert np.all(out[:, kg.OUT_MOVES] == cfg.cells)
    else:
        assert np.all(out[:, kg.OUT_DETONATED] <= 1), "classic stops at the first detonation"
        won = out[:, kg.OUT_WON] == 1
        assert np.all(out[won, kg.OUT_REVEALED] == cfg.cells - 99)
        assert np.all(fst[:, 0] == naive.REVEALED), "the safe opening corner is revealed"
        assert 0 < won.mean() < 1


@pytest.mark.parametrize("click,cell", [("safe", "corner"), ("safe", "random"),
                                        ("zero", "center"), ("zero", (3, 7))])
def test_first_click_rules_hold(click, cell):
    cfg = make_config("basic", (9, 9), mines=60, rules="classic", first_click=click,
                      first_cell=cell)
    for g in range(300):
        order, mine, first = kernel_draw(cfg, 1, g)
        if cell == "corner":
            assert first == 0
        elif cell == "center":
            assert first == 4 * 9 + 4
        elif isinstance(cell, tuple):
            assert first == 3 * 9 + 7
        assert mine[first] == 0
        if click == "zero":
            assert all(mine[d] == 0 for d in naive.neighbours(9, 9, first))
    df = run("basic", 9, mines=60, rules="classic", first_click=click, first_cell=cell, games=300)
    assert (df.moves >= 1).all() and df.guesses.min() >= 1


def test_explicit_layout_boolean_and_list():
    lay = np.zeros((4, 5), bool)
    lay[0, 1] = lay[2, 3] = lay[3, 4] = True
    a = run("basic", (4, 5), layout=lay, games=20, seed=4)
    b = run("basic", (4, 5), layout=[(0, 1), (2, 3), (3, 4)], games=20, seed=4)
    assert (a.mines == 3).all()
    assert a.drop(columns="seconds").equals(b.drop(columns="seconds"))
    t = __import__("fastsweep").play("basic", (4, 5), layout=lay, seed=4, game=7)
    assert (t.mines == lay).all()
    # classic + safe first click on a fixed layout: the opening is a safe cell
    c = run("basic", (4, 5), layout=lay, rules="classic", first_cell="random", games=50)
    assert (c.guesses >= 1).all()
    for g in range(50):
        order, mine, first = kernel_draw(make_config("basic", (4, 5), layout=lay,
                                                     rules="classic", first_cell="random"), 0, g)
        assert mine[first] == 0


def test_zero_and_all_mines():
    z = run("basic", (6, 7), mines=0, games=10)
    assert (z.score == 1.0).all() and (z.detonated == 0).all() and (z.revealed == 42).all()
    full = run("basic", (6, 7), mines=42, games=10)
    assert (full.detonated == 42).all() and (full.flagged == 0).all() and (full.score == 0).all()
    full_mc = run("basic", (6, 7), mines=42, games=10, mine_count=True)
    # told the count, everything left after the opening is a mine
    assert (full_mc.detonated == 1).all() and (full_mc.flagged == 41).all()


def test_same_seed_same_result_across_batch_splits():
    cfg = make_config("basic", (16, 16), mines=40, rules="classic")
    whole, _, _ = play_chunk(cfg, 77, 0, 200)
    parts = [play_chunk(cfg, 77, a, b)[0] for a, b in ((0, 50), (50, 1), (51, 149))]
    assert np.array_equal(whole, np.vstack(parts))
    again, _, _ = play_chunk(cfg, 77, 0, 200)
    assert np.array_equal(whole, again)
    other, _, _ = play_chunk(cfg, 78, 0, 200)
    assert not np.array_equal(whole, other)


def test_run_dataframe_columns_and_score():
    df = run("basic", (8, 10), density=0.25, games=50, seed=3)
    for col in ["game", "seed", "agent", "height", "width", "mines", "rules", "mine_count",
                "flagged", "detonated", "revealed", "guesses", "moves", "won", "score",
                "seconds", "approx_steps"]:
        assert col in df.columns
    assert (df.mines == 20).all() and (df.height == 8).all() and (df.width == 10).all()
    assert np.allclose(df.score, df.flagged / 20)
    assert list(df.game) == list(range(50))
    assert (df.seconds > 0).all()


@pytest.mark.parametrize("h,w", [(1, 1), (1, 5), (5, 1), (3, 3), (4, 7), (9, 9)])
def test_neighbourhood_words_stay_exact(h, w):
    # act() keeps each cell's packed neighbourhood word (hidden count and mask, known
    # mines, not-revealed bit) up to date incrementally; after every action it must
    # equal a recount from the neighbours' states, for flags, reveals and detonations.
    from fastsweep.kernels.engine import actions, env
    rng = np.random.default_rng(h * 100 + w)
    n = h * w
    for trial in range(20):
        S = env.new_state(h, w)
        env.reset_state(S)
        mine = rng.random(n) < 0.3
        for c in np.flatnonzero(mine):
            env.add_mine(S, c)
        for c in range(n):
            assert env.true_clue(S, c) == sum(mine[S[c, kl.F_NBR + j]]
                                         for j in range(S[c, kl.F_NNB]))
            assert env.is_mine(S, c) == mine[c]
        for c in rng.permutation(n)[: rng.integers(1, n + 1)]:
            kind = kl.A_FLAG if (mine[c] and rng.random() < 0.7) else kl.A_GUESS
            actions.act(S, c, kind, kl.R_RANDOM, -1, 0)
            S[n, kl.C_QLEN] = 0  # empty the work list: the queued bits go with it
            got = [env.word(S, d) & ~kl.NB_QUEUED for d in range(n)]
            for d in range(n):
                env.recount(S, d)
            assert got == [env.word(S, d) for d in range(n)]
            hid = [sum(env.status(S, S[d, kl.F_NBR + j]) == kl.HIDDEN
                       for j in range(S[d, kl.F_NNB])) for d in range(n)]
            assert [env.nb_hidden(S, d) for d in range(n)] == hid
            known = [sum(env.status(S, S[d, kl.F_NBR + j]) in (kl.FLAGGED, kl.DETONATED)
                         for j in range(S[d, kl.F_NNB])) for d in range(n)]
            assert [env.nb_mines(S, d) for d in range(n)] == known

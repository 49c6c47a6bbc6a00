"""Hard boards: the games are paired across layouts (the guess order of game i does not
depend on the layout), the objective is deterministic, the local search moves one mine
one orthogonal step at a time and lowers the score, the exhaustive search equals a plain
enumeration, bad arguments are refused by name (API and CLI)."""
import itertools
import os
import re

import numpy as np
import pytest

from fastsweep import hard_board, run
from fastsweep.options import agent_params, make_config
from fastsweep.studies.hard import ScoreObjective, hardest_layouts, layout_stats
from fastsweep.kernels.engine import game as kg
from fastsweep.studies.search_layouts import (
    all_layouts, canonical, exhaustive, layout_key, local_search, mine_steps, parse_key,
    symmetries,
)
from cli_helper import run_cli


def random_layout(rng, h, w, m):
    x = np.zeros(h * w, bool)
    x[rng.choice(h * w, m, replace=False)] = True
    return x.reshape(h, w)


def drawn(cfg, seed, game):
    """(guess order, mines, opening cell) of a game, from the kernel's own draw."""
    params, _ = agent_params(cfg, seed)
    order = np.zeros(cfg.cells, np.int32)
    mine = np.zeros(cfg.cells, np.uint8)
    first = kg.draw_game(params, cfg.layout, game, order, mine)
    return order, mine, first


# ---------------------------------------------------------------- pairing

@pytest.mark.parametrize("rules", ["keep-going", "classic"])
def test_game_i_has_the_same_guess_order_on_every_layout(rules):
    rng = np.random.default_rng(5)
    h, w = 6, 7
    for seed, game in ((0, 0), (3, 17), (2**64 - 1, 5)):
        ref = None
        for m in (1, 8, 20, 41):
            lay = random_layout(rng, h, w, m)
            cfg = make_config("basic", (h, w), layout=lay, rules=rules, first_cell="random")
            order, mine, first = drawn(cfg, seed, game)
            assert np.array_equal(mine.reshape(h, w).astype(bool), lay)  # the layout is used
            if ref is None:
                ref = order
            assert np.array_equal(order, ref)
            if rules == "keep-going":  # first_click any: the first cell of the order
                assert first == ref[0]
            else:  # first_click safe: the first mine-free cell of the same order
                assert first == next(c for c in ref if not lay.ravel()[c])


def test_objective_is_deterministic_and_paired():
    rng = np.random.default_rng(1)
    a, b = random_layout(rng, 6, 6, 7), random_layout(rng, 6, 6, 7)
    f = ScoreObjective("basic", 6, 300, seed=9)
    g = ScoreObjective("basic", 6, 300, seed=9)
    assert f(a) == f(a) == g(a) and np.array_equal(f.scores(b), g.scores(b))
    assert f(a) == run("basic", 6, layout=a, games=300, seed=9).score.mean()
    # the objective's game i is run's game i (the same game in any batch)
    sa = f.scores(a)
    assert np.array_equal(sa, run("basic", 6, layout=a, games=300, seed=9).score.to_numpy())
    h = ScoreObjective("basic", 6, 100, seed=9, first_game=200)
    assert np.array_equal(h.scores(a), sa[200:])
    # another seed: other guess orders, other scores
    assert not np.array_equal(ScoreObjective("basic", 6, 300, seed=10).scores(a), sa)


def test_layout_stats_match_a_plain_count():
    rng = np.random.default_rng(2)
    for h, w, m in ((3, 3, 4), (5, 8, 10), (7, 4, 20)):
        lay = random_layout(rng, h, w, m)
        mines = [(r, c) for r in range(h) for c in range(w) if lay[r, c]]
        border = sum(r in (0, h - 1) or c in (0, w - 1) for r, c in mines) / m
        nb = sum(lay[r + dr, c + dc] for r, c in mines for dr in (-1, 0, 1)
                 for dc in (-1, 0, 1) if (dr, dc) != (0, 0)
                 and 0 <= r + dr < h and 0 <= c + dc < w) / m
        s = layout_stats(lay)
        assert s["border"] == pytest.approx(border) and s["neighbours"] == pytest.approx(nb)
        # the expectations over random layouts: a plain average over every layout
        if math_comb(h * w, m) <= 5000:
            stats = [layout_stats(x) for x in all_layouts((h, w), m)]
            assert s["border_random"] == pytest.approx(np.mean([t["border"] for t in stats]))
            assert s["neighbours_random"] == pytest.approx(
                np.mean([t["neighbours"] for t in stats]))


def math_comb(n, k):
    import math
    return math.comb(n, k)


# ---------------------------------------------------------------- the search

@pytest.fixture(scope="module")
def searched():
    return hard_board("basic", 7, mines=8, plays=150, patience=3, tries=12, seed=4,
                      eval_plays=600)


def test_the_search_lowers_the_paired_score_and_keeps_the_mine_count(searched):
    r = searched
    assert r.score < r.start_score
    assert r.drop_low > 0  # held-out games: start minus searched, paired
    assert r.eval_start - r.eval_score == pytest.approx(r.drop)
    assert int(r.start.sum()) == int(r.layout.sum()) == r.mines == 8
    assert all(int(x.sum()) == 8 for x in r.search.path)
    f = ScoreObjective("basic", 7, 150, seed=4)
    assert f(r.layout) == r.score and f(r.start) == r.start_score


def test_each_accepted_step_moves_one_mine_one_orthogonal_step(searched):
    r = searched
    hist = r.history
    kept = hist[hist.accepted]
    assert len(kept) == len(r.search.path) - 1 >= 1
    for (_, row), before, after in zip(kept.iterrows(), r.search.path, r.search.path[1:]):
        gone = np.argwhere(before & ~after)
        new = np.argwhere(after & ~before)
        assert len(gone) == len(new) == 1  # one mine moved, onto a cell that was empty
        (fr, fc), (tr, tc) = gone[0], new[0]
        assert abs(fr - tr) + abs(fc - tc) == 1
        assert (row.from_row, row.from_col, row.to_row, row.to_col) == (fr, fc, tr, tc)
    # each kept move lowered the value by at least 1% relative; the others kept none
    prev = hist.value.shift()
    assert (kept.value <= 0.99 * prev[kept.index] + 1e-12).all()
    rest = hist[~hist.accepted].iloc[1:]
    assert (rest.value == prev[rest.index]).all()
    assert np.array_equal(r.search.path[-1], r.layout)


def test_patience_counts_non_improving_rounds():
    f = ScoreObjective("basic", 6, 100, seed=2)
    start = random_layout(np.random.default_rng(3), 6, 6, 8)
    for patience in (0, 2, 4):
        res = local_search(f, start, patience=patience, tries=3, seed=1)
        tail = 0
        for ok in res.history.accepted.iloc[1:][::-1]:
            if ok:
                break
            tail += 1
        assert res.stopped == "patience" and tail == patience + 1
        runs = "".join("1" if ok else "0" for ok in res.history.accepted.iloc[1:])
        assert "0" * (patience + 2) not in runs
    # a round that tried every move and kept none ends the search
    res = local_search(f, start, patience=5, tries=None)
    assert res.stopped == "local optimum" and not res.history.accepted.iloc[-1]
    assert (res.history.tried.iloc[1:] == [len(mine_steps(x)) for x in
                                           _layouts_before_rounds(res)]).all()


def _layouts_before_rounds(res):
    out, k = [], 0
    for ok in res.history.accepted.iloc[1:]:
        out.append(res.path[k])
        k += bool(ok)
    return out


def test_local_search_maximises_a_generic_objective():
    # the number of mine pairs side by side: maximising it gathers the mines
    def pairs(x):
        return float((x[:, 1:] & x[:, :-1]).sum() + (x[1:, :] & x[:-1, :]).sum())

    start = np.eye(5, dtype=bool)
    res = local_search(pairs, start, minimize=False, patience=0, tries=None)
    assert res.value > res.start_value == 0.0
    assert res.history.value.is_monotonic_increasing and int(res.layout.sum()) == 5
    assert pairs(res.layout) == res.value


def test_exhaustive_3x3_equals_a_plain_enumeration():
    for m in (2, 5):
        got = hardest_layouts("basic", 3, m, plays=150, seed=3)
        plain = {}
        for cells in itertools.combinations(range(9), m):
            lay = np.zeros((3, 3), bool)
            lay.ravel()[list(cells)] = True
            plain[layout_key(lay)] = run("basic", 3, layout=lay, games=150, seed=3).score.mean()
        assert len(got) == len(plain) == math_comb(9, m)
        for k, v in zip(got.layout, got.score):
            assert v == pytest.approx(plain[k], abs=1e-12)
        assert got.score.iloc[0] == pytest.approx(min(plain.values()), abs=1e-12)
        assert got.score.is_monotonic_increasing
        assert (got.low <= got.score).all() and (got.score <= got.high).all()
    df = exhaustive(lambda x: float(x[0, 0]) - x[2, 2], (3, 3), 1, minimize=False)
    assert df.layout.iloc[0] == "100/000/000" and df.value.iloc[-1] == -1


def test_symmetric_enumeration_has_one_layout_per_orbit():
    for shape, m in (((3, 3), 3), ((4, 4), 4), ((3, 4), 5)):
        df = exhaustive(lambda x: 0.0, shape, m, symmetric=True)
        assert df.orbit.sum() == math_comb(shape[0] * shape[1], m)
        # plain Python: group every layout by the set of its images
        orbits = {}
        for cells in itertools.combinations(range(shape[0] * shape[1]), m):
            x = np.zeros(shape, bool)
            x.ravel()[list(cells)] = True
            orbits.setdefault(frozenset(layout_key(y) for y in symmetries(x)), []).append(x)
        assert len(df) == len(orbits)
        assert sorted(df.orbit) == sorted(len(v) for v in orbits.values())
        assert len({canonical(parse_key(k))
                    for k in df.layout}) == len(df)


def test_symmetric_layouts_score_alike():
    """The expected score is the same on a layout's rotations and reflections: here every
    orbit's members agree within a few standard errors (same seed, 3,000 games each; the
    spread shrinks as 1/sqrt(games): 0.026, 0.0077, 0.0042 at 3,000, 30,000, 120,000)."""
    df = hardest_layouts("basic", 3, 3, plays=3000, seed=1)
    se = (df.high - df.low) / (2 * 1.96)
    df["orbit_name"] = [canonical(parse_key(k))
                        for k in df.layout]
    spread = df.groupby("orbit_name").score.agg(lambda v: v.max() - v.min())
    assert spread.max() <= 6 * se.max()  # the range of up to 8 estimates: 4.5 SE here
    assert spread.max() > 0  # not one number copied: the layouts were played
    sym = hardest_layouts("basic", 3, 3, plays=3000, seed=1, symmetric=True)
    assert sym.orbit.sum() == 84 and len(sym) == len(spread)
    with pytest.raises(ValueError, match="^symmetric: "):
        hardest_layouts("basic", 3, 3, plays=10, symmetric=True, first_cell="corner")


# ---------------------------------------------------------------- bad arguments

BAD = [
    (dict(plays=0), "plays"), (dict(plays=2.5), "plays"), (dict(patience=-1), "patience"),
    (dict(patience=1.5), "patience"), (dict(tries=0), "tries"), (dict(eval_plays=0), "eval_plays"),
    (dict(seed=-1), "seed"), (dict(agent="nosuch"), "agent"), (dict(mines=0), "mines"),
    (dict(mines=25), "mines"), (dict(mines=None, density=0.01), "density"),
    (dict(mines=None, density=1.0), "density"), (dict(size=0), "size"),
    (dict(layout=np.zeros((5, 5), bool)), "layout"), (dict(games=5), "games"),
    (dict(rules="nosuch"), "rules"), (dict(min_gain=-0.1), "min_gain"),
]


@pytest.mark.parametrize("bad,name", BAD)
def test_bad_arguments_name_the_argument(bad, name):
    kw = dict(agent="basic", size=5, mines=5, plays=10, eval_plays=10)
    kw.update(bad)
    with pytest.raises(ValueError, match=rf"^{name}(/\w+)?: "):
        hard_board(kw.pop("agent"), kw.pop("size"), **kw)


def test_generic_search_refuses_bad_arguments():
    ok = np.eye(3, dtype=bool)
    for kw, name in ((dict(objective=3), "objective"), (dict(start=np.ones((2, 2, 2))), "start"),
                     (dict(start=np.full((2, 2), 0.5)), "start"), (dict(max_rounds=-1), "max_rounds"),
                     (dict(objective=lambda x: float("nan")), "objective")):
        args = {"objective": lambda x: 0.0, "start": ok, **kw}
        with pytest.raises(ValueError, match=rf"^{name}: "):
            local_search(args.pop("objective"), args.pop("start"), **args)
    with pytest.raises(ValueError, match=r"^mines: .* layouts"):
        exhaustive(lambda x: 0.0, (6, 6), 18)
    with pytest.raises(ValueError, match=r"^shape: "):
        exhaustive(lambda x: 0.0, 3, 1)
    for key in ("", "10/1", "12/00", "10/01/"):
        with pytest.raises(ValueError, match=r"^key: "):
            parse_key(key)
    lay = random_layout(np.random.default_rng(0), 4, 6, 9)
    assert np.array_equal(parse_key(layout_key(lay)), lay)




@pytest.mark.parametrize("argv,line", [
    (["--mines", "0"], "fastsweep hardboard: error: --mines: a hard board needs between 1 "
                       "and 24 mines (cells - 1) on 5x5, got 0 mines"),
    (["--density", "0.99"], "fastsweep hardboard: error: --density: a hard board needs "
                            "between 1 and 24 mines (cells - 1) on 5x5, got 25 mines"),
    (["--mines", "3", "--agent", "nosuch"], "fastsweep hardboard: error: --agent: unknown agent"),
    (["--mines", "3", "--plays", "0"], "fastsweep hardboard: error: argument --plays: must be "
                                       "an integer >= 1, got '0'"),
    (["--mines", "3", "--patience", "-1"], "fastsweep hardboard: error: argument --patience"),
    (["--mines", "3", "--tries", "some"], "fastsweep hardboard: error: argument --tries: must "
                                          "be 'all' or an integer >= 1, got 'some'"),
])
def test_cli_errors_are_one_line(capsys, argv, line):
    code, out, err = run_cli(capsys, "hardboard", "--size", "5", *argv)
    assert code == 2 and out == "" and err.startswith(line) and err.count("\n") == 1


def test_cli_prints_both_layouts_and_the_drop(capsys):
    code, out, err = run_cli(capsys, "hardboard", "--size", "6", "--mines", "6", "--plays", "50",
                             "--eval-plays", "100", "--tries", "all", "--seed", "2")
    assert code == 0 and err == ""
    r = hard_board("basic", 6, mines=6, plays=50, eval_plays=100, tries=None, seed=2)
    assert out == r.text() + "\n"
    assert "random layout" in out and f"paired drop                {r.drop:.4f}" in out


# ---------------------------------------------------------------- README

def _readme_section():
    """The "Hard boards" section of the site's guide page (once the README's)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "docs", "pages", "guide", "hard-boards.md")) as f:
        text = f.read()
    start = text.index("## Hard boards")
    # (to the next section of the same level, "Chains of influence"; its own ### parts stay in)
    return text[start:text.index("\n## ", start)]


def test_readme_examples_run_and_the_cli_output_is_what_it_prints(capsys):
    sec = _readme_section()
    blocks = re.findall(r"```python\n(.*?)```", sec, re.S)
    assert len(blocks) == 2
    for code in blocks:
        exec(compile(code, "docs/pages/guide/hard-boards.md", "exec"), {})
    m = re.search(r"\(`\.venv/bin/fastsweep (hardboard [^`]*)`,.*?```\n(.*?)```", sec, re.S)
    capsys.readouterr()
    code, out, err = run_cli(capsys, *m.group(1).split())
    assert code == 0 and out == m.group(2)

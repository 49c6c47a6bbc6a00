"""Chains of influence (fastsweep/influence.py): hand-made boards whose chains are known,
and on many traced games the claims of the module's docstring, each checked with the
public fastsweep.deduce on the whole board (not the module's windows): the parents
decide their cell, dropping any one parent's knowledge does not, the depth is the fewest
rounds of deduction, the roots are exactly the guesses, and the per-guess table agrees
with a plain walk over the edges."""
import numpy as np
import pandas as pd
import pytest

import fastsweep
from fastsweep.studies.influence import influence, influence_graph
from fastsweep.kernels.engine import layout as kl


def _known(t, j):
    """(cell, code) of every cell known before move j (0-based): -2 mine, else clue."""
    mv = t.moves
    cells = mv["cell_index"].to_numpy()[:j]
    mine = (mv["kind"].to_numpy()[:j] == kl.A_FLAG) | (mv["out"].to_numpy()[:j] == -1)
    return dict(zip(cells.tolist(), np.where(mine, -2, mv["out"].to_numpy()[:j]).tolist()))


def _decides(t, x, mine, clue, status):
    """Does knowing the clues of ``clue`` and only the status (mine, or safe with its
    clue unknown) of ``status`` (dicts cell -> code) decide cell x, on the whole board?"""
    h, w = t.config.height, t.config.width
    view = np.full(h * w, -1, np.int8)
    L = np.full((h * w, 9), np.nan)
    for c, v in status.items():
        view[c] = v
        if v >= 0:
            L[c] = 1.0  # revealed, clue unknown: every count as likely
    for c, v in clue.items():
        view[c] = v
    safe, mined = fastsweep.deduce(view.reshape(h, w), likelihood=L.reshape(h, w, 9))
    return bool((mined if mine else safe).flat[x])


def _depths(t, edges):
    """Longest path from each move back to any root, by plain recursion."""
    par = {}
    for m, p in zip(edges.move, edges.parent):
        par.setdefault(m, []).append(p)
    memo = {}

    def depth(m):
        if m not in memo:
            memo[m] = 1 + max(depth(p) for p in par[m]) if m in par else 0
        return memo[m]
    return {m: depth(m) for m in t.moves["move"]}


def test_corridor_1xn_mine_at_the_end():
    # 0 0 0 0 0 0 1 M: each clue forces the next cell; the mine needs the 1 and that its
    # left neighbour is safe. By hand: (0,k) has depth k, the mine depth 7.
    for agent in ("basic", "inference"):
        t = fastsweep.play(agent, (1, 8), layout=[(0, 7)], first_cell=(0, 0))
        e = influence_graph(t)
        assert e[["move", "parent", "via"]].values.tolist() == (
            [[k + 1, k, "clue"] for k in range(1, 7)] + [[8, 6, "status"], [8, 7, "clue"]])
        g = influence(t, e)
        assert len(g) == 1
        assert g.iloc[0][["decided", "influenced", "longest_chain", "reach"]].tolist() == [
            7, 7, 7, 7]
        assert t.influence().equals(g)


def test_corridor_2xn_flood_depth_is_the_distance():
    # 2 x 9, no mines, opened at (0,0): every cell of column c is decided by a 0 in column
    # c - 1 at the earliest, so its depth is c (the agent's work-list order, which may
    # reveal a cell from a later 0, does not matter); the chain is 8 long, as the reach
    t = fastsweep.play("basic", (2, 9), layout=np.zeros((2, 9), bool), first_cell=(0, 0))
    e = influence_graph(t)
    d = _depths(t, e)
    cells = t.moves.set_index("move")
    for m, depth in d.items():
        r, c = cells.at[m, "row"], cells.at[m, "col"]
        assert depth == (c if (r, c) != (1, 0) else 1)
    g = t.influence()
    assert g[["decided", "influenced", "longest_chain", "reach"]].values.tolist() == [
        [17, 17, 8, 8]]
    assert set(e.via) == {"clue"}  # no mines: a 0 alone decides its neighbours


def test_two_guesses_each_its_own_chain():
    # 1 x 7, mine at (0,3), opened at (0,0): 0 0 1 M 1 0 0. The opening decides (0,1),
    # (0,2) and the mine; the right side needs a guess, whose own chain is 2 long
    t = fastsweep.play("basic", (1, 7), layout=[(0, 3)], first_cell=(0, 0), seed=5)
    g = t.influence()
    first = g.iloc[0]
    assert (first.row, first.col, first.decided, first.longest_chain, first.reach) == (
        0, 0, 3, 3, 3)
    assert len(g) >= 2 and not g.opening.iloc[1:].any()
    e = t.influence_graph()
    assert set(e.move) | set(g.move) == set(t.moves.move)  # every move: a root or a child


GAMES = [("basic", (6, 6), 0.2), ("inference", (7, 7), 0.15), ("inference", (8, 8), 0.25),
         ("basic", (9, 9), 0.12), ("subset", (7, 8), 0.2), ("probability", (8, 8), 0.2),
         ("linalg", (6, 9), 0.2), ("inference", (5, 12), 0.3)]


@pytest.mark.parametrize("agent,size,density", GAMES)
def test_parents_decide_minimally_at_the_fewest_rounds(agent, size, density):
    checked = 0
    for game in range(4):
        t = fastsweep.play(agent, size, density=density, seed=11, game=game)
        e = influence_graph(t)
        mv = t.moves
        guess = mv["kind"].to_numpy() == kl.A_GUESS
        # the roots are exactly the guesses; parents come before their child
        assert set(e.move) == set(mv.move[~guess])
        assert (e.parent < e.move).all()
        d = _depths(t, e)
        for m, grp in e.groupby("move"):
            j = m - 1
            x, mine = int(mv.cell_index[j]), bool(mv.kind[j] == kl.A_FLAG)
            known = _known(t, j)
            pc = {int(mv.cell_index[p - 1]) for p in grp.parent[grp.via == "clue"]}
            ps = {int(mv.cell_index[p - 1]) for p in grp.parent[grp.via == "status"]}
            clue = {c: known[c] for c in pc}
            status = {c: known[c] for c in ps}
            assert all(v >= 0 for v in clue.values())
            assert _decides(t, x, mine, clue, status)
            for c in pc:  # its clue dropped (the cell still known safe)
                assert not _decides(t, x, mine, {k: v for k, v in clue.items() if k != c},
                                    {**status, c: clue[c]})
            for c in ps:  # its status dropped (hidden)
                assert not _decides(t, x, mine, clue,
                                    {k: v for k, v in status.items() if k != c})
            # depth: everything known of depth below it decides, below that nothing does
            dm = d[m]
            assert dm == 1 + max(d[p] for p in grp.parent)
            cells = {int(mv.cell_index[k - 1]): k for k in range(1, m)}
            below = {c: v for c, v in known.items() if d[cells[c]] < dm - 1}
            assert not _decides(t, x, mine, {c: v for c, v in below.items() if v >= 0},
                                {c: v for c, v in below.items() if v < 0})
            checked += 1
    assert checked >= 40


def test_per_guess_table_agrees_with_a_walk_over_the_edges():
    for agent, size, density in GAMES[:4]:
        t = fastsweep.play(agent, size, density=density, seed=3, game=1)
        e = influence_graph(t)
        g = influence(t, e)
        mv = t.moves
        children = {}
        for m, p in zip(e.move, e.parent):
            children.setdefault(p, []).append(m)
        guesses = mv.move[mv["kind"] == kl.A_GUESS].tolist()
        assert g.move.tolist() == guesses
        nxt = guesses[1:] + [len(mv) + 1]
        for row, later in zip(g.itertuples(), nxt):
            seen, stack, longest = set(), [row.move], {row.move: 0}
            while stack:  # reachability: every cell with a path back to the guess
                m = stack.pop()
                for c in children.get(m, []):
                    if c not in seen:
                        seen.add(c)
                        stack.append(c)
            for m in sorted(seen | {row.move}):  # moves in order: parents come first
                for c in children.get(m, []):
                    longest[c] = max(longest.get(c, 0), longest[m] + 1)
            rc = mv.set_index("move")
            reach = max([max(abs(rc.at[c, "row"] - row.row), abs(rc.at[c, "col"] - row.col))
                         for c in seen], default=0)
            assert row.influenced == len(seen)
            assert row.longest_chain == max(longest.values())
            assert row.reach == reach
            assert row.decided == later - row.move - 1
            assert row.opening == (row.move == 1)


def test_influence_refuses_noise_and_the_mine_total():
    t = fastsweep.play("inference", 6, density=0.2, noise="detector:p_neg=0.1,p_pos=0.1")
    with pytest.raises(ValueError, match="noise"):
        t.influence()
    t = fastsweep.play("inference", 6, density=0.2, mine_count=True)
    with pytest.raises(ValueError, match="mine_count=False"):
        t.influence_graph()


def test_empty_graph_when_every_move_is_a_guess():
    t = fastsweep.play("basic", (1, 3), layout=[(0, 0), (0, 1), (0, 2)], first_cell=(0, 0))
    e = t.influence_graph()
    assert e.empty and list(e.columns) == ["move", "row", "col", "parent", "parent_row",
                                           "parent_col", "via"]
    g = t.influence()
    assert (g.decided == 0).all() and (g.longest_chain == 0).all() and len(g) == 3
    assert isinstance(g, pd.DataFrame)


# --- the longest chain over layouts (fastsweep/influence_search.py) -----------------------

from fastsweep.studies.influence_search import ChainObjective, longest_chain_board  # noqa: E402


def _direct_chain(agent, lay, seed, games):
    """The mean longest chain straight from play(...).influence() on the given games."""
    return float(np.mean([fastsweep.play(agent, lay.shape, layout=lay, seed=seed, game=g)
                          .influence()["longest_chain"].max() for g in games]))


def test_chain_search_raises_the_objective_by_one_step_moves():
    r = longest_chain_board("basic", 6, mines=6, plays=3, tries=5, patience=1, seed=3,
                            eval_plays=3)
    h = r.history
    assert r.chain >= r.start_chain
    assert (np.diff(h["value"].to_numpy()) >= 0).all()  # never lowered, round by round
    assert r.search.steps >= 1, "the search kept no move: nothing below is checked"
    assert np.array_equal(r.path[0], r.start) and np.array_equal(r.path[-1], r.layout)
    kept = h[h.accepted]
    assert len(r.path) == len(kept) + 1
    for (a, b), mv in zip(zip(r.path, r.path[1:]), kept.itertuples()):
        assert a.sum() == b.sum() == 6
        (fr, fc), = np.argwhere(a & ~b)  # exactly one mine left one cell ...
        (tr, tc), = np.argwhere(b & ~a)  # ... for exactly one empty cell
        assert abs(fr - tr) + abs(fc - tc) == 1  # one orthogonal step
        assert (fr, fc, tr, tc) == (mv.from_row, mv.from_col, mv.to_row, mv.to_col)
    # the values are the objective on the search's games and on the held-out ones
    assert r.start_chain == _direct_chain("basic", r.start, 3, range(3))
    assert r.chain == _direct_chain("basic", r.layout, 3, range(3))
    assert r.eval_chain == _direct_chain("basic", r.layout, 3, range(3, 6))


def test_chain_objective_is_deterministic_and_direct():
    rng = np.random.default_rng(7)
    for agent in ("basic", "inference"):
        lay = np.zeros(36, bool)
        lay[rng.choice(36, 7, replace=False)] = True
        lay = lay.reshape(6, 6)
        f = ChainObjective(agent, 6, plays=4, seed=3, first_game=2)
        assert f(lay) == f(lay) == _direct_chain(agent, lay, 3, range(2, 6))
        assert f.chains(lay).tolist() == [
            fastsweep.play(agent, 6, layout=lay, seed=3, game=g).influence()
            ["longest_chain"].max() for g in range(2, 6)]


@pytest.mark.parametrize("kwargs, name", [
    (dict(plays=0), "plays"), (dict(eval_plays=0), "eval_plays"),
    (dict(patience=-1), "patience"), (dict(tries=0), "tries"),
    (dict(agent="nope"), "agent"), (dict(mines=0), "mines"), (dict(mines=25), "mines"),
    (dict(mines=None, density=1.0), "density"), (dict(mine_count=True), "mine_count"),
    (dict(noise="optimistic"), "noise"), (dict(layout=[(0, 0)]), "layout"),
])
def test_chain_search_bad_arguments(kwargs, name):
    args = dict(agent="basic", size=5, mines=3, plays=2, eval_plays=2)
    args.update(kwargs)
    with pytest.raises(ValueError, match=name):
        longest_chain_board(**args)


def test_chain_objective_bad_arguments():
    with pytest.raises(ValueError, match="plays"):
        ChainObjective("basic", 5, plays=0)
    with pytest.raises(ValueError, match="agent"):
        ChainObjective("nope", 5, plays=2)
    with pytest.raises(ValueError, match="mine_count"):
        ChainObjective("basic", 5, plays=2, mine_count=True)
    with pytest.raises(ValueError, match="layout"):
        ChainObjective("basic", 5, plays=2, mines=3)


def test_readme_chain_search_example_runs():
    import os
    import re
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    # (the site's results page of the study, once the README's "Chains of influence")
    with open(os.path.join(root, "docs", "pages", "studies", "influence.md")) as f:
        sec = f.read()
    blocks = [b for b in re.findall(r"```python\n(.*?)```", sec, re.S)
              if "longest_chain_board" in b]
    assert len(blocks) == 1
    ns = {}
    import textwrap
    exec(compile(textwrap.dedent(blocks[0]), "docs/pages/studies/influence.md", "exec"), ns)
    assert ns["r"].chain >= ns["r"].start_chain

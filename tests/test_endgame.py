"""The exact endgame search (fastsweep/kernels/endgame.py) against plain-Python references:
the layouts against a brute force over every mine subset, the search's value against a
memoised minimax over frozensets of layouts written straight from the definition, and
the whole of two small games (4x4, 3 and 4 mines, safe first click in the corner)."""
import doctest
import itertools
import math
import random

import numpy as np
import pytest

from fastsweep.kernels.agents.solver import endgame
from fastsweep.kernels.agents.solver.endgame import best_move
from fastsweep.kernels.agents.solver.layouts_enum import MINE, solutions
from fastsweep.kernels.engine.env import new_state
from fastsweep.kernels.engine.layout import C_KMINES
from fastsweep.kernels.engine.view import fill_state
import views
from views import endgame_view


def nbrs(h, w, c):
    r, k = divmod(c, w)
    return [rr * w + cc for rr in range(r - 1, r + 2) for cc in range(k - 1, k + 2)
            if 0 <= rr < h and 0 <= cc < w and (rr, cc) != (r, k)]


def random_view(rng, h, w, m, p_reveal, p_known):
    """A consistent view: a random board, each safe cell revealed with p_reveal, each
    mine marked known with p_known."""
    mines = set(rng.sample(range(h * w), m))
    v = np.full((h, w), -1, np.int8)
    for c in range(h * w):
        if c in mines:
            if rng.random() < p_known:
                v.flat[c] = -2
        elif rng.random() < p_reveal:
            v.flat[c] = sum(d in mines for d in nbrs(h, w, c))
    return v


def brute_layouts(v, mines):
    """Every layout (rows as in solutions' table) by trying every mine subset."""
    h, w = v.shape
    flat = v.reshape(-1)
    hidden = [c for c in range(h * w) if flat[c] == -1]
    known = {c for c in range(h * w) if flat[c] == -2}
    rows = []
    for comb in itertools.combinations(hidden, mines - len(known)):
        mset = known | set(comb)
        if all(sum(d in mset for d in nbrs(h, w, c)) == flat[c]
               for c in range(h * w) if flat[c] >= 0):
            rows.append(tuple(MINE if c in mset else sum(d in mset for d in nbrs(h, w, c))
                              for c in hidden))
    return hidden, rows


def state_of(v, mines):
    h, w = v.shape
    S = new_state(h, w)
    assert fill_state(v, S)[0] == 0
    S[h * w, C_KMINES] = mines
    return S


def naive_value(rows, layouts, memo):
    """win(set of layouts) from the definition: 1 with one layout; else the max over
    every cell that splits the set (a mine in some but not all, or safe in all with
    different clues) of the sum over shown values of win(layouts showing it)."""
    if len(layouts) == 1:
        return 1
    if layouts in memo:
        return memo[layouts]
    best = 0
    for j in range(len(rows[0])):
        best = max(best, naive_move(rows, layouts, j, memo))
    memo[layouts] = best
    return best


def naive_move(rows, layouts, j, memo):
    """Layouts won by revealing cell j first (0 if it tells nothing or is always a mine)."""
    parts = {}
    for s in layouts:
        if rows[s][j] != MINE:
            parts.setdefault(rows[s][j], set()).add(s)
    if not parts or (len(parts) == 1 and len(next(iter(parts.values()))) == len(layouts)):
        return 0
    return sum(naive_value(rows, frozenset(p), memo) for p in parts.values())


@pytest.mark.parametrize("module", [endgame, views], ids=["endgame", "views"])
def test_docstring_examples(module):
    # best_move's example in the module; the search on a typed-in view in tests/views.py
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted >= 2


def test_solutions_equal_brute_force():
    rng = random.Random(1)
    seen_off = seen_no_off = seen_known = 0
    checked = 0
    while checked < 300:
        h, w = rng.randint(2, 5), rng.randint(2, 5)
        m = rng.randint(1, h * w // 3 + 1)
        v = random_view(rng, h, w, m, rng.choice([0.2, 0.5, 0.8]), rng.choice([0, 0, 0.5]))
        hidden = int((v == -1).sum())
        if math.comb(hidden, m - int((v == -2).sum())) > 20000:
            continue
        cells_ref, rows = brute_layouts(v, m)
        S = state_of(v, m)
        count, cells, table = solutions(S, 10 ** 6)
        assert list(cells) == cells_ref
        assert count == len(rows)
        got = [tuple(int(x) for x in r) for r in table]
        assert len(set(got)) == len(got)
        assert sorted(got) == sorted(rows)
        again = solutions(S, 10 ** 6)[2]
        assert np.array_equal(again, table)  # deterministic order
        for cap in {1, max(1, count - 1), max(1, count), count + 1, rng.randint(1, 50)}:
            c2, _, t2 = solutions(S, cap)
            if count > cap:
                assert c2 == -1 and t2.shape[0] == 0
            else:
                assert c2 == count and np.array_equal(t2, table)
        # cells no clue touches: hidden cells with no revealed neighbour
        flat = v.reshape(-1)
        off = any(all(flat[d] < 0 for d in nbrs(h, w, c)) for c in cells_ref)
        seen_off += off
        seen_no_off += not off
        seen_known += bool((v == -2).any())
        checked += 1
    assert seen_off > 30 and seen_no_off > 30 and seen_known > 30


def test_solutions_cap_is_quick_on_a_huge_position():
    # 30 x 16, 99 mines, nothing revealed but one corner: ~1e100 layouts, answered at once
    v = np.full((16, 30), -1, np.int8)
    v[0, 0] = 0
    count, cells, table = solutions(state_of(v, 99), 5000)
    assert count == -1 and table.shape == (0, len(cells)) and len(cells) == 479


def random_positions(rng, n, lo, hi):
    """n random views with lo..hi layouts: (view, mines, count, cells, table)."""
    out = []
    while len(out) < n:
        h, w = rng.randint(3, 6), rng.randint(3, 6)
        m = rng.randint(2, h * w // 3 + 1)
        v = random_view(rng, h, w, m, rng.choice([0.4, 0.6, 0.8]), rng.choice([0, 0.3]))
        count, cells, table = solutions(state_of(v, m), hi)
        if count >= lo:
            out.append((v, m, count, cells, table))
    return out


def test_best_move_equals_naive_minimax():
    rng = random.Random(2)
    sizes = []
    for v, m, count, cells, table in (random_positions(rng, 60, 2, 200)
                                      + random_positions(rng, 60, 30, 200)):
        rows = [tuple(int(x) for x in r) for r in table]
        memo = {}
        everything = frozenset(range(count))
        value = naive_value(rows, everything, memo)
        j, wins, nodes = best_move(table, 10 ** 7)
        assert wins == value
        assert naive_move(rows, everything, j, memo) == value  # the cell achieves it
        # ties: fewer mines, then the lower column
        mines = [sum(r[k] == MINE for r in rows) for k in range(len(cells))]
        ties = [k for k in range(len(cells)) if naive_move(rows, everything, k, memo) == value]
        assert min(ties, key=lambda k: (mines[k], k)) == j
        assert endgame_view(v, mines=m, max_solutions=200, node_budget=10 ** 7) == (
            cells[j] // v.shape[1], cells[j] % v.shape[1], wins, count)
        sizes.append(count)
    assert max(sizes) > 100 and sum(s <= 20 for s in sizes) > 30


def test_node_budget():
    rng = random.Random(3)
    tried = 0
    for v, m, count, cells, table in random_positions(rng, 40, 30, 300):
        j, wins, nodes = best_move(table, 10 ** 7)
        if nodes < 2:
            continue
        assert best_move(table, nodes) == (j, wins, nodes)
        jb, _, _ = best_move(table, nodes - 1)
        assert jb == -1
        assert best_move(table, 1)[0] == -1
        assert endgame_view(v, mines=m, max_solutions=300, node_budget=1)[:3] == (-1, -1, -1)
        tried += 1
    assert tried > 10


@pytest.mark.parametrize("m", [3, 4])
def test_whole_4x4_game(m):
    """The optimal win rate of 4x4 with m mines, first click (0, 0) safe: the search per
    corner value against the naive minimax over all C(15, m) layouts split by it."""
    h = w = 4
    total = math.comb(15, m)
    by_value = {}
    for comb in itertools.combinations(range(1, 16), m):
        mset = set(comb)
        corner = sum(d in mset for d in nbrs(h, w, 0))
        by_value.setdefault(corner, []).append(tuple(
            MINE if c in mset else sum(d in mset for d in nbrs(h, w, c)) for c in range(1, 16)))
    wins_search = wins_naive = 0
    for value, rows in sorted(by_value.items()):
        v = np.full((h, w), -1, np.int8)
        v[0, 0] = value
        r, c, wins, count = endgame_view(v, mines=m, max_solutions=5000, node_budget=10 ** 8)
        assert count == len(rows)
        wins_search += wins
        wins_naive += naive_value(rows, frozenset(range(len(rows))), {})
    assert sum(len(r) for r in by_value.values()) == total
    assert wins_search == wins_naive
    print(f"4x4, {m} mines, safe corner first: optimal win rate {wins_search}/{total} "
          f"= {wins_search / total:.6f}")


@pytest.mark.parametrize("v,mines,max_solutions,node_budget,match", [
    (np.array([[-1, 9]], np.int8), 1, 10, 10, "v:"),
    (np.array([[-1, 3]], np.int8), 1, 10, 10, "v:"),
    (np.array([[-1, 1]], np.int8), 2, 10, 10, "mines:"),
    (np.array([[-1, -1, 1]], np.int8), 1, 0, 10, "max_solutions:"),  # layouts_enum.solutions
    (np.array([[-1, -1, 1]], np.int8), 1, 10, 0, "node_budget:"),  # best_move
    (np.array([[-1, 0, -1, 2, -1]], np.int8), 2, 10, 10, "v: no mine layout"),
])
def test_bad_input(v, mines, max_solutions, node_budget, match):
    with pytest.raises(ValueError, match=match):
        endgame_view(v, mines=mines, max_solutions=max_solutions, node_budget=node_budget)


def test_total_not_told():
    S = new_state(2, 2)
    with pytest.raises(ValueError, match="S: the mine total"):
        solutions(S, 10)

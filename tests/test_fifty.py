"""Unavoidable 50/50s over more than two cells (``kernels/fifty.py``, ``fifty_blocks``).

* every set the certificate names, in random positions built around 2x2 blocks and
  lines of four cells, is an unavoidable 50/50 by brute force over every layout: each
  layout holds one of its two patterns, and the layout with the other pattern agrees
  with every clue and shows the same value on every other safe cell; and the kernel
  names exactly the set a plain-Python reading of the certificate names;
* it names blocks often in such positions, and never names a set over more
  than two cells without ``fifty_blocks``;
* the look-ahead then guesses a cell of the set first (the one of best look-ahead score,
  by brute force), and its trace names the set;
* whole games with ``fifty_blocks=True`` pass the contract.
"""
import numpy as np
import pytest

import fastsweep
import naive
from fastsweep.kernels.engine import layout as kl
from test_lookahead import reference_score
from test_pseq import CASES, full_games
from views import fifty_view, lookahead_view


def reference_set(view, mines, blocks):
    """The certificate of ``fifty.py`` in plain Python (probabilities by brute force):
    the first linked set, in the order of its first link's clue, whose classes are
    equal, whose cells are at 0.5 and beside which every hidden or revealed cell sees
    as many cells of each class; as {cell: class}, or None."""
    h, w = view.shape
    flat = view.ravel()
    _, _, p = naive.brute_force_view(view, mines)
    links = []
    for c in range(h * w):
        if flat[c] >= 0:
            hid = [d for d in naive.neighbours(h, w, c) if flat[d] == -1]
            known = sum(flat[d] == -2 for d in naive.neighbours(h, w, c))
            if len(hid) == 2 and flat[c] - known == 1:
                links.append(tuple(hid))
    tried = set()
    for a, _ in links:
        if a in tried:
            continue
        cls, todo, odd = {a: 0}, [a], False
        while todo:
            x = todo.pop()
            for y in [v for u, v in links if u == x] + [u for u, v in links if v == x]:
                if y not in cls:
                    cls[y] = 1 - cls[x]
                    todo.append(y)
                odd |= cls[y] == cls[x]
        tried |= set(cls)
        if odd or (len(cls) > 2 and not blocks) or 2 * sum(cls.values()) != len(cls):
            continue
        if any(abs(p.flat[x] - 0.5) > 1e-9 for x in cls):
            continue
        beside = {d for x in cls for d in naive.neighbours(h, w, x)} - set(cls)
        if all(flat[d] == -2 or sum(1 - 2 * cls[x] for x in naive.neighbours(h, w, d)
                                    if x in cls) == 0 for d in beside):
            return cls
    return None


def shape_view(rng):
    """A random small position built around a 2x2 block (one diagonal mined) or a
    line of four cells along a side of the board, mines alternating (its two halves
    are pairs at best): cells next to an unequal number of the two patterns' cells
    mostly mines (0.75), the other cells next to the shape mostly safe (0.9); the cells
    within two steps of the shape shown at 0.9 (mines, as known) or 0.95 (safe cells,
    their clue), the rest mined at 0.25, shown at 0.5 or 0.6.
    (view, mines)."""
    h, w = [(4, 4), (4, 5), (5, 4), (5, 5)][rng.integers(4)]
    n = h * w
    r, c = int(rng.integers(h - 1)), int(rng.integers(w - 1))
    if rng.random() < 0.6:
        shape = [r * w + c, (r + 1) * w + c + 1, r * w + c + 1, (r + 1) * w + c]
    else:  # a line of four along a side of the board, alternating
        if rng.random() < 0.5 and w >= 4:
            rr = 0 if rng.random() < 0.5 else h - 1
            c0 = int(rng.integers(w - 3))
            line = [rr * w + c0 + k for k in range(4)]
        else:
            cc = 0 if rng.random() < 0.5 else w - 1
            r0 = int(rng.integers(h - 3))
            line = [(r0 + k) * w + cc for k in range(4)]
        shape = [line[0], line[2], line[1], line[3]]
    pa, pb = shape[:2], shape[2:]
    mine = rng.random(n) < 0.25
    bal = np.zeros(n, int)
    for x in pa:
        for d in naive.neighbours(h, w, x):
            bal[d] += 1
    for x in pb:
        for d in naive.neighbours(h, w, x):
            bal[d] -= 1
    near = set()
    for x in shape:
        near |= set(naive.neighbours(h, w, x))
    near -= set(shape)
    ring = set()  # the near cells' other neighbours: revealed, a side clue is a link
    for d in near:
        ring |= set(naive.neighbours(h, w, d))
    ring -= near | set(shape)
    for d in near:
        mine[d] = rng.random() < (0.75 if bal[d] != 0 else 0.1)
    flip = rng.random() < 0.5
    mine[pa], mine[pb] = not flip, flip
    clue = [sum(mine[d] for d in naive.neighbours(h, w, i)) for i in range(n)]
    view = np.full(n, -1, np.int8)
    for i in range(n):
        if i in shape:
            continue
        close = i in near or i in ring
        if mine[i]:
            if rng.random() < (0.9 if close else 0.5):
                view[i] = -2
        elif rng.random() < (0.95 if close else 0.6):
            view[i] = clue[i]
    return view.reshape(h, w), int(mine.sum())


def test_every_named_set_is_an_unavoidable_fifty_fifty():
    rng = np.random.default_rng(5)
    sizes = {}
    tried = 0
    while tried < 700:
        view, mines = shape_view(rng)
        if (view == -1).sum() > 16:
            continue
        tried += 1
        h, w = view.shape
        order = rng.permutation(h * w)
        cells, colours = fifty_view(view, mines=mines, order=order, blocks=True)
        pairs, pcol = fifty_view(view, mines=mines, order=order, blocks=False)
        for got, got_cls, blocks in ((cells, colours, 1), (pairs, pcol, 0)):
            want = reference_set(view, mines, blocks)
            if want is None:
                assert got.size == 0, (view, mines, got)
            else:  # the same set, its classes up to a swap
                named = dict(zip(got.tolist(), got_cls.tolist()))
                flip = int(got.size > 0 and named[got[0]] != want.get(int(got[0])))
                assert named == {x: k ^ flip for x, k in want.items()}, (view, mines, got)
        assert pairs.size in (0, 2)
        if pairs.size:  # a pair is a set of two; with blocks on, a set is named too
            assert cells.size > 0
        if cells.size == 0:
            sizes[0] = sizes.get(0, 0) + 1
            continue
        sizes[cells.size] = sizes.get(cells.size, 0) + 1
        assert (colours == 0).sum() == (colours == 1).sum()
        assert not naive.told_apart(view, mines, list(cells), list(colours)), (view, mines, cells)
    assert sizes.get(4, 0) >= 40 and sizes.get(2, 0) >= 5 and sizes.get(0, 0) >= 40, sizes


def test_a_block_is_guessed_first_and_named():
    # 4 x 4, the block (1,1)-(2,2) with its four outer corners known mines and its
    # eight side cells revealed: each side clue (2: a corner and one of the block's
    # cells next to it) has two hidden neighbours and one mine left, so the two
    # diagonals are the only patterns, and every side cell sees one cell of each.
    view = np.array([[-2, 2, 2, -2],
                     [2, -1, -1, 2],
                     [2, -1, -1, 2],
                     [-2, 2, 2, -2]], np.int8)
    _, _, p = naive.brute_force_view(view, 6)
    assert np.allclose(p[1:3, 1:3], 0.5)
    order = np.arange(16)
    cells, colours = fifty_view(view, mines=6, order=order, blocks=True)
    assert sorted(cells) == [5, 6, 9, 10]
    assert not naive.told_apart(view, 6, list(cells), list(colours))
    # no pair: blocks are opt-in
    assert fifty_view(view, mines=6, order=order, blocks=False)[0].size == 0
    cell, why, ref, a = lookahead_view(view, mines=6, order=order, cut=0.9, blocks=True)
    assert why == kl.R_FIFTY_GUESS and a == 4 and cell in (5, 6, 9, 10)
    assert ref in (5, 6, 9, 10) and ref != cell
    r, c = divmod(int(ref), 4)
    assert abs(r - cell // 4) + abs(c - cell % 4) == 1  # the partner named is next to it
    assert lookahead_view(view, mines=6, order=order, cut=0.9, blocks=False)[1] != kl.R_FIFTY_GUESS


def test_the_guessed_cell_of_a_set_has_the_best_score():
    rng = np.random.default_rng(12)
    checked = 0
    while checked < 40:
        view, mines = shape_view(rng)
        if (view == -1).sum() > 12:
            continue
        h, w = view.shape
        order = rng.permutation(h * w)
        cells, _ = fifty_view(view, mines=mines, order=order, blocks=True)
        if cells.size < 4:
            continue
        try:
            naive.brute_force_view(view, mines)
        except ValueError:
            continue
        cell, why, ref, a = lookahead_view(view, mines=mines, order=order, cut=0.9, blocks=True)
        assert why == kl.R_FIFTY_GUESS and a == cells.size and cell in cells
        score = {int(x): reference_score(view, mines, *divmod(int(x), w))[0] for x in cells}
        assert score[int(cell)] >= max(score.values()) - 1e-9, (view, cell, score)
        checked += 1


def test_full_games_with_blocks_pass_the_contract_and_name_them():
    full_games("lookahead", CASES, fifty_blocks=True)
    seen = 0
    for g in range(120):
        t = fastsweep.play("lookahead", (16, 30), mines=99, rules="classic",
                           mine_count=True, seed=11, game=g, fifty_blocks=True)
        said = t.moves.reason[t.moves.reason.str.startswith("unavoidable 50/50")]
        assert said.str.contains("no reveal can tell").all(), list(said)
        seen += said.str.contains("cells").sum()
        if seen:
            break
    assert seen > 0, "no 50/50 over more than two cells in 120 Expert games"


@pytest.mark.parametrize("blocks", [False, True])
def test_sets_over_two_cells_only_with_the_option(blocks):
    rng = np.random.default_rng(3)
    big = 0
    for _ in range(300):
        view, mines = shape_view(rng)
        h, w = view.shape
        cells, _ = fifty_view(view, mines=mines, order=rng.permutation(h * w), blocks=blocks)
        big += cells.size > 2
    assert (big > 0) == blocks

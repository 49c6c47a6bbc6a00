"""Chains of influence in a traced game (Dhurandhar's report): which known cells forced
each decided cell, and how far the deductions that follow a guess reach.

The graph's nodes are the moves of a :class:`~fastsweep.trace.Trace` (a move resolves one
cell, so a node is also a cell). The roots are the guesses, the opening included. Every
other move (a reveal or flag the agent decided by inference) points to its *parents*,
cells known before it: the clues that force it and the known cells around those clues
whose status the clues need (a 1 whose other neighbours are all revealed has its mine on
the last one: those revealed neighbours are parents too). Knowledge is exact: a set of
cells "decides" x when :func:`fastsweep.deduce` on a view in which only those cells are
known certifies x safe (a reveal) or a mine (a flag). A parent clue is given with its
value; a parent kept for its status is a known mine, or a revealed cell whose clue is
unknown (a ``likelihood`` row of ones: safe, and no information, exactly); every other
cell is hidden. Games with the mine total or a noisy sensor are refused (a decision
there may rest on the total or on probabilities, which no cell carries).

Depth and parents, per decided cell x, in move order:

* its *depth* is the fewest rounds of deduction from the guesses that decide it: the
  smallest d such that the cells known before x's move with depth below d decide x
  (guesses have depth 0). It does not depend on the order in which the agent happened
  to process what it knew;
* its *clues* are a minimal set of those cells' clues that decide x when the status of
  each of those cells is known: the clue a single-clue rule names (the trace's ``ref``)
  is preferred, then the nearest (Chebyshev distance), then the earliest known, and the
  set is what is left after dropping the clues least preferred first, each whose
  absence still leaves x decided;
* its *status parents* are a minimal set of the known cells around those clues whose
  status, with the clues, decides x (every other cell hidden), the earliest known
  preferred in the same way.

Dropping any one parent's knowledge (a clue's value, or a status) leaves x undecided.
At least one parent has depth d - 1, so the longest path from x back to a root along
parent edges has length d: chains are counted in deductions (edges), a cell with several
parents takes the longest path over the DAG, and it counts toward the reach of every
guess that *any* path leads back to. Per guess, :func:`influence` reports the cells
decided before the next guess, the cells whose chains lead back to it, its longest chain
and its reach (the largest Chebyshev distance from the guess to such a cell).

Cost: about 15 deductions per decided cell on small windows of the board (binary
searches over the preference orders), 0.1 s a 9x9 game and 0.3-0.5 s a 16x16 game here.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..inference import _state
from ..kernels.inference import count as kc
from ..kernels.engine import layout as kl
from ..kernels.inference import results as kr

EDGE_COLUMNS = ["move", "row", "col", "parent", "parent_row", "parent_col", "via"]
GUESS_COLUMNS = ["move", "row", "col", "outcome", "opening", "decided", "influenced",
                 "longest_chain", "reach"]


def _check(trace):
    cfg = trace.config
    if cfg.noise != "none":
        raise ValueError(f"trace: influence needs exact clues (noise='none'); this game was "
                         f"played with noise={cfg.noise!r}, where a clue shown may not be "
                         "the true one and decisions may rest on probabilities")
    if cfg.mine_count:
        raise ValueError("trace: influence needs a game played with mine_count=False; with "
                         "the mine total a decision may rest on the total, which no known "
                         "cell carries")


def _facts(moves):
    """Per move: the cell, what became known of it (-2 a mine, else the clue), whether it
    was decided (not a guess) and whether it is a mine."""
    cells = moves["cell_index"].to_numpy().astype(np.int64)
    kind = moves["kind"].to_numpy()
    out = moves["out"].to_numpy()
    codes = np.where((kind == kl.A_FLAG) | (out == -1), -2, out).astype(np.int8)
    return cells, codes, kind != kl.A_GUESS, kind == kl.A_FLAG


class _Decider:
    """Complete deduction on a window of what is known (the kernels of
    :func:`fastsweep.deduce`, without its argument checks: these views are made of true
    facts), in which some revealed cells are safe with their clue unknown: a likelihood
    row of ones, which rules no layout out (as :func:`fastsweep.deduce` with a
    ``likelihood`` argument)."""

    def __init__(self, board):
        self.board = board  # (h, w) int8: -1 hidden, -2 a known mine, else the clue
        self.calls = 0

    def __call__(self, anchors, x, given, clue, mine):
        """Is cell x a certain mine (``mine``) or certainly safe, knowing only the cells
        of bool (h, w) ``given``, with their clue where ``clue`` is set? ``anchors``: the
        given clues (the window is one cell around them and x)."""
        self.calls += 1
        h, w = self.board.shape
        a = np.append(np.asarray(anchors, np.int64), x)
        # every given clue's neighbours lie inside the window; outside are only cells no
        # given clue touches, which decide nothing without the mine total
        ar, ac = a // w, a % w
        rs = slice(max(int(ar.min()) - 1, 0), min(int(ar.max()) + 2, h))
        cs = slice(max(int(ac.min()) - 1, 0), min(int(ac.max()) + 2, w))
        g = given[rs, cs]
        view = np.where(g, self.board[rs, cs], np.int8(-1))
        blank = g & ~clue[rs, cs] & (view >= 0)
        if blank.any():
            # a blank shows its known-mine neighbours in the window: consistent, and not
            # a constraint (its true clue may not be, with neighbours cut off)
            vh, vw = view.shape
            m = np.zeros((vh + 2, vw + 2), np.int8)
            m[1:-1, 1:-1] = view == -2
            around = m[:-2, :-2] + m[:-2, 1:-1] + m[:-2, 2:] + m[1:-1, :-2] + m[1:-1, 2:]
            around += m[2:, :-2] + m[2:, 1:-1] + m[2:, 2:]
            view[blank] = around[blank]
        soft = np.full((view.size, 9), np.nan)
        soft[blank.ravel()] = 1.0
        S = _state(view, None)
        ded = np.zeros(view.size, np.int8)
        q = kc.Query(False, 0.5, 0, False, kc.METHOD_AUTO, soft)
        if kr.cell_results(S, q, np.zeros(view.size), ded)[0] != kc.ST_OK:
            raise RuntimeError("known cells disagree with each other")  # true facts agree
        i = (x // w - rs.start) * view.shape[1] + x % w - cs.start
        return int(ded[i]) == (2 if mine else 1)


def _smallest_prefix(decides, kept, order, hi):
    """The smallest q < hi such that kept + order[:q + 1] decides, searched by doubling
    from the front (the preferred cells are near the decided one, so the windows stay
    small); None if even kept + order[:hi] does not."""
    lo, q = 0, 0
    while True:  # once kept + order[:q + 1] decides, the answer is in order[lo..q]
        q = min(q, hi - 1)
        if q < 0:
            return None
        if decides(kept + order[:q + 1]):
            break
        if q == hi - 1:
            return None
        lo, q = q + 1, 2 * q + 1
    while lo < q:
        mid = (lo + q) // 2
        if decides(kept + order[:mid + 1]):
            q = mid
        else:
            lo = mid + 1
    return q


def _minimal(decides, order):
    """The subset of ``order`` (most preferred first) left after dropping its members
    least preferred first, each whose absence still leaves the cell decided: a minimal
    deciding subset. Found from the front, with fewer deductions for the same set: the
    last kept member ends the shortest prefix that decides, the next ends the shortest
    prefix that decides with it, and so on. None if all of ``order`` does not decide."""
    kept, hi = [], len(order)
    while not (kept and decides(kept)):  # nothing known decides nothing (no mine total)
        q = _smallest_prefix(decides, kept, order, hi)
        if q is None:
            return None
        kept.append(order[q])
        hi = q  # the members left to choose from are the more preferred ones
    return sorted(kept)


def _drop_each(decides, order):
    """The same subset as :func:`_minimal` for an ``order`` that decides, one deduction
    per member (fewer when most members stay, as a clue's known neighbours mostly do)."""
    kept = list(order)
    for c in reversed(order):
        rest = [k for k in kept if k != c]
        if decides(rest):
            kept = rest
    return sorted(kept)


def _mask(shape, cells):
    m = np.zeros(shape, bool)
    m.flat[np.asarray(cells, np.int64)] = True
    return m


def _depth(dec, x, mine, known, d_known, revealed, hi):
    """The smallest d in 1..hi such that the known cells of depth below d decide x
    (all of them with depth < hi do)."""
    shape = dec.board.shape
    everything = np.ones(shape, bool)

    def by_depth(d):  # every known cell of depth below d, clue and all
        m = d_known < d
        return dec(known[m & revealed], x, _mask(shape, known[m]), everything, mine)

    lo, step = hi, 1  # from the top down by doubling steps: x is mostly deep
    while lo > 1 and by_depth(lo - 1):
        hi = lo - 1
        lo = max(hi - step, 1)
        step *= 2
    while lo < hi:  # the answer is in lo..hi, and hi decides
        mid = (lo + hi) // 2
        if by_depth(mid):
            hi = mid
        else:
            lo = mid + 1
    return hi


def _move_parents(j, board, cells, depth, mine, ref, dec):
    """Move j's depth and parents (indices of earlier moves). ``board``: (h, w) int8,
    what is known before move j (-1 hidden, -2 a known mine, else the clue); ``depth``:
    the earlier moves' depths; ``ref``: the clue a single-clue rule names, or -1."""
    h, w = board.shape
    x = int(cells[j])
    known, d_known = cells[:j], depth[:j]
    revealed = board.flat[known] >= 0
    when = {int(c): i for i, c in enumerate(known)}
    # an upper bound of the depth: the rule's clue and its known neighbours decide x
    top = int(d_known.max()) + 1
    if ref >= 0:
        rr, rc = divmod(ref, w)
        near = [when[r * w + c] for r in range(rr - 1, rr + 2) for c in range(rc - 1, rc + 2)
                if 0 <= r < h and 0 <= c < w and r * w + c in when]
        top = int(d_known[near].max()) + 1
    d = _depth(dec, x, mine, known, d_known, revealed, top)
    given = known[d_known < d]
    status = _mask((h, w), given)
    view = np.where(status, board, np.int8(-1))
    pad = np.pad(view == -1, 1)
    hidden_nb = sum(pad[1 + dr:h + 1 + dr, 1 + dc:w + 1 + dc]
                    for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
    # the clues: given revealed cells with a hidden neighbour, the named one first, then
    # the nearest, then the oldest
    fr = given[(view.flat[given] >= 0) & (hidden_nb.flat[given] > 0)]
    dist = np.maximum(np.abs(fr // w - x // w), np.abs(fr % w - x % w))
    clue_order = fr[np.lexsort((np.array([when[int(c)] for c in fr], np.int64),
                                np.where(fr == ref, -1, dist)))].tolist()

    def by_clues(chosen):  # every given cell's status, the clues of ``chosen`` only
        return dec(chosen, x, status, _mask((h, w), chosen), mine)

    clues = _minimal(by_clues, clue_order)
    if clues is None:
        raise RuntimeError(f"move {j + 1} was decided, but what was known before it does "
                           "not decide it")
    # the status cells: given cells around those clues, a minimal set whose status (a
    # mine, or safe) the clues need; the oldest known preferred
    around = {int(r * w + c) for q in clues for r in range(q // w - 1, q // w + 2)
              for c in range(q % w - 1, q % w + 2)
              if 0 <= r < h and 0 <= c < w and status[r, c]}
    status_order = sorted(around - set(clues), key=when.get)
    clue_mask = _mask((h, w), clues)

    def by_status(chosen):  # the clues, the status of ``chosen``, the rest hidden
        return dec(clues, x, _mask((h, w), clues + chosen), clue_mask, mine)

    kept = _drop_each(by_status, status_order)  # (all of them decide: as every status)
    return d, sorted([(when[c], "clue") for c in clues] + [(when[c], "status") for c in kept])


def _parent_sets(trace):
    """Per move of ``trace``, its parents as (move index, "clue" or "status"), sorted;
    ``[]`` for a guess."""
    _check(trace)
    mv = trace.moves
    cells, codes, decided, mine = _facts(mv)
    h, w = trace.config.height, trace.config.width
    # the clue a single-clue rule names is the preferred one
    rule = np.isin(mv["why"].to_numpy(), (kl.R_CLUE_MINES, kl.R_CLUE_SAFE))
    refs = np.where(rule, mv["ref"].to_numpy(), -1)
    board = np.full((h, w), -1, np.int8)
    depth = np.zeros(len(cells), np.int64)
    dec = _Decider(board)
    out = []
    for j in range(len(cells)):
        if decided[j]:
            depth[j], p = _move_parents(j, board, cells, depth, bool(mine[j]),
                                        int(refs[j]), dec)
        else:
            p = []
        out.append(p)
        board.flat[cells[j]] = codes[j]
    return out


def influence_graph(trace) -> pd.DataFrame:
    """The deduction graph's edges, one row per (decided move, parent).

    Columns: ``move`` (1-based, as in ``trace.moves``), ``row``, ``col`` of the decided
    cell; ``parent``, ``parent_row``, ``parent_col`` of a cell known before it whose
    knowledge it needs, and ``via``: ``"clue"`` (its clue is one of those that force
    the cell) or ``"status"`` (only whether it is a mine or safe is needed). Guesses never
    appear as ``move``: they are the roots. See the module's docstring for which cells
    are chosen. Raises ValueError for a game played under noise or with the mine total.

    Example
    -------
    >>> import fastsweep
    >>> t = fastsweep.play("basic", (1, 6), layout=[(0, 5)], first_cell=(0, 0))
    >>> print(t.board())
      0 1 2 3 4 5
    0 0 0 0 0 1 F
    >>> t.influence_graph()  # (0,5) is a mine: the 1 at (0,4), whose (0,3) is safe
       move  row  col  parent  parent_row  parent_col     via
    0     2    0    1       1           0           0    clue
    1     3    0    2       2           0           1    clue
    2     4    0    3       3           0           2    clue
    3     5    0    4       4           0           3    clue
    4     6    0    5       4           0           3  status
    5     6    0    5       5           0           4    clue
    """
    ps = _parent_sets(trace)
    cells = trace.moves["cell_index"].to_numpy()
    w = trace.config.width
    child = np.array([j for j, p in enumerate(ps) for _ in p], np.int64)
    par = np.array([q for p in ps for q, _ in p], np.int64)
    return pd.DataFrame({"move": child + 1, "row": cells[child] // w, "col": cells[child] % w,
                         "parent": par + 1, "parent_row": cells[par] // w,
                         "parent_col": cells[par] % w,
                         "via": [v for p in ps for _, v in p]}, columns=EDGE_COLUMNS)


def chain_lengths(edges, moves, roots):
    """(moves, len(roots)) int array: the longest path (in edges) from each move back to
    each root, -1 where no path leads there. ``edges``: :func:`influence_graph`'s table;
    ``roots``: the root moves (1-based)."""
    parents = [[] for _ in range(moves)]
    for m, p in zip(edges["move"].to_numpy(), edges["parent"].to_numpy()):
        parents[m - 1].append(p - 1)  # parents are earlier moves: one pass in move order
    L = np.full((moves, len(roots)), -1, np.int64)
    L[np.asarray(roots, np.int64) - 1, np.arange(len(roots))] = 0
    for j, p in enumerate(parents):
        if p:
            best = L[p].max(axis=0)
            L[j] = np.where(best >= 0, best + 1, -1)
    return L


def influence(trace, edges=None) -> pd.DataFrame:
    """Per guess (the opening included), how far the deductions that follow it reach.

    Columns: ``move``, ``row``, ``col``, ``outcome`` (as in ``trace.moves``), ``opening``
    (the first move), ``decided`` (moves made by inference after it, before the next
    guess), ``influenced`` (cells whose chains lead back to it, at any later time),
    ``longest_chain`` (the longest path back to it, in deductions: a cell with several
    parents counts the longest), ``reach`` (the largest Chebyshev distance from it to a
    cell with a path, any path, back to it; 0 if none). ``edges``: the trace's
    :func:`influence_graph`, to reuse one computation.

    Example
    -------
    >>> import fastsweep
    >>> t = fastsweep.play("basic", (1, 6), layout=[(0, 5)], first_cell=(0, 0))
    >>> t.influence()[["move", "row", "col", "decided", "longest_chain", "reach"]]
       move  row  col  decided  longest_chain  reach
    0     1    0    0        5              5      5
    """
    edges = influence_graph(trace) if edges is None else edges
    mv = trace.moves
    roots = np.flatnonzero(mv["kind"].to_numpy() == kl.A_GUESS)
    L = chain_lengths(edges, len(mv), roots + 1)
    w = trace.config.width
    cells = mv["cell_index"].to_numpy()
    r, c = cells // w, cells % w
    nxt = np.append(roots[1:], len(mv))
    rows = []
    for i, g in enumerate(roots):
        on = L[:, i] > 0
        dist = np.maximum(np.abs(r[on] - r[g]), np.abs(c[on] - c[g]))
        rows.append((g + 1, r[g], c[g], mv["outcome"].iat[g], g == 0, nxt[i] - g - 1,
                     int(on.sum()), int(L[:, i].max()), int(dist.max()) if on.any() else 0))
    return pd.DataFrame(rows, columns=GUESS_COLUMNS)

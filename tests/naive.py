"""Naive pure-Python references (oracles) for the fast kernels.

Slow and obvious on purpose: every fast kernel is compared with one of these on many
random small inputs.

* the per-game random draws (SplitMix64, Fisher-Yates) -> the guess order and the mines;
* board clues;
* the basic agent (single-clue rules by repeated full scans, mine-count rules, random
  guesses by guess order) replayed on a given board.
"""
from __future__ import annotations

import numpy as np

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15

HIDDEN, REVEALED, FLAGGED, DETONATED = 0, 1, 2, 3


def mix64(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def game_rng(seed, game, stream):
    s = mix64(seed ^ 0x6A09E667F3BCC908)
    s = mix64((s + game * GOLDEN) & MASK)
    return mix64(s ^ ((stream * 0xD1B54A32D192ED03) & MASK))


def rand_below(st, n):
    st = (st + GOLDEN) & MASK
    u = float(mix64(st) >> 11) * (2.0 ** -53)
    return st, int(u * n)


def neighbours(h, w, i):
    r, c = divmod(i, w)
    return [rr * w + cc for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2)
            if 0 <= rr < h and 0 <= cc < w and (rr, cc) != (r, c)]


def draw(h, w, mines, seed, game, first_click="any", first_cell=-1, layout=None):
    """(order, mine list of 0/1, first cell) exactly as the kernel draws them."""
    n = h * w
    pool = list(range(n))
    st = game_rng(seed, game, 0)
    for i in range(n - 1, 0, -1):
        st, j = rand_below(st, i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    order = pool[:]
    if first_cell >= 0:
        first = first_cell
    elif layout is None or first_click == "any":
        first = order[0]
    else:
        def ok(c):
            if layout[c]:
                return False
            return first_click != "zero" or not any(layout[d] for d in neighbours(h, w, c))
        first = next(c for c in order if ok(c))
    if layout is not None:
        return order, [int(x) for x in layout], first
    excluded = set()
    if first_click in ("safe", "zero"):
        excluded.add(first)
        if first_click == "zero":
            excluded.update(neighbours(h, w, first))
    pool = [i for i in range(n) if i not in excluded]
    st = game_rng(seed, game, 1)
    for i in range(mines):
        st, r = rand_below(st, len(pool) - i)
        j = i + r
        pool[i], pool[j] = pool[j], pool[i]
    mine = [0] * n
    for c in pool[:mines]:
        mine[c] = 1
    return order, mine, first


def clues(h, w, mine):
    """Number of mined neighbours of every cell (flat list)."""
    return [sum(mine[d] for d in neighbours(h, w, i)) for i in range(h * w)]


def basic_agent(h, w, mine, order, first, classic=False, mine_count=False):
    """Replay the basic agent; return the final state list and the counts.

    Local rules are applied by full scans until nothing changes (their closure does not
    depend on the order), then the game checks its end, then the mine-count rules (once),
    then a random guess: the first hidden cell of the guess order.
    """
    n = h * w
    nb = [neighbours(h, w, i) for i in range(n)]
    clue = clues(h, w, mine)
    st = [HIDDEN] * n
    res = dict(flagged=0, detonated=0, revealed=0, guesses=0, moves=0)
    m_total = sum(mine)

    def query(c, guess):
        res["moves"] += 1
        if guess:
            res["guesses"] += 1
        if mine[c]:
            st[c] = DETONATED
            res["detonated"] += 1
        else:
            st[c] = REVEALED
            res["revealed"] += 1

    def flag(c):
        res["moves"] += 1
        st[c] = FLAGGED
        res["flagged"] += 1

    query(first, True)
    while True:
        if classic and res["detonated"]:
            break  # the game ends at once: no more inference
        changed = True
        while changed:
            changed = False
            for c in range(n):
                if st[c] != REVEALED:
                    continue
                hid = [d for d in nb[c] if st[d] == HIDDEN]
                if not hid:
                    continue
                known = sum(st[d] in (FLAGGED, DETONATED) for d in nb[c])
                safe = sum(st[d] == REVEALED for d in nb[c])
                if clue[c] - known == len(hid):
                    for d in hid:
                        flag(d)
                    changed = True
                elif (len(nb[c]) - clue[c]) - safe == len(hid):
                    for d in hid:
                        query(d, False)
                    changed = True
        hidden = [c for c in range(n) if st[c] == HIDDEN]
        if classic and res["detonated"]:
            break
        if not hidden:
            break
        if classic and res["revealed"] == n - m_total:
            break
        if mine_count:
            left = m_total - res["flagged"] - res["detonated"]
            if left == 0:
                for d in hidden:
                    query(d, False)
                continue
            if left == len(hidden):
                for d in hidden:
                    flag(d)
                continue
        query(next(c for c in order if st[c] == HIDDEN), True)
    res["won"] = res["detonated"] == 0
    res["mines"] = m_total
    return st, res


# --- brute-force oracle for complete deduction and probabilities ---

def _layouts(view, mines, prior, likelihood):
    """Every assignment of the view's hidden cells: (hid, col, bits, wts, ok, logw) with
    ``wts`` the layouts' weights normalized by the largest (0 where a hard clue or the
    total disagrees or a soft clue's likelihood is 0) and ``logw`` the log of their sum
    (NaN when none agrees). Soft clues (``likelihood[r, c]`` not NaN) weigh a layout by
    L(t) for t mined neighbours, known mines included."""
    view = np.asarray(view)
    h, w = view.shape
    flat = view.ravel().astype(int)
    hid = [i for i in range(h * w) if flat[i] == -1]
    col = {c: j for j, c in enumerate(hid)}
    nh = len(hid)
    bits = ((np.arange(2 ** nh)[:, None] >> np.arange(nh)[None, :]) & 1).astype(np.int16)
    ok = np.ones(2 ** nh, bool)
    k = bits.sum(axis=1)
    if mines is not None:
        ok &= k + int((flat == -2).sum()) == mines
        lw = np.zeros(2 ** nh)
    else:  # in log space: exact ratios for any prior in (0, 1)
        lw = k * np.log(prior) + (nh - k) * np.log1p(-prior)
    for c in range(h * w):
        if flat[c] < 0:
            continue
        known = sum(1 for d in neighbours(h, w, c) if flat[d] == -2)
        idx = [col[d] for d in neighbours(h, w, c) if flat[d] == -1]
        got = bits[:, idx].sum(axis=1) if idx else np.zeros(2 ** nh, np.int16)
        row = None if likelihood is None else np.asarray(likelihood)[c // w, c % w]
        if row is None or np.isnan(row).all():
            ok &= got == flat[c] - known
        else:
            lik = row[np.minimum(got + known, 8)]
            ok &= (lik > 0) & (got + known <= 8)
            with np.errstate(divide="ignore"):
                lw = lw + np.log(lik)
    wts = np.zeros(2 ** nh)
    logw = float("nan")
    if ok.any():
        top = lw[ok].max()
        wts[ok] = np.exp(lw[ok] - top)
        logw = float(np.log(wts.sum()) + top)
    return hid, col, bits, wts, ok, logw


def brute_force_view(view, mines=None, prior=0.5, log_weight=False, likelihood=None):
    """(safe, mine, prob) of a view by enumerating every assignment of its hidden cells.

    ``view`` as in fastsweep.deduce (-1 hidden, -2 known mine, 0..8 clue). With
    ``mines`` every consistent layout of that total counts once; without, a layout with
    k mines among the H hidden cells weighs prior^k (1-prior)^(H-k); soft clues
    (``likelihood`` as in fastsweep.deduce) multiply in their L(t). Raises ValueError
    when no layout agrees. Meant for H <= ~20 hidden cells. With ``log_weight`` also the
    log of the total weight: of the number of layouts (with ``mines``), else of their
    summed prior probability (times the likelihoods).
    """
    view = np.asarray(view)
    h, w = view.shape
    flat = view.ravel().astype(int)
    hid, col, bits, wts, ok, logw = _layouts(view, mines, prior, likelihood)
    if not ok.any():
        raise ValueError("no layout agrees with the view")
    safe = np.zeros(h * w, bool)
    mine = np.zeros(h * w, bool)
    prob = np.where(flat == -2, 1.0, 0.0)
    good = bits[ok]
    for j, c in enumerate(hid):
        safe[c] = not good[:, j].any()
        mine[c] = good[:, j].all()
        prob[c] = (wts * bits[:, j]).sum() / wts.sum()
    res = safe.reshape(h, w), mine.reshape(h, w), prob.reshape(h, w)
    return res + (logw,) if log_weight else res


def brute_force_outcomes(view, mines=None, prior=0.5, likelihood=None):
    """(H, W, 10): for each hidden cell, P(safe and shows v) for v = 0..8 and P(mine) in
    entry 9, by enumerating every layout as :func:`brute_force_view` does; a known mine
    gets entry 9 = 1, a revealed cell zeros."""
    view = np.asarray(view)
    h, w = view.shape
    flat = view.ravel().astype(int)
    hid, col, bits, wts, ok, _ = _layouts(view, mines, prior, likelihood)
    wts = wts / wts.sum()
    out = np.zeros((h * w, 10))
    out[flat == -2, 9] = 1.0
    for c in hid:
        j = col[c]
        out[c, 9] = wts[bits[:, j] == 1].sum()
        known = sum(1 for d in neighbours(h, w, c) if flat[d] == -2)
        idx = [col[d] for d in neighbours(h, w, c) if flat[d] == -1]
        shown = known + (bits[:, idx].sum(axis=1) if idx else 0)
        for v in range(9):
            out[c, v] = wts[(bits[:, j] == 0) & (shown == v)].sum()
    return out.reshape(h, w, 10)


def told_apart(view, mines, cells, colours):
    """Whether the set ``cells`` (flat indices), in classes ``colours`` (0 / 1), is not an
    unavoidable 50/50 of ``view``: some consistent layout holds neither of its two
    patterns (one class all mines, the other all safe), or the layout with the other
    pattern disagrees with a clue or shows another value on a safe cell outside the set,
    so that a clue, now or once revealed, can tell them apart. Brute force over every
    layout."""
    h, w = view.shape
    hid, col, bits, _, ok, _ = _layouts(view, mines, 0.5, None)
    index = {tuple(r): i for i, r in enumerate(bits)}
    known = view.ravel() == -2
    a = [c for c, k in zip(cells, colours) if k == 0]
    b = [c for c, k in zip(cells, colours) if k == 1]
    inside = set(cells)
    for i in np.flatnonzero(ok):
        m = known.copy()
        m[hid] = bits[i] == 1
        if not ((m[a].all() and not m[b].any()) or (m[b].all() and not m[a].any())):
            return True
        ms = m.copy()
        ms[a], ms[b] = m[b], m[a]
        sw = bits[i].copy()
        sw[[col[c] for c in cells]] = ms[cells]
        if not ok[index[tuple(sw)]]:
            return True
        for d in range(h * w):
            if d not in inside and not m[d]:
                near = list(neighbours(h, w, d))
                if m[near].sum() != ms[near].sum():
                    return True
    return False


def random_view(rng, h, w, density, reveal, known, max_hidden=None):
    """(view, mines) of a random position: mines at ``density``; each safe cell revealed
    with probability ``reveal``; each mine shown as known with probability ``known``.
    With ``max_hidden``, extra safe cells are revealed until at most that many stay
    hidden (mines are never revealed, so a position with too many mines keeps them)."""
    n = h * w
    mine = rng.random(n) < density
    # (the neighbour counts by shifted sums: the same numbers as summing mine[d] over
    # neighbours(h, w, i), which cost the suite ~30 s in test_risk_threshold's views)
    p = np.zeros((h + 2, w + 2), np.int64)
    p[1:-1, 1:-1] = mine.reshape(h, w)
    clue = sum(p[1 + a:h + 1 + a, 1 + b:w + 1 + b] for a in (-1, 0, 1) for b in (-1, 0, 1)
               if a or b).ravel()
    view = np.full(n, -1, np.int64)
    shown = (~mine) & (rng.random(n) < reveal)
    if max_hidden is not None:
        safe_hidden = np.flatnonzero(~mine & ~shown)
        rng.shuffle(safe_hidden)
        excess = (n - int(shown.sum())) - max_hidden
        if excess > 0:
            shown[safe_hidden[:excess]] = True
    view[shown] = clue[shown]
    view[mine & (rng.random(n) < known)] = -2
    return view.reshape(h, w).astype(np.int8), int(mine.sum())


# --- replaying a traced game ---

def view_after(h, w, clue, cells, outs):
    """The agent's view (as in fastsweep.deduce) after the moves ``cells`` / ``outs``.

    ``clue`` is the flat list of true clues; ``outs`` the traced outcome of each move
    (a clue, -1 detonated, -2 flagged). A revealed cell shows its clue, a flagged or
    detonated cell is a known mine (-2), every other cell is hidden (-1).
    """
    view = [-1] * (h * w)
    for c, o in zip(cells, outs):
        c, o = int(c), int(o)
        view[c] = -2 if o < 0 else clue[c]
    return np.array(view, np.int8).reshape(h, w)


def state_after(h, w, cells, kinds, outs, flag_kind):
    """Final status list (HIDDEN / REVEALED / FLAGGED / DETONATED) after the moves:
    a move of kind ``flag_kind`` flags its cell, any other move reveals it, and an
    outcome of -1 means it detonated."""
    st = [HIDDEN] * (h * w)
    for c, k, o in zip(cells, kinds, outs):
        c, k, o = int(c), int(k), int(o)
        if k == flag_kind:
            st[c] = FLAGGED
        elif o == -1:
            st[c] = DETONATED
        else:
            st[c] = REVEALED
    return st

"""The agent contract: every registered agent, under every rule set, told the mine total
or not, must pass every test here (in the spirit of Pgx's shared ``api_test.py``).

The tests are parametrized at collection time over ``fastsweep.AGENTS`` x rules x
mine_count, so registering an agent gives it all of them with no edit to this file. An
agent the registry marks ``slow`` plays 10 games instead of 200 a case on boards of more
than 64 cells (the same checks, on fewer games).

1. Soundness with exact sensors: every flag is on a mine, no deduced-safe reveal
   detonates (kernel counters, final boards, and the traced moves independently).
2. Termination: keep-going resolves every cell; classic stops at the first detonation or
   once every safe cell is revealed.
3. A game depends on (seed, game) only: any batch split gives the same rows, and the
   traced game (``play``) is the batch game move for move.
4. Traces are consistent: numbered moves, each cell acted on once, outcomes equal the
   true board, counts equal the result; the opening cell and every random guess follow
   the guess order (the first cell of the order still hidden).
5. Agents that promise complete deduction (see :func:`complete_deduction`) only guess
   when the brute-force oracle finds no certain cell; a guess that reports a mine
   probability reports the exact one, it is the lowest of the hidden cells, and ties go
   to the earliest cell of the guess order.
6. Reproducibility: same seed, same games; another seed, other boards; the board does
   not depend on the agent or on mine_count.
"""
import os

import numpy as np
import pytest

import fastsweep
import naive
from fastsweep import AGENTS
from fastsweep.options import GAME, make_config
from fastsweep.kernels.engine import layout as ke
from fastsweep.kernels.engine import game as kg
from fastsweep.runner import play_chunk
from fastsweep.user.check import batch_problems

RULES = ["keep-going", "classic"]
MINE_COUNT = [False, True]

def complete_deduction(name):
    """Whether agent ``name`` promises complete deduction before each guess (check 5):
    the registry's ``exact_inference`` flag."""
    return AGENTS[name].exact_inference


# a slow agent's cases are the suite's heaviest (5-17 s each): in the full suite only, not
# in the developer's quick subset (scripts/test.py --fast)
ALL = [pytest.param(a, r, m, id=f"{a}-{r}-{'total' if m else 'nototal'}",
                    marks=[pytest.mark.slow] if AGENTS[a].slow else [])
       for a in AGENTS for r in RULES for m in MINE_COUNT]
COMPLETE = [p for p in ALL if complete_deduction(p.values[0])]


def _bool_layout(h, w, cells):
    lay = np.zeros((h, w), bool)
    for r, c in cells:
        lay[r, c] = True
    return lay


# Board cases: make_config keyword arguments (first_click / first_cell optional; when a
# classic default "safe" opening is impossible, as on an all-mines board, "any" is used).
CASES = {
    "1x1-empty": dict(size=(1, 1), mines=0),
    "1x1-mine": dict(size=(1, 1), mines=1),
    "1x2": dict(size=(1, 2), mines=1),
    "1x9": dict(size=(1, 9), mines=2),
    "11x1": dict(size=(11, 1), mines=4),
    "1x30-dense": dict(size=(1, 30), density=0.6),
    "2x2": dict(size=(2, 2), mines=2),
    "3x5-empty": dict(size=(3, 5), mines=0),
    "3x5-full": dict(size=(3, 5), mines=15),
    "4x7-low": dict(size=(4, 7), density=0.1),
    "4x7-high": dict(size=(4, 7), density=0.7),
    "7x4-zero-center": dict(size=(7, 4), mines=5, first_click="zero", first_cell="center"),
    "6x9-safe-random": dict(size=(6, 9), density=0.25, first_click="safe", first_cell="random"),
    "9x9-beginner": dict(size=(9, 9), mines=10),
    "8x13-dense": dict(size=(8, 13), density=0.45),
    "16x30-expert": dict(size=(16, 30), mines=99),
    "layout-4x5-list": dict(size=(4, 5), layout=[(0, 1), (2, 3), (3, 4)]),
    "layout-5x5-ring": dict(size=(5, 5), layout=[(r, c) for r in (1, 2, 3) for c in (1, 2, 3)
                                                  if (r, c) != (2, 2)]),
    "layout-2x6-bool": dict(size=(2, 6), layout=_bool_layout(2, 6, [(0, 0), (1, 3), (0, 5)])),
}
SEEDS = {name: 1000 + 17 * i for i, name in enumerate(CASES)}
SEEDS["9x9-beginner"] = 2**64 - 1  # the largest root seed
GAMES = 200  # per case, for the batch checks
SLOW_GAMES = 10  # for agents the registry marks slow, on boards of more than 64 cells


# A slow agent's split check compares the first SPLIT_SLOW games of its batch: what it
# tests is that a batch boundary (state reset, workspace reuse) changes no game, which
# four random cuts in 50 games test as well as in 200; soundness (check 1) still covers
# the whole batch. (It halved the suite's longest tests: 29 s for lookahead.)
SPLIT_SLOW = 50


def games_for(cfg):
    """Games a batch check plays: GAMES, or SLOW_GAMES for a slow agent on a big board."""
    return SLOW_GAMES if AGENTS[cfg.agent].slow and cfg.cells > 64 else GAMES
TRACED = 8  # per case, traced and compared with the batch

# Small boards for the oracle: at most 17 cells, so at most 16 hidden at any guess after
# the opening, and brute force over 2^16 layouts is cheap.
SMALL_CASES = {
    "1x1-mine": dict(size=(1, 1), mines=1),
    "1x2": dict(size=(1, 2), mines=1),
    "1x7": dict(size=(1, 7), mines=3),
    "1x13": dict(size=(1, 13), mines=4),
    "12x1": dict(size=(12, 1), mines=5),
    "1x17": dict(size=(1, 17), mines=6),
    "2x2": dict(size=(2, 2), mines=1),
    "2x8": dict(size=(2, 8), mines=5),
    "3x3": dict(size=(3, 3), mines=3),
    "3x5": dict(size=(3, 5), mines=6),
    "3x5-empty": dict(size=(3, 5), mines=0),
    "4x3-high": dict(size=(4, 3), mines=8),
    "4x4-low": dict(size=(4, 4), mines=3),
    "4x4-mid": dict(size=(4, 4), mines=6),
    "4x4-high": dict(size=(4, 4), mines=11),
    "4x4-full": dict(size=(4, 4), mines=16),
    "4x4-prior": dict(size=(4, 4), mines=5, prior=0.3),
    "4x4-zero": dict(size=(4, 4), mines=4, first_click="zero", first_cell=(1, 1)),
    "layout-3x5": dict(size=(3, 5), layout=[(0, 2), (1, 2), (2, 0), (2, 4)]),
    "layout-4x4-bool": dict(size=(4, 4), layout=_bool_layout(4, 4, [(0, 3), (1, 1), (2, 2), (3, 0)])),
}
# Larger boards, checked only at guesses that leave few hidden cells (late in the game).
LATE_CASES = {
    "5x5": dict(size=(5, 5), mines=8),
    "4x6-high": dict(size=(4, 6), mines=14),
    "6x5-layout": dict(size=(6, 5), layout=[(0, 0), (1, 2), (2, 4), (3, 1), (4, 3), (5, 0),
                                            (5, 4), (2, 2)]),
}
MAX_HIDDEN = 16
ORACLE_GAMES = 30  # traced games per small case


def config_kwargs(agent, case, rules, mine_count):
    """The keyword arguments of ``make_config`` / ``play`` for one case, and its config."""
    # the agent's own options only (a case's prior is for the agents that read it)
    kw = {k: v for k, v in case.items() if k in GAME or k in AGENTS[agent].options}
    kw.update(agent=agent, rules=rules, mine_count=mine_count)
    try:
        return kw, make_config(**kw)
    except ValueError:
        if "first_click" in case:
            raise  # a case that names its rule must be playable
        kw["first_click"] = "any"  # e.g. classic's safe opening on an all-mines board
        return kw, make_config(**kw)


def guess_order(cfg, seed, game):
    """(guess order, opening cell) of a game, from the naive reference draw."""
    lay = None if cfg.layout is None else [int(x) for x in cfg.layout]
    order, _, first = naive.draw(cfg.height, cfg.width, cfg.mines, seed, game, cfg.first_click,
                                 cfg.first_cell_index(), lay)
    return order, first


def _row_dict(row):
    return dict(mines=int(row[kg.OUT_MINES]), flagged=int(row[kg.OUT_FLAGGED]),
                detonated=int(row[kg.OUT_DETONATED]), revealed=int(row[kg.OUT_REVEALED]),
                guesses=int(row[kg.OUT_GUESSES]), moves=int(row[kg.OUT_MOVES]),
                won=bool(row[kg.OUT_WON]), approx_steps=int(row[kg.OUT_APPROX]))


@pytest.fixture(scope="session")
def batches(tmp_path_factory):
    """A directory shared by every test process of this session (xdist's workers share
    the base temp's parent): checks 1, 3 and 4 compare against the same reference batch
    of a case, played once by whichever test gets there first and saved here. A batch
    played in another process makes the split and trace checks cross-process ones."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent
    d = root / "contract-batches"
    d.mkdir(exist_ok=True)
    return d


def reference_batch(batches, cfg, name):
    """Case ``name``'s batch under ``cfg``, ``play_chunk(cfg, SEEDS[name], 0,
    games_for(cfg), keep_boards=True)``, as (out, (fst, fmine)): played once a session,
    then loaded from ``batches`` (the agent, rules, mine_count and case fix it)."""
    path = batches / f"{cfg.agent}-{cfg.rules}-{cfg.mine_count}-{name}.npz"
    if path.exists():
        with np.load(path) as z:
            return z["out"], (z["fst"], z["fmine"])
    out, _, (fst, fmine) = play_chunk(cfg, SEEDS[name], 0, games_for(cfg), keep_boards=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp.npz")
    np.savez(tmp, out=out, fst=fst, fmine=fmine)
    os.replace(tmp, path)  # atomic: a process reading it sees a whole file
    return out, (fst, fmine)


# ---- 1 and 2: soundness and termination, from the batch runner -------------------------

def check_batch(cfg, out, fst, fmine, where):
    """Checks 1 and 2 on a batch: ``fastsweep.check_agent``'s own batch check, so a
    user's agent meets the very contract the built-in agents do."""
    problems = batch_problems(cfg, out, fst, fmine)
    assert not problems, (where, problems)


@pytest.mark.parametrize("agent, rules, mine_count", ALL)
def test_sound_and_terminates(agent, rules, mine_count, batches):
    for name, case in CASES.items():
        _, cfg = config_kwargs(agent, case, rules, mine_count)
        out, (fst, fmine) = reference_batch(batches, cfg, name)
        check_batch(cfg, out, fst, fmine, (agent, rules, mine_count, name, SEEDS[name]))


# ---- 3: batch splits ------------------------------------------------------------------

@pytest.mark.parametrize("agent, rules, mine_count", ALL)
def test_batch_splits_give_the_same_games(agent, rules, mine_count, batches):
    rng = np.random.default_rng(31)
    for name, case in CASES.items():
        _, cfg = config_kwargs(agent, case, rules, mine_count)
        seed = SEEDS[name]
        games = games_for(cfg)
        out, (fst, fmine) = reference_batch(batches, cfg, name)
        if AGENTS[agent].slow and games > SPLIT_SLOW:
            games = SPLIT_SLOW
            out, fst, fmine = out[:games], fst[:games], fmine[:games]
        cuts = np.sort(rng.choice(np.arange(1, games), size=4, replace=False))
        bounds = [0, *cuts.tolist(), games]
        parts = [play_chunk(cfg, seed, a, b - a, keep_boards=True, timing=False)
                 for a, b in zip(bounds[:-1], bounds[1:])]
        where = (agent, rules, mine_count, name, bounds)
        assert np.array_equal(out, np.vstack([p[0] for p in parts])), where
        assert np.array_equal(fst, np.vstack([p[2][0] for p in parts])), where
        assert np.array_equal(fmine, np.vstack([p[2][1] for p in parts])), where
        # a single game far into the index range, alone and inside a batch
        g = int(rng.integers(1000, 100_000))
        alone, _, _ = play_chunk(cfg, seed, g, 1)
        inside, _, _ = play_chunk(cfg, seed, g - 3, 5)
        assert np.array_equal(alone[0], inside[3]), (where, g)


# ---- 3 and 4: the traced game is the batch game, and is consistent --------------------

def check_trace(t, row, fst_row, fmine_row, where):
    cfg = t.config
    h, w, n = cfg.height, cfg.width, cfg.cells
    mv = t.moves
    k = len(mv)
    mines = t.mines.ravel()
    clue = t.clues.ravel()
    cells = mv.cell_index.to_numpy()
    outs = mv.out.to_numpy()
    # 3. the same game as the batch row
    assert {key: t.result[key] for key in _row_dict(row)} == _row_dict(row), where
    m = t.result["mines"]
    assert t.result["score"] == (t.result["flagged"] / m if m else 1.0), where
    assert (mines.astype(np.uint8) == fmine_row).all(), (where, "the traced board")
    assert (t.final_state.ravel() == fst_row).all(), (where, "the traced final state")
    assert list(clue) == naive.clues(h, w, list(mines.astype(int))), where
    replayed = naive.state_after(h, w, cells, mv.kind.to_numpy(), outs, ke.A_FLAG)
    assert replayed == list(t.final_state.ravel()), (where, "the moves replayed")
    # 4. numbering, each cell once, outcomes from the true board
    assert mv.move.tolist() == list(range(1, k + 1)) and k == t.result["moves"], where
    assert len(set(cells.tolist())) == k and ((0 <= cells) & (cells < n)).all(), where
    assert (mv.row * w + mv.col == mv.cell_index).all(), where
    for i, (act, c, outcome, o) in enumerate(zip(mv.action, cells, mv.outcome, outs)):
        at = (where, "move", i + 1, act, divmod(int(c), w), outcome)
        assert act in ("reveal", "flag", "guess"), at
        if act == "flag":
            assert mines[c], (at, "1. a flag on a safe cell")
            assert outcome == "flagged" and o == -2, at
            continue
        if act == "reveal":
            assert outcome != "detonated", (at, "1. a deduced-safe reveal detonated")
        if mines[c]:
            assert outcome == "detonated" and o == -1, at
        else:
            assert outcome == f"clue {clue[c]}" and o == clue[c], at
    # the opening cell and random guesses follow the guess order: the first cell of the
    # order that is still hidden (at a random guess no hidden cell is known)
    order, first = guess_order(cfg, t.seed, t.game)
    assert cells[0] == first, (where, "the opening cell")
    rank = np.empty(n, np.int64)
    rank[order] = np.arange(n)
    for i in np.flatnonzero(mv.reason.str.startswith("random guess").to_numpy()):
        hidden = np.setdiff1d(np.arange(n), cells[:i])
        earliest = rank[hidden].min()
        assert rank[cells[i]] == earliest, (where, "move", i + 1, "not the first hidden cell "
                                            "of the guess order")
    acts = mv.action.to_numpy()
    det = mv.outcome.to_numpy() == "detonated"
    assert t.result["flagged"] == (acts == "flag").sum(), where
    assert t.result["detonated"] == det.sum(), where
    assert t.result["revealed"] == (acts != "flag").sum() - det.sum(), where
    assert t.result["guesses"] == (acts == "guess").sum(), where
    assert t.result["won"] == (det.sum() == 0), where
    assert acts[0] == "guess" and mv.reason.iloc[0].startswith("opening move"), where
    assert not mv.reason.iloc[1:].str.startswith("opening move").any(), where
    if cfg.rules == "keep-going":
        assert k == n, (where, "keep-going resolves every cell")
    elif det.any():
        assert det.sum() == 1 and det[-1], (where, "classic ends at the first detonation")
    else:
        assert t.result["revealed"] == n - m, (where, "classic ends when won")


@pytest.mark.parametrize("agent, rules, mine_count", ALL)
def test_trace_is_the_batch_game(agent, rules, mine_count, batches):
    rng = np.random.default_rng(47)
    traced = 0
    for name, case in CASES.items():
        kw, cfg = config_kwargs(agent, case, rules, mine_count)
        seed = SEEDS[name]
        games = games_for(cfg)
        out, (fst, fmine) = reference_batch(batches, cfg, name)
        if AGENTS[agent].slow and games > SPLIT_SLOW:
            games = SPLIT_SLOW
            out, fst, fmine = out[:games], fst[:games], fmine[:games]
        for g in [0, *rng.choice(np.arange(1, games), TRACED - 1, replace=False).tolist()]:
            t = fastsweep.play(seed=seed, game=g, **kw)
            assert t.config == cfg and t.seed == seed and t.game == g
            check_trace(t, out[g], fst[g], fmine[g], (agent, rules, mine_count, name, seed, g))
            traced += 1
    assert traced == TRACED * len(CASES)


# ---- 5: complete deduction and exact probabilities at every guess ---------------------

def check_guesses_against_oracle(t, where):
    """Returns (guesses checked, of which probability guesses)."""
    cfg = t.config
    h, w = cfg.height, cfg.width
    total = int(t.mines.sum()) if cfg.mine_count else None
    mv = t.moves
    cells = mv.cell_index.to_numpy()
    outs = mv.out.to_numpy()
    clue = list(t.clues.ravel())
    checked = prob_checked = 0
    assert t.result["approx_steps"] == 0, where
    order, _ = guess_order(cfg, t.seed, t.game)
    rank = np.empty(cfg.cells, np.int64)
    rank[order] = np.arange(cfg.cells)
    for i in np.flatnonzero(mv.action.to_numpy() == "guess"):
        view = naive.view_after(h, w, clue, cells[:i], outs[:i])
        at = (where, "move", i + 1, divmod(int(cells[i]), w), mv.reason.iloc[i])
        if i == 0:  # the opening: exempt from deduction, and only before anything is known
            assert (view == -1).all(), at
            continue
        if (view == -1).sum() > MAX_HIDDEN:
            continue  # too many layouts for brute force
        assert view.ravel()[cells[i]] == -1, at
        safe, mine, p = naive.brute_force_view(view, total, cfg.prior)
        assert not safe.any() and not mine.any(), (
            at, "(a) guessed while a deduction was available", view,
            "safe", np.argwhere(safe).tolist(), "mine", np.argwhere(mine).tolist())
        reported = mv.probability.iloc[i]
        if cfg.agent == "probability":
            assert np.isfinite(reported), (at, "the probability agent reports its guess")
        if np.isfinite(reported):  # the agent reports the exact mine probability
            pc = p.ravel()[cells[i]]
            assert abs(reported - pc) <= 1e-9, (at, "(b) reported", reported, "oracle", pc)
        if np.isfinite(reported) and "lowest of" in mv.reason.iloc[i]:  # and the lowest
            low = p[view == -1].min()
            assert pc <= low + 1e-9, (at, "(b) not the lowest", pc, low, view, p)
            # ties go to the earliest cell of the guess order
            tied = np.flatnonzero((view.ravel() == -1) & (p.ravel() <= low + 1e-9))
            assert rank[cells[i]] == rank[tied].min(), (at, "(b) tie not broken by the "
                                                        "guess order", tied.tolist())
            prob_checked += 1
        checked += 1
    return checked, prob_checked


ORACLE_CHECKED = {}


@pytest.mark.parametrize("agent, rules, mine_count", COMPLETE)
def test_guesses_only_when_nothing_is_certain(agent, rules, mine_count):
    checked = prob_checked = 0
    for i, (name, case) in enumerate({**SMALL_CASES, **LATE_CASES}.items()):
        kw, cfg = config_kwargs(agent, case, rules, mine_count)
        seed = 500 + i
        for g in range(ORACLE_GAMES):
            t = fastsweep.play(seed=seed, game=g, **kw)
            c, pc = check_guesses_against_oracle(t, (agent, rules, mine_count, name, seed, g))
            checked += c
            prob_checked += pc
    ORACLE_CHECKED[(agent, rules, mine_count)] = (checked, prob_checked)
    assert checked >= 30, "too few guesses checked: the cases must be made harder"
    if agent == "probability":
        assert prob_checked == checked


# ---- 6: reproducibility ---------------------------------------------------------------

@pytest.mark.parametrize("agent, rules, mine_count", ALL)
def test_reproducible(agent, rules, mine_count):
    kw = dict(size=(9, 9), mines=40)
    _, cfg = config_kwargs(agent, kw, rules, mine_count)
    a = play_chunk(cfg, 8, 0, 40, keep_boards=True)
    b = play_chunk(cfg, 8, 0, 40, keep_boards=True)
    assert np.array_equal(a[0], b[0]), "same seed, same results"
    assert np.array_equal(a[2][0], b[2][0]) and np.array_equal(a[2][1], b[2][1]), "same boards"
    c = play_chunk(cfg, 9, 0, 40, keep_boards=True)
    # 40 of 81 cells: two seeds draw the same board with probability 1 / C(81, 40) ~ 1e-23
    assert (a[2][1] != c[2][1]).any(axis=1).all(), "another seed, another board in every game"
    # the board is the environment's: the same for every agent and mine_count setting
    ref = next(iter(AGENTS))
    _, rcfg = config_kwargs(ref, kw, rules, not mine_count)
    r = play_chunk(rcfg, 8, 0, 40, keep_boards=True)
    assert np.array_equal(a[2][1], r[2][1]), (ref, "sees other boards")

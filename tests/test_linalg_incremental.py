"""The linalg agents' reduced system kept across moves (agents/reports/linalg_inc.py)
plays exactly the games of the full reduction at every move.

* check mode (``params[P_BUDGET] = -2``, an internal switch): after every move the kernel
  compares the kept rows (up to sign) and their decisions with a full reduction of the
  same knowledge and raises on any difference; those games, the incremental ones (0) and
  the full reduction's (-1) agree game by game, on small and medium boards, with and
  without the mine total, keep-going and classic, and under noisy sensors (where every
  move is the full reduction);
* traced games agree move by move (cell, action, reason, count: the order of the actions
  within a move included);
* the kept system is really what decides: a game's first linalg move is the only full
  reduction under exact clues, every move is one under noise.
"""
import numpy as np
import pytest

from fastsweep.agents import kernels_for
from fastsweep.kernels.agents.reports.linalg_inc import MODE_CHECK, MODE_FULL, linalg_move
from fastsweep.kernels.agents.reports.linalg_rows import H_FULL, W_META, new_workspace
from fastsweep.kernels.engine import game as kg
from fastsweep.kernels.engine.local import guess_in_order
from fastsweep.options import agent_params, make_config

NOISE = "detector:p_neg=0.1,p_pos=0.05"

# (size, density, rules, noise, games)
BOARDS = [((6, 6), 0.25, "keep-going", "none", 200),
          ((9, 9), 0.45, "keep-going", "none", 120),
          ((8, 13), 0.3, "classic", "none", 200),
          ((5, 17), 0.6, "keep-going", "none", 100),
          ((16, 16), 0.4, "keep-going", "none", 40),
          ((16, 30), 0.206, "classic", "none", 40),
          ((24, 24), 0.5, "keep-going", "none", 8),
          ((30, 30), 0.35, "keep-going", "none", 3),
          ((12, 12), 0.3, "keep-going", NOISE, 30),
          ((10, 10), 0.35, "keep-going", "reveal:p=0.2", 30)]


def _params(cfg, seed, mode):
    params, fparams = agent_params(cfg, seed)
    params[kg.P_BUDGET] = mode  # the linalg agents' internal switch (linalg_inc.MODE_*)
    return params, fparams


def _batch(cfg, seed, games, mode):
    params, fparams = _params(cfg, seed, mode)
    out = np.zeros((games, kg.OUT_LEN), np.int64)
    kernels_for(cfg.agent).play_batch(params, fparams, np.zeros(0, np.uint8), 0, out,
                                      np.zeros(0), np.zeros((2, 0, 0), np.int8))
    return out


def _traced(cfg, seed, game, mode):
    params, fparams = _params(cfg, seed, mode)
    n = cfg.cells
    moves = np.zeros((n, 6), np.int32)
    final = np.zeros((3, n), np.int32)
    out = np.zeros((1, kg.OUT_LEN), np.int64)
    kernels_for(cfg.agent).play_traced(params, fparams, np.zeros(0, np.uint8), game, moves,
                                       np.full(n, np.nan), final, out)
    return moves, final, out


@pytest.mark.parametrize("agent", ["linalg", "linalg-plus", "linalg-bruteforce"])
@pytest.mark.parametrize("mc", [False, True], ids=["nototal", "total"])
def test_checked_incremental_and_full_games_agree(agent, mc):
    for size, density, rules, noise, games in BOARDS:
        if agent == "linalg-bruteforce" and size[0] * size[1] > 300:
            continue  # (its enumeration dominates; the small boards cover its linalg step)
        cfg = make_config(agent, size, density=density, rules=rules, mine_count=mc,
                          noise=noise)
        where = (agent, size, density, rules, noise, mc)
        checked = _batch(cfg, 11, games, MODE_CHECK)  # raises on a difference
        inc = _batch(cfg, 11, games, 0)
        full = _batch(cfg, 11, games, MODE_FULL)
        np.testing.assert_array_equal(inc, full, err_msg=str(where))
        np.testing.assert_array_equal(checked, full, err_msg=str(where))
        if noise == "none" and agent != "linalg-bruteforce":
            assert (full[:, kg.OUT_APPROX] == 0).all(), (where, "the overflow guard fired")


@pytest.mark.parametrize("agent", ["linalg", "linalg-plus"])
def test_traced_games_agree_move_by_move(agent):
    for size, density, rules, noise, mc in [((16, 16), 0.4, "keep-going", "none", True),
                                            ((16, 30), 0.206, "classic", "none", True),
                                            ((12, 12), 0.3, "keep-going", "none", False),
                                            ((12, 12), 0.3, "keep-going", NOISE, True)]:
        cfg = make_config(agent, size, density=density, rules=rules, mine_count=mc,
                          noise=noise)
        for game in range(3):
            a = _traced(cfg, 5, game, 0)
            b = _traced(cfg, 5, game, MODE_FULL)
            for x, y in zip(a, b):
                np.testing.assert_array_equal(x, y, err_msg=str((agent, size, game)))


def _count_full_reductions(cfg, seed, games):
    """Play ``games`` games of linalg as its family's loop does, with a workspace kept
    here; returns (the workspace's count of full reductions, linalg moves)."""
    params, fparams = _params(cfg, seed, MODE_CHECK)
    classic = cfg.rules == "classic"
    S, scratch = kg.new_batch_state(params, False)
    F = S.reshape(-1)
    ws = new_workspace(cfg.cells)
    layout = np.zeros(0, np.uint8)
    local = kg.local_rules(params)
    moves = 0
    for g in range(games):
        kg.open_game(S, kg.setup_game(S, params, layout, g, scratch))
        while True:
            step = kg.settle(S, F, classic, cfg.mine_count, local)
            if step == kg.OVER:
                break
            if step == kg.AGENT:
                moves += 1
                if linalg_move(S, False, classic, ws, MODE_CHECK) == 0:
                    guess_in_order(F)
    return int(ws[W_META][H_FULL]), moves


def test_the_kept_system_decides():
    cfg = make_config("linalg", (20, 20), density=0.45, rules="keep-going", mine_count=True)
    full, moves = _count_full_reductions(cfg, 3, 4)
    assert full == 4 and moves > 200, (full, moves)  # one a game: its first linalg move
    cfg = make_config("linalg", (10, 10), density=0.3, rules="keep-going", mine_count=True,
                      noise=NOISE)
    full, moves = _count_full_reductions(cfg, 3, 4)
    assert full == moves > 20, (full, moves)

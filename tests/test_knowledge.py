"""Knowledge apart from truth: agents decide on what they observed, never on the board.

* blind replay: every agent replays each traced game with the truth plane zeroed and the
  environment answering from the recorded outcomes; its moves must be the same;
* the knowledge plane of a new game is "nothing known" whatever mines are placed;
* observe / observe_mine / flag (no environment) give the same knowledge as the
  environment's moves, and save_knowledge / restore_knowledge undo observations.
"""
import numpy as np
import pytest

from fastsweep import AGENTS
from fastsweep.agents import kernels_for
from fastsweep.options import agent_params, make_config
from fastsweep.kernels.engine import actions, env
from fastsweep.kernels.engine import game as kg
from fastsweep.kernels.engine import layout as kl

BOARDS = [((1, 1), 0), ((1, 7), 2), ((6, 1), 1), ((5, 7), 6), ((9, 9), 10), ((8, 12), 30),
          ((10, 10), 0), ((4, 4), 16)]


def _traced(cfg, seed, game):
    params, fparams = agent_params(cfg, seed)
    n = cfg.cells
    moves = np.zeros((n, 6), np.int32)
    out = np.zeros((1, kg.OUT_LEN), np.int64)
    kernels_for(cfg.agent).play_traced(params, fparams, np.zeros(0, np.uint8), game, moves,
                                       np.full(n, np.nan), np.zeros((3, n), np.int32), out)
    return moves[:int(out[0, kg.OUT_MOVES])]


@pytest.mark.parametrize("agent", list(AGENTS))
@pytest.mark.parametrize("rules", ["keep-going", "classic"])
@pytest.mark.parametrize("mine_count", [False, True])
def test_agents_decide_the_same_on_a_zeroed_board(agent, rules, mine_count):
    replayed = 0
    for (h, w), m in BOARDS:
        fc = "any" if m > h * w - 1 else None
        cfg = make_config(agent, (h, w), mines=m, rules=rules, mine_count=mine_count,
                          first_click=fc)
        params, fparams = agent_params(cfg, 11)
        blind = kernels_for(agent).play_blind
        for game in range(6):
            ref = _traced(cfg, 11, game)
            tape = np.zeros((cfg.cells, 6), np.int32)
            tape[:len(ref)] = ref
            k = blind(params, fparams, np.zeros(0, np.uint8), game, tape)
            assert k == len(ref), (h, w, m, game)
            assert np.array_equal(tape[:k], ref), (h, w, m, game)
            replayed += k
    assert replayed > 200


def test_blind_replay_notices_a_wrong_answer():
    # the harness can fail: answering one query differently changes the agent's moves
    cfg = make_config("basic", (9, 9), mines=10)
    params, fparams = agent_params(cfg, 3)
    ref = _traced(cfg, 3, 0)
    tape = np.zeros((81, 6), np.int32)
    tape[:len(ref)] = ref
    tape[0, 2] = 0 if ref[0, 2] != 0 else 1  # the opening move shows another clue
    k = kernels_for("basic").play_blind(params, fparams, np.zeros(0, np.uint8), 0, tape)
    assert k != len(ref) or not np.array_equal(tape[:k], ref)


@pytest.mark.parametrize("h,w", [(1, 1), (3, 5), (9, 9)])
def test_mines_do_not_enter_the_knowledge(h, w):
    rng = np.random.default_rng(h * 31 + w)
    blank = env.new_state(h, w)
    n = h * w
    for _ in range(5):
        S = env.new_state(h, w)
        for c in np.flatnonzero(rng.random(n) < 0.4):
            env.add_mine(S, c)
        assert all(env.word(S, c) == env.word(blank, c) for c in range(n))
        assert S[n, kl.C_KMINES] == -1  # not told


def _knowledge(S):
    n = env.ncells(S)
    return [env.word(S, c) & ~kl.NB_QUEUED for c in range(n)], [
        int(S[n, j]) for j in (kl.C_REV, kl.C_FLAG, kl.C_DET)]


@pytest.mark.parametrize("h,w", [(1, 6), (4, 5), (9, 9)])
def test_observations_equal_the_environment_moves_and_restore_undoes_them(h, w):
    rng = np.random.default_rng(h * 7 + w)
    n = h * w
    buf = np.zeros(kl.knowledge_ints(h, w), np.int32)
    for _ in range(10):
        mine = rng.random(n) < 0.3
        played = env.new_state(h, w)  # the environment answers from its board
        known = env.new_state(h, w)  # knowledge only: told what the board showed
        for c in np.flatnonzero(mine):
            env.add_mine(played, c)
        for c in rng.permutation(n)[: rng.integers(1, n + 1)]:
            if mine[c] and rng.random() < 0.6:
                actions.act(played, c, kl.A_FLAG, kl.R_RANDOM, -1, 0)
                actions.flag(known, c)
            else:
                out = actions.act(played, c, kl.A_GUESS, kl.R_RANDOM, -1, 0)
                if out < 0:
                    actions.observe_mine(known, c)
                else:
                    actions.observe(known, c, out)
            assert _knowledge(played) == _knowledge(known)
        before = _knowledge(known)
        assert actions.save_knowledge(known, buf) == buf.size
        for c in range(n):
            if env.status(known, c) == kl.HIDDEN:
                actions.observe(known, c, int(rng.integers(0, 9)))
        actions.restore_knowledge(known, buf)
        assert _knowledge(known) == before


def test_describe_state_shows_knowledge_and_truth_apart():
    from fastsweep.tools.debug import describe_state
    S = env.new_state(2, 3)
    env.add_mine(S, 5)
    actions.observe(S, 0, 0)
    text = describe_state(S).splitlines()
    assert text[0].startswith("2x3 board, 6 cells")
    assert "rev=1" in text[1] and "kmines=-1" in text[1]
    assert text[3].split()[0].startswith("0q+0/+3/")  # revealed 0, queued, 3 hidden nbrs
    assert text[-2:] == ["  0 1 1", "  0 1 *"]

"""fastsweep.gym: the Gymnasium environments (single and vector) pass Gymnasium's checker,
play fastsweep.run's games (episode k after reset(seed=s) is run's game k; env i of the
vector env plays games i, i + N, ...), keep their action masks right, refuse illegal
actions clearly, compute the documented rewards and render; the examples run."""
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

import fastsweep  # noqa: E402
import fastsweep.gym as fg  # noqa: E402
from fastsweep import Flag  # noqa: E402
from fastsweep.kernels.engine import game as kg  # noqa: E402
from fastsweep.options import kernel_params, make_config  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ID = fg.ENV_ID
RESULT_COLS = ["flagged", "detonated", "revealed", "guesses", "moves", "won", "score"]


def make(**kw):
    return gym.make(ID, **kw).unwrapped


def make_vec(n, **kw):
    return gym.make_vec(ID, num_envs=n, vectorization_mode="vector_entry_point", **kw)


def truth(game, seed=0, **kw):
    """The mines of game ``game`` (the tests' look at the truth: never the env's)."""
    cfg = make_config("basic", kw.pop("size"), **kw)
    params, _ = kernel_params(cfg, seed)
    order = np.zeros(cfg.cells, np.int32)
    mine = np.zeros(cfg.cells, np.uint8)
    lay = cfg.layout if cfg.layout is not None else np.zeros(0, np.uint8)
    first = kg.draw_game(params, lay, game, order, mine)
    return mine.astype(bool), int(first)


# ---------------------------------------------------------------- the policy both sides play
def choose(view, order, flags):
    """The next hidden cell of the guess order: revealed, or (flags, cell % 3 == 0)
    flagged. Returns (cell, flag)."""
    cell = next(int(c) for c in order if view.flat[c] == -1)
    return cell, flags and cell % 3 == 0


def env_action(obs, info, n, flags):
    cell, fl = choose(obs["view"], info["order"], flags)
    return n + cell if fl else cell


def agent_for(flags):
    def next_in_order(obs):
        cell, fl = choose(obs.view, obs.order, flags)
        r, c = divmod(cell, obs.view.shape[1])
        return Flag(r, c) if fl else (r, c)
    next_in_order.__name__ = next_in_order.name = f"gym_next_in_order_{int(flags)}"
    return next_in_order


def run_rows(games, seed, flags, **kw):
    df = fastsweep.run(agent_for(flags), kw.pop("size"), games=games, seed=seed, **kw)
    return [{k: df[k].iloc[i].item() for k in RESULT_COLS} for i in range(games)]


CONFIGS = [
    dict(size=(5, 6), mines=6),
    dict(size=(5, 6), mines=6, rules="classic"),
    dict(size=(4, 7), mines=5, rules="classic", first_click="any", first_cell="random"),
    dict(size=6, density=0.2, noise="reveal:p=0.3", mine_count=True),
]


# ---------------------------------------------------------------- registration, checker
def test_registered():
    spec = gym.spec(ID)
    assert spec.entry_point == "fastsweep.gym.env:MinesweeperEnv"
    assert spec.vector_entry_point == "fastsweep.gym.vector:MinesweeperVectorEnv"
    assert isinstance(gym.make(ID).unwrapped, fg.MinesweeperEnv)
    assert isinstance(make_vec(2).unwrapped, fg.MinesweeperVectorEnv)


@pytest.mark.parametrize("kw", [{}, *CONFIGS, dict(size=(3, 8), mines=4, flags=True),
                                dict(size=5, mines=3, rules="classic", flags=True,
                                     render_mode="rgb_array")])
def test_check_env(kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(make(**kw))
    assert not [str(w.message) for w in caught]


def test_options_are_run_s():
    env = make(size=(4, 5), mines=3, rules="classic")
    assert env.observation_space["view"].shape == (4, 5)
    assert env.action_space.n == 20
    assert make(size=(4, 5), mines=3, flags=True).action_space.n == 40
    assert make().game.cfg.mines == 10 and make().observation_space["view"].shape == (9, 9)
    with pytest.raises(ValueError, match="rules"):
        make(size=5, mines=3, rules="bogus")
    with pytest.raises(ValueError, match="mines, density"):
        make(size=5)
    with pytest.raises(ValueError, match="first_click"):
        make(size=5, mines=3, first_click="sometimes")
    with pytest.raises(ValueError, match="rewards"):
        make(size=5, mines=3, rewards={"bonus": 1})
    with pytest.raises(ValueError, match="render_mode"):
        fg.MinesweeperEnv(size=5, mines=3, render_mode="human")
    # the env's kernel parameters are those fastsweep.run gives a user's agent
    mine = kernel_params(make_config(agent_for(False), (5, 6), mines=6, noise="reveal:p=0.3"), 9)[0]
    ours = make(size=(5, 6), mines=6, noise="reveal:p=0.3").game.params(9)
    keep = np.arange(kg.P_LEN) != kg.P_VARIANT
    assert np.array_equal(mine[keep], ours[keep])


# ---------------------------------------------------------------- reset and step
def test_reset_semantics():
    env = make(size=(5, 6), mines=6)
    obs, info = env.reset(seed=5)
    assert info["game"] == 0 and info["move"] == 1
    assert sorted(info["order"].tolist()) == list(range(30))
    assert set(obs) == {"view", "action_mask"} and set(info) == {"game", "move", "order"}
    assert (obs["view"] != -1).sum() == 1  # the opening, made by the environment
    first = obs["view"].copy()
    assert [env.reset()[1]["game"] for _ in range(3)] == [1, 2, 3]
    assert env.reset(options={"game": 17})[1]["game"] == 17
    assert env.reset()[1]["game"] == 18
    obs, info = env.reset(seed=5)
    assert info["game"] == 0 and np.array_equal(obs["view"], first)
    kept = env._view.copy()
    obs["view"][:] = 7  # observations are copies
    obs["action_mask"][:] = 0
    assert np.array_equal(env._view, kept) and env._mask.any() and env.render() is None
    with pytest.raises(ValueError, match="option"):
        env.reset(options={"games": 2})
    with pytest.raises(ValueError, match="seed"):
        env.reset(seed=2**64)


def test_step_semantics_and_end():
    env = make(size=(5, 6), mines=6, rules="classic")
    with pytest.raises(ValueError, match="reset"):
        env.step(0)
    obs, info = env.reset(seed=2)
    done, moves = False, 1
    while not done:
        obs, r, done, trunc, info = env.step(env_action(obs, info, 30, False))
        moves += 1
        assert trunc is False and info["move"] == moves
    assert {"won", "score", "revealed"} <= set(info)
    assert obs["action_mask"].all()  # over: nothing left to mask (no all-zero row)
    with pytest.raises(ValueError, match="reset"):
        env.step(int(np.flatnonzero(obs["view"].ravel() == -1)[0]))


def test_mines_told():
    env = make(size=5, mines=4, mine_count=True)
    assert env.reset(seed=0)[1]["mines"] == 4
    assert "mines" not in make(size=5, mines=4).reset(seed=0)[1]


# ---------------------------------------------------------------- pairing with fastsweep.run
@pytest.mark.parametrize("flags", [False, True])
@pytest.mark.parametrize("kw", CONFIGS)
def test_single_env_plays_run_s_games(kw, flags):
    games, seed = 6, 11
    env = make(flags=flags, **kw)
    n = env.game.n
    got = []
    obs, info = env.reset(seed=seed)
    for k in range(games):
        assert info["game"] == k
        done = False
        while not done:
            if obs["action_mask"].all():  # over at its opening: the no-op step
                a = 0
            else:
                a = env_action(obs, info, n, flags)
            obs, r, done, _, info = env.step(a)
        got.append({c: info[c] for c in RESULT_COLS})
        obs, info = env.reset()
    assert got == run_rows(games, seed, flags, **kw)


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
@pytest.mark.parametrize("flags", [False, True])
def test_vector_env_i_plays_game_i(mode, flags):
    N, seed, per_env = 3, 4, 3
    kw = dict(size=(5, 6), mines=6, rules="classic")
    envs = make_vec(N, flags=flags, autoreset_mode=mode, **kw)
    obs, info = envs.reset(seed=seed)
    assert info["game"].tolist() == [0, 1, 2]
    orders = envs.unwrapped.guess_orders()
    done = {}
    for _ in range(500):
        actions = np.zeros(N, np.int64)
        for i in range(N):
            if not obs["action_mask"][i].all():  # (a game in play)
                actions[i] = env_action({"view": obs["view"][i]}, {"order": orders[i]}, 30,
                                        flags)
        obs, r, term, trunc, info = envs.step(actions)
        assert not trunc.any()
        if term.any():
            fi = info["final_info"]
            assert (fi["_game"] == term).all()
            for i in np.flatnonzero(term):
                done[int(fi["game"][i])] = {c: fi[c][i].item() for c in RESULT_COLS}
                assert int(fi["game"][i]) % N == i
        orders = envs.unwrapped.guess_orders()
        if all(g in done for g in range(N * per_env)):
            break
    want = run_rows(N * per_env, seed, flags, **kw)
    for g in range(N * per_env):
        assert done[g] == want[g], g


def test_vector_autoreset_modes():
    kw = dict(size=(4, 5), mines=5, rules="classic")
    for mode in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
        envs = make_vec(2, autoreset_mode=mode, **kw)
        assert envs.metadata["autoreset_mode"] == mode
        obs, info = envs.reset(seed=1)
        for _ in range(100):
            before = info["game"].copy()
            obs, r, term, _, info = envs.step(envs.action_space.sample())
            if term[0]:
                break
        assert term[0]
        if mode == AutoresetMode.SAME_STEP:  # the next game is in play already
            assert info["game"][0] == before[0] + 2
            assert (obs["view"][0] != -1).sum() == 1
            fo = info["final_obs"][0]
            assert info["_final_obs"][0] and fo["action_mask"].all()
            assert (fo["view"] != -1).sum() == info["final_info"]["moves"][0]
        else:  # the terminal observation; the next step starts the next game
            assert info["game"][0] == before[0] and obs["action_mask"][0].all()
            obs, r, term, _, info = envs.step(envs.action_space.sample())
            assert info["game"][0] == before[0] + 2 and r[0] == 0 and not term[0]
            assert (obs["view"][0] != -1).sum() == 1
    envs = make_vec(3, **kw)
    envs.reset(seed=1, options={"game": 10})
    assert envs.reset()[1]["game"].tolist() == [13, 14, 15]  # each env's next game
    with pytest.raises(ValueError, match="autoreset_mode"):
        make_vec(2, autoreset_mode=AutoresetMode.DISABLED, **kw)
    with pytest.raises(ValueError, match="num_envs"):
        fg.MinesweeperVectorEnv(0, **kw)


def test_game_over_at_its_opening():
    kw = dict(size=(4, 5), mines=8, rules="classic", first_click="any", first_cell="random")
    game = next(g for g in range(200) for mine, first in [truth(g, 3, **kw)] if mine[first])
    env = make(**kw)
    obs, info = env.reset(seed=3, options={"game": game})
    assert obs["action_mask"].all() and (obs["view"] == -3).sum() == 1  # any action: a no-op
    obs, r, term, _, info = env.step(0)
    assert term and r == 0.0 and info["detonated"] == 1 and info["moves"] == 1
    row = fastsweep.run(agent_for(False), (4, 5), mines=8, rules="classic",
                        first_click="any", first_cell="random", games=game + 1, seed=3)
    assert row.detonated.iloc[game] == 1 and row.moves.iloc[game] == 1


# ---------------------------------------------------------------- masks, illegal actions
def test_action_masks():
    rng = np.random.default_rng(0)
    env = make(size=(5, 6), mines=6, flags=True)
    obs, info = env.reset(seed=0)
    for _ in range(40):
        hidden = (obs["view"].ravel() == -1).astype(np.int8)
        if not obs["action_mask"].all():  # (a game in play: its opening is revealed)
            assert np.array_equal(obs["action_mask"], np.concatenate([hidden, hidden]))
            a = env.action_space.sample()  # a legal action
            assert obs["action_mask"][a] == 1
            obs, r, term, _, info = env.step(a)
        else:
            obs, info = env.reset()
    envs = make_vec(4, size=(5, 6), mines=6, rules="classic")
    obs, _ = envs.reset(seed=0)
    for _ in range(30):
        hidden = (obs["view"].reshape(4, -1) == -1).astype(np.int8)
        playing = ~obs["action_mask"].all(axis=1)
        assert np.array_equal(obs["action_mask"][playing], hidden[playing])
        obs, *_ = envs.step(fg.random_actions(obs["action_mask"], rng))


def test_illegal_actions():
    env = make(size=(4, 5), mines=3, rules="classic", flags=True)
    obs, info = env.reset(seed=0)
    opened = int(np.flatnonzero(obs["view"].ravel() != -1)[0])
    for a, what in ((opened, "not hidden"), (20 + opened, "not hidden"),
                    (-1, "out of range"), (40, "out of range")):
        with pytest.raises(ValueError, match=f"action {a} .*{what}.*actions are 0..19"):
            env.step(a)
    with pytest.raises(ValueError, match="not one integer"):
        env.step(1.5)
    obs2, *_ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))  # nothing was played
    assert (obs2["view"] != -1).sum() == 2
    envs = make_vec(3, size=(4, 5), mines=3, rules="classic")
    obs, _ = envs.reset(seed=0)
    a = fg.random_actions(obs["action_mask"], np.random.default_rng(0))
    a[1] = int(np.flatnonzero(obs["view"][1].ravel() != -1)[0])
    views = envs.unwrapped._views.copy()
    with pytest.raises(ValueError, match="env 1 .*game 1.*not hidden.*nothing was played"):
        envs.step(a)
    assert np.array_equal(envs.unwrapped._views, views)
    a[1] = 99
    with pytest.raises(ValueError, match="env 1 .*out of range"):
        envs.step(a)
    with pytest.raises(ValueError, match="3 integers"):
        envs.step(a[:2])


# ---------------------------------------------------------------- rewards
def test_rewards():
    kw = dict(size=(5, 6), mines=6)
    mine, first = truth(0, 8, **kw)
    rw = {"reveal": 0.5, "mine": -3.0, "flag": 2.0, "wrong_flag": -2.0, "win": 10.0}
    env = make(flags=True, rewards=rw, **kw)
    obs, info = env.reset(seed=8)
    safe = [c for c in range(30) if not mine[c] and c != first]
    mines = list(np.flatnonzero(mine))
    assert env.step(safe[0])[1] == 0.5
    assert env.step(mines[0])[1] == -3.0
    assert env.step(30 + mines[1])[1] == 2.0
    assert env.step(30 + safe[1])[1] == -2.0
    # the default rewards; a win's bonus on its last move
    mine, first = truth(0, 8, rules="classic", **kw)
    safe = [c for c in range(30) if not mine[c] and c != first]
    env = make(rules="classic", rewards={"win": 10.0}, **kw)
    env.reset(seed=8)
    rewards = [env.step(c)[1] for c in safe]
    assert rewards == [1.0] * (len(safe) - 1) + [11.0]
    assert fg.REWARDS == {"reveal": 1.0, "mine": -1.0, "flag": 0.0, "wrong_flag": 0.0,
                          "win": 0.0, "illegal": -1.0}


def test_vector_rewards_match_single_env():
    kw = dict(size=(5, 6), mines=6, flags=True, rewards={"flag": 1.0, "wrong_flag": -1.0})
    envs = make_vec(2, **kw)
    single = [make(**kw), make(**kw)]
    obs, _ = envs.reset(seed=3)
    for i in range(2):
        so = single[i].reset(seed=3, options={"game": i})[0]
        assert np.array_equal(so["view"], obs["view"][i])
    rng = np.random.default_rng(1)
    for _ in range(25):
        a = fg.random_actions(obs["action_mask"], rng)
        obs, r, term, _, info = envs.step(a)
        for i in range(2):  # (next-step auto-reset: a terminal observation is the final one)
            so, sr, st, *_ = single[i].step(int(a[i]))
            assert sr == r[i] and st == term[i] and np.array_equal(so["view"], obs["view"][i])
        if term.any():
            break


# ---------------------------------------------------------------- spaces, render, examples
def test_random_actions_uniform_and_legal():
    rng = np.random.default_rng(0)
    m = np.zeros((3, 50), np.int8)
    m[0, [3, 7, 11]] = 1
    m[1, :] = 1
    counts = np.zeros(50)
    for _ in range(3000):
        a = fg.random_actions(m, rng)
        assert m[0, a[0]] == 1 and a[2] == 0
        counts[a[0]] += 1
    assert counts[[3, 7, 11]].min() > 900


def test_render_modes():
    env = make(size=(3, 4), mines=2, rules="classic", render_mode="ansi")
    obs, _ = env.reset(seed=0)
    text = env.render()
    lines = text.strip().splitlines()
    assert lines[0] == "game 0, move 1" and len(lines) == 4
    assert sum(ch != "?" for line in lines[1:] for ch in line.split()) == 1
    env = make(size=(3, 4), mines=2, rules="classic", render_mode="rgb_array")
    env.reset(seed=0)
    img = env.render()
    assert img.shape == (48, 64, 3) and img.dtype == np.uint8
    envs = make_vec(2, size=(3, 4), mines=2, render_mode="ansi")
    envs.reset(seed=0)
    frames = envs.render()
    assert len(frames) == 2 and frames[1].startswith("env 1, game 1")


@pytest.mark.parametrize("script,expect", [("gym_loop.py", "identical"),
                                           ("vector_loop.py", "env 0 played games [0, 256")])
def test_examples(script, expect):
    env = dict(os.environ, FASTSWEEP_NO_VENV="1", PYTHONPATH=os.pathsep.join(
        [ROOT] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    r = subprocess.run([sys.executable, os.path.join("examples", script)], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    assert expect in r.stdout
    if script == "vector_loop.py":  # the compile (or cache load) is timed apart, first
        lines = r.stdout.splitlines()
        assert lines[0].startswith("warm-up (compile or cache load, not timed below): ")
        assert " steps in " in lines[1]

"""fastsweep.gym as RL users know it (issue 57, part 3): a revealed 0 opens its neighbours
(``open_zeros``), illegal actions penalised instead of raised (``illegal_action``), the
standard levels' ids, ``action_masks()`` and masks never all zeros, episodes cut by
``max_episode_steps``, the vector env's memory checked before it allocates; the single
and the vector env agree on each. (tests/test_gym.py holds the rest of the env's tests.)"""
import time
import warnings

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

import fastsweep.gym as fg  # noqa: E402
from fastsweep.gym import vector as fv  # noqa: E402
from fastsweep.kernels.engine import game as kg  # noqa: E402
from fastsweep.options import kernel_params, make_config  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402

ID = fg.ENV_ID
MODES = [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP]


def make(id=ID, **kw):
    return gym.make(id, **kw).unwrapped


def make_vec(n, id=ID, **kw):
    return gym.make_vec(id, num_envs=n, vectorization_mode="vector_entry_point", **kw)


def truth(game, seed=0, **kw):
    """The mines (bool (H * W,)) and the opening cell of game ``game`` (the tests' look at
    the truth, never the env's)."""
    cfg = make_config("basic", kw.pop("size"), **kw)
    params, _ = kernel_params(cfg, seed)
    order = np.zeros(cfg.cells, np.int32)
    mine = np.zeros(cfg.cells, np.uint8)
    lay = cfg.layout if cfg.layout is not None else np.zeros(0, np.uint8)
    first = kg.draw_game(params, lay, game, order, mine)
    return mine.astype(bool), int(first)


def neighbours(c, h, w):
    r, k = divmod(c, w)
    return [rr * w + kk for rr in range(max(r - 1, 0), min(r + 2, h))
            for kk in range(max(k - 1, 0), min(k + 2, w)) if (rr, kk) != (r, k)]


def clues(mine, h, w):
    return np.array([sum(mine[q] for q in neighbours(c, h, w)) for c in range(h * w)])


def flood(start, mine, h, w, closed):
    """The naive oracle: the cells revealing ``start`` opens in the classic game (a 0
    opens every neighbour, recursively), ``closed`` (revealed or flagged cells) left as
    they are."""
    clue = clues(mine, h, w)
    opened, todo = {start}, [start]
    while todo:
        c = todo.pop()
        if mine[c] or clue[c] != 0:
            continue
        for q in neighbours(c, h, w):
            if q not in opened and q not in closed:
                opened.add(q)
                todo.append(q)
    return opened


def uniform(rng, n):
    """Actions drawn over the whole space (a learner without masks)."""
    return int(rng.integers(n))


# ---------------------------------------------------------------- open_zeros
KW = dict(size=(8, 9), mines=8)


def test_a_revealed_zero_opens_its_neighbours_as_the_oracle_says():
    h, w = KW["size"]
    checked = 0
    for game in range(6):
        mine, first = truth(game, 5, rules="classic", **KW)
        env = make(rules="classic", open_zeros=True, flags=True, **KW)
        obs, info = env.reset(seed=5, options={"game": game})
        view = obs["view"].ravel()
        assert set(np.flatnonzero(view != -1)) == flood(first, mine, h, w, set())
        assert info["move"] == (view != -1).sum()  # the opening and each cell it opened
        flagged = set()
        if game % 2 and (view == -1).any():  # a wrong flag on a safe cell: a 0 leaves it be
            c = next(int(c) for c in np.flatnonzero(view == -1) if not mine[c])
            obs, r, term, _, info = env.step(h * w + c)
            flagged.add(c)
        clue = clues(mine, h, w)
        for c in np.flatnonzero(~mine):
            view = obs["view"].ravel()
            if view[c] != -1 or c in flagged:
                continue
            closed = set(np.flatnonzero(view != -1)) | flagged
            want = flood(int(c), mine, h, w, closed)
            moves = info["move"]
            obs, r, term, trunc, info = env.step(int(c))
            now = set(np.flatnonzero(obs["view"].ravel() >= 0))  # (a won game's flags aside)
            assert now - closed == want and r == len(want)  # +1 a cell revealed
            assert info["move"] == moves + len(want)
            assert all(obs["view"].ravel()[q] == clue[q] for q in want)
            checked += len(want) > 1
            if term:
                assert info["won"] and info["detonated"] == 0 and info["guesses"] <= moves
                assert info["revealed"] == (~mine).sum()
                break
        assert term == (not flagged)  # every safe cell revealed: the game is won
    assert checked >= 3  # zeros opened by steps, not only by openings


def test_open_zeros_the_classic_game_won_with_fewer_steps_and_its_win_bonus():
    mine, first = truth(2, 1, rules="classic", **KW)
    env = make(rules="classic", open_zeros=True, rewards={"win": 10.0}, **KW)
    obs, info = env.reset(seed=1, options={"game": 2})
    opened, total, steps = int((obs["view"] != -1).sum()), 0.0, 0
    for c in np.flatnonzero(~mine):
        if obs["view"].ravel()[c] == -1:
            obs, r, term, _, info = env.step(int(c))
            total, steps = total + r, steps + 1
    assert term and info["won"]
    assert total == (~mine).sum() - opened + 10.0  # +1 a safe cell, + the win
    assert steps < (~mine).sum() - 1
    # the same board as without open_zeros: game k of fastsweep.run, the same opening
    plain = make(rules="classic", **KW).reset(seed=1, options={"game": 2})[0]["view"]
    assert obs["view"].ravel()[first] == plain.ravel()[first] and mine.sum() == 8


def test_open_zeros_refused_or_allowed_by_the_sensor():
    with pytest.raises(ValueError, match="^open_zeros: expected True or False, got 'yes'$"):
        make(open_zeros="yes", **KW)
    for noise in ("detector:p_neg=0.1,p_pos=0", "optimistic", "cautious:p=0.5"):
        with pytest.raises(ValueError, match="^open_zeros: needs exact clues .* a 0 shown"):
            make(open_zeros=True, noise=noise, **KW)
        with pytest.raises(ValueError, match="^open_zeros: needs exact clues"):
            fg.MinesweeperVectorEnv(2, open_zeros=True, noise=noise, **KW)
    # a clue shown true or not at all, or a model at 0: a 0 shown is a true 0
    for noise in ("reveal:p=0.5", "detector:p_neg=0,p_pos=0"):
        h, w = KW["size"]
        env = make(open_zeros=True, noise=noise, rules="classic", **KW)
        rng = np.random.default_rng(0)
        for game in range(8):
            mine, _ = truth(game, 3, noise=noise, rules="classic", **KW)
            obs, info = env.reset(seed=3, options={"game": game})
            term = False
            while not term:
                view = obs["view"].ravel()
                for c in np.flatnonzero(view == 0):  # no 0 left with a hidden neighbour
                    assert all(view[q] != -1 for q in neighbours(c, h, w))
                safe = [c for c in np.flatnonzero(view == -1) if not mine[c]]
                if not safe:
                    break
                obs, r, term, _, info = env.step(int(rng.choice(safe)))
                assert r > 0  # never a detonation: no move but the chosen cell's
            assert not term or info["detonated"] == 0


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("illegal", ["ignore", "end"])
def test_single_and_vector_envs_agree(mode, illegal):
    """Every option at once (open_zeros, flags, illegal actions, the rewards): env i of
    the vector env and a single env on game i see the same observations and rewards."""
    kw = dict(size=(6, 7), mines=6, rules="classic", open_zeros=True, flags=True,
              illegal_action=illegal, rewards={"flag": 1.0, "wrong_flag": -1.0,
                                               "illegal": -5.0})
    N, A = 3, 84
    envs = make_vec(N, autoreset_mode=mode, **kw)
    single = [make(**kw) for _ in range(N)]
    obs, info = envs.reset(seed=4)
    games = [i for i in range(N)]
    for i in range(N):
        so = single[i].reset(seed=4, options={"game": i})[0]
        assert np.array_equal(so["view"], obs["view"][i])
    rng = np.random.default_rng(2)
    ended = illegal_seen = 0
    restart = [False] * N
    for _ in range(150):
        a = np.array([uniform(rng, A) if rng.random() < 0.3 else
                      int(rng.choice(np.flatnonzero(obs["action_mask"][i])))
                      for i in range(N)])
        obs, r, term, trunc, info = envs.step(a)
        for i in range(N):
            if restart[i]:  # next-step auto-reset: this step starts env i's next game
                games[i] += N
                so, _ = single[i].reset(options={"game": games[i]})
                assert r[i] == 0 and not term[i] and info["game"][i] == games[i]
                restart[i] = False
            else:
                so, sr, st, _, sinfo = single[i].step(int(a[i]))
                assert sr == r[i] and st == term[i] and not trunc[i]
                assert bool(sinfo.get("illegal")) == bool(info.get("illegal", [0] * N)[i])
                illegal_seen += bool(sinfo.get("illegal"))
                if st:
                    ended += 1
                    fi = info["final_info"]
                    assert fi["game"][i] == games[i]
                    assert {k: fi[k][i].item() for k in ("won", "revealed", "moves")} == \
                        {k: sinfo[k] for k in ("won", "revealed", "moves")}
                    if mode == AutoresetMode.SAME_STEP:
                        assert np.array_equal(info["final_obs"][i]["view"], so["view"])
                        games[i] += N
                        so, _ = single[i].reset(options={"game": games[i]})
                    else:
                        restart[i] = True
            assert np.array_equal(so["view"], obs["view"][i])
            assert np.array_equal(so["action_mask"], obs["action_mask"][i])
    assert ended >= 5 and illegal_seen >= 10


# ---------------------------------------------------------------- illegal_action
def test_illegal_action_ignore_end_and_raise():
    kw = dict(size=(4, 5), mines=3, rules="classic", flags=True)
    for illegal in ("ignore", "end"):
        env = make(illegal_action=illegal, **kw)
        obs, info = env.reset(seed=0)
        opened = int(np.flatnonzero(obs["view"].ravel() != -1)[0])
        for a in (-1, 40):  # out of the action space: always refused
            with pytest.raises(ValueError, match=f"action {a} .*out of range"):
                env.step(a)
        obs2, r, term, trunc, info2 = env.step(20 + opened)  # flag a revealed cell
        assert r == -1.0 and info2["illegal"] is True and not trunc
        if illegal == "ignore":  # nothing played
            assert not term and info2["move"] == info["move"]
            assert np.array_equal(obs2["view"], obs["view"])
            assert np.array_equal(obs2["action_mask"], obs["action_mask"])
            obs3, r, term, _, info3 = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
            assert "illegal" not in info3 and info3["move"] == info["move"] + 1
        else:  # the episode ends, not won, with its results
            assert term and info2["won"] is False and info2["moves"] == 1
            assert obs2["action_mask"].all() and env.action_masks().all()
            with pytest.raises(ValueError, match="call reset"):
                env.step(0)
    env = make(**kw)  # the default: raise, and say what else there is
    obs, _ = env.reset(seed=0)
    opened = int(np.flatnonzero(obs["view"].ravel() != -1)[0])
    with pytest.raises(ValueError, match="not hidden.*illegal_action='ignore' or 'end'"):
        env.step(opened)
    for bad in ("skip", None, 1):
        with pytest.raises(ValueError, match="^illegal_action: expected 'raise', 'ignore' "
                                             "or 'end', got"):
            make(illegal_action=bad, **kw)
        with pytest.raises(ValueError, match="^illegal_action: expected"):
            fg.MinesweeperVectorEnv(2, illegal_action=bad, **kw)


def test_vector_illegal_actions():
    kw = dict(size=(4, 5), mines=3, rules="classic")
    envs = make_vec(3, illegal_action="end", **kw)
    obs, _ = envs.reset(seed=0)
    a = fg.random_actions(obs["action_mask"], np.random.default_rng(0))
    a[1] = int(np.flatnonzero(obs["view"][1].ravel() != -1)[0])
    obs, r, term, trunc, info = envs.step(a)
    assert info["illegal"].tolist() == [False, True, False] and info["_illegal"][1]
    assert term[1] and r[1] == -1.0 and not trunc.any()
    assert info["_final_info"][1] and not info["final_info"]["won"][1]
    assert obs["action_mask"][1].all()  # next-step auto-reset: any action, ignored
    obs, r, term, _, info = envs.step(np.zeros(3, np.int64))
    assert info["game"][1] == 4 and r[1] == 0 and not term[1]
    a[1] = 20  # out of range: refused whatever the mode, nothing played
    views = envs.unwrapped._views.copy()
    with pytest.raises(ValueError, match="env 1 .*out of range.*nothing was played"):
        envs.step(a)
    assert np.array_equal(envs.unwrapped._views, views)
    envs = make_vec(3, illegal_action="ignore", **kw)
    obs, _ = envs.reset(seed=0)
    a = fg.random_actions(obs["action_mask"], np.random.default_rng(0))
    a[2] = int(np.flatnonzero(obs["view"][2].ravel() != -1)[0])
    moves = envs.unwrapped._infos[:, 0].copy()
    obs2, r, term, _, info = envs.step(a)
    assert info["illegal"].tolist() == [False, False, True] and r[2] == -1.0 and not term[2]
    assert np.array_equal(obs2["view"][2], obs["view"][2])
    assert envs.unwrapped._infos[2, 0] == moves[2]


def test_a_learner_writing_its_mask_buffer_cannot_replay_a_taken_cell():
    """With copy=False the learner holds the env's own mask buffer: ones written into it
    do not make a revealed cell legal again (no reveal reward, nothing played): legality
    is judged on the engine's state."""
    for mode in ("raise", "ignore"):
        envs = make_vec(2, illegal_action=mode, copy=False, size=(4, 5), mines=3,
                        rules="classic")
        obs, _ = envs.reset(seed=0)
        taken = int(np.flatnonzero(obs["view"][0].ravel() != -1)[0])
        obs["action_mask"][:] = 1  # the env's own buffer
        a = np.array([taken, int(np.flatnonzero(obs["view"][1].ravel() == -1)[0])])
        moves = envs.unwrapped._infos[:, 0].copy()
        if mode == "raise":
            with pytest.raises(ValueError, match="env 0"):
                envs.step(a)
            continue
        _, r, _, _, info = envs.step(a)
        assert info["illegal"][0] and r[0] == -1.0, (info, r)
        assert envs.unwrapped._infos[0, 0] == moves[0]
    env = fg.MinesweeperEnv(size=(4, 5), mines=3, rules="classic", illegal_action="ignore")
    obs, _ = env.reset(seed=0)
    taken = int(np.flatnonzero(obs["view"].ravel() != -1)[0])
    env._mask[:] = 1  # (the single env copies its mask out; its own buffer, written)
    _, r, _, _, info = env.step(taken)
    assert info.get("illegal") and r == -1.0


# ---------------------------------------------------------------- level ids
@pytest.mark.parametrize("id,kw", [(i, {}) for i in fg.LEVELS] + [
    (ID, dict(size=(5, 6), mines=4, open_zeros=True, flags=True, illegal_action="ignore")),
    (ID, dict(size=(5, 6), mines=9, rules="classic", first_click="any", open_zeros=True,
              illegal_action="end", noise="reveal:p=0.5"))])
def test_gymnasium_s_checker_passes(id, kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(make(id, **kw))
    assert not [str(w.message) for w in caught]


def test_the_standard_levels_are_registered_as_the_classic_game():
    for id, (size, mines) in fg.LEVELS.items():
        env = make(id)
        assert (env.game.h, env.game.w, env.game.cfg.mines) == (*size, mines)
        assert env.game.classic and env.game.open_zeros and env.game.illegal_action == "end"
        assert env.game.cfg.first_click == "safe"  # the classic game's defaults
        # the same games as fastsweep.run's classic ones (the id's kernel parameters)
        ref = make_config("basic", size, mines=mines, rules="classic")
        assert np.array_equal(env.game.params(3), kernel_params(ref, 3)[0])
        envs = make_vec(2, id)
        assert envs.unwrapped.game.cfg == env.game.cfg and envs.unwrapped.game.open_zeros
    assert list(fg.LEVELS) == ["fastsweep/Minesweeper-Beginner-v0",
                               "fastsweep/Minesweeper-Intermediate-v0",
                               "fastsweep/Minesweeper-Expert-v0"]
    assert fg.LEVELS["fastsweep/Minesweeper-Expert-v0"] == ((16, 30), 99)
    assert fg.LEVELS["fastsweep/Minesweeper-Intermediate-v0"] == ((16, 16), 40)
    env = make("fastsweep/Minesweeper-Beginner-v0", flags=True, open_zeros=False)
    assert env.action_space.n == 162 and not env.game.open_zeros  # arguments override
    base = make(ID)  # fastsweep.run's defaults
    assert (base.game.open_zeros, base.game.cfg.rules, base.game.illegal_action) == \
        (False, "keep-going", "raise")
    assert fg.LEVEL_OPTIONS == {"rules": "classic", "open_zeros": True, "illegal_action": "end"}


# ---------------------------------------------------------------- masks
def test_action_masks_and_no_mask_row_is_all_zeros():
    """A policy masking its logits with -inf never gets NaN: not at the next-step reset
    step, not in a game over at its opening (classic, first_click="any")."""
    kw = dict(size=(4, 5), mines=7, rules="classic", first_click="any", first_cell="random")
    rng = np.random.default_rng(0)

    def masked_softmax(mask):
        logits = np.where(mask, rng.normal(size=mask.shape), -np.inf)
        with np.errstate(invalid="ignore"):
            e = np.exp(logits - logits.max(axis=-1, keepdims=True))
            return e / e.sum(axis=-1, keepdims=True)

    for vec in (make_vec(6, **kw),  # ours, next-step auto-reset
                gym.make_vec(ID, num_envs=3, vectorization_mode="sync", **kw)):
        obs, info = vec.reset(seed=1)
        over = ends = 0
        for _ in range(150):
            masks = (vec.unwrapped.action_masks() if hasattr(vec.unwrapped, "action_masks")
                     else np.stack(vec.unwrapped.call("action_masks")))  # (sb3-contrib's way)
            assert masks.dtype == bool and np.array_equal(masks, obs["action_mask"] == 1)
            over += int(masks.all(axis=1).sum())  # reset steps and games over at the opening
            p = masked_softmax(masks)
            assert not np.isnan(p).any()
            a = np.array([rng.choice(p.shape[1], p=row) for row in p])
            obs, r, term, trunc, info = vec.step(a)
            ends += int(term.sum())
        assert ends >= 20 and over >= ends
    env = make(size=(4, 5), mines=3)
    obs, _ = env.reset(seed=1)
    assert np.array_equal(env.action_masks(), obs["action_mask"] == 1)
    assert env.action_masks().dtype == bool and not env.action_masks().all()


def test_a_game_over_at_its_opening_has_a_mask_of_ones_in_both_envs():
    kw = dict(size=(4, 5), mines=8, rules="classic", first_click="any", first_cell="random")
    game = next(g for g in range(200) for mine, first in [truth(g, 3, **kw)] if mine[first])
    env = make(**kw)
    obs, _ = env.reset(seed=3, options={"game": game})
    assert obs["action_mask"].all() and env.action_masks().all()
    envs = make_vec(2, **kw)
    obs, info = envs.reset(seed=3, options={"game": game})
    assert obs["action_mask"][0].all() and not obs["action_mask"][1].all()
    obs, r, term, _, info = envs.step(np.array([5, int(obs["action_mask"][1].argmax())]))
    assert term[0] and r[0] == 0.0 and info["final_info"]["detonated"][0] == 1


# ---------------------------------------------------------------- max_episode_steps
@pytest.mark.parametrize("mode", MODES)
def test_max_episode_steps_truncates_in_both_envs(mode):
    kw = dict(size=(5, 6), mines=4, rules="classic", illegal_action="ignore")
    envs = make_vec(2, autoreset_mode=mode, max_episode_steps=3, **kw)
    single = gym.make(ID, max_episode_steps=3, **kw)  # Gymnasium's TimeLimit
    obs, _ = envs.reset(seed=0)
    so, _ = single.reset(seed=0)
    stuck = np.array([int(np.flatnonzero(obs["view"][i].ravel() != -1)[0]) for i in range(2)])
    for k in range(3):  # an illegal action, ignored, three times
        obs, r, term, trunc, info = envs.step(stuck)
        so, sr, st, strunc, _ = single.step(int(stuck[0]))
        assert r.tolist() == [-1.0, -1.0] and not term.any()
        assert trunc.tolist() == [k == 2] * 2 and strunc == (k == 2) and sr == r[0]
    assert info["_final_info"].all() and not info["final_info"]["won"].any()
    assert info["final_info"]["game"].tolist() == [0, 1]
    if mode == AutoresetMode.NEXT_STEP:  # the reset step
        obs, r, term, trunc, info = envs.step(stuck)
        assert not trunc.any() and r.tolist() == [0, 0]
    assert info["game"].tolist() == [2, 3]  # the next games, their step counts from 0
    obs, r, term, trunc, info = envs.step(stuck)
    assert not trunc.any() and r.tolist() == [-1.0, -1.0]
    envs = gym.make_vec("fastsweep/Minesweeper-Beginner-v0", num_envs=2,
                        max_episode_steps=5)  # as make_vec passes it from a spec
    assert envs.unwrapped._settings[fv.kgs.M_MAX_STEPS] == 5
    for bad in (0, -2, 1.5, True):
        with pytest.raises(ValueError, match="^max_episode_steps: expected None or a "
                                             "positive integer"):
            fg.MinesweeperVectorEnv(2, max_episode_steps=bad, **kw)


# ---------------------------------------------------------------- memory
def test_the_vector_env_checks_its_memory_before_allocating(monkeypatch):
    t0 = time.perf_counter()
    avail = fv.available_memory()
    assert avail is None or avail > 0
    if avail is not None and avail < 50 * 2**30:  # the case, on this machine
        with pytest.raises(ValueError, match=r"^num_envs: 1,048,576 envs of 30x30 need "
                                             r"[\d.]+ GiB, and .* at most [\d,]+ envs"):
            fg.MinesweeperVectorEnv(2**20, 30, density=0.2)
    assert time.perf_counter() - t0 < 10  # (it spent 51 s allocating before)
    monkeypatch.setattr(fv, "available_memory", lambda: 10 * 2**20)  # 10 MiB
    with pytest.raises(ValueError, match=r"^num_envs: 1,000 envs of 16x30 need .* at most "
                                         r"(\d+) envs of this size fit$") as e:
        make_vec(1000, "fastsweep/Minesweeper-Expert-v0")
    fit = int(e.value.args[0].split("at most ")[1].split(" ")[0])
    assert 10 < fit < 1000
    assert make_vec(fit, "fastsweep/Minesweeper-Expert-v0").unwrapped.num_envs == fit
    monkeypatch.setattr(fv, "available_memory", lambda: None)  # not known: not checked
    assert make_vec(2).unwrapped.num_envs == 2


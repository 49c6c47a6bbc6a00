"""Hostile arguments, round three (issue 46): every bad value is refused before any work
with one error naming the argument and what is allowed. Python: the exception type and
a message that starts with the argument's name; command line: exit status 2 and one line
on stderr, ``fastsweep <command>: error: <flag>: ...``, never a traceback.

(tests/test_faults.py holds the earlier rounds' table, next to the sweep folders' faults.)
"""
import numpy as np
import pytest

import fastsweep
from fastsweep.advisor.manual import ManualGame, advise, guess_order
from fastsweep.studies.positions import random_view
from fastsweep.studies.search_layouts import local_search

from cli_helper import run_cli

VIEW = [[1, -1, -1], [-1, -1, -1], [-1, -1, -1]]
EYE = np.eye(3, dtype=bool)
SEED = r"^seed: must be an integer in \[0, 2\*\*64 - 1\]"


def _gym_reset(seed, vector=False):
    from fastsweep.gym import MinesweeperEnv, MinesweeperVectorEnv

    env = MinesweeperVectorEnv(2, 5, mines=3) if vector else MinesweeperEnv(5, mines=3)
    return env.reset(seed=seed)


# ---- seeds: one validator (config.check_seed), one range, every entry point ------------

SEEDS = [-1, 2**64, 1.5, True, "a", None, np.float64(3.0)]
SEED_CALLS = {
    "run": lambda s: fastsweep.run("basic", 5, mines=3, games=1, seed=s),
    "play": lambda s: fastsweep.play("basic", 5, mines=3, seed=s),
    "sweep": lambda s: fastsweep.sweep(["basic"], 5, mines=[3], games=2, seed=s, workers=1),
    "advise": lambda s: advise(VIEW, seed=s),
    "ManualGame": lambda s: ManualGame(VIEW, seed=s),
    "guess_order": lambda s: guess_order(3, 3, seed=s),
    "hard_board": lambda s: fastsweep.hard_board("basic", 5, mines=3, plays=2, seed=s),
    "local_search": lambda s: local_search(lambda lay: 1.0, EYE, seed=s),
    "random_view": lambda s: random_view(4, 4, 3, 5, seed=s),
}


@pytest.mark.parametrize("seed", SEEDS, ids=repr)
@pytest.mark.parametrize("where", list(SEED_CALLS))
def test_a_seed_outside_the_range_is_refused_everywhere(where, seed):
    with pytest.raises(ValueError, match=SEED):
        SEED_CALLS[where](seed)


@pytest.mark.parametrize("vector", [False, True])
@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, True, "a"], ids=repr)
def test_gym_reset_refuses_a_bad_seed_and_takes_none(seed, vector):
    pytest.importorskip("gymnasium")
    with pytest.raises(ValueError, match=SEED):
        _gym_reset(seed, vector)
    _gym_reset(None, vector)  # Gymnasium's "no new seed": the next game of the current one


def test_the_largest_seed_is_accepted():
    assert len(guess_order(2, 2, seed=2**64 - 1)) == 4
    assert advise(VIEW, seed=2**64 - 1).move is not None


# ---- the command line: one line, exit 2, the flag named ---------------------------------

CLI = [
    pytest.param(["advise", "{pos}", "--seed", "-1"], "--seed: must be an integer",
                 id="advise--seed-negative"),
    pytest.param(["advise", "{pos}", "--seed", str(2**64)], "--seed: must be an integer",
                 id="advise--seed-2**64"),
    pytest.param(["advise", "{pos}", "--seed", "1.5"], "--seed", id="advise--seed-float"),
    pytest.param(["run", "--size", "5", "--mines", "3", "--seed", "-1"],
                 "--seed: must be an integer", id="run--seed-negative"),
    pytest.param(["play", "--size", "5", "--mines", "3", "--seed", str(2**64)],
                 "--seed: must be an integer", id="play--seed-2**64"),
    pytest.param(["sweep", "--agents", "basic", "--size", "5", "--mines", "3", "--games", "2",
                  "--seed", "-1"], "--seed: must be an integer", id="sweep--seed-negative"),
    pytest.param(["hardboard", "--agent", "basic", "--size", "5", "--mines", "3", "--seed", "-1"],
                 "--seed", id="hardboard--seed-negative"),
]


@pytest.fixture
def pos(tmp_path):
    p = tmp_path / "pos.txt"
    p.write_text("1??\n???\n???\n")
    return p


@pytest.mark.parametrize("argv, text", CLI)
def test_cli_hostile_arguments_are_one_line(capsys, tmp_path, pos, argv, text):
    argv = [a.format(pos=pos, tmp=tmp_path) for a in argv]
    code, out, err = run_cli(capsys, *argv)
    assert code == 2, (code, err)
    assert err.count("\n") == 1 and err.startswith(f"fastsweep {argv[0]}: error: "), err
    assert text in err and "Traceback" not in err, err

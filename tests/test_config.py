"""Every invalid argument raises ValueError naming the argument; the CLI exits 2."""
import math
import subprocess
import sys

import numpy as np
import pytest

from fastsweep import play, run
from fastsweep.config import MAX_CELLS

BAD = [
    (dict(size=0, mines=1), "size"),
    (dict(size=(3, 0), mines=1), "size"),
    (dict(size=-4, mines=1), "size"),
    (dict(size="axb", mines=1), "size"),
    (dict(size=(2, 3, 4), mines=1), "size"),
    (dict(size=2.5, mines=1), "size"),
    (dict(size=(MAX_CELLS, 2), mines=1), str(MAX_CELLS)),
    (dict(size=5, mines=-1), "mines"),
    (dict(size=5, mines=26), "mines"),
    (dict(size=5, mines=2.0), "mines"),
    (dict(size=5, density=-0.1), "density"),
    (dict(size=5, density=1.5), "density"),
    (dict(size=5, density=math.nan), "density"),
    (dict(size=5, density="x"), "density"),
    (dict(size=5, mines=3, density=0.1), "mines/density"),
    (dict(size=5), "mines/density"),
    (dict(size=(2, 3), layout=np.zeros((3, 2), bool)), "layout"),
    (dict(size=(2, 3), layout=[(0, 5)]), "layout"),
    (dict(size=(2, 3), layout=[(0, 1), (0, 1)]), "layout"),
    (dict(size=(2, 3), layout=np.zeros((2, 3), bool), mines=1), "mines/density"),
    (dict(size=5, mines=3, first_cell=(5, 0)), "first_cell"),
    (dict(size=5, mines=3, first_cell=(0, -1)), "first_cell"),
    (dict(size=5, mines=3, first_cell="middle"), "first_cell"),
    (dict(size=5, mines=25, rules="classic"), "first_click"),
    (dict(size=5, mines=17, first_click="zero", first_cell="center"), "first_click"),
    (dict(size=5, mines=3, first_click="sometimes"), "first_click"),
    (dict(size=(2, 2), layout=np.ones((2, 2), bool), rules="classic"), "first_click"),
    (dict(size=5, mines=3, rules="easy"), "rules"),
    (dict(size=5, mines=3, agent="oracle"), "agent"),
    (dict(size=5, mines=3, mine_count="yes"), "mine_count"),
    (dict(size=5, mines=3, prior=1.0), "prior"),
    (dict(size=5, mines=3, games=0), "games"),
    (dict(size=5, mines=3, seed=-1), "seed"),
    (dict(size=5, mines=3, seed=2**64), "seed"),
]


@pytest.mark.parametrize("kwargs,word", BAD)
def test_bad_input_raises_value_error(kwargs, word):
    kwargs = dict(kwargs)
    agent = kwargs.pop("agent", "basic")
    with pytest.raises(ValueError) as e:
        run(agent, **kwargs)
    assert word in str(e.value)
    if "games" not in kwargs:
        with pytest.raises(ValueError):
            play(agent, **kwargs)


def test_unknown_agent_lists_known_ones():
    with pytest.raises(ValueError, match="basic"):
        run("nope", 5, mines=1)


def test_limits_are_accepted():
    assert run("basic", 1, mines=0).score[0] == 1.0
    assert run("basic", 1, mines=1).detonated[0] == 1
    assert len(run("basic", (1, 1000), density=0.0, games=2)) == 2
    assert run("basic", 5, density=1.0).mines[0] == 25
    assert run("basic", 5, mines=24, rules="classic").won.all()  # safe corner, one safe cell
    assert run("basic", 5, mines=16, rules="classic", first_click="zero",
               first_cell="center").won.all()


def cli(*args):
    return subprocess.run([sys.executable, "-m", "fastsweep", *args], capture_output=True,
                          text=True, timeout=300)


@pytest.mark.parametrize("args,word", [
    (["run", "--size", "0", "--mines", "1"], "--size"),
    (["run", "--size", "5", "--density", "nan"], "--density"),
    (["run", "--size", "5", "--mines", "99"], "--mines"),
    (["run", "--size", "5", "--mines", "3", "--agent", "x"], "--agent"),
    (["run", "--size", "5", "--mines", "3", "--games", "0"], "--games"),
    (["play", "--size", "5", "--mines", "3", "--first-cell", "9,9"], "--first-cell"),
    (["play", "--size", "5", "--mines", "3", "--rules", "hard"], "--rules"),
    (["run", "--size", "5"], "--mines --density"),
])
def test_cli_errors_exit_2_with_one_line(args, word):
    r = cli(*args)
    assert r.returncode == 2
    assert r.stderr.startswith(f"fastsweep {args[0]}: error: ") and r.stderr.count("\n") == 1
    assert word in r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""

"""Hostile arguments, round three (issue 46): every bad value is refused before any work
with one error naming the argument and what is allowed. Python: the exception type and
a message that starts with the argument's name; command line: exit status 2 and one line
on stderr, ``fastsweep <command>: error: <flag>: ...``, never a traceback.

(tests/test_faults.py holds the earlier rounds' table, next to the sweep folders' faults.)
"""
import os

import numpy as np
import pytest

import fastsweep
from fastsweep.advisor.manual import ManualGame, advise, guess_order
from fastsweep.studies.positions import random_view
from fastsweep.tools.bench import main as bench_main
from fastsweep.studies.search_layouts import exhaustive, local_search

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


@pytest.mark.parametrize("vector", [False, True])
def test_gym_reset_options_must_be_a_dict(vector):
    pytest.importorskip("gymnasium")
    from fastsweep.gym import MinesweeperEnv, MinesweeperVectorEnv

    env = MinesweeperVectorEnv(2, 5, mines=3) if vector else MinesweeperEnv(5, mines=3)
    with pytest.raises(ValueError, match=r"^options: expected None or a dict"):
        env.reset(seed=1, options=5)


def test_the_largest_seed_is_accepted():
    assert len(guess_order(2, 2, seed=2**64 - 1)) == 4
    # (and a numpy Generator where a search goes on with one: hard_board's local_search)
    assert local_search(lambda lay: 1.0, EYE, seed=np.random.default_rng(1)).value == 1.0
    assert advise(VIEW, seed=2**64 - 1).move is not None


# ---- other arguments: (call, exception, message) ----------------------------------------

def _trace():
    return fastsweep.play("basic", 5, mines=3)


PY = [
    pytest.param(lambda t: _trace().text(every=-1), ValueError, r"^every: must be an integer >= 0",
                 id="text-every-negative"),
    pytest.param(lambda t: _trace().text(every=1.5), ValueError, r"^every: ", id="text-every-float"),
    pytest.param(lambda t: _trace().text(every="a"), ValueError, r"^every: ", id="text-every-str"),
    pytest.param(lambda t: _trace().text(every=True), ValueError, r"^every: ", id="text-every-bool"),
    pytest.param(lambda t: _trace().animate(gif=str(t / "a.gif"), fps=1e-9), ValueError,
                 r"^fps: must be a number of frames per second in \[0.1, 50\]", id="animate-fps-tiny"),
    pytest.param(lambda t: _trace().animate(gif=str(t / "a.gif"), fps=float("inf")), ValueError,
                 r"^fps: ", id="animate-fps-inf"),
    pytest.param(lambda t: fastsweep.run("basic", 5, mines=3, noise="detector:p_neg=0.1,p_neg=0.2"),
                 ValueError, r"^noise: p_neg is given twice", id="noise-repeated-key"),
    pytest.param(lambda t: fastsweep.run("basic", 5, mines=3, noise="reveal:p=0.5,p=0.9"),
                 ValueError, r"^noise: p is given twice", id="noise-repeated-p"),
    pytest.param(lambda t: fastsweep.run("basic", 5, mines=3, noise="reveal:p=0.5",
                                         noise_aware=False),
                 ValueError, r"^noise_aware: agent 'basic' does not read .*cannot reason under noise",
                 id="trust-clues-unable-agent"),
    pytest.param(lambda t: advise(VIEW, agent="basic", noise="reveal:p=0.5", noise_aware=False),
                 ValueError, r"^noise_aware: agent 'basic' does not read .*cannot reason", id="advise-trust-unable"),
    pytest.param(lambda t: fastsweep.run("probability", 5, mines=3, noise_aware=False),
                 ValueError, r"^noise_aware: trusting the clues .* needs a noise model",
                 id="trust-clues-without-noise"),
    pytest.param(lambda t: fastsweep.sweep(["basic", "probability"], 5, mines=[3], games=2,
                                           workers=1, noise_aware=False),
                 ValueError, r"^noise_aware: trusting the clues", id="sweep-trust-without-noise"),
    pytest.param(lambda t: fastsweep.sweep(["basic"], 5, mines=[3], games=2, workers=1,
                                           noise="reveal:p=0.5", noise_aware=False),
                 ValueError, r"^noise_aware: agent 'basic' does not read this option.*cannot reason under noise", id="sweep-trust-unable"),
    pytest.param(lambda t: fastsweep.deduce([[1, -1], [-1, -1]], likelihood="abc"), ValueError,
                 r"^likelihood: expected a float array of shape \(2, 2, 9\)", id="likelihood-str"),
    pytest.param(lambda t: fastsweep.mine_probabilities([[1, -1], [-1, -1]],
                                                        likelihood=[[1, 2], [3]]),
                 ValueError, r"^likelihood: ", id="likelihood-ragged"),
    pytest.param(lambda t: local_search(lambda lay: "abc", EYE), ValueError,
                 r"^objective: must return a finite number", id="objective-str"),
    pytest.param(lambda t: local_search(lambda lay: "1.5", EYE), ValueError,
                 r"^objective: ", id="objective-numeric-str"),
    pytest.param(lambda t: local_search(lambda lay: None, EYE), ValueError,
                 r"^objective: ", id="objective-none"),
    pytest.param(lambda t: local_search(lambda lay: float("nan"), EYE), ValueError,
                 r"^objective: ", id="objective-nan"),
    pytest.param(lambda t: fastsweep.sweep(None, 5, mines=[3], games=2), ValueError,
                 r"^agents: expected a list of agents", id="sweep-agents-none"),
    # siblings: flags that took any truthy value, callables and counts that were not checked
    pytest.param(lambda t: fastsweep.deduce(VIEW, info=2), ValueError, r"^info: expected True",
                 id="deduce-info-int"),
    pytest.param(lambda t: fastsweep.mine_probabilities(VIEW, info="yes"), ValueError,
                 r"^info: ", id="mine_probabilities-info-str"),
    pytest.param(lambda t: local_search(lambda lay: 1.0, EYE, minimize="no"), ValueError,
                 r"^minimize: expected True or False", id="local_search-minimize-str"),
    pytest.param(lambda t: local_search(lambda lay: 1.0, EYE, allowed=5), ValueError,
                 r"^allowed: must be None or a callable", id="local_search-allowed-int"),
    pytest.param(lambda t: exhaustive(lambda lay: "a", (2, 2), 1), ValueError,
                 r"^objective: must return a finite number", id="exhaustive-objective-str"),
    pytest.param(lambda t: exhaustive(lambda lay: 1.0, (2, 2), 1, symmetric=1), ValueError,
                 r"^symmetric: expected True or False", id="exhaustive-symmetric-int"),
    pytest.param(lambda t: exhaustive(lambda lay: 1.0, (True, 2), 1), ValueError,
                 r"^shape: ", id="exhaustive-shape-bool"),
    pytest.param(lambda t: random_view(4, 4, 3, 5, seed=1, board=2), ValueError,
                 r"^board: expected True or False", id="random_view-board-int"),
    pytest.param(lambda t: bench_main(repeats=0), ValueError, r"^repeats: must be an integer",
                 id="bench-repeats-zero"),
    pytest.param(lambda t: bench_main(quick="no"), ValueError, r"^quick: expected True or False",
                 id="bench-quick-str"),
    pytest.param(lambda t: bench_main(agents=["nope"], compile_times=False), ValueError,
                 r"^agent: unknown agent 'nope'", id="bench-agent-unknown"),
    pytest.param(lambda t: fastsweep.check_agent("basic", games=0, workers=False), ValueError,
                 r"^games: must be an integer", id="check_agent-games-zero"),
    pytest.param(lambda t: fastsweep.check_agent("basic", games=True, workers=False),
                 ValueError, r"^games: ", id="check_agent-games-bool"),
    pytest.param(lambda t: fastsweep.check_agent("basic", seed=-1, workers=False), ValueError,
                 SEED, id="check_agent-seed-negative"),
    pytest.param(lambda t: fastsweep.check_agent("basic", games=2, workers="no"), ValueError,
                 r"^workers: expected True or False", id="check_agent-workers-str"),
]


PY += [pytest.param(lambda t, v=v: fastsweep.sweep(["basic"], 5, mines=[3], games=2, workers=1,
                                                   quiet=True, timeout=v),
                    ValueError, r"^timeout: must be a finite number of seconds", id=f"sweep-timeout-{v}")
       for v in (float("inf"), True)]
PY += [pytest.param(lambda t, kw=kw: fastsweep.sweep(["basic"], 5, mines=[3], games=2, workers=1,
                                                     **{"quiet": True, **kw}),
                    ValueError, rf"^{next(iter(kw))}: ", id=f"sweep-{next(iter(kw))}-{v}")
       for kw, v in ((dict(quiet="no"), "str"), (dict(per_game="yes"), "str"),
                     (dict(fresh=5), "int"))]


@pytest.mark.parametrize("call, exc, match", PY)
def test_hostile_python_arguments(tmp_path, call, exc, match):
    with pytest.raises(exc, match=match):
        call(tmp_path)


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
    pytest.param(["advise", "{pos}", "--png", "{tmp}"], "--png: ", id="advise--png-folder"),
    pytest.param(["advise", "{pos}", "--png", "{tmp}/d.png"], "is a folder",
                 id="advise--png-folder-named-png"),
    pytest.param(["play", "--size", "5", "--mines", "3", "--gif", "{tmp}/a.gif", "--fps", "0.001"],
                 "--fps: must be a number of frames per second in [0.1, 50]", id="play--fps-tiny"),
    pytest.param(["play", "--size", "5", "--mines", "3", "--gif", "{tmp}/a.gif", "--fps", "nan"],
                 "--fps: ", id="play--fps-nan"),
    pytest.param(["sweep", "--agents", "basic", "--size", "5", "--density", "0.1", "--games", "2",
                  "--backend", "dask", "--scheduler", "tcp://127.0.0.1:1", "--timeout", "inf"],
                 "--timeout: must be a finite number of seconds", id="sweep--timeout-inf"),
    pytest.param(["sweep", "--agents", "basic", "--size", "5", "--density", "0.1", "--games", "2",
                  "--timeout", "nan"], "--timeout: ", id="sweep--timeout-nan"),
    pytest.param(["sweep", "--agents", "basic", "--size", "5", "--density", "0.1", "--games", "2",
                  "--timeout", "1e9"], "--timeout: ", id="sweep--timeout-huge"),
    pytest.param(["sweep", "--agents", "basic", "--size", "5", "--mines", "abc", "--games", "2"],
                 "--mines: expected comma-separated integers", id="sweep--mines-abc"),
    pytest.param(["sweep", "--agents", "basic", "--size", "5", "--mines", "1.5", "--games", "2"],
                 "--mines: expected comma-separated integers", id="sweep--mines-float"),
    pytest.param(["sweep", "--agents", "basic", "--size", "5", "--mines", "", "--games", "2"],
                 "--mines: expected comma-separated integers", id="sweep--mines-empty"),
    pytest.param(["run", "--size", "5", "--mines", "3", "--noise", "detector:p_neg=0.1,p_neg=0.2"],
                 "--noise: p_neg is given twice", id="run--noise-repeated-key"),
    pytest.param(["run", "--size", "5", "--mines", "3", "--noise", "reveal:p=0.5", "--trust-clues"],
                 "--trust-clues: agent 'basic' does not read this option", id="run--trust-clues-basic"),
    pytest.param(["run", "--agent", "probability", "--size", "5", "--mines", "3", "--trust-clues"],
                 "--trust-clues: trusting the clues", id="run--trust-clues-no-noise"),
    pytest.param(["sweep", "--agents", "probability", "--size", "5", "--mines", "3", "--games",
                  "2", "--trust-clues"], "--trust-clues: trusting the clues",
                 id="sweep--trust-clues-no-noise"),
]


@pytest.fixture
def pos(tmp_path):
    p = tmp_path / "pos.txt"
    p.write_text("1??\n???\n???\n")
    return p


@pytest.mark.parametrize("argv, text", CLI)
def test_cli_hostile_arguments_are_one_line(capsys, tmp_path, pos, argv, text):
    (tmp_path / "d.png").mkdir()
    argv = [a.format(pos=pos, tmp=tmp_path) for a in argv]
    code, out, err = run_cli(capsys, *argv)
    assert code == 2, (code, err)
    assert err.count("\n") == 1 and err.startswith(f"fastsweep {argv[0]}: error: "), err
    assert text in err and "Traceback" not in err, err


# ---- files and streams: read at most the stated limit -----------------------------------

def test_advise_reads_at_most_its_limit_from_a_file_or_a_stream(capsys, monkeypatch):
    import io

    from fastsweep.cli import advise as advise_cli

    limit = f"{advise_cli.MAX_POSITION_CHARS:,} characters"
    code, out, err = run_cli(capsys, "advise", "/dev/zero")  # endless: read to the limit only
    assert code == 2 and err.count("\n") == 1 and limit in err, err
    assert err.startswith("fastsweep advise: error: position: '/dev/zero' is longer than")
    monkeypatch.setattr(advise_cli, "MAX_POSITION_CHARS", 100)
    monkeypatch.setattr("sys.stdin", io.StringIO("?" * 101))
    code, out, err = run_cli(capsys, "advise", "-")
    assert code == 2 and "position: standard input is longer than 100 characters" in err
    monkeypatch.setattr("sys.stdin", io.StringIO("? 1\n? ?\n"))  # at the limit: read
    code, out, err = run_cli(capsys, "advise", "-")
    assert code == 0, err


def test_interactive_answers_from_a_pipe_are_bounded(capsys, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("0" * 5000))  # no newline, ever
    code, out, err = run_cli(capsys, "advise", "--size", "3", "--interactive")
    assert code == 2 and err.count("\n") == 1, err
    assert "answer: a line of standard input is longer than 1,000 characters" in err
    monkeypatch.setattr("sys.stdin", io.StringIO("0\nquit\n"))
    code, out, err = run_cli(capsys, "advise", "--size", "3", "--interactive")
    assert code == 0 and "what did (0,0) show? 0" in out, (out, err)


# ---- smaller things a new user met -------------------------------------------------------

def _sweep_folder(tmp_path):
    out = tmp_path / "s"
    fastsweep.sweep(["basic", "inference"], 5, densities=[0.1, 0.2], mine_count=[False],
                    games=4, workers=1, quiet=True, out=str(out))
    return out


def test_table_rows_agent_alone_puts_the_densities_in_columns(tmp_path, capsys):
    out = _sweep_folder(tmp_path)
    code, text, err = run_cli(capsys, "table", str(out), "--rows", "agent")
    assert code == 0, err
    assert text.splitlines()[0] == "| agent | 0.1 | 0.2 |"
    code, text, err = run_cli(capsys, "table", str(out), "--cols", "density")
    assert code == 0 and text.splitlines()[0] == "| agent | 0.1 | 0.2 |", err
    code, text, err = run_cli(capsys, "table", str(out), "--rows", "agent", "--cols", "agent")
    assert code == 2 and "--rows/--cols: agent is in both" in err  # given twice: still refused


def test_counts_agree_with_their_nouns():
    from fastsweep.agents import reason_text
    from fastsweep.kernels.engine import layout as kl

    nan = float("nan")
    assert reason_text(kl.R_CLUE_SAFE, 0, 1, nan, 3) == (
        "clue at (0,0) has all its mines found: 1 hidden neighbour safe")
    assert reason_text(kl.R_CLUE_MINES, 0, 1, nan, 3) == (
        "clue at (0,0) has 1 hidden neighbour left, all mines")  # ("all mines": tests read it)
    assert reason_text(kl.R_CLUE_MINES, 0, 2, nan, 3).endswith("2 hidden neighbours left, all mines")
    assert reason_text(kl.R_DEDUCE_SAFE, -1, 1, nan, 3).endswith("(1 cell touches no clue)")
    assert reason_text(kl.R_DEDUCE_SAFE, -1, 4, nan, 3).endswith("(4 cells touch no clue)")
    assert reason_text(kl.R_DEDUCE_MINE, 4, 1, nan, 3) == (
        "mine by deduction from 1 clue, e.g. at (1,1)")
    assert reason_text(kl.R_RANDOM, -1, 1, nan, 3) == "random guess, 1 hidden cell"
    assert reason_text(kl.R_COUNT_SAFE, -1, 1, nan, 3) == (
        "all mines found: the 1 hidden cell left is safe")
    summary = fastsweep.play("basic", 3, mines=1, seed=0, noise="reveal:p=0.8").summary()
    assert "3x3, 1 mine, keep-going: 9 moves" in summary and "0 clues dropped" in summary
    with pytest.raises(ValueError, match=r"\(1 known mine, 1 hidden neighbour\)"):
        fastsweep.deduce([[-2, 0], [-1, 0]])


def test_the_advice_says_which_certain_mines_the_agent_leaves_for_later():
    view, _ = random_view(5, 6, 6, 14, seed=1)  # (the first seed where basic flags one of five)
    a = advise(view, agent="basic")
    later = {tuple(map(int, c)) for c in np.argwhere(a.mine)} - set(a.flags)
    assert a.flags and later and a.move is not None
    line = next(ln for ln in a.text().splitlines() if ln.startswith("the agent flags"))
    assert line.startswith("the agent flags before its move: ")
    for r, c in later:
        assert f"({r},{c})" in line.split("leaves the certain")[1]
    for r, c in a.flags:
        assert f"({r},{c})" in line.split(";")[0]


# ---- table and plot on a sweep folder -----------------------------------------------------

@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return _sweep_folder(tmp_path_factory.mktemp("sweep"))


@pytest.mark.parametrize("argv, text", [
    pytest.param(["table", "{dir}", "--where", "agent"],
                 "--where: expected FIELD=VALUE pairs", id="table--where-no-equals"),
    pytest.param(["table", "{dir}", "--where", "agent="],
                 "--where: expected FIELD=VALUE pairs", id="table--where-no-value"),
    pytest.param(["plot", "{dir}", "--kind", "score", "--reference", "nope"],
                 "--reference: agent 'nope' is not in this sweep", id="plot--reference-unknown"),
    pytest.param(["plot", "{dir}", "--out", "{dir}/summary.csv"],
                 "--out: '{dir}/summary.csv' is a file; expected a folder", id="plot--out-file"),
])
def test_cli_table_and_plot_arguments(capsys, folder, argv, text):
    argv = [a.format(dir=folder) for a in argv]
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and err.count("\n") == 1 and text.format(dir=folder) in err, err
    assert not list(folder.glob("fig_*"))  # refused before any figure was drawn


@pytest.mark.parametrize("kw, match", [
    (dict(digits=True), r"^digits: must be an integer in 0..12"),
    (dict(ci="yes"), r"^ci: expected True or False"),
    (dict(where=5), r"^where: expected"),
])
def test_table_arguments(folder, kw, match):
    from fastsweep.sweep.results.table import table

    with pytest.raises(ValueError, match=match):
        table(str(folder), **kw)


@pytest.mark.parametrize("kw, match", [
    (dict(kinds=["nope"]), r"^kinds: unknown kind 'nope'; allowed: score"),
    (dict(formats=["gif"]), r"^formats: unknown format 'gif'; allowed: pdf"),
    (dict(reference="nope"), r"^reference: agent 'nope' is not in this sweep"),
    (dict(out=5), r"^out: expected a folder name"),
])
def test_plot_results_arguments(folder, kw, match):
    from fastsweep.viz.figures import plot_results

    with pytest.raises(ValueError, match=match):
        plot_results(str(folder), **{"kinds": ["score"], "formats": ["png"], **kw})


def test_plot_results_takes_comma_lists_as_the_command_line_does(folder, tmp_path):
    from fastsweep.viz.figures import plot_results

    files = plot_results(str(folder), kinds="score,win", formats="png", out=str(tmp_path))
    assert sorted(os.path.basename(f) for f in files) == ["fig_score.png", "fig_win.png"]


# ---- warnings on the command line: one line, without Python's source line ------------------

def test_cli_warnings_are_one_line_each_and_only_there(capsys, tmp_path):
    import subprocess
    import sys
    import warnings

    pos = tmp_path / "w.txt"
    pos.write_text("1?1\n???\n???\n2?1\n?10\n")  # beyond a work budget of 1: estimated
    args = ["advise", str(pos), "--mines", "3", "--budget", "1"]
    # a process of its own: pytest records the warnings of the tests' own process
    p = subprocess.run([sys.executable, "-m", "fastsweep"] + args, capture_output=True,
                       text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    assert p.stderr.startswith("fastsweep: warning: ") and p.stderr.count("\n") == 1, p.stderr
    assert "exceeded the work budget" in p.stderr and ".py:" not in p.stderr
    before = warnings.formatwarning
    with pytest.warns(Warning, match="exceeded the work budget"):  # a caller still records
        code, out, err = run_cli(capsys, *args)
    assert code == 0 and err == ""
    assert warnings.formatwarning is before  # a library user keeps Python's own format

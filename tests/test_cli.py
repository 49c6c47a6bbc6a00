"""The command line: one-line errors in the CLI's own words, play's boards (coordinates,
mines left hidden, legend), --quiet, the prior's note in the trace, run --out, bench's
progress lines and where it writes, and the shared option flags."""
import hashlib
import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from fastsweep import AGENTS, output, play, run
from fastsweep.tools import bench
from fastsweep.cli import main as cli
from fastsweep.runner import COLUMNS
from fastsweep.trace import LEGEND
from cli_helper import run_cli as main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))




# ---------------------------------------------------------------- errors

ARGPARSE_ERRORS = [  # argparse's own errors: it would print the usage block first
    (["run", "--size", "5", "--mines", "3", "--density", "0.2"], "run",
     "argument --density: not allowed with argument --mines"),
    (["run", "--size", "5"], "run", "one of the arguments --mines --density is required"),
    (["play", "--mines", "3"], "play", "the following arguments are required: --size"),
    (["run", "--size", "5", "--mines", "3", "--prior", "abc"], "run",
     "argument --prior: invalid float value: 'abc'"),
    (["run", "--size", "5", "--mines", "3", "--games", "-2"], "run",
     "argument --games: must be an integer >= 1, got '-2'"),
    (["play", "--size", "5", "--mines", "3", "--every", "5", "--quiet"], "play",
     "argument --quiet: not allowed with argument --every"),
    (["play", "--size", "5", "--mines", "3", "--nosuch"], "play",
     "unrecognized arguments: --nosuch"),
    (["bench", "--repeats", "0"], "bench", "argument --repeats: must be an integer >= 1, got '0'"),
    (["rn"], None, "argument COMMAND: invalid choice: 'rn' (choose from "),
    ([], None, "the following arguments are required: COMMAND"),
    (["sweep", "--size", "5", "--mines", "3"], "sweep",
     "one of the arguments --games --ci is required"),
]


@pytest.mark.parametrize("argv,cmd,msg", ARGPARSE_ERRORS)
def test_argparse_errors_are_one_line_with_a_help_hint(capsys, argv, cmd, msg):
    code, out, err = main(capsys, *argv)
    prog = "fastsweep" + (f" {cmd}" if cmd else "")
    assert code == 2 and out == ""
    assert err.startswith(f"{prog}: error: {msg}") and err.count("\n") == 1
    assert err.endswith(f" (see {prog} --help)\n")


WRAPPER_ERRORS = [  # the API's ValueErrors, in the CLI's flag names
    (["play", "--size", "5", "--mines", "3", "--first-click", "x"],
     "fastsweep play: error: --first-click: unknown rule 'x'; allowed: any, safe, zero"),
    (["run", "--size", "5", "--mines", "25", "--rules", "classic", "--games", "1"],
     "fastsweep run: error: --first-click: rule 'safe' needs 1 mine-free cells, so mines "
     "must be at most 24 on a 5x5 board (got 25); use --first-click any or fewer mines"),
    (["run", "--size", "5", "--density", "nan"],
     "fastsweep run: error: --density: must be in [0, 1], got nan"),
    (["sweep", "--size", "5", "--mines", "3", "--ci", "0.1", "--scheduler", "x", "--quiet"],
     "fastsweep sweep: error: --scheduler: only used with --backend dask"),
    (["sweep", "--size", "5", "--mines", "3", "--games", "5", "--agents", "nosuch"],
     "fastsweep sweep: error: --agents: unknown agent 'nosuch'; known agents: "
     + ", ".join(AGENTS) + "; or your own: an import path 'module:attr' or "
     "'path/to/file.py:attr', or an agent object"),
]


@pytest.mark.parametrize("agent", ["os:sep", "fastsweep:__version__"])
def test_an_import_path_to_something_not_an_agent_is_one_line(capsys, agent):
    code, out, err = main(capsys, "run", "--agent", agent, "--size", "5", "--mines", "3",
                          "--games", "2")
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("fastsweep run: error: --agent: expected a built-in agent's "
                               "name (basic, ")
    assert "Traceback" not in err and "{" not in err


@pytest.mark.parametrize("argv, flag", [
    (["run", "--size", "9", "--size", "10", "--mines", "3"], "--size"),
    (["run", "--agent", "basic", "--agent", "probability", "--size", "5", "--mines", "3"],
     "--agent"),
    (["play", "--size", "5", "--mines", "3", "--game", "1", "--game", "2"], "--game"),
])
def test_a_single_value_option_given_twice_is_refused(capsys, argv, flag):
    code, out, err = main(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith(f"fastsweep {argv[0]}: error: {flag}: given twice; give it once")


def test_play_every_zero_is_refused(capsys):
    code, out, err = main(capsys, "play", "--size", "5", "--mines", "3", "--every", "0")
    assert code == 2 and "--every" in err and "must be an integer >= 1, got '0'" in err


@pytest.mark.parametrize("argv,line", WRAPPER_ERRORS)
def test_wrapper_errors_use_the_flag_names(capsys, argv, line):
    code, out, err = main(capsys, *argv)
    assert (code, out, err) == (2, "", line + "\n")


def test_cli_wording():
    sub = cli.build_parser()._subparsers._group_actions[0].choices
    run_p, sweep_p = sub["run"], sub["sweep"]
    assert (cli.cli_wording("mines/density: give exactly one of mines=M or density=rho", run_p)
            == "--mines/--density: give exactly one of --mines M or --density RHO")
    assert (cli.cli_wording("games/ci: give exactly one of games=N (fixed) or ci=HALF_WIDTH",
                            sweep_p)
            == "--games/--ci: give exactly one of --games N (fixed) or --ci HALF_WIDTH")
    # sweep's keywords (densities, sizes) and the singular agent reach their flags
    assert cli.cli_wording("densities: bad", sweep_p) == "--density: bad"
    assert cli.cli_wording("agent: unknown", sweep_p) == "--agents: unknown"
    # what is not a flag of the command stays as it is, and the message is one line
    assert (cli.cli_wording("view is inconsistent with mines=5:\nno", run_p)
            == "view is inconsistent with mines=5: no")
    assert cli.cli_wording("workers: must be >= 1", run_p) == "workers: must be >= 1"


def test_a_closed_pipe_is_not_a_traceback():
    p = subprocess.Popen([sys.executable, "-m", "fastsweep", "play", "--size", "100",
                          "--density", "0.2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT))
    assert p.stdout.readline().strip().startswith("1  guess")
    p.stdout.close()  # like `| head -1`
    err = p.stderr.read()
    assert p.wait(timeout=300) == 1 and "Traceback" not in err and err == ""


# ---------------------------------------------------------------- play

def read_board(text, w):
    """{(row, col): symbol}, with row and column read from the board's own labels."""
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if len(line.split()) > w)
    header = lines[:first]
    cells = {}
    for line in lines[first:]:
        tokens = line.split()
        if len(tokens) <= w:  # the column numbers again, below a tall board
            continue
        r = int(tokens[0])
        if len(tokens) == w + 2:
            assert int(tokens[-1]) == r  # the row number again, right of a wide board
        start = len(line) - len(line.lstrip()) + len(tokens[0]) + 1
        pos = start + np.arange(w) * 2  # where each symbol stands
        assert "".join(line[p] for p in pos) == "".join(tokens[1:w + 1])
        for p, sym in zip(pos, tokens[1:w + 1]):
            c = int("".join(h[p] if p < len(h) else " " for h in header).strip())
            cells[r, c] = sym
    return cells


@pytest.mark.parametrize("size,mines,rules,seed", [
    ((16, 30), 99, "classic", 3),   # wide: row numbers on both sides
    ((25, 12), 40, "keep-going", 1),  # tall: column numbers top and bottom
    ((100, 100), 2000, "keep-going", 0),  # three-digit columns
    ((9, 9), 10, "classic", 4),
])
def test_board_coordinates_are_the_moves_coordinates(size, mines, rules, seed):
    t = play("basic", size, mines=mines, rules=rules, seed=seed)
    h, w = size
    for upto in sorted({len(t.moves) // 2, len(t.moves)}):
        cells = read_board(t.board(upto), w)
        assert len(cells) == h * w
        expect = {}
        for mv in t.moves.iloc[:upto].itertuples():
            expect[mv.row, mv.col] = ("F" if mv.action == "flag" else "*"
                                      if mv.outcome == "detonated" else mv.outcome[5:])
        for rc, sym in cells.items():
            if rc in expect:
                assert sym == expect[rc], rc
            elif upto < len(t.moves) or not t.mines[rc]:
                assert sym == "?", rc
            else:
                assert sym == "M", rc


def test_lost_game_shows_the_mines_left_hidden():
    t = play("basic", (16, 30), mines=99, seed=3, rules="classic")
    assert not t.result["won"]
    cells = read_board(t.board(), 30)
    hidden_mines = {rc for rc, s in cells.items() if s == "M"}
    assert len(hidden_mines) == 99 - t.result["flagged"] - t.result["detonated"] > 0
    assert all(t.mines[rc] for rc in hidden_mines)
    assert not any(t.mines[rc] for rc, s in cells.items() if s == "?")
    assert "M" not in t.board(len(t.moves) - 1)  # not before the game is over
    assert "M" not in t.board(show_mines=False)
    assert LEGEND in t.text() and "M mine still hidden" in LEGEND
    # a won classic game shows its unflagged mines too
    won = next(g for g in range(50) if play("basic", 9, mines=10, seed=1, game=g,
                                             rules="classic").result["won"])
    tw = play("basic", 9, mines=10, seed=1, game=won, rules="classic")
    assert tw.board().count("M") == 10 - tw.result["flagged"]


def _free_cells(t, j):
    """Hidden cells that no revealed clue touches, before move j (from the board text)."""
    grid = np.array([row.split() for row in t.board(j, coords=False).splitlines()])
    clue = np.pad(np.char.isdigit(grid), 1)
    h, w = grid.shape
    touched = np.zeros((h, w), bool)
    for dr in (0, 1, 2):
        for dc in (0, 1, 2):
            if dr != 1 or dc != 1:
                touched |= clue[dr:dr + h, dc:dc + w]
    return (grid == "?") & ~touched


@pytest.mark.parametrize("size,density,seed,prior", [(9, 0.2, 1, 0.5), ((16, 30), 0.2, 3, 0.2),
                                                      (12, 0.3, 5, 0.5)])
def test_probability_guesses_say_when_the_prior_decides(size, density, seed, prior):
    t = play("probability", size, density=density, seed=seed, prior=prior)
    guesses = t.moves[t.moves.reason.str.startswith("mine probability")]
    assert len(guesses)
    noted = 0
    for j, mv in zip(guesses.index, guesses.itertuples()):
        free = _free_cells(t, j)
        n = int(free.sum())
        if n == 0:
            assert "prior" not in mv.reason
            continue
        noted += 1
        note = f"prior {prior:g} for the {n} cell{'s' * (n != 1)} no clue touches"
        assert note in mv.reason, mv.reason
        if free[mv.row, mv.col]:
            assert mv.reason.endswith(", this one included)")
            assert mv.probability == pytest.approx(prior)
        else:
            assert mv.reason.endswith("no clue touches)")
    assert noted
    # told the total, the prior plays no part and is not mentioned
    t = play("probability", size, density=density, seed=seed, prior=prior, mine_count=True)
    assert not t.moves.reason.str.contains("prior").any()


def test_play_prior_and_quiet_from_the_cli(capsys):
    argv = ["play", "--agent", "probability", "--size", "9", "--density", "0.2", "--seed", "1"]
    code, out, err = main(capsys, *argv, "--prior", "0.2")
    t = play("probability", 9, density=0.2, seed=1, prior=0.2)
    assert code == 0 and out == t.text() + "\n" and "prior 0.2 for the" in out
    code, default, _ = main(capsys, *argv)
    assert default != out and "prior 0.5 for the" in default
    code, out, err = main(capsys, *argv, "--prior", "0.2", "--budget", "64", "--quiet")
    assert code == 0 and out == play("probability", 9, density=0.2, seed=1, prior=0.2,
                                     budget=64).summary() + "\n"


# ---------------------------------------------------------------- run --out

def test_run_out_csv_has_every_game_and_its_configuration(tmp_path, capsys):
    path = tmp_path / "games.csv"
    code, out, _ = main(capsys, "run", "--agent", "probability", "--size", "7x9", "--mines",
                        "12", "--games", "30", "--seed", "4", "--first-cell", "2,3",
                        "--prior", "0.3", "--budget", "5000", "--out", str(path))
    assert code == 0 and f"wrote 30 games to {path}" in out
    got = pd.read_csv(path)
    ref = run("probability", (7, 9), mines=12, games=30, seed=4, first_cell=(2, 3), prior=0.3,
              budget=5000)
    extra = ["first_cell", "prior", "budget", "threshold", "risk_rules", "max_component",
             "noise", "noise_aware", "flag_threshold", "endgame", "endgame_nodes",
             "candidate_cut", "pseudo_fifty", "corner_opening", "offedge_limit",
             "fifty_blocks", "far_ties"]
    assert sorted(got.columns) == sorted(COLUMNS + extra)
    assert list(got.columns[:10]) == ["game", "seed", "agent", "height", "width", "mines",
                                      "rules", "first_click", "first_cell", "mine_count"]
    assert (got.first_cell == "2,3").all() and (got.prior == 0.3).all()
    assert (got.budget == 5000).all() and (got.threshold == 0.125).all()
    assert (got.risk_rules == "complete").all() and (got.max_component == 20).all()
    assert (got.noise == "none").all() and (~got.noise_aware).all()
    assert (got.flag_threshold == 1.0).all()
    assert (got.endgame == 1000).all() and (got.endgame_nodes == 1_000_000).all()
    assert (got.candidate_cut == 0.9).all() and got.pseudo_fifty.all()  # the defaults
    assert got.far_ties.all() and got.corner_opening.all() and (~got.offedge_limit).all()
    same = [c for c in COLUMNS if c != "seconds"]
    pd.testing.assert_frame_equal(got[same], ref[same], check_dtype=False)


def test_run_out_refuses_bad_paths_before_playing(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(output, "find_spec", lambda name: None)  # no pyarrow, no fastparquet
    monkeypatch.setattr("fastsweep.runner.run", lambda *a, **k: pytest.fail("played"))
    (tmp_path / "d.csv").mkdir()
    for path, msg in [("g.txt", "--out: unknown file type '.txt' of 'g.txt'; use .csv, "
                                ".parquet or .pq"),
                      (str(tmp_path / "no" / "g.csv"), f"--out: folder "
                       f"'{tmp_path / 'no'}' does not exist"),
                      (str(tmp_path / "d.csv"), "is a folder; give a file name"),
                      ("g.parquet", "--out: writing Parquet needs pyarrow, which is not "
                                    "installed (pip install pyarrow); or give a .csv file")]:
        code, out, err = main(capsys, "run", "--size", "5", "--mines", "3", "--out", path)
        assert code == 2 and out == "" and err.count("\n") == 1
        assert err.startswith("fastsweep run: error: ") and msg in err


def test_run_out_parquet(tmp_path, capsys):
    pytest.importorskip("pyarrow")
    path = tmp_path / "g.parquet"
    assert main(capsys, "run", "--size", "6", "--mines", "5", "--games", "9", "--out",
                str(path))[0] == 0
    got = pd.read_parquet(path)
    assert got.game.tolist() == list(range(9)) and (got.first_cell == "random").all()


# ---------------------------------------------------------------- bench

def _digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


@pytest.fixture
def fast_bench(monkeypatch):
    """bench without its minutes of timing: the boards and the cold-start subprocesses
    are stand-ins; what is tested is what it says and where it writes."""
    monkeypatch.setattr(bench, "time_board", lambda *a, **k: (1000.0, 50))
    monkeypatch.setattr(bench, "_subprocess_seconds", lambda env, agent="basic": 1.5)


def test_bench_announces_compiling_and_writes_only_where_told(fast_bench, tmp_path, capsys,
                                                            monkeypatch):
    tracked = os.path.join(ROOT, "results", "bench", "bench.csv")
    before = _digest(tracked)
    monkeypatch.chdir(tmp_path)
    code, out, err = main(capsys, "bench", "--quick")
    assert code == 0 and os.listdir(tmp_path) == [] and _digest(tracked) == before
    assert "wrote" not in out and "games/s" in out
    for agent in bench.FAMILIES:
        line = next(x for x in err.splitlines()
                    if x.startswith(f"bench: compiling the {agent} kernels into an empty cache"))
        assert line.endswith(" s") and bench.COMPILE_TIME[agent] in line
        # the stand-in 1.5 s meets every target; the verdict is printed beside it
        assert f"{agent}: cold first call (import + compile its family): 1.5 s (target <= " \
               f"{bench.TARGET[agent]} s: met)" in out
    code, out, err = main(capsys, "bench", "--quick", "--out", "b.csv")
    assert code == 0 and "wrote b.csv" in out
    df = pd.read_csv(tmp_path / "b.csv")
    assert len(df) == len(bench.BOARDS) + 2 * len(bench.FAMILIES)


def test_bench_bad_out_fails_before_timing(tmp_path, capsys, monkeypatch):
    def boom(*a, **k):
        raise AssertionError("timed before checking --out")

    monkeypatch.setattr(bench, "time_board", boom)
    monkeypatch.setattr(bench, "compile_and_import_times", boom)
    code, out, err = main(capsys, "bench", "--out", str(tmp_path / "b.json"))
    assert code == 2 and err.startswith("fastsweep bench: error: --out: unknown file type")

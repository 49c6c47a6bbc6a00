"""Every study and benchmark script runs, as a user runs it (a subprocess from the
checkout's root), in its tiny mode (``--quick``: seconds with the kernels cached) into a
folder the test gives it; it writes its outputs (CSV rows, figures, run.json with its
command) and leaves the repository as it was. The figure scripts read the committed
results/ and write into the test's folder.

Slow as a whole: about 3 minutes on one core of the 2-core VM with the kernels cached
(2 to 21 s a script, most of it drawing figures at 300 dpi).
"""
import json
import os
import subprocess
import sys

import pandas as pd
import pytest

pytestmark = pytest.mark.slow

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (script under scripts/, arguments besides --out, files it must write)
# (studies/headline.py's tiny mode is checked, with the same checks, in
# test_main_then_the_headline_study_resumes_it: main.py runs the same study's main())
HEADLINE = ("studies/headline.py", ["--quick", "--quiet", "--workers", "1"],
            ["summary.csv", "pairs.csv", "fig_score.png", "fig_diff.png", "fig_win.png"])
# the tutorial (docs/pages/tutorial.md), run by test_the_tutorial_runs_in_order
TUTORIAL = ("studies/tutorial.py", ["--quick"], ["outputs.json", "fig_diff.png",
                                                 "fig_scaling.png"])
CASES = [
    ("studies/coverage_study.py", ["--quick", "--workers", "1"],
     ["coverage.csv", "fig_coverage.png", "fig_coverage.pdf"]),
    ("studies/report_table.py", ["--quick", "--workers", "1"], ["report_table.csv"]),
    ("studies/reports.py", ["--quick", "--workers", "2"],  # (the process pool too)
     ["rele2019.csv", "cs440.csv", "patel2020.csv", "dhurandhar.csv", "fig_rele2019.png",
      "fig_cs440.png", "fig_patel2020.png", "fig_dhurandhar.png"]),
    ("studies/noise_study.py", ["--quick", "--workers", "1"],
     ["bonus.csv", "levels.csv", "report000.csv", "fig_bonus16.png", "fig_levels.png"]),
    ("studies/hard_study.py", ["--quick", "--workers", "1"],
     ["search.csv", "exhaustive.csv", "exhaustive_layouts.csv", "fig_drop.png",
      "fig_cluster.png", "fig_layouts.png", "fig_exhaustive.png"]),
    ("studies/influence_study.py", ["--quick", "--workers", "1"],
     ["summary.csv", "guesses.csv.gz", "fig_chains.png", "fig_guess.png", "numbers.txt"]),
    ("studies/influence_search_study.py", ["--quick", "--workers", "1"], ["search.csv"]),
    ("studies/pictures.py", ["--quick"], ["frame.png", "game.gif"]),
    ("studies/solver_study.py", ["--quick", "--workers", "1", "--quiet"], ["table.csv"]),
    ("studies/reports_figures.py", ["--data", "results/reports"],
     ["fig_rele2019.png", "fig_cs440.png", "fig_patel2020.png", "fig_dhurandhar.png"]),
    ("studies/noise_figures.py", ["--data", "results/noise"],
     ["fig_bonus.png", "fig_bonus16.png", "fig_levels.png"]),
    ("studies/hard_figures.py", ["--data", "results/hard"],
     ["fig_drop.png", "fig_cluster.png", "fig_layouts.png", "fig_exhaustive.png"]),
    ("studies/influence_figures.py", ["--data", "results/influence"],
     ["fig_chains.png", "fig_guess.png", "numbers.txt"]),
    ("bench/bench.py", ["--quick"], ["bench.csv"]),
    ("bench/bench_inference.py", ["--quick"], ["bench_inference.csv"]),
    ("bench/own_agents.py", ["--quick"], ["own_agents.csv"]),
    ("bench/gym_speed.py", ["--quick"], ["gym_speed.csv"]),
    ("bench/bench_hard_views.py", ["--quick"], ["bench_hard_views.csv"]),
    ("bench/bench_sweep.py", ["--quick"], ["bench_sweep.csv"]),
    ("bench/bench_solver.py", ["--quick"], ["bench_solver.csv"]),
    ("bench/compile.py", ["--quick", "--only", "cold"], ["compile.csv"]),
    ("studies/compile_figure.py", ["--quick"], ["fig_rekeys.png"]),
    ("studies/profile_study.py", ["--quick"], ["timing.csv", "fits.csv", "claims.csv",
                                              "fig_scaling.png", "fig_phases.png"]),
    ("bench/bench_card_time.py", ["--quick"], ["time.csv"]),
    ("bench/card_identity.py", ["--quick"], ["identity.csv"]),
    ("studies/benchmark_cards.py", ["--quick"], ["classic-v1/pseq/card.json",
                                                 "classic-v1/boards/expert/summary.csv",
                                                 "classic-v1/compare.png",
                                                 "assignment-v1/basic/card.md"]),
    pytest.param("bench/bench_targets.py", ["--rev", "HEAD", "--quick"], ["bench_targets.csv"],
                 marks=pytest.mark.slow),  # (HEAD's basic family under another name: a minute)
]
# scripts that write no folder: (script, arguments, a line of what they print)
OTHERS = [
    ("bench/perf_map.py", ["--quick"], "basic: 5 games of 16x30:99 classic in "),
    ("bench/total_split.py", ["--quick"], "guess steps a game (each an analysis with the total)"),
    pytest.param("bench_ab.py", ["--rev", "HEAD", "--quick"],
                 "new / old time per game, median of the paired ratios",
                 # the old revision's kernels compile under another package name: a
                 # minute, once after each change of the kernels' source
                 marks=pytest.mark.slow),
]


def _status():
    return subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True,
                          text=True).stdout


def _run(script, args):
    """Run ``scripts/<script> args`` from the checkout's root, as a user would, in this
    interpreter (FASTSWEEP_NO_VENV: bench_ab.py would otherwise set up .venv) with this
    checkout's package first on the path (a .venv may have installed another)."""
    env = dict(os.environ, FASTSWEEP_NO_VENV="1", PYTHONPATH=os.pathsep.join(
        [ROOT] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    before = _status()
    r = subprocess.run([sys.executable, os.path.join("scripts", script), *args], cwd=ROOT,
                       env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-3000:]
    assert _status() == before, "the script changed the repository"
    return r.stdout


def _check_outputs(out, script, args, files):
    """The files a script must write, non-empty, and its run.json with its command."""
    for name in files:
        path = out / name
        assert path.exists(), name
        if name.endswith(".csv"):
            assert len(pd.read_csv(path)) > 0, name
        else:
            assert path.stat().st_size > 1000, name
    rec = json.loads((out / "run.json").read_text())
    assert rec["command"] == " ".join(["python3", f"scripts/{script}", *args, "--out",
                                       str(out)])
    assert rec["quick"] == ("--quick" in args) and rec["seconds"] >= 0


@pytest.mark.parametrize("script, args, files", CASES, ids=[getattr(c, "values", c)[0] for c in CASES])
def test_script_runs_in_its_tiny_mode(tmp_path, script, args, files):
    out = tmp_path / "out"
    _run(script, [*args, "--out", str(out)])
    _check_outputs(out, script, args, files)


@pytest.mark.parametrize("script, args, line", OTHERS)
def test_script_without_a_folder_runs(script, args, line):
    assert line in _run(script, args)


def test_reproduce_lists_its_plan():
    text = _run("reproduce.py", ["--list"])
    assert "reproduce: 25 step(s) into results/" in text
    assert "solver-bench     -> results/bench_solver/" in text


def test_main_then_the_headline_study_resumes_it(tmp_path):
    """One study run, then a resumed one (each was a test of its own, the same tiny study
    played four times; here twice):

    - scripts/main.py (the Quick start's main job) plays the headline study, writes its
      figures and records its own command in run.json;
    - studies/headline.py on the same folder (its tiny mode) then plays nothing: it says
      the results were read and how many chunks, not a rate of games per second;
      run.json counts the games; and it writes every file of the study again (the
      figures main.py drew are removed first, so they must be its own)."""
    import fastsweep

    script, args, files = HEADLINE
    out = tmp_path / "h"
    first = _run("main.py", [*args, "--out", str(out)])
    assert f"wrote {out}/fig_score.png" in first
    assert " played in " in first and "none played" not in first
    rec = json.load(open(out / "run.json"))
    assert rec["command"] == f"python3 scripts/main.py --quick --quiet --workers 1 --out {out}"
    for name in files + ["run.json"]:
        if not name.endswith(".csv"):
            (out / name).unlink()
    again = _run(script, [*args, "--out", str(out)])
    _check_outputs(out, script, args, files)
    n = sum(1 for _ in open(out / "chunks.jsonl"))
    games = int(fastsweep.load(str(out)).summary.games.sum())
    assert f"{games:,} games in the summary, read from {out} ({n:,} chunks; none played)" \
        in again
    rec = json.load(open(out / "run.json"))
    assert rec["games"] == games and rec["chunks_played"] == 0


def test_the_tutorial_runs_in_order(tmp_path):
    """docs/pages/tutorial.md's blocks, run in order in one folder as a reader runs them
    (scripts/studies/tutorial.py): each succeeds, the agent the page writes plays, and the
    figures it shows are made."""
    script, args, files = TUTORIAL
    r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", script), *args, "--out",
                        str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                       timeout=900)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-3000:]
    for f in files:
        assert (tmp_path / f).exists(), f
    steps = json.loads((tmp_path / "outputs.json").read_text())["steps"]
    assert len(steps) == 5
    assert "agent my_agent.py:Neighbourly" in steps[1]["output"]
    assert "my_agent.py:Neighbourly probability" in steps[3]["output"]
    assert "exponents of time per game" in steps[4]["output"]

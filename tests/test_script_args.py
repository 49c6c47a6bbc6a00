"""The scripts' shared command line and provenance (fastsweep.studies.script_args), and
the layout of scripts/: every study and benchmark script uses the shared options, has a
tiny-mode run in tests/test_scripts.py and a step in scripts/reproduce.py, and no file
reaches another through sys.path."""
import ast
import glob
import json
import os

import pytest

from fastsweep.studies import script_args

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPTS = os.path.join(ROOT, "scripts")


def _rel(paths):
    return sorted(os.path.relpath(p, SCRIPTS) for p in paths)


def test_the_default_folder_is_under_out_and_quick_has_its_own(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ap = script_args.parser("study", "A study.\n\nMore.", seed=7)
    a = script_args.parse(ap, [])
    assert a.out == os.path.join("out", "study") and a.seed == 7 and not a.quick
    assert a.workers == (os.cpu_count() or 1)
    a = script_args.parse(ap, ["--quick", "--workers", "1"])
    assert a.out == os.path.join("out", "study-quick") and a.quick and a.workers == 1
    assert sorted(os.listdir(tmp_path / "out")) == ["study", "study-quick"]
    with pytest.raises(SystemExit):
        script_args.parse(ap, ["--workers", "0"])


def test_run_json_records_the_command_and_the_run(tmp_path):
    ap = script_args.parser("study", "A study.", workers=False)
    a = script_args.parse(ap, ["--out", str(tmp_path), "--quick"])
    path = script_args.write_run(a, games=12)
    rec = json.load(open(path))
    assert rec["command"].endswith(f"--out {tmp_path} --quick")
    assert rec["command"].startswith("python3 ")
    assert rec["script"] == "study" and rec["quick"] is True and rec["games"] == 12
    for k in ("date", "machine", "python", "numba", "numpy", "seconds", "git_commit"):
        assert k in rec
    if os.path.exists(os.path.join(ROOT, ".git")):
        assert len(rec["git_commit"]) == 40 and isinstance(rec["git_changes"], bool)


def _study_and_bench_scripts():
    found = glob.glob(os.path.join(SCRIPTS, "studies", "*.py"))
    found += glob.glob(os.path.join(SCRIPTS, "bench", "*.py"))
    # the README renderers are not run by a user: reproduce.py and tests/test_readme.py
    return [p for p in found if not os.path.basename(p).startswith("readme_")]


def test_only_the_quick_start_entry_points_are_at_the_top():
    assert _rel(glob.glob(os.path.join(SCRIPTS, "*.py"))) == [
        "_bootstrap.py", "bench_ab.py", "docs.py", "main.py", "reproduce.py", "test.py"]


@pytest.mark.parametrize("path", _rel(_study_and_bench_scripts()))
def test_every_study_and_benchmark_uses_the_shared_options(path):
    with open(os.path.join(SCRIPTS, path)) as f:
        text = f.read()
    assert ("from fastsweep.studies.script_args import" in text
            or "from fastsweep.studies.cells import study_main" in text)  # (it uses them)
    assert text.startswith('"""'), "a short header docstring"
    assert len(text.splitlines()) <= 400


def test_every_study_and_benchmark_has_a_tiny_run_in_the_tests():
    import test_scripts

    others = [getattr(c, "values", c) for c in test_scripts.OTHERS]  # (pytest.param too)
    cases = [getattr(c, "values", c) for c in test_scripts.CASES]
    tested = {c[0] for c in cases} | {c[0] for c in others}
    # (studies/headline.py's tiny mode runs in test_main_then_the_headline_study_resumes_it)
    assert callable(test_scripts.test_main_then_the_headline_study_resumes_it)
    tested.add(test_scripts.HEADLINE[0])
    assert callable(test_scripts.test_the_tutorial_runs_in_order)
    tested.add(test_scripts.TUTORIAL[0])
    assert set(_rel(_study_and_bench_scripts())) | {"bench_ab.py"} <= tested


def _steps():
    with open(os.path.join(SCRIPTS, "reproduce.py")) as f:
        tree = ast.parse(f.read())
    node = next(n for n in tree.body if isinstance(n, ast.Assign)
                and getattr(n.targets[0], "id", None) == "STEPS")
    return ast.literal_eval(node.value)


def test_reproduce_has_a_step_for_every_committed_result():
    steps = _steps()
    for name, (script, _, _, folder, _) in steps.items():
        assert os.path.exists(os.path.join(SCRIPTS, script)), name
        assert os.path.isdir(os.path.join(ROOT, "results", folder)), name
    writers = {s for s, *_ in steps.values()}
    # every script that writes results has a step (figure scripts: their study draws them;
    # perf_map writes only /tmp/perf-<pid>.map, total_split only prints)
    makers = {p for p in _rel(_study_and_bench_scripts())
              if not p.endswith("_figures.py")
              and p not in ("bench/perf_map.py", "bench/total_split.py")}
    assert makers == writers
    folders = {f for *_, f, _ in steps.values()}
    committed = {d for d in os.listdir(os.path.join(ROOT, "results"))
                 if os.path.isdir(os.path.join(ROOT, "results", d))}
    assert committed == folders


def test_no_file_reaches_another_through_sys_path():
    """Scripts import the package (or a module of their own folder, which Python puts on
    the path itself); tests run scripts as subprocesses and import no script. bench_ab.py
    alone puts paths on sys.path: the old revision it extracts, and this checkout's
    package (whichever one .venv installed)."""
    offenders = []
    for path in glob.glob(os.path.join(SCRIPTS, "**", "*.py"), recursive=True):
        with open(path) as f:
            if "sys.path" in f.read() and not path.endswith("bench_ab.py"):
                offenders.append(os.path.relpath(path, ROOT))
    for path in glob.glob(os.path.join(ROOT, "tests", "*.py")):
        with open(path) as f:
            text = f.read()
        if (("sys.path" in text or "spec_from_file_location" in text) and '"scripts"' in text
                and not path.endswith("test_script_args.py")):
            offenders.append(os.path.relpath(path, ROOT))
    assert offenders == []


def test_a_scripts_seed_is_checked_as_the_librarys(capsys):
    from fastsweep.studies.script_args import parse, parser

    ap = parser("demo", "A demo.", out=False, workers=False, seed=3)
    with pytest.raises(SystemExit):
        parse(ap, ["--seed", "-1"])
    assert "--seed: must be an integer in [0, 2**64 - 1], got -1" in capsys.readouterr().err
    assert parse(ap, ["--seed", str(2**64 - 1)]).seed == 2**64 - 1

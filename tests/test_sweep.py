"""The sweep driver: determinism across workers and backends, resume, adaptive precision,
paired differences on matching games, worker faults and bad input."""
import importlib
import json
import math
import os
import socket

import numpy as np
import pytest

import fastsweep
from fastsweep import stats
from fastsweep.cli import main as cli
from fastsweep.runner import run

SW = importlib.import_module("fastsweep.sweep")  # fastsweep.sweep is the function

# small but not trivial: several chunks per board, a partial last chunk, two boards
GRID = dict(agents=["basic"], sizes=[8, (6, 9)], densities=[0.15, 0.35], games=110,
            chunk_games=25, seed=7, quiet=True)


def _core(r):
    """Summaries without the wall-clock column: everything that must be reproducible."""
    return r.summary.drop(columns=list(SW.TIMING_COLUMNS)), r.pairs


def _same(r1, r2):
    s1, p1 = _core(r1)
    s2, p2 = _core(r2)
    assert s1.equals(s2)
    assert p1.equals(p2)


@pytest.fixture(scope="module")
def base():
    return SW.sweep(workers=1, **GRID)


def test_summary_shape_and_counts(base):
    s = base.summary
    assert len(s) == 2 * 2 * 2  # sizes x densities x mine_count
    assert (s.games == 110).all()
    # the CI method is stated once (params.json), not on every row
    assert "ci_method" not in s.columns and "ci_method" not in base.pairs.columns
    assert "Clopper-Pearson" in base.ci_method and base.params["ci_method"] == base.ci_method
    assert len(base.pairs) == 4  # one pair (mc False vs True) per board
    assert np.isfinite(s[["mean_score", "ci_low", "ci_high", "win_low", "win_high"]]).all().all()


def test_one_vs_two_workers_identical(base):
    _same(base, SW.sweep(workers=2, **GRID))


@pytest.mark.slow
def test_dask_local_cluster_identical(base):
    pytest.importorskip("dask.distributed")
    _same(base, SW.sweep(workers=2, backend="dask", **GRID))


def test_matches_runner_games_and_pairs_on_matching_games(tmp_path):
    """Summary means and paired differences equal those computed from fastsweep.run's own
    per-game rows (game i of the sweep is game i of run with the same seed)."""
    agents = list(fastsweep.AGENTS)[:3]
    r = SW.sweep(agents, 9, densities=[0.2, 0.4], games=60, chunk_games=16, seed=3,
                 workers=1, out=str(tmp_path / "o"), per_game=True, quiet=True)
    for b, d in enumerate([0.2, 0.4]):
        runs = {(a, mc): run(a, 9, density=d, games=60, seed=3, mine_count=mc)
                for a in agents for mc in (False, True)}
        for (a, mc), df in runs.items():
            row = r.summary[(r.summary.board == b) & (r.summary.agent == a)
                            & (r.summary.mine_count == mc)].iloc[0]
            assert row.mean_score == pytest.approx(df.score.mean(), abs=1e-12)
            assert row.std_score == pytest.approx(df.score.std(ddof=1), abs=1e-12)
            assert row.win_rate == df.won.mean()
            assert row.mean_guesses == df.guesses.mean()
        for _, p in r.pairs[r.pairs.board == b].iterrows():
            da = runs[(p.agent_a, p.mine_count_a)].score.to_numpy()
            db = runs[(p.agent_b, p.mine_count_b)].score.to_numpy()
            d_ = db - da  # B minus A, game by game
            assert p.games == 60
            assert p.mean_diff == pytest.approx(d_.mean(), abs=1e-12)
            assert p.std_diff == pytest.approx(d_.std(ddof=1), abs=1e-12)
            # pairing can only help when the two agents' scores are positively correlated
            if np.corrcoef(da, db)[0, 1] > 0.3:
                # (on the normal scale: the reported interval of 60 games, few of them
                # differing, is Gaffke's, wider by design: tests/test_sweep_intervals.py)
                assert stats.half_width(p.games, p.std_diff) < p.unpaired_half
            assert p.ci_low <= p.mean_diff <= p.ci_high
            assert p.ci_half == pytest.approx(stats.sample_ci(d_, -1, 1, about=0).half)
    # the per-game files hold the same games as run(), seconds aside
    import pandas as pd

    pg = pd.concat(pd.read_csv(tmp_path / "o" / "per_game" / f)
                   for f in sorted(os.listdir(tmp_path / "o" / "per_game")))
    one = pg[(pg.agent == agents[0]) & (pg.mine_count == False) & (pg.mines == 16)]  # noqa: E712
    ref = run(agents[0], 9, density=0.2, games=60, seed=3)
    assert one.sort_values("game").score.to_numpy() == pytest.approx(ref.score.to_numpy())


def test_adaptive_precision_stops_at_the_half_width():
    ci, c, lo = 0.01, 20, 60
    r = SW.sweep(["basic"], 10, densities=[0.1, 0.3, 0.5], mine_count=[False], ci=ci,
                 min_games=lo, max_games=5000, chunk_games=c, seed=1, workers=2, quiet=True)
    assert not r.summary.hit_cap.any()
    for _, row in r.summary.iterrows():
        assert row.ci_half <= ci and row.games >= lo
        # one chunk fewer would not have met the rule: the driver stops at the first chunk
        df = run("basic", 10, density=row.density, games=int(row.games), seed=1)
        prev = df.score.to_numpy()[:int(row.games) - c]
        if prev.size >= lo:  # (the rule judges the interval the summary reports)
            assert stats.sample_ci(prev, 0, 1).half > ci
        assert stats.sample_ci(df.score.to_numpy(), 0, 1).half == pytest.approx(row.ci_half)
    # and the same with one worker: speculation never changes which chunks count
    r1 = SW.sweep(["basic"], 10, densities=[0.1, 0.3, 0.5], mine_count=[False], ci=ci,
                  min_games=lo, max_games=5000, chunk_games=c, seed=1, workers=1, quiet=True)
    _same(r, r1)


def test_adaptive_precision_reports_the_cap():
    r = SW.sweep(["basic"], 10, densities=[0.4], mine_count=[False], ci=1e-6, min_games=20,
                 max_games=70, chunk_games=30, workers=1, quiet=True)
    assert r.summary.hit_cap.all() and (r.summary.games == 70).all()


@pytest.mark.parametrize("mode", [dict(games=110), dict(ci=0.02, min_games=40, max_games=400)])
def test_resume_after_interruption_equals_uninterrupted(tmp_path, monkeypatch, mode):
    grid = dict(GRID, **mode)
    if "ci" in mode:
        grid.pop("games")
    whole = SW.sweep(workers=1, out=str(tmp_path / "whole"), **grid)
    real, calls = SW.run.execute._append, []

    def interrupt_after_two(store, results):
        real(store, results)  # the batch is on disk, then Ctrl-C arrives
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(SW.run.execute, "_append", interrupt_after_two)
    out = tmp_path / "cut"
    with pytest.raises(KeyboardInterrupt):
        SW.sweep(workers=1, out=str(out), **grid)
    monkeypatch.setattr(SW.run.execute, "_append", real)
    kept = (out / "chunks.jsonl").read_text().splitlines()
    assert kept and not (out / "summary.csv").exists()
    # a crash mid-write leaves a torn last line: it is dropped, not mixed in
    with open(out / "chunks.jsonl", "a") as f:
        f.write('{"b": 0, "k": 3, "first"')
    resumed = SW.sweep(workers=2, out=str(out), **grid)
    _same(whole, resumed)
    lines = [json.loads(x) for x in (out / "chunks.jsonl").read_text().splitlines()]
    keys = [(x["key"], x["k"]) for x in lines]
    assert len(keys) == len(set(keys))  # finished chunks were skipped, not replayed
    assert [json.loads(x) for x in kept] == lines[:len(kept)]
    _same(whole, SW.load(str(out)))


def test_worker_error_names_configuration_and_chunk(tmp_path, monkeypatch):
    real = SW.run.execute._play

    def broken(cfg, seed, first, games):
        if first == 25 and cfg.mines == 10:  # chunk 1 of the 8x8, density 0.15 board
            raise FloatingPointError("boom")
        return real(cfg, seed, first, games)

    monkeypatch.setattr(SW.run.execute, "_play", broken)  # forked workers inherit the patch
    out = tmp_path / "o"
    with pytest.raises(SW.SweepWorkerError, match=r"agent=basic.*size=8x8.*mines=10.*chunk 1 "
                                                   r"\(games 25\.\.49.*boom"):
        SW.sweep(workers=2, out=str(out), **GRID)
    kept = (out / "chunks.jsonl").read_text().splitlines()
    assert kept  # other finished chunks are kept
    monkeypatch.setattr(SW.run.execute, "_play", real)
    _same(SW.sweep(workers=1, **GRID), SW.sweep(workers=1, out=str(out), **GRID))


BAD = [
    (dict(agents=["nosuch"]), r"agents: unknown agent 'nosuch'; known agents: basic"),
    (dict(agents=[]), r"agents: empty"),
    (dict(sizes=[]), r"sizes: empty"),
    (dict(densities=[]), r"densities: empty"),
    (dict(densities=[0.2, 1.5]), r"density: must be in \[0, 1\]"),
    (dict(densities=None, mines=[10, 65]), r"mines: must be between 0 and 64"),
    (dict(densities=None), r"give exactly one of densities"),
    (dict(games=None, ci=0), r"ci: must be a number in \[1e-6, 1\]"),
    (dict(games=None, ci=-0.1), r"ci: must be"),
    (dict(ci=0.01), r"give exactly one of games=N"),
    (dict(games=None), r"give exactly one of games=N"),
    (dict(workers=0), r"workers: must be an integer in \[1, "),
    (dict(backend="mpi"), r"backend: unknown backend 'mpi'; allowed: process, dask"),
    (dict(games=0), r"games: must be an integer in \[1, 10,000,000\]"),
    (dict(scheduler="tcp://127.0.0.1:1"), r"scheduler: only used with backend='dask'"),
]


@pytest.mark.parametrize("kw,msg", BAD)
def test_bad_input_clear_error_and_nothing_written(tmp_path, kw, msg):
    args = dict(agents=["basic"], sizes=[8], densities=[0.2], games=10, quiet=True,
                out=str(tmp_path / "o"))
    args.update(kw)
    with pytest.raises(ValueError, match=msg):
        SW.sweep(**args)
    assert not (tmp_path / "o").exists()


def test_unreachable_scheduler(tmp_path):
    pytest.importorskip("dask.distributed")
    with socket.socket() as s:  # a port that was free a moment ago: nothing listens
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(ValueError, match=rf"scheduler: cannot reach .*127.0.0.1:{port}"):
        SW.sweep(["basic"], 8, densities=[0.2], games=10, backend="dask",
                 scheduler=f"tcp://127.0.0.1:{port}", timeout=1, out=str(tmp_path / "o"),
                 quiet=True)
    assert not (tmp_path / "o").exists()


def test_existing_folder_with_a_different_grid_is_refused(tmp_path):
    """Growing is allowed (tests/test_sweep_grow.py); dropping part of the grid or a
    non-sweep folder is refused before anything is written."""
    out = tmp_path / "o"
    SW.sweep(["basic"], 8, densities=[0.2, 0.3], games=30, workers=1, out=str(out), quiet=True)
    before = {f: (out / f).read_bytes() for f in os.listdir(out)}
    with pytest.raises(ValueError, match=r"holds densities 0.3 that this run lacks"):
        SW.sweep(["basic"], 8, densities=[0.2], games=30, workers=1, out=str(out), quiet=True)
    with pytest.raises(ValueError, match=r"different parameters \(seed\)"):
        SW.sweep(["basic"], 8, densities=[0.2, 0.3], games=30, workers=1, out=str(out),
                 quiet=True, seed=1)
    assert {f: (out / f).read_bytes() for f in os.listdir(out)} == before
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="not empty and has no params.json"):
        SW.sweep(["basic"], 8, densities=[0.2], games=30, out=str(tmp_path / "other"))
    assert os.listdir(tmp_path / "other") == ["notes.txt"]


def test_backend_that_fails_to_start_leaves_no_folder(tmp_path, monkeypatch):
    def broken(*a):
        raise ValueError("backend: the local Dask workers exited: boom")

    monkeypatch.setattr(SW.run.execute, "_backend", broken)
    out = tmp_path / "o"
    with pytest.raises(ValueError, match="boom"):
        SW.sweep(["basic"], 8, densities=[0.2], games=30, out=str(out), quiet=True)
    assert not out.exists()
    monkeypatch.undo()
    SW.sweep(["basic"], 8, densities=[0.2], games=30, workers=1, out=str(out), quiet=True)
    before = {f: (out / f).read_bytes() for f in os.listdir(out)}
    monkeypatch.setattr(SW.run.execute, "_backend", broken)
    with pytest.raises(ValueError, match="boom"):  # growing: the folder stays as it was
        SW.sweep(["basic"], 8, densities=[0.2], games=60, out=str(out), quiet=True)
    assert {f: (out / f).read_bytes() for f in os.listdir(out)} == before


NO_GUARD = """
import json, sys
import fastsweep
r = fastsweep.sweep(["basic"], [8, 7], densities=[0.15, 0.35], games=110, chunk_games=25,
                    seed=7, workers=2, backend="dask", out="o", quiet=True)
print(json.dumps(r.summary.drop(columns=["us_per_game"]).to_dict("list")))
"""


@pytest.mark.slow
def test_dask_from_a_script_without_main_guard(tmp_path, base):
    """Dask's LocalCluster spawns workers that re-run an unguarded __main__; the local
    cluster's workers are plain subprocesses, so such a script works, in parallel (two
    worker processes) and with the numbers of the in-process run."""
    pytest.importorskip("dask.distributed")
    import subprocess
    import sys

    (tmp_path / "script.py").write_text(NO_GUARD)
    root = os.path.dirname(os.path.dirname(os.path.abspath(fastsweep.__file__)))
    env = dict(os.environ, PYTHONPATH=root)
    p = subprocess.run([sys.executable, "script.py"], cwd=tmp_path, env=env, text=True,
                       capture_output=True, timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    assert "Traceback" not in p.stderr and "Nanny" not in p.stderr
    got = json.loads(p.stdout.strip().splitlines()[-1])
    ref = SW.sweep(["basic"], [8, 7], densities=[0.15, 0.35], games=110, chunk_games=25,
                   seed=7, workers=1, quiet=True).summary.drop(columns=["us_per_game"])
    assert got == json.loads(json.dumps(ref.to_dict("list")))
    assert sorted(os.listdir(tmp_path / "o")) == ["chunks.jsonl", "pairs.csv", "params.json",
                                                  "summary.csv"]


@pytest.mark.slow
def test_dask_local_workers_are_separate_processes_and_their_death_is_an_error():
    pytest.importorskip("dask.distributed")
    import signal
    import time

    ex = SW.run.backends.Dask(2, None, ["basic"], 10, SW.warm_up)
    try:
        pids = ex.client.run(os.getpid)
        assert len(set(pids.values())) == 2 and os.getpid() not in pids.values()
        assert ex.nworkers == 2
        f = ex.submit(time.sleep, 120)
        for pid in pids.values():  # nothing restarts them: waiting must not hang
            os.kill(pid, signal.SIGKILL)
        with pytest.raises(RuntimeError, match="a local Dask worker exited: exit code -9"):
            ex.wait([f])
    finally:
        ex.close()
    for pid in pids.values():  # reaped: no zombie or orphan left behind
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


@pytest.mark.slow
def test_dask_workers_that_cannot_start_are_one_line_and_leave_no_folder(tmp_path,
                                                                        monkeypatch):
    pytest.importorskip("dask.distributed")
    import sys

    monkeypatch.setattr(sys, "executable", "/bin/false")  # what the workers are started with
    out = tmp_path / "o"
    with pytest.raises(ValueError, match=r"^backend: the local Dask workers exited: exit code 1"):
        SW.sweep(["basic"], 8, densities=[0.2], games=30, workers=2, backend="dask",
                 out=str(out), quiet=True)
    assert not out.exists()


def test_plain_progress_lines_without_a_terminal(capsys, monkeypatch):
    """stderr is not a terminal under pytest's capture: a plain line every INTERVAL
    seconds (0 here: after every finished batch), a start and an end line."""
    monkeypatch.setattr(SW.run.progress, "INTERVAL", 0.0)
    SW.sweep(workers=1, **dict(GRID, quiet=False))
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("sweep: 8 points, 880 games planned so far")
    mids = [x for x in err[1:-1] if " elapsed" in x]
    assert mids and all(x.startswith("sweep: ") and "points done" in x for x in mids)
    # a line due before any game finished (the driver's wait timed out) has no estimate
    # of the time left; every line after the first finished chunk has one
    started = [x for x in mids if not x.split(", ")[1].startswith("0/")]
    assert started and all("remaining" in x and "/880 games" in x for x in started)
    assert all("remaining" not in x for x in mids if x not in started)
    assert err[-1].startswith("sweep: 8/8 points done, 880 games played in ")
    SW.sweep(workers=1, **GRID)  # quiet: nothing
    assert capsys.readouterr().err == ""


def test_progress_lines_follow_the_clock():
    import io

    t, out = [0.0], io.StringIO()
    p = SW.run.progress.Progress(1000, 0, 10, lambda: 3, stream=out, clock=lambda: t[0],
                                 interval=20)
    for now in (5, 15, 21, 30, 41, 62):
        t[0] = float(now)
        p.update(100)
    lines = out.getvalue().splitlines()[1:]
    # lines at 21 s (300 games), 41 s (500) and 62 s (600): at least 20 s apart
    assert [x.split(", ")[1] for x in lines] == ["300/1,000 games", "500/1,000 games",
                                                  "600/1,000 games"]
    assert lines[0] == ("sweep: 3/10 points done, 300/1,000 games, 0:21 elapsed, about "
                        "0:49 remaining")
    p.add_total(500)
    t[0] = 3725.0
    p.update(0)
    assert out.getvalue().splitlines()[-1].endswith("1:02:05 elapsed, about 1:33:08 remaining")


def test_finished_folder_reruns_without_playing(tmp_path, monkeypatch):
    out = str(tmp_path / "o")
    first = SW.sweep(workers=1, out=out, **GRID)

    def no_play(*a):
        raise AssertionError("a finished sweep must not play again")

    monkeypatch.setattr(SW.run.execute, "_play", no_play)
    again = SW.sweep(workers=1, out=out, **GRID)
    assert first.summary.equals(again.summary)  # timing too: it is read back, not re-measured


def test_parse_range_and_mine_count_spec():
    assert SW.parse_range("0.05:0.95:0.05")[-1] == 0.95
    assert len(SW.parse_range("0.05:0.95:0.05")) == 19
    assert SW.parse_range("0.1,0.3") == [0.1, 0.3]
    with pytest.raises(ValueError, match="density"):
        SW.parse_range("0.5:0.1:0.1")
    r = SW.sweep(["basic"], 8, densities=[0.2], games=20, mine_count={"basic": [True]},
                 workers=1, quiet=True)
    assert r.summary.mine_count.tolist() == [True]


def test_cli_sweep_and_errors(tmp_path, capsys):
    out = str(tmp_path / "o")
    assert cli.main(["sweep", "--agents", "basic", "--size", "8", "--density", "0.1:0.3:0.1",
                     "--games", "40", "--workers", "1", "--quiet", "--out", out]) == 0
    text = capsys.readouterr().out
    assert "Clopper-Pearson" in text and "summary.csv" in text
    import pandas as pd

    assert len(pd.read_csv(os.path.join(out, "summary.csv"))) == 6
    for argv, msg in [
        (["--agents", "nosuch"], "known agents: basic"),
        (["--workers", "0"], "workers: must be an integer in [1, "),
        (["--mine-count", "maybe"], "--mine-count: expected both, yes, no"),
    ]:
        with pytest.raises(SystemExit) as e:
            cli.main(["sweep", "--size", "8", "--density", "0.2", "--games", "5",
                      "--quiet"] + argv)
        assert e.value.code == 2
        err = capsys.readouterr().err
        assert msg in err and err.count("\n") == 1


def test_cli_worker_failure_is_one_line(tmp_path, capsys, monkeypatch):
    def broken(cfg, seed, first, games):
        raise FloatingPointError("boom")

    monkeypatch.setattr(SW.run.execute, "_play", broken)
    with pytest.raises(SystemExit) as e:
        cli.main(["sweep", "--size", "8", "--density", "0.2", "--games", "30", "--workers", "1",
                  "--quiet", "--out", str(tmp_path / "o")])
    assert e.value.code == 1
    err = capsys.readouterr().err
    assert err.startswith("fastsweep: error: configuration agent=basic") and "boom" in err
    assert err.count("\n") == 1 and "chunks recorded before the failure are kept in" in err


def test_a_board_without_timing_is_played_one_chunk_a_batch(monkeypatch):
    """Until a board has a timed chunk, its batches hold one chunk (the first guess of a
    game's cost can be far too low, and a batch is recorded only when it returns); then
    chunks are batched again (in a pool: workers=1 plays one chunk a batch). Watching the batches changes no result."""
    from fastsweep.sweep.run import backends

    real = backends.Pool.submit
    calls = []

    def spy(self, fn, tasks, *args):  # (in this process: the pool's workers play them)
        calls.append([t[0] for t in tasks])
        return real(self, fn, tasks, *args)

    kw = dict(agents=["basic"], sizes=[8, 9], densities=[0.15], mine_count=[False],
              games=200, chunk_games=5, seed=3, workers=2, quiet=True)
    monkeypatch.setattr(backends.Pool, "submit", spy)
    batched = fastsweep.sweep(**kw)
    first = {}
    for i, boards in enumerate(calls):
        for b in boards:
            first.setdefault(b, i)
    assert sorted(first) == [0, 1]
    assert all(len(calls[i]) == 1 for i in first.values())  # each board's first: alone
    assert max(len(c) for c in calls) > 1  # later chunks are batched
    monkeypatch.setattr(backends.Pool, "submit", real)
    assert batched.summary.drop(columns=["us_per_game"]).equals(
        fastsweep.sweep(**kw).summary.drop(columns=["us_per_game"]))
    # in this process (workers=1) every batch is one chunk, recorded as it finishes
    inline, sizes = backends.Inline.submit, []
    monkeypatch.setattr(backends.Inline, "submit",
                        lambda self, fn, tasks, *a: sizes.append(len(tasks)) or inline(self, fn, tasks, *a))
    fastsweep.sweep(**{**kw, "workers": 1})
    assert sizes and set(sizes) == {1}

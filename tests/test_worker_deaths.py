"""An agent that exits or crashes a sweep's worker: the sweep fails with one message naming
the member, board and game, never silently and never blaming another member."""
import ctypes
import os
import sys

import pytest

import fastsweep
from fastsweep.sweep.run.execute import SweepWorkerError

FATAL_GAME = 13


class _Hidden:
    """Reveals the first hidden cell in reading order; misbehaves in game FATAL_GAME."""

    def __init__(self, how):
        self.how = how
        self.name = f"dies_by_{how}"
        self.game = None

    def reset(self, info):
        self.game = info.game

    def act(self, obs):
        if self.game == FATAL_GAME and obs.move >= 2:
            if self.how == "sys_exit":
                sys.exit(4)
            if self.how == "os_exit":
                os._exit(3)
            if self.how == "segfault":
                ctypes.string_at(0)  # reads address 0: SIGSEGV
        rows, cols = (obs.view == -1).nonzero()
        return int(rows[0]), int(cols[0])


def _sweep(tmp_path, agent, workers):
    return fastsweep.sweep(agents=["basic", agent], sizes=6, densities=[0.15], games=40,
                           chunk_games=20, workers=workers, out=str(tmp_path / "s"), quiet=True)


@pytest.mark.parametrize("workers", [1, 2])
def test_sys_exit_in_an_agent_is_its_failure_named_with_the_game(tmp_path, workers):
    with pytest.raises(SweepWorkerError) as e:
        _sweep(tmp_path, _Hidden("sys_exit"), workers)
    msg = str(e.value)
    assert "agent=dies_by_sys_exit" in msg and "agent=basic" not in msg, msg
    assert f"game {FATAL_GAME}" in msg and "SystemExit" in msg and "size=6x6" in msg, msg
    assert "chunks recorded before the failure are kept" in msg, msg


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the replay forks (Linux)")
@pytest.mark.parametrize("how, said", [("os_exit", "exited with status 3 without a Python error"),
                                       ("segfault", "killed by SIGSEGV")])
def test_a_dead_worker_names_the_member_and_game_that_killed_it(tmp_path, how, said):
    with pytest.raises(SweepWorkerError) as e:
        _sweep(tmp_path, _Hidden(how), 2)
    msg = str(e.value)
    assert f"agent=dies_by_{how}" in msg and "agent=basic" not in msg, msg
    assert f"game {FATAL_GAME} (chunk 0, seed" in msg and said in msg, msg
    assert "size=6x6" in msg, msg
    # the chunk records the pool finished before it broke are kept and resume
    assert os.path.exists(tmp_path / "s" / "params.json")


def test_a_death_that_does_not_replay_says_so():
    """A worker killed from outside: the replay finds no fatal game and says what it tried."""
    from concurrent.futures.process import BrokenProcessPool

    from fastsweep.options import make_config
    from fastsweep.sweep.run.postmortem import explain

    cfg = make_config("basic", (6, 6), mines=5)
    msg = explain([(0, "k", 1, 20, 20, [("basic", cfg, False)])], None, 0,
                  BrokenProcessPool("a child process terminated abruptly"))
    assert msg.startswith("a worker process died without a Python error (BrokenProcessPool"), msg
    assert "chunk 1 (games 20..39) of agent=basic" in msg, msg
    if sys.platform.startswith("linux"):
        assert "did not die again" in msg, msg


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the replay forks (Linux)")
def test_one_worker_keeps_every_finished_chunk_when_an_agent_ends_the_process(tmp_path):
    """workers=1 plays in this process, so an agent calling os._exit ends it; the chunks
    finished before are on disk (each chunk is recorded as it finishes)."""
    import subprocess
    import textwrap

    (tmp_path / "dies.py").write_text(textwrap.dedent(f"""
        import os, sys
        sys.path.insert(0, {os.path.dirname(__file__)!r})
        import fastsweep
        from test_worker_deaths import _Hidden
        fastsweep.sweep(agents=[_Hidden("os_exit"), "basic"], sizes=6, densities=[0.15],
                        games=40, chunk_games=10, workers=1, out={str(tmp_path / 's')!r},
                        quiet=True)
        """))
    r = subprocess.run([sys.executable, str(tmp_path / "dies.py")], capture_output=True,
                       text=True, cwd=os.getcwd())
    assert r.returncode == 3, r.stderr[-2000:]
    with open(tmp_path / "s" / "chunks.jsonl") as f:
        kept = [line for line in f if line.strip()]
    assert len(kept) == FATAL_GAME // 10, kept  # chunk 0 (games 0..9); game 13 is in chunk 1


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the probe forks (Linux)")
@pytest.mark.parametrize("how, said", [("os_exit", "exited with status 3"),
                                       ("segfault", "killed by SIGSEGV")])
def test_check_agent_reports_an_agent_that_kills_the_process(how, said):
    report = fastsweep.check_agent(_Hidden(how), games=FATAL_GAME + 2, workers=False,
                                   raise_on_failure=False)
    assert not report.passed
    assert len(report.failures) == 1, report.failures
    msg = report.failures[0]
    assert f"agent 'dies_by_{how}', game {FATAL_GAME}: the process {said}" in msg, msg

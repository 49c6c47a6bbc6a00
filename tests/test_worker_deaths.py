"""An agent that exits or crashes a sweep's worker: the sweep fails with one message naming
the member, board and game, never silently and never blaming another member."""
import ctypes
import os
import sys

import pytest

import fastsweep
from fastsweep.sweep.execute import SweepWorkerError

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
    assert "finished chunks are kept" in msg, msg


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
    from fastsweep.sweep.postmortem import explain

    cfg = make_config("basic", (6, 6), mines=5)
    msg = explain([(0, "k", 1, 20, 20, [("basic", cfg, False)])], None, 0,
                  BrokenProcessPool("a child process terminated abruptly"))
    assert msg.startswith("a worker process died without a Python error (BrokenProcessPool"), msg
    assert "chunk 1 (games 20..39) of agent=basic" in msg, msg
    if sys.platform.startswith("linux"):
        assert "did not die again" in msg, msg

"""fastsweep.sweep.run.tasks.run_tasks (the study scripts' tasks on the sweep's backends) and
fastsweep.studies.rows.RowFile (their resumable CSVs): the same numbers on any number of
workers, a failing task named, rows put back in the task order."""
import importlib
import os

import pytest

import fastsweep
from fastsweep.studies.rows import RowFile

tasks = importlib.import_module("fastsweep.sweep.run.tasks")  # (fastsweep.sweep: the function)


def _score(agent, density, seed):
    return float(fastsweep.run(agent, 8, density=density, games=20, seed=seed).score.mean())


def _fail(x):
    if x == 2:
        raise ValueError("two")
    return x


TASKS = [("basic", d, s) for d in (0.1, 0.2, 0.3) for s in (1, 2)]


def test_the_numbers_do_not_depend_on_the_workers():
    one = list(tasks.run_tasks(_score, TASKS, workers=1))
    assert [args for args, _ in one] == TASKS  # one worker: in order
    two = dict(tasks.run_tasks(_score, TASKS, workers=2))
    assert two == dict(one)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_failing_task_is_named(workers):
    with pytest.raises(tasks.TaskError, match=r"_fail\(2,\) failed: ValueError: two"):
        list(tasks.run_tasks(_fail, [(1,), (2,), (3,)], workers=workers))


@pytest.mark.parametrize("workers", [0, 1.5, True])
def test_bad_workers(workers):
    with pytest.raises(ValueError, match="workers: must be an integer >= 1"):
        list(tasks.run_tasks(_fail, [(1,)], workers=workers))


def test_rows_resume_and_sort(tmp_path):
    path = str(tmp_path / "t.csv")
    with RowFile(path, ["k", "v"], key=("k",)) as f:
        for k in (3, 1):
            f.add(dict(k=k, v=k * k, extra="left out"))
    # a rerun: the finished keys are known; a new column is not added to an old file
    f = RowFile(path, ["k", "v", "w"], key=("k",))
    assert f.fields == ["k", "v"] and f.done((3,)) and not f.done((2,))
    f.add(dict(k=2, v=4, w=0))
    f.sort([(1,), (2,), (3,)])
    with open(path) as fh:
        assert fh.read().splitlines() == ["k,v", "1,1", "2,4", "3,9"]
    assert os.listdir(tmp_path) == ["t.csv"]

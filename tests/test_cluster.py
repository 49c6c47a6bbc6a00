"""Running on a cluster (docs/pages/guide/cluster.md): a real Dask scheduler and two
workers started from Dask's own command line on loopback, as the how-to starts them on
machines, play a sweep (a user's agent by path included) with the same numbers as the
process backend."""
import json
import os
import subprocess
import sys
import time

import pytest

import fastsweep

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def cluster(tmp_path):
    pytest.importorskip("distributed")
    info = tmp_path / "scheduler.json"
    common = ["--no-dashboard"]
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler",
                               "--host", "127.0.0.1", "--port", "0",
                               "--scheduler-file", str(info), *common],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    try:
        for _ in range(600):
            if info.exists() and info.stat().st_size > 0:
                break
            time.sleep(0.1)
        address = json.loads(info.read_text())["address"]
        for i in range(2):
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "distributed.cli.dask_worker", address,
                 "--nthreads", "1", "--name", f"w{i}", "--host", "127.0.0.1", *common],
                cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        from dask.distributed import Client
        with Client(address, timeout=30) as c:
            c.wait_for_workers(2, timeout=120)
        yield address
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()


def test_a_sweep_on_a_scheduler_and_two_workers_is_the_local_sweep(cluster, tmp_path):
    agent = os.path.join(ROOT, "examples", "basic_python.py") + ":Basic"
    kw = dict(sizes=[6], densities=[0.15, 0.3], games=40, mine_count=[False], quiet=True,
              seed=11)
    d = fastsweep.sweep(["probability", agent], backend="dask", scheduler=cluster,
                        out=str(tmp_path / "d"), **kw)
    p = fastsweep.sweep(["probability", agent], workers=1, **kw)
    cols = ["agent", "density", "games", "mean_score", "ci_low", "ci_high", "win_rate"]
    assert d.summary[cols].equals(p.summary[cols])
    assert d.pairs["mean_diff"].tolist() == p.pairs["mean_diff"].tolist()
    assert (tmp_path / "d" / "summary.csv").exists()

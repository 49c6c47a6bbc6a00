"""A loopback Dask cluster whose workers are plain subprocesses.

``LocalCluster(processes=True)`` starts each worker through a nanny with multiprocessing's
``spawn``, which re-runs the caller's ``__main__`` module in the child: a script that calls
``fastsweep.sweep(..., backend="dask")`` without ``if __name__ == "__main__":`` then
starts a sweep inside every worker and fails ("Nanny failed to start", hundreds of lines).
Here the scheduler runs in this process and each worker is ``python -m
distributed.cli.dask_spec`` (a ``distributed.Worker``, one thread) started with
``subprocess``: nothing of ``__main__`` is imported, the guard is not needed, and the
workers are separate processes (parallel, as before). Results cannot differ: a chunk's
games depend only on its task. Imported only when the Dask backend is used.
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
import tempfile
import time

from distributed import Scheduler
from distributed.deploy.spec import ProcessInterface, SpecCluster

START_TIMEOUT = 120.0  # seconds for every worker to register (2 busy cores: a few s)


class _Worker(ProcessInterface):
    """One worker subprocess (SpecCluster's interface: start, close)."""

    def __init__(self, scheduler, name=None, nworkers=1, log=None):
        super().__init__()
        self.scheduler, self.name, self.nworkers, self.log = scheduler, name, nworkers, log
        self.proc = None

    async def start(self):
        opts = dict(nthreads=1, name=self.name, host="127.0.0.1",
                    memory_limit=1 / self.nworkers,  # a share of the RAM, as LocalCluster
                    death_timeout=60)  # an orphan (parent killed) exits on its own
        # the worker imports this very fastsweep (the parent may have it on sys.path only)
        # (this file is ROOT/fastsweep/sweep/run/dask_local.py)
        root = os.path.abspath(os.path.join(os.path.dirname(__file__), *[os.pardir] * 3))
        env = dict(os.environ, DASK_LOGGING__DISTRIBUTED="error",
                   PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "distributed.cli.dask_spec", self.scheduler,
            "--spec", json.dumps({"cls": "distributed.Worker", "opts": opts}),
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
            stderr=self.log, env=env)
        await super().start()

    def exited(self):
        return self.proc is not None and self.proc.returncode is not None

    async def close(self):
        if self.proc is not None and self.proc.returncode is None:
            self.proc.terminate()  # the worker closes cleanly on SIGTERM
            try:
                await asyncio.wait_for(self.proc.wait(), 5)
            except asyncio.TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        await super().close()


class LocalSubprocessCluster:
    """Scheduler here, ``workers`` worker subprocesses; ``client`` is connected and every
    worker has registered when the constructor returns (or it raised a ValueError)."""

    def __init__(self, workers):
        from dask.distributed import Client

        self.log = tempfile.TemporaryFile()  # workers' stderr: the reason if they fail
        spec = {"cls": _Worker, "options": {"nworkers": workers, "log": self.log}}
        self.cluster = SpecCluster(
            scheduler={"cls": Scheduler, "options": dict(  # its HTTP server on any free port
                host="127.0.0.1", port=0, dashboard=False, dashboard_address="127.0.0.1:0")},
            workers={i: spec for i in range(workers)}, silence_logs=logging.ERROR)
        try:
            self.client = Client(self.cluster)
            self._wait_for(workers)
        except BaseException:
            self.close()
            raise

    def _wait_for(self, n):
        deadline = time.monotonic() + START_TIMEOUT
        while len(self.client.nthreads()) < n:
            if self.exited() or time.monotonic() > deadline:
                why = "exited" if self.exited() else f"did not start within {START_TIMEOUT:g} s"
                raise ValueError(f"backend: the local Dask workers {why}: {self.last_error()}")
            time.sleep(0.1)

    def exited(self):
        """True if a worker process has exited (nothing restarts it)."""
        return any(w.exited() for w in self.cluster.workers.values())

    def last_error(self):
        """The workers' last line on stderr, or their exit codes."""
        self.log.seek(0)
        lines = [x for x in self.log.read().decode(errors="replace").splitlines() if x.strip()]
        codes = [w.proc.returncode for w in self.cluster.workers.values() if w.exited()]
        return lines[-1].strip() if lines else f"exit code {', '.join(map(str, codes))}"

    def close(self):
        client, self.client = getattr(self, "client", None), None
        if client is not None:
            client.close()
        self.cluster.close()
        self.log.close()

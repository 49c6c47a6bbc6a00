"""Where sweep chunks run: in this process (one worker), a local process pool, or a Dask
cluster. Each backend offers submit / wait-for-any / close, nothing else, so the driver
in :mod:`fastsweep.sweep` treats them alike and results cannot depend on the backend.
Imports nothing from the rest of the package.
"""
from __future__ import annotations

import os
import signal
import sys

PR_SET_PDEATHSIG = 1  # linux/prctl.h
# seconds a wait for finished chunks lasts before it returns none, so that the driver's
# progress line keeps its interval while a long chunk runs
WAIT = 5.0


def _worker_init(parent):
    # Ctrl-C reaches the whole process group: only the parent reacts (it records what
    # finished, then stops the workers), so no worker prints a traceback of its own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # the parent's SIGTERM handler (see sweep()) is not the worker's: SIGTERM stops it
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # a worker dies with its parent, even a parent killed by SIGKILL, which runs no
    # clean-up: otherwise the pool's workers live on, holding memory and the pipes
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):  # (no prctl: an unusual libc)
            pass
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(1)


class Inline:
    """workers=1: run in this process (no pickling, no worker start-up)."""

    nworkers = 1

    def submit(self, fn, *args):
        from concurrent.futures import Future

        f = Future()
        try:
            f.set_result(fn(*args))
        except BaseException as e:  # noqa: B036 - Ctrl-C must propagate below
            if isinstance(e, KeyboardInterrupt):
                raise
            f.set_exception(e)
        return f

    def wait(self, fs):
        return set(fs)

    def close(self, cancel=False):
        pass


class Pool:
    """A local process pool (all cores by default)."""

    def __init__(self, workers):
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor

        # fork: workers inherit the compiled kernels (no import or cache load per worker)
        ctx = mp.get_context("fork" if sys.platform.startswith("linux") else "spawn")
        self.ex = ProcessPoolExecutor(max_workers=workers, mp_context=ctx,
                                      initializer=_worker_init, initargs=(os.getpid(),))
        self.nworkers = workers
        self.ex.submit(int, 0).result()  # start the workers now, before any thread exists

    def submit(self, fn, *args):
        return self.ex.submit(fn, *args)

    def wait(self, fs):
        """The futures of ``fs`` done within :data:`WAIT` seconds (maybe none: the caller
        then prints its progress line and waits again)."""
        from concurrent.futures import FIRST_COMPLETED, wait

        return wait(fs, timeout=WAIT, return_when=FIRST_COMPLETED)[0]

    def close(self, cancel=False):
        if cancel:
            # Ctrl-C: a batch of a slow agent can run for many seconds; its chunks are not
            # recorded yet, so stopping the workers now loses no finished work
            for p in list((self.ex._processes or {}).values()):
                p.terminate()
        self.ex.shutdown(wait=True, cancel_futures=cancel)


class Dask:
    """A Dask cluster: an existing scheduler at ``scheduler`` or a loopback cluster of
    worker subprocesses (:mod:`.dask_local`: works from a script without a
    ``__main__`` guard); ``warm_up(agents)`` runs once on every worker (compile or load
    the kernels)."""

    def __init__(self, workers, scheduler, agents, timeout, warm_up):
        try:
            from dask.distributed import Client
        except ImportError:
            raise ValueError("backend: 'dask' needs dask.distributed; install it with "
                             "pip install -e .[dask]") from None
        self.local = None
        if scheduler:
            try:
                self.client = Client(scheduler, timeout=timeout)
            except (OSError, TimeoutError) as e:
                raise ValueError(f"scheduler: cannot reach the Dask scheduler at {scheduler} "
                                 f"within {timeout} s ({type(e).__name__}); start one with "
                                 f"`dask scheduler` or omit --scheduler for a local cluster"
                                 ) from None
        else:
            from .dask_local import LocalSubprocessCluster

            self.local = LocalSubprocessCluster(workers)
            self.client = self.local.client
        try:
            self.client.run(warm_up, agents)  # every worker compiles or loads the cache once
        except BaseException:
            self.close()
            raise
        self.nworkers = max(1, sum(self.client.nthreads().values()))

    def submit(self, fn, *args):
        return self.client.submit(fn, *args, pure=False)

    def wait(self, fs):
        from dask.distributed import wait

        try:
            return set(wait(list(fs), timeout=WAIT, return_when="FIRST_COMPLETED").done)
        except TimeoutError:
            # local workers are not restarted: if one died, its tasks may wait forever
            if self.local is not None and self.local.exited():
                raise RuntimeError(f"a local Dask worker exited: "
                                   f"{self.local.last_error()}") from None
            return set()  # (none done yet: the caller prints its progress line)

    def close(self, cancel=False):
        if self.client is None:  # closed already (the driver and sweep() both close)
            return
        if self.local is not None:
            self.local.close()
        else:
            self.client.close()
        self.client = None

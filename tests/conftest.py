"""The suite's warm-up and its guard of the agent registry. Before pytest-xdist starts
its workers, the families' kernels are compiled (or loaded from the disk cache) by
``fastsweep.warm`` on every core, so the workers load them instead of each compiling the
same kernels (a cold exact family is minutes of one core). Run without ``-n`` (one
process), tests compile what they use. Every test leaves users' agents unregistered.
"""
import sys
import time

import pytest


def _workers(config) -> int:
    n = getattr(config.option, "numprocesses", None)
    if n in ("auto", "logical"):
        import os
        return os.cpu_count() or 1
    return int(n or 0)


def pytest_configure(config):
    if hasattr(config, "workerinput") or config.option.collectonly:
        return  # an xdist worker (the controller warmed up), or nothing will run
    n = _workers(config)
    if n < 2:
        return
    from fastsweep.warmup import warm
    t0 = time.perf_counter()
    print(f"[test] compiling the kernels, or loading them from the cache, on {n} cores",
          file=sys.stderr, flush=True)
    warm(processes=n, load=False)
    print(f"[test] kernels ready in {time.perf_counter() - t0:.0f} s", file=sys.stderr,
          flush=True)


@pytest.fixture(autouse=True)
def _user_agents_left_as_found():
    """Every test leaves the registry of users' agents as it found it: tests that print
    the known agents (test_cli) must not see agents another test registered."""
    from fastsweep.agents import USER_AGENTS

    before = dict(USER_AGENTS)
    yield
    USER_AGENTS.clear()
    USER_AGENTS.update(before)

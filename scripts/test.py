"""Quick start, command 2: set up .venv if needed and run the test suite.

Usage: python3 scripts/test.py [--fast] [pytest arguments]

``--fast`` leaves out the checks marked slow (``-m "not slow"``): the developer's quicker
subset (402 s with the kernels cached on the 2-core VM, 2026-11-29, against 675 s of tests
for the whole suite; the two-minute target of issue 44 is not met).

On two or more cores the suite runs in parallel (pytest-xdist, one worker per core,
work-stealing), after the game kernels were compiled, or loaded from Numba's disk cache,
on every core (``fastsweep.warm``, called by tests/conftest.py before the workers start):
a cold compile takes minutes of one core for the exact family and as many for the others
together, and xdist's workers would otherwise both compile the same kernels. Give ``-n 0``
(or any ``-n``) to choose yourself.
"""
import os
import sys

from _bootstrap import ROOT, ensure_venv  # (this folder's)


def parallel(args) -> bool:
    """Whether to run on every core: more than one, and no ``-n`` given."""
    given = any(a == "-n" or a.startswith(("-n", "--numprocesses")) for a in args)
    return (os.cpu_count() or 1) > 1 and not given


if __name__ == "__main__":
    ensure_venv(os.path.abspath(__file__))
    import pytest

    os.chdir(ROOT)
    args = sys.argv[1:]
    if "--fast" in args:
        args = [a for a in args if a != "--fast"] + ["-m", "not slow"]
    if parallel(args):  # (tests/conftest.py compiles the kernels before the workers start)
        args = ["-n", str(os.cpu_count()), "--dist", "worksteal", *args]
    sys.exit(pytest.main(["tests", *args]))

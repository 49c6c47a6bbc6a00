"""Quick start, command 2: set up .venv if needed and run the test suite.

Usage: python3 scripts/test.py [--fast] [pytest arguments]

``--fast`` leaves out the checks marked slow (``-m "not slow"``): the developer's quicker
subset (402 s with the kernels cached on the 2-core VM, 2026-11-29, against 675 s of tests
for the whole suite; the two-minute target of issue 44 is not met).

On two or more cores the suite runs in parallel (pytest-xdist, one worker per core,
work-stealing), after the game kernels were compiled, or loaded from Numba's disk cache,
in two processes at once: a cold compile takes minutes of one core for the exact family
and as many for the others together (docs/pages/design/), and xdist's workers would
otherwise both compile the same kernels. Give ``-n 0`` (or any ``-n``) to choose yourself.
"""
import os
import subprocess
import sys
import time

from _bootstrap import ROOT, ensure_venv  # (this folder's)

# each process plays its agents' families once per entry point tests use most (batch
# and traced games, both rules, with and without the total). Two stages of two processes:
# first the exact family (which compiles the inference engine) beside the families that do
# not use the engine; then the risk and solver families, which load the engine's kernels
# from the disk cache and compile only their own (at once, each family compiled its own
# copy of the engine beside the others: 687 s cold on 2026-11-29)
WARM = ((("probability",), ("basic", "linalg")), (("risk",), ("lookahead",)))
WARM_CODE = """
import sys
import fastsweep
for agent in sys.argv[1:]:
    for mc in (False, True):
        for rules in ("keep-going", "classic"):
            fastsweep.run(agent, 5, mines=3, games=2, mine_count=mc, rules=rules)
    fastsweep.play(agent, 5, mines=3, mine_count=True, rules="classic")
"""


def warm_kernels() -> None:
    """Compile (or load) the kernels, two processes at a time; a failure is left to the
    tests."""
    t0 = time.perf_counter()
    print(f"[test] compiling the kernels, or loading them from the cache, in "
          f"{len(WARM)} stages of {len(WARM[0])} processes", flush=True)
    codes = []
    for stage in WARM:
        procs = [subprocess.Popen([sys.executable, "-c", WARM_CODE, *agents], cwd=ROOT)
                 for agents in stage]
        codes += [p.wait() for p in procs]
    print(f"[test] kernels ready in {time.perf_counter() - t0:.0f} s"
          + ("" if not any(codes) else f" (exit codes {codes}: the tests will say why)"),
          flush=True)


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
    if parallel(args):
        warm_kernels()
        args = ["-n", str(os.cpu_count()), "--dist", "worksteal", *args]
    sys.exit(pytest.main(["tests", *args]))

"""The kernels' dispatcher (fastsweep/kernels/jit.py): one compile per argument types, and
a compile cache keyed on the kernels' content (per module, see test_cache_keys.py), not
on the clone's path.

Numba would compile a kernel again for every constant a jitted caller passes it
(``Literal[int](2)``); these checks keep that from coming back, e.g. through a new
module that imports Numba's own ``njit``. (Which versions a whole game compiles cannot
be read back here: kernels loaded from the disk cache bring their callees inlined, so
only the mechanism and its use by every kernel are checked.)
"""
import importlib
import os
import pkgutil
import shutil
import subprocess
import sys

from numba.core.dispatcher import Dispatcher

import fastsweep.kernels
from fastsweep.kernels.jit import _OncePerType, njit


def _kernels():
    """Every dispatcher defined in a fastsweep module: (qualified name, dispatcher)."""
    out = []
    for name, mod in list(sys.modules.items()):
        if not name.startswith("fastsweep") or mod is None:
            continue
        for key, obj in list(vars(mod).items()):
            if isinstance(obj, Dispatcher) and obj.py_func.__module__ == name:
                out.append((f"{name}.{key}", obj))
    return out


def test_every_kernel_uses_the_once_per_type_dispatcher():
    for m in pkgutil.walk_packages(fastsweep.kernels.__path__, "fastsweep.kernels."):
        importlib.import_module(m.name)
    kernels = _kernels()
    assert len(kernels) > 250
    assert [n for n, d in kernels if not isinstance(d, _OncePerType)] == []


def test_a_constant_argument_reuses_the_plain_compile():
    @njit
    def inner(x, flag):
        return x + 1 if flag else x - 1

    @njit
    def outer(x):
        return inner(x, True) + inner(x, False) + inner(x, 3 > x)

    assert outer(5) == 6 + 4 + 4
    assert [str(s) for s in inner.signatures] == ["(int64, bool)"]


def test_a_narrow_integer_argument_reuses_the_int64_compile():
    # a cell index read from an int32 array and one computed in int64: one compile, and
    # the callee computes the same (widening is exact, also at int32's extremes)
    import numpy as np

    @njit
    def inner(c, k):
        return c * 3 + k

    @njit
    def outer(cells, c):
        return inner(cells[0], np.int8(-2)) + inner(c, 1) + inner(cells[1], np.int16(7))

    cells = np.array([2147483647, -2147483648], np.int32)
    expect = (2147483647 * 3 - 2) + (5 * 3 + 1) + (-2147483648 * 3 + 7)
    assert outer(cells, 5) == expect
    assert [str(s) for s in inner.signatures] == ["(int64, int64)"]


def test_cache_is_filed_by_path_inside_the_package():
    from fastsweep.kernels.engine.env import new_state
    from fastsweep.kernels.jit import cache_dir

    from fastsweep.kernels.cache_keys import module_key

    assert new_state._cache.cache_path == os.path.join(cache_dir(), "engine", "env",
                                                       module_key("engine/env"))


_PROBE = """
import fastsweep.kernels.engine.env as env
env.new_state(3, 4)
print(sum(env.new_state.stats.cache_hits.values()), sum(env.new_state.stats.cache_misses.values()))
"""


def test_a_second_clone_compiles_nothing(tmp_path):
    """Two copies of the package at different paths (and mtimes) share one compile."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(fastsweep.kernels.__file__)))
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    counts = []
    for clone in ("a", "b"):
        shutil.copytree(root, tmp_path / clone / "fastsweep",
                        ignore=shutil.ignore_patterns("__pycache__"))
        out = subprocess.run([sys.executable, "-c", _PROBE], cwd=tmp_path / clone, env=env,
                             capture_output=True, text=True, check=True).stdout
        counts.append(tuple(int(x) for x in out.split()))
    assert counts == [(0, 1), (1, 0)]  # a compiles (a miss), b loads a's code (a hit)


def test_the_games_clock_reads_perf_counters_clock():
    # engine/timer.py: clock_gettime(CLOCK_MONOTONIC) on Linux, perf_counter elsewhere;
    # the seconds a game records are differences of this clock
    import time

    from fastsweep.kernels.engine.game import clock

    before = time.perf_counter()
    t = clock(True)
    after = time.perf_counter()
    assert before - 1e-3 <= t <= after + 1e-3
    assert clock(False) == 0.0

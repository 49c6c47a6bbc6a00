"""The kernels' dispatcher (fastsweep/kernels/jit.py): one compile per argument types.

Numba would compile a kernel again for every constant a jitted caller passes it
(``Literal[int](2)``); these checks keep that from coming back, e.g. through a new
module that imports Numba's own ``njit``. (Which versions a whole game compiles cannot
be read back here: kernels loaded from the disk cache bring their callees inlined, so
only the mechanism and its use by every kernel are checked.)
"""
import importlib
import pkgutil
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
    for m in pkgutil.iter_modules(fastsweep.kernels.__path__):
        importlib.import_module(f"fastsweep.kernels.{m.name}")
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

"""A digest of a user's Numba agent's code and everything it reaches: the disk cache key
of its compiled game loop (``kernels/agents/user.compile_loop``), so a sweep's workers
and later runs load the loop instead of compiling it, and any change the compiled code
could see compiles it again.

What the policy can reach is read from its functions' globals, as Numba resolves them:
every global name its code (and nested code) uses, followed into the functions and
Numba dispatchers it names (at any depth), and into the attributes it reads of the
modules it names. A function counts by its whole module's source file (any edit to the
file re-keys, not only to the function); a constant by its value. NumPy, Numba,
llvmlite and the standard library count by their versions (the kernels' environment,
``cache_keys.environment``), not their files. Code that Numba's cache could not load
again, a function whose module is not importable under its name (loaded by
``runpy.run_path`` or ``exec``), or code with neither a source file nor readable text,
gets no digest: it is compiled in each process, as before.

Example::

    >>> from fastsweep.user.reach import code_digest
    >>> import sys; sys.path.insert(0, "examples")
    >>> import basic_numba
    >>> len(code_digest(basic_numba.my_basic))
    16
"""
from __future__ import annotations

import hashlib
import inspect
import sys
import types

import numpy as np

# counted by their versions (in the cache key's environment), not their files
# (sys.stdlib_module_names is Python 3.10+; on 3.9 the standard library's files are
# hashed like any other module's: stricter, still sound)
_VERSIONED = ({"numpy", "numba", "llvmlite", "builtins"}
              | set(getattr(sys, "stdlib_module_names", ())))


class _Opaque(Exception):
    """Code whose source cannot be read."""


def _names(code):
    """Every global or attribute name ``code`` and its nested code objects use."""
    out = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            out |= _names(c)
    return out


def _file_bytes(mod) -> bytes:
    path = getattr(mod, "__file__", None)
    if path:
        try:
            with open(path, "rb") as f:
                return f.read()
        except OSError:
            pass
    raise _Opaque(getattr(mod, "__name__", "?"))


def code_digest(policy) -> str | None:
    """A digest (16 hex digits) of ``policy`` (a Numba dispatcher or a function) and
    everything it reaches (see the module's text), or None when some of it has no
    readable source."""
    h = hashlib.sha256()
    seen_funcs, seen_mods = set(), set()

    def versioned(name):
        return (name or "").split(".")[0] in _VERSIONED

    def module(mod):
        if mod is None or mod.__name__ in seen_mods or versioned(mod.__name__):
            return
        seen_mods.add(mod.__name__)
        h.update(b"M" + mod.__name__.encode() + b"\0" + _file_bytes(mod))

    def value(name, v):
        if isinstance(v, types.ModuleType):
            module(v)
        elif hasattr(v, "py_func") or inspect.isfunction(v):
            func(v)
        elif isinstance(v, (bool, int, float, complex, str, bytes, type(None))):
            h.update(f"C{name}={v!r}".encode())
        elif isinstance(v, tuple):
            for i, x in enumerate(v):
                value(f"{name}[{i}]", x)
        elif isinstance(v, np.ndarray):
            h.update(f"A{name}{v.dtype}{v.shape}".encode() + v.tobytes())
        elif isinstance(v, np.generic):
            h.update(f"C{name}={v!r}".encode())
        else:  # classes, overload targets, Numba types: counted by their module
            module(sys.modules.get(getattr(v, "__module__", None) or ""))

    def func(f):
        f = getattr(f, "py_func", f)
        if id(f) in seen_funcs:
            return
        seen_funcs.add(id(f))
        # which function, not only which file: two policies of one module differ
        h.update(f"F{f.__module__}.{f.__qualname__}".encode())
        mod = sys.modules.get(f.__module__)
        if versioned(f.__module__):
            return
        if mod is None or vars(mod) is not f.__globals__:
            # not importable by its module's name (runpy.run_path, exec): Numba's cache
            # records a callee's module and cannot load it again
            raise _Opaque(f.__qualname__)
        try:
            module(mod)
        except _Opaque:  # no file (a prompt): its own text, if it can be read
            try:
                h.update(b"S" + inspect.getsource(f).encode())
            except (OSError, TypeError):
                raise _Opaque(f.__qualname__) from None
        names = _names(f.__code__)
        for name in sorted(names):
            if name in f.__globals__:
                v = f.__globals__[name]
                value(name, v)
                if isinstance(v, types.ModuleType) and not versioned(v.__name__):
                    for attr in sorted(names):  # the module's names the code may read
                        if attr in vars(v):
                            value(f"{name}.{attr}", vars(v)[attr])
        for i, cell in enumerate(f.__closure__ or ()):
            try:
                value(f"<cell {i}>", cell.cell_contents)
            except ValueError:  # an empty cell
                pass

    try:
        func(policy)
    except _Opaque:
        return None
    return h.hexdigest()[:16]

"""The kernels' ``njit``: Numba's, but compiled once per argument types, not per constant,
and cached per module under a key over the module's import closure.

When one jitted function calls another with a constant argument (``act(S, c, A_GUESS,
...)``), Numba types the constant as a literal (``Literal[int](2)``) and compiles the
callee again for every distinct constant: ``actions._record`` had 19 versions in one
process, ``count.analyse_frontier`` 3. Each version is a whole compile (the callee's own
callees linked in and optimized again), so these duplicates were about a quarter of a
cold compile. This dispatcher types such calls with the constants' plain types
(``int64``, ``bool``), so each kernel is compiled once per real signature and its
code does not change. A kernel that needs a literal argument (``numba.literally``, a
constant tuple index) cannot be written with it; none is.

Use it as Numba's: ``@njit(cache=True)``, ``@njit(cache=True, inline="always")``.

It files each kernel module's compiled code in fastsweep's own folder (:func:`cache_dir`),
under the module's path relative to the kernels package and the module's key
(``cache_keys.module_key``: a hash over the sources of the module's import closure), so
an edit recompiles only the modules that can see it, and a second clone or worktree of
the same source loads the first one's compiled kernels (Numba's locators key the folder
on the clone's absolute path).
"""
import hashlib
import os
import sys
import threading
import time
import types as types_module
from contextlib import contextmanager

from numba.core import caching, config, types
from numba.core.registry import CPUDispatcher

from .cache_keys import module_key, module_of, prune


def cache_dir() -> str:
    """The root folder of the compiled kernels (see ``kernels/__init__.py``):
    ``$NUMBA_CACHE_DIR/fastsweep`` when NUMBA_CACHE_DIR is set, else
    ``~/.cache/fastsweep/kernels`` (``$XDG_CACHE_HOME`` if set). Each module's kernels are
    in ``<root>/<path in kernels>/<module key>/``."""
    base = os.environ.get("NUMBA_CACHE_DIR")
    if base:
        return os.path.join(base, "fastsweep")
    home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(home, "fastsweep", "kernels")


_pruned = []  # the roots pruned by this process (once each)


def kernel_cache_path(py_func) -> str:
    """The folder of ``py_func``'s compiled code: ``cache_dir()/<module path>/<key>``,
    the key over the closure of its module and of the modules it was specialised with
    (``__kernel_deps__``, see :func:`specialise`), and the digest of a user's code it
    calls (``__code_digest__``, see ``user.compile_loop``)."""
    rel = module_of(py_func.__module__)
    key = module_key(rel, *sorted(getattr(py_func, "__kernel_deps__", ())))
    digest = getattr(py_func, "__code_digest__", None)  # a user's code it calls
    if digest:
        key = hashlib.sha256(f"{key}\0{digest}".encode()).hexdigest()[:16]
    root = cache_dir()
    if root not in _pruned:
        _pruned.append(root)
        prune(root)
    path = os.path.join(root, *rel.split("/"), key)
    os.makedirs(path, exist_ok=True)
    os.utime(path)  # a use: prune keeps the most recently used keys
    return path


class _KernelLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
    """Numba cache locator for a kernel module: ``cache_dir()/<path in kernels>/<key>/``.
    Its source stamp is Numba's (the file's modification time and size); the key names
    the sources of everything the kernel can see."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = kernel_cache_path(py_func)

    def get_cache_path(self):
        return self._cache_path

    @classmethod
    def from_function(cls, py_func, py_file):
        if module_of(py_func.__module__) is None:
            return None  # not a kernel module: Numba's own locators
        return super().from_function(py_func, py_file)


class _KernelCacheImpl(caching.CompileResultCacheImpl):
    _locator_classes = [_KernelLocator, *caching.CompileResultCacheImpl._locator_classes]


class _KernelCache(caching.FunctionCache):
    _impl_class = _KernelCacheImpl


def _call_type(t):
    """How a call from jitted code types an argument: without its literal value, and a
    signed integer narrower than 64 bits as ``int64`` (a cell index held in an int32
    array cell and the same index computed in int64 compiled ``act`` twice; widening is
    exact, so the callee computes the same)."""
    t = types.unliteral(t)
    if isinstance(t, types.Integer) and t.signed and t.bitwidth < 64:
        return types.int64
    return t


class _OncePerType(CPUDispatcher):
    """A CPU dispatcher whose calls from jitted code are typed without literals and with
    signed integers as int64 (:func:`_call_type`)."""

    def get_call_template(self, args, kws):
        args = tuple(_call_type(a) for a in args)
        kws = {k: _call_type(v) for k, v in kws.items()}
        return super().get_call_template(args, kws)

    def enable_caching(self):
        self._cache = _KernelCache(self.py_func)


def _memoise_first_class_addresses():
    """Numba passes a dispatcher from Python as a first-class function (the families'
    moves, see ``agents/family.py``) by asking it, on every call, for its compile and two
    symbol addresses (about 30 us a function: a tenth of a one-game call). A compiled
    kernel's addresses never change, so ours are remembered, keyed on the dispatcher and
    the signature object (both kept alive by the memo, so their ids are not reused).
    Without these private functions (another Numba) the calls stay correct, only slower."""
    try:
        from numba.experimental import function_type as ft
        originals = {name: getattr(ft, name) for name in ("_get_wrapper_address",
                                                          "_get_jit_address")}
    except (ImportError, AttributeError):
        return
    for name, original in originals.items():
        memo = {}

        def address(func, sig, _original=original, _memo=memo):
            if not isinstance(func, _OncePerType):
                return _original(func, sig)
            hit = _memo.get((id(func), id(sig)))
            if hit is not None and hit[0] is func and hit[1] is sig:
                return hit[2]
            addr = _original(func, sig)
            if addr > 0:
                _memo[(id(func), id(sig))] = (func, sig, addr)
            return addr

        setattr(ft, name, address)


_memoise_first_class_addresses()

NOTICE_AFTER = 3.0  # seconds: loading compiled kernels from the cache takes less


@contextmanager
def compile_notice(kernels, what: str, expect: str, cached: bool = True):
    """Around a call of ``kernels`` (a dispatcher, or a tuple of those the call runs): if
    the call is still compiling after NOTICE_AFTER seconds, tell the user on stderr that
    it is compiling ``what`` (e.g. "the exact family's kernels") and that this takes
    about ``expect``, and when it is done. Silent when the kernels are compiled already
    or come from the disk cache, so a first run never sits for minutes without a word and
    a warm one says nothing. ``cached=False``: a kernel compiled in each process (a
    user's agent's loop)."""
    kernels = kernels if isinstance(kernels, tuple) else (kernels,)
    if all(k.overloads for k in kernels):  # compiled or loaded in this process already
        yield
        return
    t0 = time.perf_counter()
    said = threading.Event()

    def say():
        # a kernel without a compile after NOTICE_AFTER seconds is being compiled (one
        # loaded from the cache has its compile by then: the call is playing)
        if all(k.overloads for k in kernels):
            return
        said.set()
        where = (f"first use of this source: about {expect}; cached afterwards in "
                 f"{cache_dir()}" if cached else f"once per process: about {expect}")
        print(f"[fastsweep] compiling {what} ({where})", file=sys.stderr, flush=True)

    timer = threading.Timer(NOTICE_AFTER, say)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        if said.is_set():
            print(f"[fastsweep] {what} compiled in {time.perf_counter() - t0:.0f} s",
                  file=sys.stderr, flush=True)


def specialise(fn, suffix, **globals_):
    """A copy of plain function ``fn`` whose global names ``globals_`` are bound to other
    objects (a user's Numba policy, see ``agents/user.py``): a kernel written once and
    compiled for each policy. Its qualified name gets ``_<suffix>``, which keeps each
    copy's compiled code in its own cache index (Numba files a function's cache under
    its source file and qualified name, and its globals are not part of the key). The
    modules of the bound kernels (and what they were specialised with) are recorded in
    ``__kernel_deps__``: the copy's cache key covers their import closures too."""
    g = dict(fn.__globals__)
    g.update(globals_)
    f = types_module.FunctionType(fn.__code__, g, f"{fn.__name__}_{suffix}", fn.__defaults__,
                                  fn.__closure__)
    f.__qualname__ = f"{fn.__qualname__}_{suffix}"
    f.__module__ = fn.__module__
    f.__doc__ = fn.__doc__
    deps = set(getattr(fn, "__kernel_deps__", ()))
    for v in globals_.values():
        py = getattr(v, "py_func", v)
        rel = module_of(getattr(py, "__module__", None) or "")
        if rel is not None:
            deps.add(rel)
        deps.update(getattr(py, "__kernel_deps__", ()))
    f.__kernel_deps__ = tuple(sorted(deps))
    return f


def njit(fn=None, *, cache=False, **options):
    """``numba.njit`` with the dispatcher above (options as Numba's)."""
    targetoptions = {"nopython": True, "boundscheck": None, **options}

    def wrap(f):
        if config.DISABLE_JIT:
            return f
        disp = _OncePerType(py_func=f, locals={}, targetoptions=targetoptions)
        if cache:
            disp.enable_caching()
        return disp

    return wrap if fn is None else wrap(fn)

"""The kernels' ``njit``: Numba's, but compiled once per argument types, not per constant.

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
"""
from numba.core import config, types
from numba.core.registry import CPUDispatcher


class _OncePerType(CPUDispatcher):
    """A CPU dispatcher whose calls from jitted code are typed without literals."""

    def get_call_template(self, args, kws):
        args = tuple(types.unliteral(a) for a in args)
        kws = {k: types.unliteral(v) for k, v in kws.items()}
        return super().get_call_template(args, kws)


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

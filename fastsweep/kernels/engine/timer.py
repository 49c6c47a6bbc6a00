"""The games' clock inside compiled code: seconds of the monotonic clock.

On Linux it is a direct call of the C library's ``clock_gettime(CLOCK_MONOTONIC)``, the
clock ``time.perf_counter`` reads there, written as an LLVM intrinsic so that it compiles
and caches like any kernel. Elsewhere it is Numba's object mode around
``time.perf_counter``, which Numba cannot cache: every process compiles that block again
(about 0.3 s; it was the one compile of a process whose kernels all came from the
disk cache).
"""
import sys
import time

from llvmlite import ir
from numba import objmode, types
from numba.core import cgutils
from numba.extending import intrinsic

from ..jit import njit

CLOCK_MONOTONIC = 1  # <time.h> on Linux


@intrinsic
def _monotonic(typingctx):
    """float64 seconds of ``clock_gettime(CLOCK_MONOTONIC)`` (struct timespec: two
    64-bit integers on 64-bit Linux)."""
    def codegen(context, builder, signature, args):
        i32, i64 = ir.IntType(32), ir.IntType(64)
        timespec = ir.LiteralStructType([i64, i64])
        fnty = ir.FunctionType(i32, [i32, timespec.as_pointer()])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "clock_gettime")
        ts = cgutils.alloca_once(builder, timespec)
        builder.call(fn, [ir.Constant(i32, CLOCK_MONOTONIC), ts])
        sec = builder.load(cgutils.gep_inbounds(builder, ts, 0, 0))
        nsec = builder.load(cgutils.gep_inbounds(builder, ts, 0, 1))
        dbl = ir.DoubleType()
        return builder.fadd(builder.sitofp(sec, dbl),
                            builder.fmul(builder.sitofp(nsec, dbl), ir.Constant(dbl, 1e-9)))
    return types.float64(), codegen


if sys.platform.startswith("linux") and sys.maxsize > 2 ** 32:
    @njit(cache=True)
    def seconds():
        """Seconds of the monotonic clock (``time.perf_counter``'s on Linux)."""
        return _monotonic()
else:
    @njit(cache=True)
    def seconds():
        """Seconds of ``time.perf_counter`` (object mode: compiled in each process)."""
        t = 0.0
        with objmode(t="float64"):
            t = time.perf_counter()
        return t

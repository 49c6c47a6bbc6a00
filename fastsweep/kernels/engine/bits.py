"""Bit intrinsics for the kernels (LLVM's count-trailing-zeros).

``lowest_bit(x)`` is the index of the lowest set bit of ``x`` (x > 0): one ``tzcnt``/``bsf``
instruction. The rule loop uses it to visit exactly the hidden neighbours of a cell from
a bit mask, instead of testing all eight with a branch that the CPU cannot predict.
"""
from llvmlite import ir
from numba import types
from numba.extending import intrinsic


@intrinsic
def lowest_bit(typingctx, x):
    """Index of the lowest set bit of integer ``x`` (undefined for x == 0)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        # is_zero_poison = 1: callers guarantee x != 0, which allows a bare bsf
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return x(x), codegen

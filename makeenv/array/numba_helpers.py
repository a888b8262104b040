"""Small numba helpers shared by the compiled templates and the games."""

import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload

LARGEST_INDEX = 2.0**62  # floats beyond this are out of any action range (and of int64's)


def as_index(action):
    """``(index, integral)``: an agent's action as an int, and whether it was an integer value.

    Inside numba code the test is chosen when compiling: an integer action is used as it is, a
    float one is checked (NaN and 2.5 are not integral; huge values become -1, out of range)."""
    value = float(action)
    if value != np.floor(value):
        return 0, False
    return (int(value) if abs(value) < LARGEST_INDEX else -1), True


@overload(as_index, inline="always")
def _as_index(action):
    if isinstance(action, types.Integer):
        return lambda action: (np.int64(action), True)

    def impl(action):
        value = float(action)
        if value != np.floor(value):
            return np.int64(0), False
        if abs(value) < LARGEST_INDEX:
            return np.int64(value), True
        return np.int64(-1), True

    return impl


@intrinsic
def copy_values(typingctx, dst, dst_start, src, src_start, n):
    """``dst[dst_start:dst_start+n] = src[src_start:src_start+n]`` for two distinct float64
    arrays, as one memcpy (numba code only; no bounds check: the caller's indices must fit).
    A plain loop copies one value at a time, since numba cannot tell the arrays apart."""
    sig = types.void(dst, dst_start, src, src_start, n)

    def codegen(context, builder, signature, args):
        dst_array = context.make_array(signature.args[0])(context, builder, args[0])
        src_array = context.make_array(signature.args[2])(context, builder, args[2])
        to = builder.gep(dst_array.data, [args[1]])
        frm = builder.gep(src_array.data, [args[3]])
        cgutils.raw_memcpy(builder, to, frm, args[4], 8)
        return context.get_dummy_value()

    return sig, codegen

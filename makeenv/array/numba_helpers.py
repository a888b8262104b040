"""Small numba helpers shared by the compiled templates and the games.

Some replace numpy calls in a game's hot path (``new_values`` for ``np.empty``, ``uniform`` for
``np.random.random()``): numba keeps a reference count (two atomic operations) on every array a
function was given while a call that can fail sits between their uses, and these are emitted in
the caller's own code instead. Others replace slices (``sum_values`` for ``np.sum(a[i:j])``,
``fill_values`` for ``a[i:j] = x``, ``copy_values`` for ``a[i:j] = b[k:l]``): numba spends about a
tenth of a second compiling each slice expression, over a second for a function with a few of
them, and these compile to a loop or a memcpy. Numba code only."""

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.cpython.randomimpl import get_next_double, get_state_ptr
from numba.extending import intrinsic, overload
from numba.np.arrayobj import make_array, populate_array

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


@intrinsic
def new_values(typingctx, n):
    """A new float64 vector of ``n`` values, not initialised: ``np.empty(n)``, allocated in the
    calling function's own code. np.empty allocates in a function of its own, and a call that can
    fail makes numba keep a reference count (two atomic operations) on every array the caller
    was given; here only a failed allocation raises (MemoryError), and numba prunes those counts."""
    array_type = types.Array(types.float64, 1, "C")

    def codegen(context, builder, signature, args):
        length = context.cast(builder, args[0], signature.args[0], types.intp)
        itemsize = context.get_constant(types.intp, 8)
        # a negative length, or one whose byte count overflows, fails as np.empty's would
        too_long = builder.icmp_unsigned(">", length, context.get_constant(types.intp, 2**59))
        with builder.if_then(too_long, likely=False):
            context.call_conv.return_user_exc(builder, MemoryError, ("Allocation failed (probably too large).",))
        align = context.get_constant(types.uint32, context.get_preferred_array_alignment(types.float64))
        meminfo = context.nrt.meminfo_alloc_aligned(builder, builder.mul(length, itemsize), align)
        with builder.if_then(cgutils.is_null(builder, meminfo), likely=False):
            context.call_conv.return_user_exc(builder, MemoryError, ("Allocation failed (probably too large).",))
        data = builder.bitcast(
            context.nrt.meminfo_data(builder, meminfo), context.get_data_type(types.float64).as_pointer()
        )
        array = make_array(array_type)(context, builder)
        populate_array(
            array,
            data=data,
            shape=cgutils.pack_array(builder, [length]),
            strides=cgutils.pack_array(builder, [itemsize]),
            itemsize=itemsize,
            meminfo=meminfo,
        )
        return array._getvalue()

    return array_type(n), codegen


@intrinsic
def uniform(typingctx):
    """``np.random.random()`` (the same generator, the same draws), emitted in the calling
    function's own code: np.random.random() is a call whose failure numba tests, and on that path
    it keeps the reference count it takes on each array the caller was given (two atomic
    operations a call)."""

    def codegen(context, builder, signature, args):
        return get_next_double(context, builder, get_state_ptr(context, builder, "np"))

    return types.float64(), codegen


@njit(cache=True, inline="always")
def sum_values(values, start, n):
    """``np.sum(values[start:start+n])``, compiled as a loop (a slice costs numba compile time)."""
    total = 0.0
    for i in range(start, start + n):
        total += values[i]
    return total


@njit(cache=True, inline="always")
def fill_values(values, start, n, value):
    """``values[start:start+n] = value``, compiled as a loop (a slice costs numba compile time)."""
    for i in range(start, start + n):
        values[i] = value

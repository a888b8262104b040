"""Small numba helpers shared by the compiled templates."""

import numpy as np
from numba import types
from numba.extending import overload

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

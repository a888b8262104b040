"""Compiled functions named apart in every process, so cached code never shares a name with new code.

numba names each compiled function (and the global that holds its constants, such as the dtype
of an array it returns) after its qualified name and a number from a counter that starts at 1 in
every process. Code loaded from a cache keeps the numbers of the process that compiled it: a
game's referee module, cached by an earlier run, holds its own copy of the game's ``initEnv``
under that run's number. When this process compiles ``initEnv`` afresh (its source's numba cache
is empty, as in a fresh clone) and the counter happens to reach the same number, two definitions
share one name, and the copy this process calls may read the cached one's constants, never set
here: "In 'NRT_adapt_ndarray_to_python', 'descr' is NULL" when it returns an array to Python.
Runs compile in much the same order, so the same number is likely, not rare. :func:`install`
starts the counter at a random point of a range so wide that two processes' numbers never meet.
Set ``MAKEENV_RANDOM_FUNCTION_IDS=0`` to keep numba's counter.
"""

from __future__ import annotations

import itertools
import os
import secrets

from numba.core import bytecode

ENV_SWITCH = "MAKEENV_RANDOM_FUNCTION_IDS"
SPAN = 1 << 48  # where a process's numbers start: a run compiles some 10**4 functions


def install() -> bool:
    """Start numba's function counter at a random point, once per process (True when installed)."""
    if os.environ.get(ENV_SWITCH, "1") == "0":
        return False
    identity = getattr(bytecode, "FunctionIdentity", None)
    counter = getattr(identity, "_unique_ids", None)
    if not isinstance(counter, itertools.count):
        return False  # a numba that numbers its functions another way: leave it alone
    if getattr(identity, "_makeenv_random_ids", False):
        return True
    identity._unique_ids = itertools.count(SPAN + secrets.randbelow(SPAN))  # type: ignore[union-attr]
    identity._makeenv_random_ids = True  # type: ignore[union-attr]
    return True

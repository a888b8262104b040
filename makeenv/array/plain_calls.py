"""One compile per argument type for makeenv's own numba functions, not one per constant.

When compiled code calls an ``@njit`` function with a constant (``pay(env, seat, WOOD)``,
``settlement_spot(env, seat, True)``), numba types the constant as a literal (``Literal[int](0)``)
and compiles the callee once for each constant it is called with: Catan's ``pay`` four times,
``mine`` five times, 16 extra compiles of its 61. :func:`install` makes numba compile makeenv's
functions (those of modules named ``makeenv.…``: the built-in games, their bots, the helpers) for
the plain types of such arguments (``int64``, ``bool``) first, and keeps numba's literal
specialization for a function that cannot be compiled without it (one that needs ``literally`` or
indexes a tuple with an argument). The compiled code computes the same; LLVM still sees the
constants when it inlines the callee. Set ``MAKEENV_PLAIN_CALLS=0`` to keep numba's own way.
"""

from __future__ import annotations

import os
from typing import Any

from numba.core import dispatcher, errors, types

from makeenv.array import bare_calls

ENV_SWITCH = "MAKEENV_PLAIN_CALLS"
OWN_PREFIX = "makeenv."

_NUMBA_GET_CALL_TEMPLATE = dispatcher._DispatcherBase.get_call_template


def is_own(function: Any) -> bool:
    """Whether ``function`` (a dispatcher) is one of makeenv's own."""
    return bare_calls.is_own(function, (OWN_PREFIX,))


def plain(arg_types: tuple[Any, ...]) -> tuple[Any, ...]:
    """``arg_types`` with every literal type replaced by its plain type."""
    return tuple(types.unliteral(t) for t in arg_types)


def _get_call_template(self: Any, args: tuple[Any, ...], kws: dict[str, Any]) -> Any:
    target = bare_calls.compiles_for_callers(self)  # its bare twin when bare_calls is installed
    if target is not self:
        with self._compiling_counter:  # numba finds a recursive call by its dispatcher compiling
            return _template(self, target, args, kws)
    return _template(self, target, args, kws)


def _template(self: Any, target: Any, args: tuple[Any, ...], kws: dict[str, Any]) -> Any:
    literal = any(isinstance(t, types.Literal) for t in (*args, *kws.values()))
    if literal and target._can_compile and is_own(self):
        try:
            return _NUMBA_GET_CALL_TEMPLATE(target, plain(args), {k: types.unliteral(t) for k, t in kws.items()})
        except (errors.TypingError, errors.ForceLiteralArg):
            pass  # the function needs its constants: numba's own way below
    return _NUMBA_GET_CALL_TEMPLATE(target, args, kws)


def install() -> bool:
    """Make numba compile makeenv's functions for plain argument types (once); returns whether it
    is in place. Nothing changes when ``MAKEENV_PLAIN_CALLS=0`` or when numba's dispatcher no longer
    has the method this replaces."""
    current = getattr(dispatcher._DispatcherBase, "get_call_template", None)
    if current is _get_call_template:
        return True
    if os.environ.get(ENV_SWITCH, "1") == "0" or current is not _NUMBA_GET_CALL_TEMPLATE:
        return False
    dispatcher._DispatcherBase.get_call_template = _get_call_template  # type: ignore[method-assign,assignment]
    return True


def uninstall() -> None:
    """Give numba's dispatcher its own way back."""
    if getattr(dispatcher._DispatcherBase, "get_call_template", None) is _get_call_template:
        dispatcher._DispatcherBase.get_call_template = _NUMBA_GET_CALL_TEMPLATE  # type: ignore[method-assign]

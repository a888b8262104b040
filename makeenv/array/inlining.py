"""Faster compiles of ``inline="always"`` functions: numba copies an inlined function's IR one
block at a time, each copy with a fresh memo, so every block copies the function's whole scope
(every variable) again. That is quadratic in the function's size, and the runner's loops and the
referee inline large functions (numba issues #8989 and #9204 describe the cost).

:func:`install` makes numba's inliner copy the blocks of one function with one memo: the scope and
every variable are copied once per inlined function instead of once per block. The copies are the
same IR (each block still a new object, sharing one copy of the scope, as the original's blocks
share theirs), so the compiled code does not change; a loop module of the runner compiles 1.3 to 1.55
times as fast (``python benchmarks/bench_compile.py`` measures it). Set ``MAKEENV_FAST_INLINING=0``
to compile with numba's own copying.
"""

from __future__ import annotations

import copy
import os
from typing import Any

from numba.core import inline_closurecall, ir

ENV_SWITCH = "MAKEENV_FAST_INLINING"


class BlockCopier:
    """Stands in for the ``copy`` module inside numba's inliner (its only use there is
    ``copy.deepcopy(block)``, block by block, when it copies a function's IR).

    Blocks copied one after another from the same scope share one memo, so the scope and its
    variables are copied once. Each inlining starts a new memo (:meth:`start`), and so does a
    block seen a second time or a block of another scope: two copies never share objects."""

    def __init__(self) -> None:
        self._memo: dict[int, Any] = {}
        self._scope: ir.Scope | None = None

    def start(self) -> None:
        """Forget the last copy (called as numba begins to inline a function)."""
        self._memo, self._scope = {}, None

    def deepcopy(self, value: Any, memo: dict[int, Any] | None = None) -> Any:
        if memo is not None or not isinstance(value, ir.Block):
            return copy.deepcopy(value, memo)
        if value.scope is not self._scope or id(value) in self._memo:
            self._memo, self._scope = {}, value.scope
        return copy.deepcopy(value, self._memo)

    def __getattr__(self, name: str) -> Any:
        return getattr(copy, name)


COPIER = BlockCopier()
_NUMBA_INLINE_IR = inline_closurecall.InlineWorker.inline_ir


def _inline_ir(self: Any, *args: Any, **kwargs: Any) -> Any:
    COPIER.start()
    try:
        return _NUMBA_INLINE_IR(self, *args, **kwargs)
    finally:
        COPIER.start()  # keep no reference to the copies


def install() -> bool:
    """Give numba's inliner the :class:`BlockCopier` (once); returns whether it is in place.

    Nothing is changed when ``MAKEENV_FAST_INLINING=0`` or when numba's inliner no longer uses the
    ``copy`` module as expected (a numba that copies differently keeps its own way)."""
    current = getattr(inline_closurecall, "copy", None)
    if current is COPIER:
        return True
    if os.environ.get(ENV_SWITCH, "1") == "0" or current is not copy:
        return False
    inline_closurecall.InlineWorker.inline_ir = _inline_ir  # type: ignore[method-assign]
    inline_closurecall.copy = COPIER  # type: ignore[assignment]
    return True


def uninstall() -> None:
    """Give numba's inliner its own copying back."""
    if getattr(inline_closurecall, "copy", None) is COPIER:
        inline_closurecall.copy = copy
        inline_closurecall.InlineWorker.inline_ir = _NUMBA_INLINE_IR  # type: ignore[method-assign]

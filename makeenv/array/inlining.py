"""Faster compiles of ``inline="always"`` functions. The runner's loops and the referee inline large
functions, and numba's inliner spends most of its time on three things (numba issues #8989 and
#9204 describe the cost):

- it copies an inlined function's IR one block at a time, each copy with a fresh memo, so every
  block copies the function's whole scope (every variable) again: quadratic in the function's size;
- it translates the inlined function from its bytecode again, with the whole untyped pipeline
  (inlining its own callees), at every call site of every function that inlines it: the referee's
  ``status`` once per loop entry point and per loop module;
- it copies the IR it inlines twice, the second copy only to be thrown away.

:func:`install` makes numba's inliner copy the blocks of one function with one memo (the scope and
every variable are copied once per inlined function instead of once per block), and keep the
untyped IR of each inlined function, so that each call site copies it, once, instead of translating
the function again. The copies are the same IR (each block still a new object, sharing one copy of the
scope, as the original's blocks share theirs; each inlining names its variables apart, as numba's
does), so the compiled code does not change; a loop module of the runner compiles 1.3 to 2.1 times
as fast (``python benchmarks/bench_compile.py`` measures it). Set ``MAKEENV_FAST_INLINING=0`` to
compile with numba's own inliner.
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
    block seen a second time or a block of another scope: two copies never share objects.

    numba's ``inline_ir`` copies the function's IR, then copies the copy to return an untouched
    version that its callers throw away. An inlining started with ``copy_once`` skips that second
    copy: a block of a scope this copier made is handed back as it is."""

    def __init__(self) -> None:
        self._memo: dict[int, Any] = {}
        self._scope: ir.Scope | None = None
        self._copy_once = False
        self._made: list[ir.Scope] = []

    def start(self, copy_once: bool = False) -> None:
        """Forget the last copy (called as numba begins to inline a function)."""
        self._memo, self._scope = {}, None
        self._copy_once, self._made = copy_once, []

    def deepcopy(self, value: Any, memo: dict[int, Any] | None = None) -> Any:
        if memo is not None or not isinstance(value, ir.Block):
            return copy.deepcopy(value, memo)
        if self._copy_once and any(value.scope is made for made in self._made):
            return value
        if value.scope is not self._scope or id(value) in self._memo:
            self._memo, self._scope = {}, value.scope
        copied = copy.deepcopy(value, self._memo)
        if self._copy_once and not any(copied.scope is made for made in self._made):
            self._made.append(copied.scope)
        return copied

    def __getattr__(self, name: str) -> Any:
        return getattr(copy, name)


COPIER = BlockCopier()
_NUMBA_INLINE_IR = inline_closurecall.InlineWorker.inline_ir
_NUMBA_INLINE_FUNCTION = inline_closurecall.InlineWorker.inline_function


def _inline_ir(self: Any, *args: Any, **kwargs: Any) -> Any:
    COPIER.start()
    try:
        return _NUMBA_INLINE_IR(self, *args, **kwargs)
    finally:
        COPIER.start()  # keep no reference to the copies


class UntypedIRs:
    """The untyped IR of each inlined function, kept for its next call sites.

    numba translates the function with the inliner's typing and target contexts, flags and locals;
    an IR is reused only when all four are the same (a target context is made for each compile from
    one codegen and the flags: the codegen counts). Nothing changes the kept IR: numba's
    ``inline_ir`` copies it before it renames or moves anything. Each use gets a new function
    identity, so two inlinings of one function into one caller name their variables apart, as two
    translations would. Translations are kept for the life of the process (an IR refers to its
    function, as numba's compiled overloads do)."""

    def __init__(self) -> None:
        self._kept: dict[Any, list[tuple[tuple[Any, ...], Any]]] = {}

    def get(self, worker: Any, func: Any) -> Any:
        """``func``'s untyped IR as ``worker.run_untyped_passes(func)`` returns it."""
        worker.flags.enable_ssa = False  # as numba's run_untyped_passes does, to the caller's flags
        # each compile has a target context of its own, made from one codegen and the flags
        target = (type(worker.targetctx), worker.targetctx.codegen())
        setting = (worker.typingctx, target, worker.flags.copy(), dict(worker.locals or {}))
        kept = self._kept.setdefault(func, [])
        func_ir = next((kept_ir for known, kept_ir in kept if all(a == b for a, b in zip(known, setting))), None)
        if func_ir is None:
            func_ir = worker.run_untyped_passes(func)
            kept.append((setting, func_ir))
        fresh = func_ir.copy()
        fresh.func_id = func_ir.func_id.derive()
        return fresh

    def clear(self) -> None:
        self._kept.clear()


UNTYPED_IRS = UntypedIRs()


def _inline_function(self: Any, caller_ir: Any, block: Any, i: int, function: Any, arg_typs: Any = None) -> Any:
    """numba's ``inline_function``, from the kept translation and with one copy of it. Returns what
    numba's does, except the untouched copy of the function's IR (None: numba's only caller of
    ``inline_function`` throws it away)."""
    if self.flags is None:  # an inliner without a compiler's settings: numba's own way
        return _NUMBA_INLINE_FUNCTION(self, caller_ir, block, i, function, arg_typs)
    callee_ir = UNTYPED_IRS.get(self, function)
    COPIER.start(copy_once=True)
    try:
        _, *inlined = _NUMBA_INLINE_IR(
            self, caller_ir, block, i, callee_ir, function.__code__.co_freevars, arg_typs=arg_typs
        )
    finally:
        COPIER.start()
    return (None, *inlined)


def install() -> bool:
    """Give numba's inliner the :class:`BlockCopier` and the :class:`UntypedIRs` (once); returns
    whether they are in place.

    Nothing is changed when ``MAKEENV_FAST_INLINING=0`` or when numba's inliner no longer uses the
    ``copy`` module as expected (a numba that copies differently keeps its own way)."""
    current = getattr(inline_closurecall, "copy", None)
    if current is COPIER:
        return True
    if os.environ.get(ENV_SWITCH, "1") == "0" or current is not copy:
        return False
    inline_closurecall.InlineWorker.inline_ir = _inline_ir  # type: ignore[method-assign]
    inline_closurecall.InlineWorker.inline_function = _inline_function  # type: ignore[method-assign]
    inline_closurecall.copy = COPIER  # type: ignore[assignment]
    return True


def uninstall() -> None:
    """Give numba's inliner its own copying back."""
    if getattr(inline_closurecall, "copy", None) is COPIER:
        inline_closurecall.copy = copy
        inline_closurecall.InlineWorker.inline_ir = _NUMBA_INLINE_IR  # type: ignore[method-assign]
        inline_closurecall.InlineWorker.inline_function = _NUMBA_INLINE_FUNCTION  # type: ignore[method-assign]
        UNTYPED_IRS.clear()

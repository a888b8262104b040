"""makeenv.array.inlining: numba's inliner copies a function's blocks with one memo, the same IR."""

from __future__ import annotations

import copy
import types

import numpy as np
import pytest
from numba import njit
from numba.core import inline_closurecall, registry
from numba.core.compiler import DefaultPassBuilder, Flags, run_frontend

from makeenv.array import inlining


def branchy(values, limit):
    total = 0.0
    for v in values:
        if v > limit:
            total += v
        else:
            total -= 1.0
    return total


def fresh(func):
    """A new function object of ``func``'s code: one that numba has never translated."""
    return types.FunctionType(func.__code__, func.__globals__, func.__name__)


def blocks_of(func):
    return list(run_frontend(func).blocks.values())


def test_importing_makeenv_array_installs_it():
    assert inlining.install()
    assert inline_closurecall.copy is inlining.COPIER
    assert inline_closurecall.InlineWorker.inline_ir is inlining._inline_ir
    assert inline_closurecall.InlineWorker.inline_function is inlining._inline_function


@pytest.fixture
def translations(monkeypatch):
    """The functions numba translates from bytecode to inline them, in order."""
    seen: list[str] = []
    numbas = inline_closurecall.InlineWorker.run_untyped_passes

    def counting(self, func, enable_ssa=False):
        seen.append(func.__name__)
        return numbas(self, func, enable_ssa)

    monkeypatch.setattr(inline_closurecall.InlineWorker, "run_untyped_passes", counting)
    return seen


def test_an_inlined_function_is_translated_once_for_all_its_call_sites(translations):
    def scaled(values, limit):
        return branchy(values, limit) * 2.0

    inner = njit(inline="always")(fresh(branchy))
    middle = njit(inline="always")(lambda values, limit: inner(values, limit) * 2.0)

    @njit
    def first(values):
        return inner(values, 0.5) + inner(values, 2.0) * 10.0 + middle(values, 1.0)

    @njit
    def second(values):
        return middle(values, 3.0) - inner(values, -1.0)

    values = np.array([0.1, 3.0, 1.0, 2.5, -4.0])
    assert first(values) == branchy(values, 0.5) + branchy(values, 2.0) * 10.0 + scaled(values, 1.0)
    assert second(values) == scaled(values, 3.0) - branchy(values, -1.0)
    # five call sites of branchy (one inside middle's IR, kept with it), two of middle
    assert sorted(translations) == ["<lambda>", "branchy"]


def test_each_use_of_a_kept_translation_has_a_name_of_its_own():
    """Inlined variables are named after the function's unique name: two inlinings of one function
    into one caller must not share names, as two translations would not."""
    targets = registry.cpu_target
    worker = inline_closurecall.InlineWorker(
        targets.typing_context, targets.target_context, {}, DefaultPassBuilder, Flags()
    )
    kept = inlining.UntypedIRs()
    first, second = kept.get(worker, branchy), kept.get(worker, branchy)
    assert first.func_id.unique_name != second.func_id.unique_name
    assert first.func_id.func is second.func_id.func is branchy
    # the same translation: the very same statements
    for one, other in zip(first.blocks.values(), second.blocks.values(), strict=True):
        assert all(a is b for a, b in zip(one.body, other.body, strict=True))


def test_another_setting_translates_the_function_again(translations):
    inner = njit(inline="always")(fresh(branchy))
    values = np.array([0.1, 3.0, 1.0])

    def caller(values):
        return inner(values, 0.5)

    assert njit(caller)(values) == njit(boundscheck=True)(caller)(values) == branchy(values, 0.5)
    assert translations == ["branchy", "branchy"]


def test_the_blocks_of_one_function_share_one_copy_of_its_scope():
    blocks = blocks_of(branchy)
    assert len(blocks) > 3
    copier = inlining.BlockCopier()
    copies = [copier.deepcopy(block) for block in blocks]
    assert all(c is not b for c, b in zip(copies, blocks))
    assert len({id(c.scope) for c in copies}) == 1
    assert copies[0].scope is not blocks[0].scope
    # numba's own copying copies the scope once per block
    numbas = [copy.deepcopy(b) for b in blocks]
    assert len({id(c.scope) for c in numbas}) == len(blocks)
    # the same statements, variable for variable
    for original, copied in zip(blocks, copies):
        assert [str(s) for s in copied.body] == [str(s) for s in original.body]


def test_a_second_copy_or_a_new_inlining_shares_nothing_with_the_first():
    blocks = blocks_of(branchy)
    copier = inlining.BlockCopier()
    first = [copier.deepcopy(block) for block in blocks]
    again = [copier.deepcopy(block) for block in blocks]  # the same blocks once more: a new memo
    assert not {id(b) for b in first} & {id(b) for b in again}
    assert first[0].scope is not again[0].scope
    copier.start()
    after_start = copier.deepcopy(blocks[0])
    assert after_start is not again[0] and after_start.scope is not again[0].scope
    other = blocks_of(lambda x: x + 1)[0]  # another function's scope: a new memo too
    assert copier.deepcopy(other).scope is not after_start.scope


def test_functions_inlined_at_several_sites_compute_the_same_as_python():
    inner = njit(inline="always")(branchy)

    @njit
    def outer(values):
        return inner(values, 0.5) + inner(values, 2.0) * 10.0

    values = np.array([0.1, 3.0, 1.0, 2.5, -4.0])
    assert outer(values) == branchy(values, 0.5) + branchy(values, 2.0) * 10.0


def test_the_switch_keeps_numbas_own_copying(monkeypatch):
    inlining.uninstall()
    try:
        assert inline_closurecall.copy is copy
        assert inline_closurecall.InlineWorker.inline_function is inlining._NUMBA_INLINE_FUNCTION
        monkeypatch.setenv(inlining.ENV_SWITCH, "0")
        assert not inlining.install()
        assert inline_closurecall.copy is copy
    finally:
        monkeypatch.delenv(inlining.ENV_SWITCH)
        assert inlining.install()


def test_a_numba_whose_inliner_copies_otherwise_is_left_alone(monkeypatch):
    inlining.uninstall()
    try:
        monkeypatch.setattr(inline_closurecall, "copy", object(), raising=False)
        assert not inlining.install()
    finally:
        monkeypatch.undo()
        assert inlining.install()


def test_an_inlining_copies_the_function_once():
    """numba copies the copy it inlines, to return an untouched version its callers throw away; with
    ``copy_once`` the copier hands back its own copies instead of copying them again."""
    blocks = blocks_of(branchy)
    copier = inlining.BlockCopier()
    copier.start(copy_once=True)
    first = [copier.deepcopy(block) for block in blocks]
    assert not {id(b) for b in first} & {id(b) for b in blocks}
    assert [copier.deepcopy(block) for block in first] == first  # the same objects back
    assert all(c is not b for c, b in zip([copier.deepcopy(b) for b in blocks], blocks))
    copier.start()  # an ordinary inlining copies a copy too
    assert all(c is not b for c, b in zip([copier.deepcopy(b) for b in first], first))


@pytest.mark.parametrize("value", [1.0, 2.0])
def test_copies_keep_constants_equal(value):
    def constant(x):
        return x * value if x > 0 else value

    copier = inlining.BlockCopier()
    for block in blocks_of(constant):
        assert [str(s) for s in copier.deepcopy(block).body] == [str(s) for s in block.body]

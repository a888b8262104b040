"""makeenv.array.plain_calls: makeenv's numba functions compile once per argument type, not once per
constant they are called with, and compute the same."""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.core import dispatcher

from makeenv.array import plain_calls
from makeenv.array.bare_calls import compiled_signatures
from tests.array.own_functions import as_own, scaled


def pick(pair, i):  # indexing a heterogeneous tuple needs its index as a constant
    return pair[i]


def literal_signatures(function):
    return [sig for sig in compiled_signatures(function) if any(isinstance(t, types.Literal) for t in sig)]


def test_importing_makeenv_array_installs_it():
    assert plain_calls.install()
    assert dispatcher._DispatcherBase.get_call_template is plain_calls._get_call_template


def test_an_own_function_called_with_constants_compiles_once():
    own = as_own(scaled)

    @njit
    def caller(values):
        return own(values, 1) + own(values, 2) + own(values, 3)

    values = np.array([2.0])
    assert caller(values) == 12.0
    assert len(compiled_signatures(own)) == 1
    assert not literal_signatures(own)


def test_numbas_own_way_compiles_once_per_constant():
    plain_calls.uninstall()
    try:
        own = as_own(scaled)

        @njit
        def caller(values):
            return own(values, 1) + own(values, 2) + own(values, 3)

        assert caller(np.array([2.0])) == 12.0
        assert len(literal_signatures(own)) == 3  # what install() saves
    finally:
        assert plain_calls.install()


def test_a_function_outside_makeenv_keeps_numbas_way():
    other = as_own(scaled, name="someone_elses.game")

    @njit
    def caller(values):
        return other(values, 1) + other(values, 2)

    assert caller(np.array([2.0])) == 6.0
    assert len(literal_signatures(other)) == 2


def test_a_function_that_needs_its_constants_still_gets_them():
    own = as_own(pick)

    @njit
    def caller(values):
        pair = (values[0], "two")
        return own(pair, 0), own(pair, 1)

    assert caller(np.array([1.5])) == (1.5, "two")
    assert literal_signatures(own)


def test_the_switch_keeps_numbas_own_way(monkeypatch):
    plain_calls.uninstall()
    try:
        monkeypatch.setenv(plain_calls.ENV_SWITCH, "0")
        assert not plain_calls.install()
        assert dispatcher._DispatcherBase.get_call_template is plain_calls._NUMBA_GET_CALL_TEMPLATE
    finally:
        monkeypatch.delenv(plain_calls.ENV_SWITCH)
        assert plain_calls.install()


def test_a_numba_whose_dispatcher_changed_is_left_alone(monkeypatch):
    plain_calls.uninstall()
    try:
        monkeypatch.setattr(dispatcher._DispatcherBase, "get_call_template", lambda self, args, kws: None)
        assert not plain_calls.install()
    finally:
        monkeypatch.undo()
        assert plain_calls.install()

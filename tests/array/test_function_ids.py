"""function_ids: numba's compiled functions are numbered apart in every process."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys

import numpy as np
from numba import njit
from numba.core import bytecode

import makeenv.array  # noqa: F401  (installs it)
from makeenv.array import function_ids

FIRST_ID = "from numba.core import bytecode; import makeenv.array; print(next(bytecode.FunctionIdentity._unique_ids))"


def first_id_in_a_new_process(env: dict[str, str]) -> int:
    done = subprocess.run([sys.executable, "-c", FIRST_ID], capture_output=True, text=True, env=env, check=True)
    return int(done.stdout)


def test_compiled_names_carry_a_number_from_the_random_range():
    @njit
    def double(x):
        return 2.0 * x

    assert double(np.float64(1.5)) == 3.0
    [compiled] = double.overloads.values()
    uid = compiled.fndesc.uid
    assert uid >= function_ids.SPAN
    assert f"v{uid}" in compiled.fndesc.mangled_name


def test_two_processes_number_their_functions_apart():
    env = {k: v for k, v in os.environ.items() if k != function_ids.ENV_SWITCH}
    first, second = first_id_in_a_new_process(env), first_id_in_a_new_process(env)
    assert first >= function_ids.SPAN and second >= function_ids.SPAN
    assert abs(first - second) > 1_000_000  # a run compiles some 10**4 functions


def test_the_switch_keeps_numbas_counter():
    env = {**os.environ, function_ids.ENV_SWITCH: "0"}
    assert first_id_in_a_new_process(env) < function_ids.SPAN


def test_installing_twice_keeps_the_counter():
    counter = bytecode.FunctionIdentity._unique_ids
    assert function_ids.install()
    assert bytecode.FunctionIdentity._unique_ids is counter


def test_a_numba_that_numbers_otherwise_is_left_alone(monkeypatch):
    other = iter(range(5))
    monkeypatch.setattr(bytecode.FunctionIdentity, "_unique_ids", other)
    monkeypatch.delattr(bytecode.FunctionIdentity, "_makeenv_random_ids")
    assert not function_ids.install()
    assert bytecode.FunctionIdentity._unique_ids is other
    monkeypatch.setattr(bytecode.FunctionIdentity, "_unique_ids", itertools.count(7))
    assert function_ids.install()
    assert next(bytecode.FunctionIdentity._unique_ids) >= function_ids.SPAN

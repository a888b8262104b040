"""makeenv.array.bare_calls: makeenv's numba functions, called from compiled code, compile without
Python's wrappers and are only linked into their callers; they compute the same, from a cold or a
warm cache, and Python can still call them."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from types import ModuleType

import numpy as np
from numba import njit
from numba.core import codegen, dispatcher

from makeenv.array import bare_calls
from tests.array.own_functions import as_own, scaled


def twin_of(function):
    return function.__dict__.get(bare_calls._TWIN)


def test_importing_makeenv_array_installs_it():
    assert bare_calls.install()
    assert dispatcher._DispatcherBase.get_overload is bare_calls._get_overload
    assert codegen.CPUCodeLibrary.finalize is bare_calls._finalize


def test_a_function_called_from_compiled_code_compiles_bare_and_is_only_linked():
    own = as_own(scaled)

    @njit
    def caller(values):
        return own(values, 2) + own(values, 3)

    assert caller(np.array([2.0])) == 10.0
    assert not own.signatures  # the function itself compiled nothing
    [compiled] = twin_of(own).overloads.values()
    assert bare_calls.is_link_only(compiled.library)
    assert not bare_calls.is_link_only(caller.overloads[caller.signatures[0]].library)


def called_from_compiled_code(function, k=4):
    """makeenv's copy of ``function``, once a compiled caller has compiled its bare twin with
    ``(array, int)`` arguments: ``own(np.array([1.5]), k)`` is then a Python call of the same types."""
    own = as_own(function)

    @njit
    def caller(values):
        return own(values, k)

    assert caller(np.array([1.5])) == 1.5 * k
    return own


def compiled_as(own):
    """The module the Python-callable code of ``own``'s only overload was compiled as."""
    [compiled] = own.overloads.values()
    return compiled.fndesc.modname


def test_python_calls_a_function_compiled_bare_for_callers_through_a_trampoline_to_its_twin():
    own = called_from_compiled_code(scaled)
    values = np.array([1.5])
    assert own(values, 4) == 6.0  # the same types: a one-line trampoline calls the twin's code
    assert compiled_as(own) == bare_calls.TRAMPOLINE_MODULE
    [compiled] = own.overloads.values()
    assert not bare_calls.is_link_only(compiled.library)
    assert len(twin_of(own).overloads) == 1  # the body was compiled once
    assert own(values, 2.5) == 3.75  # other types: the function compiles itself, with its wrappers
    assert own.overloads[own.signatures[-1]].fndesc.modname == "makeenv.games.example.logic"


def test_the_trampoline_switch_compiles_the_function_itself(monkeypatch):
    monkeypatch.setenv(bare_calls.TRAMPOLINE_SWITCH, "0")
    own = called_from_compiled_code(scaled)
    assert own(np.array([1.5]), 4) == 6.0
    assert compiled_as(own) == "makeenv.games.example.logic"


def test_a_trampoline_that_fails_to_compile_leaves_the_function_to_compile_itself(monkeypatch):
    own = called_from_compiled_code(scaled)

    def broken_compile(sig):
        raise RuntimeError("a numba that compiles otherwise")

    monkeypatch.setattr(bare_calls.trampoline(own), "compile", broken_compile)
    assert own(np.array([1.5]), 4) == 6.0
    assert compiled_as(own) == "makeenv.games.example.logic"


def defaulted(values, k=2):
    return values[0] * k


def test_a_function_with_defaults_compiles_itself_for_python():
    own = called_from_compiled_code(defaulted, k=3)
    assert own(np.array([1.5]), 3) == 4.5
    assert compiled_as(own) == "makeenv.games.example.logic"


def test_a_function_compiled_for_python_first_serves_its_compiled_callers():
    own = as_own(scaled)
    values = np.array([3.0])
    assert own(values, 2) == 6.0

    @njit
    def caller(values):
        return own(values, 5)

    assert caller(values) == 15.0
    assert twin_of(own) is None


def test_a_function_outside_makeenv_keeps_numbas_way():
    other = as_own(scaled, name="someone_elses.game")

    @njit
    def caller(values):
        return other(values, 2)

    assert caller(np.array([2.0])) == 4.0
    assert twin_of(other) is None
    assert len(other.signatures) == 1


def test_the_switch_keeps_numbas_own_way(monkeypatch):
    bare_calls.uninstall()
    try:
        monkeypatch.setenv(bare_calls.SWITCH, "0")
        assert not bare_calls.install()
        assert codegen.CPUCodeLibrary.finalize is bare_calls._NUMBA["finalize"]
        own = as_own(scaled)

        @njit
        def caller(values):
            return own(values, 2)

        assert caller(np.array([2.0])) == 4.0
        assert twin_of(own) is None
    finally:
        monkeypatch.delenv(bare_calls.SWITCH)
        assert bare_calls.install()


def test_a_numba_whose_internals_changed_is_left_alone(monkeypatch):
    bare_calls.uninstall()
    try:
        monkeypatch.setattr(codegen.CPUCodeLibrary, "finalize", lambda self: None)
        assert not bare_calls.install()
        assert dispatcher._DispatcherBase.get_overload is bare_calls._NUMBA["get_overload"]
    finally:
        monkeypatch.undo()
        assert bare_calls.install()


PROBE = textwrap.dedent(
    """
    import sys

    import numpy as np
    from numba import njit

    import makeenv.array  # installs bare_calls
    from makeenv.array import bare_calls


    sys.modules["makeenv.games.probe.logic"] = sys.modules[__name__]  # numba's cache finds it again


    def _own(function):
        function.__module__ = "makeenv.games.probe.logic"
        return njit(cache=True)(function)


    @_own
    def checked(values, k):
        if k < 0:
            raise ValueError("negative count", k)  # a message made at run time
        return values[0] * k


    @_own
    def total(values, k):
        return checked(values, k) + checked(values, k + 1)


    @njit(cache=True)
    def caller(values, k):
        return total(values, k)


    @njit
    def fresh_caller(values, k):  # never cached: links the twins afresh in every process
        return total(values, k) * 2.0


    values = np.array([1.5])
    assert caller(values, 2) == 7.5
    assert fresh_caller(values, 2) == 15.0
    try:
        fresh_caller(values, -5)
    except ValueError as error:
        assert error.args == ("negative count", -5), error.args
    else:
        raise AssertionError("no error raised")
    twin = bare_calls.bare_twin(total)
    print("twin cache hits", sum(twin._cache_hits.values()), "misses", sum(twin._cache_misses.values()))
    assert total(values, 2) == 7.5  # Python: a trampoline to the twin (cached as the function's own)
    assert total.overloads[total.signatures[0]].fndesc.modname == bare_calls.TRAMPOLINE_MODULE
    try:
        total(values, -5)
    except ValueError as error:  # raised in the twin's code, called from Python through the trampoline
        assert error.args == ("negative count", -5), error.args
    else:
        raise AssertionError("no error raised")
    print("function cache hits", sum(total._cache_hits.values()))
    """
)


def test_bare_code_is_cached_apart_and_linked_again_from_the_cache(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text(PROBE)
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "numba_cache"), "PYTHONPATH": os.pathsep.join(sys.path)}
    runs = [subprocess.run([sys.executable, str(probe)], capture_output=True, text=True, env=env) for _ in range(2)]
    for run in runs:
        assert run.returncode == 0, run.stderr
    assert "twin cache hits 0 misses 1" in runs[0].stdout
    assert "twin cache hits 1 misses 0" in runs[1].stdout
    assert "function cache hits 0" in runs[0].stdout
    assert "function cache hits 1" in runs[1].stdout  # the trampoline, loaded from the cache
    cached = {path.name for path in (tmp_path / "numba_cache").rglob("*.nbi")}
    assert any(name.startswith("probe.total-") and "-bare" in name for name in cached), cached
    assert any(name.startswith("probe.total-") and "-bare" not in name for name in cached), cached


def test_a_game_plays_the_same_games_bare_or_not(tmp_path):
    command = [sys.executable, "-m", "makeenv", "run", "TicTacToe", "--games", "2000", "--level", "0", "--seed", "7"]
    outputs = []
    for switch in ("1", "0"):
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(sys.path),
            "NUMBA_CACHE_DIR": str(tmp_path / f"numba{switch}"),
            "MAKEENV_CACHE_DIR": str(tmp_path / f"makeenv{switch}"),
            bare_calls.SWITCH: switch,
        }
        run = subprocess.run(command, capture_output=True, text=True, env=env)
        assert run.returncode == 0, run.stderr
        outputs.append([line for line in run.stdout.splitlines() if not line.startswith("games/s")])
    assert outputs[0] == outputs[1]
    assert any(line.startswith("wins:") for line in outputs[0])


RECURSIVE = """
from numba import njit


@njit
def countdown(n):
    if n <= 0:
        return 0
    return 1 + countdown(n - 1)
"""


def test_a_recursive_function_compiles_bare(monkeypatch):
    # numba names a recursive call after the function's module, which must be importable
    probe = ModuleType("makeenv.games.recursion_probe")
    exec(compile(RECURSIVE, "<recursion probe>", "exec"), probe.__dict__)
    monkeypatch.setitem(sys.modules, probe.__name__, probe)
    countdown = probe.countdown

    @njit
    def caller(n):
        return countdown(n) * 2

    assert caller(5) == 10
    assert twin_of(countdown).signatures and not countdown.signatures
    assert countdown(4) == 4

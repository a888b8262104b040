"""Functions numba compiles as if makeenv owned them, for the tests of how makeenv's own functions
compile (plain_calls, bare_calls)."""

from __future__ import annotations

from types import FunctionType
from typing import Any

from numba import njit


def as_own(function: Any, name: str = "makeenv.games.example.logic") -> Any:
    """A copy of ``function`` compiled by numba as if it were defined in the module ``name``."""
    copy = FunctionType(function.__code__, function.__globals__, function.__name__, function.__defaults__)
    copy.__module__ = name
    return njit(copy)


def scaled(values: Any, k: Any) -> Any:
    return values[0] * k

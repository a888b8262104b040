"""The numba helpers that games use in their hot paths: what they compute, checked against numpy."""

import numpy as np
import pytest
from numba import njit

from makeenv.array.numba_helpers import copy_values, new_values, uniform


@njit
def _filled(n):
    values = new_values(n)
    for i in range(n):
        values[i] = i * 0.5
    return values


@njit
def _copied(dst, dst_start, src, src_start, n):
    copy_values(dst, dst_start, src, src_start, n)
    return dst


def test_new_values_is_a_float64_vector_of_the_length_asked_for():
    for n in (0, 1, 7, 1000):
        values = _filled(n)
        assert values.dtype == np.float64 and values.shape == (n,) and values.flags.c_contiguous
        np.testing.assert_array_equal(values, np.arange(n) * 0.5)


def test_new_values_raises_memory_error_when_the_allocation_fails():
    for n in (2**50, 2**61, -1):  # too much memory, a byte count past 2**64, a negative length
        with pytest.raises(MemoryError):
            _filled(n)


def test_copy_values_copies_the_run_and_nothing_else():
    src = np.arange(10.0)
    dst = np.full(8, -1.0)
    _copied(dst, 2, src, 5, 4)
    np.testing.assert_array_equal(dst, [-1, -1, 5, 6, 7, 8, -1, -1])


@njit
def _draws(seed, n, inline):
    np.random.seed(seed)
    out = np.empty(n)
    for i in range(n):
        out[i] = uniform() if inline else np.random.random()
    return out


def test_uniform_draws_what_np_random_random_draws():
    draws = _draws(7, 1000, True)
    np.testing.assert_array_equal(draws, _draws(7, 1000, False))
    assert 0.0 <= draws.min() and draws.max() < 1.0 and len(set(draws)) == 1000

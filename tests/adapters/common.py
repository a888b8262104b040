"""Shared by the adapter tests: the registered array games, and the checkers' expected warnings."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.games.support import ARRAY_GAMES  # noqa: F401  (re-exported: listed once for every test)

# a 3-player simultaneous test game with shared wins, returns, a TURN_LIMIT and tuple levels; loaded
# by path, as tests/array loads it (numba's cache remembers the module name a file was loaded as)
BIDDING = str(Path(__file__).resolve().parents[1] / "array" / "bidding_game.py")

# What the checkers say about every env with PettingZoo's dict observations ({"observation",
# "action_mask"}, the layout of PettingZoo's own classic games, which the checkers exempt by name),
# about Box(0, inf) (the contract bounds no state value from above), and about games whose first
# state is all zeros. Any other warning fails the test.
EXPECTED_WARNINGS = [
    pytest.mark.filterwarnings("error"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
    pytest.mark.filterwarnings("ignore:Observation numpy array is all zeros"),
    pytest.mark.filterwarnings("ignore:.*A Box observation space maximum value is infinity"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
    # Not the adapters': a socket or file another test left to the garbage collector may be
    # collected during these tests (tests/text/test_jury.py checks our clients close theirs).
    pytest.mark.filterwarnings("default::ResourceWarning"),
]

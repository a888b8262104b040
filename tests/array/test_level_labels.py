"""A level's label: the Bot's name, else its policy's first docstring sentence (whole), else its name."""

from __future__ import annotations

from makeenv.array.agents import Bot
from makeenv.array.contract import _bot_title, doc_first_sentence


def wrapped(state, data):
    """Greedy: takes as many stones as it may, unless that would leave
    the last stone to the opponent. Then it takes one."""
    return 0, data


def long_winded(state, data):
    """Level 2: deal the hidden cards at random a number of times; in each deal try every valid move, play the
    game out with the careful policy, and take the move that won most often, careful's own choice on a tie."""
    return 0, data


def undocumented(state, data):
    return 0, data


def test_the_first_sentence_is_whole_even_when_it_wraps():
    assert doc_first_sentence(wrapped) == (
        "Greedy: takes as many stones as it may, unless that would leave the last stone to the opponent."
    )
    assert _bot_title(Bot(wrapped)) == doc_first_sentence(wrapped)


def test_a_long_sentence_or_no_docstring_gives_the_bot_name_and_a_name_wins():
    assert doc_first_sentence(long_winded) == ""
    assert _bot_title(Bot(long_winded)) == "long_winded"
    assert _bot_title(Bot(undocumented)) == "undocumented"
    assert _bot_title(Bot(wrapped, name="Greedy")) == "Greedy"

"""Negotiation-v0: the second text game (no jury, multi-turn, private values, not zero-sum)."""

from __future__ import annotations

import re

import pytest

import makeenv
from makeenv.games.negotiation import ITEMS, NegotiationEnv, ProposalError, parse_proposal
from makeenv.games.negotiation.agents import Haggler
from makeenv.text.turns import play

PILE = (2, 2, 3)


@pytest.mark.parametrize(
    "text, taken",
    [
        ("[Propose] books=1 hats=2 balls=0", (1, 2, 0)),
        ("Let's split. [Propose: 1 book, 2 hats]", (1, 2, 0)),
        ("[propose] 2 books 1 ball", (2, 0, 1)),
        ("[PROPOSE] hat: 1", (0, 1, 0)),
        ("Hello there, nice weather.", None),
    ],
)
def test_proposals_are_read_in_several_spellings(text, taken):
    assert parse_proposal(text, PILE) == taken


@pytest.mark.parametrize(
    "text, reason",
    [
        ("[Propose] everything", "must say what you take"),
        ("[Propose] books=3", "takes more than the table holds: 3 books (there are 2)"),
    ],
)
def test_bad_proposals_say_what_is_wrong(text, reason):
    with pytest.raises(ProposalError, match=re.escape(reason)):
        parse_proposal(text, PILE)


def test_the_pile_and_values_follow_the_rules_and_stay_private():
    for seed in range(30):
        env = makeenv.make("Negotiation-v0")
        env.reset(num_players=2, seed=seed)
        assert 5 <= sum(env.pile) <= 7 and all(1 <= n <= 4 for n in env.pile)
        for player in (0, 1):
            values = env.values[player]
            assert sum(v * n for v, n in zip(values, env.pile)) == 10 and values.count(0) <= 1
        assert env.values[0] != env.values[1]
        _, observation = env.get_observation(0)
        other = ", ".join(f"{item} {value}" for item, value in zip(ITEMS, env.values[1]))
        assert (
            "Your values per item (private): "
            + ", ".join(f"{item} {value}" for item, value in zip(ITEMS, env.values[0]))
            in observation
        )
        assert other not in observation


def test_a_deal_gives_each_player_its_own_points():
    env = makeenv.make("Negotiation-v0")
    env.reset(num_players=2, seed=0)  # pile 2 books, 2 hats, 3 balls; P0 values 2, 3, 0
    done, info = env.step("I like hats. [Propose] books=1 hats=2 balls=0")
    assert not done and info["move"] == "propose"
    _, seen = env.get_observation(1)
    assert "[Player 0] I like hats. [Propose] books=1 hats=2 balls=0" in seen
    assert "Player 0's proposal stands: you would get 1 book, 0 hats, 3 balls (worth" in seen
    done, info = env.step("Fine. [Accept]")
    rewards, record = env.close()
    p1 = env.values[1][0] * 1 + env.values[1][2] * 3
    assert done and rewards == {0: 8, 1: p1} and record["outcome"] == "deal"
    assert record["deal"] == {
        "Player 0": {"book": 1, "hat": 2, "ball": 0},
        "Player 1": {"book": 1, "hat": 0, "ball": 3},
    }
    assert "Values, now revealed" in env.get_observation(0)[1]
    panel = env.result_panel(0)
    assert panel[0]["rows"][0][0] == "Player 0 (you)" and panel[0]["rows"][0][-1] == "8"


def test_no_deal_running_out_and_forfeits():
    env = makeenv.make("Negotiation-v0")
    env.reset(num_players=2, seed=0)
    env.step("hello")
    done, _ = env.step("Bye. [No deal]")
    assert done and env.close()[0] == {0: 0, 1: 0}

    short = makeenv.make("Negotiation-v0", max_turns=2)
    rewards, record = play(short, lambda observation: "Just talking.", seed=1)
    assert rewards == {0: 0, 1: 0} and record["outcome"] == "no_deal" and "within 2 messages" in record["reason"]

    env.reset(num_players=2, seed=0)
    done, info = env.step("[Accept]")
    assert not done and "no proposal of the other player to accept" in info["reason"]
    done, info = env.step("[Propose] balls=9")
    assert done and info["forfeit"] and env.close()[0] == {0: -1, 1: 0}
    with pytest.raises(ValueError, match="max_turns must be an int >= 2"):
        NegotiationEnv(max_turns=1)


def test_two_hagglers_reading_only_their_observations_reach_deals_reproducibly():
    env = makeenv.make("Negotiation-v0")
    results = [play(env, {0: Haggler(), 1: Haggler(7, 4)}, seed=seed) for seed in range(6)]
    assert all(record["outcome"] == "deal" for _, record in results)
    assert all(0 < rewards[0] <= 10 and 0 < rewards[1] <= 10 for rewards, _ in results)
    again = [play(env, {0: Haggler(), 1: Haggler(7, 4)}, seed=seed)[0] for seed in range(6)]
    assert again == [rewards for rewards, _ in results]


def test_the_picture_shows_the_pile_from_each_side():
    env = makeenv.make("Negotiation-v0")
    env.reset(num_players=2, seed=0)
    env.step("[Propose] books=1 hats=2 balls=0")
    mine, theirs = env.render(0), env.render(1)
    assert mine.startswith("<svg") and "Your proposal stands" in mine and "The other player is writing" in mine
    assert "The other player&#x27;s proposal stands" in theirs and "Your turn" in theirs
    assert mine.count("#2f6fde") == 3  # the proposer's 3 items, in blue

"""Array games as text envs (``NAME-text``): observations, answers, bots, forfeits, hidden moves."""

from __future__ import annotations

import random
import re

import pytest

import makeenv
from makeenv.registry import REGISTRY
from makeenv.text.bridge import AnswerError, ArrayTextEnv, listed_options, parse_answer
from makeenv.text.turns import ask, play
from tests.games.support import ARRAY_GAMES


def listed_actions(observation: str) -> list[tuple[int, str]]:
    """The ``[k] description`` lines of the latest "Valid actions:" listing in an observation."""
    return [(option["action"], option["label"]) for option in listed_options(observation)]


class Reader:
    """A text agent that reads the listing in its observation and answers in one of three forms;
    given the env, it checks that the listing it read is the env's ``action_options``."""

    def __init__(self, seed: int, env: ArrayTextEnv | None = None):
        self.rng = random.Random(seed)
        self.env = env

    def __call__(self, observation: str) -> str:
        if self.env is not None:
            assert listed_options(observation) == self.env.action_options(self.env.current_player)
        action, description = self.rng.choice(listed_actions(observation))
        return self.rng.choice([f"[{action}]", str(action), description.upper(), f"I play [{action}]."])


# ------------------------------------------------------------------------------------ answers

NAMES = {0: "Scissors", 1: "Rock", 2: "Paper", 3: "Drop in column 3", 4: "Drop in column 13"}


@pytest.mark.parametrize(
    "answer, expected",
    [
        ("[1]", 1),
        ("1", 1),
        (" [ 1 ] ", 1),
        ("rock", 1),
        ("ROCK.", 1),
        ("[Paper]", 2),
        ('"Paper"', 2),
        ("I think [2] wins here.", 2),
        ("Scissors beats paper, so [0]", 0),
        ("[2] ... yes, [2]", 2),
        ("column 13", 4),
        ("[Drop in column 3]", 3),
    ],
)
def test_an_answer_names_an_action_by_number_or_description(answer, expected):
    assert parse_answer(answer, [0, 1, 2, 3, 4], NAMES.__getitem__, 5) == expected


@pytest.mark.parametrize(
    "answer, valid, reason",
    [
        ("", [0, 1], "empty"),
        ("   ", [0, 1], "empty"),
        ("[7]", [0, 1], "there is no action 7: actions are numbered 0 to 4"),
        ("2", [0, 1], "action 2 (Paper) is not valid now"),
        ("Paper", [0, 1], "'Paper' is not valid now"),
        ("[0] or [1]", [0, 1], "names several actions ([0], [1])"),
        ("column", [3, 4], "fits several valid actions ([3], [4])"),
        ("lizard", [0, 1, 2], "'lizard' names no valid action"),
    ],
)
def test_an_answer_that_names_no_valid_action_says_why(answer, valid, reason):
    with pytest.raises(AnswerError, match=re.escape(reason)):
        parse_answer(answer, valid, NAMES.__getitem__, 5)


def test_a_bare_number_is_the_action_number_never_a_description():
    names = {0: "2", 1: "3", 2: "4"}.__getitem__
    assert parse_answer("2", [0, 1, 2], names, 3) == 2
    assert parse_answer("[1]", [0, 1, 2], names, 3) == 1


# ------------------------------------------------------------------------------------ every game


@pytest.mark.slow
@pytest.mark.parametrize("game", ARRAY_GAMES)
def test_every_array_game_plays_to_the_end_as_text(game):
    """Text players in every seat, answering from the listing in their observations; the rewards
    are the referee's returns; the same seed replays the same game."""
    records = []
    for _ in range(2):
        env = makeenv.make(f"{game}-text")
        assert isinstance(env, ArrayTextEnv) and env.env_id == f"{game}-text"
        rewards, info = play(
            env, {p: Reader(p, env) for p in range(env.seat_count)}, num_players=env.seat_count, seed=5
        )
        assert info["finished"] and info["outcome"] is not None and info["forfeit"] is None
        assert rewards == {p: pytest.approx(r) for p, r in enumerate(info["outcome"]["returns"])}
        assert info["moves"] and all(set(m) >= {"seat", "action", "label"} for m in info["moves"])
        records.append(info["moves"])
    assert records[0] == records[1]


@pytest.mark.parametrize("game", ["TicTacToe", "KuhnPoker"])
def test_one_text_player_against_bots_takes_a_seat_drawn_from_the_seed(game):
    seats = set()
    for seed in range(8):
        env = makeenv.make(f"{game}-text", level=1)
        rewards, info = play(env, Reader(seed), num_players=1, seed=seed)
        seats.add(info["seats"][0])
        other = 1 - info["seats"][0]
        assert "level-1 bot" in info["seated"][str(other)]
        assert rewards == {0: info["outcome"]["returns"][info["seats"][0]]}
    assert seats == {0, 1}


def test_the_observation_describes_the_state_lists_actions_and_says_how_to_answer():
    env = makeenv.make("ConnectFour-text", level=2, seats=[1])
    env.reset(num_players=1, seed=3)
    player, observation = env.get_observation()
    assert player == 0 and env.seats == [1]
    assert "You are Player 1 in ConnectFour (2 players). Player 0: a level-2 bot" in observation
    assert "Player 0 played: Drop a disc in column" in observation  # the bot moved first
    assert "Board, top row first" in observation  # the game's own describe_state
    assert [a for a, _ in listed_actions(observation)] == list(range(7))
    assert "[3] Drop a disc in column 4 (of 7, from the left)" in observation
    assert 'Answer with one valid action: its number in brackets as listed (e.g. "[0]")' in observation
    assert env.action_options() == [
        {"answer": f"[{a}]", "label": env.game.describe_action(a), "action": a} for a in range(7)
    ]
    assert env.render(0).startswith("<svg") and 'data-action="3"' in env.render(0)


def test_without_history_the_observation_is_the_rules_and_the_latest_turn():
    env = makeenv.make("TicTacToe-text", level=1, seats=[0], history=False)
    env.reset(num_players=1, seed=0)
    env.step("[4]")
    _, short = env.get_observation()
    assert short.count("Your turn (Player 0") == 1 and short.startswith("[GAME] You are Player 0")
    assert "You played: Mark row 2, column 2 (centre)." in short
    env.step("[4]")  # invalid: the retry still shows the listing
    _, retry = env.get_observation()
    assert "Invalid move" in retry and "Valid actions:" in retry


def test_an_invalid_answer_gets_one_retry_then_forfeits():
    env = makeenv.make("TicTacToe-text")
    env.reset(num_players=2, seed=0)
    done, info = env.step("the middle one")
    assert not done and info["invalid_move"] and "names no valid action" in info["reason"]
    player, observation = env.get_observation()
    assert player == 0 and observation.endswith("another invalid answer then forfeits the game).")
    done, info = env.step("row 2, column 2")  # the retry works (part of one description)
    assert not done and info["action"] == 4
    done, info = env.step("[4]")  # Player 1: taken
    assert not done and "action 4 (Mark row 2, column 2 (centre)) is not valid now" in info["reason"]
    done, info = env.step("[9]")  # a second invalid answer in the same turn
    assert done and info["forfeit"] and info["rewards"] == {0: 1, 1: -1}
    rewards, record = env.close()
    assert rewards == {0: 1, 1: -1} and record["forfeit"]["seat"] == 1
    assert "Player 1 forfeits" in env.get_observation(0)[1]


def test_a_corrected_answer_resets_the_count_of_invalid_ones():
    env = makeenv.make("TicTacToe-text", retries=1)
    env.reset(num_players=2, seed=0)
    for answer in ("x", "[0]", "y", "[1]", "z", "[3]"):  # every player errs once a turn, then corrects
        done, _ = env.step(answer)
        assert not done


def test_private_actions_stay_hidden_from_the_others_until_the_end():
    env = makeenv.make("RockPaperScissors-text")
    env.reset(num_players=2, seed=0)
    names = [env.game.describe_action(a) for a in sorted(env.game.private_actions)]
    done = False
    while not done:
        player, observation = env.get_observation()
        if player == 1:  # before Player 1 chooses, nothing says what Player 0 chose
            assert "Player 0 made a hidden choice." in observation
            assert not any(f"Player 0 played: {name}" in observation for name in names)
            assert "(hidden choice)" in env.get_board_str()
        options = env.action_options()
        done, info = env.step(options[0]["answer"])
    _, final = env.get_observation(1)
    assert "Hidden choices, now revealed:" in final and "Player 0: Scissors" in final
    assert "(hidden choice)" not in env.get_board_str()


def test_game_options_bot_levels_and_seats_are_checked():
    env = makeenv.make("SushiGo-text", players=3, level={1: 1, 2: 0}, seats=[0])
    assert env.seat_count == 3 and env.game.parameters["players"] == 3
    rewards, info = play(env, Reader(1), num_players=1, seed=2)
    assert info["seated"]["1"].startswith("level-1 bot") and info["seated"]["2"].startswith("level-0 bot")
    with pytest.raises(ValueError, match="TicTacToe has no level 7; levels: 0"):
        makeenv.make("TicTacToe-text", level=7)
    with pytest.raises(ValueError, match="seats must be distinct seats from 0 to 1"):
        makeenv.make("TicTacToe-text", seats=[0, 0])
    with pytest.raises(TypeError, match="unknown option"):
        makeenv.make("TicTacToe-text", players=3)
    with pytest.raises(ValueError, match="2 seats were chosen"):
        makeenv.make("TicTacToe-text", seats=[0, 1]).reset(num_players=1)
    with pytest.raises(ValueError, match="num_players must be 1 to 2"):
        makeenv.make("TicTacToe-text").reset(num_players=3)
    with pytest.raises(ValueError, match="every seat has a bot"):
        makeenv.make("TicTacToe-text").seat_bots({0: 1, 1: 1})
    with pytest.raises(ValueError, match="Did you mean 'TicTacToe-text'"):
        makeenv.make("TicTacTo-text")


def test_every_array_game_has_its_text_variant_registered():
    for game in ARRAY_GAMES:
        spec = REGISTRY[f"{game}-text"]
        assert spec.kind == "text" and spec.kwargs == {"game": game}
    assert not any(name.endswith("-text-text") or name.startswith("ScenarioPlanning-v0-") for name in REGISTRY)


class Chooser:
    """An agent that can choose among listed options (as LocalAgent does): it picks the last one."""

    def __init__(self):
        self.seen: list[list[str]] = []

    def __call__(self, observation: str) -> str:
        raise AssertionError("a chooser is asked to choose, not to write")

    def choose(self, observation: str, options: list[str]) -> int:
        self.seen.append(list(options))
        return len(options) - 1


def test_the_listing_is_read_back_from_observations_and_nothing_else_is():
    env = makeenv.make("ConnectFour-text", level=0, seats=[0])
    env.reset(num_players=1, seed=2)
    observation = env.get_observation()[1]
    assert listed_options(observation) == env.action_options(0) and len(env.action_options(0)) == 7
    env.step("[3]")
    env.step("no such column")  # an invalid answer: its message names valid actions inline
    observation = env.get_observation()[1]
    assert "Invalid move" in observation
    assert listed_options(observation) == env.action_options(0)  # the newest listing, this turn's
    assert [o["action"] for o in listed_options(observation)] == list(env.match.valid_action_ids())
    for text in ("", "Write your strategy.", "Valid actions: [0], [1]", "Valid actions:\nnone listed", None):
        assert listed_options(text) == []
    # a header that lists nothing after the newest listing leaves that listing the newest
    assert listed_options(observation + "\nValid actions:\nnone now") == env.action_options(0)


def test_an_agent_that_chooses_gets_the_valid_actions_descriptions_and_never_errs():
    env = makeenv.make("TicTacToe-text", level=0, seats=[0])
    chooser = Chooser()
    rewards, info = play(env, chooser, num_players=1, seed=4)
    assert info["forfeit"] is None and chooser.seen
    assert chooser.seen[0] == [env.game.describe_action(a) for a in range(9)]
    assert info["moves"][0]["action"] == 8
    broken = Chooser()
    broken.choose = lambda observation, options: len(options)  # type: ignore[method-assign]
    env.reset(num_players=1, seed=4)
    with pytest.raises(ValueError, match="choose returned 9; expected an index from 0 to 8"):
        ask(broken, env, env.get_observation()[1])

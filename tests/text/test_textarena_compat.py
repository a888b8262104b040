"""TextArena's own wrappers around makeenv's text envs (TextArena itself, from PyPI)."""

from __future__ import annotations

import pytest

import makeenv
from makeenv.games.negotiation.agents import Haggler
from makeenv.text.textarena_view import TextArenaView

ta = pytest.importorskip("textarena")


def test_action_wrappers_wrap_a_makeenv_env_as_it_is():
    """ActionFormattingWrapper turns "4" into "[4]", which the bridge accepts; the loop is TextArena's."""
    env = ta.wrappers.ActionFormattingWrapper(makeenv.make("TicTacToe-text", level=0, seats=[0]))
    env.reset(num_players=1, seed=2)
    answers = []
    done = False
    while not done:
        player_id, observation = env.get_observation()
        answer = str(env.action_options()[0]["action"])  # a bare number
        answers.append(answer)
        done, info = env.step(answer)
    rewards, game_info = env.close()
    assert game_info["forfeit"] is None and [m["action"] for m in game_info["moves"] if m["seat"] == 0] == [
        int(a) for a in answers
    ]
    clipped = ta.wrappers.ClipCharactersActionWrapper(makeenv.make("TicTacToe-text"), max_num_characters=3)
    clipped.reset(num_players=2, seed=0)
    clipped.step("I choose the top left corner: [0]")  # TextArena keeps the last 3 characters: "[0]"
    assert clipped.env.moves[0]["action"] == 0


def test_llm_observation_wrapper_sees_typed_messages_with_senders():
    game = makeenv.make("Negotiation-v0")
    env = ta.wrappers.LLMObservationWrapper(TextArenaView(game))
    env.reset(num_players=2, seed=1)
    haggler = Haggler()
    done = False
    seen = {}
    while not done:
        player_id, observation = env.get_observation()
        assert isinstance(observation, str)
        seen[player_id] = observation
        done, _ = env.step(haggler(game.get_observation(player_id)[1]))  # the haggler reads makeenv's text
    assert seen[0].startswith("\n[GAME] You are Player 0 in Negotiation.")
    assert "[GAME] [GAME]" not in seen[0]
    assert "\n[Player 0] How about this? [Propose]" in seen[1]  # the other player's words, named by TextArena
    rewards, info = env.close()
    assert info["outcome"] in ("deal", "no_deal") and set(rewards) == {0, 1}


def test_game_board_wrapper_shows_the_prompt_and_only_the_latest_board():
    env = ta.wrappers.GameBoardObservationWrapper(TextArenaView(makeenv.make("ConnectFour-text", level=1, seats=[0])))
    env.reset(num_players=1, seed=0)
    env.step("[3]")
    _, observation = env.get_observation()
    assert observation.startswith("You are Player 0 in ConnectFour")
    assert observation.count("Valid actions:") == 1 and observation.count("Your turn (Player 0") == 1
    assert "move 3" in observation  # the latest board: the text player's second turn


def test_the_view_delivers_each_message_once_with_its_type():
    view = TextArenaView(makeenv.make("TicTacToe-text", level=1, seats=[0]))
    view.reset(num_players=1, seed=0)
    player, first = view.get_observation()
    kinds = [kind for _, _, kind in first]
    assert kinds == [ta.ObservationType.PROMPT, ta.ObservationType.GAME_BOARD]
    assert all(sender == ta.GAME_ID for sender, _, _ in first)
    _, again = view.get_observation()
    assert again == []
    view.step("[4]")
    _, after = view.get_observation()
    assert [kind for _, _, kind in after] == [ta.ObservationType.GAME_ACTION_DESCRIPTION] * 2 + [
        ta.ObservationType.GAME_BOARD
    ]
    with pytest.raises(TypeError, match="makeenv text env"):
        TextArenaView(object())

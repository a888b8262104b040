"""ScenarioPlanning rules, observations, records and bad input, against the scripted server."""

from __future__ import annotations

import json

import pytest

import makeenv
from makeenv.games.scenario_planning import ScenarioFileError, ScenarioPlanningEnv, load_scenarios
from makeenv.text import GameOverError, JuryUnavailable, MissingAPIKey, OpenAICompatibleJury, TextEnvError
from makeenv.text.jury.base import MAX_SUBMISSION_CHARS
from tests.support.openai_server import Reply
from tests.text.conftest import fast

SEED_PROMPT = (
    "You are Player {p} in the Scenario Planning game.\n"
    "Scenario: {s}\n"
    "Your goal is to propose a strategy for survival in this scenario.\n"
    "After both players submit their strategies, a panel of judges will evaluate them.\n"
    "On your turn, simply type your strategy."
)


def make_env(server, jury_size=5, **overrides):
    return makeenv.make(
        "ScenarioPlanning-v0", jury_class=OpenAICompatibleJury, jury_size=jury_size, **fast(server, **overrides)
    )


def play(env, strategy0="Stay put and ration water.", strategy1="Walk to the river at night."):
    env.reset(num_players=2, seed=3)
    done, info = env.step(strategy0)
    assert not done
    return env.step(strategy1)


def test_full_game_through_make_with_the_textarena_loop(server):
    server.default = "Player 1"
    env = make_env(server, jury_size=11)
    assert env.env_id == "ScenarioPlanning-v0" and env.jury.jury_size == 11
    agents = {0: lambda obs: "Hide in the basement.", 1: lambda obs: "Build a raft and leave."}
    env.reset(num_players=2, seed=0)
    done, steps = False, 0
    while not done:
        player_id, observation = env.get_observation()
        done, info = env.step(agents[player_id](observation))
        steps += 1
    rewards, game_info = env.close()
    assert steps == 2
    assert rewards == {0: -1, 1: 1}
    assert info["message"] == (
        "[GAME] Vote results:\nPlayer 0: 0 votes\nPlayer 1: 11 votes\n[GAME] Player 1 wins by convincing the judges."
    )
    assert game_info["votes"] == {"Player 0": 0, "Player 1": 11}
    assert all(isinstance(count, int) for count in game_info["votes"].values())
    assert game_info["strategies"] == {"Player 0": "Hide in the basement.", "Player 1": "Build a raft and leave."}
    assert game_info["scenario"] == env.scenario and game_info["winner"] == "Player 1"
    assert len(game_info["ballots"]) == 11
    json.dumps(game_info)  # the record is plain JSON
    assert len(server.chat_requests) == 11


def test_registry_defaults_are_the_seed_variant(monkeypatch):
    monkeypatch.setenv("OPENROUTER_API_KEY", "sk-test-not-real")
    env = makeenv.make("ScenarioPlanning-v0")
    assert type(env.jury).__name__ == "OpenRouterJury"
    assert env.jury.jury_size == 11 and env.jury.quorum == 6
    assert len(set(env.jury.models)) >= 3
    assert env.jury.settings.base_url.startswith("https://openrouter.ai/")


def test_first_observations_are_the_seed_prompt_word_for_word(server):
    env = make_env(server)
    env.reset(num_players=2, seed=11)
    scenario = env.scenario
    assert scenario == load_scenarios()[env.scenario_index]
    assert env.get_observation() == (0, SEED_PROMPT.format(p=0, s=scenario))
    assert env.get_observation(1) == (1, SEED_PROMPT.format(p=1, s=scenario))


def test_seed_reproduces_the_scenario_and_varies(server):
    env = make_env(server)
    picks = []
    for seed in range(12):
        env.reset(num_players=2, seed=seed)
        first = env.scenario
        env.reset(num_players=2, seed=seed)
        assert env.scenario == first
        picks.append(first)
    assert len(set(picks)) > 4


def test_player_1_never_sees_player_0s_strategy(server):
    server.default = "Player 0"
    env = make_env(server)
    env.reset(num_players=2, seed=1)
    secret = "SECRET-PLAN: tunnel under the river"
    env.step(secret)
    player_id, observation = env.get_observation()
    assert player_id == 1 and secret not in observation
    assert secret not in env.get_board_str()
    done, info = env.step("Climb the hill")
    assert done
    # After judging, both see the result lines (and still not each other's text).
    for p in (0, 1):
        _, observation = env.get_observation(p)
        assert observation.endswith(
            "[GAME] Vote results:\nPlayer 0: 5 votes\nPlayer 1: 0 votes\n[GAME] Player 0 wins by convincing the judges."
        )
    assert "Climb the hill" not in env.get_observation(0)[1]
    assert secret not in env.get_observation(1)[1]


def test_split_vote_counts_are_integers_and_exact(server):
    server.handler = lambda request: "Player 0" if request.model == "judge-a" else "Player 1"
    env = make_env(server, jury_size=11, models=["judge-a", "judge-b"])  # 6 a, 5 b
    done, info = play(env)
    assert done and info["votes"] == {"Player 0": 6, "Player 1": 5}
    assert info["message"].splitlines() == [
        "[GAME] Vote results:",
        "Player 0: 6 votes",
        "Player 1: 5 votes",
        "[GAME] Player 0 wins by convincing the judges.",
    ]
    assert env.close()[0] == {0: 1, 1: -1}


def test_draw_is_zero_zero(server):
    server.handler = lambda request: "Player 0" if request.model == "judge-a" else "Player 1"
    env = make_env(server, jury_size=4, models=["judge-a", "judge-b"])
    done, info = play(env)
    assert info["votes"] == {"Player 0": 2, "Player 1": 2}
    assert info["message"].endswith("Player 1: 2 votes\n[GAME] The votes are tied: the game is a draw.")
    rewards, game_info = env.close()
    assert rewards == {0: 0, 1: 0} and game_info["outcome"] == "draw"


def test_strategy_cannot_be_changed_and_step_after_end_is_clear(server):
    env = make_env(server)
    done, _ = play(env, "first plan", "second plan")
    assert done
    with pytest.raises(GameOverError, match="game is over"):
        env.step("a better plan")
    assert env.close()[1]["strategies"]["Player 0"] == "first plan"


def test_non_string_action_is_a_type_error(server):
    env = make_env(server)
    env.reset(num_players=2, seed=0)
    for bad in (None, 42, b"bytes", ["list"]):
        with pytest.raises(TypeError, match="must be a str"):
            env.step(bad)
    assert env.get_observation()[0] == 0 and not env.done


def test_empty_strategy_gets_one_more_try(server):
    server.default = "Player 0"
    env = make_env(server)
    env.reset(num_players=2, seed=0)
    done, info = env.step("   \n\t ")
    assert not done and info["invalid_move"]
    player_id, observation = env.get_observation()
    assert player_id == 0
    assert "empty strategy" in observation and "one more try" in observation
    done, info = env.step("Real plan")
    assert not done and env.get_observation()[0] == 1
    assert "empty strategy" not in env.get_observation(1)[1]  # the warning was private
    done, info = env.step("Other plan")
    assert done and env.close()[0] == {0: 1, 1: -1}


def test_second_empty_strategy_forfeits_and_keeps_submissions(server):
    env = make_env(server)
    env.reset(num_players=2, seed=0)
    env.step("Plan A")
    env.step("")
    done, info = env.step("\u200b  ")
    assert done and info["winner"] == "Player 0"
    assert "Player 1 forfeits" in info["message"] and "empty strategy twice" in info["message"]
    rewards, game_info = env.close()
    assert rewards == {0: 1, 1: -1}
    assert game_info["outcome"] == "forfeit" and "forfeits" in game_info["reason"]
    assert game_info["strategies"] == {"Player 0": "Plan A", "Player 1": None}
    assert game_info["submissions"]["Player 1"] == ["", "\u200b  "]
    assert server.chat_requests == []  # no jury for a forfeit
    assert "forfeits" in env.get_observation(0)[1]


def test_megabyte_strategy_and_any_unicode_never_crash(server):
    server.default = "Player 1"
    env = make_env(server, jury_size=3)
    huge = "Dig a well. " * 90_000  # about 1 MB
    weird = "🌋 生存計画 \u202eRTL\u202c \x00 nul \ud800 lone surrogate 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 \r\n\u2028 end"
    done, info = play(env, huge, weird)
    assert done and info["votes"]["Player 1"] == 3
    rewards, game_info = env.close()
    assert game_info["strategies"]["Player 0"] == huge  # kept whole
    assert game_info["strategies"]["Player 1"] == weird
    assert game_info["truncated_for_jury"] == {"Player 0": True, "Player 1": False}
    assert game_info["prompt_char_limit"] == MAX_SUBMISSION_CHARS
    prompt = server.chat_requests[0].user_text
    assert len(prompt) < 2 * MAX_SUBMISSION_CHARS + 5_000
    assert f"cut at {MAX_SUBMISSION_CHARS} characters" in prompt
    assert "生存計画" in prompt
    json.dumps(game_info)


def test_board_shows_scenario_and_votes(server):
    server.default = "Player 0"
    env = make_env(server, jury_size=3)
    env.reset(num_players=2, seed=2)
    assert env.scenario in env.get_board_str()
    env.step("x")
    env.step("y")
    board = env.get_board_str()
    assert "Player 0: 3 votes" in board and "Player 1: 0 votes" in board and env.scenario in board


def test_reset_validates_players(server):
    env = make_env(server)
    with pytest.raises(ValueError, match="num_players must be 2"):
        env.reset(num_players=3)
    with pytest.raises(TextEnvError, match="reset"):
        ScenarioPlanningEnv(jury_class=OpenAICompatibleJury, **fast(server)).step("x")


def test_missing_openrouter_key_fails_at_make_time_naming_variable_and_offline_option():
    with pytest.raises(MissingAPIKey) as caught:
        makeenv.make("ScenarioPlanning-v0")
    message = str(caught.value)
    assert "OPENROUTER_API_KEY" in message
    assert "LocalJury" in message and "--jury local" in message


def test_jury_kwargs_override_and_pass_through(server):
    env = make_env(server, jury_size=7, quorum=2, timeout=1.5)
    assert env.jury.jury_size == 7 and env.jury.quorum == 2 and env.jury.settings.timeout == 1.5
    assert env.jury.options == ["Player 0", "Player 1"]


def test_jury_class_as_import_path_and_as_built_jury(server):
    env = makeenv.make(
        "ScenarioPlanning-v0", jury_class="makeenv.text.jury:OpenAICompatibleJury", jury_size=3, **fast(server)
    )
    assert isinstance(env.jury, OpenAICompatibleJury)
    built = OpenAICompatibleJury(["Player 0", "Player 1"], 3, **fast(server))
    env2 = ScenarioPlanningEnv(jury_class=built)
    assert env2.jury is built
    with pytest.raises(ValueError, match="cannot import the jury class"):
        ScenarioPlanningEnv(jury_class="makeenv.text.jury:NoSuchJury")


# ------------------------------------------------------------------ scenarios file
def test_builtin_scenarios_are_many_distinct_and_substantial():
    scenarios = load_scenarios()
    assert len(scenarios) >= 40 and len(set(scenarios)) == len(scenarios)
    assert all(len(s) > 80 for s in scenarios)
    assert len({s.split()[0] for s in scenarios}) > 5  # not one template


@pytest.mark.parametrize(
    "content, problem",
    [
        ("{not json", "not valid JSON"),
        ('["a", "b"]', "must hold a JSON object"),
        ('{"other": []}', "must hold a JSON object"),
        ('{"scenarios": "one"}', "must be a list"),
        ('{"scenarios": []}', "list is empty"),
        ('{"scenarios": ["ok", 3]}', "entry 1 is a int"),
        ('{"scenarios": ["ok", "  "]}', "entry 1 is an empty string"),
    ],
)
def test_bad_scenarios_files_name_file_and_problem(tmp_path, server, content, problem):
    path = tmp_path / "my_scenarios.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ScenarioFileError) as caught:
        make_env(server, scenarios_path=str(path))
    assert "my_scenarios.json" in str(caught.value) and problem in str(caught.value)


def test_missing_scenarios_file(tmp_path, server):
    with pytest.raises(FileNotFoundError, match="nope.json"):
        make_env(server, scenarios_path=str(tmp_path / "nope.json"))


def test_custom_scenarios_file_is_used(tmp_path, server):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"scenarios": ["Only this one: a flood of jelly."]}), encoding="utf-8")
    env = make_env(server, scenarios_path=path)
    env.reset(num_players=2, seed=5)
    assert "Scenario: Only this one: a flood of jelly.\n" in env.get_observation()[1]


def test_game_can_be_played_twice_with_one_env(server):
    server.default = "Player 1"
    env = make_env(server, jury_size=3)
    play(env)
    first = env.close()
    done, info = play(env, "again 0", "again 1")
    assert done and env.close()[1]["strategies"]["Player 0"] == "again 0"
    assert first[1]["strategies"]["Player 0"] != "again 0"


def test_quorum_failure_keeps_strategies_and_rejudge_finishes(server):
    server.default = Reply.error(500)
    env = make_env(server, jury_size=5, max_retries=0)
    env.reset(num_players=2, seed=0)
    env.step("keep me 0")
    with pytest.raises(JuryUnavailable, match="quorum") as caught:
        env.step("keep me 1")
    assert caught.value.verdict.valid_votes == 0 and caught.value.verdict.abstentions == 5
    assert not env.done and env.rewards is None
    assert env.strategies == {0: "keep me 0", 1: "keep me 1"}
    with pytest.raises(TextEnvError, match="rejudge"):
        env.step("another")
    _, info = env.close()  # a record is available even now, with the failed vote
    assert info["finished"] is False and len(info["failed_judgements"]) == 1
    server.default = "Player 0"
    done, info = env.rejudge()
    assert done and info["votes"] == {"Player 0": 5, "Player 1": 0}
    rewards, game_info = env.close()
    assert rewards == {0: 1, 1: -1}
    assert game_info["strategies"] == {"Player 0": "keep me 0", "Player 1": "keep me 1"}
    with pytest.raises(TextEnvError, match="nothing to judge"):
        env.rejudge()


def test_all_judges_failing_is_never_a_draw(server):
    server.default = "I cannot decide."
    env = make_env(server, jury_size=4)
    with pytest.raises(JuryUnavailable):
        play(env)
    assert env.rewards is None and env.outcome is None


def test_rejudge_with_another_jury(server):
    server.default = Reply.error(503)
    env = make_env(server, jury_size=3, max_retries=0)
    with pytest.raises(JuryUnavailable):
        play(env)
    server.default = "Player 1"
    other = OpenAICompatibleJury(["Player 0", "Player 1"], 1, **fast(server))
    done, info = env.rejudge(jury=other)
    assert done and info["votes"] == {"Player 0": 0, "Player 1": 1}

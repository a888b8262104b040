"""The TextEnv base on its own (a tiny game), and the scripted server's documented API."""

from __future__ import annotations

import json

import httpx
import pytest

from makeenv.text import GameOverError, TextEnv, TextEnvError
from tests.support.openai_server import OpenAIServer, Reply


class Countdown(TextEnv):
    """Players alternately say a number; the first to say 0 wins."""

    def _reset(self):
        self.number = 3 + self.rng.randrange(3)
        self.send(f"[GAME] Count down from {self.number}.")

    def _step(self, player_id, action):
        if action.strip() != str(self.number - 1):
            self.send(f"[GAME] Player {player_id} miscounted.")
            self.finish({player_id: -1, 1 - player_id: 1}, f"Player {player_id} miscounted.")
            return {}
        self.number -= 1
        if self.number == 0:
            self.finish({player_id: 1, 1 - player_id: -1}, f"Player {player_id} reached zero.")
            return {}
        self.send(f"[GAME] Player {player_id} says {action}.", to=1 - player_id)
        self.current_player = 1 - player_id
        return {}

    def get_board_str(self):
        return f"number: {self.number}"


def test_the_base_runs_any_text_game_with_the_textarena_loop():
    env = Countdown()
    with pytest.raises(TextEnvError, match="reset"):
        env.get_observation()
    env.reset(num_players=2, seed=1)
    start = env.number
    agent = lambda observation: str(int(observation.split()[-1].rstrip(".")) - 1)  # noqa: E731
    done = False
    while not done:
        player_id, observation = env.get_observation()
        done, info = env.step(agent(observation))
    rewards, game_info = env.close()
    assert sum(rewards.values()) == 0 and info["rewards"] == rewards
    assert game_info["turns"] == start and game_info["finished"] and json.dumps(game_info)
    with pytest.raises(GameOverError):
        env.step("0")
    with pytest.raises(TypeError):
        Countdown().reset(num_players=2, seed="x")


def test_close_before_the_end_gives_no_rewards():
    env = Countdown()
    env.reset(num_players=2, seed=0)
    rewards, game_info = env.close()
    assert rewards is None and game_info["finished"] is False


def test_server_queue_handler_default_order_and_recording():
    with OpenAIServer(default="from default") as server:
        server.handler = lambda request: "from handler" if request.model == "h" else None
        server.queue("queued", Reply.error(418, "teapot"))
        url = server.base_url + "/chat/completions"
        ask = lambda model: httpx.post(url, json={"model": model, "messages": [{"role": "user", "content": "q"}]})  # noqa: E731
        first = ask("h")
        assert first.json()["choices"][0]["message"]["content"] == "queued"
        assert ask("h").status_code == 418
        assert ask("h").json()["choices"][0]["message"]["content"] == "from handler"
        assert ask("other").json()["choices"][0]["message"]["content"] == "from default"
        assert [r.index for r in server.chat_requests] == [0, 1, 2, 3]
        assert server.chat_requests[0].user_text == "q" and server.chat_requests[0].model == "h"
        assert httpx.get(server.base_url + "/models").json()["data"][0]["id"] == "scripted"
        assert server.base_url.startswith("http://127.0.0.1:")


def test_the_official_openai_client_accepts_the_scripted_server():
    """The test double speaks the real protocol: OpenAI's own client parses its answers and errors."""
    openai = pytest.importorskip("openai")
    with OpenAIServer() as server:
        server.default = Reply.text("Player 1")
        client = openai.OpenAI(base_url=server.base_url, api_key="test-key", max_retries=0)
        answer = client.chat.completions.create(model="judge-a", messages=[{"role": "user", "content": "Who?"}])
        assert answer.choices[0].message.content == "Player 1"
        assert server.requests[-1].model == "judge-a"
        server.queue(Reply.error(429, "slow down"))
        with pytest.raises(openai.RateLimitError):
            client.chat.completions.create(model="judge-a", messages=[{"role": "user", "content": "Who?"}])

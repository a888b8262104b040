"""One turn of a text game: asking an agent for its answer, whatever the game and the agent.

A text agent is ``agent(observation) -> str``. When the game lists the valid answers
(``env.action_options``, e.g. an array game played as text) and the agent can pick among options
(``agent.choose(observation, options) -> index``, e.g. ``LocalAgent``), the agent picks one of
them, so it never gives an invalid answer; otherwise it writes its answer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

TextAgent = Callable[[str], str]


def ask(agent: TextAgent, env: Any, observation: str, player_id: int | None = None) -> str:
    """``agent``'s answer to ``observation`` for ``player_id`` (default: the player to move)."""
    choose = getattr(agent, "choose", None)
    options_of = getattr(env, "action_options", None)
    if callable(choose) and callable(options_of):
        options = options_of(player_id)
        if options:
            index = choose(observation, [option["label"] for option in options])
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(options):
                raise ValueError(
                    f"{agent!r}.choose returned {index!r}; expected an index from 0 to "
                    f"{len(options) - 1} into the options it was given"
                )
            return options[index]["answer"]
    answer = agent(observation)
    if not isinstance(answer, str):
        raise TypeError(f"the agent {agent!r} returned {type(answer).__name__}; a text agent returns a str")
    return answer


def play(
    env: Any, agents: Mapping[int, TextAgent] | TextAgent, num_players: int = 2, seed: int | None = None
) -> tuple[Any, dict[str, Any]]:
    """Reset ``env``, play it to the end with ``agents`` (one per player id, or one for all) and
    return ``env.close()``: ``(rewards, game_info)``."""
    env.reset(num_players=num_players, seed=seed)
    done = False
    while not done:
        player_id, observation = env.get_observation()
        agent = agents[player_id] if isinstance(agents, Mapping) else agents
        done, _info = env.step(ask(agent, env, observation, player_id))
    return env.close()

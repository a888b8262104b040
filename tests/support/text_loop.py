"""The TextArena loop, once, for tests that need a whole text game played through."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

TextAgent = Callable[[str], str]


def play_through(
    env: Any, agents: Mapping[int, TextAgent] | TextAgent, seed: int | None = None, num_players: int = 2
) -> tuple[dict[int, int], dict[str, Any], dict[str, Any]]:
    """Reset ``env`` and play it to the end; returns ``(rewards, game_info, last step's info)``.

    ``agents`` maps player ids to agents, or is one agent for every player.
    """
    env.reset(num_players=num_players, seed=seed)
    done, info = False, {}
    while not done:
        player_id, observation = env.get_observation()
        agent = agents[player_id] if isinstance(agents, Mapping) else agents
        done, info = env.step(agent(observation))
    rewards, game_info = env.close()
    return rewards, game_info, info

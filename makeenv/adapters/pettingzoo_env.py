"""PettingZoo environments for array games: an AEC env for every game, a Parallel env for
simultaneous-move games. Both step the game only through the referee (``ArrayEnv.new_match``).

Agents are ``player_0 .. player_{n-1}`` (every seat is an agent). An agent's observation is
``{"observation": its state (float32), "action_mask": int8 0/1}``; the mask is all zeros for an
agent that is not to move. Rewards come at the end: each player's return (``getReturns``, else
+1 / -1 / 0), and ``infos[agent]["result"]`` says "win", "loss" or "draw".
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pettingzoo import AECEnv, ParallelEnv

from makeenv.adapters import common
from makeenv.array.contract import ArrayEnv
from makeenv.array.errors import GameError, InvalidActionError
from makeenv.array.referee import Match


class _Table:
    """What both PettingZoo envs keep: the game, its spaces, the match and how to read it."""

    def _setup(
        self,
        env: ArrayEnv,
        invalid_action: str,
        invalid_reward: float,
        render_mode: str | None,
        render_player: int | None,
    ) -> None:
        env.require_contract()
        self.game = env
        self.invalid_action, self.invalid_reward = common.check_invalid_action(env.name, invalid_action, invalid_reward)
        self.possible_agents = [f"player_{p}" for p in range(env.players)]
        self.agents: list[str] = []
        self._seat = {agent: p for p, agent in enumerate(self.possible_agents)}
        space = common.masked_observation_space(env)
        self.observation_spaces = {agent: space for agent in self.possible_agents}
        action = _discrete(env)
        self.action_spaces = {agent: action for agent in self.possible_agents}
        modes = common.render_modes(env)
        self.metadata = {
            "name": f"makeenv/{env.name}",
            "render_modes": modes,
            "render_fps": common.RENDER_FPS,
            "is_parallelizable": env.simultaneous,
        }
        self.render_mode = common.check_render_mode(env, render_mode, modes)
        self.render_player = common.check_seat(env, render_player)
        self.match: Match | None = None
        self._seeds = np.random.default_rng()

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    @property
    def _match(self) -> Match:
        return common.live_match(self.match, self.game.name)

    def _new_match(self, seed: int | None) -> Match:
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        self.match = self.game.new_match(int(self._seeds.integers(2**63)), isolated=True)
        return self.match

    def _observation(self, player: int, mask: np.ndarray | None) -> dict[str, np.ndarray]:
        match = self._match
        state = match.state(player).astype(common.OBS_DTYPE)
        if mask is None:
            mask = np.zeros(match.n_actions, dtype=common.MASK_DTYPE)
        return {"observation": state, "action_mask": mask.astype(common.MASK_DTYPE)}

    def _final_rewards(self) -> tuple[dict[str, float], dict[str, dict[str, Any]]]:
        outcome = common.final_outcome(self._match)
        rewards = {agent: outcome.returns[p] for agent, p in self._seat.items()}
        infos = {agent: {"result": outcome.results[p]} for agent, p in self._seat.items()}
        return rewards, infos

    def _invalid(self, agent: str, error: InvalidActionError) -> tuple[dict[str, float], dict[str, dict[str, Any]]]:
        """The end of a game whose ``agent`` chose an invalid action (invalid_action="lose")."""
        if self.invalid_action == "raise":
            raise error
        rewards = {a: (self.invalid_reward if a == agent else 0.0) for a in self.possible_agents}
        infos = {a: ({"invalid_action": str(error)} if a == agent else {}) for a in self.possible_agents}
        return rewards, infos

    def render(self) -> Any:
        """The game from the view of the player to move (or of ``render_player``); see ``render_modes``."""
        if self.render_mode is None or self.match is None:
            return None
        player = self.render_player
        if player is None:
            player = self.match.current_player if not self.match.over else 0
        return common.render_state(self.game, self.match.state(player), self.render_mode)

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return f"makeenv/{self.game.name}"


def _discrete(env: ArrayEnv) -> Any:
    from gymnasium import spaces

    return spaces.Discrete(int(env.getActionSize()))


class ArrayGameAEC(_Table, AECEnv):
    """A PettingZoo AEC env of an array game: one agent acts at a time, the player to move."""

    def __init__(
        self,
        env: ArrayEnv,
        *,
        invalid_action: str = "lose",
        invalid_reward: float = -1.0,
        render_mode: str | None = None,
        render_player: int | None = None,
    ) -> None:
        AECEnv.__init__(self)
        self._setup(env, invalid_action, invalid_reward, render_mode, render_player)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._new_match(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[0]
        self._after_move(None)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = self._seat[agent]
        match = self._match
        mover = None if match.over else match.current_player
        return self._observation(player, match.valid_actions() if player == mover else None)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        try:
            self._match.step(common.action_value(self.game.name, action), who=agent)
        except InvalidActionError as error:
            rewards, infos = self._invalid(agent, error)
            self._end(rewards, infos, truncated=False, mover=agent)
        else:
            self._after_move(agent)
        self._accumulate_rewards()

    def _after_move(self, mover: str | None) -> None:
        """Hand the turn to the player to move, or end the episode for everybody."""
        match = self._match
        if not match.over:
            self.agent_selection = self.possible_agents[common.player_to_move(match)]
            return
        rewards, infos = self._final_rewards()
        self._end(rewards, infos, truncated=match.truncated, mover=mover)

    def _end(
        self, rewards: dict[str, float], infos: dict[str, dict[str, Any]], *, truncated: bool, mover: str | None
    ) -> None:
        for agent in self.agents:
            self.rewards[agent] = rewards[agent]
            self.infos[agent] = infos[agent]
            self.terminations[agent] = not truncated
            self.truncations[agent] = truncated
        # the dead agents then step (with None) in seat order from the one after the mover
        start = (self._seat[mover] + 1) % len(self.possible_agents) if mover is not None else 0
        self.agent_selection = self.possible_agents[start]


class ArrayGameParallel(_Table, ParallelEnv):
    """A PettingZoo Parallel env of a simultaneous-move game: each step takes one action per
    player and plays them in seat order as one round (the game's ``SIMULTANEOUS`` rounds)."""

    def __init__(
        self,
        env: ArrayEnv,
        *,
        invalid_action: str = "lose",
        invalid_reward: float = -1.0,
        render_mode: str | None = None,
        render_player: int | None = None,
    ) -> None:
        if not env.simultaneous:
            raise ValueError(
                f"{env.name} is turn-based (no SIMULTANEOUS = True), so it has no rounds of one move "
                "per player; use the AEC env: to_pettingzoo(env)"
            )
        self._setup(env, invalid_action, invalid_reward, render_mode, render_player)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        self._new_match(seed)
        self.agents = list(self.possible_agents)
        self._check_round_start()
        return self._observations(), {agent: {} for agent in self.agents}

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        match = self._match
        running = not match.over
        return {
            agent: self._observation(p, match.valid_actions(p) if running else None) for agent, p in self._seat.items()
        }

    def _check_round_start(self) -> None:
        match = self._match
        if not match.over and match.current_player != 0:
            raise GameError(
                f"{self.game.name}: a round of simultaneous moves starts with player 0, but player "
                f"{match.current_player} is to move at step {match.steps}"
            )

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        if not self.agents:
            raise RuntimeError(f"{self.game.name}: the game is over; call reset() before step()")
        missing = [agent for agent in self.agents if agent not in actions]
        if missing:
            raise KeyError(f"{self.game.name}: step() needs one action per live agent; missing {missing}")
        rewards = {agent: 0.0 for agent in self.agents}
        infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        invalid = False
        match = self._match
        for player, agent in enumerate(self.possible_agents):
            if match.over:
                break
            if match.current_player != player:
                raise GameError(
                    f"{self.game.name}: player {player} should move now, in seat order, but player "
                    f"{match.current_player} is to move at step {match.steps}"
                )
            try:
                match.step(common.action_value(self.game.name, actions[agent]), who=agent)
            except InvalidActionError as error:
                rewards, infos = self._invalid(agent, error)
                invalid = True
                break
        observations = self._observations()
        over = invalid or match.over
        if over and not invalid:
            rewards, infos = self._final_rewards()
        else:
            self._check_round_start()
        truncated = over and not invalid and match.truncated
        terminations = {agent: over and not truncated for agent in self.agents}
        truncations = {agent: truncated for agent in self.agents}
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos


def to_pettingzoo(
    env: ArrayEnv | str,
    *,
    parallel: bool = False,
    invalid_action: str = "lose",
    invalid_reward: float = -1.0,
    render_mode: str | None = None,
    render_player: int | None = None,
    **game_options: Any,
) -> ArrayGameAEC | ArrayGameParallel:
    """A PettingZoo env of an array game (an ``ArrayEnv`` or a registered game's name).

    ``parallel=True``: a Parallel env, for games with ``SIMULTANEOUS = True``. ``invalid_action``:
    "lose" (the game ends; the player who chose it gets ``invalid_reward``, the others 0, and its
    info says why) or "raise" (``InvalidActionError``). ``render_mode``: "ansi", "svg" or
    "rgb_array" (see ``makeenv.adapters.common.render_modes``), drawn from the view of the player
    to move or of ``render_player``. ``game_options`` (``players=4``) go to ``makeenv.make``.
    """
    game = common.as_array_env(env, **game_options)
    kind = ArrayGameParallel if parallel else ArrayGameAEC
    return kind(
        game,
        invalid_action=invalid_action,
        invalid_reward=invalid_reward,
        render_mode=render_mode,
        render_player=render_player,
    )

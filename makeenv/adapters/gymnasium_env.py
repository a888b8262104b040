"""A single-agent Gymnasium env of an array game: the agent in one seat, a level's bots in the others.

The game is stepped only through the referee (``ArrayEnv.new_match``); the bots are the level's
(``ArrayEnv.opponents(level)``), each seat playing from its own copy of its ``Bot``'s data, kept
across episodes like a run's (a seeded ``reset`` starts them afresh). Every bot gets its final
turn when a game ends, as in ``ArrayEnv.run``.

Importing this module registers every array game of ``makeenv.registry`` with Gymnasium, so
``gymnasium.make("makeenv/TicTacToe", level=1)`` works after ``import makeenv.adapters`` (and returns
the ``ArrayGameEnv`` itself, so ``env.action_masks()`` is there).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from makeenv.adapters import common
from makeenv.array.agents import Bot
from makeenv.array.contract import ArrayEnv
from makeenv.array.errors import GameError, InvalidActionError
from makeenv.array.referee import Match

MAX_DEALS = 100  # games in a row that may end before the agent's first move (then the game is broken)
ADAPTER_OPTIONS = ("level", "seat", "mask_in_observation", "invalid_action", "invalid_reward", "render_mode")


class ArrayGameEnv(gymnasium.Env):
    """One array game as a Gymnasium env: ``Discrete`` actions, ``Box`` observations (the agent's
    state as float32), the valid actions in ``info["action_mask"]`` and ``action_masks()``
    (sb3-contrib's MaskablePPO reads it), or in the observation with ``mask_in_observation=True``.

    The reward is 0 until the game ends, then the agent's return (``getReturns``, else +1 / -1 / 0);
    ``terminated`` marks the end, ``truncated`` a game cut by its ``TURN_LIMIT``. ``info["result"]``
    says "win", "loss" or "draw" at the end.
    """

    def __init__(
        self,
        env: ArrayEnv,
        level: int = 0,
        *,
        seat: int | None = None,
        mask_in_observation: bool = False,
        invalid_action: str = "lose",
        invalid_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        env.require_contract()
        self.game = env
        self.level = common.check_level(env, level)
        self.seat = common.check_seat(env, seat)
        self.invalid_action, self.invalid_reward = common.check_invalid_action(env.name, invalid_action, invalid_reward)
        self.mask_in_observation = bool(mask_in_observation)
        self.opponents: list[Bot] = env.opponents(self.level)
        self._bot_data = [bot.initial_data() for bot in self.opponents]
        self.action_space = spaces.Discrete(int(env.getActionSize()))
        self.observation_space = (
            common.masked_observation_space(env) if self.mask_in_observation else common.observation_box(env)
        )
        modes = common.render_modes(env)
        self.metadata = {"render_modes": modes, "render_fps": common.RENDER_FPS}
        self.render_mode = common.check_render_mode(env, render_mode, modes)
        self.match: Match | None = None
        self.me = 0
        self._bot_of_seat: dict[int, int] = {}  # seat -> index into opponents
        self._over = True

    # ---- Gymnasium API ----------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:  # a seeded reset starts a new run: the bots forget earlier games
            self._bot_data = [bot.initial_data() for bot in self.opponents]
        for _ in range(MAX_DEALS):
            self._deal()
            self._let_bots_move()
            if not self._match.over:
                self._over = False
                return self._observation(), self._info()
            self._final_turns()
        raise GameError(f"{self.game.name}: {MAX_DEALS} games in a row ended before the agent's first move")

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self._over:
            raise RuntimeError(f"{self.game.name}: the episode is over; call reset() before step()")
        try:
            self._match.step(common.action_value(self.game.name, action), who=f"the agent (player {self.me})")
        except InvalidActionError as error:
            if self.invalid_action == "raise":
                raise
            self._over = True
            info = self._info()
            info["invalid_action"] = str(error)
            return self._observation(), self.invalid_reward, True, False, info
        self._let_bots_move()
        if not self._match.over:
            return self._observation(), 0.0, False, False, self._info()
        self._over = True
        self._final_turns()
        outcome = common.final_outcome(self._match)
        info = self._info()
        info["result"] = outcome.results[self.me]
        return (self._observation(), float(outcome.returns[self.me]), not outcome.truncated, outcome.truncated, info)

    def action_masks(self) -> np.ndarray:
        """The valid actions now, as booleans (all False once the episode is over)."""
        return self._mask().astype(bool)

    def render(self) -> Any:
        """The game from the agent's view: text ("ansi"), SVG text ("svg") or an RGB array ("rgb_array")."""
        if self.match is None:
            return None
        return common.render_state(self.game, self.match.state(self.me), self.render_mode)

    # ---- one game ---------------------------------------------------------------------------------
    @property
    def _match(self) -> Match:
        return common.live_match(self.match, self.game.name)

    def _deal(self) -> None:
        """A new match: the agent's seat (fixed or drawn) and the bots in the other seats, shuffled."""
        rng = self.np_random
        players = self.game.players
        self.me = self.seat if self.seat is not None else int(rng.integers(players))
        others = [p for p in range(players) if p != self.me]
        order = rng.permutation(len(others)) if len(others) > 1 else range(len(others))
        self._bot_of_seat = {others[i]: int(k) for i, k in enumerate(order)}
        self.match = self.game.new_match(int(rng.integers(2**63)), isolated=True)

    def _let_bots_move(self) -> None:
        match = self._match
        while not match.over:
            player = common.player_to_move(match)
            if player == self.me:
                return
            k = self._bot_of_seat[player]
            bot = self.opponents[k]
            who = f"player {player} (the level-{self.level} bot {bot.label})"
            _, self._bot_data[k] = match.step_with(bot.policy, self._bot_data[k], who=who)

    def _final_turns(self) -> None:
        """Every bot sees its final state (it may learn from it, as in a run)."""
        match = self._match
        match.reseed()
        for player, k in self._bot_of_seat.items():
            self.opponents[k].policy(match.state(player), self._bot_data[k])

    def _mask(self) -> np.ndarray:
        match = self._match
        if self._over and not match.over:  # ended by an invalid action
            return np.zeros(match.n_actions, dtype=common.MASK_DTYPE)
        return match.valid_actions().astype(common.MASK_DTYPE)

    def _observation(self) -> Any:
        state = self._match.state(self.me).astype(common.OBS_DTYPE)
        if self.mask_in_observation:
            return {"observation": state, "action_mask": self._mask()}
        return state

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask(), "seat": self.me}

    def __str__(self) -> str:
        return f"<ArrayGameEnv makeenv/{self.game.name} level={self.level}>"


def to_gymnasium(
    env: ArrayEnv | str,
    level: int = 0,
    *,
    seat: int | None = None,
    mask_in_observation: bool = False,
    invalid_action: str = "lose",
    invalid_reward: float = -1.0,
    render_mode: str | None = None,
    **game_options: Any,
) -> ArrayGameEnv:
    """A single-agent Gymnasium env of an array game (an ``ArrayEnv`` or a registered game's name)
    against ``level``'s bots.

    ``seat``: None (a random seat every episode) or a fixed seat. ``invalid_action``: "lose" (the
    episode ends with ``invalid_reward``, ``info["invalid_action"]`` says why) or "raise".
    ``render_mode``: "ansi", "svg" or "rgb_array". ``game_options`` go to ``makeenv.make``.
    """
    return ArrayGameEnv(
        common.as_array_env(env, **game_options),
        level,
        seat=seat,
        mask_in_observation=mask_in_observation,
        invalid_action=invalid_action,
        invalid_reward=invalid_reward,
        render_mode=render_mode,
    )


def make_registered(game: str, **options: Any) -> ArrayGameEnv:
    """The entry point of ``gymnasium.make("makeenv/<game>", ...)``: adapter options and game options."""
    adapter = {key: options.pop(key) for key in ADAPTER_OPTIONS if key in options}
    return to_gymnasium(game, **adapter, **options)


def make_registered_batch(game: str, num_envs: int = 1, **options: Any) -> Any:
    """The vector entry point of ``gymnasium.make_vec("makeenv/<game>", num_envs=N, ...)``."""
    from makeenv.adapters.batched_env import BATCH_OPTIONS, BatchedEnv

    adapter = {key: options.pop(key) for key in BATCH_OPTIONS if key in options}
    return BatchedEnv(common.as_array_env(game, **options), num_envs, **adapter)


def register_game(name: str) -> str:
    """Register the array game ``name`` with Gymnasium as ``makeenv/<name>``; returns that id."""
    env_id = f"makeenv/{name}"
    if env_id not in gymnasium.registry:
        # no OrderEnforcing / PassiveEnvChecker wrappers by default (the env enforces reset-before-step
        # itself and passes check_env), so env.action_masks() works on what gymnasium.make returns,
        # as sb3-contrib's MaskablePPO expects
        gymnasium.register(
            id=env_id,
            entry_point=f"{__name__}:make_registered",
            vector_entry_point=f"{__name__}:make_registered_batch",
            kwargs={"game": name},
            order_enforce=False,
            disable_env_checker=True,
        )
    return env_id


def register_all() -> list[str]:
    """Register every array game of ``makeenv.registry`` (``makeenv/<name>``)."""
    from makeenv.registry import REGISTRY

    return [register_game(spec.id) for spec in REGISTRY.values() if spec.kind == "array"]


register_all()

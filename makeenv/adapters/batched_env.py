"""A batched Gymnasium vector env: N games of one array game stepped in one compiled call.

Each of the N games seats the agent (one action per game per step) against a level's numba bots,
which reply inside the same compiled call (``makeenv/array/_batch_template.py``, calling the
game's referee for every rule). A game that ends is replaced at once by a new one
(``AutoresetMode.SAME_STEP``): that step's observation is the new game's first one, and
``infos["final_obs"]`` holds the last observation of the games flagged in ``infos["_final_obs"]``.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from makeenv.adapters import common
from makeenv.array import errors as E
from makeenv.array.cache import batch_module
from makeenv.array.contract import ArrayEnv
from makeenv.array.errors import GameError
from makeenv.array.runner import make_plan

BATCH_OPTIONS = (
    "level",
    "seat",
    "mask_in_observation",
    "invalid_action",
    "invalid_reward",
    "chunks",
    "threads",
    "copy",
    "render_mode",
)


class BatchedEnv(VectorEnv):
    """``num_envs`` games of ``env`` against ``level``'s bots, as a ``gymnasium.vector.VectorEnv``.

    Observations are ``(num_envs, state size)`` float32 (or a dict with the ``action_mask`` when
    ``mask_in_observation``); ``action_masks()`` is the ``(num_envs, actions)`` bool mask (also in
    ``infos["action_mask"]``). Rewards are each agent's return when its game ends, else 0;
    ``infos["result"]`` is +1 / 0 / -1 (win / draw / loss) and ``infos["game_length"]`` the number
    of moves (every player's) of the games that just ended (flagged in ``infos["_result"]``).

    ``chunks``: the games are stepped in this many independent chunks, each with its own seed
    (a batch is reproducible for a given seed and chunk count); ``threads=True`` steps the chunks
    on numba's threads (chunks default to numba's thread count then). Threads pay only on cores
    nobody else uses: on a busy machine each step waits for the slowest thread to be scheduled.
    ``copy=False`` returns the env's own arrays (overwritten by the next step) instead of copies.
    """

    def __init__(
        self,
        env: ArrayEnv,
        num_envs: int,
        level: int = 0,
        *,
        seat: int | None = None,
        mask_in_observation: bool = False,
        invalid_action: str = "lose",
        invalid_reward: float = -1.0,
        chunks: int | None = None,
        threads: bool = False,
        copy: bool = True,
        render_mode: str | None = None,
    ) -> None:
        env.require_contract()
        self.game = env
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"{env.name}: num_envs must be a positive int, got {num_envs!r}")
        if chunks is None:
            chunks = min(num_envs, numba.get_num_threads()) if threads else 1
        if isinstance(chunks, bool) or not isinstance(chunks, (int, np.integer)) or not 1 <= chunks <= num_envs:
            raise ValueError(f"{env.name}: chunks must be an int in 1..num_envs ({num_envs}), got {chunks!r}")
        self.num_envs = int(num_envs)
        self.level = common.check_level(env, level)
        seat = common.check_seat(env, seat)
        self.fixed_seat = -1 if seat is None else seat
        self.invalid_action, self.invalid_reward = common.check_invalid_action(env.name, invalid_action, invalid_reward)
        self.mask_in_observation = bool(mask_in_observation)
        self.copy = bool(copy)
        plan = make_plan(env, "random", self.level)
        if plan.python_seats:
            python_bots = [bot.label for bot, fn in zip(plan.opponents, plan.slot_fn) if fn < 0]
            raise ValueError(
                f"{env.name}: the batched env runs the level-{self.level} bots inside compiled code, "
                f"but {', '.join(python_bots)} is plain Python; use to_gymnasium() for this level"
            )
        self.opponents = plan.opponents
        self._slot_fn = plan.slot_fn
        self.core = batch_module(plan.module, bool(threads))

        n, players, n_actions = self.num_envs, env.players, int(env.getActionSize())
        state_size = int(env.getStateSize())
        env_size = int(np.asarray(env.initEnv()).shape[0])
        self._envs = np.zeros((n, env_size), dtype=np.float64)
        self._steps = np.zeros(n, dtype=np.int64)
        self._seats = np.zeros(n, dtype=np.int64)
        self._seat_slot = np.zeros((n, players), dtype=np.int64)
        self._bot_data = self._fresh_bot_data()
        self._states = np.zeros((n, state_size), dtype=np.float64)  # exact, for the referee's checks
        self._obs = np.zeros((n, state_size), dtype=common.OBS_DTYPE)
        self._masks = np.zeros((n, n_actions), dtype=common.MASK_DTYPE)
        self._rewards = np.zeros(n, dtype=np.float64)
        self._terminated = np.zeros(n, dtype=np.bool_)
        self._truncated = np.zeros(n, dtype=np.bool_)
        self._ended = np.zeros(n, dtype=np.bool_)
        self._final_obs = np.zeros((n, state_size), dtype=common.OBS_DTYPE)
        self._results = np.zeros(n, dtype=np.int8)
        self._lengths = np.zeros(n, dtype=np.int64)
        self._invalid = np.zeros(n, dtype=np.bool_)
        self._chunks = int(chunks)
        self._status = np.zeros(self._chunks, dtype=np.int64)
        self._failed_at = np.zeros(self._chunks, dtype=np.int64)
        self._err = np.zeros((self._chunks, E.ERR_SIZE), dtype=np.float64)
        self._err_valid = np.zeros((self._chunks, n_actions), dtype=np.float64)
        self._actions = np.zeros(n, dtype=np.float64)
        self._started = False

        self.single_action_space = spaces.Discrete(n_actions)
        self.action_space = spaces.MultiDiscrete(np.full(n, n_actions, dtype=np.int64))
        self.single_observation_space = (
            common.masked_observation_space(env) if self.mask_in_observation else common.observation_box(env)
        )
        self.observation_space = batch_space(self.single_observation_space, n)
        modes = common.render_modes(env)
        self.metadata = {
            "autoreset_mode": AutoresetMode.SAME_STEP,
            "render_modes": modes,
            "render_fps": common.RENDER_FPS,
        }
        self.render_mode = common.check_render_mode(env, render_mode, modes)

    def _fresh_bot_data(self) -> np.ndarray:
        """Every game's copy of every opponent slot's data: ``(num_envs, slots, longest data)``."""
        data = [bot.initial_data() for bot in self.opponents] or [np.zeros(1)]
        table = np.zeros((self.num_envs, len(data), max(d.shape[0] for d in data)), dtype=np.float64)
        for slot, values in enumerate(data):
            table[:, slot, : values.shape[0]] = values
        return table

    def _seeds(self) -> np.ndarray:
        return self.np_random.integers(2**32, size=self._chunks, dtype=np.uint32).astype(np.int64)

    # ---- VectorEnv API ----------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """New games in every slot; a seed makes the whole batch reproducible (and restarts the bots' data)."""
        super().reset(seed=seed)
        if self._np_random is None:
            self._np_random = np.random.default_rng()
        if seed is not None:
            self._bot_data = self._fresh_bot_data()
        self.core.reset_batch(
            self._seeds(),
            self._envs,
            self._steps,
            self._seats,
            self._seat_slot,
            self._slot_fn,
            self._bot_data,
            self.fixed_seat,
            self._states,
            self._obs,
            self._masks,
            self._status,
            self._failed_at,
            self._err,
            self._err_valid,
            self.game.init_args,
        )
        self._raise_on_failure()
        self._started = True
        return self._observations(), {"action_mask": self._out(self._masks)}

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action per game (an int array of shape ``(num_envs,)``); ended games restart at once."""
        if not self._started:
            raise RuntimeError(f"{self.game.name}: call reset() before step()")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(
                f"{self.game.name}: step() takes one action per game, an array of shape "
                f"({self.num_envs},); got shape {actions.shape}"
            )
        if not (np.issubdtype(actions.dtype, np.integer) or np.issubdtype(actions.dtype, np.floating)):
            raise TypeError(f"{self.game.name}: actions must be ints, got an array of {actions.dtype}")
        self._actions[:] = actions
        self.core.step_batch(
            self._seeds(),
            self._actions,
            self._envs,
            self._steps,
            self._seats,
            self._seat_slot,
            self._slot_fn,
            self._bot_data,
            self.fixed_seat,
            self.invalid_action == "lose",
            self.invalid_reward,
            self._states,
            self._obs,
            self._masks,
            self._rewards,
            self._terminated,
            self._truncated,
            self._ended,
            self._final_obs,
            self._results,
            self._lengths,
            self._invalid,
            self._status,
            self._failed_at,
            self._err,
            self._err_valid,
            self.game.init_args,
        )
        self._raise_on_failure()
        infos: dict[str, Any] = {"action_mask": self._out(self._masks)}
        if self._ended.any():
            ended = self._ended.copy()
            infos.update(
                {
                    "final_obs": self._final_obs.copy(),
                    "_final_obs": ended,
                    "result": self._results.copy(),
                    "_result": ended,
                    "game_length": self._lengths.copy(),
                    "_game_length": ended,
                }
            )
            if self._invalid.any():
                infos.update({"invalid_action": self._invalid.copy(), "_invalid_action": ended})
        return (
            self._observations(),
            self._out(self._rewards),
            self._out(self._terminated),
            self._out(self._truncated),
            infos,
        )

    def action_masks(self) -> np.ndarray:
        """The valid actions of every game now, ``(num_envs, actions)`` booleans."""
        return self._masks.astype(bool)

    def sample_valid_actions(self) -> np.ndarray:
        """A uniformly random valid action for every game (a random player, compiled), drawn from
        this env's generator."""
        out = np.empty(self.num_envs, dtype=np.int64)
        self.core.random_valid_actions(int(self.np_random.integers(2**32)), self._masks, out)
        return out

    def render(self) -> tuple[Any, ...] | None:
        """Every game from its agent's view, in ``render_mode`` (None without one)."""
        if self.render_mode is None:
            return None
        return tuple(
            common.render_state(
                self.game, np.asarray(self.game.getPlayerState(self._envs[i], int(self._seats[i]))), self.render_mode
            )
            for i in range(self.num_envs)
        )

    # ---- helpers ------------------------------------------------------------------------------------
    def _out(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array

    def _observations(self) -> Any:
        if self.mask_in_observation:
            return {"observation": self._out(self._obs), "action_mask": self._out(self._masks)}
        return self._out(self._obs)

    def _raise_on_failure(self) -> None:
        for c in range(self._chunks):
            code = int(self._status[c])
            if code == self.core.CHUNK_OK:
                continue
            self._started = False
            game = int(self._failed_at[c])
            if code == self.core.CHUNK_STUCK:
                raise GameError(
                    f"{self.game.name}: game {game} of the batch ended {self.core.MAX_DEALS} times in a "
                    "row before the agent's first move"
                )
            record, valid = self._err[c].copy(), self._err_valid[c].copy()
            self._err[c] = 0.0
            raise E.error_from_record(
                self.game.name,
                record,
                n_players=self.game.players,
                n_actions=int(self.game.getActionSize()),
                max_steps=self.game.max_steps,
                valid=valid,
                name_actor=self._name_actor,
                describe=self.game.describe_action,
                where=f"in game {game} of the batch, step {int(record[E.ERR_STEP]) + 1}",
            )

    def _name_actor(self, actor: int, player: int) -> str:
        if actor == E.ACTOR_AGENT:
            return f"player {player} (the agent)"
        if 0 <= actor < len(self.opponents):
            return f"player {player} (the level-{self.level} bot {self.opponents[actor].label})"
        return f"player {player}"

    def __repr__(self) -> str:
        return f"BatchedEnv(makeenv/{self.game.name}, num_envs={self.num_envs}, level={self.level})"


def make_batched(env: ArrayEnv | str, num_envs: int, level: int = 0, **options: Any) -> BatchedEnv:
    """``BatchedEnv`` of an ``ArrayEnv`` or a registered game's name (game options go to ``makeenv.make``)."""
    adapter = {key: options.pop(key) for key in BATCH_OPTIONS if key in options}
    return BatchedEnv(common.as_array_env(env, **options), num_envs, level, **adapter)

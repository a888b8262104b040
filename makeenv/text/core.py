"""The text-env base: the TextArena-style loop every text game shares.

```python
env.reset(num_players=2, seed=0)
done = False
while not done:
    player_id, observation = env.get_observation()
    done, info = env.step(agents[player_id](observation))
rewards, game_info = env.close()
```

A game subclasses ``TextEnv`` and writes only its rules: ``_reset`` (set up, send the first
messages), ``_step`` (apply one player's text), ``_game_info`` (its part of the record) and
``get_board_str``. Turn order, message delivery, argument checks, the end of the game and rewards
are handled here, once.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any


class TextEnvError(RuntimeError):
    """A text env was used out of order (stepped before ``reset`` or after the end, ...)."""


class GameOverError(TextEnvError):
    """``step`` was called after the game ended."""


GAME = "GAME"  # sender id of the environment's own messages


class TextEnv(ABC):
    """Base of every text env: turns, per-player messages, rewards and the record.

    Observations are strings: everything a player has been told so far, one message per line
    group, so a stateless agent (``agent(observation) -> str``) always sees its whole context and
    never another player's private messages.
    """

    min_players: int = 2
    max_players: int = 2
    env_id: str = ""

    def __init__(self) -> None:
        self.num_players = 0
        self.seed: int | None = None
        self.rng = random.Random()
        self.current_player = 0
        self.turn = 0
        self.done = False
        self.rewards: dict[int, int] | None = None
        self.reason = ""
        self.log: list[dict[str, Any]] = []
        self._inbox: list[list[str]] = []
        self._started = False

    # ----------------------------------------------------------------- the loop
    def reset(self, num_players: int = 2, seed: int | None = None) -> None:
        """Start a new game for ``num_players`` players; ``seed`` makes it reproducible."""
        if not isinstance(num_players, int) or isinstance(num_players, bool) \
                or not self.min_players <= num_players <= self.max_players:
            allowed = (str(self.min_players) if self.min_players == self.max_players
                       else f"{self.min_players} to {self.max_players}")
            raise ValueError(f"{type(self).__name__}.reset: num_players must be {allowed}, got {num_players!r}")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise TypeError(f"{type(self).__name__}.reset: seed must be an int or None, got {seed!r}")
        self.num_players = num_players
        self.seed = seed
        self.rng = random.Random(seed)
        self.current_player = 0
        self.turn = 0
        self.done = False
        self.rewards = None
        self.reason = ""
        self.log = []
        self._inbox = [[] for _ in range(num_players)]
        self._started = True
        self._reset()

    def get_observation(self, player_id: int | None = None) -> tuple[int, str]:
        """``(player_id, observation)`` for the player to move (or for ``player_id`` if given)."""
        self._require_started("get_observation")
        if player_id is None:
            player_id = self.current_player
        elif not isinstance(player_id, int) or not 0 <= player_id < self.num_players:
            raise ValueError(f"{type(self).__name__}.get_observation: no player {player_id!r}")
        return player_id, "\n".join(self._inbox[player_id])

    def step(self, action: str) -> tuple[bool, dict[str, Any]]:
        """The player to move acts with ``action`` (a str); returns ``(done, info)``."""
        self._require_started("step")
        if self.done:
            raise GameOverError(f"{type(self).__name__}.step: the game is over ({self.reason}). "
                                "Call close() for the rewards and the record, or reset() to play again.")
        if not isinstance(action, str):
            raise TypeError(f"{type(self).__name__}.step: an action must be a str (the player's text), "
                            f"got {type(action).__name__}")
        player_id = self.current_player
        self.log.append({"turn": self.turn, "from": player_id, "to": "env", "text": action})
        self.turn += 1
        info = self._step(player_id, action)
        info.setdefault("player_id", player_id)
        if self.done:
            info.setdefault("reason", self.reason)
            info.setdefault("rewards", dict(self.rewards or {}))
        return self.done, info

    def close(self) -> tuple[dict[int, int] | None, dict[str, Any]]:
        """``(rewards, game_info)``; rewards are None when the game did not finish.

        Releases what the env holds (connections, models); the env can still be reset and reused.
        """
        game_info = self.game_info()
        self._release()
        return (dict(self.rewards) if self.rewards is not None else None), game_info

    def game_info(self) -> dict[str, Any]:
        """The whole record so far, as plain JSON-serialisable data."""
        return {
            "env_id": self.env_id or type(self).__name__,
            "num_players": self.num_players,
            "seed": self.seed,
            "turns": self.turn,
            "finished": self.done,
            "rewards": {str(k): v for k, v in self.rewards.items()} if self.rewards is not None else None,
            "reason": self.reason,
            **self._game_info(),
            "log": list(self.log),
        }

    @abstractmethod
    def get_board_str(self) -> str:
        """A human-readable picture of the game as it stands (safe to show any spectator)."""

    # ----------------------------------------------------------------- for subclasses
    @abstractmethod
    def _reset(self) -> None:
        """Set up a new game (use ``self.rng``) and send the first observations."""

    @abstractmethod
    def _step(self, player_id: int, action: str) -> dict[str, Any]:
        """Apply ``action`` of ``player_id`` (already checked to be a str); return ``info``."""

    def _game_info(self) -> dict[str, Any]:
        """The game's own part of the record."""
        return {}

    def _release(self) -> None:
        """Free resources at ``close``."""

    def send(self, text: str, to: int | None = None) -> None:
        """Deliver an environment message to one player, or to everyone when ``to`` is None."""
        targets = range(self.num_players) if to is None else [to]
        for target in targets:
            self._inbox[target].append(text)
        self.log.append({"turn": self.turn, "from": GAME, "to": "all" if to is None else to, "text": text})

    def finish(self, rewards: dict[int, int], reason: str) -> None:
        """End the game with ``rewards`` per player and a reason shown in ``info`` and the record."""
        self.rewards = {int(player): int(value) for player, value in sorted(rewards.items())}
        self.reason = reason
        self.done = True

    def _require_started(self, what: str) -> None:
        if not self._started:
            raise TextEnvError(f"{type(self).__name__}.{what}: call reset(num_players=...) first")

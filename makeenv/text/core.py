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
from collections.abc import Mapping
from typing import Any


class TextEnvError(RuntimeError):
    """A text env was used out of order (stepped before ``reset`` or after the end, ...)."""


class GameOverError(TextEnvError):
    """``step`` was called after the game ended."""


GAME = "GAME"  # sender id of the environment's own messages

# What a message is, so viewers that sort messages (TextArena's observation wrappers, through
# ``makeenv.text.textarena_view``) can tell them apart. The observation string never shows it.
MESSAGE_KINDS = ("prompt", "board", "action", "message", "admin")


class TextEnv(ABC):
    """Base of every text env: turns, per-player messages, rewards and the record.

    Observations are strings: everything a player has been told so far, one message per line
    group, so a stateless agent (``agent(observation) -> str``) always sees its whole context and
    never another player's private messages.
    """

    min_players: int = 2
    max_players: int = 2
    env_id: str = ""

    # Optional hooks the generic front ends (``makeenv match``, ``makeenv play``) use when a game
    # offers them; the defaults below mean "not offered". See docs/ARCHITECTURE.md.
    has_jury: bool = False  # made with jury_class / jury_size / jury settings; may need rejudge()
    answer_hint: dict[str, Any] = {"label": "Your answer", "placeholder": "", "button": "Send", "multiline": True}

    def __init__(self) -> None:
        self.num_players = 0
        self.seed: int | None = None
        self.rng = random.Random()
        self.current_player = 0
        self.turn = 0
        self.done = False
        self.rewards: dict[int, int | float] | None = None
        self.reason = ""
        self.log: list[dict[str, Any]] = []
        self._inbox: list[list[str]] = []
        self._meta: list[list[tuple[int | str, str]]] = []  # (sender, kind) of each inbox message
        self._started = False

    # ----------------------------------------------------------------- the loop
    def reset(self, num_players: int = 2, seed: int | None = None) -> None:
        """Start a new game for ``num_players`` players; ``seed`` makes it reproducible."""
        if (
            not isinstance(num_players, int)
            or isinstance(num_players, bool)
            or not self.min_players <= num_players <= self.max_players
        ):
            allowed = (
                str(self.min_players)
                if self.min_players == self.max_players
                else f"{self.min_players} to {self.max_players}"
            )
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
        self._meta = [[] for _ in range(num_players)]
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
            raise GameOverError(
                f"{type(self).__name__}.step: the game is over ({self.reason}). "
                "Call close() for the rewards and the record, or reset() to play again."
            )
        if not isinstance(action, str):
            raise TypeError(
                f"{type(self).__name__}.step: an action must be a str (the player's text), got {type(action).__name__}"
            )
        player_id = self.current_player
        self.log.append({"turn": self.turn, "from": player_id, "to": "env", "text": action})
        self.turn += 1
        info = self._step(player_id, action)
        info.setdefault("player_id", player_id)
        if self.done:
            info.setdefault("reason", self.reason)
            info.setdefault("rewards", dict(self.rewards or {}))
        return self.done, info

    def close(self) -> tuple[dict[int, int | float] | None, dict[str, Any]]:
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

    # ----------------------------------------------------------------- optional front-end hooks
    @property
    def seat_count(self) -> int:
        """Seats at the table: text players plus any the game fills itself (bots)."""
        return self.num_players or self.max_players

    @property
    def seats(self) -> list[int]:
        """The seat of each text player (player id -> seat); the same numbers unless bots sit too."""
        return list(range(self.num_players or self.max_players))

    def render(self, player_id: int) -> Any:
        """A picture of the game from ``player_id``'s side (SVG text, PNG bytes, a PIL image) or None.

        SVG elements with ``data-action="k"`` are clickable on the page: they play the answer of
        the ``action_options`` entry whose ``action`` is k.
        """
        return None

    def action_options(self, player_id: int | None = None) -> list[dict[str, Any]] | None:
        """The answers ``player_id`` (default: the player to move) may give now, when they are a
        short list: ``[{"answer": "[3]", "label": "Drop a disc in column 4", "action": 3}, ...]``
        (buttons on the page, and ``LocalAgent.choose``). None: the answer is free text."""
        return None

    def result_panel(self, player_id: int | None = None) -> list[dict[str, Any]]:
        """How the finished game is shown, as blocks for any front end (seen by ``player_id``):
        ``{"kind": "text", "title", "text"}``, ``{"kind": "cards", "title", "cards": [{"title",
        "text", "lead"}]}`` or ``{"kind": "table", "title", "columns", "rows"}``."""
        return []

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

    def _release(self) -> None:  # noqa: B027 - optional hook: most games hold nothing to free
        """Free resources at ``close``."""

    def send(self, text: str, to: int | None = None, *, kind: str = "message", sender: int | str = GAME) -> None:
        """Deliver a message to one player, or to everyone when ``to`` is None.

        ``kind`` is one of ``MESSAGE_KINDS`` ("prompt": the rules and your role, "board": the state
        and your options, "action": what a player did, "message": anything else the game says,
        "admin": invalid moves and results); ``sender`` is ``GAME`` or the id of the player whose
        words these are (a chat line in a negotiation).
        """
        if kind not in MESSAGE_KINDS:
            raise ValueError(f"{type(self).__name__}.send: kind must be one of {MESSAGE_KINDS}, got {kind!r}")
        targets = range(self.num_players) if to is None else [to]
        for target in targets:
            self._inbox[target].append(text)
            self._meta[target].append((sender, kind))
        self.log.append({"turn": self.turn, "from": sender, "to": "all" if to is None else to, "text": text})

    def messages(self, player_id: int) -> list[tuple[int | str, str, str]]:
        """Every message ``player_id`` was sent so far, as ``(sender, kind, text)``."""
        return [(sender, kind, text) for (sender, kind), text in zip(self._meta[player_id], self._inbox[player_id])]

    def finish(self, rewards: Mapping[int, float], reason: str) -> None:
        """End the game with ``rewards`` per player and a reason shown in ``info`` and the record.

        Whole numbers are kept as ints (+1, -1, 0); others (a pot split in halves) as floats.
        """
        self.rewards = {int(player): _number(value) for player, value in sorted(rewards.items())}
        self.reason = reason
        self.done = True

    def _require_started(self, what: str) -> None:
        if not self._started:
            raise TextEnvError(f"{type(self).__name__}.{what}: call reset(num_players=...) first")


def _number(value: float) -> int | float:
    value = float(value)
    return int(value) if value.is_integer() else value

"""Use TextArena's own wrappers with makeenv's text envs.

makeenv's text envs follow TextArena's loop (``reset`` / ``get_observation`` / ``step`` /
``close``), so TextArena's *action* wrappers (``ActionFormattingWrapper``, ``ClipCharactersActionWrapper``,
``ClipWordsActionWrapper``) wrap them as they are. Their observation is one string (everything the
player was told), while TextArena's *observation* wrappers (``LLMObservationWrapper``,
``GameBoardObservationWrapper``, ...) expect the raw form TextArena's envs return: the player's new
messages as ``(sender_id, message, ObservationType)`` tuples, and ``env.state.role_mapping``.
``TextArenaView`` turns any makeenv text env into that form:

```python
import textarena as ta
import makeenv
from makeenv.text.textarena_view import TextArenaView

env = ta.wrappers.GameBoardObservationWrapper(TextArenaView(makeenv.make("TicTacToe-text", level=1)))
env = ta.wrappers.ActionFormattingWrapper(env)   # "4" -> "[4]", which the bridge accepts
env.reset(num_players=1, seed=0)
```

Needs ``pip install textarena`` (the view imports it only when built).
"""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

from makeenv.text.core import GAME

_GAME_TAG = re.compile(r"(?m)^\[GAME\] ?")
_PLAYER_TAG = re.compile(r"^\[Player \d+\] ?")
# makeenv's message kinds -> the names of TextArena's ObservationType members
KIND_TO_TEXTARENA = {
    "prompt": "PROMPT",
    "board": "GAME_BOARD",
    "action": "GAME_ACTION_DESCRIPTION",
    "message": "GAME_MESSAGE",
    "admin": "GAME_ADMIN",
}


def _textarena() -> Any:
    try:
        import textarena
    except ImportError as error:
        raise ImportError(f"TextArenaView needs TextArena: pip install textarena ({error})") from error
    return textarena


class TextArenaView:
    """A makeenv text env seen as a TextArena env: new messages per call, typed, with senders.

    ``get_observation()`` returns ``(player_id, [(sender_id, text, ObservationType), ...])``: the
    messages the player got since its previous observation (the first time, all of them), the
    game's own under ``textarena.GAME_ID`` without makeenv's ``[GAME]`` tag (TextArena's
    wrappers add theirs), a player's words under its id as ``PLAYER_ACTION`` without its
    ``[Player k]`` tag. Everything else goes to the wrapped env.
    """

    def __init__(self, env: Any):
        if not callable(getattr(env, "messages", None)):
            raise TypeError(f"TextArenaView wraps a makeenv text env (a makeenv.text.TextEnv), got {env!r}")
        self._ta = _textarena()
        self.env = env
        self._seen: dict[int, int] = {}
        self.state = SimpleNamespace(role_mapping={self._ta.GAME_ID: "GAME"}, current_player_id=0, game_info={})

    def __getattr__(self, name: str) -> Any:
        return getattr(self.env, name)

    def reset(self, num_players: int, seed: int | None = None) -> Any:
        result = self.env.reset(num_players=num_players, seed=seed)
        self._seen = {}
        self.state.role_mapping = {
            self._ta.GAME_ID: "GAME",
            **{p: f"Player {seat}" for p, seat in enumerate(self.env.seats)},
        }
        self.state.current_player_id = self.env.current_player
        return result

    def get_observation(self) -> tuple[int, list[tuple[int, str, Any]]]:
        player_id, _ = self.env.get_observation()
        messages = self.env.messages(player_id)
        start = self._seen.get(player_id, 0)
        self._seen[player_id] = len(messages)
        kinds = self._ta.ObservationType
        observation = []
        for sender, kind, text in messages[start:]:
            if sender == GAME:
                observation.append((self._ta.GAME_ID, _GAME_TAG.sub("", text), kinds[KIND_TO_TEXTARENA[kind]]))
            else:  # a player's own words, as TextArena delivers them: without the role tag
                observation.append((int(sender), _PLAYER_TAG.sub("", text), kinds.PLAYER_ACTION))
        self.state.current_player_id = player_id
        return player_id, observation

    def step(self, action: str) -> tuple[bool, dict[str, Any]]:
        done, info = self.env.step(action)
        self.state.current_player_id = self.env.current_player
        return done, info

    def close(self) -> tuple[Any, dict[str, Any]]:
        rewards, game_info = self.env.close()
        self.state.game_info = game_info
        return rewards, game_info

"""Text envs for language-model agents: the TextArena-style loop, array games in words, juries and agents.

```python
env.reset(num_players=2, seed=0)
while not done:
    player_id, observation = env.get_observation()
    done, info = env.step(agents[player_id](observation))
rewards, game_info = env.close()
```

``LocalJury`` and ``LocalAgent`` (llama-cpp-python, the ``llm`` extra) are imported only when
asked for, so ``import makeenv.text`` works without them.
"""

from __future__ import annotations

from typing import Any

from makeenv.text.agents import (
    AgentError,
    FixedAgent,
    HumanAgent,
    OpenAICompatibleAgent,
    OpenRouterAgent,
)
from makeenv.text.bridge import AnswerError, ArrayTextEnv, parse_answer
from makeenv.text.client import ChatClient, ChatError, ClientSettings, MissingAPIKey
from makeenv.text.core import GameOverError, TextEnv, TextEnvError
from makeenv.text.jury import (
    Ballot,
    Jury,
    JuryUnavailable,
    OpenAICompatibleJury,
    OpenRouterJury,
    Verdict,
)
from makeenv.text.specs import BotSeat, SpecError, parse_jury_spec, parse_player_spec
from makeenv.text.textarena_view import TextArenaView
from makeenv.text.turns import ask

__all__ = [
    "TextEnv",
    "TextEnvError",
    "GameOverError",
    "ArrayTextEnv",
    "AnswerError",
    "parse_answer",
    "ask",
    "TextArenaView",
    "Jury",
    "Ballot",
    "Verdict",
    "JuryUnavailable",
    "OpenAICompatibleJury",
    "OpenRouterJury",
    "LocalJury",
    "HumanAgent",
    "FixedAgent",
    "OpenAICompatibleAgent",
    "OpenRouterAgent",
    "LocalAgent",
    "AgentError",
    "ClientSettings",
    "ChatClient",
    "ChatError",
    "MissingAPIKey",
    "parse_player_spec",
    "parse_jury_spec",
    "SpecError",
    "BotSeat",
]

# name -> the module that defines it, imported on first use (it needs the llm extra)
_LAZY = {"LocalJury": "makeenv.text.jury.local", "LocalAgent": "makeenv.text.local_agent"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))

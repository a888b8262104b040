"""The Typer application every ``makeenv`` sub-command registers itself on."""

from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup


class _FlagsWithoutType:
    """Help lists on/off flags (``--force``, ``--help``) bare, not as taking a ``<bool>`` value."""

    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)  # type: ignore[misc]
        for param in params:
            if getattr(param, "is_flag", False) and param.metavar is None:
                param.metavar = ""
        return params


class MakeenvCommand(_FlagsWithoutType, TyperCommand):
    """Every ``makeenv`` sub-command."""


class MakeenvGroup(_FlagsWithoutType, TyperGroup):
    """The ``makeenv`` command itself."""


class MakeenvTyper(typer.Typer):
    """A Typer app whose commands are ``MakeenvCommand`` unless they ask for another class."""

    def command(self, *args: Any, cls: Any = None, **kwargs: Any) -> Any:
        return super().command(*args, cls=cls or MakeenvCommand, **kwargs)


def reflow(text: str) -> str:
    """Join the lines of each blank-line-separated paragraph, so help wraps to the terminal."""
    paragraphs = text.strip().split("\n\n")
    return "\n\n".join(" ".join(line.strip() for line in p.splitlines()) for p in paragraphs)


app = MakeenvTyper(
    name="makeenv",
    cls=MakeenvGroup,
    help=(
        "Build, check, run and play turn-based multi-agent game environments.\n\n"
        "Array games (numba, for RL agents) and text games (for language-model agents) share one "
        "front door: `makeenv list` shows them all."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

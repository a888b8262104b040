"""The Typer application every ``makeenv`` sub-command registers itself on."""

import typer


def reflow(text: str) -> str:
    """Join the lines of each blank-line-separated paragraph, so help wraps to the terminal."""
    paragraphs = text.strip().split("\n\n")
    return "\n\n".join(" ".join(line.strip() for line in p.splitlines()) for p in paragraphs)


app = typer.Typer(
    name="makeenv",
    help=(
        "Build, check, run and play turn-based multi-agent game environments.\n\n"
        "Array games (numba, for RL agents) and text games (for language-model agents) share one "
        "front door: `makeenv list` shows them all."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

"""Command line: ``makeenv list | run | check | new | match | play | tournament | duel | leaderboard | export``.

Each family registers its commands in its own module; this package only puts them together.
"""

from makeenv.cli import arena_commands, array_commands, match_command, play_command  # noqa: F401  (registers commands)
from makeenv.cli.app import app


def main() -> None:
    """Entry point of the ``makeenv`` console script."""
    app()


__all__ = ["app", "main"]

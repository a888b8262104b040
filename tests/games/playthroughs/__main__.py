"""``python -m tests.games.playthroughs --update [GAME ...]``: record the golden playthroughs anew."""

from __future__ import annotations

import argparse

from tests.games.playthroughs import update

parser = argparse.ArgumentParser(prog="python -m tests.games.playthroughs", description=__doc__)
parser.add_argument(
    "--update",
    action="store_true",
    required=True,
    help="play the seeded games and write tests/games/playthroughs/*.txt",
)
parser.add_argument("games", nargs="*", help="only these games (registered ids); default every array game")
args = parser.parse_args()
for path in update(args.games):
    print(f"wrote {path.name}")

"""People as entrants: a game a person finished in the browser under a name, stored and rated.

The person is the entrant ``human:NAME``; the bots they met are ``bot:LEVEL``, the same names a
tournament gives them, so the leaderboard of a game rates people and agents together. Each game is
a block of one game (kept move by move, so it replays) in the tournament ``"GAME browser"`` (with
the game's options in the name when there are any), created on the first game stored.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from makeenv.arena.play import code_hash, rules_hash
from makeenv.arena.schedule import BlockResult, BlockSpec, Entrant, GameRecord
from makeenv.arena.store import Store

HUMAN = "human"
NAME = re.compile(r"^[\w .'-]{1,40}$")


def person_entrant(name: Any) -> str:
    """``human:NAME`` for a name of 1 to 40 letters, digits, spaces, ``.'-_``; else a ValueError."""
    if not isinstance(name, str) or not NAME.match(name.strip()):
        raise ValueError(
            f"player name {name!r}: use 1 to 40 letters, digits, spaces or . ' - _ (it names you on the leaderboard)"
        )
    return f"{HUMAN}:{name.strip()}"


def browser_tournament(game: str, options: dict[str, Any]) -> str:
    """The tournament a game's browser games are stored in."""
    suffix = " ".join(f"{key}={options[key]}" for key in sorted(options))
    return f"{game} browser" + (f" {suffix}" if suffix else "")


def record_person_game(
    db: str | Path, game: str, options: dict[str, Any], env: Any, seats: list[tuple[str, str]], record: GameRecord
) -> str:
    """Store one finished browser game: ``seats[p]`` is (entrant name, spec) of seat p, the person's
    spec ``human``. Returns the tournament's name."""
    name = browser_tournament(game, options)
    entrants, seen = [], set()
    for entrant, spec in seats:
        if entrant in seen:
            continue
        seen.add(entrant)
        digest = hashlib.sha256(spec.encode()).hexdigest() if spec == HUMAN else code_hash(env, "array", spec)
        entrants.append((Entrant(entrant, spec), digest))
    with Store(db) as store:
        store.begin_tournament(
            name,
            game=game,
            kind="array",
            rules_hash=rules_hash(env),
            options=options,
            schedule={"kind": "browser"},
            seed=0,
            block_size=1,
            entrants=entrants,
        )
        names = tuple(entrant for entrant, _ in seats)
        specs = dict(seats)
        while True:  # another page may store a game at the same index meanwhile: take the next one
            index = store.next_block_index(name)
            block = BlockSpec(name, game, "array", dict(options), specs, names, index, 1, record.seed, 1)
            result = BlockResult(block)
            result.add(record, keep=True)
            if store.add_block(result):
                return name

"""The catalog guard: every game folder under makeenv/games/ is registered, tested, in README.md's
games table and in docs/ARCHITECTURE.md's layout."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any


def layout_section(architecture: str) -> str:
    """The text of the "## Layout" section of the architecture map."""
    match = re.search(r"^## Layout\n(.*?)(?=^## |\Z)", architecture, flags=re.S | re.M)
    return match.group(1) if match else ""


def catalog_problems(
    games_dir: Path,
    specs: Iterable[Any],
    readme: str,
    architecture: str,
    covered: Iterable[str],
    package: str = "makeenv.games",
) -> list[str]:
    """One sentence per gap, naming the folder and how to close it: a game folder (a package under
    ``games_dir``) with no registered ``EnvSpec``, or whose ids are not in ``covered`` (tested),
    not linked from a row of the README's games table, or a folder the layout does not name."""
    by_module: dict[str, list[str]] = {}
    for spec in specs:
        by_module.setdefault(spec.entry_point.partition(":")[0], []).append(spec.id)
    covered = set(covered)
    table_rows = [line for line in readme.splitlines() if line.startswith("|")]
    layout = layout_section(architecture)
    problems = []
    for folder in sorted(
        p.name for p in games_dir.iterdir() if (p / "__init__.py").is_file() and not p.name.startswith("_")
    ):  # _x/: shared helpers
        where = f"makeenv/games/{folder}"
        ids = by_module.get(f"{package}.{folder}", [])
        if not ids:
            problems.append(
                f"{where}: no registered environment has entry point {package}.{folder}; "
                "register it in makeenv/registry.py (register(EnvSpec(...)))."
            )
        for game in ids:
            link = f"[{game}]({where}/README.md)"
            if not any(link in row for row in table_rows):
                problems.append(f"{where}: {game} is not in README.md's games table; add a row | {link} | ... |.")
        if not re.search(rf"(?<![\w/]){re.escape(folder)}/", layout):
            problems.append(f"{where}: not in docs/ARCHITECTURE.md's layout; add {folder}/ to the games/ lines.")
        for game in ids:
            if game not in covered:
                problems.append(
                    f"{where}: {game} has no tests; an array game needs a golden playthrough "
                    f'(python -m tests.games.playthroughs --update), a text game a test naming "{game}".'
                )
    return problems

"""``makeenv new NAME``: a new array-game folder that passes ``check_env`` as generated.

The folder has the shape of makeenv's own games: ``logic.py`` (the rules: the contract functions,
with the action / state / env layouts in comments), ``bots.py`` (the levels), ``draw.py`` (words
and pictures), ``__init__.py`` (gathering them), ``README.md`` (the same layouts as tables, and the
contract table) and ``test_<name>.py``. The templates sit beside this module (``scaffold_template_*``).
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Iterable
from pathlib import Path

HERE = Path(__file__).parent
TEMPLATES = {
    "__init__.py": HERE / "scaffold_template_init.py.txt",
    "logic.py": HERE / "scaffold_template_logic.py.txt",
    "bots.py": HERE / "scaffold_template_bots.py.txt",
    "draw.py": HERE / "scaffold_template_draw.py.txt",
    "README.md": HERE / "scaffold_template_README.md",
    "test_{snake}.py": HERE / "scaffold_template_test.py.txt",
}


class ScaffoldError(ValueError):
    """The game name or target folder is not usable."""


def snake_case(name: str) -> str:
    """``TicTacToe`` -> ``tic_tac_toe``."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name).lower()


def scaffold(name: str, directory: str | Path = ".", *, force: bool = False) -> Path:
    """Create ``directory/<snake_name>/`` for game ``name`` and return the folder's path."""
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z][A-Za-z0-9]*", name or ""):
        raise ScaffoldError(
            f"game name {name!r} must be letters and digits starting with a letter, in CamelCase (e.g. TicTacToe)"
        )
    snake = snake_case(name)
    if keyword.iskeyword(snake):
        raise ScaffoldError(f"game name {name!r} gives the folder name {snake!r}, a Python keyword")
    folder = Path(directory) / snake
    if folder.exists() and any(folder.iterdir()) and not force:
        raise ScaffoldError(f"{folder} already exists and is not empty (use --force to overwrite)")
    folder.mkdir(parents=True, exist_ok=True)
    for target, template in TEMPLATES.items():
        text = template.read_text(encoding="utf-8")
        text = text.replace("{{NAME}}", name).replace("{{FOLDER}}", str(folder))
        (folder / target.format(snake=snake)).write_text(text, encoding="utf-8")
    return folder


def builtin_name_warning(name: str, folder: str | Path, registered: Iterable[str]) -> str | None:
    """A warning when ``name`` is also a registered game's name (``TicTacToe``, one of
    ``registered``): by that name the built-in game runs, so it says how to run the new folder
    instead; None for a new name."""
    clash = next((spec_id for spec_id in registered if spec_id.lower() == name.lower()), None)
    if clash is None:
        return None
    shown = command_path(folder)
    return (
        f"{clash} is also the name of a built-in game: `makeenv run {clash}` runs the built-in one. "
        f"Run yours by its folder: `makeenv run {shown}` (and `makeenv check {shown}`), or pick "
        "another name."
    )


def command_path(folder: str | Path) -> str:
    """``folder`` as typed on a command line so it reads as a folder, not a module (``./tic_tac_toe``)."""
    text = Path(folder).as_posix()
    return text if Path(folder).is_absolute() or text.startswith((".", "~")) else f"./{text}"

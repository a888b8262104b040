"""The compiled templates: one table that the module cache builds from and the error explainer reads.

Each template is a source file that ``makeenv.array.cache`` loads as a module of its own per game
(and per agent, bots, threading), written under the cache directory as ``<prefix>_<digest>.py``,
or as ``makeenv_live_<n>`` when it cannot be cached. Errors raised inside these files are
makeenv's, never the place to blame in a user's game or agent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Template:
    """A template source file and the prefix of the modules built from it."""

    path: Path
    module_prefix: str


_HERE = Path(__file__).parent

#: name -> template: the referee (stepping a game), the runner's loops, the batched env's core
TEMPLATES: dict[str, Template] = {
    "referee": Template(_HERE / "_referee_template.py", "makeenv_referee"),
    "loop": Template(_HERE / "_loop_template.py", "makeenv_loop"),
    "batch": Template(_HERE / "_batch_template.py", "makeenv_batch"),
}
LIVE_PREFIX = "makeenv_live"  # modules that live only in this process (functions without a source file)

#: distinct numba bot policies one loop module dispatches to (``_loop_template.call_bot``'s slots)
MAX_BOT_FUNCTIONS = 8
#: an opponent slot's policy index meaning the built-in random agent, in a loop of bots (so the
#: loop of a game's levels also plays its bots against level 0)
RANDOM_SLOT = MAX_BOT_FUNCTIONS
#: opponent seats' data the compiled loops take as one tuple, padded to this length whatever the
#: player count (up to 9 players), so one compile of a loop serves every player count of a game
BOT_DATA_SLOTS = 8

_BUILT_PREFIXES = "|".join(re.escape(p) for p in [t.module_prefix for t in TEMPLATES.values()] + [LIVE_PREFIX])
_INTERNAL_FILE = re.compile(
    "(" + "|".join(re.escape(t.path.stem) for t in TEMPLATES.values()) + "|(" + _BUILT_PREFIXES + r")_\w+)\.py$"
)
#: a module built from a template, as it prefixes a function's name (``makeenv_referee_<digest>.``)
BUILT_MODULE_PREFIX = re.compile("(" + _BUILT_PREFIXES + r")_[0-9a-f]+\.(?!py\b)")


def is_internal_file(path: str) -> bool:
    """True for a template file or a module built from one (makeenv's own compiled code)."""
    return _INTERNAL_FILE.search(path) is not None

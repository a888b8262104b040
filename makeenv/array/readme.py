"""What a game's README.md says about its layouts: sizes, action and state tables.

A game's README documents its actions and its state as tables (see the reference game's
README): a heading ``## Actions (`getActionSize() == 4`)`` followed by a table whose first column
lists action indices, and ``## State (... `getStateSize() == 11` ...)`` followed by a table of
state indices. ``read_layout`` parses them for the checker (a README that disagrees with the real
sizes is reported) and ``generic_state_text`` uses the state table to describe a state in words
when the game has no ``describe_state``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from makeenv.array.contract import ArrayEnv

_SIZE = {
    "actions": re.compile(r"getActionSize\(\)\s*==\s*(\d+)"),
    "state": re.compile(r"getStateSize\(\)\s*==\s*(\d+)"),
}


@dataclass
class Section:
    """A README section about one layout: the size its heading states and its table's rows."""

    heading: str
    size: int | None = None
    rows: list[tuple[list[int], str]] = field(default_factory=list)  # (indices, meaning)

    def indices(self) -> set[int]:
        return {i for indices, _ in self.rows for i in indices}


def parse_indices(cell: str) -> list[int]:
    """``"3"``, ``"0..6"``, ``"0-6"``, ``"0, 1, 2"``, ``"12..15 (one-hot)"`` -> the indices listed."""
    text = cell.strip().strip("`*")
    found: list[int] = []
    for part in re.split(r"[,;]", text):
        part = part.strip().strip("`*")
        span = re.match(r"^(\d+)\s*(?:\.\.\.?|–|-|to)\s*(\d+)", part)
        if span:
            low, high = int(span.group(1)), int(span.group(2))
            if high >= low and high - low < 100_000:
                found.extend(range(low, high + 1))
            continue
        single = re.match(r"^(\d+)\b", part)
        if single:
            found.append(int(single.group(1)))
    return found


_VARIANT_TAG = re.compile(r"(\w+)=\"([^\"]*)\"")


def read_layout(readme: str, variant: dict[str, str] | None = None) -> dict[str, Section]:
    """The README's "actions" and "state" sections (absent keys: the README has no such section).

    A heading naming option values, ``## Actions, actions="compact" (`getActionSize() == 42`)``,
    documents that variant only: it replaces the untagged section when ``variant`` has those values
    and is skipped otherwise.
    """
    sections: dict[str, Section] = {}
    tagged: set[str] = set()
    current: Section | None = None
    for line in readme.splitlines():
        if line.startswith("#"):
            current = None
            title = line.lstrip("#").strip()
            lower = title.lower()
            tags = dict(_VARIANT_TAG.findall(title))
            if tags and any((variant or {}).get(option) != value for option, value in tags.items()):
                continue
            for kind, pattern in _SIZE.items():
                match = pattern.search(title)
                named = lower.startswith("action") if kind == "actions" else lower.startswith("state")
                if match or named:
                    if kind not in sections or (tags and kind not in tagged):
                        current = sections[kind] = Section(title, int(match.group(1)) if match else None)
                        if tags:
                            tagged.add(kind)
                    break
            continue
        if current is None or not line.lstrip().startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not cells or set(cells[0]) <= set("-: "):
            continue
        indices = parse_indices(cells[0])
        if indices:
            current.rows.append((indices, cells[1] if len(cells) > 1 else ""))
    return sections


def layout_problems(readme: str, n_actions: int, state_size: int, variant: dict[str, str] | None = None) -> list[str]:
    """Where the README's action and state documentation (of ``variant``) disagrees with the real sizes."""
    if not readme.strip():
        return []
    problems = []
    sections = read_layout(readme, variant)
    for kind, real, function in (("actions", n_actions, "getActionSize()"), ("state", state_size, "getStateSize()")):
        section = sections.get(kind)
        if section is None:
            problems.append(
                f"README.md has no {kind} section: add a heading like "
                f"'## {'Actions' if kind == 'actions' else 'State'} (`{function} == {real}`)' with a "
                "table whose first column lists the indices."
            )
            continue
        if section.size is not None and section.size != real:
            problems.append(
                f"README.md says `{function} == {section.size}` (heading '{section.heading}') but "
                f"{function} returns {real}: update the README."
            )
        if section.rows:
            documented = section.indices()
            missing = sorted(set(range(real)) - documented)
            extra = sorted(i for i in documented if i >= real)
            if extra:
                problems.append(
                    f"README.md's {kind} table documents index {extra[0]}"
                    f"{' and more' if len(extra) > 1 else ''}, beyond {function} - 1 = {real - 1}: "
                    "update the table."
                )
            if missing:
                shown = ", ".join(str(i) for i in missing[:5]) + (" ..." if len(missing) > 5 else "")
                problems.append(
                    f"README.md's {kind} table leaves out index {shown} of 0..{real - 1}: "
                    "document every index (ranges like 0..6 are fine)."
                )
    return problems


def generic_state_text(env: ArrayEnv, state: np.ndarray) -> str:
    """A state in words from the README's state table: one line per documented entry that is set."""
    state = np.asarray(state, dtype=np.float64)
    section = read_layout(env.readme, getattr(env, "variant", None)).get("state")
    if section is None or not section.rows:
        shown = ", ".join(f"{i}: {_value(v)}" for i, v in enumerate(state) if v != 0.0)
        return f"State of {env.name} (non-zero entries, index: value): {shown or 'all zero'}"
    lines = [f"State of {env.name}:"]
    for indices, meaning in section.rows:
        values = [state[i] for i in indices if i < state.shape[0]]
        if not values or all(v == 0.0 for v in values):
            continue
        meaning = re.sub(r"[`*]", "", meaning) or "entry"
        if len(indices) == 1:
            lines.append(f"- {meaning}: {_value(values[0])}")
        else:
            lines.append(
                f"- {meaning}: "
                + ", ".join(
                    f"[{i - indices[0]}]={_value(state[i])}" for i in indices if i < state.shape[0] and state[i] != 0.0
                )
            )
    if len(lines) == 1:
        lines.append("- every documented entry is 0")
    return "\n".join(lines)


def _value(value: Any) -> str:
    value = float(value)
    return str(int(value)) if value.is_integer() else f"{value:g}"

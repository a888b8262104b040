"""The drawing both versions share: a card table of text panels (the players, the hero and its
items, the dungeon, what I know) and one button per valid action. Python only."""

from __future__ import annotations

from html import escape

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
WIDTH = 900
GREEN, RED, GREY, INK, BLUE = "#1d8a4e", "#c0392b", "#6b7280", "#1f2430", "#2f6fde"
SEAT_NAMES = ("You", "Next player", "Player across", "Previous player")


def seat_markup(rel: int) -> str:
    """A seat's name, marked so the browser page can write in its own name for it."""
    return f'<tspan data-relative-seat="{rel}">{escape(SEAT_NAMES[rel])}</tspan>'


def picture(
    title: str, headline: str, colour: str, seats: list[str], lines: list[str], buttons: list[tuple[int, str]]
) -> str:
    """An SVG: ``title``, the turn prompt ``headline``, one line per seat (``seats[rel]`` written
    after the seat's name), the ``lines`` in words, and a clickable button per (action, label)."""
    height = 110 + 24 * (len(seats) + len(lines)) + 52 * ((len(buttons) + 2) // 3) + 20
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="{FONT}">',
        f'<rect width="{WIDTH}" height="{height}" rx="14" fill="#2b2233"/>',
        f'<text x="24" y="32" font-size="15" fill="#c9b8e8">{escape(title)}</text>',
        f'<text x="24" y="62" font-size="21" font-weight="bold" fill="{colour}" data-prompt="">{escape(headline)}</text>',
    ]
    y = 96
    for rel, text in enumerate(seats):
        parts.append(f'<text x="24" y="{y}" font-size="15" fill="#f4f1ea">{seat_markup(rel)}: {escape(text)}</text>')
        y += 24
    for text in lines:
        parts.append(f'<text x="24" y="{y}" font-size="14" fill="#e5e0d8">{escape(text)}</text>')
        y += 24
    y += 8
    for i, (action, label) in enumerate(buttons):
        x = 24 + (i % 3) * 288
        by = y + (i // 3) * 52
        parts.append(
            f'<g data-action="{action}" style="cursor:pointer"><title>{escape(label)}</title>'
            f'<rect x="{x}" y="{by}" width="276" height="42" rx="8" fill="{BLUE}"/>'
            f'<text x="{x + 138}" y="{by + 26}" text-anchor="middle" font-size="13" font-weight="bold" '
            f'fill="#ffffff">{escape(label[:40])}</text></g>'
        )
    parts.append("</svg>")
    return "".join(parts)

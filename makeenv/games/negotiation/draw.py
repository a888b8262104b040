"""Negotiation's picture from one player's side: the pile, that player's values, the standing offer."""

from __future__ import annotations

from html import escape

ITEM_NAMES = ("book", "hat", "ball")
WIDTH, ROW, TOP = 480, 62, 96
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
BLUE, GREY, INK, GREEN, AMBER = "#2f6fde", "#9aa3b2", "#1f2430", "#1d8a4e", "#9a7412"


def _icon(kind: str, x: float, y: float, colour: str) -> str:
    if kind == "book":
        return (
            f'<rect x="{x - 11}" y="{y - 14}" width="22" height="28" rx="3" fill="{colour}"/>'
            f'<rect x="{x - 7}" y="{y - 10}" width="14" height="3" fill="#ffffff" opacity=".7"/>'
        )
    if kind == "hat":
        return (
            f'<path d="M{x - 15} {y + 10} L{x + 15} {y + 10} L{x + 9} {y + 5} L{x + 7} {y - 12} '
            f'L{x - 7} {y - 12} L{x - 9} {y + 5} Z" fill="{colour}"/>'
        )
    return f'<circle cx="{x}" cy="{y}" r="13" fill="{colour}"/>'


def render(
    pile: tuple[int, ...],
    values: tuple[int, ...],
    standing: tuple[bool, tuple[int, ...]] | None,
    deal: tuple[int, ...] | None,
    over: bool,
    messages_left: int,
    my_turn: bool,
) -> str:
    """SVG: one row per kind; the items you would get (standing offer or deal) in blue."""
    mine = deal if deal is not None else (standing[1] if standing is not None else None)
    if over:
        head = (
            f"Deal: your items are worth {sum(v * c for v, c in zip(values, deal))} points"
            if deal is not None
            else "No deal: 0 points"
        )
        head_colour = GREEN if deal is not None else AMBER
    else:
        head = "Your turn: write a message" if my_turn else "The other player is writing..."
        head_colour = INK if my_turn else GREY
    if standing is not None and not over:
        sub = (
            "Your proposal stands" if standing[0] else "The other player's proposal stands"
        ) + f": you would get the blue items (worth {sum(v * c for v, c in zip(values, standing[1]))} to you)"
    elif not over:
        sub = f"No proposal yet · {messages_left} messages left"
    else:
        sub = "Blue: your items" if deal is not None else "Nobody gets anything"
    height = TOP + ROW * len(ITEM_NAMES) + 24
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="{FONT}">',
        f'<rect width="{WIDTH}" height="{height}" rx="14" fill="#f8fafc"/>',
        f'<text x="{WIDTH / 2}" y="34" text-anchor="middle" font-size="20" font-weight="bold" '
        f'fill="{head_colour}">{escape(head)}</text>',
        f'<text x="{WIDTH / 2}" y="60" text-anchor="middle" font-size="13" fill="{GREY}">{escape(sub)}</text>',
        f'<text x="{WIDTH - 24}" y="86" text-anchor="end" font-size="12" fill="{GREY}">your value each</text>',
    ]
    for row, kind in enumerate(ITEM_NAMES):
        y = TOP + ROW * row + ROW / 2
        parts.append(
            f'<text x="24" y="{y + 5}" font-size="15" fill="{INK}">{pile[row]} {kind}'
            f"{'' if pile[row] == 1 else 's'}</text>"
        )
        for k in range(pile[row]):
            colour = BLUE if mine is not None and k < mine[row] else GREY
            parts.append(_icon(kind, 130 + 44 * k, y, colour))
        parts.append(
            f'<text x="{WIDTH - 24}" y="{y + 6}" text-anchor="end" font-size="18" font-weight="bold" '
            f'fill="{INK}">{values[row]}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)

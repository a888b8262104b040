"""SVG pieces shared by the poker games' drawings (KuhnPoker, LeducPoker, Poker): a table,
playing cards, the pot and clickable action buttons. Python only; each game's draw.py lays them out.
"""

from __future__ import annotations

from html import escape

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
FELT, FELT_EDGE = "#1f6f4a", "#14532d"
BLUE, ORANGE = "#2f6fde", "#e07a1f"
GREEN, RED, AMBER, GREY, INK = "#1d8a4e", "#c0392b", "#9a7412", "#6b7280", "#1f2430"
SUIT_COLOURS = {"♠": INK, "♥": RED, "♣": INK, "♦": RED}
CARD_W, CARD_H = 84, 120


def open_svg(width: int, height: int) -> str:
    """The SVG header and the green table."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="{FONT}">'
        f'<rect width="{width}" height="{height}" rx="14" fill="#f8fafc"/>'
        f'<rect x="16" y="70" width="{width - 32}" height="{height - 150}" rx="60" fill="{FELT}" '
        f'stroke="{FELT_EDGE}" stroke-width="6"/>'
    )


def text(
    x: float, y: float, words: str, size: int = 16, colour: str = INK, bold: bool = False, anchor: str = "middle"
) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (
        f'<text x="{x}" y="{y}" text-anchor="{anchor}" font-size="{size}" fill="{colour}"{weight}>'
        f"{escape(words)}</text>"
    )


def card(
    x: float,
    y: float,
    rank: str | None,
    suit: str = "",
    caption: str = "",
    highlight: str | None = None,
    caption_below: bool = False,
) -> str:
    """A playing card with its top-left corner at (x, y); ``rank=None`` draws it face down. The
    caption goes to the card's right (or under it)."""
    border = highlight or "#4b5563"
    width = 4 if highlight else 2
    parts = [f'<g transform="translate({x},{y})">']
    if rank is None:
        parts += [
            f'<rect width="{CARD_W}" height="{CARD_H}" rx="9" fill="#7c2d12" stroke="{border}" '
            f'stroke-width="{width}"/>',
            f'<rect x="8" y="8" width="{CARD_W - 16}" height="{CARD_H - 16}" rx="6" fill="none" '
            'stroke="#fed7aa" stroke-width="2" stroke-dasharray="5 4"/>',
            text(CARD_W / 2, CARD_H / 2 + 12, "?", 34, "#fed7aa", True),
        ]
    else:
        colour = SUIT_COLOURS.get(suit, INK)
        parts += [
            f'<rect width="{CARD_W}" height="{CARD_H}" rx="9" fill="#ffffff" stroke="{border}" '
            f'stroke-width="{width}"/>',
            text(14, 26, rank[0], 22, colour, True),
            text(CARD_W / 2, CARD_H / 2 + 16, suit or rank[0], 44, colour, True),
            text(CARD_W / 2, CARD_H - 12, rank, 13, colour),
        ]
    parts.append("</g>")
    if caption and caption_below:
        parts.append(text(x + CARD_W / 2, y + CARD_H + 20, caption, 14, "#ecfdf5"))
    elif caption:
        parts.append(text(x + CARD_W + 12, y + CARD_H / 2 + 6, caption, 16, "#ecfdf5", True, anchor="start"))
    return "".join(parts)


def chips(x: float, y: float, count: float, label: str, detail: str = "") -> str:
    """A stack of chips centred at (x, y) with its count, a label and a detail line under it."""
    amount = int(round(count))
    parts = []
    for k in range(min(amount, 12)):
        parts.append(
            f'<ellipse cx="{x}" cy="{y - 5 * k}" rx="18" ry="7" fill="#fbbf24" stroke="#92400e" stroke-width="1.5"/>'
        )
    parts.append(text(x, y + 26, f"{amount} chip{'s' if amount != 1 else ''}", 15, "#ffffff", True))
    parts.append(text(x, y + 44, label, 13, "#d1fae5"))
    if detail:
        parts.append(text(x, y + 64, detail, 13, "#d1fae5"))
    return "".join(parts)


def button(x: float, y: float, width: float, label: str, action: int, colour: str = BLUE) -> str:
    """A clickable button that plays ``action`` (``data-action``) in the browser GUI."""
    return (
        f'<g data-action="{int(action)}" style="cursor:pointer">'
        f'<rect x="{x}" y="{y}" width="{width}" height="40" rx="10" fill="{colour}"/>'
        f"{text(x + width / 2, y + 26, label, 17, '#ffffff', True)}</g>"
    )


def buttons(centre_x: float, y: float, choices: list[tuple[int, str]], width: float = 150) -> str:
    """A row of action buttons centred on ``centre_x``."""
    gap = 16
    total = len(choices) * width + (len(choices) - 1) * gap
    left = centre_x - total / 2
    colours = {0: "#475569"}
    return "".join(
        button(left + i * (width + gap), y, width, label, action, colours.get(i, BLUE))
        for i, (action, label) in enumerate(choices)
    )


def close_svg() -> str:
    return "</svg>"

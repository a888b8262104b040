"""Ticket to Ride drawings and words, from one player's view. Python only.

``render(state)`` draws the map (cities as labelled dots at their positions, routes as coloured
segments, one per train; tunnels outlined dark, ferries marked with their locomotives; claimed
routes in their owner's colour), the face-up cards and the decks, the players, and the player's
own hand and tickets. What the player may do is clickable: a route to claim, a face-up card or the
deck to draw, a colour to pay with, a ticket to give back, the tunnel's choice, Keep, Pass.
``describe_action`` names an action; ``describe_state`` puts the state in words.
"""

from __future__ import annotations

from html import escape

import numpy as np

from .logic import (
    B_BONUS,
    B_CARDS,
    B_DONE,
    B_LONGEST,
    B_LOST,
    B_POINTS,
    B_PRESENT,
    B_TICKETS,
    B_TRAINS,
    B_WON,
    BLIND,
    CHOOSING,
    CITY_NAMES,
    CITY_XY,
    CLAIM,
    COLOUR_NAMES,
    DIG,
    DIGGING,
    DISCARD,
    FERRY,
    GIVE_UP,
    KEEP,
    KEPT,
    LONGEST_BONUS,
    MAIN,
    MAX_PLAYERS,
    NUM_ACTIONS,
    NUM_CITIES,
    NUM_COLOURS,
    NUM_ROUTES,
    NUM_TICKETS,
    OFFERED,
    PASS,
    PAY,
    PAYING,
    ROUTE_COLOUR,
    ROUTE_ENDS,
    ROUTE_KIND,
    ROUTE_LENGTH,
    ROUTE_LOCOS,
    ROUTE_TWIN,
    S_COLOUR,
    S_DECK_LEFT,
    S_DISCARD,
    S_EXTRA,
    S_EXTRA_LOCO,
    S_FACE,
    S_FINAL,
    S_HAND,
    S_KEEP_MIN,
    S_OVER,
    S_OWNER,
    S_PLAYERS,
    S_REVEALED,
    S_ROUTE,
    S_SEAT,
    S_SEATS,
    S_TDECK_LEFT,
    S_TICKETS,
    S_TO_MOVE,
    S_UP,
    S_WINNERS,
    S_WON,
    SEAT_BLOCK,
    SECOND,
    STATE_SIZE,
    TAKE,
    TICKET_ENDS,
    TICKET_POINTS,
    TICKETS,
    TUNNEL,
    components,
    find,
    getValidActions,
    state_phase,
)

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
WIDTH = 980
MAP_TOP = 70
CARD_COLOURS = ("#a3a3a3", "#f472b6", "#f8fafc", "#2563eb", "#facc15", "#f97316", "#111827", "#dc2626", "#16a34a")
GRAY_ROUTE = "#9ca3af"
SEAT_COLOURS = ("#7c3aed", "#06b6d4", "#92400e", "#84cc16", "#475569")  # claimed routes: solid, with a white track
INK, GREY, BLUE, GREEN, RED, PAPER = "#1f2430", "#6b7280", "#2f6fde", "#1d8a4e", "#c0392b", "#f3efe3"


def seat_name(rel: int) -> str:
    """ "You", "Next player", "Player 2 seats on"."""
    return ("You", "Next player")[rel] if rel < 2 else f"Player {rel} seats on"


def route_name(route: int) -> str:
    """ "Lisboa–Madrid (pink, 3, tunnel)"."""
    a, b = (CITY_NAMES[int(c)] for c in ROUTE_ENDS[route])
    colour = COLOUR_NAMES[ROUTE_COLOUR[route]] if ROUTE_COLOUR[route] >= 0 else "gray"
    kind = ""
    if ROUTE_KIND[route] == TUNNEL:
        kind = ", tunnel"
    elif ROUTE_KIND[route] == FERRY:
        kind = f", ferry needing {ROUTE_LOCOS[route]} locomotive{'s' if ROUTE_LOCOS[route] > 1 else ''}"
    return f"{a}–{b} ({colour}, {ROUTE_LENGTH[route]}{kind})"


def ticket_name(ticket: int) -> str:
    a, b = (CITY_NAMES[int(c)] for c in TICKET_ENDS[ticket])
    return f"{a}–{b} ({TICKET_POINTS[ticket]} points)"


def card_name(colour: int) -> str:
    return "locomotive" if colour == 0 else f"{COLOUR_NAMES[colour]} card"


def describe_action(action: int) -> str:
    """What an action means."""
    a = int(action)
    if CLAIM <= a < DISCARD:
        return f"Claim route {route_name(a - CLAIM)}"
    if DISCARD <= a < TAKE:
        return f"Give back ticket {ticket_name(a - DISCARD)}"
    if TAKE <= a < BLIND:
        return f"Take the face-up {card_name(a - TAKE)}"
    if a == BLIND:
        return "Draw the top card of the deck"
    if PAY <= a < DIG:
        return (
            "Pay with locomotives only" if a == PAY else f"Pay with {COLOUR_NAMES[a - PAY]} (locomotives for the rest)"
        )
    if a == DIG:
        return "Pay the tunnel's extra cards and claim it"
    if a == GIVE_UP:
        return "Give up the tunnel (the cards go back to your hand)"
    if a == TICKETS:
        return "Draw destination tickets"
    if a == KEEP:
        return "Keep the tickets still offered"
    if a == PASS:
        return "Pass (nothing else can be done)"
    return f"Unknown action {a}"


def _count(value: float) -> int:
    return int(value) if np.isfinite(value) and value > 0 else 0


def _seat(state, rel: int) -> np.ndarray:
    return state[S_SEATS + rel * SEAT_BLOCK : S_SEATS + (rel + 1) * SEAT_BLOCK]


def _players(state) -> int:
    return min(max(_count(state[S_PLAYERS]), 2), MAX_PLAYERS)


def _route_and_colour(state) -> tuple[int, int]:
    route = min(max(_count(state[S_ROUTE]) - 1, 0), NUM_ROUTES - 1)
    return route, min(max(_count(state[S_COLOUR]) - 1, 0), NUM_COLOURS - 1)


def _completed(state) -> set[int]:
    """My tickets whose cities my routes join."""
    parent = np.zeros(NUM_CITIES, dtype=np.int64)
    components(state, S_OWNER, 1.0, parent)
    return {
        t
        for t in range(NUM_TICKETS)
        if state[S_TICKETS + t] > 0.5 and find(parent, int(TICKET_ENDS[t, 0])) == find(parent, int(TICKET_ENDS[t, 1]))
    }


def _cards(counts) -> str:
    parts = [f"{_count(counts[c])} {COLOUR_NAMES[c]}" for c in range(NUM_COLOURS) if counts[c] > 0]
    return ", ".join(parts) if parts else "none"


def _score(seat) -> int:
    return int(seat[B_POINTS] + seat[B_WON] - seat[B_LOST] + LONGEST_BONUS * seat[B_BONUS])


def _headline(state) -> tuple[str, str]:
    if state[S_OVER] > 0.5:
        winners = [r for r in range(_players(state)) if state[S_WINNERS + r] > 0.5]
        if state[S_WON] > 0.5:
            return ("You won!" if len(winners) == 1 else "You share the win!"), GREEN
        return f"Game over: {', '.join(seat_name(r).lower() for r in winners)} won", RED
    phase = state_phase(state)
    if phase == MAIN:
        return "Your turn: claim a route, draw cards or draw tickets", INK
    if phase == SECOND:
        return "Draw your second card (not a face-up locomotive)", INK
    if phase == PAYING:
        return f"Pay for {route_name(_route_and_colour(state)[0])}: choose a colour", INK
    if phase == DIGGING:
        extra, locos = _count(state[S_EXTRA]), _count(state[S_EXTRA_LOCO])
        colour = _route_and_colour(state)[1]
        asked = [f"{extra} {COLOUR_NAMES[colour]}"] if extra else []
        asked += [f"{locos} locomotive{'s' if locos > 1 else ''}"] if locos else []
        return f"The tunnel asks {' + '.join(asked)} more: pay or give up", INK
    if phase == CHOOSING:
        return f"Choose your tickets: keep at least {_count(state[S_KEEP_MIN])}", INK
    return "Waiting for the other players", GREY


def describe_state(state) -> str:
    """The state in words: the phase, my hand and tickets, the players, the face-up cards and
    the routes (claimed ones with their owners; the free ones on my turn's first move)."""
    state = np.asarray(state, dtype=np.float64)
    n = _players(state)
    done = _completed(state)
    lines = [
        f"Ticket to Ride: Europe, {n} players; you are seat {_count(state[S_SEAT])}. Route points 1/2/4/7/10/15/18/21 "
        f"for lengths 1..8; each ticket scores its points if your routes join its cities, else loses them; "
        f"+{LONGEST_BONUS} for the longest continuous path.",
        _headline(state)[0] + ".",
    ]
    if state[S_FINAL] > 0.5 and state[S_OVER] < 0.5:
        lines.append(f"The last round is on: {_count(state[S_FINAL]) - 1} turns left in the game.")
    lines.append(
        f"Face-up cards: {_cards(state[S_FACE : S_FACE + NUM_COLOURS])}. Deck: {_count(state[S_DECK_LEFT])} cards "
        f"(discard pile {_count(state[S_DISCARD : S_DISCARD + NUM_COLOURS].sum())}); tickets left: "
        f"{_count(state[S_TDECK_LEFT])}."
    )
    lines.append(f"Your cards: {_cards(state[S_HAND : S_HAND + NUM_COLOURS])}.")
    if state_phase(state) == DIGGING:
        lines.append(
            f"Put up for the tunnel: {_cards(state[S_UP : S_UP + NUM_COLOURS])}; revealed: "
            f"{_cards(state[S_REVEALED : S_REVEALED + NUM_COLOURS])}."
        )
    kept = [t for t in range(NUM_TICKETS) if state[S_TICKETS + t] == KEPT]
    offer = [t for t in range(NUM_TICKETS) if state[S_TICKETS + t] == OFFERED]
    lines.append(
        "Your tickets: " + ("; ".join(f"{ticket_name(t)}{' done' if t in done else ''}" for t in kept) or "none") + "."
    )
    if offer:
        lines.append("Tickets offered to you: " + "; ".join(ticket_name(t) for t in offer) + ".")
    for rel in range(n):
        seat = _seat(state, rel)
        turn = " (to move)" if state[S_TO_MOVE + rel] > 0.5 else ""
        text = (
            f"{seat_name(rel)}{turn}: {_count(seat[B_TRAINS])} trains, {_count(seat[B_CARDS])} cards, "
            f"{_count(seat[B_TICKETS])} tickets, {_count(seat[B_POINTS])} route points"
        )
        if state[S_OVER] > 0.5:
            text += (
                f"; final score {_score(seat)} (tickets +{_count(seat[B_WON])} -{_count(seat[B_LOST])}, "
                f"{_count(seat[B_DONE])} done, longest path {_count(seat[B_LONGEST])}"
                f"{', bonus' if seat[B_BONUS] > 0.5 else ''})"
            )
        lines.append(text + ".")
    owned: dict[int, list[str]] = {}
    free = []
    for r in range(NUM_ROUTES):
        owner = _count(state[S_OWNER + r])
        if owner:
            owned.setdefault(owner - 1, []).append(route_name(r))
        else:
            free.append(f"{r}: {route_name(r)}")
    for rel in sorted(owned):
        lines.append(f"Routes of {seat_name(rel).lower()}: " + "; ".join(owned[rel]) + ".")
    if state_phase(state) == MAIN:  # the free routes matter when choosing the turn
        lines.append("Free routes: " + "; ".join(free) + ".")
    return "\n".join(lines)


# ---- drawing -----------------------------------------------------------------------------------


def _clickable(action: int | None) -> str:
    return f' data-action="{action}" style="cursor:pointer"' if action is not None else ""


def _route_line(route: int) -> tuple[float, float, float, float]:
    """The ends of a route's segment on the map, shortened at the cities and set apart from its
    twin."""
    (ax, ay), (bx, by) = (CITY_XY[int(c)] for c in ROUTE_ENDS[route])
    ay, by = ay + MAP_TOP, by + MAP_TOP
    dx, dy = bx - ax, by - ay
    dist = max(float(np.hypot(dx, dy)), 1.0)
    ux, uy = dx / dist, dy / dist
    shift = 0.0
    if ROUTE_TWIN[route] >= 0:
        shift = 4.5 if route < ROUTE_TWIN[route] else -4.5
    gap = min(8.0, dist / 4)
    return (
        ax + ux * gap - uy * shift,
        ay + uy * gap + ux * shift,
        bx - ux * gap - uy * shift,
        by - uy * gap + ux * shift,
    )


def _routes(state, valid) -> tuple[str, str]:
    """The routes, and apart (to lie above the cities) the lines to click for the claimable ones."""
    phase = state_phase(state)
    pending = _route_and_colour(state)[0] if phase in (PAYING, DIGGING) else -1
    under: list[str] = []
    over: list[str] = []
    marks: list[str] = []
    hints: list[str] = []
    clicks: list[str] = []
    for r in range(NUM_ROUTES):
        x1, y1, x2, y2 = _route_line(r)
        length = float(np.hypot(x2 - x1, y2 - y1))
        cars = int(ROUTE_LENGTH[r])
        dash = f"{max(length / cars - 2, 1):.1f} 2"
        line = f'x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"'
        owner = _count(state[S_OWNER + r])
        colour = CARD_COLOURS[ROUTE_COLOUR[r]] if ROUTE_COLOUR[r] >= 0 else GRAY_ROUTE
        if r == pending:
            under.append(
                f'<line {line} stroke="#f43f5e" stroke-opacity="0.55" stroke-width="16" stroke-linecap="round"/>'
            )
        elif valid[CLAIM + r] > 0:
            under.append(f'<line {line} stroke="#93c5fd" stroke-width="11" stroke-linecap="round"/>')
        if ROUTE_KIND[r] == TUNNEL:
            under.append(f'<line {line} stroke="#111827" stroke-width="7.5" stroke-dasharray="{dash}"/>')
        else:
            under.append(f'<line {line} stroke="#6b7280" stroke-width="6.5" stroke-dasharray="{dash}"/>')
        if owner:
            seat = SEAT_COLOURS[(owner - 1) % len(SEAT_COLOURS)]
            over.append(
                f'<line {line} stroke="{seat}" stroke-width="7.5"/>'
                f'<line {line} stroke="#ffffff" stroke-width="1.5" stroke-dasharray="{dash}"/>'
            )
        else:
            over.append(f'<line {line} stroke="{colour}" stroke-width="4.5" stroke-dasharray="{dash}"/>')
        if ROUTE_KIND[r] == FERRY:  # a badge with the locomotives it needs
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            marks.append(
                f'<circle cx="{mx:.1f}" cy="{my:.1f}" r="7.5" fill="#ffffff" stroke="#111827"/>'
                f'<text x="{mx:.1f}" y="{my + 4:.1f}" text-anchor="middle" font-size="11" font-weight="bold" '
                f'fill="#111827">{ROUTE_LOCOS[r]}</text>'
            )
        action = CLAIM + r if valid[CLAIM + r] > 0 else None
        title = route_name(r) + (f" · {seat_name(owner - 1)}" if owner else "")
        (clicks if action is not None else hints).append(
            f'<line {line} stroke="#000000" stroke-opacity="0.001" stroke-width="12" pointer-events="stroke"'
            f"{_clickable(action)}><title>{escape(describe_action(action) if action is not None else title)}</title></line>"
        )
    return "".join(under + over + marks + hints), "".join(clicks)


def _cities() -> str:
    parts = []
    for c in range(NUM_CITIES):
        x, y = CITY_XY[c]
        y += MAP_TOP
        anchor, dx = ("end", -7) if x > 880 else ("start", 7)
        parts.append(
            f'<circle cx="{x}" cy="{y}" r="5" fill="#ffffff" stroke="{INK}" stroke-width="2" pointer-events="none"/>'
            f'<text x="{x + dx}" y="{y - 6}" text-anchor="{anchor}" font-size="11.5" font-weight="bold" fill="{INK}" '
            f'stroke="{PAPER}" stroke-width="3" paint-order="stroke" pointer-events="none">{escape(CITY_NAMES[c])}</text>'
        )
    return "".join(parts)


def _card(x: float, y: float, colour: int, label: str, action: int | None, title: str, w=64, h=40) -> str:
    stroke, width = (BLUE, 3) if action is not None else ("#9ca3af", 1)
    ink = "#ffffff" if colour in (3, 6, 7, 8) else INK
    return (
        f"<g{_clickable(action)}><title>{escape(title)}</title>"
        f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="6" fill="{CARD_COLOURS[colour]}" stroke="{stroke}" '
        f'stroke-width="{width}"/><text x="{x + w / 2}" y="{y + h / 2 + 5}" text-anchor="middle" font-size="13" '
        f'font-weight="bold" fill="{ink}">{escape(label)}</text></g>'
    )


def _button(x: float, y: float, w: float, label: str, action: int | None, title: str) -> str:
    fill = BLUE if action is not None else "#cbd5e1"
    return (
        f"<g{_clickable(action)}><title>{escape(title)}</title>"
        f'<rect x="{x}" y="{y}" width="{w}" height="34" rx="8" fill="{fill}"/>'
        f'<text x="{x + w / 2}" y="{y + 22}" text-anchor="middle" font-size="14" font-weight="bold" '
        f'fill="#ffffff">{escape(label)}</text></g>'
    )


def _table(state, valid, y: float) -> str:
    """Face-up cards, the deck, the ticket deck, Pass."""
    parts = [f'<text x="24" y="{y}" font-size="14" font-weight="bold" fill="{INK}">Face-up cards</text>']
    x = 24
    for c in range(NUM_COLOURS):
        for _ in range(_count(state[S_FACE + c])):
            action = TAKE + c if valid[TAKE + c] > 0 else None
            label = "loco" if c == 0 else COLOUR_NAMES[c]
            parts.append(_card(x, y + 10, c, label, action, describe_action(TAKE + c)))
            x += 72
    deck = _count(state[S_DECK_LEFT])
    blind = BLIND if valid[BLIND] > 0 else None
    parts.append(
        f"<g{_clickable(blind)}><title>{escape(describe_action(BLIND))}</title>"
        f'<rect x="400" y="{y + 10}" width="110" height="40" rx="6" fill="#334155" '
        f'stroke="{BLUE if blind is not None else "#9ca3af"}" stroke-width="{3 if blind is not None else 1}"/>'
        f'<text x="455" y="{y + 35}" text-anchor="middle" font-size="13" font-weight="bold" fill="#ffffff">'
        f"Deck ({deck})</text></g>"
    )
    tickets = TICKETS if valid[TICKETS] > 0 else None
    parts.append(
        _button(524, y + 13, 190, f"Draw tickets ({_count(state[S_TDECK_LEFT])})", tickets, describe_action(TICKETS))
    )
    if valid[PASS] > 0:
        parts.append(_button(728, y + 13, 100, "Pass", PASS, describe_action(PASS)))
    if state[S_OVER] > 0.5:
        parts.append(_button(728, y + 13, 100, "End", 0, "End"))
    return "".join(parts)


def _hand(state, valid, y: float) -> str:
    """My cards; while paying, each colour that can pay is a button; a tunnel's cards."""
    phase = state_phase(state)
    paying = phase == PAYING
    parts = [
        f'<text x="24" y="{y}" font-size="14" font-weight="bold" fill="{INK}">Your cards'
        f"{' · click a colour to pay with' if paying else ''}</text>"
    ]
    for c in range(NUM_COLOURS):
        action = PAY + c if paying and valid[PAY + c] > 0 else None
        count = _count(state[S_HAND + c])
        label = f"{count} {'loco' if c == 0 else COLOUR_NAMES[c]}"
        title = describe_action(PAY + c) if action is not None else f"{count} {card_name(c)}s"
        parts.append(_card(24 + c * 80, y + 10, c, label, action, title, w=74))
    if phase == DIGGING:
        up = _cards(state[S_UP : S_UP + NUM_COLOURS])
        shown = _cards(state[S_REVEALED : S_REVEALED + NUM_COLOURS])
        parts.append(
            f'<text x="24" y="{y + 80}" font-size="13" fill="{INK}">Tunnel: you put up {escape(up)}; '
            f"the deck revealed {escape(shown)}.</text>"
        )
        dig = DIG if valid[DIG] > 0 else None
        parts.append(_button(560, y + 60, 160, "Pay and claim", dig, describe_action(DIG)))
        parts.append(_button(730, y + 60, 120, "Give up", GIVE_UP, describe_action(GIVE_UP)))
    return "".join(parts)


def _tickets(state, valid, y: float) -> tuple[str, float]:
    """My tickets (done ones ticked); offered ones with a Give back button each, and Keep."""
    done = _completed(state)
    phase = state_phase(state)
    kept = [t for t in range(NUM_TICKETS) if state[S_TICKETS + t] == KEPT]
    offer = [t for t in range(NUM_TICKETS) if state[S_TICKETS + t] == OFFERED]
    parts = [f'<text x="24" y="{y}" font-size="14" font-weight="bold" fill="{INK}">Your tickets</text>']
    row = y + 10
    items = [(t, False) for t in kept] + [(t, True) for t in offer]
    for i, (t, is_offer) in enumerate(items):
        x, ty = 24 + (i % 3) * 310, row + (i // 3) * 40
        action = DISCARD + t if is_offer and valid[DISCARD + t] > 0 else None
        fill = "#fef9c3" if is_offer else ("#dcfce7" if t in done else "#ffffff")
        mark = "✓ " if t in done else ""
        suffix = " · give back" if action is not None else (" · offered" if is_offer else "")
        parts.append(
            f"<g{_clickable(action)}><title>{escape(describe_action(action) if action is not None else ticket_name(t))}</title>"
            f'<rect x="{x}" y="{ty}" width="300" height="32" rx="6" fill="{fill}" '
            f'stroke="{BLUE if action is not None else "#9ca3af"}" stroke-width="{2 if action is not None else 1}"/>'
            f'<text x="{x + 10}" y="{ty + 21}" font-size="13" fill="{INK}">{escape(mark + ticket_name(t) + suffix)}</text></g>'
        )
        for end in TICKET_ENDS[t]:
            cx, cy = CITY_XY[int(end)]
            if is_offer or phase == CHOOSING:
                parts.append(
                    f'<circle cx="{cx}" cy="{cy + MAP_TOP}" r="9" fill="none" stroke="#eab308" stroke-width="3"/>'
                )
    bottom = row + ((len(items) + 2) // 3) * 40
    if phase == CHOOSING:
        parts.append(_button(24, bottom + 4, 220, "Keep the offered tickets", KEEP, describe_action(KEEP)))
        bottom += 44
    if not items:
        parts.append(f'<text x="24" y="{row + 18}" font-size="13" fill="{GREY}">none</text>')
        bottom += 30
    return "".join(parts), bottom


def _seats(state, y: float) -> str:
    n = _players(state)
    w = (WIDTH - 48 - (n - 1) * 8) / n
    parts = []
    over = state[S_OVER] > 0.5
    for rel in range(n):
        seat = _seat(state, rel)
        if not seat[B_PRESENT]:
            continue
        x = 24 + rel * (w + 8)
        moving = state[S_TO_MOVE + rel] > 0.5
        winner = over and state[S_WINNERS + rel] > 0.5
        border = GREEN if winner else (BLUE if moving else "#cbd5e1")
        lines = [
            f"{_count(seat[B_TRAINS])} trains · {_count(seat[B_CARDS])} cards",
            f"{_count(seat[B_TICKETS])} tickets · {_count(seat[B_POINTS])} route pts",
        ]
        if over:
            lines = [
                f"score {_score(seat)} · route {_count(seat[B_POINTS])}",
                f"tickets +{_count(seat[B_WON])} −{_count(seat[B_LOST])} ({_count(seat[B_DONE])} done)",
                f"longest {_count(seat[B_LONGEST])}{' · +10 bonus' if seat[B_BONUS] > 0.5 else ''}",
            ]
        parts.append(
            f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{34 + 17 * len(lines)}" rx="8" fill="#ffffff" '
            f'stroke="{border}" stroke-width="{3 if moving or winner else 1.5}"/>'
            f'<rect x="{x + 8:.1f}" y="{y + 9}" width="14" height="14" rx="3" fill="{SEAT_COLOURS[rel]}"/>'
            f'<text x="{x + 28:.1f}" y="{y + 21}" font-size="13" font-weight="bold" fill="{INK}">'
            f'<tspan data-relative-seat="{rel}">{escape(seat_name(rel))}</tspan>{" ★" if winner else ""}</text>'
        )
        for i, text in enumerate(lines):
            parts.append(
                f'<text x="{x + 8:.1f}" y="{y + 42 + 17 * i}" font-size="12" fill="{INK}">{escape(text)}</text>'
            )
    return "".join(parts)


def render(state) -> str:
    """An SVG picture of a Ticket to Ride state from its player's point of view."""
    state = np.asarray(state, dtype=np.float64)
    if state.shape != (STATE_SIZE,):
        raise ValueError(f"TicketToRide.render: expected a state of length {STATE_SIZE}, got shape {state.shape}")
    valid = getValidActions(state) if state[S_OVER] < 0.5 else np.zeros(NUM_ACTIONS)  # End: action 0
    n = _players(state)
    head, head_colour = _headline(state)
    final = f" · last round: {_count(state[S_FINAL]) - 1} turns left" if state[S_FINAL] > 0.5 else ""
    final = " · game over" if state[S_OVER] > 0.5 else final
    map_bottom = MAP_TOP + 660
    routes, clicks = _routes(state, valid)
    digging = state_phase(state) == DIGGING
    tickets, bottom = _tickets(state, valid, map_bottom + (276 if digging else 236))
    height = bottom + 16
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="{FONT}">',
        f'<rect width="{WIDTH}" height="{height}" rx="14" fill="{PAPER}"/>',
        f'<rect x="10" y="{MAP_TOP - 8}" width="{WIDTH - 20}" height="672" rx="10" fill="#e8f1f8"/>',
        f'<text x="24" y="26" font-size="14" fill="{GREY}">Ticket to Ride: Europe · {n} players{escape(final)}</text>',
        f'<text x="24" y="54" font-size="20" font-weight="bold" fill="{head_colour}" data-prompt="">{escape(head)}</text>',
        routes,
        _cities(),
        clicks,
        _seats(state, map_bottom + 8),
        _table(state, valid, map_bottom + 104),
        _hand(state, valid, map_bottom + 170),
        tickets,
        "</svg>",
    ]
    return "".join(parts)

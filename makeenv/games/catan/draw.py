"""Catan drawings and words, from one player's view. Python only.

``render(state)`` draws the hex board (terrains, numbers, ports, the robber, every road,
settlement and city in its seat's colour; the corners, edges and hexes the player may choose now
are clickable), the dice, every seat's points and cards, the trade on the table, and a button for
each other valid action. ``describe_action`` names an action; ``describe_state`` puts the state
in words for a language model.
"""

from __future__ import annotations

from html import escape

import numpy as np

from .logic import (
    ASK,
    BANK,
    BANK_GIVE,
    BANK_TAKE,
    BUY_CITY,
    BUY_DEV,
    BUY_ROAD,
    BUY_SETTLEMENT,
    CHOOSE,
    DECLINE,
    DESERT,
    DEV_NAMES,
    DEV_PICK,
    DISCARD,
    EDGE,
    EDGE_VERTS,
    END_TURN,
    GIVE,
    HEX,
    HEX_VERTS,
    HEX_XY,
    MAX_PLAYERS,
    NO_EXCHANGE,
    NO_TRADE,
    NUM_ACTIONS,
    NUM_EDGES,
    NUM_HEXES,
    NUM_PORTS,
    NUM_VERTS,
    OFFER,
    OFFER_DONE,
    P_CITIES,
    P_DEV_TOTAL,
    P_KNIGHTS,
    P_POINTS,
    P_RATIO,
    P_RES_TOTAL,
    P_ROAD_LEN,
    P_ROADS,
    P_SETTLEMENTS,
    PLAY,
    PORT_EDGES,
    PROPOSE,
    RESOURCES,
    RESPOND,
    ROAD,
    ROB,
    ROBBER,
    ROLL,
    S_ACTOR,
    S_ANSWER,
    S_ARMY,
    S_ASK,
    S_BANK,
    S_DECK,
    S_DEV,
    S_DEV_LEFT,
    S_DICE,
    S_DISCARD,
    S_EDGE_OWNER,
    S_GIVE,
    S_LONGEST,
    S_NUMBER,
    S_OVER,
    S_PHASE,
    S_PLAYERS,
    S_PORT,
    S_ROBBER,
    S_RULES,
    S_SEAT,
    S_SEAT_BLOCK,
    S_SEATS,
    S_STORE,
    S_STORE_SIZE,
    S_STORE_USED,
    S_TERRAIN,
    S_TURN,
    S_TURN_PLAYER,
    S_VERT_LEVEL,
    S_VERT_OWNER,
    S_WON,
    SETTLE,
    SETUP,
    START,
    STATE_SIZE,
    STEAL,
    STORE,
    TAKE,
    TERRAIN_COLOURS,
    TERRAINS,
    TRADE_WITH,
    VERT_XY,
    VERTEX,
    isValidAction,
)

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
WIDTH, HEIGHT = 1000, 640
SCALE, BOARD_X, BOARD_Y = 54.0, 300.0, 330.0
SEAT_COLOURS = ("#d32f2f", "#1565c0", "#ef8f00", "#7b1fa2")
INK, GREY, SEA = "#1f2430", "#6b7280", "#4f8fc9"


def describe_action(action: int) -> str:
    """What an action means: "Road on edge 17", "Give wheat", "End turn"."""
    a = int(action)
    if VERTEX <= a < EDGE:
        return f"Settlement (or city) on corner {a - VERTEX}"
    if EDGE <= a < HEX:
        v, w = EDGE_VERTS[a - EDGE]
        return f"Road on edge {a - EDGE} (corners {v}-{w})"
    if HEX <= a < STEAL:
        return f"Move the robber to hex {a - HEX}"
    if STEAL <= a < TAKE:
        return f"Rob the player {a - STEAL + 1} seat(s) after you"
    if TAKE <= a < GIVE:
        return f"Take {RESOURCES[a - TAKE]}"
    if GIVE <= a < ROLL:
        return f"Give {RESOURCES[a - GIVE]}"
    if PLAY <= a < PLAY + 4:
        return f"Play {DEV_NAMES[a - PLAY]}"
    if TRADE_WITH <= a < NO_TRADE:
        return f"Trade with the player {a - TRADE_WITH + 1} seat(s) after you"
    if STORE <= a < STORE + 5:
        return f"Move {RESOURCES[a - STORE]} from your store to your hand"
    words = {
        ROLL: "Roll the dice",
        BUY_ROAD: "Build a road (wood, brick)",
        BUY_SETTLEMENT: "Build a settlement (wood, brick, sheep, wheat)",
        BUY_CITY: "Build a city (2 wheat, 3 ore)",
        BUY_DEV: "Buy a development card (sheep, wheat, ore)",
        PROPOSE: "Offer a trade to the other players",
        BANK: "Trade with the bank or a port",
        END_TURN: "End turn",
        OFFER_DONE: "Done: these are the cards I give",
        OFFER_DONE + 1: "Done: these are the cards I ask",
        DECLINE: "Decline the offer",
        DECLINE + 1: "Accept the offer",
        NO_TRADE: "Trade with nobody",
    }
    return words.get(a, f"Unknown action {a}")


def _count(value: float) -> int:
    return int(value) if np.isfinite(value) and value > 0 else 0


def _players(state) -> int:
    return min(max(_count(state[S_PLAYERS]), 3), MAX_PLAYERS)


def _seat_name(rel: int) -> str:
    return "You" if rel == 0 else f"Player +{rel}"


def _turn_owner(rel: int) -> str:
    return "your" if rel == 0 else f"{_seat_name(rel)}'s"


def _name_markup(rel: int) -> str:
    name = escape(_seat_name(rel))
    return name if rel == 0 else f'<tspan data-relative-seat="{rel}">{name}</tspan>'


def _block(state, rel: int, k: int) -> int:
    return _count(state[S_SEATS + rel * S_SEAT_BLOCK + k])


def _cards(values) -> str:
    parts = [f"{_count(c)} {RESOURCES[k]}" for k, c in enumerate(values) if _count(c)]
    return ", ".join(parts) if parts else "nothing"


_PROMPTS = {
    SETUP: "Place a set-up settlement (click a corner)",
    ROAD: "Place a road (click an edge)",
    START: "Roll the dice, or play a development card first",
    DISCARD: "Discard a card",
    ROBBER: "Move the robber (click a hex)",
    ROB: "Choose whom to rob",
    SETTLE: "Place your settlement (click a corner)",
    DEV_PICK: "Choose a resource",
    OFFER: "Trade offer: add a card you give",
    ASK: "Trade offer: add a card you ask",
    RESPOND: "A trade is offered to you: accept or decline",
    CHOOSE: "Choose a player who accepted, or nobody",
    BANK_GIVE: "Bank trade: choose the resource you give",
    BANK_TAKE: "Bank trade: choose the resource you take",
}


def _no_exchange(state) -> bool:
    return _count(state[S_RULES]) == NO_EXCHANGE


def _store(state) -> str:
    """My store's cards and whether one may still move to my hand this turn (no-exchange rules)."""
    used = " (one moved this turn)" if state[S_STORE_USED] > 0.5 else ""
    return f"{_cards(state[S_STORE : S_STORE + 5])}{used}"


def _prompt(state) -> str:
    if state[S_OVER] > 0.5:
        return "You won!" if state[S_WON] > 0.5 else "Game over: you did not win"
    rel = _count(state[S_ACTOR])
    if rel:
        return f"Waiting for {_seat_name(rel)}"
    phase = _count(state[S_PHASE])
    if phase == 9:
        return "Choose the settlement to make a city (click it)"
    if phase == 6:
        return "Build, trade, play a card or end your turn"
    text = _PROMPTS.get(phase, "Your move")
    if phase == DISCARD:
        text += f" ({_count(state[S_DISCARD])} left)"
    return text


def describe_state(state) -> str:
    """The state in words: the board, the buildings, every seat, the phase and the trade."""
    state = np.asarray(state, dtype=np.float64)
    n = _players(state)
    rules = (
        " No-exchange rules: no trades between players; the robber takes a card of its hex from the bank; "
        "monopoly takes from the bank; once a turn you may move one card from your store to your hand."
        if _no_exchange(state)
        else ""
    )
    lines = [
        f"Catan, {n} players; you are seat {_count(state[S_SEAT])}; turn {_count(state[S_TURN])}. "
        "10 points win, on your own turn (settlement 1, city 2, longest road 2, largest army 2, victory card 1)."
        + rules,
        f"It is {_turn_owner(_count(state[S_TURN_PLAYER]))} turn. {_prompt(state)}.",
        f"Last roll: {_count(state[S_DICE]) or 'none this turn'}.",
        "Hexes (terrain, number; its corners): "
        + "; ".join(
            f"{h} {TERRAINS[min(_count(state[S_TERRAIN + h]), 5)]} {_count(state[S_NUMBER + h]) or '-'} "
            f"{list(map(int, HEX_VERTS[h]))}"
            for h in range(NUM_HEXES)
        )
        + f". The robber is on hex {_count(state[S_ROBBER])}.",
        "Ports: "
        + "; ".join(
            f"corners {int(EDGE_VERTS[PORT_EDGES[p]][0])}-{int(EDGE_VERTS[PORT_EDGES[p]][1])} "
            + ("3:1 any" if _count(state[S_PORT + p]) == DESERT else f"2:1 {RESOURCES[_count(state[S_PORT + p])]}")
            for p in range(NUM_PORTS)
        )
        + ".",
        f"Bank: {_cards(state[S_BANK : S_BANK + 5])}; development cards left: {_count(state[S_DECK])}.",
    ]
    for rel in range(n):
        corners = [
            f"{'city' if state[S_VERT_LEVEL + v] > 1.5 else 'settlement'} {v}"
            for v in range(NUM_VERTS)
            if _count(state[S_VERT_OWNER + v]) == rel + 1
        ]
        roads = [str(e) for e in range(NUM_EDGES) if _count(state[S_EDGE_OWNER + e]) == rel + 1]
        titles = [t for t, s in (("largest army", S_ARMY), ("longest road", S_LONGEST)) if _count(state[s]) == rel + 1]
        text = (
            f"{_seat_name(rel)}: {_block(state, rel, P_POINTS)} points; {_block(state, rel, P_RES_TOTAL)} resource cards; "
            f"{_block(state, rel, P_DEV_TOTAL)} development cards; knights played {_block(state, rel, P_KNIGHTS)}; "
            f"longest road {_block(state, rel, P_ROAD_LEN)}; buildings: {', '.join(corners) or 'none'}; "
            f"roads on edges: {', '.join(roads) or 'none'}"
        )
        if titles:
            text += f"; holds {' and '.join(titles)}"
        if _no_exchange(state):
            text += f"; {_count(state[S_STORE_SIZE + rel])} cards in store"
        lines.append(text + ".")
    devs = ", ".join(f"{_block(state, 0, 5 + d)} {DEV_NAMES[d]}" for d in range(5) if _block(state, 0, 5 + d))
    ratios = ", ".join(f"{RESOURCES[k]} {_block(state, 0, P_RATIO + k)}:1" for k in range(5))
    lines.append(
        f"Your hand: {_cards(state[S_SEATS : S_SEATS + 5])}; development cards: {devs or 'none'}; bank ratios: {ratios}."
    )
    if _no_exchange(state):
        lines.append(f"Your store: {_store(state)}.")
    if np.sum(state[S_GIVE : S_GIVE + 10]) > 0:
        who = _seat_name(_count(state[S_TURN_PLAYER]))
        lines.append(
            f"On the table: {who} gives {_cards(state[S_GIVE : S_GIVE + 5])} for {_cards(state[S_ASK : S_ASK + 5])}."
        )
    if _count(state[S_DEV]):
        lines.append(f"Playing {DEV_NAMES[_count(state[S_DEV]) - 1]} ({_count(state[S_DEV_LEFT])} to go).")
    return "\n".join(lines)


# ---- drawing -----------------------------------------------------------------------------------


def _xy(point) -> tuple[float, float]:
    return BOARD_X + SCALE * float(point[0]), BOARD_Y + SCALE * float(point[1])


def _clickable(action: int, inner: str) -> str:
    return (
        f'<g data-action="{action}" style="cursor:pointer"><title>{escape(describe_action(action))}</title>{inner}</g>'
    )


def _board(state, valid) -> list[str]:
    parts = [f'<polygon points="{" ".join(f"{BOARD_X + x:.1f},{BOARD_Y + y:.1f}" for x, y in _sea())}" fill="{SEA}"/>']
    robber = _count(state[S_ROBBER])
    for h in range(NUM_HEXES):
        terrain = min(_count(state[S_TERRAIN + h]), 5)
        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in (_xy(VERT_XY[v]) for v in HEX_VERTS[h]))
        cx, cy = _xy(HEX_XY[h])
        tile = f'<polygon points="{pts}" fill="{TERRAIN_COLOURS[terrain]}" stroke="#f4ecd8" stroke-width="3"/>'
        number = _count(state[S_NUMBER + h])
        if number:
            red = number in (6, 8)
            tile += (
                f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="17" fill="#fbf6e9" stroke="{INK}" stroke-width="1"/>'
                f'<text x="{cx:.1f}" y="{cy + 6:.1f}" text-anchor="middle" font-size="17" font-weight="bold" '
                f'fill="{"#c62828" if red else INK}">{number}</text>'
            )
        tile += (
            f'<text x="{cx:.1f}" y="{cy - 24:.1f}" text-anchor="middle" font-size="11" fill="#1f2430" '
            f'opacity="0.75">{TERRAINS[terrain]}</text>'
        )
        if h == robber:
            tile += f'<circle cx="{cx + 22:.1f}" cy="{cy + 14:.1f}" r="10" fill="#222" stroke="#fff" stroke-width="2"/>'
        if valid(HEX + h):
            tile += f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="30" fill="none" stroke="#fff" stroke-width="4" stroke-dasharray="6 4"/>'
            tile = _clickable(HEX + h, tile)
        parts.append(tile)
    for p in range(NUM_PORTS):
        v, w = EDGE_VERTS[PORT_EDGES[p]]
        (x0, y0), (x1, y1) = _xy(VERT_XY[v]), _xy(VERT_XY[w])
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        dx, dy = mx - BOARD_X, my - BOARD_Y
        norm = max((dx * dx + dy * dy) ** 0.5, 1.0)
        px, py = mx + 26 * dx / norm, my + 26 * dy / norm
        kind = _count(state[S_PORT + p])
        label = "3:1" if kind == DESERT else f"2:1 {RESOURCES[kind]}"
        parts.append(
            f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{px:.1f}" y2="{py:.1f}" stroke="#8d6e63" stroke-width="3"/>'
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{px:.1f}" y2="{py:.1f}" stroke="#8d6e63" stroke-width="3"/>'
            f'<rect x="{px - 30:.1f}" y="{py - 10:.1f}" width="60" height="20" rx="5" fill="#fbf6e9" stroke="#8d6e63"/>'
            f'<text x="{px:.1f}" y="{py + 5:.1f}" text-anchor="middle" font-size="11" fill="{INK}">{label}</text>'
        )
    for e in range(NUM_EDGES):
        (x0, y0), (x1, y1) = (_xy(VERT_XY[v]) for v in EDGE_VERTS[e])
        owner = _count(state[S_EDGE_OWNER + e])
        if owner:
            parts.append(
                f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" stroke="{INK}" stroke-width="10" stroke-linecap="round"/>'
                f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" stroke="{SEAT_COLOURS[owner - 1]}" '
                'stroke-width="7" stroke-linecap="round"/>'
            )
        elif valid(EDGE + e):
            line = (
                f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" stroke="#ffffff" stroke-width="9" '
                'stroke-linecap="round" stroke-dasharray="5 5"/>'
                f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" stroke="transparent" stroke-width="16"/>'
            )
            parts.append(_clickable(EDGE + e, line))
    for v in range(NUM_VERTS):
        x, y = _xy(VERT_XY[v])
        owner = _count(state[S_VERT_OWNER + v])
        piece = ""
        if owner:
            colour = SEAT_COLOURS[owner - 1]
            if state[S_VERT_LEVEL + v] > 1.5:
                piece = f'<rect x="{x - 11:.1f}" y="{y - 11:.1f}" width="22" height="22" rx="3" fill="{colour}" stroke="{INK}" stroke-width="2"/>'
                piece += f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="#fff"/>'
            else:
                piece = (
                    f'<polygon points="{x - 8:.1f},{y + 8:.1f} {x + 8:.1f},{y + 8:.1f} {x + 8:.1f},{y - 2:.1f} '
                    f'{x:.1f},{y - 10:.1f} {x - 8:.1f},{y - 2:.1f}" fill="{colour}" stroke="{INK}" stroke-width="2"/>'
                )
        if valid(VERTEX + v):
            piece += f'<circle cx="{x:.1f}" cy="{y:.1f}" r="9" fill="#ffffff" fill-opacity="0.6" stroke="{INK}" stroke-width="2.5"/>'
            parts.append(_clickable(VERTEX + v, piece))
        elif piece:
            parts.append(piece)
    return parts


def _sea() -> list[tuple[float, float]]:
    """A hexagon around the island (flat sides facing the ports)."""
    r = SCALE * 5.1
    return [(r * np.cos(np.radians(60 * k)), r * np.sin(np.radians(60 * k))) for k in range(6)]


def _button(x: float, y: float, w: float, label: str, action: int, colour: str) -> str:
    return _clickable(
        action,
        f'<rect x="{x}" y="{y}" width="{w}" height="28" rx="7" fill="{colour}"/>'
        f'<text x="{x + w / 2}" y="{y + 19}" text-anchor="middle" font-size="13" font-weight="bold" '
        f'fill="#ffffff">{escape(label)}</text>',
    )


def _short(action: int) -> str:
    if TAKE <= action < GIVE:
        return f"Take {RESOURCES[action - TAKE]}"
    if GIVE <= action < ROLL:
        return f"Give {RESOURCES[action - GIVE]}"
    if PLAY <= action < PLAY + 4:
        return f"Play {DEV_NAMES[action - PLAY]}"
    if STEAL <= action < TAKE:
        return f"Rob {_seat_name(action - STEAL + 1)}"
    if TRADE_WITH <= action < NO_TRADE:
        return f"Trade with {_seat_name(action - TRADE_WITH + 1)}"
    if STORE <= action < STORE + 5:
        return f"Store: {RESOURCES[action - STORE]}"
    short = {
        ROLL: "Roll",
        BUY_ROAD: "Road",
        BUY_SETTLEMENT: "Settlement",
        BUY_CITY: "City",
        BUY_DEV: "Dev card",
        PROPOSE: "Offer trade",
        BANK: "Bank trade",
        END_TURN: "End turn",
        OFFER_DONE: "Done giving",
        OFFER_DONE + 1: "Done asking",
        DECLINE: "Decline",
        DECLINE + 1: "Accept",
        NO_TRADE: "No trade",
    }
    return short.get(action, str(action))


def render(state) -> str:
    """An SVG picture of a Catan state from its player's point of view."""
    state = np.asarray(state, dtype=np.float64)
    if state.shape != (STATE_SIZE,):
        raise ValueError(f"Catan.render: expected a state of length {STATE_SIZE}, got shape {state.shape}")
    n = _players(state)
    over = state[S_OVER] > 0.5

    def valid(action: int) -> bool:
        return 0 <= action < NUM_ACTIONS and bool(isValidAction(state, action))

    head = ("#1d8a4e" if state[S_WON] > 0.5 else "#c0392b") if over else INK
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'font-family="{FONT}">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" rx="14" fill="#f7f4ec"/>',
        f'<text x="20" y="28" font-size="14" fill="{GREY}">Catan{" (no exchange)" if _no_exchange(state) else ""} · '
        f"{n} players · turn {_count(state[S_TURN])} · "
        "10 points win on your own turn</text>",
        f'<text x="20" y="54" font-size="19" font-weight="bold" fill="{head}" data-prompt="">{escape(_prompt(state))}</text>',
    ]
    parts += _board(state, valid)
    # ---- the side panel: dice, seats, my hand, the trade, the buttons
    px = 600
    dice = _count(state[S_DICE])
    parts.append(
        f'<text x="{px}" y="84" font-size="14" fill="{INK}">Dice: <tspan font-weight="bold">{dice or "-"}</tspan> · '
        f"development cards left: {_count(state[S_DECK])}</text>"
        f'<text x="{px}" y="104" font-size="12" fill="{GREY}">Bank: {escape(_cards(state[S_BANK : S_BANK + 5]))}</text>'
    )
    y = 116
    for rel in range(n):
        active = not over and rel == _count(state[S_TURN_PLAYER])
        stroke = f'stroke="{INK}" stroke-width="2.5"' if active else 'stroke="#d6d3cc"'
        parts.append(
            f'<rect x="{px - 8}" y="{y}" width="{WIDTH - px - 8}" height="54" rx="8" fill="#ffffff" {stroke}/>'
        )
        parts.append(f'<rect x="{px}" y="{y + 10}" width="14" height="14" rx="3" fill="{SEAT_COLOURS[rel]}"/>')
        titles = " ".join(t for t, s in (("⚔ army", S_ARMY), ("⛙ road", S_LONGEST)) if _count(state[s]) == rel + 1)
        parts.append(
            f'<text x="{px + 22}" y="{y + 22}" font-size="14" font-weight="bold" fill="{INK}">{_name_markup(rel)} · '
            f"{_block(state, rel, P_POINTS)} points {escape(titles)}</text>"
        )
        parts.append(
            f'<text x="{px + 22}" y="{y + 42}" font-size="12" fill="{GREY}">{_block(state, rel, P_RES_TOTAL)} cards'
            f"{f' +{_count(state[S_STORE_SIZE + rel])} stored' if _no_exchange(state) else ''} · "
            f"{_block(state, rel, P_DEV_TOTAL)} dev · knights {_block(state, rel, P_KNIGHTS)} · road "
            f"{_block(state, rel, P_ROAD_LEN)} · {_block(state, rel, P_SETTLEMENTS)}S {_block(state, rel, P_CITIES)}C "
            f"{_block(state, rel, P_ROADS)}R</text>"
        )
        y += 60
    y += 8
    parts.append(
        f'<text x="{px}" y="{y + 12}" font-size="14" fill="{INK}">Your hand: '
        f"{escape(_cards(state[S_SEATS : S_SEATS + 5]))}</text>"
    )
    devs = ", ".join(f"{_block(state, 0, 5 + d)} {DEV_NAMES[d]}" for d in range(5) if _block(state, 0, 5 + d))
    ratios = " ".join(f"{RESOURCES[k][:2]} {_block(state, 0, P_RATIO + k)}:1" for k in range(5))
    parts.append(f'<text x="{px}" y="{y + 32}" font-size="12" fill="{GREY}">Dev cards: {escape(devs or "none")}</text>')
    parts.append(f'<text x="{px}" y="{y + 50}" font-size="12" fill="{GREY}">Bank ratios: {escape(ratios)}</text>')
    y += 62
    if _no_exchange(state):
        parts.append(
            f'<text x="{px}" y="{y + 6}" font-size="12" fill="{GREY}">Your store: {escape(_store(state))}</text>'
        )
        y += 18
    if np.sum(state[S_GIVE : S_GIVE + 10]) > 0:
        who = _name_markup(_count(state[S_TURN_PLAYER]))
        answers = ", ".join(
            f"{_seat_name(r)} {'accepts' if _count(state[S_ANSWER + r]) == 2 else 'declines'}"
            for r in range(1, n)
            if _count(state[S_ANSWER + r])
        )
        parts.append(
            f'<text x="{px}" y="{y + 12}" font-size="13" fill="{INK}">Offer: {who} gives '
            f"{escape(_cards(state[S_GIVE : S_GIVE + 5]))} for {escape(_cards(state[S_ASK : S_ASK + 5]))}</text>"
        )
        if answers:
            parts.append(f'<text x="{px}" y="{y + 30}" font-size="12" fill="{GREY}">{escape(answers)}</text>')
        y += 40
    bx, by = float(px), float(y + 4)
    for action in range(NUM_ACTIONS):
        if action < STEAL and action >= VERTEX or not valid(action):
            continue
        label = "Game over" if over else _short(action)
        w = 18 + 7.6 * len(label)
        if bx + w > WIDTH - 12:
            bx, by = float(px), by + 34
        colour = "#c0392b" if action in (END_TURN, DECLINE, NO_TRADE) else "#2e7d32" if action == DECLINE + 1 else INK
        parts.append(_button(bx, by, w, label, action, GREY if over else colour))
        bx += w + 8
    parts.append("</svg>")
    return "".join(parts)

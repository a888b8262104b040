"""Negotiation: two players split a pile of books, hats and balls they value differently.

Rules (see README.md): a pile of 5 to 7 items of three kinds is drawn, and each player gets private
values per kind, so that the whole pile is worth 10 points to each. Players take turns writing a
message; a message may talk, propose a split (``[Propose] books=1 hats=2 balls=0``: what the
proposer takes, the rest goes to the other), accept the other's standing proposal (``[Accept]``)
or end the talks (``[No deal]``). An accepted proposal gives each player the points its items are
worth to it; no deal (or no agreement within ``max_turns`` messages) gives both 0. A malformed
proposal or an [Accept] with nothing to accept is an invalid move: the player is told why and tries
once more; a second invalid move in a row forfeits (-1 for it, 0 for the other).
"""

from __future__ import annotations

import re
from typing import Any

from makeenv.text.core import TextEnv

ITEMS = ("book", "hat", "ball")
TOTAL_VALUE = 10
MIN_ITEMS, MAX_ITEMS = 5, 7
FORFEIT_REWARD = -1

_PROPOSE = re.compile(r"\[\s*propose\b([^\]]*)\](.*)", re.IGNORECASE | re.DOTALL)
_ACCEPT = re.compile(r"\[\s*accept\s*\]", re.IGNORECASE)
_NO_DEAL = re.compile(r"\[\s*no[\s_-]*deal\s*\]", re.IGNORECASE)
_COUNT_AFTER = re.compile(r"\b(book|hat|ball)s?\s*[=:]\s*(\d+)", re.IGNORECASE)
_COUNT_BEFORE = re.compile(r"\b(\d+)\s+(book|hat|ball)s?\b", re.IGNORECASE)


class ProposalError(ValueError):
    """A proposal that cannot be read or asks for items that are not on the table."""


def items_text(counts: dict[str, int] | tuple[int, ...]) -> str:
    """``"2 books, 1 hat, 0 balls"``."""
    if not isinstance(counts, dict):
        counts = dict(zip(ITEMS, counts))
    return ", ".join(f"{counts[item]} {item}{'' if counts[item] == 1 else 's'}" for item in ITEMS)


def parse_proposal(text: str, pile: tuple[int, ...]) -> tuple[int, ...] | None:
    """What a message proposes to take (one count per kind), None when it proposes nothing.

    ``[Propose] books=1 hats=2 balls=0``, ``[Propose: 1 book, 2 hats]`` and ``[Propose] 1 book 2 hats``
    all work; kinds not named are 0. Raises ``ProposalError`` saying what is wrong.
    """
    found = _PROPOSE.search(text)
    if not found:
        return None
    inside, after = found.group(1), found.group(2).split("\n", 1)[0]
    terms = inside if (_COUNT_AFTER.search(inside) or _COUNT_BEFORE.search(inside)) else after
    counts: dict[str, int] = {}
    for item, number in _COUNT_AFTER.findall(terms):
        counts.setdefault(item.lower(), int(number))
    for number, item in _COUNT_BEFORE.findall(terms):
        counts.setdefault(item.lower(), int(number))
    if not counts:
        raise ProposalError("a proposal must say what you take, e.g. [Propose] books=1 hats=2 balls=0")
    taken = tuple(counts.get(item, 0) for item in ITEMS)
    too_many = [f"{taken[i]} {item}s (there are {pile[i]})" for i, item in enumerate(ITEMS) if taken[i] > pile[i]]
    if too_many:
        raise ProposalError("the proposal takes more than the table holds: " + ", ".join(too_many))
    return taken


def points(values: tuple[int, ...], counts: tuple[int, ...]) -> int:
    return sum(v * c for v, c in zip(values, counts))


class NegotiationEnv(TextEnv):
    """Two players, one pile, private values; talk, propose, accept.

    Args:
        max_turns: messages (both players together) before the talks end with no deal.
    """

    min_players = max_players = 2
    answer_hint = {
        "label": "Your message",
        "button": "Send",
        "multiline": True,
        "placeholder": "Talk, and/or: [Propose] books=1 hats=2 balls=0 (what you take) · [Accept] · [No deal]",
    }

    def __init__(self, max_turns: int = 10):
        super().__init__()
        if isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 2:
            raise ValueError(f"NegotiationEnv: max_turns must be an int >= 2, got {max_turns!r}")
        self.max_turns = max_turns
        self._clear()

    def _clear(self) -> None:
        self.pile: tuple[int, ...] = ()
        self.values: dict[int, tuple[int, ...]] = {}
        self.proposal: dict[str, Any] | None = None  # {"by": player, "takes": counts}
        self.deal: dict[int, tuple[int, ...]] | None = None
        self.transcript: list[dict[str, Any]] = []
        self.strikes = {0: 0, 1: 0}
        self.outcome: str | None = None

    # ----------------------------------------------------------------- rules
    def _reset(self) -> None:
        self._clear()
        self.pile = self._draw_pile()
        first = self._draw_values()
        second = self._draw_values()
        while second == first:
            second = self._draw_values()
        self.values = {0: first, 1: second}
        for player in (0, 1):
            self.send(self._prompt(player), to=player, kind="prompt")
        self._tell_turn()

    def _draw_pile(self) -> tuple[int, ...]:
        while True:
            pile = tuple(self.rng.randint(1, 4) for _ in ITEMS)
            if MIN_ITEMS <= sum(pile) <= MAX_ITEMS:
                return pile

    def _draw_values(self) -> tuple[int, ...]:
        """Values per kind (0 allowed, at most one kind worthless) that make the pile worth 10."""
        while True:
            values = tuple(self.rng.randint(0, TOTAL_VALUE) for _ in ITEMS)
            if points(values, self.pile) == TOTAL_VALUE and values.count(0) <= 1:
                return values

    def _prompt(self, player: int) -> str:
        values = self.values[player]
        worth = ", ".join(f"{item} {value}" for item, value in zip(ITEMS, values))
        return (
            f"[GAME] You are Player {player} in Negotiation. On the table: {items_text(self.pile)}.\n"
            f"[GAME] Your values per item (private): {worth}. The whole table is worth {TOTAL_VALUE} to you; "
            "the other player values the items differently.\n"
            f"[GAME] Players take turns (Player 0 first) writing one message each, {self.max_turns} messages "
            "at most. A message may talk and may end with one action:\n"
            "  [Propose] books=1 hats=2 balls=0  (what YOU take; the other player gets the rest)\n"
            "  [Accept]  (accept the other player's standing proposal)\n"
            "  [No deal]  (end the talks: both get 0)\n"
            "[GAME] An accepted proposal gives each player the points its items are worth to it. Without a deal "
            f"both get 0. A malformed action is explained once; a second one in a row forfeits ({FORFEIT_REWARD})."
        )

    def _tell_turn(self) -> None:
        player = self.current_player
        left = self.max_turns - self.turn
        lines = [f"[GAME] Your turn ({left} message{'s' if left != 1 else ''} left in the talks)."]
        if self.proposal is None:
            lines.append("[GAME] No proposal stands.")
        else:
            by, takes = self.proposal["by"], self.proposal["takes"]
            yours = tuple(p - t for p, t in zip(self.pile, takes))
            if by == player:
                lines.append(
                    f"[GAME] Your proposal stands: you take {items_text(takes)} (worth "
                    f"{points(self.values[player], takes)} to you)."
                )
            else:
                lines.append(
                    f"[GAME] Player {by}'s proposal stands: you would get {items_text(yours)} (worth "
                    f"{points(self.values[player], yours)} to you). [Accept] takes it."
                )
        self.send("\n".join(lines), to=player, kind="board")

    def _step(self, player_id: int, action: str) -> dict[str, Any]:
        other = 1 - player_id
        try:
            move = self._read(player_id, action)
        except ProposalError as error:
            return self._invalid(player_id, str(error))
        self.strikes[player_id] = 0
        talk = action.strip()
        self.transcript.append({"player": player_id, "text": talk, "move": move["kind"]})
        if talk:
            self.send(f"[Player {player_id}] {talk}", to=other, kind="message", sender=player_id)
        info: dict[str, Any] = {"move": move["kind"]}
        if move["kind"] == "accept":
            assert self.proposal is not None  # parse_move accepts only a standing proposal
            takes = self.proposal["takes"]
            by = self.proposal["by"]
            self.deal = {by: takes, 1 - by: tuple(p - t for p, t in zip(self.pile, takes))}
            rewards = {p: points(self.values[p], self.deal[p]) for p in (0, 1)}
            self._end(
                "deal",
                rewards,
                f"Deal: Player {by} takes {items_text(self.deal[by])}, Player {1 - by} "
                f"takes {items_text(self.deal[1 - by])}; points {rewards[0]} and {rewards[1]}.",
            )
        elif move["kind"] == "no_deal":
            self._end("no_deal", {0: 0, 1: 0}, f"Player {player_id} ended the talks: no deal, 0 points each.")
        else:
            if move["kind"] == "propose":
                self.proposal = {"by": player_id, "takes": move["takes"]}
                self.send(
                    f"[GAME] Player {player_id} proposes to take {items_text(move['takes'])}; you would get "
                    f"{items_text(tuple(p - t for p, t in zip(self.pile, move['takes'])))}.",
                    to=other,
                    kind="action",
                )
            if self.turn >= self.max_turns:
                self._end("no_deal", {0: 0, 1: 0}, f"No agreement within {self.max_turns} messages: 0 points each.")
            else:
                self.current_player = other
                self._tell_turn()
        if self.done:
            info["message"] = f"[GAME] {self.reason}"
        return info

    def _read(self, player_id: int, text: str) -> dict[str, Any]:
        if _NO_DEAL.search(text):
            return {"kind": "no_deal"}
        if _ACCEPT.search(text):
            if self.proposal is None or self.proposal["by"] == player_id:
                raise ProposalError("there is no proposal of the other player to accept")
            return {"kind": "accept"}
        takes = parse_proposal(text, self.pile)
        if takes is not None:
            return {"kind": "propose", "takes": takes}
        if not text.strip():
            raise ProposalError("the message is empty; write something, or end the talks with [No deal]")
        return {"kind": "talk"}

    def _invalid(self, player_id: int, reason: str) -> dict[str, Any]:
        self.strikes[player_id] += 1
        if self.strikes[player_id] == 1:
            message = (
                f"[GAME] Invalid move: {reason}. Write your message again; a second invalid move in a row "
                "forfeits the game."
            )
            self.send(message, to=player_id, kind="admin")
            return {"invalid_move": True, "message": message, "reason": reason}
        self._end(
            "forfeit",
            {player_id: FORFEIT_REWARD, 1 - player_id: 0},
            f"Player {player_id} forfeits after a second invalid move ({reason}).",
        )
        return {"invalid_move": True, "forfeit": True, "message": f"[GAME] {self.reason}", "reason": reason}

    def _end(self, outcome: str, rewards: dict[int, int], reason: str) -> None:
        self.outcome = outcome
        worth = "; ".join(f"Player {p} valued book {v[0]}, hat {v[1]}, ball {v[2]}" for p, v in self.values.items())
        self.send(f"[GAME] {reason}\n[GAME] Values, now revealed: {worth}.", kind="admin")
        self.finish(rewards, reason)

    # ----------------------------------------------------------------- views
    def get_board_str(self) -> str:
        if not self.pile:
            return "Negotiation: not started (call reset)."
        lines = [f"Negotiation over {items_text(self.pile)}; message {self.turn} of {self.max_turns}."]
        if self.proposal is not None and not self.done:
            lines.append(f"Standing proposal: Player {self.proposal['by']} takes {items_text(self.proposal['takes'])}.")
        if self.done:
            lines.append(f"Result: {self.reason}")
        return "\n".join(lines)

    def render(self, player_id: int) -> str | None:
        from makeenv.games.negotiation.draw import render

        if not self.pile:
            return None
        standing = None
        if self.proposal is not None and not self.done:
            takes = self.proposal["takes"]
            mine = takes if self.proposal["by"] == player_id else tuple(p - t for p, t in zip(self.pile, takes))
            standing = (self.proposal["by"] == player_id, mine)
        deal = self.deal[player_id] if self.deal is not None else None
        return render(
            self.pile,
            self.values[player_id],
            standing,
            deal,
            self.done,
            self.max_turns - self.turn,
            player_id == self.current_player,
        )

    def result_panel(self, player_id: int | None = None) -> list[dict[str, Any]]:
        if not self.done:
            return []
        rows = []
        for p in (0, 1):
            got = self.deal[p] if self.deal is not None else (0, 0, 0)
            name = f"Player {p}" + (" (you)" if p == player_id else "")
            rows.append(
                [
                    name,
                    ", ".join(f"{i} {v}" for i, v in zip(ITEMS, self.values[p])),
                    items_text(got),
                    str((self.rewards or {}).get(p, 0)),
                ]
            )
        talks = "\n".join(f"Player {m['player']}: {m['text']}" for m in self.transcript) or "(no messages)"
        return [
            {"kind": "table", "title": self.reason, "columns": ["Player", "Values", "Gets", "Points"], "rows": rows},
            {"kind": "text", "title": "The talks", "text": talks},
        ]

    def _game_info(self) -> dict[str, Any]:
        return {
            "game": "Negotiation",
            "pile": dict(zip(ITEMS, self.pile)),
            "values": {f"Player {p}": dict(zip(ITEMS, v)) for p, v in self.values.items()},
            "max_turns": self.max_turns,
            "transcript": list(self.transcript),
            "proposal": None
            if self.proposal is None
            else {"by": self.proposal["by"], "takes": dict(zip(ITEMS, self.proposal["takes"]))},
            "deal": None if self.deal is None else {f"Player {p}": dict(zip(ITEMS, c)) for p, c in self.deal.items()},
            "outcome": self.outcome,
        }

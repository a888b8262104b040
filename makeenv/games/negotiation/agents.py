"""A rule-based negotiator that plays from its observation text alone, as a language model would.

``Haggler`` reads its values and the standing proposal from what it was told, accepts a proposal
worth at least what it currently asks for, and otherwise proposes to keep the items it values most
until they are worth its ask; the ask drops from 8 towards 5 as the talks run out. A plain text
agent: ``makeenv match Negotiation-v0 --player1 makeenv.games.negotiation.agents:Haggler``.
"""

from __future__ import annotations

import re

ITEMS = ("book", "hat", "ball")
_TABLE = re.compile(r"On the table: (\d+) books?, (\d+) hats?, (\d+) balls?")
_VALUES = re.compile(r"Your values per item \(private\): book (\d+), hat (\d+), ball (\d+)")
_STANDING = re.compile(r"Player \d's proposal stands: you would get .*?\(worth (\d+) to you\)")
_LEFT = re.compile(r"Your turn \((\d+) messages? left")


class Haggler:
    """``agent(observation) -> str`` for Negotiation-v0 (stateless: everything comes from the text)."""

    def __init__(self, start_ask: int = 8, floor: int = 5):
        self.start_ask = start_ask
        self.floor = floor

    def __call__(self, observation: str) -> str:
        table, own = _TABLE.search(observation), _VALUES.search(observation)
        if table is None or own is None:
            raise ValueError(
                "Haggler: the observation does not show the items on the table and my values; "
                "it plays Negotiation-v0 observations"
            )
        pile = tuple(int(n) for n in table.groups())
        values = tuple(int(v) for v in own.groups())
        turns = _LEFT.findall(observation)
        left = int(turns[-1]) if turns else 10
        ask = max(self.floor, min(self.start_ask, self.floor + left // 3))
        # Only the latest turn message says whether a proposal of the other player stands now.
        latest = observation[observation.rfind("Your turn (") :]
        standing = _STANDING.search(latest)
        if standing and int(standing.group(1)) >= ask:
            return "That works for me. [Accept]"
        return "How about this? " + self.proposal(pile, values, ask)

    @staticmethod
    def proposal(pile: tuple[int, ...], values: tuple[int, ...], ask: int) -> str:
        """Keep the most valuable items (for me) until they are worth ``ask``; leave the rest."""
        takes = [0, 0, 0]
        worth = 0
        for kind in sorted(range(3), key=lambda k: -values[k]):
            while takes[kind] < pile[kind] and worth < ask and values[kind] > 0:
                takes[kind] += 1
                worth += values[kind]
        return "[Propose] " + " ".join(f"{item}s={n}" for item, n in zip(ITEMS, takes))

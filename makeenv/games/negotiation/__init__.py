"""Negotiation: a two-player text game; split a pile of items valued differently by each player."""

from makeenv.games.negotiation.env import ITEMS, NegotiationEnv, ProposalError, parse_proposal

__all__ = ["NegotiationEnv", "ProposalError", "parse_proposal", "ITEMS"]

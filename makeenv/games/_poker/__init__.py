"""Helpers shared by the poker games (KuhnPoker, LeducPoker; Poker draws with ``cards``): CFR+
over the contract functions (``cfr``), the drawing of cards and chips (``cards``) and the
exploitability bridge to OpenSpiel (``openspiel``, for tests and benchmarks). A folder whose name
starts with ``_`` holds shared helpers, not a game."""

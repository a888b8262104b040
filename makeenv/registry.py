"""Names and ids of the built-in environments, and how to build each one.

An entry says which family a game belongs to (``array`` or ``text``), where its code lives and
which keyword arguments its variant sets. ``make`` turns a name into a ready environment; it also
accepts a user's own array game as an importable module path or a folder path.
"""

from __future__ import annotations

import difflib
import importlib
import os
from dataclasses import dataclass, field
from typing import Any, Literal

Kind = Literal["array", "text"]


@dataclass(frozen=True)
class EnvSpec:
    """How to build one registered environment."""

    id: str
    kind: Kind
    entry_point: str  # "package.module" for array games, "package.module:Class" for text games
    kwargs: dict[str, Any] = field(default_factory=dict)
    description: str = ""


REGISTRY: dict[str, EnvSpec] = {}


TEXT_VARIANT_SUFFIX = "-text"


def register(spec: EnvSpec) -> None:
    """Add an environment to the registry (later registrations replace earlier ones).

    Every array game also gets its text variant, ``NAME-text`` (see ``text_variant``).
    """
    REGISTRY[spec.id] = spec
    if spec.kind == "array":
        variant = text_variant(spec)
        REGISTRY[variant.id] = variant


def text_variant(spec: EnvSpec) -> EnvSpec:
    """The array game ``spec`` played in words by language models (``makeenv.text.bridge``):
    ``make("TicTacToe-text", level=2, players=...)`` takes the bridge's options and the game's own."""
    return EnvSpec(
        id=spec.id + TEXT_VARIANT_SUFFIX,
        kind="text",
        entry_point="makeenv.text.bridge:ArrayTextEnv",
        kwargs={"game": spec.id},
        description=f"{spec.id} in words: the state described, the valid actions listed as [k] (text env).",
    )


register(
    EnvSpec(
        id="RockPaperScissors",
        kind="array",
        entry_point="makeenv.games.rock_paper_scissors",
        description="Two players pick scissors, rock or paper; a tie replays the round (array env).",
    )
)
register(
    EnvSpec(
        id="Breakthrough",
        kind="array",
        entry_point="makeenv.games.breakthrough",
        description="Two rows of pieces each on 8x8, step forward, capture diagonally, reach the far row; OpenSpiel's breakthrough rules (array env).",
    )
)
register(
    EnvSpec(
        id="Hex",
        kind="array",
        entry_point="makeenv.games.hex",
        description="Place stones on an 11x11 rhombus of hexagons to join your two edges; OpenSpiel's hex rules, no swap (array env).",
    )
)
register(
    EnvSpec(
        id="KuhnPoker",
        kind="array",
        entry_point="makeenv.games.kuhn_poker",
        description="Two players, three cards, one bet: the smallest poker; OpenSpiel's kuhn_poker rules (array env).",
    )
)
register(
    EnvSpec(
        id="LeducPoker",
        kind="array",
        entry_point="makeenv.games.leduc_poker",
        description="Two players, six cards, two betting rounds and a public card; OpenSpiel's leduc_poker rules (array env).",
    )
)
register(
    EnvSpec(
        id="TicTacToe",
        kind="array",
        entry_point="makeenv.games.tic_tac_toe",
        description="Three in a row on a 3x3 board; OpenSpiel's tic_tac_toe rules (array env).",
    )
)
register(
    EnvSpec(
        id="ConnectFour",
        kind="array",
        entry_point="makeenv.games.connect_four",
        description="Drop discs in 7 columns of 6 rows, four in a line wins; OpenSpiel's connect_four rules (array env).",
    )
)
register(
    EnvSpec(
        id="Durak",
        kind="array",
        entry_point="makeenv.games.durak",
        description="4 players attack and defend with hidden hands and a trump suit; first out wins; vis/ENV's rules (array env).",
    )
)
register(
    EnvSpec(
        id="GoFish",
        kind="array",
        entry_point="makeenv.games.go_fish",
        description="4 players ask each other for ranks, draw when told to go fish and collect books of four; most books wins; vis/ENV's rules (array env).",
    )
)
register(
    EnvSpec(
        id="Fantan",
        kind="array",
        entry_point="makeenv.games.fantan",
        description="4 players build suits up and down from the Sevens, paying a chip to pass; first out takes the pot; vis/ENV's rules (array env).",
    )
)
register(
    EnvSpec(
        id="Century",
        kind="array",
        entry_point="makeenv.games.century",
        description="Century: Spice Road, 2 to 5 players trade and upgrade spices with merchant cards to buy point cards; 10-spice caravans, gold and silver coins; vis/ENV's rules (array env).",
    )
)
register(
    EnvSpec(
        id="TicketToRide",
        kind="array",
        entry_point="makeenv.games.ticket_to_ride",
        description="Ticket to Ride: Europe, 2 to 5 players claim routes with train cards to join their destination tickets; tunnels, ferries, double routes, longest path; vis/ENV's rules (array env).",
    )
)
register(
    EnvSpec(
        id="StoneAge",
        kind="array",
        entry_point="makeenv.games.stone_age",
        description="Stone Age, 2 to 4 players place workers to gather food and resources, grow, make tools and buy civilisation cards and buildings; feeding, culture sets and multipliers; vis/ENV's rules (array env).",
    )
)
register(
    EnvSpec(
        id="TLMN",
        kind="array",
        entry_point="makeenv.games.tlmn",
        description="Tien Len Mien Nam: 2 to 4 players shed singles, pairs, straights and bombs that chop Twos; first out wins; vis/ENV's rules (array env).",
    )
)
register(
    EnvSpec(
        id="Sheriff",
        kind="array",
        entry_point="makeenv.games.sheriff",
        description="4 players smuggle goods past a rotating sheriff: bags, declarations, inspections, bribes, king and queen bonuses; vis/ENV's rules (array env).",
    )
)
register(
    EnvSpec(
        id="Poker",
        kind="array",
        entry_point="makeenv.games.poker",
        description="2 to 9 players play a No-Limit Texas Hold'em sit-and-go, 200 chips, blinds 1/2, up to 100 hands; vis/ENV's rules (array env).",
    )
)
register(
    EnvSpec(
        id="WelcomeToTheDungeon",
        kind="array",
        entry_point="makeenv.games.welcome_to_the_dungeon",
        description="4 players push their luck adding monsters to a dungeon or stripping the Warrior's or Rogue's items; the last one in runs it, resolved at once; vis/ENV's v1 rules (array env).",
    )
)
register(
    EnvSpec(
        id="WelcomeToTheDungeon2",
        kind="array",
        entry_point="makeenv.games.welcome_to_the_dungeon2",
        description="Welcome to the Dungeon with the Barbarian and the Mage: the dungeon fought monster by monster with the Vorpal Axe and the Polymorph; vis/ENV's v2 rules (array env).",
    )
)
register(
    EnvSpec(
        id="SushiGo",
        kind="array",
        entry_point="makeenv.games.sushi_go",
        description="2 to 5 players draft sushi cards with hidden picks over three rounds; vis/ENV's rules (array env).",
    )
)
register(
    EnvSpec(
        id="Catan",
        kind="array",
        entry_point="makeenv.games.catan",
        description="Settlers of Catan for 3 or 4 players: random board, snake set-up, robber, development cards, ports, longest road and largest army, vis/ENV's trade-offer protocol; vis/ENV's rules, its no-exchange variant as an option (array env).",
    )
)
register(
    EnvSpec(
        id="MachiKoro",
        kind="array",
        entry_point="makeenv.games.machi_koro",
        description="2 to 4 players roll dice to earn from their establishments and buy more; first with all four landmarks wins; vis/ENV's rules, the published ones as an option (array env).",
    )
)
register(
    EnvSpec(
        id="LiarsDice",
        kind="array",
        entry_point="makeenv.games.liars_dice",
        description="Two players bid on hidden dice, sixes wild, until one calls Liar; OpenSpiel's liars_dice rules, 1-5 dice each (array env).",
    )
)
register(
    EnvSpec(
        id="Goofspiel",
        kind="array",
        entry_point="makeenv.games.goofspiel",
        description="Two players bid hidden cards 1-13 for 13 prize cards in random order; OpenSpiel's goofspiel rules (array env).",
    )
)
register(
    EnvSpec(
        id="Splendor",
        kind="array",
        entry_point="makeenv.games.splendor",
        description="2 to 4 players take gem tokens, buy and reserve cards, attract nobles; first to 15 points ends the round; vis/ENV's rules (array env).",
    )
)
register(
    EnvSpec(
        id="ExplodingKittens",
        kind="array",
        entry_point="makeenv.games.exploding_kittens",
        description="2 to 5 players with hidden hands draw until they explode; Nope, Attack, Skip, Favor, cat combos; last one left wins; vis/ENV's rules (array env).",
    )
)
register(
    EnvSpec(
        id="ImplodingKittens",
        kind="array",
        entry_point="makeenv.games.imploding_kittens",
        description="ExplodingKittens with the Imploding Kittens expansion for 2 to 6 players: Reverse, Draw from the Bottom, Feral Cat, Alter the Future, Targeted Attack, a face-up Imploding Kitten; vis/ENV's rules (array env).",
    )
)
register(
    EnvSpec(
        id="ScenarioPlanning-v0",
        kind="text",
        entry_point="makeenv.games.scenario_planning:ScenarioPlanningEnv",
        kwargs={"jury_size": 11, "jury_class": "makeenv.text.jury:OpenRouterJury"},
        description="Two players write survival strategies for one scenario; a jury of LLMs votes (text env).",
    )
)
register(
    EnvSpec(
        id="Negotiation-v0",
        kind="text",
        entry_point="makeenv.games.negotiation:NegotiationEnv",
        kwargs={"max_turns": 10},
        description="Two players split books, hats and balls they value differently: talk, propose, accept (text env).",
    )
)


def list_envs() -> list[str]:
    """The ids of every registered environment, sorted."""
    return sorted(REGISTRY)


def resolve_object(path: str) -> Any:
    """Import ``"package.module:Name"`` (or a plain module path) and return the object."""
    module_name, _, attribute = path.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, attribute) if attribute else module


def looks_like_user_game(name: str) -> bool:
    """True when ``name`` reads as a game of your own: a folder, a ``.py`` file or a module path."""
    return os.path.isdir(name) or name.endswith(".py") or ("." in name and " " not in name)


def find_spec(name: str) -> EnvSpec | None:
    """The ``EnvSpec`` of a registered id, or of a game of your own played in words; else None.

    A game of your own is played in words as its folder, ``.py`` file or module path followed by
    ``-text`` (``./nim-text`` for the folder ``./nim``), as a registered game is (``TicTacToe-text``).
    A folder whose own name ends in ``-text`` is the array game in it.
    """
    spec = REGISTRY.get(name)
    if spec is not None or not name.endswith(TEXT_VARIANT_SUFFIX) or os.path.isdir(name):
        return spec
    game = name[: -len(TEXT_VARIANT_SUFFIX)]
    if not game or not looks_like_user_game(game):
        return None
    return EnvSpec(
        id=name,
        kind="text",
        entry_point="makeenv.text.bridge:ArrayTextEnv",
        kwargs={"game": game},
        description=f"your game {game} in words (text env).",
    )


def make(name: str, **kwargs: Any) -> Any:
    """Build an environment by registered id, importable module path or folder path.

    Keyword arguments override the registered variant's defaults (text envs) and are passed to
    the environment's constructor.
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"makeenv.make: expected an environment name as a non-empty str, got {name!r}")
    spec = find_spec(name)
    if spec is None:
        if looks_like_user_game(name):
            from makeenv.array.contract import load_array_env

            return load_array_env(name, **kwargs)
        close = difflib.get_close_matches(name, list_envs(), n=1, cutoff=0.5)
        hint = f" Did you mean {close[0]!r}?" if close else ""
        raise ValueError(
            f"makeenv.make: unknown environment {name!r}.{hint} Registered environments: "
            f"{', '.join(list_envs())}. A game of your own can be passed as an importable module "
            "path (my_games.tictactoe) or a folder path (./tictactoe), and played in words with -text "
            "after it (./tictactoe-text)."
        )
    if spec.kind == "array":
        from makeenv.array.contract import load_array_env

        return load_array_env(spec.entry_point, name=spec.id, **kwargs)
    env_class = resolve_object(spec.entry_point)
    options = {**spec.kwargs, **kwargs}
    env = env_class(**options)
    env.env_id = spec.id
    return env

"""What every registered array game must satisfy, one test per concern over the registry: the
checker passes for every player count (its numba run plays the seed's agent idiom, a random choice
among ``getValidActions(state)``, to the final turns), drawings and words work, the classics replay
OpenSpiel's games, the catalog is complete, and seeded games play as recorded."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

import makeenv
from makeenv.array.check import CHECKS
from makeenv.registry import REGISTRY
from tests.games import catalog, playthroughs
from tests.games.support import ARRAY_GAMES, clickable_actions, game_env, setup_env, setups

ROOT = Path(__file__).resolve().parents[2]

#: checker options per game (fewer traced and played games for the long ones: Catan's 15 traced
#: games are some 40,000 steps)
CHECK_OPTIONS: dict[str, dict] = {
    "Catan": {"trace_games": 15, "run_games": 60},
    "Splendor": {"trace_games": 12, "run_games": 40},
    "ExplodingKittens": {"trace_games": 20, "run_games": 100},
}
#: the checks that compile and run whole game loops; for these games (whose level check plays
#: games against search bots) they run in the slow set, the other checks in the quick set
LOOP_CHECKS = ("runs_numba_agent", "runs_python_agent", "completed_games", "wins_match_rewards", "levels")
SLOW_LOOP_GAMES = frozenset({"Durak", "SushiGo", "ImplodingKittens", "ExplodingKittens"})


def setup_params(only: frozenset[str] | None = None) -> list:
    """pytest params (game, players) for every game and player count, the non-quick ones slow."""
    return [
        pytest.param(game, players, id=f"{game}-{players}p", marks=() if quick else pytest.mark.slow)
        for game, players, quick in setups()
        if only is None or game in only
    ]


@pytest.mark.parametrize("game, players", setup_params())
def test_check_env_passes(game, players):
    env = setup_env(game, players)
    assert env.players == players and env.getAgentSize() == players
    checks = [name for name in CHECKS if name not in LOOP_CHECKS] if game in SLOW_LOOP_GAMES else None
    ok, problems = makeenv.check_env(env, checks=checks, **CHECK_OPTIONS.get(game, {}))
    assert ok, problems


@pytest.mark.slow
@pytest.mark.parametrize("game, players", setup_params(SLOW_LOOP_GAMES))
def test_check_env_runs_games(game, players):
    """The loop checks of the games that run them in the slow set (the level check at the default
    player count only: its bots search)."""
    env = setup_env(game, players)
    default = players == game_env(game).players
    ok, problems = makeenv.check_env(env, checks=[c for c in LOOP_CHECKS if default or c != "levels"])
    assert ok, problems


def svg_clicks(picture) -> list[int] | None:
    """The clickable actions of an SVG picture (None for other kinds of picture)."""
    if not isinstance(picture, str):
        return None
    root = ET.fromstring(picture)
    assert root.tag.endswith("svg"), picture[:80]
    return clickable_actions(root)


@pytest.mark.parametrize("game", ARRAY_GAMES)
def test_drawings_and_words_along_a_game(game):
    """Along a seeded random game, every seat's picture parses, offers only actions its state
    allows (the player to move some), and every state and valid action has words; the same at
    the end."""
    env = game_env(game)
    match = env.new_match(seed=3, isolated=True)
    rng = np.random.default_rng(3)
    while True:
        mover = match.current_player
        for seat in range(env.players):
            state = match.state(seat)
            valid = set(np.flatnonzero(env.getValidActions(state)).tolist())
            clicks = svg_clicks(env.render(state))
            if clicks is not None:
                assert set(clicks) <= valid, (seat, clicks, valid)
                assert clicks or seat != mover
            words = env.describe_state(state)
            assert isinstance(words, str) and words.strip()
        if match.over:
            break
        legal = match.valid_action_ids()
        names = [env.describe_action(a) for a in legal]
        assert all(isinstance(n, str) and n.strip() for n in names)
        match.step(int(rng.choice(legal)))
        if match.steps > 60:  # long games: the rest without pictures
            while not match.over:
                match.step(int(rng.choice(match.valid_action_ids())))


# ---- the classics against OpenSpiel --------------------------------------------------------------


def replay_params() -> list:
    from tests.games.openspiel_replays import REPLAYS

    return [pytest.param(spec, id=spec.id) for spec in REPLAYS]


@pytest.mark.parametrize("spec", replay_params())
def test_same_games_as_openspiel(spec):
    """Random games replayed in OpenSpiel and here: players to move, legal actions, states, ends,
    winners, returns and rewards agree (tests/games/openspiel_replays.py)."""
    pyspiel = pytest.importorskip("pyspiel")
    from tests.games.openspiel_replays import replay

    replay(spec, pyspiel)


def test_every_classic_is_replayed():
    from tests.games.openspiel_replays import REPLAYS

    proven = {game for game in ARRAY_GAMES if "OpenSpiel" in REGISTRY[game].description}
    assert proven == {spec.game for spec in REPLAYS}


# ---- the catalog ---------------------------------------------------------------------------------


def covered_ids() -> set[str]:
    """Array games: parametrized here and with a golden playthrough; text games: named by a test."""
    recorded = {p.stem.split("-")[0] for p in playthroughs.FOLDER.glob("*.txt")}
    test_text = "\n".join(p.read_text() for p in (ROOT / "tests").rglob("test_*.py"))
    text_games = {spec.id for spec in REGISTRY.values() if spec.kind == "text" and f'"{spec.id}"' in test_text}
    return (set(ARRAY_GAMES) & recorded) | text_games


def test_every_game_folder_is_registered_tested_and_documented():
    problems = catalog.catalog_problems(
        ROOT / "makeenv" / "games",
        REGISTRY.values(),
        (ROOT / "README.md").read_text(),
        (ROOT / "docs" / "ARCHITECTURE.md").read_text(),
        covered_ids(),
    )
    assert not problems, "\n".join(problems)


def test_the_catalog_guard_finds_a_game_left_out(tmp_path):
    """A fake games folder with a game missing from the registry, and one missing from the README,
    the architecture map and the tests: each is named."""
    for folder in ("alpha", "beta", "gamma"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "__init__.py").write_text("")
    (tmp_path / "__pycache__").mkdir()
    specs = [
        makeenv.registry.EnvSpec("Alpha", "array", "makeenv.games.alpha"),
        makeenv.registry.EnvSpec("Gamma", "text", "makeenv.games.gamma:GammaEnv"),
    ]
    readme = "| game |\n|---|\n| [Alpha](makeenv/games/alpha/README.md) |\n| [Beta](makeenv/games/beta/README.md) |\n"
    architecture = "## Layout\n\n```\n  games/\n    alpha/ beta/ gamma/\n```\n"
    problems = catalog.catalog_problems(tmp_path, specs, readme, architecture, covered={"Alpha"})
    assert problems == [
        "makeenv/games/beta: no registered environment has entry point makeenv.games.beta; "
        "register it in makeenv/registry.py (register(EnvSpec(...))).",
        "makeenv/games/gamma: Gamma is not in README.md's games table; add a row "
        "| [Gamma](makeenv/games/gamma/README.md) | ... |.",
        "makeenv/games/gamma: Gamma has no tests; an array game needs a golden playthrough "
        '(python -m tests.games.playthroughs --update), a text game a test naming "Gamma".',
    ]
    ok = catalog.catalog_problems(
        tmp_path,
        specs,
        readme.replace("Beta](", "Gamma](").replace("beta/", "gamma/"),
        architecture.replace(" beta/", ""),
        covered={"Alpha", "Gamma"},
    )
    assert ok == [
        "makeenv/games/beta: no registered environment has entry point makeenv.games.beta; "
        "register it in makeenv/registry.py (register(EnvSpec(...))).",
        "makeenv/games/beta: not in docs/ARCHITECTURE.md's layout; add beta/ to the games/ lines.",
    ]


# ---- golden playthroughs -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "game, players", [(g, p) for g, p, _ in setups()], ids=[playthroughs.golden_name(g, p) for g, p, _ in setups()]
)
def test_seeded_game_plays_as_recorded(game, players):
    """A seeded random game, in words, is the one recorded under tests/games/playthroughs/."""
    problem = playthroughs.compare(setup_env(game, players), playthroughs.golden_path(game, players))
    assert problem is None, problem


def test_a_rules_change_shows_in_the_playthrough(tmp_path):
    """A copy of TicTacToe where two marks in the middle column's lower cells win plays differently from
    the record: the comparison fails with a unified diff and names the regenerate command."""
    folder = tmp_path / "tic_tac_toe"
    shutil.copytree(ROOT / "makeenv" / "games" / "tic_tac_toe", folder, ignore=shutil.ignore_patterns("__pycache__"))
    logic = folder / "logic.py"
    source = logic.read_text()
    assert source.count(" 0b010010010,") == 1
    logic.write_text(source.replace(" 0b010010010,", " 0b010010000,"))  # one line of the rules
    golden = playthroughs.golden_path("TicTacToe", 2)
    problem = playthroughs.compare(makeenv.make(str(folder)), golden)
    assert problem is not None, "the changed rules played the recorded game"
    lines = problem.splitlines()
    assert f"--- {golden.name}" in lines and f"+++ {golden.name} (played now)" in lines
    assert any(line.startswith("@@ ") for line in lines)
    assert any(line.startswith("-") and not line.startswith("---") for line in lines)
    assert "python -m tests.games.playthroughs --update TicTacToe" in problem
    assert playthroughs.compare(game_env("TicTacToe"), golden) is None  # the real rules still do

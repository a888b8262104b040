"""Golden playthroughs: one seeded random game per array game and player count, in words, kept
under tests/games/playthroughs/<Game>[-<players>p].txt and compared by tests/games/test_every_game.py.

After a deliberate rules change, regenerate them and review the diff:

    python -m tests.games.playthroughs --update            # every game
    python -m tests.games.playthroughs --update TicTacToe  # one game, every player count

A game is played through the referee (``env.new_match(seed, isolated=True)``: numba's generator
seeded from the match's own stream) by a random player drawing from its own seeded generator, so
the text is the same on every machine. Each move shows the mover and the action
(``describe_action``), the first 20 moves, every tenth up to move 200 and every hundredth after
it also the mover's state (``describe_state``; long games stay reviewable); the end shows every
seat's final state, the winners and the returns. The actions a finished game offers are not
listed (the final turn's offer is no rule of the game).
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

import numpy as np

FOLDER = Path(__file__).resolve().parent
SEED = 2025
FULL_MOVES, STATE_EVERY = 20, 10  # the mover's state in words at the first 20 moves, then every tenth
LONG_GAME, STATE_EVERY_LONG = 200, 100  # ... and every hundredth after move 200
UPDATE_COMMAND = "python -m tests.games.playthroughs --update"


def golden_name(game: str, players: int) -> str:
    """The file stem: the game, and the player count for games that allow several."""
    from tests.games.support import player_counts

    return game if len(player_counts(game)) == 1 else f"{game}-{players}p"


def golden_path(game: str, players: int) -> Path:
    """Where the playthrough of ``game`` with ``players`` seats is kept."""
    return FOLDER / f"{golden_name(game, players)}.txt"


def number(value: float) -> str:
    """A return as text: whole numbers without a decimal point, others to 6 significant digits."""
    return str(int(value)) if float(value).is_integer() else f"{value:.6g}"


def indent(text: str) -> str:
    return "\n".join("    " + line if line.strip() else "" for line in text.strip("\n").splitlines())


def playthrough(env: Any, seed: int = SEED) -> str:
    """One seeded random game of ``env`` in words."""
    match = env.new_match(seed=seed, isolated=True)
    rng = np.random.default_rng(seed)
    lines = [
        f"# {env.name}, {env.players} players, seed {seed}: random play through the referee",
        f"# regenerate after a deliberate rules change: {UPDATE_COMMAND}",
    ]
    while not match.over:
        player = match.current_player
        action = int(rng.choice(match.valid_action_ids()))
        every = STATE_EVERY if match.steps < LONG_GAME else STATE_EVERY_LONG
        if match.steps < FULL_MOVES or match.steps % every == 0:
            lines += ["", f"player {player} sees:", indent(env.describe_state(match.state(player)))]
        lines.append(f"move {match.steps + 1}: player {player} plays [{action}] {env.describe_action(action)}")
        match.step(action)
    outcome = match.outcome
    lines.append("")
    for seat in range(env.players):
        lines += [f"end: player {seat} sees", indent(env.describe_state(match.state(seat))), ""]
    lines += [
        f"over after {match.steps} moves" + (" (truncated)" if outcome.truncated else ""),
        "winners: " + (", ".join(f"player {w}" for w in outcome.winners) or "none"),
        "returns: " + ", ".join(number(r) for r in outcome.returns),
    ]
    return "\n".join(lines) + "\n"


def unified(expected: str, actual: str, name: str) -> str:
    """A unified diff from the recorded text to the text played now."""
    return "".join(
        difflib.unified_diff(
            expected.splitlines(keepends=True),
            actual.splitlines(keepends=True),
            fromfile=name,
            tofile=f"{name} (played now)",
            n=2,
        )
    )


def compare(env: Any, path: Path, seed: int = SEED) -> str | None:
    """None when ``env``'s seeded game is the one recorded at ``path``; else what differs, with
    the command that records it anew."""
    actual = playthrough(env, seed)
    if not path.exists():
        return f"{path.name}: no recorded playthrough; record it with: {UPDATE_COMMAND}"
    expected = path.read_text()
    if actual == expected:
        return None
    diff = unified(expected, actual, path.name)
    lines = diff.splitlines()
    shown = "\n".join(lines[:120]) + (f"\n... ({len(lines) - 120} more diff lines)" if len(lines) > 120 else "")
    return (
        f"{env.name} no longer plays the recorded game {path.name}. If the rules changed on "
        f"purpose, record it anew with: {UPDATE_COMMAND} {env.name}\n{shown}"
    )


def update(games: list[str] | None = None) -> list[Path]:
    """Record the playthroughs of ``games`` (default: every array game), every player count."""
    from tests.games.support import setup_env, setups

    known = {game for game, _, _ in setups()}
    unknown = sorted(set(games or ()) - known)
    if unknown:
        raise SystemExit(f"unknown array game(s) {', '.join(unknown)}; choose among {', '.join(sorted(known))}")
    written = []
    for game, players, _ in setups():
        if games and game not in games:
            continue
        path = golden_path(game, players)
        path.write_text(playthrough(setup_env(game, players)))
        written.append(path)
    return written

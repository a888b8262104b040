"""How strong each level is: the random agent against level 0, 1 and 2 of every seed-system game.

    python benchmarks/bench_levels.py                        # every seed-system game, 300 games a level
    python benchmarks/bench_levels.py StoneAge Catan --games 1000
    python benchmarks/bench_levels.py Century --players 3 --levels 1 2

One random seat plays against the level's bots in every other seat (the game's default player
count), its seat rotating from game to game; games are stepped by the referee (``Match``), so the
final env is at hand, and every bot gets its final turn and keeps its data across the games, as
in ``env.run``. For each level it prints the random seat's win rate and shared wins, and
measures that still separate the levels when the random seat never wins:

* **score**: the random seat's final score. It is the game's own ``getReturns(env)`` (points or
  chips) when the game defines it, else read from the final state the random seat sees, for the
  games whose state shows every seat's score or, in TLMN, cards left (``STATE_SCORES``); games with
  neither (Durak, the kittens and dungeon games, MachiKoro) get win rates alone;
* **margin**: that score minus the best opponent's (0 when it shares the top, negative behind);
* **place**: 1 + the number of opponents scoring strictly more (a shared place counts as the better);
* the mean game length, because a score alone moves with it (a shorter game leaves less to win
  and less to lose), which is why the margin, not the raw score, compares levels.

A truncated game (the game's ``TURN_LIMIT``) counts as neither a win nor a loss and keeps its scores.
"""

from __future__ import annotations

import argparse
import platform
import random
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import makeenv
from makeenv.array.agents import Bot

SEED_GAMES = (
    "SushiGo",
    "Durak",
    "GoFish",
    "Fantan",
    "Century",
    "Poker",
    "WelcomeToTheDungeon",
    "WelcomeToTheDungeon2",
    "Splendor",
    "ExplodingKittens",
    "ImplodingKittens",
    "TLMN",
    "MachiKoro",
    "Sheriff",
    "TicketToRide",
    "StoneAge",
    "Catan",
)


@dataclass(frozen=True)
class SeatBlocks:
    """Every seat's score read from a final state whose seats are blocks relative to the viewer:
    block k (``size`` values from ``start + k * size``) is the seat k places after the viewer, and
    the score is the sum of ``weights[offset] * block[offset]``."""

    what: str  # what the score is, for the printout
    start: int
    size: int
    weights: tuple[tuple[int, float], ...]

    def __call__(self, state: np.ndarray, players: int) -> np.ndarray:
        scores = np.zeros(players)
        for k in range(players):
            base = self.start + k * self.size
            scores[k] = sum(weight * state[base + offset] for offset, weight in self.weights)
        return scores


@dataclass(frozen=True)
class CardsLeft:
    """Every seat's cards in hand, negated (fewer is better), for a shedding game whose state shows
    my hand as 0/1 flags in ``state[mine:mine+deck]`` and the next seats' counts from ``others``."""

    what: str
    mine: int
    deck: int
    others: int

    def __call__(self, state: np.ndarray, players: int) -> np.ndarray:
        held = [state[self.mine : self.mine + self.deck].sum()] + [state[self.others + k] for k in range(players - 1)]
        return -np.asarray(held, dtype=np.float64)


# Games without getReturns whose state shows every seat's score (indices from each game's README
# "State" table); the viewer comes first.
STATE_SCORES: dict[str, SeatBlocks | CardsLeft] = {
    "SushiGo": SeatBlocks("points", 44, 31, ((1, 1.0), (3, 1.0), (4, -1.0))),
    "GoFish": SeatBlocks("books", 14, 15, ((0, 1.0),)),
    "Splendor": SeatBlocks("points", 219, 16, ((12, 1.0),)),
    "Sheriff": SeatBlocks("score (0 if negative)", 271, 59, ((56, 1.0),)),
    "Catan": SeatBlocks("points (opponents' public points)", 269, 23, ((12, 1.0),)),
    "TLMN": CardsLeft("cards left, negated", 0, 52, 107),
}


def score_name(env: Any) -> str | None:
    """What ``final_scores`` reads for this game, or None when it reads nothing."""
    if env.getReturns is not None:
        return "return (getReturns)"
    reader = STATE_SCORES.get(env.name)
    return reader.what if reader is not None else None


def final_scores(env: Any, match: Any, me: int) -> np.ndarray | None:
    """Every seat's final score, the seat ``me`` first and then the seats after it in order;
    None for a game with no score (see ``STATE_SCORES``)."""
    assert match.over, "final_scores reads a finished game"
    if env.getReturns is not None:
        return np.roll(np.asarray(match.outcome.returns, dtype=np.float64), -me)
    reader = STATE_SCORES.get(env.name)
    return None if reader is None else reader(match.state(me), env.players)


def place_and_margin(scores: Sequence[float] | np.ndarray) -> tuple[int, float]:
    """The first seat's place (1 + opponents scoring strictly more) and its score minus the best
    opponent's."""
    if len(scores) < 2:
        raise ValueError(f"place_and_margin needs the scores of at least 2 seats, got {list(scores)}")
    mine, others = float(scores[0]), np.asarray(scores[1:], dtype=np.float64)
    return 1 + int((others > mine).sum()), mine - float(others.max())


@dataclass
class LevelResult:
    """The random seat's games against one level."""

    game: str
    level: int
    players: int
    wins: int = 0
    shared_wins: int = 0
    truncated: int = 0
    lengths: list[int] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    margins: list[float] = field(default_factory=list)
    places: list[int] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def games(self) -> int:
        return len(self.lengths)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else float("nan")


def play_level(env: Any, level: int, games: int, seed: int = 0) -> LevelResult:
    """``games`` games of the random agent (seat rotating) against ``level``'s bots in the other seats."""
    players = env.players
    bots: list[Bot] = env.opponents(level)
    data = [bot.initial_data() for bot in bots]  # each slot's memory lives across the run, as in env.run
    shuffle = random.Random(seed)
    random_data = np.zeros(1)
    result = LevelResult(env.name, level, players)
    start = time.process_time()
    for game in range(games):
        me = game % players
        order = list(range(len(bots)))
        shuffle.shuffle(order)  # a level of mixed bots seats them in a new order every game
        slot_of = {seat: order[k] for k, seat in enumerate(s for s in range(players) if s != me)}
        match = env.new_match(seed=seed * 1_000_003 + game)
        while not match.over:
            seat = match.current_player
            if seat == me:
                match.step_with(env.random_agent, random_data, who=f"player {seat} (random)")
            else:
                slot = slot_of[seat]
                _, data[slot] = match.step_with(bots[slot].policy, data[slot], who=f"player {seat} (level {level})")
        for seat, slot in slot_of.items():  # every bot's final turn, as the runner gives it
            _, data[slot] = bots[slot].policy(match.state(seat), data[slot])
        outcome = match.outcome
        result.lengths.append(match.steps)
        result.truncated += outcome.truncated
        if outcome.results[me] == "win":
            result.wins += 1
            result.shared_wins += outcome.shared
        scores = final_scores(env, match, me)
        if scores is not None:
            place, margin = place_and_margin(scores)
            result.scores.append(float(scores[0]))
            result.margins.append(margin)
            result.places.append(place)
    result.seconds = time.process_time() - start
    return result


def _mean(values: Sequence[float], digits: int, error: bool = False) -> str:
    """The mean (and with ``error`` its standard error), or "-" for no values."""
    if not len(values):
        return "-"
    text = f"{np.mean(values):.{digits}f}"
    if error and len(values) > 1:
        text += f" ± {np.std(values, ddof=1) / np.sqrt(len(values)):.{digits}f}"
    return text


def format_row(result: LevelResult) -> str:
    """One printed line: level, games, wins, shared wins, mean score, margin, place, length, speed."""
    return (
        f"| {result.game} | {result.level} | {result.games:,} | {100 * result.win_rate:.2f}% | "
        f"{result.shared_wins:,} | {_mean(result.scores, 2)} | {_mean(result.margins, 2, error=True)} | "
        f"{_mean(result.places, 2)} | {_mean(result.lengths, 0)} | "
        f"{result.games / result.seconds if result.seconds else float('nan'):,.0f} |"
    )


HEADER = (
    "| game | level | games | random wins | shared | mean score | mean margin ± s.e. | mean place | mean length "
    "| games/s |\n|---|---|---|---|---|---|---|---|---|---|"
)


def cpu_name() -> str:
    """The CPU's model name (from /proc/cpuinfo where there is one)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def main(argv: Sequence[str] | None = None, out: Callable[[str], None] = print) -> list[LevelResult]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", metavar="Game", help=f"games to measure (default: {', '.join(SEED_GAMES)})")
    parser.add_argument("--games", dest="count", type=int, default=300, help="games per level (default 300)")
    parser.add_argument("--levels", type=int, nargs="+", default=[0, 1, 2], help="levels to measure (default 0 1 2)")
    parser.add_argument("--players", type=int, default=None, help="player count (default: each game's default)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.count < 1:
        parser.error(f"--games must be at least 1, got {args.count}")
    out(f"CPU: {cpu_name()}; Python {platform.python_version()}; CPU time of this process")
    out("command: " + shlex.join(["python", "benchmarks/bench_levels.py", *(sys.argv[1:] if argv is None else argv)]))
    out(HEADER)
    results = []
    for name in args.games or SEED_GAMES:
        env = makeenv.make(name) if args.players is None else makeenv.make(name, players=args.players)
        env.new_match(seed=0)  # compile the referee before the clock starts
        for level in args.levels:
            if level != 0 and level not in env.levels:
                out(f"| {name} | {level} | (no level {level}) |")
                continue
            play_level(env, level, 1, args.seed + 1)  # compile the level's bots
            result = play_level(env, level, args.count, args.seed)
            results.append(result)
            out(format_row(result))
        out(f"<!-- {name}: {env.players} players; score = {score_name(env) or 'none (win rates only)'} -->")
    return results


if __name__ == "__main__":
    main()

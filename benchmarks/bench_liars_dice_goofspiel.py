"""LiarsDice and Goofspiel speed: makeenv's random-vs-random games/s against OpenSpiel's Python loop.

    python benchmarks/bench_liars_dice_goofspiel.py            # about a minute on an idle core
    python benchmarks/bench_liars_dice_goofspiel.py --quick    # fewer games and rounds

Both sides play uniformly random games of the same rules: makeenv through ``env.run("random", N)``
(compiled loop, seats shuffled, every player's final turn included), OpenSpiel through the usual
Python loop over ``pyspiel`` states (chance outcomes and actions drawn with ``random``). The two
run alternately, round after round, and the figure reported for the pair is the median over the
rounds of (makeenv rate / OpenSpiel rate), so a busy moment of the machine hurts both alike.
Times are the process's CPU time (``time.process_time``), so other programs sharing the cores
do not count; compilation is excluded (one warm-up run first).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import pyspiel

import makeenv


def openspiel_liars_dice(game, num_games: int, rng: random.Random) -> None:
    for _ in range(num_games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.randrange(6))
            else:
                state.apply_action(rng.choice(state.legal_actions()))


def openspiel_goofspiel(game, num_games: int, rng: random.Random) -> None:
    for _ in range(num_games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.legal_actions()))
            else:
                state.apply_actions([rng.choice(state.legal_actions(0)), rng.choice(state.legal_actions(1))])


CASES = [
    # (label, makeenv name and options, OpenSpiel game and parameters, its loop, games per round: makeenv, OpenSpiel)
    ("LiarsDice, 1 die each", ("LiarsDice", {}), ("liars_dice", {}), openspiel_liars_dice, 400_000, 20_000),
    ("LiarsDice, 2 dice each", ("LiarsDice", {"dice": 2}), ("liars_dice", {"numdice": 2}), openspiel_liars_dice,
     400_000, 20_000),
    ("Goofspiel, 13 cards", ("Goofspiel", {}), ("goofspiel", {}), openspiel_goofspiel, 60_000, 3_000),
]


def rate(fn, games: int) -> float:
    start = time.process_time()
    fn(games)
    return games / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and rounds")
    args = parser.parse_args()
    rounds, scale = (3, 0.25) if args.quick else (7, 1.0)
    print(f"random vs random, median games/s over {rounds} alternating rounds (median of per-round ratios)")
    for label, (name, options), (os_name, os_params), os_loop, ours_games, os_games in CASES:
        env = makeenv.make(name, **options)
        game = pyspiel.load_game(os_name, os_params)
        rng = random.Random(0)
        env.run("random", 1000, seed=0)  # compile (or load the cached loop)
        ours_n, os_n = int(ours_games * scale), int(os_games * scale)
        ours, theirs = [], []
        for r in range(rounds):
            theirs.append(rate(lambda n: os_loop(game, n, rng), os_n))
            ours.append(rate(lambda n, r=r: env.run("random", n, seed=r), ours_n))
        ratio = statistics.median(a / b for a, b in zip(ours, theirs))
        print(f"  {label:24s} makeenv {statistics.median(ours):>11,.0f}   OpenSpiel {statistics.median(theirs):>9,.0f}"
              f"   ratio {ratio:5.1f}x")


if __name__ == "__main__":
    main()

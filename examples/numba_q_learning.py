"""A learning agent in pure numba: tabular Q-learning on TicTacToe, learning inside ``env.run``.

    python examples/numba_q_learning.py                  # 300,000 training games vs level 1
    python examples/numba_q_learning.py --games 50000

The agent is an ordinary ``@njit`` agent ``agent(state, agent_data) -> (action, agent_data)``;
its ``agent_data`` (one float64 vector) holds its settings, its last move and its Q table, and
it learns as the runner plays: at each of its turns it moves the value of its previous
(position, move) towards the best value of the position it now sees, and at its final turn
(``getReward(state) != -1``) towards the outcome (+1 win, 0 draw, -1 loss). The whole training
run is one compiled loop (agent, level-1 bot and referee together), so it takes seconds.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

import makeenv
from makeenv.games.tic_tac_toe.logic import CELLS, S_LOST, S_MINE, S_THEIRS, S_WON

ENV = makeenv.make("TicTacToe")

# agent_data layout: settings, the previous move, then the Q table (3**9 boards x 9 cells)
EPSILON, ALPHA, LEARNING, PREVIOUS_BOARD, PREVIOUS_ACTION = 0, 1, 2, 3, 4
TABLE = 8
BOARDS = 3**CELLS


def new_agent_data(epsilon: float = 0.1, alpha: float = 0.3) -> np.ndarray:
    """A fresh learner: exploring with probability ``epsilon``, learning rate ``alpha``, Q = 0."""
    data = np.zeros(TABLE + BOARDS * CELLS, dtype=np.float64)
    data[EPSILON], data[ALPHA], data[LEARNING], data[PREVIOUS_BOARD] = epsilon, alpha, 1.0, -1.0
    return data


def frozen(data: np.ndarray) -> np.ndarray:
    """A copy that plays greedily and no longer learns (for evaluation)."""
    data = data.copy()
    data[EPSILON], data[LEARNING], data[PREVIOUS_BOARD] = 0.0, 0.0, -1.0
    return data


@njit(cache=True)
def board_index(state) -> int:
    """The board from the player's view in base 3 (0 empty, 1 mine, 2 theirs)."""
    index, power = 0, 1
    for cell in range(CELLS):
        if state[S_MINE + cell] > 0.5:
            index += power
        elif state[S_THEIRS + cell] > 0.5:
            index += 2 * power
        power *= 3
    return index


@njit(cache=True)
def q_learner(state, data):
    """Epsilon-greedy on its Q table; learns from each of its turns and from the outcome."""
    q = data[TABLE:]
    learning = data[LEARNING] > 0.5
    previous = int(data[PREVIOUS_BOARD])
    row_of_previous = previous * CELLS + int(data[PREVIOUS_ACTION])
    if ENV.getReward(state) != -1:  # the final turn: learn the outcome, play nothing
        if learning and previous >= 0:
            outcome = 1.0 if state[S_WON] > 0.5 else (-1.0 if state[S_LOST] > 0.5 else 0.0)
            q[row_of_previous] += data[ALPHA] * (outcome - q[row_of_previous])
        data[PREVIOUS_BOARD] = -1.0
        return 0, data
    board = board_index(state)
    valid = ENV.getValidActions(state)
    best, best_value, ties = -1, -np.inf, 0
    for a in range(CELLS):  # the best valid move, ties broken at random
        if valid[a] == 1.0:
            value = q[board * CELLS + a]
            if value > best_value:
                best, best_value, ties = a, value, 1
            elif value == best_value:
                ties += 1
                if np.random.random() * ties < 1.0:
                    best = a
    if learning and previous >= 0:  # the opponent's reply is part of what our last move led to
        q[row_of_previous] += data[ALPHA] * (best_value - q[row_of_previous])
    action = best
    if learning and np.random.random() < data[EPSILON]:
        count = 0
        for a in range(CELLS):
            count += valid[a] == 1.0
        k = int(np.random.random() * count)
        for a in range(CELLS):
            if valid[a] == 1.0:
                if k == 0:
                    action = a
                    break
                k -= 1
    data[PREVIOUS_BOARD] = board
    data[PREVIOUS_ACTION] = action
    return action, data


def train(games: int, level: int = 1, seed: int = 0, data: np.ndarray | None = None) -> tuple[np.ndarray, float]:
    """Play ``games`` training games against ``level``; returns (agent_data, seconds)."""
    data = new_agent_data() if data is None else data
    start = time.perf_counter()
    _, data = ENV.run(q_learner, games, data, level, seed=seed)
    return data, time.perf_counter() - start


def evaluate(data: np.ndarray, games: int, level: int = 1, seed: int = 1):
    """Results of the greedy, no-longer-learning agent against ``level``."""
    return ENV.evaluate(q_learner, games, frozen(data), level, seed=seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=300_000, help="training games")
    parser.add_argument("--level", type=int, default=1)
    parser.add_argument("--eval-games", type=int, default=20_000)
    args = parser.parse_args()
    ENV.run(q_learner, 1, new_agent_data(), args.level)  # compile
    random = ENV.evaluate("random", args.eval_games, level=args.level, seed=1)
    print(f"random agent vs level {args.level}: {random.summary()}")
    data, seconds = train(args.games, args.level)
    results = evaluate(data, args.eval_games, args.level)
    print(f"Q-learner after {args.games:,} games ({seconds:.1f} s): {results.summary()}")


if __name__ == "__main__":
    main()

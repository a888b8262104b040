"""Train a neural policy with sb3-contrib's MaskablePPO (PyTorch, CPU) through the Gymnasium adapter.

    pip install -e ".[train]"                              # torch (CPU), sb3-contrib, tqdm, rich
    python examples/train_maskable_ppo.py TicTacToe        # vs level 1: >= 90% non-losses
    python examples/train_maskable_ppo.py ConnectFour      # vs level 0: >= 80% wins
    python examples/train_maskable_ppo.py TicTacToe --steps 50000 --save ttt.zip

The agent plays ``gymnasium.make("makeenv/<Game>", level=L)``: its own seat, drawn every game, the
level's bots in the others, the valid actions from the env's ``action_masks()``. Training shows a
progress bar; afterwards the policy (greedy, masked) plays ``--eval-games`` games against the same
level through ``env.evaluate`` (the runner, with the policy as a plain Python agent) and prints
wins / draws / losses beside a random agent's.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

import makeenv
import makeenv.adapters  # registers makeenv/<Game> with Gymnasium  # noqa: F401

#: per game: the level to train against, the training steps, and the goal printed beside the result
RECIPES = {
    "TicTacToe": {"level": 1, "steps": 300_000, "goal": ("non-losses", 0.90)},
    "ConnectFour": {"level": 0, "steps": 200_000, "goal": ("wins", 0.80)},
}
DEFAULT_RECIPE = {"level": 0, "steps": 200_000, "goal": ("wins", 0.5)}


@dataclass
class Trained:
    game: str
    level: int
    steps: int
    seconds: float
    model: Any


def make_vec_env(game: str, level: int, n_envs: int, seed: int) -> Any:
    """``n_envs`` Gymnasium envs of ``game`` against ``level`` in SB3's DummyVecEnv."""
    import gymnasium
    from stable_baselines3.common.vec_env import DummyVecEnv

    def one(rank: int):
        def build():
            env = gymnasium.make(f"makeenv/{game}", level=level)
            env.reset(seed=seed + rank)
            return env

        return build

    return DummyVecEnv([one(rank) for rank in range(n_envs)])


def train(
    game: str,
    level: int,
    steps: int,
    *,
    n_envs: int = 8,
    seed: int = 0,
    progress_bar: bool = True,
    net: tuple[int, ...] = (128, 128),
    verbose: int = 0,
) -> Trained:
    """MaskablePPO on ``game`` against ``level``'s bots for ``steps`` environment steps."""
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)  # small networks: one thread is fastest, and leaves a core to the envs
    vec_env = make_vec_env(game, level, n_envs, seed)
    model = MaskablePPO(
        "MlpPolicy",
        vec_env,
        seed=seed,
        verbose=verbose,
        device="cpu",
        n_steps=256,
        batch_size=256,
        n_epochs=5,
        learning_rate=3e-4,
        gamma=0.99,
        gae_lambda=0.95,
        ent_coef=0.01,
        policy_kwargs={"net_arch": list(net)},
    )
    start = time.perf_counter()
    model.learn(total_timesteps=steps, progress_bar=progress_bar)
    return Trained(game, level, steps, time.perf_counter() - start, model)


def policy_agent(model: Any, env: Any):
    """The trained policy as a makeenv agent: greedy among the valid actions of its state."""

    def agent(state: np.ndarray, data: Any) -> tuple[int, Any]:
        if env.getReward(state) != -1:  # the final turn: nothing to choose
            return 0, data
        mask = np.asarray(env.getValidActions(state)) == 1.0
        action, _ = model.predict(state.astype(np.float32), action_masks=mask, deterministic=True)
        return int(action), data

    return agent


def evaluate(model: Any, game: str, level: int, games: int, seed: int = 1) -> Any:
    """``env.evaluate`` of the trained policy against ``level``: wins, draws, losses (seats shuffled)."""
    env = makeenv.make(game)
    return env.evaluate(policy_agent(model, env), games, level=level, seed=seed)


def rates(results: Any) -> dict[str, float]:
    return {
        "wins": results.wins / results.games,
        "draws": results.draws / results.games,
        "losses": results.losses / results.games,
        "non-losses": (results.games - results.losses) / results.games,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", nargs="?", default="TicTacToe")
    parser.add_argument("--level", type=int, help="the bots' level (default: the game's recipe)")
    parser.add_argument("--steps", type=int, help="training steps (default: the game's recipe)")
    parser.add_argument("--envs", type=int, default=8, help="envs stepped side by side")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-games", type=int, default=1000)
    parser.add_argument("--save", help="where to save the model (.zip)")
    args = parser.parse_args()
    recipe = RECIPES.get(args.game, DEFAULT_RECIPE)
    level = recipe["level"] if args.level is None else args.level
    steps = recipe["steps"] if args.steps is None else args.steps

    env = makeenv.make(args.game)
    baseline = rates(env.evaluate("random", args.eval_games, level=level, seed=1))
    print(
        f"{args.game} vs level {level}: random agent wins {baseline['wins']:.1%}, "
        f"non-losses {baseline['non-losses']:.1%}"
    )
    trained = train(args.game, level, steps, n_envs=args.envs, seed=args.seed)
    result = rates(evaluate(trained.model, args.game, level, args.eval_games))
    metric, goal = recipe["goal"]
    print(
        f"trained {steps:,} steps in {trained.seconds:.0f} s: wins {result['wins']:.1%}, draws "
        f"{result['draws']:.1%}, losses {result['losses']:.1%} over {args.eval_games} games "
        f"({metric} {result[metric]:.1%}, goal {goal:.0%}: {'met' if result[metric] >= goal else 'not met'})"
    )
    if args.save:
        trained.model.save(args.save)
        print(f"saved to {args.save}")


if __name__ == "__main__":
    main()

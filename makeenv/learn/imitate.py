"""Imitation of a strong, slow bot by a small, fast policy (a "learned" level of a game).

1. ``collect``: play games through the referee (``Match``) with some seats taken by the teacher
   (a game's search bot) and the rest by a cheaper bot; record every teacher decision that had a
   choice: the state, the valid actions and the teacher's action. A share of the teacher's moves
   is replaced by a random valid one (its label kept), so the data also covers states a policy
   reaches after a slip. A game may give a ``view``: the state as the policy sees it (say, a
   card game's trump suit swapped into a fixed place, so one pattern serves every trump) and the
   map from the view's actions to the game's; the decisions are then recorded as seen through it.
2. ``train``: fit a multilayer perceptron over the raw state, its scores masked to the valid
   actions, to the teacher's actions by softmax cross-entropy and Adam (numpy only). A teacher
   that says how much it likes each action (``shares``: a search's visit shares) is fitted to
   that distribution instead, which carries far more than its single move.
3. ``save_weights`` beside the game's bots; ``makeenv.learn.policy.mlp_action`` plays them.

``python -m makeenv.learn.imitate SushiGo --games 600 --out level2_weights.npz`` does all three;
the same arguments and seed give the same file. ``--teacher module:function`` copies another policy
than the top level, ``--view module:function`` a game's view (Durak's README shows both).
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from makeenv.array.agents import Bot
from makeenv.array.referee import Match
from makeenv.learn.policy import save_weights

WEIGHTS_FILE_NAME = "level2_weights.npz"
MASKED = -1e9  # the logit of an invalid action while training


@dataclass
class Dataset:
    """Teacher decisions: ``states`` (n, state size), ``valid`` (n, actions) bools, ``actions`` (n,);
    optionally ``targets`` (n, actions): the teacher's distribution over the valid actions of each
    decision (rows are normalized to sum to 1), which ``train`` fits instead of the one action."""

    states: np.ndarray
    valid: np.ndarray
    actions: np.ndarray
    targets: np.ndarray | None = None

    def __post_init__(self) -> None:
        self.states = np.asarray(self.states, dtype=np.float32)
        self.valid = np.asarray(self.valid) == 1
        self.actions = np.asarray(self.actions, dtype=np.int64)
        n = len(self.actions)
        if self.states.ndim != 2 or self.valid.ndim != 2 or self.actions.ndim != 1:
            raise ValueError(
                f"Dataset: states must be 2-D (n, state size), valid 2-D (n, actions) and actions 1-D (n,); "
                f"got shapes {self.states.shape}, {self.valid.shape}, {self.actions.shape}"
            )
        if len(self.states) != n or len(self.valid) != n:
            raise ValueError(
                f"Dataset: {len(self.states)} states, {len(self.valid)} valid-action rows and {n} actions; "
                "give one of each per decision"
            )
        if n == 0:
            raise ValueError("Dataset: no decisions; collect from more games (a teacher's moves with a choice)")
        if not np.all(np.isfinite(self.states)):
            bad = int(np.argwhere(~np.isfinite(self.states))[0][0])
            raise ValueError(f"Dataset: state {bad} holds a NaN or an infinity; states must be finite numbers")
        outside = (self.actions < 0) | (self.actions >= self.valid.shape[1])
        if outside.any():
            bad = int(np.flatnonzero(outside)[0])
            raise ValueError(
                f"Dataset: action {int(self.actions[bad])} of decision {bad} is outside 0..{self.valid.shape[1] - 1}"
            )
        invalid = ~self.valid[np.arange(n), self.actions]
        if invalid.any():
            bad = int(np.flatnonzero(invalid)[0])
            raise ValueError(
                f"Dataset: decision {bad} chose action {int(self.actions[bad])}, which its valid-action row "
                f"does not allow (valid: {np.flatnonzero(self.valid[bad]).tolist()})"
            )
        if self.targets is not None:
            targets = np.asarray(self.targets, dtype=np.float32)
            if targets.shape != self.valid.shape:
                raise ValueError(f"Dataset: targets have shape {targets.shape}; expected {self.valid.shape} (as valid)")
            if not np.all(np.isfinite(targets)) or (targets < 0.0).any():
                raise ValueError("Dataset: targets must be finite and >= 0 (a distribution over the valid actions)")
            targets = np.where(self.valid, targets, np.float32(0.0))
            totals = targets.sum(axis=1, keepdims=True)
            if (totals <= 0.0).any():
                bad = int(np.flatnonzero(totals[:, 0] <= 0.0)[0])
                raise ValueError(f"Dataset: the targets of decision {bad} give no weight to a valid action")
            self.targets = targets / totals

    def __len__(self) -> int:
        return len(self.actions)

    def save(self, path: Path | str) -> None:
        """Write the decisions to an .npz file (``Dataset.load`` reads it back)."""
        with open(path, "wb") as file:
            if self.targets is None:
                np.savez_compressed(file, states=self.states, valid=self.valid, actions=self.actions)
            else:
                np.savez_compressed(
                    file, states=self.states, valid=self.valid, actions=self.actions, targets=self.targets
                )

    @classmethod
    def load(cls, path: Path | str) -> Dataset:
        """Decisions written by ``save``."""
        with np.load(Path(path), allow_pickle=False) as archive:
            targets = archive["targets"] if "targets" in archive.files else None
            return cls(archive["states"], archive["valid"], archive["actions"], targets)

    def target_rows(self) -> np.ndarray:
        """The targets, or the one-hot rows of the actions for decisions collected without them."""
        if self.targets is not None:
            return self.targets
        rows = np.zeros(self.valid.shape, dtype=np.float32)
        rows[np.arange(len(self.actions)), self.actions] = 1.0
        return rows

    @classmethod
    def concatenate(cls, parts: Sequence[Dataset]) -> Dataset:
        """The decisions of ``parts`` (of one game, collected apart) in one set."""
        shapes = {(part.states.shape[1], part.valid.shape[1]) for part in parts}
        if len(shapes) != 1:
            raise ValueError(
                f"Dataset.concatenate: the parts have (state size, actions) {sorted(shapes)}; "
                "give decisions of one game (and one view) only"
            )
        soft = any(part.targets is not None for part in parts)
        return cls(
            np.concatenate([part.states for part in parts]),
            np.concatenate([part.valid for part in parts]),
            np.concatenate([part.actions for part in parts]),
            np.concatenate([part.target_rows() for part in parts]) if soft else None,
        )


def collect(
    env: Any,
    teacher: Bot,
    games: int,
    *,
    others: Bot | None = None,
    teacher_share: float = 0.6,
    noise: float = 0.1,
    seed: int = 0,
    view: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]] | None = None,
    progress: Callable[[int, int], None] | None = None,
    shares: Callable[[np.ndarray], tuple[int, np.ndarray]] | None = None,
) -> Dataset:
    """Teacher decisions from ``games`` games of ``env`` (an array env of ``makeenv.make``).

    Each seat is the teacher with probability ``teacher_share`` (at least one per game), else
    ``others`` (default: the random agent); each teacher move is replaced by a random valid
    action with probability ``noise``. Only decisions with two or more valid actions are kept.
    ``view(state) -> (seen, actions)`` records ``seen`` instead of the state, with action ``i`` of
    the record standing for the game's ``actions[i]`` (a permutation of the game's actions).
    ``shares(state) -> (action, distribution)`` plays the teacher's seats instead of ``teacher``'s
    policy: its move, and how much it likes each of the game's actions (a search's visit shares),
    recorded as the decision's ``targets``; the recorded action is then the one it likes most.
    """
    if games < 1:
        raise ValueError(f"collect: games must be >= 1, got {games}")
    if not 0.0 < teacher_share <= 1.0 or not 0.0 <= noise < 1.0:
        raise ValueError(
            f"collect: teacher_share must be in (0, 1] and noise in [0, 1); got {teacher_share} and {noise}"
        )
    others = others if others is not None else env.opponents(0)[0]
    rng = np.random.default_rng(seed)
    states: list[np.ndarray] = []
    valids: list[np.ndarray] = []
    actions: list[int] = []
    targets: list[np.ndarray] = []
    for game in range(games):
        match = Match(env, seed=int(rng.integers(2**31)), isolated=True)
        is_teacher = rng.random(env.players) < teacher_share
        is_teacher[rng.integers(env.players)] = True
        data = [(teacher if t else others).initial_data() for t in is_teacher]
        while not match.over:
            player = match.current_player
            assert player is not None  # the game is running
            state = match.state(player)
            valid = match.valid_actions()
            bot = teacher if is_teacher[player] else others
            match.reseed()
            liked = None
            if shares is not None and is_teacher[player]:
                action, liked = shares(state)
                action = int(action)
            else:
                action, data[player] = bot.policy(state, data[player])
            if is_teacher[player]:
                choices = np.flatnonzero(valid == 1.0)
                if len(choices) > 1:
                    seen, order = (state, np.arange(len(valid))) if view is None else view(state)
                    if sorted(order.tolist()) != list(range(len(valid))):
                        raise ValueError(
                            f"collect: view must map the {len(valid)} actions one to one; it gave {order.tolist()}"
                        )
                    states.append(np.asarray(seen, dtype=np.float32))
                    valids.append(valid[order] == 1.0)
                    if liked is None:
                        actions.append(int(np.flatnonzero(order == action)[0]))
                    else:
                        seen_liked = np.where(valid[order] == 1.0, np.asarray(liked, dtype=np.float64)[order], 0.0)
                        if seen_liked.sum() <= 0.0:  # no liking among the valid moves: its move alone
                            seen_liked = (order == action).astype(np.float64)
                        targets.append(seen_liked.astype(np.float32))
                        actions.append(int(np.argmax(seen_liked)))
                    if rng.random() < noise:
                        action = int(rng.choice(choices))
            match.step(action, f"player {player} ({bot.label})")
        if progress is not None:
            progress(game + 1, games)
    if not actions:
        raise ValueError(f"collect: the teacher had no choice to make in {games} games of {env.name}; play more games")
    return Dataset(np.stack(states), np.stack(valids), np.array(actions), np.stack(targets) if targets else None)


# ---- training ---------------------------------------------------------------------------------------


@dataclass
class TrainReport:
    """How well the policy copies the teacher: shares of decisions where it picks the teacher's action."""

    train_accuracy: float
    holdout_accuracy: float
    chance_accuracy: float  # a uniform choice among the valid actions, on the holdout
    samples: int
    epochs: int

    def summary(self) -> str:
        return (
            f"{self.samples} decisions, {self.epochs} epochs: agrees with the teacher on "
            f"{self.train_accuracy:.1%} (training) and {self.holdout_accuracy:.1%} (held out; "
            f"chance {self.chance_accuracy:.1%})"
        )


def forward(
    layers: list[tuple[np.ndarray, np.ndarray]], x: np.ndarray, valid: np.ndarray
) -> tuple[list[np.ndarray], np.ndarray]:
    """Every layer's input and the masked logits of a batch."""
    inputs = [x]
    h = x
    for i, (w, b) in enumerate(layers):
        z = h @ w.T + b
        if i < len(layers) - 1:
            h = np.maximum(z, 0.0)
            inputs.append(h)
        else:
            h = np.where(valid, z, MASKED)
    return inputs, h


def agreement(layers: list[tuple[np.ndarray, np.ndarray]], data: Dataset, rows: np.ndarray) -> float:
    """The share of ``rows`` where the highest-scoring valid action is the teacher's."""
    if len(rows) == 0:
        return float("nan")
    hits = 0
    for start in range(0, len(rows), 4096):
        chunk = rows[start : start + 4096]
        _, logits = forward(layers, data.states[chunk], data.valid[chunk])
        hits += int(np.sum(np.argmax(logits, axis=1) == data.actions[chunk]))
    return hits / len(rows)


def train(
    data: Dataset,
    hidden: Sequence[int] = (64,),
    *,
    epochs: int = 20,
    batch_size: int = 256,
    learning_rate: float = 2e-3,
    weight_decay: float = 1e-5,
    holdout: float = 0.1,
    seed: int = 0,
    log: Callable[[str], None] | None = None,
) -> tuple[list[tuple[np.ndarray, np.ndarray]], TrainReport]:
    """Fit an MLP (``hidden`` sizes, ReLU) to the teacher's actions (to its ``targets`` when the
    data have them); returns its ``(W, b)`` layers (taking the raw state: the input scaling is
    folded into the first layer) and a report."""
    if any(int(h) < 1 for h in hidden) or epochs < 1 or batch_size < 1 or not 0.0 <= holdout < 1.0:
        raise ValueError(
            f"train: hidden sizes, epochs and batch_size must be >= 1 and holdout in [0, 1); got hidden={list(hidden)}, "
            f"epochs={epochs}, batch_size={batch_size}, holdout={holdout}"
        )
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(data))
    n_hold = int(len(data) * holdout)
    held, fit = order[:n_hold], order[n_hold:]
    mean = data.states[fit].mean(axis=0).astype(np.float64)
    scale = data.states[fit].std(axis=0).astype(np.float64)
    scale[scale < 1e-6] = 1.0
    scaled = Dataset((data.states - mean) / scale, data.valid, data.actions)
    sizes = [data.states.shape[1], *[int(h) for h in hidden], data.valid.shape[1]]
    layers = [
        (rng.normal(0.0, np.sqrt(2.0 / n_in), (n_out, n_in)), np.zeros(n_out))
        for n_in, n_out in zip(sizes[:-1], sizes[1:], strict=True)
    ]
    moments = [[np.zeros_like(p) for p in layer] for layer in layers]
    squares = [[np.zeros_like(p) for p in layer] for layer in layers]
    beta1, beta2, step = 0.9, 0.999, 0
    for epoch in range(epochs):
        rate = learning_rate * 0.5 * (1.0 + np.cos(np.pi * epoch / epochs))  # cosine decay
        shuffled = fit[rng.permutation(len(fit))]
        for start in range(0, len(shuffled), batch_size):
            rows = shuffled[start : start + batch_size]
            inputs, logits = forward(layers, scaled.states[rows], scaled.valid[rows])
            probs = np.exp(logits - logits.max(axis=1, keepdims=True))
            probs /= probs.sum(axis=1, keepdims=True)
            grad = probs
            if data.targets is None:
                grad[np.arange(len(rows)), scaled.actions[rows]] -= 1.0
            else:
                grad -= data.targets[rows]
            grad /= len(rows)
            step += 1
            for i in range(len(layers) - 1, -1, -1):
                w, b = layers[i]
                grads = (grad.T @ inputs[i] + weight_decay * w, grad.sum(axis=0))
                if i > 0:
                    grad = (grad @ w) * (inputs[i] > 0.0)
                for j, g in enumerate(grads):
                    moments[i][j] = beta1 * moments[i][j] + (1 - beta1) * g
                    squares[i][j] = beta2 * squares[i][j] + (1 - beta2) * g * g
                    m_hat = moments[i][j] / (1 - beta1**step)
                    v_hat = squares[i][j] / (1 - beta2**step)
                    layers[i][j][...] -= rate * m_hat / (np.sqrt(v_hat) + 1e-8)
        if log is not None:
            log(f"epoch {epoch + 1}/{epochs}: agrees on {agreement(layers, scaled, held):.1%} held out")
    report = TrainReport(
        agreement(layers, scaled, fit),
        agreement(layers, scaled, held),
        float(np.mean(1.0 / data.valid[held].sum(axis=1))) if n_hold else float("nan"),
        len(data),
        epochs,
    )
    w0, b0 = layers[0]
    layers[0] = (w0 / scale, b0 - (w0 / scale) @ mean)  # the same scores from the raw state
    return layers, report


# ---- the command ------------------------------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m makeenv.learn.imitate",
        description="Train a fast policy that imitates a game's strongest (search) level and write its weights.",
    )
    p.add_argument("game", help="a registered array game, e.g. SushiGo or Durak")
    p.add_argument("--games", type=int, default=600, help="games to collect the teacher's decisions from")
    p.add_argument("--players", type=int, default=None, help="players a game (default: the game's default)")
    p.add_argument(
        "--out", type=Path, default=None, help=f"weights file (default: the game folder's {WEIGHTS_FILE_NAME})"
    )
    p.add_argument("--seed", type=int, default=0, help="seeds the games, the seating and the training")
    p.add_argument("--teacher-level", type=int, default=None, help="the level to imitate (default: the highest)")
    p.add_argument(
        "--teacher", default=None, help="module:function of another policy to imitate (instead of --teacher-level)"
    )
    p.add_argument(
        "--budget",
        type=float,
        default=0.0,
        help="the teacher's data[0] (a search bot's simulations a move; 0: its default)",
    )
    p.add_argument(
        "--teacher-shares",
        default=None,
        help="module:function(state) -> (action, distribution over the actions) of a teacher that says how much "
        "it likes each action (a search's visit shares); it plays the teacher's seats and the policy learns the "
        "distribution (instead of --teacher-level and --teacher)",
    )
    p.add_argument("--others-level", type=int, default=1, help="the level of the seats the teacher does not take")
    p.add_argument("--teacher-share", type=float, default=0.6, help="chance that a seat is the teacher's")
    p.add_argument("--noise", type=float, default=0.1, help="share of teacher moves replaced by random ones")
    p.add_argument("--hidden", default="64", help="hidden layer sizes, comma separated")
    p.add_argument("--epochs", type=int, default=20)
    p.add_argument(
        "--view",
        default=None,
        help="module:function of a game's policy view, e.g. makeenv.games.durak.bots:canonical_view",
    )
    p.add_argument("--save-data", type=Path, default=None, help="also write the collected decisions here")
    p.add_argument(
        "--from-data",
        type=Path,
        nargs="+",
        default=None,
        help="train on decisions saved by --save-data (one or more files)",
    )
    return p


def load_named(option: str, name: str) -> Any:
    """The function ``module:function`` names (``--view``, ``--teacher``)."""
    module_name, _, function = name.partition(":")
    try:
        return getattr(importlib.import_module(module_name), function)
    except (ImportError, AttributeError, ValueError) as exc:
        raise SystemExit(
            f"{option} {name}: not found ({exc}); give module:function, e.g. makeenv.games.durak.bots:canonical_view"
        ) from None


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    import makeenv  # the registry imports every game: only when run

    env = makeenv.make(args.game) if args.players is None else makeenv.make(args.game, players=args.players)
    teacher_level = args.teacher_level if args.teacher_level is not None else max(env.level_bots)
    started = time.perf_counter()
    if args.from_data is not None:
        data = Dataset.concatenate([Dataset.load(path) for path in args.from_data])
    else:
        teacher = env.opponents(teacher_level)[0]
        if args.teacher is not None:
            teacher = Bot(load_named("--teacher", args.teacher))
        if args.budget > 0:
            teacher = Bot(teacher.policy, np.array([args.budget]), teacher.name)
        others = env.opponents(args.others_level)[0]

        def progress(done: int, total: int) -> None:
            if done % max(total // 20, 1) == 0 or done == total:
                print(f"{done}/{total} games, {time.perf_counter() - started:.0f} s", file=sys.stderr)

        data = collect(
            env,
            teacher,
            args.games,
            others=others,
            teacher_share=args.teacher_share,
            noise=args.noise,
            seed=args.seed,
            view=load_named("--view", args.view) if args.view else None,
            progress=progress,
            shares=load_named("--teacher-shares", args.teacher_shares) if args.teacher_shares else None,
        )
        if args.save_data is not None:
            data.save(args.save_data)
    hidden = [int(h) for h in str(args.hidden).split(",") if h.strip()]
    layers, report = train(
        data, hidden, epochs=args.epochs, seed=args.seed, log=lambda line: print(line, file=sys.stderr)
    )
    out = args.out if args.out is not None else Path(env.folder) / WEIGHTS_FILE_NAME
    save_weights(
        out,
        layers,
        game=env.name,
        teacher_level=teacher_level,
        teacher=args.teacher_shares
        or args.teacher
        or (f"level {teacher_level}" if args.from_data is None else "see from_data"),
        budget=args.budget,
        games=args.games if args.from_data is None else 0,
        players=env.players if args.from_data is None else 0,
        seed=args.seed,
        from_data=" ".join(path.name for path in args.from_data or ()),
        samples=len(data),
        holdout_accuracy=report.holdout_accuracy,
    )
    print(f"{report.summary()}; wrote {out} in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

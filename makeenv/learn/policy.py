"""A trained policy as a bot: weights on disk (.npz), one flat float64 vector as the bot's data,
and the compiled function that plays from it.

The network is a multilayer perceptron over a game's raw state vector: ``sizes = (state size,
hidden..., action count)``, ReLU between layers, one score per action. The bot plays the valid
action with the highest score, so it is deterministic and reads nothing but its own state.

The bot's data (``pack``) is ``[FORMAT_TAG, layers, sizes..., W1, b1, W2, b2, ..., scratch]``:
a hidden layer's ``W`` stored inputs x outputs (so a zero input, frequent in a state or after a
ReLU, is skipped at once), the output layer's outputs x inputs (only valid actions are scored),
then room for two hidden activations, which the policy overwrites at every move (it allocates
nothing). A game's bots.py wraps ``mlp_action`` in an
``@njit`` policy of its own that passes the game's valid actions; ``load_policy_data`` reads a
weights file and checks it against the game's sizes.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

FORMAT_TAG = 7302.0  # the first value of a packed policy, to tell one from other data
WEIGHT_KEYS = ("w", "b")  # a weights file holds w0, b0, w1, b1, ...


def layer_sizes(weights: Sequence[tuple[np.ndarray, np.ndarray]]) -> tuple[int, ...]:
    """``(inputs, hidden..., outputs)`` of a list of ``(W, b)`` layers, checked to fit together."""
    if not weights:
        raise ValueError("a policy needs at least one layer (W, b); got none")
    sizes = [int(np.shape(weights[0][0])[1]) if np.ndim(weights[0][0]) == 2 else -1]
    for i, (w, b) in enumerate(weights):
        w_shape, b_shape = np.shape(w), np.shape(b)
        if len(w_shape) != 2 or w_shape[1] != sizes[-1] or b_shape != (w_shape[0],):
            raise ValueError(
                f"layer {i}: W has shape {w_shape} and b {b_shape}; expected W of shape (outputs, "
                f"{sizes[-1]}) (the previous layer's outputs) and b of shape (outputs,)"
            )
        sizes.append(int(w_shape[0]))
    return tuple(sizes)


def pack(weights: Sequence[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """The bot data of a list of ``(W, b)`` layers (see the module docstring)."""
    sizes = layer_sizes(weights)
    scratch = 2 * max(sizes[1:-1], default=0)
    parts = [np.array([FORMAT_TAG, len(weights), *sizes], dtype=np.float64)]
    for i, (w, b) in enumerate(weights):
        w = np.asarray(w, dtype=np.float64)
        parts += [(w if i == len(weights) - 1 else w.T).ravel(), np.asarray(b, dtype=np.float64)]
    parts.append(np.zeros(scratch, dtype=np.float64))
    return np.concatenate(parts)


def save_weights(path: Path | str, weights: Sequence[tuple[np.ndarray, np.ndarray]], **meta: Any) -> Path:
    """Write ``(W, b)`` layers as float32 to an .npz file, with ``meta`` (strings, numbers) beside them."""
    layer_sizes(weights)
    arrays: dict[str, Any] = {}
    for i, (w, b) in enumerate(weights):
        arrays[f"w{i}"] = np.asarray(w, dtype=np.float32)
        arrays[f"b{i}"] = np.asarray(b, dtype=np.float32)
    for key, value in meta.items():
        arrays[f"meta_{key}"] = np.asarray(value)
    path = Path(path)
    with open(path, "wb") as file:  # a file object: numpy adds no .npz suffix of its own
        np.savez_compressed(file, **arrays)
    return path


def load_weights(path: Path | str) -> tuple[list[tuple[np.ndarray, np.ndarray]], dict[str, Any]]:
    """The ``(W, b)`` layers (float64) and the meta values of a file written by ``save_weights``."""
    with np.load(Path(path), allow_pickle=False) as archive:
        files = dict(archive.items())
    weights: list[tuple[np.ndarray, np.ndarray]] = []
    while f"w{len(weights)}" in files:
        i = len(weights)
        if f"b{i}" not in files:
            raise ValueError(f"{path}: has w{i} but no b{i}; rebuild the file with makeenv.learn.imitate")
        weights.append((files[f"w{i}"].astype(np.float64), files[f"b{i}"].astype(np.float64)))
    if not weights:
        raise ValueError(f"{path}: holds no layers w0, b0, ...; rebuild the file with makeenv.learn.imitate")
    meta = {key.removeprefix("meta_"): value.item() for key, value in files.items() if key.startswith("meta_")}
    return weights, meta


def load_policy_data(path: Path | str, state_size: int, action_size: int) -> np.ndarray:
    """A weights file as a bot's data, checked against the game's state and action sizes."""
    weights, meta = load_weights(path)
    sizes = layer_sizes(weights)
    if (sizes[0], sizes[-1]) != (state_size, action_size):
        raise ValueError(
            f"{path}: the policy takes {sizes[0]} state values and scores {sizes[-1]} actions; the "
            f"game has {state_size} and {action_size} (trained for {meta.get('game', 'another game')}?). "
            "Retrain it with python -m makeenv.learn.imitate"
        )
    return pack(weights)


@njit(cache=True)
def mlp_action(state, data, valid) -> int:
    """The valid action (``valid[a] == 1``) the packed network in ``data`` scores highest; -1 if none."""
    layers = int(data[1])
    start = 2 + layers + 1  # after the tag, the layer count and the sizes
    scratch = start
    for i in range(layers):
        scratch += int(data[3 + i]) * int(data[2 + i]) + int(data[3 + i])
    widest = 0
    for i in range(1, layers):
        widest = max(widest, int(data[2 + i]))
    source, target = scratch, scratch + widest  # the two halves of the scratch, used in turns
    pos = start
    for i in range(layers - 1):  # hidden layers, inputs x outputs: skip the zero inputs
        n_in, n_out = int(data[2 + i]), int(data[3 + i])
        bias = pos + n_out * n_in
        for o in range(n_out):
            data[target + o] = data[bias + o]
        for k in range(n_in):
            x = state[k] if i == 0 else data[source + k]
            if x != 0.0:
                row = pos + k * n_out
                for o in range(n_out):
                    data[target + o] += x * data[row + o]
        for o in range(n_out):
            data[target + o] = max(data[target + o], 0.0)
        pos = bias + n_out
        source, target = target, source
    n_in, n_out = int(data[1 + layers]), int(data[2 + layers])
    bias = pos + n_out * n_in
    best, best_score = -1, -np.inf
    for o in range(n_out):  # the output layer, outputs x inputs: score the valid actions only
        if valid[o] != 1.0:
            continue
        total = data[bias + o]
        row = pos + o * n_in
        for k in range(n_in):
            total += data[row + k] * (state[k] if layers == 1 else data[source + k])
        if total > best_score:
            best, best_score = o, total
    return best

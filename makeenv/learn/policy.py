"""A trained policy as a bot: weights on disk (.npz), one flat float64 vector as the bot's data,
and the compiled function that plays from it.

The network is a multilayer perceptron over a game's raw state vector: ``sizes = (state size,
hidden..., action count)``, ReLU between layers, one score per action. The bot plays the valid
action with the highest score, so it is deterministic and reads nothing but its own state.

The bot's data (``pack``) is the header ``[FORMAT_TAG, layers, sizes...]`` followed by float32
values stored two to a float64 slot (the weights files hold float32, so nothing is lost):
``W1, b1, W2, b2, ..., scratch``. A hidden layer's ``W`` is stored inputs x outputs, so a zero
input, frequent in a state or after a ReLU, skips a whole row and each row is read contiguously;
the output layer's is stored outputs x inputs, so only the valid actions are scored. The scratch
holds two hidden activations, which the policy overwrites at every move (it allocates nothing).
A game's bots.py wraps ``mlp_action`` in an ``@njit`` policy of its own that passes the game's
valid actions; ``load_policy_data`` reads a weights file and checks it against the game's sizes.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

FORMAT_TAG = 7303.0  # the first value of a packed policy (this layout), to tell one from other data
# ReLU networks hold no NaN or infinity: let LLVM fuse multiply-adds and vectorize the sums
FAST_MATH = {"contract", "reassoc", "nsz", "arcp"}
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
    parts = []
    for i, (w, b) in enumerate(weights):
        w = np.asarray(w, dtype=np.float32)
        parts += [(w if i == len(weights) - 1 else w.T).ravel(), np.asarray(b, dtype=np.float32)]
    parts.append(np.zeros(2 * max(sizes[1:-1], default=0), dtype=np.float32))  # the scratch
    values = np.concatenate(parts)
    if values.size % 2:
        values = np.append(values, np.float32(0.0))
    header = np.array([FORMAT_TAG, len(weights), *sizes], dtype=np.float64)
    return np.concatenate([header, values.view(np.float64)])


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


def load_policy_data(path: Path | str, state_size: int, action_size: int, scratch: int = 0) -> np.ndarray:
    """A weights file as a bot's data, checked against the game's state and action sizes, followed by
    ``scratch`` zeros (room the bot writes into at every move, so it allocates nothing)."""
    weights, meta = load_weights(path)
    sizes = layer_sizes(weights)
    if (sizes[0], sizes[-1]) != (state_size, action_size):
        raise ValueError(
            f"{path}: the policy takes {sizes[0]} state values and scores {sizes[-1]} actions; the "
            f"game has {state_size} and {action_size} (trained for {meta.get('game', 'another game')}?). "
            "Retrain it with python -m makeenv.learn.imitate"
        )
    packed = pack(weights)
    return np.concatenate([packed, np.zeros(scratch, dtype=packed.dtype)]) if scratch else packed


@njit(cache=True, fastmath=FAST_MATH)
def hidden_layer(x, w, b, out) -> None:
    """``out = max(x @ w + b, 0)`` for ``w`` stored inputs x outputs; zero inputs cost nothing."""
    n_out = out.shape[0]
    for o in range(n_out):
        out[o] = b[o]
    for k in range(x.shape[0]):
        value = np.float32(x[k])
        if value != 0.0:
            for o in range(n_out):
                out[o] += value * w[k, o]
    for o in range(n_out):
        out[o] = max(out[o], np.float32(0.0))


@njit(cache=True, fastmath=FAST_MATH)
def best_valid_output(x, w, b, valid) -> int:
    """The valid action whose score ``w[a] @ x + b[a]`` is highest (``w`` outputs x inputs); -1 if none."""
    best, best_score = -1, np.float32(0.0)
    for o in range(w.shape[0]):
        if valid[o] != 1.0:
            continue
        total = b[o]
        for k in range(x.shape[0]):
            total += w[o, k] * np.float32(x[k])
        if best < 0 or total > best_score:
            best, best_score = o, total
    return best


@njit(cache=True)
def mlp_action(state, data, valid) -> int:
    """The valid action (``valid[a] == 1``) the packed network in ``data`` scores highest; -1 if none."""
    layers = int(data[1])
    values = data[3 + layers :].view(np.float32)  # after the tag, the layer count and the sizes
    scratch = 0
    widest = 0
    for i in range(layers):
        scratch += int(data[3 + i]) * int(data[2 + i]) + int(data[3 + i])
        if i < layers - 1:
            widest = max(widest, int(data[3 + i]))
    n_in, n_out = int(data[2]), int(data[3])
    if layers == 1:
        w = values[: n_out * n_in].reshape((n_out, n_in))
        return best_valid_output(state, w, values[n_out * n_in : n_out * n_in + n_out], valid)
    hidden = values[scratch : scratch + n_out]
    w = values[: n_in * n_out].reshape((n_in, n_out))
    hidden_layer(state, w, values[n_in * n_out : n_in * n_out + n_out], hidden)
    pos = n_in * n_out + n_out
    other = widest  # the other half of the scratch, used in turns
    for i in range(1, layers):
        n_in, n_out = int(data[2 + i]), int(data[3 + i])
        bias = pos + n_in * n_out
        if i == layers - 1:
            w = values[pos:bias].reshape((n_out, n_in))
            return best_valid_output(hidden, w, values[bias : bias + n_out], valid)
        out = values[scratch + other : scratch + other + n_out]
        hidden_layer(hidden, values[pos:bias].reshape((n_in, n_out)), values[bias : bias + n_out], out)
        hidden, other = out, widest - other
        pos = bias + n_out
    return -1

"""Small variants of RockPaperScissors that the adapters must handle or refuse clearly.

Each ``*_game()`` returns a module object: the real game's functions with one piece changed. The
changed functions are top-level ``@njit(cache=True)`` functions so compiled code is reused.
"""

from __future__ import annotations

import io
import types

import numpy as np
from numba import njit

from makeenv.array.contract import CONTRACT_NAMES
from makeenv.games import rock_paper_scissors as rps
from makeenv.games.rock_paper_scissors import logic as L

CONTRACT = CONTRACT_NAMES + ("isValidAction",)


def _copy(name: str, **changes) -> types.ModuleType:
    module = types.ModuleType(name)
    for fn in CONTRACT:
        setattr(module, fn, getattr(rps, fn))
    module.SIMULTANEOUS = True
    module.NAME = name
    for key, value in changes.items():
        setattr(module, key, value)
    return module


def png_render(state) -> bytes:
    """A 3 x 2 PNG: red where the state shows my choice, else black (Pillow)."""
    from PIL import Image

    image = Image.new("RGB", (3, 2))
    for choice in range(3):
        if state[L.S_MINE + choice] > 0.5:
            image.putpixel((choice, 0), (255, 0, 0))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def png_game() -> types.ModuleType:
    """RockPaperScissors drawn as PNG pictures (so the adapters offer rgb_array)."""
    return _copy("PngRockPaperScissors", render=png_render)


@njit(cache=True)
def init_env_player_one_first():
    env = L.initEnv()
    env[L.E_PLAYER] = 1.0
    return env


def player_one_first_game() -> types.ModuleType:
    """Declares SIMULTANEOUS but player 1 moves first: its rounds are not in seat order."""
    return _copy("PlayerOneFirst", initEnv=init_env_player_one_first)


@njit(cache=True)
def init_env_sometimes_longer():
    env = L.initEnv()
    if np.random.random() < 0.5:
        return env
    longer = np.zeros(L.ENV_SIZE + 1)
    longer[: L.ENV_SIZE] = env
    return longer


def varying_length_game() -> types.ModuleType:
    """initEnv returns envs of two lengths (a batch needs one)."""
    return _copy("VaryingLength", initEnv=init_env_sometimes_longer)


def python_bot(state, data):
    """A plain Python bot: always Rock (or Confirm)."""
    return (L.CONFIRM if state[L.S_CONFIRM] > 0.5 else L.ROCK), data


def python_bot_game() -> types.ModuleType:
    """Level 1 is a plain Python bot (the batched env needs numba bots)."""
    return _copy("PythonBotGame", LEVELS={1: python_bot})

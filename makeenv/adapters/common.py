"""What the PettingZoo, Gymnasium and batched adapters share: spaces, options, pictures.

Every adapter sees a player's state as a ``float32`` vector in ``Box(0, inf)`` (the contract
makes every state value finite and ``>= 0``; it sets no upper bound), the valid actions as an
``int8`` 0/1 mask, and actions as ``Discrete(getActionSize())``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from makeenv.array.contract import ArrayEnv
from makeenv.array.referee import Match, Outcome
from makeenv.pictures import read_picture

OBS_DTYPE = np.float32
MASK_DTYPE = np.int8
INVALID_ACTION_CHOICES = ("lose", "raise")
RENDER_FPS = 4


def as_array_env(env: Any, **game_options: Any) -> ArrayEnv:
    """``env`` itself, or the registered array game of that name built with ``game_options``."""
    if isinstance(env, ArrayEnv):
        if game_options:
            raise TypeError(
                f"{env.name}: game options {sorted(game_options)} can only be given with a game name; "
                f"build the env with makeenv.make({env.name!r}, ...) instead"
            )
        return env
    if isinstance(env, str):
        import makeenv

        built = makeenv.make(env, **game_options)
        if not isinstance(built, ArrayEnv):
            raise TypeError(f"{env!r} is a text env; the RL adapters take array games (makeenv list shows them)")
        return built
    raise TypeError(
        f"expected an array env (makeenv.make('TicTacToe')) or a game name, got {type(env).__name__} {env!r}"
    )


def live_match(match: Match | None, game: str) -> Match:
    """The adapter's current match; there is none before the first ``reset()``."""
    if match is None:
        raise RuntimeError(f"{game}: no game has started yet; call reset() first")
    return match


def player_to_move(match: Match) -> int:
    """The player to move in a running ``match``."""
    player = match.current_player
    if player is None:
        raise RuntimeError(
            f"{match.env.name}: the game is over at step {match.steps}, so nobody is to move; check match.over first"
        )
    return player


def final_outcome(match: Match) -> Outcome:
    """The outcome of an ended ``match``."""
    outcome = match.outcome
    if outcome is None:
        raise RuntimeError(
            f"{match.env.name}: the game is still running at step {match.steps}, so it has no "
            "outcome yet; check match.over first"
        )
    return outcome


def check_invalid_action(game: str, invalid_action: Any, invalid_reward: Any) -> tuple[str, float]:
    """The adapters' ``invalid_action`` option ("lose": the mover's episode ends with
    ``invalid_reward``; "raise": ``InvalidActionError``) and its reward, validated."""
    if invalid_action not in INVALID_ACTION_CHOICES:
        raise ValueError(
            f"{game}: invalid_action={invalid_action!r}; choose 'lose' (the game ends, the player "
            "who chose it gets invalid_reward) or 'raise' (InvalidActionError)"
        )
    try:
        reward = float(invalid_reward)
    except (TypeError, ValueError):
        raise TypeError(f"{game}: invalid_reward must be a number, got {invalid_reward!r}") from None
    if not np.isfinite(reward):
        raise ValueError(f"{game}: invalid_reward must be finite, got {invalid_reward!r}")
    return invalid_action, reward


def check_level(env: ArrayEnv, level: Any) -> int:
    """``level`` as one of the game's levels (0 is random), or the game's own clear error."""
    env.opponents(level)  # raises naming the levels there are
    return int(level)


def check_seat(env: ArrayEnv, seat: Any) -> int | None:
    """``None`` (a random seat every episode) or a seat ``0..players-1``."""
    if seat is None:
        return None
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < env.players:
        raise ValueError(
            f"{env.name}: seat must be None (a random seat every episode) or an int in "
            f"0..{env.players - 1}, got {seat!r}"
        )
    return int(seat)


def action_value(game: str, action: Any) -> Any:
    """A scalar action from what learners pass (ints, NumPy scalars, 0-d or 1-element arrays);
    anything that is not a number raises ``TypeError`` whatever the ``invalid_action`` option."""
    if isinstance(action, np.ndarray) and action.size == 1:
        action = action.reshape(()).item()
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, float, np.integer, np.floating)):
        raise TypeError(f"{game}: an action is an int in 0..n-1, got {type(action).__name__} {action!r}")
    return action


def observation_box(env: ArrayEnv) -> Any:
    """The space of one player's state."""
    from gymnasium import spaces

    return spaces.Box(low=0.0, high=np.inf, shape=(int(env.getStateSize()),), dtype=OBS_DTYPE)


def mask_box(env: ArrayEnv) -> Any:
    """The space of an action mask (1 for each valid action)."""
    from gymnasium import spaces

    return spaces.Box(low=0, high=1, shape=(int(env.getActionSize()),), dtype=MASK_DTYPE)


def masked_observation_space(env: ArrayEnv) -> Any:
    """``Dict(observation=Box, action_mask=Box)``, PettingZoo's layout for games with action masks."""
    from gymnasium import spaces

    return spaces.Dict({"observation": observation_box(env), "action_mask": mask_box(env)})


# ---- pictures -------------------------------------------------------------------------------------


def render_modes(env: ArrayEnv) -> list[str]:
    """The render modes an adapter of ``env`` offers.

    ``"ansi"``: the state in words (``describe_state``); ``"svg"``: the game's SVG picture as text,
    for games whose ``render`` draws SVG; ``"rgb_array"``: an ``(H, W, 3)`` uint8 array, for games
    whose ``render`` returns PNG bytes or a PIL image (SVG is not rasterized: that would need a
    browser or a cairo install, so SVG games offer ``"svg"`` instead).
    """
    modes = ["ansi"]
    if env.game_render is None:
        return modes
    picture = read_picture(env.render(np.asarray(env.getPlayerState(env.initEnv(), 0), dtype=np.float64)))
    modes.append("svg" if picture.svg is not None else "rgb_array")
    return modes


def check_render_mode(env: ArrayEnv, render_mode: Any, modes: list[str]) -> str | None:
    if render_mode is not None and render_mode not in modes:
        why = ""
        if render_mode == "rgb_array" and "svg" in modes:
            why = f" ({env.name} draws SVG; render_mode='svg' returns it as text)"
        elif render_mode == "human":
            why = " (no window is opened; use 'rgb_array' or 'svg' and show the picture yourself)"
        raise ValueError(f"{env.name}: render_mode={render_mode!r} is not offered{why}; choose one of {modes} or None")
    return render_mode


def render_state(env: ArrayEnv, state: np.ndarray, render_mode: str | None) -> Any:
    """The picture of ``state`` in ``render_mode`` (None when no mode was chosen)."""
    if render_mode is None:
        return None
    if render_mode == "ansi":
        return env.describe_state(state)
    picture = read_picture(env.render(state))
    return picture.svg if render_mode == "svg" else picture.rgb_array()

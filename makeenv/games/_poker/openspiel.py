"""The bridge to OpenSpiel's ``kuhn_poker`` and ``leduc_poker``, the reference the poker games are
proven against (OpenSpiel is a dev dependency: ``pip install open_spiel``).

* ``env_from_openspiel(game, os_state)``: our env for an OpenSpiel history (its chance outcomes
  are the cards; a Leduc public card not dealt yet is filled with the lowest unused card, which
  no state shows before round 2);
* ``openspiel_policy(game, policy)``: an OpenSpiel ``TabularPolicy`` whose every information
  state holds what ``policy(our_state)`` returns, the state being our player's view of that
  history (so it is the policy our bot actually plays);
* ``exploitability(game, policy)`` and ``expected_return(game, policy_a, policy_b)`` through
  OpenSpiel's own algorithms.

``game`` is the game's module (``makeenv.games.kuhn_poker``) or what ``makeenv.make`` returns.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

OPENSPIEL_NAMES = {"KuhnPoker": "kuhn_poker", "LeducPoker": "leduc_poker"}

Policy = Callable[[np.ndarray], np.ndarray]


def _module(game: Any) -> Any:
    return getattr(game, "module", game)


def load_openspiel(game: Any) -> Any:
    """OpenSpiel's game (default parameters) for one of our poker games."""
    try:
        import pyspiel
    except ImportError as exc:  # pragma: no cover - open_spiel is in the dev extra
        raise ImportError("the OpenSpiel bridge needs open_spiel: pip install open_spiel (or makeenv[dev])") from exc
    name = getattr(_module(game), "NAME", None)
    if name not in OPENSPIEL_NAMES:
        raise ValueError(f"no OpenSpiel counterpart for game {name!r}; known: {', '.join(OPENSPIEL_NAMES)}")
    return pyspiel.load_game(OPENSPIEL_NAMES[name])


def env_from_openspiel(game: Any, os_state: Any) -> np.ndarray:
    """Our env at the same point as the OpenSpiel state: its cards dealt, its bets replayed."""
    module = _module(game)
    cards = [step.action for step in os_state.full_history() if step.player < 0]
    actions = [step.action for step in os_state.full_history() if step.player >= 0]
    unused = [c for c in range(module.NUM_CARDS) if c not in cards]
    cards += unused[: module.CARDS_DEALT - len(cards)]
    env = module.dealEnv(*cards)
    for action in actions:
        env = module.stepEnv(action, env)
    return env


def openspiel_policy(game: Any, policy: Policy) -> Any:
    """An OpenSpiel TabularPolicy reading ``policy(state)`` at every information state.

    Raises ValueError when the policy puts probability on an action OpenSpiel says is illegal
    or its probabilities do not sum to 1.
    """
    from open_spiel.python.policy import TabularPolicy

    module = _module(game)
    table = TabularPolicy(load_openspiel(game))
    for key, row in table.state_lookup.items():
        os_state = table.states[row]
        env = env_from_openspiel(module, os_state)
        probs = np.asarray(policy(module.getPlayerState(env, os_state.current_player())), dtype=np.float64)
        legal = table.legal_actions_mask[row]
        if probs.shape != legal.shape or np.any(probs[legal == 0] != 0.0) or abs(probs.sum() - 1.0) > 1e-9:
            raise ValueError(f"policy gave {probs} at OpenSpiel information state {key!r} (legal actions {legal})")
        table.action_probability_array[row] = probs
    return table


def exploitability(game: Any, policy: Policy) -> float:
    """OpenSpiel's exploitability of ``policy`` (played by both seats): mean best-response gain."""
    from open_spiel.python.algorithms import exploitability as os_exploitability

    return float(os_exploitability.exploitability(load_openspiel(game), openspiel_policy(game, policy)))


def expected_return(game: Any, policy_a: Policy, policy_b: Policy) -> float:
    """Exact chips per hand ``policy_a`` wins from ``policy_b``, averaged over both seats."""
    from open_spiel.python.algorithms.expected_game_score import policy_value

    os_game = load_openspiel(game)
    a, b = openspiel_policy(game, policy_a), openspiel_policy(game, policy_b)
    first = policy_value(os_game.new_initial_state(), [a, b])[0]
    second = policy_value(os_game.new_initial_state(), [b, a])[1]
    return float((first + second) / 2.0)


def uniform_policy(game: Any) -> Policy:
    """The random agent's policy: uniform over the valid actions."""
    module = _module(game)

    def policy(state: np.ndarray) -> np.ndarray:
        valid = module.getValidActions(state)
        return valid / valid.sum()

    return policy

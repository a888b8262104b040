"""The search both versions use (level 3 in each): flat Monte Carlo over ``sampleEnv``
determinizations, each valid action played out to the end of the round by a level-1 policy in
every seat."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import numpy as np
from numba import njit

from .dungeon import E_LOSSES, E_ROUNDS, E_WINS, NUM_PLAYERS

OTHER_WEIGHT = 0.4  # another seat's round won counts this much against me (a loss for me as much)


def own_name(func: Callable, logic: ModuleType) -> Callable:
    """``func`` renamed after the rules module ``logic``. numba names compiled code by qualified name
    and a counter of its own process, so two versions' closures compiled in two processes could get
    the same name; read back from numba's cache into one process, one version would then run the
    other's code."""
    func.__qualname__ = f"{func.__qualname__}_of_{logic.__name__.replace('.', '_')}"
    return func


def make_search(logic: ModuleType, policy: Callable) -> Callable:
    """An njit ``search(state, samples) -> action`` for the rules module ``logic`` and the njit
    level-1 ``policy(state) -> action`` that plays every seat in the play-outs (its functions named
    after ``logic``: see ``own_name``)."""
    sample, step, agent_state, ended, valid_actions, seat_of = (
        logic.sampleEnv,
        logic.stepEnv,
        logic.getAgentState,
        logic.checkEnded,
        logic.getValidActions,
        logic.seat_of,
    )

    def round_value(env, me, wins, losses) -> float:
        """My round's worth after a play-out: my own win or loss, the others' against me, the game."""
        winner = ended(env)
        if winner >= 0:
            return 10.0 if winner == me else -10.0
        value = 0.0
        for p in range(NUM_PLAYERS):
            won = env[E_WINS + p] - wins[p]
            lost = env[E_LOSSES + p] - losses[p]
            weight = 1.0 if p == me else -OTHER_WEIGHT
            value += weight * (won - lost)
        return value

    round_value = njit(own_name(round_value, logic))

    def search(state, samples) -> int:
        valid = valid_actions(state)
        choices = np.flatnonzero(valid)
        if choices.shape[0] == 1:
            return choices[0]
        me = seat_of(state)
        totals = np.zeros(choices.shape[0])
        for _ in range(samples):
            root = sample(state)
            wins = root[E_WINS : E_WINS + NUM_PLAYERS].copy()
            losses = root[E_LOSSES : E_LOSSES + NUM_PLAYERS].copy()
            rounds = root[E_ROUNDS]
            for i in range(choices.shape[0]):
                env = step(choices[i], root.copy())
                moves = 0
                while ended(env) < 0 and env[E_ROUNDS] == rounds and moves < 200:
                    step(policy(agent_state(env)), env)
                    moves += 1
                totals[i] += round_value(env, me, wins, losses)
        return choices[np.argmax(totals)]

    return njit(own_name(search, logic))

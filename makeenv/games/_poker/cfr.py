"""CFR+ for two-player zero-sum array games whose only chance event is the deal (the poker games).

Counterfactual regret minimisation (Zinkevich et al. 2007) in its CFR+ form (Tammelin 2014):
regret matching+ (regrets floored at 0), alternating updates and a linearly weighted average
strategy. It works through the array-game contract only:

* the chance event is enumerated by the game's ``allDeals()`` (every env ``initEnv`` can return,
  equally likely); after the deal the game is deterministic;
* the tree is walked by stepping copies of envs (``stepEnv(a, env.copy())``), with
  ``getCurrentPlayer``, ``getAgentState``, ``getValidActions``, ``checkEnded`` and ``getReturns``;
* an information set is the state vector of the player to move (the poker states record the
  whole betting, so equal states are exactly equal information sets).

The walk is numba code taking the game's functions as arguments, so one implementation serves
every game. Numba compiles it once per game and process: a few seconds of CPU (the game functions
themselves are cached). It is not cached on disk: numba's cache index would keep the functions'
types, and once one of them is gone (a game loaded from a temporary folder, say) saving the index
fails in every later process ("underlying object has vanished", numba issue #9348).
``CFRSolver`` is the Python front::

    solver = CFRSolver(makeenv.make("LeducPoker"))
    solver.run(200)                      # CFR+ iterations
    probs = solver.policy(state)         # the average strategy at a state

Used by ``examples/cfr_poker.py``, ``benchmarks/bench_cfr.py`` and the LeducPoker level-2
policy script (``python -m makeenv.games.leduc_poker.make_policy``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

# ---- shared by the poker bots -----------------------------------------------------------------


@njit(cache=True)
def sample_action(probs) -> int:
    """An action drawn from ``probs`` (a probability per action; zeros are never drawn)."""
    r = np.random.random()
    last = -1
    for a in range(probs.shape[0]):
        if probs[a] > 0.0:
            last = a
            r -= probs[a]
            if r < 0.0:
                return a
    return last if last >= 0 else 0


# ---- the information-set table ----------------------------------------------------------------------
# Plain arrays, so nothing but numpy crosses into compiled code:
#   keys[row]      the state vector of information set `row`
#   regrets[row]   its cumulative regrets (floored at 0: regret matching+)
#   deltas[row]    this pass's regret increments, added to regrets after the pass (so the
#                  strategies stay fixed while one tree walk runs)
#   sums[row]      its weighted sums of the current strategies (the average strategy, unnormalised)
#   slots[h]       an open-addressing hash index: row + 1 of the state hashing to h, 0 when empty
#   count[0]       rows in use


@njit(cache=True)
def _slot(state, mask) -> np.int64:
    """An FNV-style hash of the state's 64-bit words, folded into the slot range ``0..mask``."""
    h = np.uint64(14695981039346656037)
    bits = state.view(np.uint64)
    for k in range(bits.shape[0]):
        h = (h ^ bits[k]) * np.uint64(1099511628211)
    return np.int64(h & np.uint64(mask))


@njit(cache=True)
def _same(a, b) -> bool:
    for k in range(a.shape[0]):
        if a[k] != b[k]:
            return False
    return True


@njit(cache=True)
def find_row(slots, keys, count, state, insert) -> int:
    """The row of information set ``state``; -1 when absent (and not inserted), -2 when full."""
    mask = slots.shape[0] - 1
    h = _slot(state, mask)
    while slots[h] != 0:
        row = slots[h] - 1
        if _same(keys[row], state):
            return row
        h = (h + 1) & mask
    if not insert:
        return -1
    row = count[0]
    if row >= keys.shape[0]:
        return -2
    keys[row] = state
    slots[h] = row + 1
    count[0] = row + 1
    return row


@njit  # takes the game's functions: not cached (see the module docstring)
def _discover(
    env, slots, keys, count, getCurrentPlayer, getAgentState, getValidActions, stepEnv, checkEnded, getReturns
) -> bool:
    """Add every information set below ``env`` to the table; False when the table is full."""
    if checkEnded(env) != -1:
        return True
    state = getAgentState(env)
    if find_row(slots, keys, count, state, True) == -2:
        return False
    valid = getValidActions(state)
    for a in range(valid.shape[0]):
        if valid[a] == 1.0:
            child = stepEnv(a, env.copy())
            if not _discover(
                child,
                slots,
                keys,
                count,
                getCurrentPlayer,
                getAgentState,
                getValidActions,
                stepEnv,
                checkEnded,
                getReturns,
            ):
                return False
    return True


@njit  # takes the game's functions: not cached (see the module docstring)
def discover_all(
    deals, slots, keys, count, getCurrentPlayer, getAgentState, getValidActions, stepEnv, checkEnded, getReturns
) -> bool:
    """Fill the table with the information sets of every deal; False when it is too small."""
    for d in range(deals.shape[0]):
        if not _discover(
            deals[d].copy(),
            slots,
            keys,
            count,
            getCurrentPlayer,
            getAgentState,
            getValidActions,
            stepEnv,
            checkEnded,
            getReturns,
        ):
            return False
    return True


@njit(cache=True)
def regret_matching(regrets, valid):
    """The current strategy: positive regrets normalised; uniform over the valid actions without any."""
    n = valid.shape[0]
    strategy = np.zeros(n)
    total = 0.0
    count = 0.0
    for a in range(n):
        if valid[a] == 1.0:
            count += 1.0
            if regrets[a] > 0.0:
                total += regrets[a]
    for a in range(n):
        if valid[a] == 1.0:
            strategy[a] = max(regrets[a], 0.0) / total if total > 0.0 else 1.0 / count
    return strategy


@njit(cache=True)
def average_strategy(sums, valid):
    """The average strategy of one information set (uniform over the valid actions when empty)."""
    n = valid.shape[0]
    probs = np.zeros(n)
    total = 0.0
    count = 0.0
    for a in range(n):
        if valid[a] == 1.0:
            total += sums[a]
            count += 1.0
    for a in range(n):
        if valid[a] == 1.0:
            probs[a] = sums[a] / total if total > 0.0 else 1.0 / count
    return probs


@njit  # takes the game's functions: not cached (see the module docstring)
def _walk(
    env,
    player,
    my_reach,
    their_reach,
    weight,
    slots,
    keys,
    count,
    regrets,
    deltas,
    sums,
    getCurrentPlayer,
    getAgentState,
    getValidActions,
    stepEnv,
    checkEnded,
    getReturns,
) -> float:
    """The value of ``env`` for ``player`` under the current strategies, adding up ``player``'s
    regret increments and strategy sums on the way. ``their_reach`` includes the deal's probability."""
    if checkEnded(env) != -1:
        return getReturns(env)[player]
    state = getAgentState(env)
    valid = getValidActions(state)
    row = find_row(slots, keys, count, state, False)
    strategy = regret_matching(regrets[row], valid)
    n = valid.shape[0]
    if getCurrentPlayer(env) != player:
        value = 0.0
        for a in range(n):
            if valid[a] == 1.0:
                child = stepEnv(a, env.copy())
                value += strategy[a] * _walk(
                    child,
                    player,
                    my_reach,
                    their_reach * strategy[a],
                    weight,
                    slots,
                    keys,
                    count,
                    regrets,
                    deltas,
                    sums,
                    getCurrentPlayer,
                    getAgentState,
                    getValidActions,
                    stepEnv,
                    checkEnded,
                    getReturns,
                )
        return value
    values = np.zeros(n)
    value = 0.0
    for a in range(n):
        if valid[a] == 1.0:
            child = stepEnv(a, env.copy())
            values[a] = _walk(
                child,
                player,
                my_reach * strategy[a],
                their_reach,
                weight,
                slots,
                keys,
                count,
                regrets,
                deltas,
                sums,
                getCurrentPlayer,
                getAgentState,
                getValidActions,
                stepEnv,
                checkEnded,
                getReturns,
            )
            value += strategy[a] * values[a]
    for a in range(n):
        if valid[a] == 1.0:
            deltas[row, a] += their_reach * (values[a] - value)
            sums[row, a] += weight * my_reach * strategy[a]
    return value


@njit  # takes the game's functions: not cached (see the module docstring)
def cfr_iterations(
    deals,
    first_iteration,
    iterations,
    slots,
    keys,
    count,
    regrets,
    deltas,
    sums,
    getCurrentPlayer,
    getAgentState,
    getValidActions,
    stepEnv,
    checkEnded,
    getReturns,
) -> float:
    """CFR+ iterations ``first_iteration .. first_iteration + iterations - 1`` over every deal,
    player 0's then player 1's update in each; returns player 1's last value (the game value
    for player 1 under the current strategies, for monitoring)."""
    chance = 1.0 / deals.shape[0]
    value = 0.0
    for t in range(first_iteration, first_iteration + iterations):
        for player in range(2):
            value = 0.0
            for d in range(deals.shape[0]):
                value += chance * _walk(
                    deals[d].copy(),
                    player,
                    1.0,
                    chance,
                    float(t),
                    slots,
                    keys,
                    count,
                    regrets,
                    deltas,
                    sums,
                    getCurrentPlayer,
                    getAgentState,
                    getValidActions,
                    stepEnv,
                    checkEnded,
                    getReturns,
                )
            for row in range(count[0]):  # regret matching+: add the pass's regrets, floor at 0
                for a in range(regrets.shape[1]):
                    regrets[row, a] = max(regrets[row, a] + deltas[row, a], 0.0)
                    deltas[row, a] = 0.0
    return value


# ---- the Python front ---------------------------------------------------------------------------

FUNCTIONS = ("getCurrentPlayer", "getAgentState", "getValidActions", "stepEnv", "checkEnded", "getReturns")


def _function(game: Any, name: str) -> Any:
    """A game function by name, from an ArrayEnv (or its module) or a game module."""
    func = getattr(game, name, None)
    if func is None and hasattr(game, "module"):
        func = getattr(game.module, name, None)
    if func is None:
        label = getattr(game, "name", None) or getattr(game, "__name__", repr(game))
        raise ValueError(
            f"CFRSolver: game {label} has no {name}(); CFR needs the contract functions plus getReturns(env) "
            "and allDeals() (every starting env, equally likely, after which the game is deterministic)"
        )
    return func


class CFRSolver:
    """CFR+ over a two-player zero-sum array game with ``allDeals()`` and ``getReturns(env)``.

    ``game``: what ``makeenv.make`` returns, or the game's module. Building the solver walks the
    whole tree once to find every information set.
    """

    def __init__(self, game: Any) -> None:
        players = int(_function(game, "getAgentSize")())
        if players != 2:
            raise ValueError(f"CFRSolver: this CFR solves two-player games; the game has {players} players")
        self.game = game
        self.functions = tuple(_function(game, name) for name in FUNCTIONS)
        self.deals = np.ascontiguousarray(_function(game, "allDeals")(), dtype=np.float64)
        if self.deals.ndim != 2 or len(self.deals) == 0:
            raise ValueError(f"CFRSolver: allDeals() must return a 2-D array of envs, got shape {self.deals.shape}")
        self.state_size = int(_function(game, "getStateSize")())
        self.action_size = int(_function(game, "getActionSize")())
        self.iterations = 0
        capacity = 1024
        while True:
            self.slots = np.zeros(2 * capacity, dtype=np.int64)
            self.keys = np.zeros((capacity, self.state_size))
            self.count = np.zeros(1, dtype=np.int64)
            if discover_all(self.deals, self.slots, self.keys, self.count, *self.functions):
                break
            capacity *= 2
        self.regrets = np.zeros((capacity, self.action_size))
        self.deltas = np.zeros((capacity, self.action_size))
        self.sums = np.zeros((capacity, self.action_size))

    @property
    def num_information_sets(self) -> int:
        return int(self.count[0])

    def run(self, iterations: int) -> float:
        """Run ``iterations`` more CFR+ iterations; returns player 1's value under the last one."""
        if isinstance(iterations, bool) or not isinstance(iterations, (int, np.integer)) or iterations < 0:
            raise ValueError(f"CFRSolver.run: iterations must be an int >= 0, got {iterations!r}")
        value = cfr_iterations(
            self.deals,
            self.iterations + 1,
            int(iterations),
            self.slots,
            self.keys,
            self.count,
            self.regrets,
            self.deltas,
            self.sums,
            *self.functions,
        )
        self.iterations += int(iterations)
        return float(value)

    def information_sets(self) -> tuple[np.ndarray, np.ndarray]:
        """Every information set: (states, average-strategy probabilities), one row each."""
        n = self.num_information_sets
        valid_actions = self.functions[2]
        probs = np.array([average_strategy(self.sums[row], valid_actions(self.keys[row])) for row in range(n)])
        return self.keys[:n].copy(), probs.reshape(n, self.action_size)

    def policy(self, state: np.ndarray) -> np.ndarray:
        """The average strategy at ``state`` (a state of the player to move)."""
        state = np.ascontiguousarray(state, dtype=np.float64)
        if state.shape != (self.state_size,):
            raise ValueError(f"CFRSolver.policy: expected a state of length {self.state_size}, got shape {state.shape}")
        row = find_row(self.slots, self.keys, self.count, state, False)
        if row < 0:
            raise KeyError(
                "CFRSolver.policy: no information set has this state (is it a state of the player "
                "to move, reached by play?)"
            )
        return average_strategy(self.sums[row], self.functions[2](state))

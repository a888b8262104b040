"""``Match``: one game stepped from Python by the referee (the GUI, adapters, text bridge, checker).

The rules of stepping a game (whose turn it is, which actions are acceptable, what stepEnv's
return value means, when a game is over, its outcome) are written once, as compiled functions in
the game's referee module (``_referee_template.py``). The runner's loops call them from compiled code; a
``Match`` calls the very same functions from Python, one move at a time.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from makeenv.array import errors as E
from makeenv.array.cache import referee_module

if TYPE_CHECKING:
    from makeenv.array.contract import ArrayEnv

WIN, LOSS, DRAW = "win", "loss", "draw"


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended, for every player."""

    winners: tuple[int, ...]  # who won (sole or shared first place); () for nobody
    results: tuple[str, ...]  # per player: "win", "loss" or "draw"
    returns: tuple[float, ...]  # per player: the numeric return
    truncated: bool  # ended by the game's TURN_LIMIT

    @property
    def shared(self) -> bool:
        """True for a shared first place (several winners, not everybody)."""
        return 1 < len(self.winners) < len(self.results)


def outcome_of(winners: np.ndarray, returns: np.ndarray, truncated: bool) -> Outcome:
    """An ``Outcome`` from the referee's winners mask and returns."""
    won = tuple(int(i) for i in np.flatnonzero(winners == 1.0))
    draw = len(won) in (0, len(winners))
    results = tuple(DRAW if draw else (WIN if winners[i] == 1.0 else LOSS) for i in range(len(winners)))
    return Outcome(won, results, tuple(float(r) for r in returns), bool(truncated))


class Match:
    """One game of an array env, stepped by the referee.

    ``seed`` seeds numba's random generator (which ``initEnv`` and ``stepEnv`` draw from; it is
    shared by the process). With ``isolated=True`` the match keeps a random stream of its own
    (started from ``seed``) and reseeds numba's generator from it before dealing and before every
    move, so matches stepped in turns (two adapters, two GUI sessions) each stay reproducible.
    ``step(action)`` checks the action of the player to move and applies it, raising
    ``InvalidActionError`` (naming the player, the action and the valid ones) or ``GameError``
    (the game broke the contract); nothing changes when it raises.
    """

    def __init__(
        self, env: ArrayEnv, seed: int | None = None, *, isolated: bool = False, _copy_of: Match | None = None
    ):
        self.env = env
        self.players = env.players
        self.n_actions = int(env.getActionSize())
        #: the game's compiled referee module (``_referee_template.py``), shared with the runner
        self.core: Any = _copy_of.core if _copy_of is not None else referee_module(env)
        self._err = E.new_record()
        self._err_valid = np.zeros(self.n_actions, dtype=np.float64)
        self._winners = np.zeros(self.players, dtype=np.float64)
        self._returns = np.zeros(self.players, dtype=np.float64)
        self.array: np.ndarray
        self.steps: int
        self.history: list[tuple[int, int]]
        self._status: int
        self._outcome: Outcome | None
        self._stream: np.random.Generator | None
        if _copy_of is not None:
            self.array = _copy_of.array.copy()
            self.steps = _copy_of.steps
            self.history = list(_copy_of.history)
            self._status = _copy_of._status
            self._outcome = _copy_of._outcome
            self._stream = copy.deepcopy(_copy_of._stream)
            return
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
                raise ValueError(f"{env.name}: seed must be a non-negative int or None, got {seed!r}")
        self._stream = np.random.default_rng(seed) if isolated else None
        if self._stream is not None:
            self.reseed()
        elif seed is not None:
            self.core.seed(int(seed) % 2**32)
        self.array = np.asarray(self.core.new_env(self.env.init_args), dtype=np.float64)
        self.steps = 0
        self.history = []
        self._outcome = None
        self._status = self._read_status()

    # ---- where the game stands ----------------------------------------------------------------
    def _raise(self, name_actor: Callable[[int, int], str] | None = None) -> None:
        record = self._err.copy()
        self._err[:] = 0.0
        raise E.error_from_record(
            self.env.name,
            record,
            n_players=self.players,
            n_actions=self.n_actions,
            max_steps=self.env.max_steps,
            valid=self._err_valid.copy(),
            name_actor=name_actor or (lambda actor, player: f"player {player}"),
            describe=self.env.describe_action,
            where=f"at step {int(record[E.ERR_STEP]) + 1}",
        )

    def _read_status(self) -> int:
        code = self.core.status(self.array, self.steps, self._err, self._err_valid, 0, self.players)
        if code == self.core.FAILED:
            self._raise()
        return int(code)

    @property
    def over(self) -> bool:
        """True once the game has ended (or hit its TURN_LIMIT)."""
        return self._status != self.core.RUNNING

    @property
    def truncated(self) -> bool:
        """True when the game was ended by its TURN_LIMIT."""
        return self._status == self.core.TRUNCATED

    @property
    def current_player(self) -> int | None:
        """The player to move (None once the game is over)."""
        if self.over:
            return None
        player = self.core.to_move(self.array, self._err, self._err_valid, 0, self.steps, self.players)
        if player < 0:
            self._raise()
        return int(player)

    def state(self, player: int | None = None) -> np.ndarray:
        """What ``player`` sees now (default: the player to move; after the end, player 0)."""
        if player is None:
            player = self.current_player if not self.over else 0
        if isinstance(player, bool) or not isinstance(player, (int, np.integer)) or not 0 <= player < self.players:
            raise ValueError(f"{self.env.name}: player must be an int in 0..{self.players - 1}, got {player!r}")
        return np.array(self.env.getPlayerState(self.array, int(player)), dtype=np.float64)

    def valid_actions(self, player: int | None = None) -> np.ndarray:
        """The valid-action vector of the player to move (all zeros once the game is over).

        ``player``: the actions ``player``'s own state allows, whoever is to move; in a round of
        simultaneous moves, the choices of a player whose turn in the round has not come yet.
        """
        if self.over:
            return np.zeros(self.n_actions, dtype=np.float64)
        if player is None:
            return np.asarray(self.env.getValidActions(self.env.getAgentState(self.array)), dtype=np.float64)
        return np.asarray(self.env.getValidActions(self.state(player)), dtype=np.float64)

    def valid_action_ids(self) -> list[int]:
        """The actions the player to move may play, as ids ([] once the game is over)."""
        return [int(a) for a in np.flatnonzero(self.valid_actions() == 1.0)]

    @property
    def outcome(self) -> Outcome | None:
        """Winners, per-player results and returns once the game is over (None before)."""
        if not self.over:
            return None
        if self._outcome is None:
            self.core.settle(self.array, self.truncated, self._winners, self._returns)
            self._outcome = outcome_of(self._winners, self._returns, self.truncated)
        return self._outcome

    # ---- moving -------------------------------------------------------------------------------
    def reseed(self) -> None:
        """Seed numba's generator from this match's own stream (``isolated`` matches; else nothing).

        Called before every move; call it also before a policy of your own that draws random
        numbers (``step_with`` does), so its draws are part of this match's reproducible stream."""
        if self._stream is not None:
            self.core.seed(int(self._stream.integers(2**32)))

    def step(self, action: Any, who: str | None = None) -> None:
        """Play ``action`` for the player to move (``who`` names them in error messages)."""
        self.reseed()
        if self.over:
            raise E.InvalidActionError(f"{self.env.name}: the game is over; no more actions can be played.")
        player = self.current_player
        assert player is not None  # the game is running
        name = who or f"player {player}"
        code = E.action_code(action, self.n_actions)
        if code != E.OK:
            valid = self.valid_actions()
            raise E.InvalidActionError(
                E.invalid_action_message(
                    self.env.name,
                    name,
                    action,
                    code,
                    self.n_actions,
                    valid,
                    self.env.describe_action,
                    where=f"at step {self.steps + 1}",
                )
            )
        before = self.array.copy()
        ctl = np.zeros(self.core.CTL_SIZE)  # py_step's control record: this game's steps and players
        ctl[self.core.CTL_STEPS], ctl[self.core.CTL_PLAYERS] = self.steps, self.players
        ok = self.core.py_step(float(action), self.array, ctl, E.ACTOR_AGENT, self._err, self._err_valid)
        if not ok:
            self.array[:] = before
            self._raise(lambda actor, p: name)
        self.history.append((int(player), int(action)))
        self.steps += 1
        self._status = self._read_status()

    def step_with(
        self, policy: Callable[[np.ndarray, Any], tuple[Any, Any]], data: Any, who: str | None = None
    ) -> tuple[int, Any]:
        """Ask ``policy(state, data)`` for the player to move's action and play it; returns (action, data)."""
        self.reseed()
        state = self.env.getAgentState(self.array)
        reply = policy(state, data)
        if not isinstance(reply, tuple) or len(reply) != 2:
            raise E.AgentError(
                f"{self.env.name}: {who or 'the policy'} returned {reply!r}; an agent must return (action, agent_data)"
            )
        action, data = reply
        self.step(action, who)
        return int(action), data

    def copy(self) -> Match:
        """An independent copy of this game (for search, or to try a move)."""
        return Match(self.env, _copy_of=self)

    def __repr__(self) -> str:
        where = "over" if self.over else f"player {self.current_player} to move"
        return f"<Match {self.env.name} step {self.steps}, {where}>"

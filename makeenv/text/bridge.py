"""Every array game as a text env: ``makeenv.make("TicTacToe-text")``.

The game is played by its referee (``makeenv.array.referee.Match``); this module only puts it into
words. A text player is told the state (the game's ``describe_state``, from its own seat), the
valid actions as ``[k] description`` and how to answer; its answer names one of them (``[3]``,
``3`` or the action's name). Seats no text player takes are played by the level's bots.

```python
env = makeenv.make("ConnectFour-text", level=1)   # text players against the level-1 bot
env.reset(num_players=1, seed=0)                  # one text player; its seat is drawn from the seed
done = False
while not done:
    player_id, observation = env.get_observation()
    done, info = env.step(agent(observation))
rewards, game_info = env.close()                  # rewards: the game's returns for each text player
```

An answer that names no valid action is an invalid move: the player is told why and answers
again; a second invalid answer in the same turn forfeits the game (the forfeiting player's reward
is -1 and every other text player's +1, whatever the game's returns would have been).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from makeenv.text.core import TextEnv, TextEnvError

FORFEIT_REWARD, FORFEIT_WINNER_REWARD = -1, 1
HOW_TO_ANSWER = (
    'Answer with one valid action: its number in brackets as listed (e.g. "[{example}]"), the '
    "number alone, or its description."
)


class AnswerError(ValueError):
    """A text answer that names no valid action (the message says why)."""


# ---------------------------------------------------------------------------------- answers

_NUMBER = re.compile(r"^\[?\s*(\d+)\s*\]?$")
_BRACKETED = re.compile(r"\[([^\[\]\n]{1,200})\]")
_EDGES = " \t\r\n\"'`.!"


def parse_answer(text: str, valid: Sequence[int], describe: Callable[[int], str], n_actions: int) -> int:
    """The valid action an answer names, or ``AnswerError`` saying why it names none.

    Accepted, in this order: the whole answer is an action number, bare or in brackets (``3``,
    ``[3]``); the whole answer is an action's description, case-insensitive, bare or in brackets;
    the answer holds bracketed choices (``I play [3].``, TextArena's convention) that all name the
    same valid action; the answer is part of exactly one valid action's description
    (``column 4``). A bare number always means the action number, never a description.
    """
    if not isinstance(text, str):
        raise AnswerError(f"an answer must be text, got {type(text).__name__}")
    answer = text.strip(_EDGES)
    if not answer:
        raise AnswerError("the answer is empty")
    names = {a: describe(a) for a in range(n_actions)}
    valid_set = set(valid)

    def resolve(token: str) -> int | None:
        """The valid action ``token`` names exactly; raises when it names an action not valid now."""
        token = token.strip(_EDGES)
        number = _NUMBER.match(token)
        if number:
            action = int(number.group(1))
            if action in valid_set:
                return action
            if action < n_actions:
                raise AnswerError(f"action {action} ({names[action]}) is not valid now")
            raise AnswerError(f"there is no action {action}: actions are numbered 0 to {n_actions - 1}")
        wanted = token.casefold()
        matches = [a for a in valid if names[a].casefold() == wanted]
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            raise AnswerError(
                f"{token!r} names several valid actions ({_listing(matches)}); answer with the number instead"
            )
        if any(name.casefold() == wanted for name in names.values()):
            raise AnswerError(f"{token!r} is not valid now")
        return None

    whole = resolve(answer[1:-1] if answer.startswith("[") and answer.endswith("]") else answer)
    if whole is not None:
        return whole
    chosen, problems = set(), []
    for token in _BRACKETED.findall(text):
        try:
            action = resolve(token)
        except AnswerError as error:
            problems.append(str(error))
            continue
        if action is not None:
            chosen.add(action)
    if len(chosen) == 1:
        return chosen.pop()
    if len(chosen) > 1:
        raise AnswerError(f"the answer names several actions ({_listing(sorted(chosen))}); give exactly one")
    if problems:
        raise AnswerError(problems[0])
    wanted = answer.casefold()
    if len(wanted) >= 3:
        partial = [a for a in valid if wanted in names[a].casefold()]
        if len(partial) == 1:
            return partial[0]
        if len(partial) > 1:
            raise AnswerError(
                f"{_shorten(answer)!r} fits several valid actions ({_listing(partial[:6])}"
                f"{', ...' if len(partial) > 6 else ''}); answer with the number in brackets"
            )
    raise AnswerError(f"{_shorten(answer)!r} names no valid action")


# ---------------------------------------------------------------------------------- the listing

VALID_ACTIONS_HEADER = "Valid actions:"
_LISTED_BLOCK = re.compile(rf"^{re.escape(VALID_ACTIONS_HEADER)}\n((?:\[\d+\] [^\n]*(?:\n|$))+)", re.MULTILINE)
_LISTED_LINE = re.compile(r"^\[(\d+)\] (.*)$", re.MULTILINE)


def list_valid_actions(valid: Sequence[int], describe: Callable[[int], str]) -> str:
    """The listing of a turn's valid actions a text player is shown: a header, then ``[k] description`` lines."""
    return VALID_ACTIONS_HEADER + "\n" + "\n".join(f"[{a}] {describe(a)}" for a in valid)


def listed_options(observation: str) -> list[dict[str, Any]]:
    """The answers the newest listing of ``observation`` (``list_valid_actions``) offers, in its order.

    Each as ``action_options`` gives them: ``{"answer": "[k]", "label": description, "action": k}``;
    ``[]`` when the observation lists none (a text env that asks for free text).
    """
    if not isinstance(observation, str):
        return []
    # from the end: an observation carries the whole game's history, a listing at every turn
    start = len(observation)
    while (start := observation.rfind(VALID_ACTIONS_HEADER, 0, start)) >= 0:
        block = _LISTED_BLOCK.match(observation, start)
        if block:
            return [
                {"answer": f"[{k}]", "label": label, "action": int(k)} for k, label in _LISTED_LINE.findall(block[1])
            ]
    return []


def _listing(actions: Sequence[int]) -> str:
    return ", ".join(f"[{a}]" for a in actions)


def _shorten(text: str, limit: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _signed(value: float) -> str:
    text = f"{value:g}"
    return f"+{text}" if value > 0 else text


# ---------------------------------------------------------------------------------- the env


class ArrayTextEnv(TextEnv):
    """An array game played in words by text players, the other seats by the game's bots.

    Args:
        game: a registered array game's name (``"TicTacToe"``) or an array env from ``make``.
        level: the bots' level in the seats no text player takes: one level for all, or
            ``{seat: level}``. Level 0 is random; ``env.bot_levels`` lists a game's levels.
        seats: the seat of each text player, in player-id order. Default: every seat when
            ``reset(num_players=...)`` asks for as many players as the game seats, otherwise
            seats drawn from reset's seed (so a series of seeds plays every side).
        retries: invalid answers a player may correct in one turn before it forfeits.
        history: True (TextArena's way): an observation is everything the player was told so far.
            False: the rules and what happened since the player's previous answer (the current
            state is described in full every turn), for models with a short context.
        **parameters: the game's own options (``players=3``), as for ``make``.

    Text player ids (``get_observation``, ``rewards``) count the text players; messages and the
    record name seats ("Player 1"). ``env.seats[player_id]`` is a text player's seat.
    """

    min_players = 1
    answer_hint = {
        "label": "Your move",
        "placeholder": "[3], 3 or an action's description",
        "button": "Play",
        "multiline": False,
    }

    def __init__(
        self,
        game: Any,
        level: int | Mapping[int, int] = 0,
        seats: Sequence[int] | None = None,
        retries: int = 1,
        history: bool = True,
        **parameters: Any,
    ):
        super().__init__()
        if isinstance(game, str):
            from makeenv.registry import REGISTRY, make

            spec = REGISTRY.get(game)
            if spec is not None and spec.kind != "array":
                raise ValueError(f"ArrayTextEnv: {game!r} is a {spec.kind} env, not an array game")
            game = make(game, **parameters)
        elif parameters:
            raise TypeError(
                f"ArrayTextEnv: game options {sorted(parameters)} go to make(); pass the game's "
                "name, or options only when the game is given by name"
            )
        if not callable(getattr(game, "new_match", None)):
            raise TypeError(f"ArrayTextEnv: game must be an array game's name or an array env, got {game!r}")
        if isinstance(retries, bool) or not isinstance(retries, int) or retries < 0:
            raise ValueError(f"ArrayTextEnv: retries must be an int >= 0, got {retries!r}")
        self.game = game
        self.max_players = int(game.players)
        self.retries = retries
        self.history = bool(history)
        self.level: int | dict[int, int] = 0
        self.fixed_seats: list[int] | None = None
        self.set_seats(seats, level)
        self._clear()

    @property
    def readme(self) -> str:
        """How the game is played in words, then the game's own README."""
        return (
            f"# {self.game.name} in words\n\n"
            "Each turn you are told the state from your side and the valid actions as `[k] description`. "
            "Answer with `[k]`, `k` or the description (click the picture or a button on this page). "
            "An invalid answer is explained and may be corrected once; a second one forfeits the game "
            f"(reward {FORFEIT_REWARD}, every other player {_signed(FORFEIT_WINNER_REWARD)}). Rewards are "
            "the game's returns.\n\n" + (self.game.readme or "")
        )

    # ----------------------------------------------------------------- seating
    @property
    def bot_levels(self) -> dict[int, str]:
        """The game's bot levels and what each plays (0 is random)."""
        return dict(self.game.levels)

    def set_seats(self, seats: Sequence[int] | None, level: int | Mapping[int, int] | None = None) -> None:
        """Choose the text players' seats (None: as ``reset`` decides) and the bots' level(s)."""
        players = self.max_players
        if seats is not None:
            seats = [int(s) if not isinstance(s, bool) and isinstance(s, int) else s for s in seats]
            if (
                not seats
                or len(set(seats)) != len(seats)
                or any(not isinstance(s, int) or not 0 <= s < players for s in seats)
            ):
                raise ValueError(
                    f"{self.game.name}: seats must be distinct seats from 0 to {players - 1}, "
                    f"one per text player, got {seats!r}"
                )
        if level is not None:
            levels = dict(level) if isinstance(level, Mapping) else {s: level for s in range(players)}
            for seat, value in levels.items():
                if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
                    raise ValueError(
                        f"{self.game.name}: a bot level was given for seat {seat!r}; seats are 0 to {players - 1}"
                    )
                self.game.opponents(value)  # checks the level (a clear error naming the game's levels)
            self.level = dict(level) if isinstance(level, Mapping) else level
        self.fixed_seats = seats

    def seat_bots(self, levels: Mapping[int, int]) -> list[int]:
        """Put the level's bot in each seat of ``{seat: level}``; text players take the other seats,
        in seat order. Returns those seats (text player id -> seat)."""
        taken = set(levels)
        text_seats = [s for s in range(self.max_players) if s not in taken]
        if not text_seats:
            raise ValueError(f"{self.game.name}: every seat has a bot; at least one seat must be a text player")
        self.set_seats(text_seats, dict(levels))
        return text_seats

    def _level_of(self, seat: int) -> int:
        return self.level.get(seat, 0) if isinstance(self.level, dict) else self.level

    @property
    def seat_count(self) -> int:
        return self.max_players

    @property
    def seats(self) -> list[int]:
        return list(self._seats)

    def seat_label(self, seat: int) -> str:
        """Who sits in ``seat``: "text player 0" or "level-2 bot (perfect)"."""
        if seat in self._bots:
            return self._bots[seat][2]
        if seat in self._seats:
            return f"text player {self._seats.index(seat)}"
        return "(not seated yet)"

    # ----------------------------------------------------------------- rules
    def _clear(self) -> None:
        self.match: Any = None
        self._seats: list[int] = []
        self._bots: dict[int, list[Any]] = {}  # seat -> [policy, data, label]
        self._strikes: dict[int, int] = {}
        self._since: dict[int, int] = {}  # player -> inbox length at its previous answer
        self.moves: list[dict[str, Any]] = []
        self.forfeit: dict[str, Any] | None = None
        self.result_text = ""
        self.final_board = ""  # the finished game's state in words, for spectators

    def _reset(self) -> None:
        self._clear()
        game, players, n = self.game, self.max_players, self.num_players
        if self.fixed_seats is not None:
            if len(self.fixed_seats) != n:
                raise ValueError(
                    f"{game.name}: {len(self.fixed_seats)} seats were chosen for text players "
                    f"({self.fixed_seats}) but reset asked for num_players={n}"
                )
            self._seats = list(self.fixed_seats)
        elif n == players:
            self._seats = list(range(players))
        else:
            self._seats = sorted(self.rng.sample(range(players), n))
        self._strikes = {p: 0 for p in range(n)}
        bot_seats = [s for s in range(players) if s not in self._seats]
        by_level: dict[int, list[int]] = {}
        for seat in bot_seats:
            by_level.setdefault(self._level_of(seat), []).append(seat)
        for level, seats in sorted(by_level.items()):
            bots = list(game.opponents(level))
            self.rng.shuffle(bots)  # a level of several bots seats them in a new order every game
            for seat, bot in zip(seats, bots):
                self._bots[seat] = [bot.policy, bot.initial_data(), f"level-{level} bot ({bot.label})"]
        self.match = game.new_match(self.seed, isolated=self.seed is not None)
        for player_id, seat in enumerate(self._seats):
            self.send(self._prompt(seat), to=player_id, kind="prompt")
        self._advance()

    def _prompt(self, seat: int) -> str:
        others = [
            f"Player {s}: " + ("another player" if s in self._seats else f"a {self.seat_label(s)}")
            for s in range(self.max_players)
            if s != seat
        ]
        options = "".join(f", {k}={v}" for k, v in self.game.parameters.items())
        return (
            f"[GAME] You are Player {seat} in {self.game.name} ({self.max_players} players{options}). "
            f"{'; '.join(others)}.\n"
            "[GAME] On your turn you are told the state from your side and the valid actions as "
            '"[k] description". ' + HOW_TO_ANSWER.format(example=0) + " An invalid answer is explained "
            "and you may answer once more; a second invalid answer in the same turn forfeits the game "
            f"(your reward {FORFEIT_REWARD}, every other player's {_signed(FORFEIT_WINNER_REWARD)})."
        )

    def _advance(self) -> None:
        """Let bots move until a text player is to move (tell it the state) or the game is over."""
        match = self.match
        while not match.over:
            if match.steps > self.game.max_steps:
                raise TextEnvError(f"{self.game.name}: no end after {match.steps} moves")
            seat = match.current_player
            if seat in self._seats:
                self.current_player = self._seats.index(seat)
                self.send(self._board(seat), to=self.current_player, kind="board")
                return
            policy, data, label = self._bots[seat]
            action, self._bots[seat][1] = match.step_with(policy, data, who=f"Player {seat} ({label})")
            self._announce(seat, int(action))
        self._end()

    def _board(self, seat: int) -> str:
        state = self.match.state(seat)
        valid = self.match.valid_action_ids()
        return (
            f"[GAME] Your turn (Player {seat}, move {self.match.steps + 1}).\n"
            f"{self.game.describe_state(state)}\n"
            f"{list_valid_actions(valid, self.game.describe_action)}\n" + HOW_TO_ANSWER.format(example=valid[0])
        )

    def _announce(self, seat: int, action: int) -> None:
        hidden = action in self.game.private_actions
        label = self.game.describe_action(action)
        self.moves.append(
            {
                "move": self.match.steps,
                "seat": seat,
                "by": self.seat_label(seat),
                "action": action,
                "label": label,
                "hidden": hidden,
            }
        )
        for player_id, player_seat in enumerate(self._seats):
            if player_seat == seat:
                text = f"[GAME] You played: {label}."
            elif hidden:
                text = f"[GAME] Player {seat} made a hidden choice."
            else:
                text = f"[GAME] Player {seat} played: {label}."
            self.send(text, to=player_id, kind="action")

    def get_observation(self, player_id: int | None = None) -> tuple[int, str]:
        player_id, text = super().get_observation(player_id)
        if self.history:
            return player_id, text
        messages = self.messages(player_id)
        since = self._since.get(player_id, 0)
        kept = [m for i, m in enumerate(messages) if m[1] == "prompt" or i >= since]
        return player_id, "\n".join(message for _sender, _kind, message in kept)

    def _step(self, player_id: int, action: str) -> dict[str, Any]:
        seat = self._seats[player_id]
        valid = self.match.valid_action_ids()
        try:
            chosen = parse_answer(action, valid, self.game.describe_action, self.match.n_actions)
        except AnswerError as error:
            return self._invalid(player_id, seat, action, str(error), valid)
        self._strikes[player_id] = 0
        self._since[player_id] = len(self._inbox[player_id])
        first = len(self.moves)
        self.match.step(chosen, who=f"Player {seat}")
        self._announce(seat, chosen)
        self._advance()
        # What a spectator may read: the moves this answer led to, hidden choices unnamed.
        lines = [
            f"Player {m['seat']}"
            + (f" ({m['by']})" if m["seat"] in self._bots else "")
            + (" made a hidden choice." if m["hidden"] and not self.done else f" played: {m['label']}.")
            for m in self.moves[first:]
        ]
        if self.done and self.forfeit is None:
            lines.append(self.final_board)
        if self.done:
            lines.append(self.result_text)
        return {"action": chosen, "label": self.game.describe_action(chosen), "message": "\n".join(lines)}

    def _invalid(self, player_id: int, seat: int, answer: str, reason: str, valid: Sequence[int]) -> dict[str, Any]:
        self._strikes[player_id] += 1
        if self._strikes[player_id] <= self.retries:
            left = self.retries - self._strikes[player_id] + 1
            message = (
                f"[GAME] Invalid move: {reason}. Valid actions: {_listing(valid)}. "
                f"Answer again ({left} more {'try' if left == 1 else 'tries'}; another invalid answer "
                "then forfeits the game)."
            )
            self.send(message, to=player_id, kind="admin")
            return {"invalid_move": True, "reason": reason, "message": message}
        others = [p for p in range(self.num_players) if p != player_id]
        rewards = {player_id: FORFEIT_REWARD, **{p: FORFEIT_WINNER_REWARD for p in others}}
        self.forfeit = {"player_id": player_id, "seat": seat, "answer": answer, "reason": reason}
        self.result_text = (
            f"[GAME] Player {seat} forfeits: a second invalid answer ({reason}). Its reward is "
            f"{FORFEIT_REWARD}" + (f", every other player's {_signed(FORFEIT_WINNER_REWARD)}." if others else ".")
        )
        self.send(self.result_text, kind="admin")
        self.finish(rewards, f"Player {seat} forfeits: {reason}.")
        return {"invalid_move": True, "reason": reason, "message": self.result_text, "forfeit": True}

    def _end(self) -> None:
        outcome = self.match.outcome
        players = range(self.max_players)
        if outcome.truncated:
            headline = f"No winner: the game reached its turn limit of {self.game.turn_limit} moves."
        elif not outcome.winners or len(outcome.winners) == self.max_players:
            headline = "The game is a draw." if not outcome.winners else "Everybody shares first place: a draw."
        elif len(outcome.winners) == 1:
            headline = f"Player {outcome.winners[0]} wins."
        else:
            headline = "Players " + " and ".join(str(w) for w in outcome.winners) + " share first place."
        returns = ", ".join(f"Player {s}: {_signed(outcome.returns[s])}" for s in players)
        lines = [f"[GAME] Game over. {headline} Returns: {returns}."]
        hidden = [m for m in self.moves if m["hidden"]]
        if hidden:
            lines.append(
                "[GAME] Hidden choices, now revealed: "
                + "; ".join(f"move {m['move']}, Player {m['seat']}: {m['label']}" for m in hidden)
                + "."
            )
        self.result_text = "\n".join(lines)
        self.send(self.result_text, kind="admin")
        views = {seat: self.game.describe_state(self.match.state(seat)) for seat in players}
        for player_id, seat in enumerate(self._seats):
            self.send(f"[GAME] Your final view:\n{views[seat]}", to=player_id, kind="board")
        if len(set(views.values())) == 1:
            self.final_board = f"[GAME] Final board:\n{views[0]}"
        else:  # hidden information: every seat's own view, now that the game is over
            self.final_board = "\n".join(f"[GAME] Final view of Player {seat}:\n{view}" for seat, view in views.items())
        rewards = {p: outcome.returns[seat] for p, seat in enumerate(self._seats)}
        self.finish(rewards, headline)

    # ----------------------------------------------------------------- views
    def get_board_str(self) -> str:
        if self.match is None:
            return f"{self.game.name}: not started (call reset)."
        lines = [
            f"{self.game.name}: " + "; ".join(f"Player {s}: {self.seat_label(s)}" for s in range(self.max_players))
        ]
        over = self.done or self.match.over
        for m in self.moves:
            label = "(hidden choice)" if m["hidden"] and not over else m["label"]
            lines.append(f"  {m['move']:>3}. Player {m['seat']}: {label}")
        if self.done:
            lines.append(f"Result: {self.reason}")
        else:
            lines.append(f"Player {self.match.current_player} to move.")
        return "\n".join(lines)

    def render(self, player_id: int) -> Any:
        """The game's own picture from ``player_id``'s seat (its clickable parts are action numbers)."""
        if self.match is None:
            return None
        return self.game.render(self.match.state(self._seats[player_id]))

    def action_options(self, player_id: int | None = None) -> list[dict[str, Any]]:
        if self.match is None or self.done or (player_id is not None and player_id != self.current_player):
            return []
        return [
            {"answer": f"[{a}]", "label": self.game.describe_action(a), "action": a}
            for a in self.match.valid_action_ids()
        ]

    def result_panel(self, player_id: int | None = None) -> list[dict[str, Any]]:
        if not self.done:
            return []
        blocks: list[dict[str, Any]] = []
        if self.forfeit is not None:
            blocks.append({"kind": "text", "title": "Forfeit", "text": self.result_text.removeprefix("[GAME] ")})
            return blocks
        outcome = self.match.outcome
        you = self._seats[player_id] if player_id is not None else None
        rows = [
            [
                f"Player {s}" + (" (you)" if s == you else ""),
                self.seat_label(s),
                outcome.results[s],
                _signed(outcome.returns[s]),
            ]
            for s in range(self.max_players)
        ]
        blocks.append(
            {
                "kind": "table",
                "title": f"Result: {self.reason}",
                "columns": ["Seat", "Played by", "Result", "Return"],
                "rows": rows,
            }
        )
        hidden = [m for m in self.moves if m["hidden"]]
        if hidden:
            blocks.append(
                {
                    "kind": "text",
                    "title": "Hidden choices",
                    "text": "\n".join(f"move {m['move']}, Player {m['seat']}: {m['label']}" for m in hidden),
                }
            )
        return blocks

    def _game_info(self) -> dict[str, Any]:
        outcome = self.match.outcome if self.match is not None and self.match.over else None
        return {
            "game": self.game.name,
            "parameters": dict(self.game.parameters),
            "seats": list(self._seats),
            "seated": {str(s): self.seat_label(s) for s in range(self.max_players)},
            "moves": list(self.moves),
            "forfeit": self.forfeit,
            "outcome": None
            if outcome is None
            else {
                "winners": list(outcome.winners),
                "results": list(outcome.results),
                "returns": list(outcome.returns),
                "truncated": outcome.truncated,
            },
            "result": self.result_text,
        }

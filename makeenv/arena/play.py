"""Playing one block: N games of one seating, on seeds derived from the block's seed.

Array games: when every seat is a compiled policy (numba agents, ``bot:LEVEL``, ``random``) the
games are played by the runner's ``play_seated`` (``makeenv.array.runner.make_plan``: the
table's first entrant is the plan's agent, the others its opponent slots; the seating only sets
who sits where), one compiled call for the whole block, and the first ``sample`` games are played through the referee
from Python (``Match``) with every move kept. A table with a plain Python policy is played through
``Match`` throughout. Text games are played turn by turn with ``makeenv.text.turns.ask``; every turn's
observation and answer is kept. An entrant that raises or answers invalidly forfeits that game: it
loses, everybody else wins, and the reason is recorded; the block goes on.
"""

from __future__ import annotations

import hashlib
import inspect
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from makeenv.arena.schedule import BlockResult, BlockSpec, GameRecord, game_seed

_ENVS: dict[tuple[str, str], Any] = {}  # (game, options) -> env, per process
_PLANS: dict[tuple[Any, ...], Any] = {}  # (game, options, table) -> (plan, policies, data)
_TEXT_AGENTS: dict[str, Any] = {}  # text spec -> agent (a local model is loaded once per process)


def game_env(game: str, options: dict[str, Any]) -> Any:
    """``makeenv.make(game, **options)``, built once per process."""
    import json

    from makeenv.registry import make

    key = (game, json.dumps(options, sort_keys=True))
    if key not in _ENVS:
        _ENVS[key] = make(game, **options)
    return _ENVS[key]


def game_kind(game: str) -> str:
    """ "array" or "text" for a registered id, a game folder, file or module (with -text: text)."""
    from makeenv.registry import find_spec

    spec = find_spec(game)
    return spec.kind if spec is not None else "array"


def _file_hash(*paths: Any) -> str:
    digest = hashlib.sha256()
    for path in paths:
        if path and Path(path).is_file():
            digest.update(Path(path).read_bytes())
        else:
            digest.update(str(path).encode())
    return digest.hexdigest()


def rules_hash(env: Any) -> str:
    """A hash of the game's rules: its logic.py (else its module's file), for text envs their class's file."""
    game = getattr(env, "game", env)  # an array game played in words: the array game's rules
    folder = getattr(game, "folder", None)
    if folder and (Path(folder) / "logic.py").is_file():
        return _file_hash(Path(folder) / "logic.py")
    module = getattr(game, "module", None) or inspect.getmodule(type(game))
    return _file_hash(getattr(module, "__file__", None) or type(game).__qualname__)


def array_policy(env: Any, spec: str) -> tuple[Any, Any]:
    """(policy, starting data) of an array entrant: ``bot:LEVEL``, ``random``, ``module:function``,
    ``file.py:function``."""
    from makeenv.array.agents import initial_agent_data, load_agent

    kind, _, rest = spec.partition(":")
    if kind == "bot":
        if not rest.isdigit():
            raise ValueError(f"entrant {spec!r}: expected bot:LEVEL with a level number, e.g. bot:1")
        bot = env.opponents(int(rest))[0]
        return bot.policy, bot.initial_data()
    agent = load_agent(spec)
    if agent == "random":
        return env.random_agent, np.zeros(1)
    return agent, initial_agent_data(agent)


def code_hash(env: Any, kind: str, spec: str) -> str:
    """A hash of an entrant's code and data (weights): the file its policy comes from for array
    agents and bots, the model file for ``local:PATH``, the spec itself otherwise (remote models)."""
    if kind == "array":
        policy, data = array_policy(env, spec)
        func = getattr(policy, "py_func", policy)
        try:
            source = inspect.getsourcefile(func)
        except TypeError:
            source = None
        digest = _file_hash(source or spec)
        return hashlib.sha256((digest + hashlib.sha256(np.asarray(data).tobytes()).hexdigest()).encode()).hexdigest()
    head, _, rest = spec.partition(":")
    return _file_hash(rest if head == "local" and rest else spec)


# ---- array games --------------------------------------------------------------------------------------


def _table_plan(spec: BlockSpec, env: Any) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """The runner plan of a table (None when a seat is played from Python), its policies and data."""
    from makeenv.array.agents import Bot
    from makeenv.array.runner import make_plan

    table = tuple(sorted(spec.specs))
    key = (spec.game, repr(sorted(spec.options.items())), tuple((name, spec.specs[name]) for name in table))
    if key not in _PLANS:
        resolved = {name: array_policy(env, spec.specs[name]) for name in table}
        policies = {name: policy for name, (policy, _) in resolved.items()}
        data = {name: d for name, (_, d) in resolved.items()}
        plan = make_plan(env, policies[table[0]], opponents=[Bot(policies[n], data[n], n) for n in table[1:]])
        _PLANS[key] = (None if plan.python_seats else plan, policies, data)
    return _PLANS[key]


def _forfeit(n: int, seat: int) -> tuple[str, list[float]]:
    return "".join("0" if s == seat else "1" for s in range(n)), [-1.0 if s == seat else 1.0 for s in range(n)]


def play_match(
    env: Any, seats: tuple[str, ...], policies: dict[str, Any], data: dict[str, Any], seed: int, index: int
) -> GameRecord:
    """One game through the referee from Python, every move kept (``replay`` plays it again)."""
    from makeenv.array.errors import raise_hidden_interrupt
    from makeenv.array.referee import Match

    match = Match(env, seed=seed, isolated=True)
    n = len(seats)
    while not match.over:
        player = match.current_player
        assert player is not None
        name = seats[player]
        try:
            _, data[name] = match.step_with(policies[name], data[name], who=name)
        except Exception as error:
            raise_hidden_interrupt(error)  # a Ctrl-C while numba compiled a policy is no forfeit
            winners, returns = _forfeit(n, player)
            reason = f"{name} (seat {player}) at move {match.steps + 1}: {type(error).__name__}: {error}"
            return GameRecord(index, seed, winners, returns, match.steps, False, reason, list(map(list, match.history)))
    outcome = match.outcome
    assert outcome is not None
    moves = [list(move) for move in match.history]
    return GameRecord(
        index, seed, winners_mask(outcome, n), list(outcome.returns), match.steps, outcome.truncated, None, moves
    )


def replay_match(
    env: Any, seed: int, moves: list[Any], on_move: Callable[[Any, int | None, int | None], None] | None = None
) -> Any:
    """Play a kept array game's moves ``[player, action]`` again from its seed through the referee
    (reseeding as ``step_with`` did before asking each policy); ``on_move(match, player, action)``
    at the start (player and action None) and after each move. Returns the ``Match``: over, with
    the stored outcome, unless the game was forfeited."""
    from makeenv.array.referee import Match

    match = Match(env, seed=seed, isolated=True)
    if on_move is not None:
        on_move(match, None, None)
    for player, action in moves:
        if match.current_player != player:
            raise ValueError(
                f"{env.name}: stored move {action} of player {player}, but player {match.current_player} is to move; "
                "was the game's logic.py changed since the game was stored?"
            )
        match.reseed()
        match.step(action)
        if on_move is not None:
            on_move(match, int(player), int(action))
    return match


def replay(game: str, options: dict[str, Any], seed: int, moves: list[Any]) -> Any:
    """Play a kept array game's moves again from its seed; returns the referee's ``Outcome``."""
    return replay_match(game_env(game, options), seed, moves).outcome


def winners_mask(outcome: Any, players: int) -> str:
    """The referee's outcome as a winners mask ("10": seat 0 won)."""
    return "".join("1" if s in outcome.winners else "0" for s in range(players))


def _play_compiled(spec: BlockSpec, env: Any, plan: Any, data: dict[str, Any], result: BlockResult) -> None:
    """Games ``spec.sample`` .. ``spec.games - 1`` of a block in one compiled call (``play_seated``)."""
    from makeenv.array.runner import bot_data_tuple, play_seated

    table = tuple(sorted(spec.specs))
    me = spec.seats.index(table[0])
    seat_slot = np.array([-1 if name == table[0] else table.index(name) - 1 for name in spec.seats], dtype=np.int64)
    bot_data = bot_data_tuple([data[name] for name in table[1:]])
    indices = range(spec.sample, spec.games)
    seeds = np.array([game_seed(spec.seed, g) for g in indices], dtype=np.int64)
    played = play_seated(plan, me, seat_slot, seeds, data[table[0]], bot_data)
    for row, (seat, error) in sorted(played.errors.items()):
        mask, returns = _forfeit(len(spec.seats), seat)
        reason = f"{spec.seats[seat]} (seat {seat}): {type(error).__name__}: {error}"
        result.add(GameRecord(indices[row], int(seeds[row]), mask, returns, 0, False, reason), keep=True)
    finished = np.ones(len(seeds), dtype=bool)
    finished[list(played.errors)] = False
    won = played.winners[finished] == 1.0
    # every finished game at once: its winners mask as the bits of a number, counted
    bits = won @ (1 << np.arange(won.shape[1] - 1, -1, -1))
    codes, counts = np.unique(bits, return_counts=True)
    width = len(spec.seats)
    patterns = {format(int(code), f"0{width}b"): int(count) for code, count in zip(codes, counts)}
    lengths = played.lengths[finished]
    # the referee ends a game at the game's TURN_LIMIT (0: none) unless it ended by itself first
    truncated = int((lengths >= env.turn_limit).sum()) if env.turn_limit > 0 else 0
    result.add_counts(patterns, played.returns[finished].sum(axis=0), int(lengths.sum()), truncated)
    data[table[0]] = played.agent_data


def _play_array(spec: BlockSpec, result: BlockResult) -> None:
    import copy

    env = game_env(spec.game, spec.options)
    plan, policies, data = _table_plan(spec, env)
    data = copy.deepcopy(data)  # every block starts from the entrants' own data
    for g in range(spec.sample if plan is not None else spec.games):
        result.add(play_match(env, spec.seats, policies, data, game_seed(spec.seed, g), g), keep=g < spec.sample)
    if plan is not None:
        from numba.core.errors import NumbaError

        from makeenv.array.errors import AgentError, GameCompileError

        try:
            _play_compiled(spec, env, plan, data, result)
        except (NumbaError, AgentError, GameCompileError):  # no compiled loop for these policies: from Python
            for g in range(result.played, spec.games):
                result.add(play_match(env, spec.seats, policies, data, game_seed(spec.seed, g), g), keep=False)


# ---- text games ---------------------------------------------------------------------------------------


def text_agent(spec: str) -> Any:
    """The text agent of a player SPEC (``makeenv.text.specs``), built once per process."""
    from makeenv.text.specs import parse_player_spec

    if spec == "human":
        raise ValueError("entrant 'human': a tournament has no person at the terminal; use an agent SPEC")
    if spec not in _TEXT_AGENTS:
        _TEXT_AGENTS[spec] = parse_player_spec(spec)
    return _TEXT_AGENTS[spec]


def _play_text(spec: BlockSpec, result: BlockResult) -> None:
    from makeenv.registry import make
    from makeenv.text.specs import BotSeat
    from makeenv.text.turns import ask

    env = make(spec.game, **spec.options)
    agents = {seat: text_agent(spec.specs[name]) for seat, name in enumerate(spec.seats)}
    bots = {seat: agent.level for seat, agent in agents.items() if isinstance(agent, BotSeat)}
    n = len(spec.seats)
    for g in range(spec.games):
        seed = game_seed(spec.seed, g)
        text_seats = env.seat_bots(bots) if bots else list(range(n))
        env.reset(num_players=len(text_seats), seed=seed)
        seats = list(getattr(env, "seats", text_seats))
        turns: list[dict[str, Any]] = []
        forfeit: tuple[int, str] | None = None
        done = False
        while not done:
            player_id, observation = env.get_observation()
            seat = seats[player_id]
            try:
                answer = ask(agents[seat], env, observation, player_id)
            except Exception as error:
                forfeit = (seat, f"{spec.seats[seat]} (seat {seat}) raised {type(error).__name__}: {error}")
                turns.append({"seat": seat, "observation": observation, "answer": None, "error": str(error)})
                break
            turns.append({"seat": seat, "observation": observation, "answer": answer})
            done, _info = env.step(answer)
        rewards, info = env.close()
        outcome = info.get("outcome") if isinstance(info, dict) else None
        lost = info.get("forfeit") if isinstance(info, dict) else None
        if forfeit is None and isinstance(lost, dict) and isinstance(lost.get("seat"), int):
            seat = lost["seat"]
            forfeit = (seat, f"{spec.seats[seat]} (seat {seat}) forfeited: {lost.get('reason')}")
        if forfeit is not None:
            mask, returns = _forfeit(n, forfeit[0])
        elif outcome:
            mask = "".join("1" if s in outcome["winners"] else "0" for s in range(n))
            returns = [float(r) for r in outcome["returns"]]
        else:
            by_seat = [float(rewards.get(seats.index(s), 0.0)) if s in seats else 0.0 for s in range(n)]
            best = max(by_seat)
            mask = "".join("1" if r == best else "0" for r in by_seat)
            returns = by_seat
        record = GameRecord(g, seed, mask, returns, len(turns), False, forfeit[1] if forfeit else None, turns)
        result.add(record, keep=True)


def play_block(spec: BlockSpec) -> BlockResult:
    """Play one block and return its counts and kept games."""
    result = BlockResult(spec)
    started = time.perf_counter()
    (_play_array if spec.kind == "array" else _play_text)(spec, result)
    result.seconds = time.perf_counter() - started
    return result


PlayBlock = Callable[[BlockSpec], BlockResult]

"""The classic games replayed against OpenSpiel, their independent implementation: one replay loop
(``replay``) and a table (``REPLAYS``) saying, per game, OpenSpiel's name and parameters, how
OpenSpiel's chance outcomes become our env, how our actions map to OpenSpiel's and how our states
correspond to OpenSpiel's."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from makeenv.games.breakthrough import logic as BT
from makeenv.games.connect_four import logic as C4
from makeenv.games.goofspiel import logic as GS
from makeenv.games.hex import logic as HX
from makeenv.games.kuhn_poker import logic as KP
from makeenv.games.leduc_poker import logic as LP
from makeenv.games.liars_dice import logic as LD
from makeenv.games.tic_tac_toe import logic as TTT
from tests.games.support import game_env

#: one state check: (our env, OpenSpiel's state, the joint moves played so far, the game's index)
StateCheck = Callable[[np.ndarray, Any, list, int], None]


@dataclass(frozen=True)
class Replay:
    """How one of our games is replayed against OpenSpiel."""

    game: str  # our registered id
    openspiel: str  # OpenSpiel's game name
    games: int  # random games replayed
    seed: int
    options: dict = field(default_factory=dict)  # our make() options
    params: dict = field(default_factory=dict)  # OpenSpiel's load_game parameters
    deal: Callable[[random.Random], tuple[np.ndarray, list[int]]] | None = None
    """A new env and OpenSpiel's chance outcomes dealing the same (in OpenSpiel's order); None: initEnv()."""
    to_openspiel: Callable[[int, np.ndarray], int] = lambda action, env: action
    """OpenSpiel's id of our action for the player to move in env."""
    check_states: StateCheck | None = None
    """Called at every node (after chance) while the game runs and once at its end."""
    valid_every: int = 1  # isValidAction agrees with getValidActions in every k-th game
    sample: str | None = None  # "env": sampleEnv(state) is the env; "state": it shows the same state
    infosets: Callable[[int], bool] | None = None
    """Our states and OpenSpiel's information states correspond one to one; the count seen is right."""

    @property
    def id(self) -> str:
        return self.game + "".join(f"-{k}={v}" for k, v in self.options.items())


def replay(spec: Replay, pyspiel: Any) -> None:
    """Replay ``spec.games`` random games in OpenSpiel and our env side by side and compare every
    step: running or over, the player(s) to move, valid actions (also through isValidAction), the
    states (``spec.check_states``), sampled envs, and at the end winners, returns and rewards; the
    final state offers action 0 alone (the final turn)."""
    os_game = pyspiel.load_game(spec.openspiel, spec.params)
    env_object = game_env(spec.game, **spec.options)
    logic, players = env_object, env_object.players
    n = int(logic.getActionSize())
    rng = random.Random(spec.seed)
    ours_to_theirs: dict[bytes, str] = {}
    theirs_to_ours: dict[str, bytes] = {}
    for game in range(spec.games):
        env, chance = spec.deal(rng) if spec.deal else (logic.initEnv(), [])
        chance_outcomes = iter(chance)
        os_state = os_game.new_initial_state()
        moves: list[list[int]] = []
        while True:
            while os_state.is_chance_node():
                os_state.apply_action(next(chance_outcomes))
            if spec.check_states:
                spec.check_states(env, os_state, moves, game)
            if os_state.is_terminal():
                break
            seats = range(players) if os_state.is_simultaneous_node() else [os_state.current_player()]
            joint = []
            for seat in seats:
                assert logic.checkEnded(env) == -1
                assert logic.getCurrentPlayer(env) == seat
                state = logic.getAgentState(env)
                ours = [int(a) for a in np.flatnonzero(logic.getValidActions(state))]
                assert [spec.to_openspiel(a, env) for a in ours] == os_state.legal_actions(seat), moves
                if game % spec.valid_every == 0:
                    assert [a for a in range(-1, n + 1) if logic.isValidAction(state, a)] == ours
                if spec.sample == "env":
                    np.testing.assert_array_equal(logic.sampleEnv(state), env)
                elif spec.sample == "state":
                    np.testing.assert_array_equal(logic.getAgentState(logic.sampleEnv(state)), state)
                if spec.infosets:
                    key, info = state.tobytes(), os_state.information_state_string(seat)
                    assert ours_to_theirs.setdefault(key, info) == info, f"one state, two OpenSpiel infosets: {moves}"
                    assert theirs_to_ours.setdefault(info, key) == key, f"one OpenSpiel infoset, two states: {moves}"
                action = rng.choice(ours)
                joint.append(spec.to_openspiel(action, env))
                logic.stepEnv(action, env)
            moves.append(joint)
            if os_state.is_simultaneous_node():
                os_state.apply_actions(joint)
            else:
                os_state.apply_action(joint[0])
        returns = os_state.returns()
        if logic.getReturns is not None:
            np.testing.assert_array_equal(logic.getReturns(env), returns)
        winners = [p for p in range(players) if returns[p] > 0]
        assert logic.checkEnded(env) == (winners[0] if len(winners) == 1 else players)
        for p in range(players):
            final = logic.getPlayerState(env, p)
            assert logic.getReward(final) == int(returns[p] > 0)
            assert list(np.flatnonzero(logic.getValidActions(final))) == [0]
    if spec.infosets:
        assert spec.infosets(len(ours_to_theirs)), f"{len(ours_to_theirs)} information states met"


# ---- TicTacToe, ConnectFour: OpenSpiel's observation planes ------------------------------------


def board_planes_check(logic: Any, cells: int, planes: Callable[[np.ndarray, int], tuple], every: int) -> StateCheck:
    """Both seats' states built from OpenSpiel's observation tensor (three planes of ``cells``),
    ``planes(tensor, seat)`` giving (my marks, theirs), in every ``every``-th game."""

    def check(env: np.ndarray, os_state: Any, moves: list, game: int) -> None:
        if game % every:
            return
        over, returns = os_state.is_terminal(), os_state.returns()
        for seat in (0, 1):
            mine, theirs = planes(np.asarray(os_state.observation_tensor(seat)).reshape(3, cells), seat)
            flags = [
                float(not over and os_state.current_player() == seat),
                float(seat == 0),
                float(over),
                float(over and returns[seat] > 0),
                float(over and returns[seat] < 0),
            ]
            np.testing.assert_array_equal(logic.getPlayerState(env, seat), np.concatenate([mine, theirs, flags]))

    return check


def tic_tac_toe_planes(planes: np.ndarray, seat: int) -> tuple:
    """Planes: empty, O, X; player 0 plays X."""
    x_marks, o_marks = planes[2], planes[1]
    return (x_marks, o_marks) if seat == 0 else (o_marks, x_marks)


def connect_four_planes(planes: np.ndarray, seat: int) -> tuple:
    """Planes: player 0, player 1, empty; cell row * 7 + column, row 0 at the bottom (as ours)."""
    return planes[seat], planes[1 - seat]


# ---- Breakthrough ----------------------------------------------------------------------------------


def breakthrough_action(action: int, env: np.ndarray) -> int:
    """OpenSpiel's id of our ``action`` for the player to move in ``env``:
    2 * (square * 6 + direction) + capture, directions 0..2 Black's and 3..5 White's."""
    player = BT.getCurrentPlayer(env)
    square, step = divmod(action, BT.NUM_STEPS)
    target = BT.TARGET[player, action]
    capture = int(env[BT.E_BOARD + target] not in (BT.EMPTY, BT.BLACK_PIECE + player))
    return 2 * (square * 6 + 3 * player + step) + capture


def breakthrough_states(env: np.ndarray, os_state: Any, moves: list, game: int) -> None:
    """Both seats' states from OpenSpiel's view (planes black, white, empty; square row * 8 + col),
    in a tenth of the games."""
    if game % 10:
        return
    over, returns, history = os_state.is_terminal(), os_state.returns(), os_state.history()
    last_from = last_to = 0.0
    if history:
        square, direction = divmod(history[-1] // 2, 6)
        last_from = square + 1.0
        last_to = square + (1 if direction < 3 else -1) * 8 + (direction % 3 - 1) + 1.0
    for seat in (0, 1):
        planes = np.asarray(os_state.observation_tensor(seat)).reshape(3, 64)
        board = 1.0 * planes[seat] + 2.0 * planes[1 - seat]
        flags = [
            float(seat),
            float(not over and os_state.current_player() == seat),
            float(over),
            float(over and returns[seat] > 0),
            float(over and returns[seat] < 0),
            planes[seat].sum(),
            planes[1 - seat].sum(),
            float(len(history)),
            last_from,
            last_to,
        ]
        np.testing.assert_array_equal(BT.getPlayerState(env, seat), np.concatenate([board, flags]))


# ---- Hex ---------------------------------------------------------------------------------------------


def hex_states(env: np.ndarray, os_state: Any, moves: list, game: int) -> None:
    """Both seats' states from OpenSpiel's board string ("x" Black, "o" White, "." empty), at
    every step of a twentieth of the games."""
    if game % 20:
        return
    over, returns, history = os_state.is_terminal(), os_state.returns(), os_state.history()
    for seat in (0, 1):
        marks = os_state.observation_string(seat).split()
        mine, theirs = ("x", "o") if seat == 0 else ("o", "x")
        board = [1.0 if m == mine else 2.0 if m == theirs else 0.0 for m in marks]
        flags = [
            float(seat),
            float(not over and os_state.current_player() == seat),
            float(over),
            float(over and returns[seat] > 0),
            float(over and returns[seat] < 0),
            float(len(history)),
            history[-1] + 1.0 if history else 0.0,
        ]
        np.testing.assert_array_equal(HX.getPlayerState(env, seat), np.array(board + flags))


# ---- Goofspiel -----------------------------------------------------------------------------------


def goofspiel_deal(rng: random.Random) -> tuple[np.ndarray, list[int]]:
    """The prize cards in a random order, written into a new env; OpenSpiel's chance nodes deal them."""
    order = list(range(13))
    rng.shuffle(order)
    env = GS.initEnv()
    env[GS.E_PRIZES : GS.E_PRIZES + 13] = order
    return env, order


def goofspiel_table(os_state: Any) -> dict:
    """OpenSpiel's hands, prize sequence and points, read from its state's text."""
    lines = dict(line.split(":", 1) for line in str(os_state).strip().splitlines())
    cards = {key: [int(v) for v in value.split()] for key, value in lines.items()}
    return {
        "hands": (cards["P0 hand"], cards["P1 hand"]),
        "prizes": cards["Point card sequence"],
        "points": cards["Points"],
    }


def goofspiel_states(env: np.ndarray, os_state: Any, moves: list, game: int) -> None:
    """At the start of each round both states show OpenSpiel's hands, prizes, points and the bids
    so far; OpenSpiel plays the 13th round by itself with the last cards, and so do we."""
    table = goofspiel_table(os_state)
    bids = [tuple(joint) for joint in moves]
    if os_state.is_terminal():
        bids.append(tuple(next(c for c in range(13) if c not in {b[p] for b in bids}) for p in (0, 1)))
        assert len(bids) == 13

    def cards(state: np.ndarray, start: int) -> list[int]:
        return [k + 1 for k in range(13) if state[start + k] == 1.0]

    for seat in (0, 1):
        state = GS.getPlayerState(env, seat)
        assert cards(state, GS.S_HAND) == table["hands"][seat]
        assert cards(state, GS.S_THEIR_HAND) == table["hands"][1 - seat]
        assert [state[GS.S_POINTS], state[GS.S_THEIR_POINTS]] == [table["points"][seat], table["points"][1 - seat]]
        rounds = len(bids)
        assert state[GS.S_ROUND] == rounds
        if rounds < 13:
            assert cards(state, GS.S_PRIZE) == [table["prizes"][rounds]]
            assert cards(state, GS.S_DECK) == sorted(set(range(1, 14)) - set(table["prizes"][: rounds + 1]))
        for r, (b0, b1) in enumerate(bids):
            mine, theirs = (b0, b1) if seat == 0 else (b1, b0)
            assert list(state[GS.S_HISTORY + 3 * r : GS.S_HISTORY + 3 * r + 3]) == [
                table["prizes"][r],
                mine + 1,
                theirs + 1,
            ]


# ---- LiarsDice -----------------------------------------------------------------------------------


def liars_dice_deal(dice: int) -> Callable[[random.Random], tuple[np.ndarray, list[int]]]:
    """Random rolls (OpenSpiel's chance outcomes: player 0's dice, then player 1's) written into a
    new env, each player's faces sorted."""

    def deal(rng: random.Random) -> tuple[np.ndarray, list[int]]:
        rolls = [rng.randrange(6) for _ in range(2 * dice)]
        env = LD.initEnv(dice)
        for p in range(2):
            for i, face in enumerate(sorted(a + 1 for a in rolls[p * dice : (p + 1) * dice])):
                env[LD.E_DICE + LD.MAX_DICE * p + i] = face
        return env, rolls

    return deal


def liars_dice_states(dice: int) -> StateCheck:
    """My dice and the bids are OpenSpiel's information state; the opponent's dice stay hidden
    until the end and are OpenSpiel's then."""

    def check(env: np.ndarray, os_state: Any, moves: list, game: int) -> None:
        for seat in (0, 1):
            state = LD.getPlayerState(env, seat)
            tensor = np.asarray(os_state.information_state_tensor(seat))
            np.testing.assert_array_equal(
                state[LD.S_MY_DICE : LD.S_MY_DICE + 6], tensor[2 : 2 + 6 * dice].reshape(dice, 6).sum(axis=0)
            )
            made = np.flatnonzero(state[LD.S_BIDS : LD.S_BIDS + LD.NUM_BIDS])
            assert list(made) == list(np.flatnonzero(tensor[2 + 6 * dice : 2 + 6 * dice + 12 * dice]))
            for k, bid in enumerate(made):  # bids alternate, player 0 first
                assert state[LD.S_BIDS + bid] == (LD.MINE if k % 2 == seat else LD.THEIRS)
            shown = state[LD.S_THEIR_DICE : LD.S_THEIR_DICE + 6]
            if os_state.is_terminal():
                their = np.asarray(os_state.information_state_tensor(1 - seat))[2 : 2 + 6 * dice]
                np.testing.assert_array_equal(shown, their.reshape(dice, 6).sum(axis=0))
            else:
                assert not shown.any()

    return check


def liars_dice(dice: int) -> Replay:
    os_liar = 12 * dice  # OpenSpiel's Liar action; ours is LIAR whatever the dice
    return Replay(
        "LiarsDice",
        "liars_dice",
        games=1500 if dice == 1 else 500,
        seed=100 + dice,
        options={"dice": dice},
        params={"numdice": dice},
        deal=liars_dice_deal(dice),
        to_openspiel=lambda action, env: os_liar if action == LD.LIAR else action,
        check_states=liars_dice_states(dice),
        sample="state",
    )


# ---- the poker games: OpenSpiel's chance outcomes are the cards --------------------------------


def kuhn_deal(rng: random.Random) -> tuple[np.ndarray, list[int]]:
    """Player 0's card, player 1's, per the README layout."""
    cards = rng.sample(range(3), 2)
    env = KP.initEnv()
    env[KP.E_CARD], env[KP.E_CARD + 1] = cards
    return env, cards


def leduc_deal(rng: random.Random) -> tuple[np.ndarray, list[int]]:
    """The private cards and the public card (OpenSpiel deals it only if the hand gets there)."""
    cards = rng.sample(range(6), 3)
    env = LP.initEnv()
    env[LP.E_CARD], env[LP.E_CARD + 1], env[LP.E_PUBLIC] = cards
    return env, cards


REPLAYS: tuple[Replay, ...] = (
    Replay(
        "TicTacToe",
        "tic_tac_toe",
        games=2000,
        seed=2024,
        sample="env",
        check_states=board_planes_check(TTT, 9, tic_tac_toe_planes, every=1),
    ),
    Replay(
        "ConnectFour",
        "connect_four",
        games=2000,
        seed=2024,
        check_states=board_planes_check(C4, 42, connect_four_planes, every=4),
    ),
    Replay(
        "Breakthrough",
        "breakthrough",
        games=1000,
        seed=2024,
        to_openspiel=breakthrough_action,
        check_states=breakthrough_states,
        valid_every=10,
    ),
    Replay("Hex", "hex", games=700, seed=2024, check_states=hex_states, valid_every=20),
    Replay(
        "Goofspiel",
        "goofspiel",
        games=1000,
        seed=2024,
        deal=goofspiel_deal,
        check_states=goofspiel_states,
        sample="state",
    ),
    *(liars_dice(dice) for dice in (1, 2, 3, 5)),
    Replay("KuhnPoker", "kuhn_poker", games=3000, seed=7, deal=kuhn_deal, infosets=lambda n: n == 12),
    Replay("LeducPoker", "leduc_poker", games=3000, seed=7, deal=leduc_deal, infosets=lambda n: n > 600),
)

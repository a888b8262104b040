"""SushiGo: the rules, as numba functions over flat float64 arrays.

2 to 5 players draft sushi cards over three rounds. Each player is dealt a hand of ``12 - players``
cards; every turn each player takes one card from the hand they hold and passes the rest to the
next player (seat p passes to seat p + 1). When the hands are empty the round is scored; after
the third round puddings are scored and the highest total wins (ties: most puddings, then a
shared first place).

Moves are hidden: within a turn the players move in seat order, but nobody's state shows what
another player took until every player has moved and the turn is revealed. A player with
Chopsticks on the table may play "Use chopsticks" and then take two cards; the Chopsticks card
goes back into the hand they pass on.

The scoring follows the vis/ENV library (github.com/ngoxuanphong/ENV, ``src/Base/SushiGo``),
including where it differs from the printed rules; README.md lists those points.
The array layouts are documented in README.md and beside the constants below.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# ---- cards (the action k < 12 takes a card of kind k) -----------------------------------------
TEMPURA, SASHIMI, DUMPLING, MAKI1, MAKI2, MAKI3 = 0, 1, 2, 3, 4, 5
SALMON, SQUID, EGG, PUDDING, WASABI, CHOPSTICKS = 6, 7, 8, 9, 10, 11
NUM_KINDS = 12
CARD_NAMES = (
    "Tempura",
    "Sashimi",
    "Dumpling",
    "1 Maki Roll",
    "2 Maki Rolls",
    "3 Maki Rolls",
    "Salmon Nigiri",
    "Squid Nigiri",
    "Egg Nigiri",
    "Pudding",
    "Wasabi",
    "Chopsticks",
)
CARD_COUNTS = np.array([14, 14, 14, 6, 12, 8, 10, 5, 5, 10, 6, 4], dtype=np.int64)
DECK_SIZE = 108
DUMPLING_POINTS = np.array([0, 1, 3, 6, 10, 15], dtype=np.int64)

# ---- actions -----------------------------------------------------------------------------------
USE_CHOPSTICKS = 12  # then take two cards this turn
END_TURN = 13  # the only action at the final turn
NUM_ACTIONS = 14
ACTION_NAMES = tuple(f"Take {name}" for name in CARD_NAMES) + ("Use chopsticks", "End turn")

MIN_PLAYERS, MAX_PLAYERS = 2, 5
DEFAULT_PLAYERS = 5
NUM_ROUNDS = 3

# ---- env: the referee's view (length ENV_SIZE) -------------------------------------------------
E_PLAYERS = 0  # number of players n (2..5); a hand holds 12 - n cards when dealt
E_ROUND = 1  # round 1..3
E_TURN = 2  # turn within the round, 1..12 - n
E_TO_MOVE = 3  # the player to move
E_PICKS_LEFT = 4  # cards the player to move still takes this turn (1, or 2 after Use chopsticks)
E_RESULT = 5  # what checkEnded returns: -1 running, the sole winner, or n (shared first place)
E_DEALT = 6  # cards dealt from the deck so far
E_EARLIER = 7  # 12 counts: cards of the rounds scored so far (all players)
E_DECK = 19  # 108 card kinds in dealing order
E_HANDS = 127  # 5 hands x 12 counts; hand h is held by player (h + turn - 1) mod n
P_POINTS = 0  # per player block: points from cards and maki (puddings scored apart)
P_PUDDINGS = 1  # puddings collected in all rounds
P_PUDDING_WON = 2  # points for the most puddings (set at the end)
P_PUDDING_LOST = 3  # points lost for the fewest puddings (set at the end)
P_WINNER = 4  # 1 for a winner (sole or shared), set at the end
P_CHOPSTICKS = 5  # 1 when the player uses chopsticks this turn (hidden until the reveal)
P_TABLE = 6  # 12 counts: cards on the player's table this round (revealed; kept at the end)
P_PICKED = 18  # 12 counts: cards taken this turn, hidden until the reveal
PLAYER_BLOCK = 30
E_PLAYER = 187  # 5 player blocks
ENV_SIZE = E_PLAYER + MAX_PLAYERS * PLAYER_BLOCK  # 337

# ---- state: one player's view (length STATE_SIZE); every value is >= 0 ------------------------
S_PLAYERS = 0  # number of players n
S_SEAT = 1  # my seat 0..n-1 (seats move in this order within a turn)
S_ROUND = 2  # round 1..3
S_TURN = 3  # turn within the round, 1..12 - n
S_PICKS_LEFT = 4  # cards I still take this turn (0 when my move is done)
S_CHOPSTICKS = 5  # 1 when I use chopsticks this turn
S_OVER = 6  # 1 when the game is over
S_WON = 7  # 1 when I am a winner (sole or shared, not everybody)
S_HAND = 8  # 12 counts: the cards I can still take from my hand this turn
S_PICKED = 20  # 12 counts: the cards I took this turn (not revealed yet)
S_EARLIER = 32  # 12 counts: cards of the rounds scored so far (all players)
S_SEATS = 44  # 5 seat blocks: me, then the next players in passing order
B_PRESENT = 0  # 1 when the seat is in the game
B_POINTS = 1  # points from cards and maki
B_PUDDINGS = 2  # puddings collected
B_PUDDING_WON = 3  # points for the most puddings (at the end)
B_PUDDING_LOST = 4  # points lost for the fewest puddings (at the end)
B_WINNER = 5  # 1 for a winner (at the end)
B_TABLE = 6  # 12 counts: the seat's table this round, as revealed (kept at the end)
B_HAND_KNOWN = 18  # 1 when I know the hand the seat holds (I held it earlier this round)
B_HAND = 19  # 12 counts: that hand at the start of this turn (0 when unknown)
SEAT_BLOCK = 31
STATE_SIZE = S_SEATS + MAX_PLAYERS * SEAT_BLOCK  # 199


@njit(cache=True)
def getActionSize() -> int:
    return NUM_ACTIONS


@njit(cache=True)
def getStateSize() -> int:
    return STATE_SIZE


@njit(cache=True)
def getAgentSize() -> int:
    """The default number of players (``make("SushiGo", players=n)`` chooses another)."""
    return DEFAULT_PLAYERS


@njit(cache=True)
def hand_size(players) -> int:
    """Cards in a hand when it is dealt: 10, 9, 8 or 7 for 2, 3, 4 or 5 players."""
    return 12 - players


@njit(cache=True)
def hand_index(env, player) -> int:
    """Index of the hand ``player`` holds this turn (hands move to the next seat every turn)."""
    n = int(env[E_PLAYERS])
    return (player - int(env[E_TURN]) + 1 + 10 * n) % n


@njit(cache=True)
def player_base(player) -> int:
    return E_PLAYER + player * PLAYER_BLOCK


@njit(cache=True)
def deal_round(env):
    """Clear the tables and deal the next round's hands from the deck."""
    n = int(env[E_PLAYERS])
    size = hand_size(n)
    dealt = int(env[E_DEALT])
    for p in range(n):
        for k in range(NUM_KINDS):
            env[player_base(p) + P_TABLE + k] = 0.0
    for h in range(n):
        base = E_HANDS + h * NUM_KINDS
        for k in range(NUM_KINDS):
            env[base + k] = 0.0
        for _ in range(size):
            env[base + int(env[E_DECK + dealt])] += 1.0
            dealt += 1
    env[E_DEALT] = dealt


@njit(cache=True)
def initEnv(players=DEFAULT_PLAYERS):
    """A new game for ``players`` (2..5) players: the deck shuffled, the first hands dealt."""
    n = min(max(int(players), MIN_PLAYERS), MAX_PLAYERS)
    env = np.zeros(ENV_SIZE, dtype=np.float64)
    env[E_PLAYERS] = n
    env[E_ROUND] = 1.0
    env[E_TURN] = 1.0
    env[E_PICKS_LEFT] = 1.0
    env[E_RESULT] = -1.0
    i = 0
    for k in range(NUM_KINDS):
        for _ in range(CARD_COUNTS[k]):
            env[E_DECK + i] = k
            i += 1
    for i in range(DECK_SIZE - 1, 0, -1):  # Fisher-Yates
        j = int(np.random.random() * (i + 1))
        card = env[E_DECK + i]
        env[E_DECK + i] = env[E_DECK + j]
        env[E_DECK + j] = card
    deal_round(env)
    return env


@njit(cache=True)
def getCurrentPlayer(env) -> int:
    return int(env[E_TO_MOVE])


@njit(cache=True)
def getPlayerState(env, player):
    n = int(env[E_PLAYERS])
    turn = int(env[E_TURN])
    state = np.zeros(STATE_SIZE, dtype=np.float64)
    state[S_PLAYERS] = n
    state[S_SEAT] = player
    state[S_ROUND] = env[E_ROUND]
    state[S_TURN] = turn
    over = env[E_RESULT] >= 0.0
    to_move = int(env[E_TO_MOVE])
    me = player_base(player)
    if not over:
        if player == to_move:
            state[S_PICKS_LEFT] = env[E_PICKS_LEFT]
        elif player > to_move:
            state[S_PICKS_LEFT] = 1.0
    state[S_CHOPSTICKS] = env[me + P_CHOPSTICKS]
    if over:
        state[S_OVER] = 1.0
        # a first place shared by everybody is a draw, not a win
        winners = 0.0
        for p in range(n):
            winners += env[player_base(p) + P_WINNER]
        state[S_WON] = env[me + P_WINNER] if winners < n else 0.0
    my_hand = E_HANDS + hand_index(env, player) * NUM_KINDS
    for k in range(NUM_KINDS):
        state[S_HAND + k] = env[my_hand + k]
        state[S_PICKED + k] = env[me + P_PICKED + k]
        state[S_EARLIER + k] = env[E_EARLIER + k]
    for rel in range(n):
        seat = (player + rel) % n
        src = player_base(seat)
        dst = S_SEATS + rel * SEAT_BLOCK
        state[dst + B_PRESENT] = 1.0
        state[dst + B_POINTS] = env[src + P_POINTS]
        state[dst + B_PUDDINGS] = env[src + P_PUDDINGS]
        state[dst + B_PUDDING_WON] = env[src + P_PUDDING_WON]
        state[dst + B_PUDDING_LOST] = env[src + P_PUDDING_LOST]
        state[dst + B_WINNER] = env[src + P_WINNER]
        for k in range(NUM_KINDS):
            state[dst + B_TABLE + k] = env[src + P_TABLE + k]
        # I held the hand of the seat ``rel`` places on ``rel`` turns ago, if this round is that old
        if rel < turn and not over:
            state[dst + B_HAND_KNOWN] = 1.0
            hand = E_HANDS + hand_index(env, seat) * NUM_KINDS
            for k in range(NUM_KINDS):
                # the hand as it was at the start of this turn: its holder's hidden picks put back
                state[dst + B_HAND + k] = env[hand + k] + env[src + P_PICKED + k]
    return state


@njit(cache=True)
def getAgentState(env):
    return getPlayerState(env, int(env[E_TO_MOVE]))


@njit(cache=True)
def isValidAction(state, action) -> bool:
    if action < 0 or action >= NUM_ACTIONS:
        return False
    if state[S_OVER] > 0.5:
        return action == END_TURN
    if state[S_PICKS_LEFT] < 0.5:
        return False
    if action < NUM_KINDS:
        return state[S_HAND + action] > 0.5
    if action == USE_CHOPSTICKS:
        if state[S_CHOPSTICKS] > 0.5 or state[S_PICKS_LEFT] > 1.5:
            return False
        if state[S_SEATS + B_TABLE + CHOPSTICKS] < 0.5:
            return False
        cards = 0.0
        for k in range(NUM_KINDS):
            cards += state[S_HAND + k]
        return cards > 1.5
    return False


@njit(cache=True)
def getValidActions(state):
    valid = np.zeros(NUM_ACTIONS, dtype=np.float64)
    for a in range(NUM_ACTIONS):
        if isValidAction(state, a):
            valid[a] = 1.0
    return valid


# ---- scoring -----------------------------------------------------------------------------------


@njit(cache=True)
def dumpling_points(count) -> int:
    """1, 3, 6, 10, 15 points for 1..5 dumplings; beyond five a new count starts (as vis/ENV)."""
    if count > 5:
        return DUMPLING_POINTS[5] + DUMPLING_POINTS[count - 5]
    return DUMPLING_POINTS[count]


@njit(cache=True)
def nigiri_points(count, value, wasabi) -> int:
    """``count`` nigiri worth ``value`` each, ``wasabi`` of them tripled."""
    tripled = min(count, wasabi)
    return 3 * value * tripled + value * (count - tripled)


@njit(cache=True)
def table_points(env, base) -> int:
    """Points of one table of cards (``env[base:base+12]``), maki and puddings aside."""
    points = (int(env[base + TEMPURA]) // 2) * 5
    points += (int(env[base + SASHIMI]) // 3) * 10
    points += dumpling_points(int(env[base + DUMPLING]))
    # every Wasabi triples one nigiri, the most valuable first, whatever the order of play
    wasabi = int(env[base + WASABI])
    points += nigiri_points(int(env[base + SQUID]), 3, wasabi)
    wasabi = max(wasabi - int(env[base + SQUID]), 0)
    points += nigiri_points(int(env[base + SALMON]), 2, wasabi)
    wasabi = max(wasabi - int(env[base + SALMON]), 0)
    points += nigiri_points(int(env[base + EGG]), 1, wasabi)
    return points


@njit(cache=True)
def maki_rolls(env, base) -> int:
    return int(env[base + MAKI1]) + 2 * int(env[base + MAKI2]) + 3 * int(env[base + MAKI3])


@njit(cache=True)
def score_round(env):
    """Score the round just played (its tables stay in view until the next deal)."""
    n = int(env[E_PLAYERS])
    first, second = -1, -1
    for p in range(n):
        base = player_base(p)
        env[base + P_POINTS] += table_points(env, base + P_TABLE)
        env[base + P_PUDDINGS] += env[base + P_TABLE + PUDDING]
        rolls = maki_rolls(env, base + P_TABLE)
        if rolls > first:
            first, second = rolls, first
        elif rolls > second:
            second = rolls
    # most maki rolls: 6 points (shared, rounded down); second most: 3 points unless first is
    # shared; players without maki take part too, as in vis/ENV
    tied_first = 0
    tied_second = 0
    for p in range(n):
        rolls = maki_rolls(env, player_base(p) + P_TABLE)
        if rolls == first:
            tied_first += 1
        elif rolls == second:
            tied_second += 1
    for p in range(n):
        base = player_base(p)
        rolls = maki_rolls(env, base + P_TABLE)
        if rolls == first:
            env[base + P_POINTS] += 6 // tied_first
        elif rolls == second and tied_first == 1:
            env[base + P_POINTS] += 3 // tied_second
        for k in range(NUM_KINDS):
            env[E_EARLIER + k] += env[base + P_TABLE + k]


@njit(cache=True)
def final_total(env, player) -> float:
    base = player_base(player)
    return env[base + P_POINTS] + env[base + P_PUDDING_WON] - env[base + P_PUDDING_LOST]


@njit(cache=True)
def score_end(env):
    """Score the puddings, find the winners and end the game."""
    n = int(env[E_PLAYERS])
    most, fewest = -1.0, 1e9
    for p in range(n):
        puddings = env[player_base(p) + P_PUDDINGS]
        most = max(most, puddings)
        fewest = min(fewest, puddings)
    with_most, with_fewest = 0, 0
    for p in range(n):
        puddings = env[player_base(p) + P_PUDDINGS]
        with_most += puddings == most
        with_fewest += puddings == fewest
    for p in range(n):
        base = player_base(p)
        # when everybody has as many puddings, everybody wins and loses (as vis/ENV)
        if env[base + P_PUDDINGS] == most:
            env[base + P_PUDDING_WON] = 6 // with_most
        if env[base + P_PUDDINGS] == fewest:
            env[base + P_PUDDING_LOST] = -((-6) // with_fewest)  # vis/ENV floors -6 / k
    best, best_puddings = -1e9, -1.0
    for p in range(n):
        total = final_total(env, p)
        puddings = env[player_base(p) + P_PUDDINGS]
        if total > best or (total == best and puddings > best_puddings):
            best, best_puddings = total, puddings
    winners, winner = 0, -1
    for p in range(n):
        if final_total(env, p) == best and env[player_base(p) + P_PUDDINGS] == best_puddings:
            env[player_base(p) + P_WINNER] = 1.0
            winners += 1
            winner = p
    env[E_RESULT] = winner if winners == 1 else n


@njit(cache=True)
def reveal_turn(env):
    """Every player has moved: put the picks on the tables, return used chopsticks to the hands."""
    n = int(env[E_PLAYERS])
    for p in range(n):
        base = player_base(p)
        for k in range(NUM_KINDS):
            env[base + P_TABLE + k] += env[base + P_PICKED + k]
            env[base + P_PICKED + k] = 0.0
        if env[base + P_CHOPSTICKS] > 0.5:
            env[base + P_CHOPSTICKS] = 0.0
            env[base + P_TABLE + CHOPSTICKS] -= 1.0
            env[E_HANDS + hand_index(env, p) * NUM_KINDS + CHOPSTICKS] += 1.0
    env[E_TO_MOVE] = 0.0
    env[E_PICKS_LEFT] = 1.0
    if env[E_TURN] < hand_size(n):
        env[E_TURN] += 1.0
        return
    score_round(env)
    if env[E_ROUND] < NUM_ROUNDS:
        env[E_ROUND] += 1.0
        env[E_TURN] = 1.0
        deal_round(env)
    else:
        score_end(env)


@njit(cache=True)
def stepEnv(action, env):
    if env[E_RESULT] >= 0.0:
        return env
    player = int(env[E_TO_MOVE])
    base = player_base(player)
    if action == USE_CHOPSTICKS:
        env[base + P_CHOPSTICKS] = 1.0
        env[E_PICKS_LEFT] = 2.0
        return env
    if action < 0 or action >= NUM_KINDS:
        return env
    env[E_HANDS + hand_index(env, player) * NUM_KINDS + action] -= 1.0
    env[base + P_PICKED + action] += 1.0
    env[E_PICKS_LEFT] -= 1.0
    if env[E_PICKS_LEFT] < 0.5:
        if player + 1 < int(env[E_PLAYERS]):
            env[E_TO_MOVE] = player + 1
            env[E_PICKS_LEFT] = 1.0
        else:
            reveal_turn(env)
    return env


@njit(cache=True)
def checkEnded(env) -> int:
    return int(env[E_RESULT])


@njit(cache=True)
def getWinners(env):
    n = int(env[E_PLAYERS])
    winners = np.zeros(n, dtype=np.float64)
    for p in range(n):
        winners[p] = env[player_base(p) + P_WINNER]
    return winners


@njit(cache=True)
def getReward(state) -> int:
    if not state[S_OVER] > 0.5:
        return -1
    return 1 if state[S_WON] > 0.5 else 0


# ---- determinization ---------------------------------------------------------------------------


@njit(cache=True)
def shuffle_slice(cards, count):
    for i in range(count - 1, 0, -1):
        j = int(np.random.random() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


@njit(cache=True)
def sampleEnv(state):
    """An env consistent with ``state``, its player to move. The cards the state does not show
    are dealt at random: the hands not seen this round, the deck, and the card each player who
    moved earlier this turn took (assumed without chopsticks)."""
    n = min(max(int(state[S_PLAYERS]), MIN_PLAYERS), MAX_PLAYERS)
    size = hand_size(n)
    me = min(max(int(state[S_SEAT]), 0), n - 1)
    rnd = min(max(int(state[S_ROUND]), 1), NUM_ROUNDS)
    turn = min(max(int(state[S_TURN]), 1), size)
    cards_per_hand = size - turn + 1
    env = np.zeros(ENV_SIZE, dtype=np.float64)
    env[E_PLAYERS] = n
    env[E_ROUND] = rnd
    env[E_TURN] = turn
    env[E_TO_MOVE] = me
    env[E_PICKS_LEFT] = 2.0 if state[S_PICKS_LEFT] > 1.5 else 1.0
    env[E_RESULT] = -1.0
    env[E_DEALT] = n * size * rnd
    # what is left of the deck once the visible cards are taken out
    unseen = np.zeros(NUM_KINDS, dtype=np.int64)
    for k in range(NUM_KINDS):
        env[E_EARLIER + k] = state[S_EARLIER + k]
        unseen[k] = CARD_COUNTS[k] - int(state[S_EARLIER + k]) - int(state[S_HAND + k]) - int(state[S_PICKED + k])
    for rel in range(n):
        seat = (me + rel) % n
        src = S_SEATS + rel * SEAT_BLOCK
        dst = player_base(seat)
        env[dst + P_POINTS] = state[src + B_POINTS]
        env[dst + P_PUDDINGS] = state[src + B_PUDDINGS]
        for k in range(NUM_KINDS):
            env[dst + P_TABLE + k] = state[src + B_TABLE + k]
            unseen[k] -= int(state[src + B_TABLE + k])
            if rel > 0 and state[src + B_HAND_KNOWN] > 0.5:
                unseen[k] -= int(state[src + B_HAND + k])
    pool = np.empty(DECK_SIZE, dtype=np.float64)
    count = 0
    for k in range(NUM_KINDS):
        for _ in range(max(unseen[k], 0)):
            if count < DECK_SIZE:
                pool[count] = k
                count += 1
    shuffle_slice(pool, count)
    drawn = 0
    for rel in range(n):
        seat = (me + rel) % n
        src = S_SEATS + rel * SEAT_BLOCK
        hand = E_HANDS + hand_index(env, seat) * NUM_KINDS
        if rel == 0:
            for k in range(NUM_KINDS):
                env[hand + k] = state[S_HAND + k]
                env[player_base(me) + P_PICKED + k] = state[S_PICKED + k]
            env[player_base(me) + P_CHOPSTICKS] = 1.0 if state[S_CHOPSTICKS] > 0.5 else 0.0
            continue
        if state[src + B_HAND_KNOWN] > 0.5:
            for k in range(NUM_KINDS):
                env[hand + k] = state[src + B_HAND + k]
        else:
            for _ in range(cards_per_hand):
                if drawn < count:
                    env[hand + int(pool[drawn])] += 1.0
                    drawn += 1
        if seat < me:  # moved already this turn: took one card of its hand, unseen by me
            held = 0.0
            for k in range(NUM_KINDS):
                held += env[hand + k]
            pick = np.random.random() * held
            for k in range(NUM_KINDS):
                if env[hand + k] > 0.5 and pick < env[hand + k]:
                    env[hand + k] -= 1.0
                    env[player_base(seat) + P_PICKED + k] += 1.0
                    break
                pick -= env[hand + k]
    # the deck: the cards already dealt (never read again), then the unseen rest in random order
    dealt = min(int(env[E_DEALT]), DECK_SIZE)
    rest = min(count - drawn, DECK_SIZE - dealt)
    left = np.zeros(NUM_KINDS, dtype=np.int64)
    for i in range(rest):
        left[int(pool[drawn + i])] += 1
    position = 0
    for k in range(NUM_KINDS):
        for _ in range(CARD_COUNTS[k] - left[k]):
            if position < dealt:
                env[E_DECK + position] = k
                position += 1
    for i in range(rest):
        env[E_DECK + dealt + i] = pool[drawn + i]
    return env

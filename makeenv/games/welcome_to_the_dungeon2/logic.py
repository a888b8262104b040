"""Welcome to the Dungeon with the Barbarian and the Mage (vis/ENV's ``WelcomeToTheDungeon_v2``):
the rules, as numba functions over flat float64 arrays.

The deck, the bidding and the scores are WelcomeToTheDungeon's (``welcome_to_the_dungeon/dungeon.py``);
this module adds the hero chosen at the start of each round and the dungeon fought monster by
monster:

* The first player of a round chooses its hero. The Barbarian starts with 4 HP (+3 Leather Shield,
  +4 Chainmail); the Torch kills monsters of strength 3 or less, the War Hammer the Golems (5);
  the Healing Potion, when a monster would kill it, kills that monster and sets its HP to 4 (once);
  the Vorpal Axe kills the monster it faces, when its player chooses. The Mage starts with 2 HP
  (+6 Wall of Fire, +3 Bracelet of Protection); the Holy Grail kills monsters of even strength, the
  Demonic Pact the Demon (7); Omnipotence wins the round at once when the monsters of the dungeon
  all differ; the Polymorph, when its player chooses, swaps the monster it faces for the top card
  of the deck, which the Mage fights instead.
* The runner faces the monsters from the last one added to the first, one per move: fight it
  (action 10) or use the Vorpal Axe / the Polymorph. It dies when its HP reach 0 (a loss) and
  survives the dungeon when no monster is left (a win).

The array layouts are documented in README.md and beside the constants below.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..welcome_to_the_dungeon.dungeon import (
    C_OVER,
    C_SEAT,
    CARD_STRENGTH,
    COMMON_SIZE,
    COMMON_STATE_SIZE,
    E_DECK,
    E_DRAWER,
    E_DRAWN,
    E_DUNGEON_COUNT,
    E_GONE,
    E_HERO,
    E_ITEMS,
    E_LAST_RUNNER,
    E_PEEK,
    E_PHASE,
    E_POS,
    E_RESULT,
    E_RUNNER,
    E_TO_MOVE,
    NUM_CARDS,
    NUM_ITEMS,
    NUM_PLAYERS,
    PH_BID,
    PH_DUNGEON,
    PH_HERO,
    PH_LOOKED,
    PH_OVER,
    add_looked,
    deal_unseen,
    discard_looked,
    dungeon_top,
    end_round,
    first_standing,
    flag_bits,
    look,
    mask_has,
    mask_to_valid,
    moving,
    new_env,
    new_round,
    pass_bid,
    put_common,
    put_scores,
    restore_common,
    reward_at,
)
from ..welcome_to_the_dungeon.dungeon import checkEnded as checkEnded
from ..welcome_to_the_dungeon.dungeon import getCurrentPlayer as getCurrentPlayer
from ..welcome_to_the_dungeon.dungeon import getWinners as getWinners

BARBARIAN, MAGE = 0, 1
HERO_NAMES = ("Barbarian", "Mage")
ITEM_NAMES = (
    ("Leather Shield (+3 HP)", "Healing Potion", "Torch", "War Hammer", "Vorpal Axe", "Chainmail (+4 HP)"),
    (
        "Omnipotence",
        "Holy Grail",
        "Demonic Pact",
        "Polymorph",
        "Wall of Fire (+6 HP)",
        "Bracelet of Protection (+3 HP)",
    ),
)
BASE_HP = (4.0, 2.0)
SHIELD, POTION, TORCH, HAMMER, AXE, CHAINMAIL = 0, 1, 2, 3, 4, 5  # the Barbarian's items
OMNIPOTENCE, GRAIL, PACT, POLYMORPH, WALL, BRACELET = 0, 1, 2, 3, 4, 5  # the Mage's items

# ---- actions (vis/ENV's numbering) --------------------------------------------------------------
PASS = 0
ADD = 1  # put the monster looked at on top of the dungeon
DISCARD = 2  # 2..7: set the monster looked at aside with the hero's item action - 2
USE_AXE = 8  # kill the monster the Barbarian faces
USE_POLYMORPH = 9  # swap the monster the Mage faces for the top card of the deck
FIGHT = 10  # fight the monster the hero faces
LOOK = 11  # draw the next monster and look at it
CHOOSE_HERO = 12  # 12 Barbarian, 13 Mage for this round
NUM_ACTIONS = 14

# ---- env: the shared layout, then ---------------------------------------------------------------
E_HP = COMMON_SIZE  # the hero's HP (its +HP items added when it enters the dungeon)
E_FACING = COMMON_SIZE + 1  # the card the runner faces, -1 none
E_POLYMORPHED = COMMON_SIZE + 2  # the card the Polymorph drew this round, -1 none
ENV_SIZE = COMMON_SIZE + 3
OUT_POLYMORPH = 14.0  # S_OUT's value for the card the Polymorph drew

# ---- state: one player's view (length STATE_SIZE); indices 0..82 mean what they mean in vis/ENV -
S_PASSED = 0  # 4 flags: passed this round or eliminated (me, then the next players)
S_SCORES = 4  # 4 (wins, losses) pairs: me, then the next players
S_DECK = 12  # monsters left in the deck
S_DUNGEON = 13  # monsters in the dungeon
S_MEMORY = 14  # 13 x 3, card c at 14 + 3c, if I drew it: strength, place in the dungeon, 1 when gone
S_BARBARIAN = 53  # 1 when the hero is the Barbarian; 54 its HP; 55..60 its items still in play
S_MAGE = 61  # 1 when the hero is the Mage; 62 its HP; 63..68 its items still in play
S_IN_DUNGEON = 69  # 1 once the runner is in the dungeon
S_LOOKED = 70  # 13 flags: the card I am looking at
S_COMMON = 83  # the shared block (dungeon.py's C_* offsets): seat, turn, result, runner, last round
S_FACING = S_COMMON + COMMON_STATE_SIZE  # the card the runner faces plus one, 0 none
S_OUT = S_FACING + 1  # 13: the place of a card that left the dungeon; 14: drawn by the Polymorph
S_LOOKING = S_OUT + NUM_CARDS  # 1 when the player to move is looking at a monster
STATE_SIZE = S_LOOKING + 1

TURN_LIMIT = 10_000  # a safety net: random games take about 40 moves


@njit(cache=True)
def getActionSize() -> int:
    return NUM_ACTIONS


@njit(cache=True)
def getStateSize() -> int:
    return STATE_SIZE


@njit(cache=True)
def getAgentSize() -> int:
    return NUM_PLAYERS


@njit(cache=True)
def start_round(env, starter):
    new_round(env, starter)
    env[E_HERO] = -1.0
    env[E_HP] = 0.0
    env[E_FACING] = -1.0
    env[E_POLYMORPHED] = -1.0
    env[E_PHASE] = PH_HERO


@njit(cache=True)
def initEnv():
    env = new_env(ENV_SIZE)
    start_round(env, 0)
    return env


# ---- the dungeon -------------------------------------------------------------------------------


@njit(cache=True)
def finish(env, survived):
    """The round is over: scores, then a new round started by the runner (or the next seat still
    in the game), unless the game is over."""
    env[E_FACING] = -1.0
    if not end_round(env, survived):
        start_round(env, first_standing(env, int(env[E_LAST_RUNNER])))


@njit(cache=True, inline="always")
def all_differ(env) -> bool:
    """True when no two monsters in the dungeon have the same strength."""
    seen = 0
    for c in range(NUM_CARDS):
        if env[E_POS + c] > 0.0 and env[E_GONE + c] < 0.5:
            bit = 1 << int(CARD_STRENGTH[c])
            if seen & bit:
                return False
            seen |= bit
    return True


@njit(cache=True)
def enter_dungeon(env):
    """The runner adds its +HP items; Omnipotence or an empty dungeon wins at once."""
    items = env[E_ITEMS : E_ITEMS + NUM_ITEMS]
    if env[E_HERO] == BARBARIAN:
        env[E_HP] += 3.0 * items[SHIELD] + 4.0 * items[CHAINMAIL]
    else:
        env[E_HP] += 6.0 * items[WALL] + 3.0 * items[BRACELET]
        if items[OMNIPOTENCE] > 0.5 and all_differ(env):
            finish(env, True)
            return
    top = dungeon_top(env)
    if top < 0:
        finish(env, True)
        return
    env[E_FACING] = top
    env[E_PHASE] = PH_DUNGEON


@njit(cache=True, inline="always")
def damage(env, strength) -> float:
    """What a monster of that strength takes from the hero's HP after its items (the Potion is
    used up when it saves the Barbarian)."""
    items = env[E_ITEMS : E_ITEMS + NUM_ITEMS]
    if env[E_HERO] == BARBARIAN:
        if items[TORCH] > 0.5 and strength <= 3.0:
            return 0.0
        if items[HAMMER] > 0.5 and strength == 5.0:
            return 0.0
        if items[POTION] > 0.5 and strength >= env[E_HP]:
            items[POTION] = 0.0
            env[E_HP] = BASE_HP[BARBARIAN]
            return 0.0
        return strength
    if items[GRAIL] > 0.5 and strength % 2.0 == 0.0:
        return 0.0
    if items[PACT] > 0.5 and strength == 7.0:
        return 0.0
    return strength


@njit(cache=True)
def fight(env, action):
    """The runner deals with the monster it faces, then faces the next one or leaves."""
    card = int(env[E_FACING])
    env[E_GONE + card] = 2.0
    strength = CARD_STRENGTH[card]
    if action == USE_AXE:
        env[E_ITEMS + AXE] = 0.0
        strength = 0.0
    elif action == USE_POLYMORPH:
        env[E_ITEMS + POLYMORPH] = 0.0
        drawn = int(env[E_DECK + int(env[E_DRAWN])])
        env[E_DRAWN] += 1.0
        env[E_DRAWER + drawn] = env[E_RUNNER]
        env[E_GONE + drawn] = 2.0
        env[E_POLYMORPHED] = drawn
        strength = CARD_STRENGTH[drawn]
    env[E_HP] -= damage(env, strength)
    if env[E_HP] <= 0.0:
        finish(env, False)
        return
    top = dungeon_top(env)
    if top < 0:
        finish(env, True)
    else:
        env[E_FACING] = top


@njit(cache=True)
def stepEnv(action, env):
    if env[E_RESULT] >= 0.0:
        return env
    phase = int(env[E_PHASE])
    if phase == PH_HERO:
        if action == CHOOSE_HERO or action == CHOOSE_HERO + 1:
            env[E_HERO] = action - CHOOSE_HERO
            env[E_HP] = BASE_HP[action - CHOOSE_HERO]
            env[E_PHASE] = PH_BID
    elif phase == PH_BID:
        if action == PASS:
            if pass_bid(env):
                enter_dungeon(env)
        elif action == LOOK and env[E_DRAWN] < NUM_CARDS:
            look(env)
    elif phase == PH_LOOKED:
        if action == ADD:
            add_looked(env)
        elif DISCARD <= action < DISCARD + NUM_ITEMS and env[E_ITEMS + action - DISCARD] > 0.5:
            discard_looked(env, action - DISCARD)
    elif phase == PH_DUNGEON:
        if action == FIGHT:
            fight(env, action)
        elif action == USE_AXE and env[E_HERO] == BARBARIAN and env[E_ITEMS + AXE] > 0.5:
            fight(env, action)
        elif (
            action == USE_POLYMORPH
            and env[E_HERO] == MAGE
            and env[E_ITEMS + POLYMORPH] > 0.5
            and env[E_DRAWN] < NUM_CARDS
        ):
            fight(env, action)
    return env


# ---- states ------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def player_state(env, player):
    """getPlayerState, inlined into getAgentState (a call passing arrays costs two atomic reference counts)."""
    state = np.zeros(STATE_SIZE, dtype=np.float64)
    put_scores(env, player, state, S_SCORES, S_PASSED)
    put_common(env, player, state, S_COMMON)
    state[S_DECK] = NUM_CARDS - env[E_DRAWN]
    polymorphed = int(env[E_POLYMORPHED])
    in_dungeon_count = 0.0
    for k in range(int(env[E_DRAWN])):  # cards never drawn show zeros; no branches on the cards
        c = int(env[E_DECK + k])
        pos = env[E_POS + c]
        gone = env[E_GONE + c]
        in_dungeon = 1.0 if pos > 0.0 and gone < 0.5 else 0.0
        in_dungeon_count += in_dungeon
        mine = 1.0 if env[E_DRAWER + c] == player else 0.0
        state[S_MEMORY + 3 * c] = mine * CARD_STRENGTH[c]
        state[S_MEMORY + 3 * c + 1] = mine * in_dungeon * pos
        state[S_MEMORY + 3 * c + 2] = mine if gone > 0.5 else 0.0
        state[S_OUT + c] = (OUT_POLYMORPH if c == polymorphed else pos) if gone > 1.5 else 0.0
    state[S_DUNGEON] = in_dungeon_count
    if env[E_HERO] >= 0.0:
        hero = S_BARBARIAN if env[E_HERO] == BARBARIAN else S_MAGE
        state[hero] = 1.0
        state[hero + 1] = max(env[E_HP], 0.0)
        for i in range(NUM_ITEMS):
            state[hero + 2 + i] = env[E_ITEMS + i]
    phase = int(env[E_PHASE])
    if phase == PH_DUNGEON:
        state[S_IN_DUNGEON] = 1.0
        state[S_FACING] = env[E_FACING] + 1.0
    if phase == PH_LOOKED:
        state[S_LOOKING] = 1.0
        if int(env[E_TO_MOVE]) == player:
            state[S_LOOKED + int(env[E_PEEK])] = 1.0
    return state


@njit(cache=True)
def getPlayerState(env, player):
    return player_state(env, player)


@njit(cache=True)
def getAgentState(env):
    return player_state(env, getCurrentPlayer(env))


@njit(cache=True, inline="always")
def state_phase(state) -> int:
    if state[S_COMMON + C_OVER] > 0.5:
        return PH_OVER
    if state[S_BARBARIAN] < 0.5 and state[S_MAGE] < 0.5:
        return PH_HERO
    if state[S_IN_DUNGEON] > 0.5:
        return PH_DUNGEON
    if state[S_LOOKING] > 0.5:
        return PH_LOOKED
    return PH_BID


@njit(cache=True, inline="always")
def valid_mask(state) -> int:
    """The valid actions as bits (bit a set when action a is valid); PASS alone when the state's
    player does not move."""
    if not moving(state, S_COMMON):
        return 1 << PASS
    phase = state_phase(state)
    if phase == PH_HERO:
        return 3 << CHOOSE_HERO
    if phase == PH_BID:
        return (1 << PASS) | (int(state[S_DECK] > 0.0) << LOOK)
    hero = S_BARBARIAN if state[S_BARBARIAN] > 0.5 else S_MAGE
    if phase == PH_LOOKED:
        return (1 << ADD) | flag_bits(state, hero + 2, NUM_ITEMS, DISCARD)
    if phase == PH_DUNGEON:
        if hero == S_BARBARIAN:
            return (1 << FIGHT) | (int(state[hero + 2 + AXE] > 0.5) << USE_AXE)
        return (1 << FIGHT) | (int(state[hero + 2 + POLYMORPH] > 0.5 and state[S_DECK] > 0.0) << USE_POLYMORPH)
    return 1 << PASS


@njit(cache=True, inline="always")
def allowed(state, action) -> bool:
    """True when ``action`` is valid in ``state`` (action 0 alone when the player does not move)."""
    return mask_has(valid_mask(state), action, NUM_ACTIONS)


@njit(cache=True)
def getValidActions(state):
    return mask_to_valid(valid_mask(state), NUM_ACTIONS)


@njit(cache=True)
def isValidAction(state, action) -> bool:
    return allowed(state, action)


@njit(cache=True)
def seat_of(state) -> int:
    """The seat whose view ``state`` is."""
    return min(max(int(state[S_COMMON + C_SEAT]), 0), NUM_PLAYERS - 1)


@njit(cache=True)
def getReward(state) -> int:
    return reward_at(state, S_COMMON)


# ---- determinization ---------------------------------------------------------------------------


@njit(cache=True)
def sampleEnv(state):
    """An env consistent with ``state``, its player to move: the cards I drew and the cards that
    left the dungeon stay where the state shows them; the others' places in the dungeon, their
    discards, the card another player is looking at and the deck's order are drawn at random."""
    env = new_env(ENV_SIZE)
    me = restore_common(env, state, S_COMMON, S_SCORES, S_PASSED)
    env[E_PEEK] = -1.0
    env[E_FACING] = -1.0
    env[E_POLYMORPHED] = -1.0
    phase = state_phase(state)
    env[E_PHASE] = phase
    env[E_HERO] = -1.0
    if phase != PH_HERO:
        hero = S_MAGE if state[S_MAGE] > 0.5 else S_BARBARIAN
        env[E_HERO] = MAGE if hero == S_MAGE else BARBARIAN
        env[E_HP] = state[hero + 1]
        for i in range(NUM_ITEMS):
            env[E_ITEMS + i] = 1.0 if state[hero + 2 + i] > 0.5 else 0.0
    else:
        for i in range(NUM_ITEMS):
            env[E_ITEMS + i] = 1.0
    added = max(int(state[S_DUNGEON]), 0)
    drawn_known = 0  # cards I set aside with an item, the Polymorph's card
    for c in range(NUM_CARDS):
        env[E_DRAWER + c] = -1.0
        out = state[S_OUT + c]
        if state[S_MEMORY + 3 * c] > 0.0:
            env[E_DRAWER + c] = me
            env[E_POS + c] = max(state[S_MEMORY + 3 * c + 1], 0.0)
            if state[S_MEMORY + 3 * c + 2] > 0.5 and out == 0.0:
                env[E_GONE + c] = 1.0
                drawn_known += 1
        if out == OUT_POLYMORPH:
            env[E_GONE + c] = 2.0
            env[E_POLYMORPHED] = c
            env[E_DRAWER + c] = env[E_RUNNER]
            drawn_known += 1
        elif out > 0.0:
            env[E_GONE + c] = 2.0
            env[E_POS + c] = out
            added += 1
        if state[S_FACING] == c + 1.0:  # public: the top of what is left of the dungeon
            env[E_FACING] = c
            env[E_POS + c] = max(state[S_DUNGEON], 1.0)
            if env[E_DRAWER + c] < 0.0:
                env[E_DRAWER + c] = (me + 1 + np.random.randint(NUM_PLAYERS - 1)) % NUM_PLAYERS
        if state[S_LOOKED + c] > 0.5:
            env[E_PEEK] = c
            env[E_DRAWER + c] = me
    env[E_DUNGEON_COUNT] = added
    peek_seat = -1
    if phase == PH_LOOKED:
        drawn_known += 1
        if env[E_PEEK] < 0.0:
            peek_seat = int(env[E_TO_MOVE])
    others = NUM_CARDS - int(max(state[S_DECK], 0.0)) - added - drawn_known
    deal_unseen(env, me, max(others, 0), peek_seat)
    return env

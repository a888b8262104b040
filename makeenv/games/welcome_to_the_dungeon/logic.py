"""Welcome to the Dungeon with the Warrior and the Rogue (vis/ENV's ``WelcomeToTheDungeon_v1``):
the rules, as numba functions over flat float64 arrays.

The deck, the bidding and the scores are in ``dungeon.py`` (shared with WelcomeToTheDungeon2);
this module adds the two heroes, the vorpal weapon's choice and the dungeon resolved at once:

* The Warrior starts with 3 HP, +3 with the Knight Shield and +5 with the Plate Armour; the Torch
  kills the monsters of strength 3 or less, the Holy Grail those of even strength, the Dragon
  Spear the Dragon (9). The Rogue starts with 3 HP, +3 with the Buckler and +5 with the Mithril
  Armour; the Invisibility Cloak avoids the monsters of strength 6 or more, the Ring of Power turns
  the monsters of strength 2 or less into HP gained, the Healing Potion brings the Rogue back to
  3 HP once when it dies. Each also has a vorpal weapon.
* When the bidding is over, a runner who still has the vorpal weapon names one of the 8 species;
  every monster of that species in the dungeon dies. Then the Warrior survives when its HP exceed
  the sum of the monsters its items leave; the Rogue meets the monsters from the last one added
  to the first, one by one (see ``rogue_survives``).
* The runner then chooses the hero of the next round and starts it. The first round's hero is
  drawn at random.

The array layouts are documented in README.md and beside the constants below.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .dungeon import (
    C_OVER,
    C_SEAT,
    CARD_SPECIES,
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
    NUM_SPECIES,
    PH_BID,
    PH_CHOOSE,
    PH_HERO,
    PH_LOOKED,
    PH_OVER,
    SPECIES,
    add_looked,
    claim,
    deal_unseen,
    discard_looked,
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
from .dungeon import checkEnded as checkEnded
from .dungeon import getCurrentPlayer as getCurrentPlayer
from .dungeon import getWinners as getWinners

WARRIOR, ROGUE = 0, 1
HERO_NAMES = ("Warrior", "Rogue")
ITEM_NAMES = (
    ("Knight Shield (+3 HP)", "Plate Armour (+5 HP)", "Torch", "Holy Grail", "Dragon Spear", "Vorpal Sword"),
    (
        "Buckler (+3 HP)",
        "Mithril Armour (+5 HP)",
        "Ring of Power",
        "Invisibility Cloak",
        "Healing Potion",
        "Vorpal Dagger",
    ),
)
SHIELD, ARMOUR, TORCH, GRAIL, SPEAR = 0, 1, 2, 3, 4  # Warrior's items
RING, CLOAK, POTION = 2, 3, 4  # Rogue's items (0, 1: +3 and +5 HP as the Warrior's)
VORPAL = 5  # both heroes' item 5
BASE_HP = 3

# ---- actions (vis/ENV's numbering) --------------------------------------------------------------
PASS = 0
LOOK = 1  # draw the next monster and look at it
ADD = 2  # put the monster looked at on top of the dungeon
DISCARD_WARRIOR = 3  # 3..8: set the monster aside with the Warrior's item action - 3
DISCARD_ROGUE = 9  # 9..14: the same with the Rogue's item action - 9
VORPAL_SPECIES = 15  # 15..22: the vorpal weapon kills every monster of SPECIES[action - 15]
CHOOSE_HERO = 23  # 23 Warrior, 24 Rogue for the next round
NUM_ACTIONS = 25

ENV_SIZE = COMMON_SIZE  # the shared layout is all this version needs

# ---- state: one player's view (length STATE_SIZE); indices 0..39 mean what they mean in vis/ENV -
S_SCORES = 0  # 4 (wins, losses) pairs: me, then the next players
S_PASSED = 8  # 4 flags: passed this round or eliminated (me, then the next players)
S_DRAWN = 12  # monsters drawn from the deck this round
S_DUNGEON = 13  # monsters added to the dungeon this round
S_WARRIOR = 14  # 1 when the hero is the Warrior; 15..20 its items still in play
S_ROGUE = 21  # 1 when the hero is the Rogue; 22..27 its items still in play
S_LOOKED = 28  # 8 flags: the species of the monster I am looking at
S_PHASE = 36  # 4 flags: bid, decide on the monster looked at, vorpal choice, next hero; 0 at the end
S_COMMON = 40  # the shared block (dungeon.py's C_* offsets): seat, turn, result, runner, last round
S_MY_DUNGEON = S_COMMON + COMMON_STATE_SIZE  # 13: strength at dungeon place k + 1 if I put it there
S_MY_DISCARDS = S_MY_DUNGEON + NUM_CARDS  # 8 counts: monsters I set aside this round, by species
STATE_SIZE = S_MY_DISCARDS + NUM_SPECIES

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
def initEnv():
    env = new_env(ENV_SIZE)
    env[E_HERO] = np.random.randint(2)
    new_round(env, 0)
    env[E_PHASE] = PH_BID
    return env


# ---- the dungeon -------------------------------------------------------------------------------


@njit(cache=True)
def warrior_survives(env) -> bool:
    """HP 3 (+3, +5) against the sum of the monsters the Torch, Grail and Spear leave."""
    hp = BASE_HP + 3.0 * env[E_ITEMS + SHIELD] + 5.0 * env[E_ITEMS + ARMOUR]
    for c in range(NUM_CARDS):
        if env[E_POS + c] > 0.0 and env[E_GONE + c] < 0.5:
            s = CARD_STRENGTH[c]
            if env[E_ITEMS + TORCH] > 0.5 and s <= 3.0:
                continue
            if env[E_ITEMS + GRAIL] > 0.5 and s % 2.0 == 0.0:
                continue
            if env[E_ITEMS + SPEAR] > 0.5 and s == 9.0:
                continue
            hp -= s
    return hp > 0.0


@njit(cache=True)
def rogue_survives(env) -> bool:
    """HP 3 (+3, +5); the monsters from the last added to the first: the Cloak avoids strength 6 or
    more; with the Ring one of strength 2 or less adds its strength to the HP, any other takes it
    away; at 0 HP or less the Potion (once) sets the HP back to 3, else the Rogue is dead."""
    hp = BASE_HP + 3.0 * env[E_ITEMS + SHIELD] + 5.0 * env[E_ITEMS + ARMOUR]
    potion = env[E_ITEMS + POTION] > 0.5
    for place in range(int(env[E_DUNGEON_COUNT]), 0, -1):
        for c in range(NUM_CARDS):
            if env[E_POS + c] != place or env[E_GONE + c] > 0.5:
                continue
            s = CARD_STRENGTH[c]
            if env[E_ITEMS + CLOAK] > 0.5 and s >= 6.0:
                continue
            if env[E_ITEMS + RING] > 0.5 and s <= 2.0:
                hp += s
            else:
                hp -= s
            if hp <= 0.0:
                if not potion:
                    return False
                hp, potion = float(BASE_HP), False
    return hp > 0.0


@njit(cache=True, inline="always")
def survives(env) -> bool:
    return warrior_survives(env) if env[E_HERO] == WARRIOR else rogue_survives(env)


@njit(cache=True)
def run_dungeon(env):
    """Resolve the dungeon; then the runner (or the next seat still in the game) picks the next
    hero, unless the game is over."""
    if not end_round(env, survives(env)):
        env[E_PHASE] = PH_HERO
        env[E_TO_MOVE] = first_standing(env, int(env[E_LAST_RUNNER]))


@njit(cache=True)
def stepEnv(action, env):
    phase = int(env[E_PHASE])
    if env[E_RESULT] >= 0.0:
        return env
    if phase == PH_BID:
        if action == PASS:
            if pass_bid(env):
                if env[E_ITEMS + VORPAL] > 0.5:
                    env[E_PHASE] = PH_CHOOSE
                else:
                    run_dungeon(env)
        elif action == LOOK and env[E_DRAWN] < NUM_CARDS:
            look(env)
    elif phase == PH_LOOKED:
        first = DISCARD_WARRIOR if env[E_HERO] == WARRIOR else DISCARD_ROGUE
        if action == ADD:
            add_looked(env)
        elif first <= action < first + NUM_ITEMS and env[E_ITEMS + action - first] > 0.5:
            discard_looked(env, action - first)
    elif phase == PH_CHOOSE:
        if VORPAL_SPECIES <= action < VORPAL_SPECIES + NUM_SPECIES:
            for c in range(NUM_CARDS):
                if env[E_POS + c] > 0.0 and CARD_STRENGTH[c] == SPECIES[action - VORPAL_SPECIES]:
                    env[E_GONE + c] = 2.0
            run_dungeon(env)
    elif phase == PH_HERO:
        if action == CHOOSE_HERO or action == CHOOSE_HERO + 1:
            env[E_HERO] = action - CHOOSE_HERO
            new_round(env, int(env[E_TO_MOVE]))
            env[E_PHASE] = PH_BID
    return env


# ---- states ------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def player_state(env, player):
    """getPlayerState, inlined into getAgentState (a call passing arrays costs two atomic reference counts)."""
    state = np.zeros(STATE_SIZE, dtype=np.float64)
    put_scores(env, player, state, S_SCORES, S_PASSED)
    put_common(env, player, state, S_COMMON)
    state[S_DRAWN] = env[E_DRAWN]
    state[S_DUNGEON] = env[E_DUNGEON_COUNT]
    hero = S_WARRIOR if env[E_HERO] == WARRIOR else S_ROGUE
    state[hero] = 1.0
    for i in range(NUM_ITEMS):
        state[hero + 1 + i] = env[E_ITEMS + i]
    phase = int(env[E_PHASE])  # the phase and the card looked at change every move: no branches
    state[S_PHASE + min(phase, PH_HERO)] = 1.0 if phase <= PH_HERO else 0.0
    looking = phase == PH_LOOKED and int(env[E_TO_MOVE]) == player
    state[S_LOOKED + CARD_SPECIES[max(int(env[E_PEEK]), 0)]] = 1.0 if looking else 0.0
    for k in range(int(env[E_DRAWN])):  # only drawn cards can be mine
        c = int(env[E_DECK + k])
        if env[E_DRAWER + c] == player:
            if env[E_POS + c] > 0.0:
                state[S_MY_DUNGEON + int(env[E_POS + c]) - 1] = CARD_STRENGTH[c]
            elif env[E_GONE + c] > 0.5:
                state[S_MY_DISCARDS + CARD_SPECIES[c]] += 1.0
    return state


@njit(cache=True)
def getPlayerState(env, player):
    return player_state(env, player)


@njit(cache=True)
def getAgentState(env):
    return player_state(env, getCurrentPlayer(env))


@njit(cache=True, inline="always")
def state_phase(state) -> int:
    """The phase a state shows (PH_OVER at the end, or when it shows none)."""
    if state[S_COMMON + C_OVER] > 0.5:
        return PH_OVER
    for p in range(4):
        if state[S_PHASE + p] > 0.5:
            return p
    return PH_OVER


@njit(cache=True, inline="always")
def valid_mask(state) -> int:
    """The valid actions as bits (bit a set when action a is valid); PASS alone when the state's
    player does not move. Each phase's bits times its flag, without branches on the phase (it
    changes from move to move, which defeats branch prediction); the items of the hero not in play
    show zeros."""
    if not moving(state, S_COMMON):
        return 1 << PASS
    bid = (1 << PASS) | (int(state[S_DRAWN] < NUM_CARDS) << LOOK)
    looked = (
        (1 << ADD)
        | flag_bits(state, S_WARRIOR + 1, NUM_ITEMS, DISCARD_WARRIOR)
        | flag_bits(state, S_ROGUE + 1, NUM_ITEMS, DISCARD_ROGUE)
    )
    mask = (
        int(state[S_PHASE + PH_BID] > 0.5) * bid
        | int(state[S_PHASE + PH_LOOKED] > 0.5) * looked
        | int(state[S_PHASE + PH_CHOOSE] > 0.5) * (((1 << NUM_SPECIES) - 1) << VORPAL_SPECIES)
        | int(state[S_PHASE + PH_HERO] > 0.5) * (3 << CHOOSE_HERO)
    )
    return mask if mask else 1 << PASS


@njit(cache=True)
def getValidActions(state):
    return mask_to_valid(valid_mask(state), NUM_ACTIONS)


@njit(cache=True)
def isValidAction(state, action) -> bool:
    return mask_has(valid_mask(state), action, NUM_ACTIONS)


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
    """An env consistent with ``state``, its player to move: the monsters I put in the dungeon,
    set aside or am looking at stay mine; the others' places in the dungeon, their discards, the
    card another player is looking at and the deck's order are drawn at random from the rest."""
    env = new_env(ENV_SIZE)
    me = restore_common(env, state, S_COMMON, S_SCORES, S_PASSED)
    for c in range(NUM_CARDS):
        env[E_DRAWER + c] = -1.0
    env[E_PEEK] = -1.0
    env[E_HERO] = ROGUE if state[S_ROGUE] > 0.5 else WARRIOR
    hero = S_ROGUE if state[S_ROGUE] > 0.5 else S_WARRIOR
    for i in range(NUM_ITEMS):
        env[E_ITEMS + i] = 1.0 if state[hero + 1 + i] > 0.5 else 0.0
    phase = state_phase(state)
    env[E_PHASE] = phase
    count = min(max(int(state[S_DUNGEON]), 0), NUM_CARDS)
    env[E_DUNGEON_COUNT] = count
    mine = 0
    for k in range(count):
        c = claim(env, state[S_MY_DUNGEON + k], me)
        if c >= 0:
            env[E_POS + c] = k + 1.0
    for i in range(NUM_SPECIES):
        for _ in range(int(max(state[S_MY_DISCARDS + i], 0.0))):
            c = claim(env, SPECIES[i], me)
            if c >= 0:
                env[E_GONE + c] = 1.0
                mine += 1
    peek_seat = -1
    if phase == PH_LOOKED:
        if int(env[E_TO_MOVE]) == me:
            for i in range(NUM_SPECIES):
                if state[S_LOOKED + i] > 0.5:
                    env[E_PEEK] = claim(env, SPECIES[i], me)
        else:
            peek_seat = int(env[E_TO_MOVE])
        mine += 1
    others = int(max(state[S_DRAWN], 0.0)) - count - mine
    deal_unseen(env, me, max(others, 0), peek_seat)
    if phase == PH_HERO:
        env[E_RUNNER] = -1.0
    return env

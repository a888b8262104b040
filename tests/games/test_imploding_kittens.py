"""ImplodingKittens: the expansion's cards one by one (Imploding Kitten, Reverse, Draw from the
Bottom, Feral Cat, Alter the Future, Targeted Attack), the public face-up kitten, the order of
play after a Reverse, determinization, random play against the vis/ENV library's measured
figures, the bots' strength, drawings and words."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree

import numpy as np
import pytest
from numba import njit

import makeenv
from makeenv.games.exploding_kittens import logic as base
from makeenv.games.imploding_kittens import bots as B
from makeenv.games.imploding_kittens import logic as L
from makeenv.games.imploding_kittens.bots import careful, keen, sampler
from makeenv.games.imploding_kittens.draw import describe_action, describe_state, render
from tests.games.support import clickable_actions
from tests.support.strength import assert_wins_above

# vis/ENV Imploding_Kitten, random agents, six players: its initEnv / getAgentState /
# getValidActions / stepEnv / checkEnded in a compiled loop, uniformly random valid actions,
# 100,000 games after np.random.seed(12345), counting actions until checkEnded names a winner
VIS_MEAN_STEPS = 114.48
VIS_SEAT_WINS = (0.1548, 0.1602, 0.1680, 0.1688, 0.1722, 0.1760)

(NOPE, ATTACK, SKIP, FAVOR, SHUFFLE, FUTURE, TACO, RAINBOW, BEARD, POTATO, MELON) = range(11)
REVERSE, BOTTOM, FERAL, ALTER, TARGETED, DEFUSE, EXPLODING, IMPLODING = range(11, 19)


@njit
def seed_numba(seed):
    np.random.seed(seed)


def hand(env, p):
    return env[L.E_HANDS + L.HAND_KINDS * p : L.E_HANDS + L.HAND_KINDS * (p + 1)]


def pile(env):
    return env[L.E_PILE : L.E_PILE + int(env[L.E_PILE_SIZE])].astype(int).tolist()


def table(players=6, seed=0, hands=None, cards=(TACO, RAINBOW, BEARD, EXPLODING, POTATO, MELON)):
    """A game with chosen hands (default: none) and pile (bottom first, top last)."""
    seed_numba(seed)
    env = L.initEnv(players)
    for p in range(players):
        hand(env, p)[:] = 0.0
        for kind, n in (hands or {}).get(p, {}).items():
            hand(env, p)[kind] = n
    env[L.E_PILE : L.E_PILE + L.MAX_PILE] = 0.0
    env[L.E_PILE : L.E_PILE + len(cards)] = cards
    env[L.E_PILE_SIZE] = len(cards)
    return env


def play(env, *actions):
    for action in actions:
        state = L.getAgentState(env)
        assert L.getValidActions(state)[action] == 1.0, (
            f"{describe_action(action)} should be valid for player {L.getCurrentPlayer(env)}: {valid(env)}"
        )
        L.stepEnv(action, env)
    return env


def valid(env):
    return np.flatnonzero(L.getValidActions(L.getAgentState(env))).tolist()


# ---- setup and reuse --------------------------------------------------------------------------------


@pytest.mark.parametrize("players, exploding, spare_defuses", [(2, 0, 2), (3, 1, 2), (5, 3, 1), (6, 4, 0)])
def test_setup(players, exploding, spare_defuses):
    seed_numba(players)
    env = L.initEnv(players)
    cards = np.array(pile(env))
    assert len(cards) == 65 - 7 * players + spare_defuses + exploding + 1
    assert (cards == EXPLODING).sum() == exploding and (cards == IMPLODING).sum() == 1
    assert (cards == DEFUSE).sum() == spare_defuses
    for p in range(players):
        assert hand(env, p).sum() == 8 and hand(env, p)[DEFUSE] == 1
    assert L.getAgentState(env)[L.S_FACE_UP] == 0.0


def test_the_base_games_helpers_are_imported_not_copied():
    assert L.bury_top is base.bury_top and L.shuffle_cards is base.shuffle_cards
    assert L.random_card is base.random_card and L.peek_top is base.peek_top
    assert L.CARD_NAMES[:11] == base.CARD_NAMES[:11]


# ---- the Imploding Kitten -----------------------------------------------------------------------------


def test_imploding_kitten_face_down_goes_back_face_up_and_everybody_sees_where():
    env = table(hands={0: {TACO: 1}, 1: {DEFUSE: 1}}, cards=(TACO, RAINBOW, BEARD, MELON, IMPLODING))
    play(env, L.A_DRAW)
    assert env[L.E_ALIVE] == 1 and hand(env, 0).tolist() == [0] * 6 + [1] + [0] * 10  # nothing drawn
    assert env[L.E_FACE_UP] == 1 and sorted(pile(env)) == sorted([TACO, RAINBOW, BEARD, MELON, IMPLODING])
    depth = pile(env)[::-1].index(IMPLODING)
    for p in range(6):  # public: every seat sees it face up, and how deep it lies
        state = L.getPlayerState(env, p)
        assert state[L.S_FACE_UP] == 1.0 and state[L.S_ABOVE] == depth
    assert L.getCurrentPlayer(env) == 1


def test_face_up_imploding_kitten_eliminates_even_with_a_defuse():
    env = table(hands={0: {DEFUSE: 1, NOPE: 2}}, cards=(TACO, IMPLODING))
    env[L.E_FACE_UP] = 1.0
    state = L.getAgentState(env)
    assert state[L.S_FACE_UP] == 1.0 and state[L.S_ABOVE] == 0.0
    assert "ON TOP of the pile" in describe_state(state)
    play(env, L.A_DRAW)
    assert env[L.E_ALIVE] == 0 and env[L.E_DISCARD + IMPLODING] == 1
    assert env[L.E_OUT + DEFUSE] == 1 and env[L.E_OUT + NOPE] == 2  # the Defuse did not help
    assert L.getPlayerState(env, 1)[L.S_FACE_UP] == 0.0


def test_defuse_still_saves_from_an_exploding_kitten():
    env = table(hands={0: {DEFUSE: 1}}, cards=(TACO, RAINBOW, EXPLODING))
    play(env, L.A_DRAW)
    assert env[L.E_ALIVE] == 1 and env[L.E_DISCARD + DEFUSE] == 1
    assert sorted(pile(env)) == sorted([TACO, RAINBOW, EXPLODING])


# ---- Reverse ----------------------------------------------------------------------------------------


def test_reverse_turns_the_order_of_play_round():
    env = table(hands={0: {REVERSE: 1}, 5: {ATTACK: 1}})
    play(env, L.A_REVERSE)
    assert env[L.E_REVERSED] == 1 and L.getCurrentPlayer(env) == 5 and env[L.E_DISCARD + REVERSE] == 1
    assert L.getPlayerState(env, 3)[L.S_REVERSED] == 1.0
    play(env, ATTACK)  # an Attack passes backwards too
    assert L.getCurrentPlayer(env) == 4 and env[L.E_DRAWS] == 2
    play(env, L.A_DRAW)
    assert L.getCurrentPlayer(env) == 3


def test_reverse_ends_only_one_owed_turn():
    env = table(hands={0: {ATTACK: 1}, 1: {REVERSE: 2}})
    play(env, ATTACK, L.A_REVERSE)
    assert L.getCurrentPlayer(env) == 1 and env[L.E_DRAWS] == 1 and env[L.E_REVERSED] == 1
    play(env, L.A_REVERSE)  # back to forwards, and the turn ends
    assert L.getCurrentPlayer(env) == 2 and env[L.E_REVERSED] == 0


def test_nope_round_follows_the_direction_of_play():
    env = table(hands={0: {REVERSE: 1}, 5: {SKIP: 1}, 1: {NOPE: 1}, 4: {NOPE: 1}})
    play(env, L.A_REVERSE)  # 1 and 4 both hold a Nope; forwards, 1 is asked first
    assert L.getCurrentPlayer(env) == 1
    play(env, L.A_PASS)
    assert L.getCurrentPlayer(env) == 4
    play(env, L.A_PASS)
    assert L.getCurrentPlayer(env) == 5 and env[L.E_REVERSED] == 1
    play(env, SKIP)  # now backwards: 4 is asked first
    assert L.getCurrentPlayer(env) == 4 and env[L.E_PHASE] == L.NOPING


# ---- Draw from the Bottom -----------------------------------------------------------------------------


def test_draw_from_the_bottom_takes_the_bottom_card():
    env = table(hands={0: {BOTTOM: 1}}, cards=(MELON, TACO, EXPLODING))
    play(env, L.A_BOTTOM)
    assert hand(env, 0)[MELON] == 1 and pile(env) == [TACO, EXPLODING] and L.getCurrentPlayer(env) == 1


def test_draw_from_the_bottom_uses_one_owed_turn():
    env = table(hands={0: {ATTACK: 1}, 1: {BOTTOM: 2}}, cards=(TACO, MELON, RAINBOW, EXPLODING))
    play(env, ATTACK, L.A_BOTTOM)
    assert L.getCurrentPlayer(env) == 1 and env[L.E_DRAWS] == 1 and hand(env, 1)[TACO] == 1
    play(env, L.A_BOTTOM)
    assert hand(env, 1)[MELON] == 1 and pile(env) == [RAINBOW, EXPLODING]
    assert L.getCurrentPlayer(env) == 2 and env[L.E_DRAWS] == 1


def test_draw_from_the_bottom_of_a_kitten_without_defuse():
    env = table(hands={0: {BOTTOM: 1}}, cards=(EXPLODING, TACO, MELON))
    play(env, L.A_BOTTOM)
    assert env[L.E_ALIVE] == 0 and env[L.E_DISCARD + EXPLODING] == 1 and pile(env) == [TACO, MELON]
    assert L.getCurrentPlayer(env) == 1


# ---- Feral Cat ------------------------------------------------------------------------------------------


def test_feral_cat_stands_in_for_a_cat_in_a_pair():
    env = table(hands={0: {TACO: 1, FERAL: 1, SKIP: 1}, 1: {DEFUSE: 1}})
    assert L.A_PAIR in valid(env) and L.A_TRIPLE not in valid(env)
    play(env, L.A_PAIR)
    discards = [a - L.A_DISCARD for a in valid(env)]
    assert discards == [TACO]  # a lone Feral Cat cannot start the pair; a lone Skip is no pair
    play(env, L.A_DISCARD + TACO)
    assert [a - L.A_DISCARD for a in valid(env)] == [FERAL]
    play(env, L.A_DISCARD + FERAL, L.A_TARGET)
    assert hand(env, 0)[DEFUSE] == 1 and hand(env, 1).sum() == 0


def test_feral_cats_cannot_pair_with_action_cards():
    env = table(hands={0: {SKIP: 1, FERAL: 1}, 1: {DEFUSE: 1}})
    assert L.A_PAIR not in valid(env)


def test_feral_cat_fills_five_different():
    env = table(hands={0: {TACO: 1, BEARD: 1, SKIP: 1, FERAL: 2}})
    env[L.E_DISCARD + DEFUSE] = 1.0
    play(env, L.A_FIVE, L.A_DISCARD + FERAL, L.A_DISCARD + TACO)
    assert L.A_DISCARD + TACO not in valid(env) and L.A_DISCARD + FERAL in valid(env)
    play(env, L.A_DISCARD + FERAL, L.A_DISCARD + BEARD, L.A_DISCARD + SKIP)
    assert valid(env) == [L.A_TAKE + k for k in (SKIP, TACO, BEARD, FERAL, DEFUSE)]
    play(env, L.A_TAKE + DEFUSE)
    assert hand(env, 0).tolist() == [0] * 16 + [1]


# ---- Alter the Future --------------------------------------------------------------------------------


def test_alter_the_future_reorders_the_top_three():
    env = table(hands={0: {ALTER: 1}}, cards=(MELON, TACO, RAINBOW, EXPLODING))
    play(env, L.A_ALTER)
    assert valid(env) == list(range(L.A_ORDER, L.A_ORDER + 6))
    state = L.getAgentState(env)
    seen = [int(np.argmax(state[L.S_FUTURE + 19 * i : L.S_FUTURE + 19 * (i + 1)])) for i in range(3)]
    assert seen == [EXPLODING, RAINBOW, TACO]
    play(env, L.A_ORDER + 3)  # 2-3-1: the kitten goes third
    assert pile(env) == [MELON, EXPLODING, TACO, RAINBOW]
    state = L.getAgentState(env)
    seen = [int(np.argmax(state[L.S_FUTURE + 19 * i : L.S_FUTURE + 19 * (i + 1)])) for i in range(3)]
    assert seen == [RAINBOW, TACO, EXPLODING] and L.getCurrentPlayer(env) == 0


@pytest.mark.parametrize("cards, orders", [((TACO, EXPLODING), [0, 2]), ((EXPLODING,), [0])])
def test_alter_the_future_with_a_short_pile(cards, orders):
    env = table(players=2, hands={0: {ALTER: 1}}, cards=cards)
    play(env, L.A_ALTER)
    assert valid(env) == [L.A_ORDER + o for o in orders]
    play(env, L.A_ORDER + orders[-1])
    assert pile(env) == list(cards)[::-1]  # two cards: swapped (2-1-3)


# ---- Targeted Attack ---------------------------------------------------------------------------------


def test_targeted_attack_picks_any_player_still_in():
    env = table(hands={0: {TARGETED: 1}})
    env[L.E_ALIVE + 2] = 0.0
    play(env, L.A_TARGETED)
    assert valid(env) == [L.A_TARGET, L.A_TARGET + 2, L.A_TARGET + 3, L.A_TARGET + 4]  # not the one out
    play(env, L.A_TARGET + 3)
    assert L.getCurrentPlayer(env) == 4 and env[L.E_DRAWS] == 2
    play(env, L.A_DRAW)  # two draws, then play goes on from the attacked player
    assert L.getCurrentPlayer(env) == 5 and hand(env, 4)[MELON] == 1 and hand(env, 4)[POTATO] == 1


def test_targeted_attack_stacks_and_can_be_noped():
    env = table(hands={0: {ATTACK: 1}, 1: {TARGETED: 1}, 3: {NOPE: 1}})
    play(env, ATTACK, L.A_PASS, L.A_TARGETED)  # player 3, holding a Nope, lets the Attack happen
    assert L.getCurrentPlayer(env) == 3 and env[L.E_PHASE] == L.NOPING  # and is asked again
    play(env, L.A_PASS, L.A_TARGET + 1)
    assert L.getCurrentPlayer(env) == 3 and env[L.E_DRAWS] == 4


# ---- determinization ---------------------------------------------------------------------------------


def test_sample_env_keeps_what_the_state_shows():
    seed_numba(3)
    rng = np.random.default_rng(3)
    env = L.initEnv(4)
    checked = face_up = 0
    while L.checkEnded(env) == -1:
        state = L.getAgentState(env)
        sample = L.sampleEnv(state)
        again = L.getPlayerState(sample, L.getCurrentPlayer(env))
        assert np.array_equal(again, state), np.flatnonzero(again != state)
        face_up += state[L.S_FACE_UP] == 1.0
        checked += 1
        L.stepEnv(int(rng.choice(np.flatnonzero(L.getValidActions(state)))), env)
    assert checked > 50 and face_up > 0


# ---- random play against the vis/ENV library's figures --------------------------------------------


def test_random_play_matches_vis_env():
    results = makeenv.make("ImplodingKittens").evaluate("random", 20000, seed=7)
    # game length: sd 8.6 steps, so the mean of 20,000 games is good to about 0.06 steps; the
    # ported rules differ a little (README), hence 1%
    assert abs(results.mean_steps - VIS_MEAN_STEPS) < 0.01 * VIS_MEAN_STEPS, results.mean_steps
    for k, seat_results in enumerate(results.by_seat):
        # about 3,300 games per seat: standard error about 0.0065
        assert abs(seat_results.win_rate - VIS_SEAT_WINS[k]) < 0.03, (k, seat_results.win_rate)


@pytest.mark.parametrize("players", [2, 4])
def test_random_play_with_fewer_players_is_fair(players):
    results = makeenv.make("ImplodingKittens", players=players).evaluate("random", 4000, seed=players)
    for seat_results in results.by_seat:
        assert abs(seat_results.win_rate - 1 / players) < 0.04
    assert 100 < results.mean_steps < 160


# ---- the bots ------------------------------------------------------------------------------------


def test_careful_beats_random():
    env = makeenv.make("ImplodingKittens", players=6)
    results = env.evaluate(careful, 3000, np.zeros(16), level=0, seed=11)
    assert results.wins / results.games > 0.25  # 1/6 is a fair share


def test_keen_nopes_an_escape_from_the_face_up_kitten_on_top():
    env = table(players=2, hands={0: {SKIP: 1}, 1: {NOPE: 1}}, cards=(TACO, RAINBOW, IMPLODING))
    env[L.E_FACE_UP] = 1.0
    play(env, SKIP)
    assert L.getCurrentPlayer(env) == 1 and keen(L.getAgentState(env), np.zeros(16))[0] == L.A_NOPE
    assert careful(L.getAgentState(env), np.zeros(16))[0] == L.A_PASS  # level 1 lets it happen


def test_keen_puts_a_reordered_kitten_where_the_next_player_draws_it():
    env = table(players=2, hands={0: {ALTER: 1}}, cards=(TACO, MELON, RAINBOW, IMPLODING))
    env[L.E_FACE_UP] = 1.0
    play(env, L.A_ALTER)  # seen, top first: the kitten, Rainbow, Melon
    play(env, keen(L.getAgentState(env), np.zeros(16))[0])
    assert pile(env)[-2:] == [IMPLODING, RAINBOW]  # I draw Rainbow, the next player faces the kitten


@pytest.mark.slow
def test_sampler_beats_careful():
    env = makeenv.make("ImplodingKittens", players=2)
    data = np.zeros(16)
    data[0] = 60  # half the level's play-outs, to keep the test short
    # measured 0.730 (292 of 400, README); 300 games give a standard error of about 0.027, so 0.6
    # sits some five below that and three and a half above even (0.5: level 3 no better). The
    # games stop once the share is clearly above 0.6 (tests/support/strength.py)
    assert_wins_above(
        lambda n, seed: env.evaluate(sampler, n, data.copy(), level=1, seed=seed), 0.6, most=300, batch=50, seed=5
    )


def test_bots_play_only_valid_actions_and_read_only_their_state():
    seed_numba(4)
    data = np.zeros(16)
    data[0] = 20
    weights = B.LEVELS[2].initial_data()
    for players in (2, 6):
        env = L.initEnv(players)
        while L.checkEnded(env) == -1:
            state = L.getAgentState(env)
            seat = L.getCurrentPlayer(env)
            assert L.isValidAction(state, B.learned(state, weights)[0])
            if seat == 1:
                action, weights = B.learned(state.copy(), weights)
            else:
                action, data = (sampler if seat == 0 else careful)(state.copy(), data)
            assert L.isValidAction(state, action)
            # careful is a function of the state alone: the same state, the same move
            assert careful(state, data)[0] == careful(state.copy(), data)[0]
            L.stepEnv(action, env)


def test_the_levels_are_careful_learned_and_the_sampler():
    env = makeenv.make("ImplodingKittens", players=6)
    assert list(env.levels) == [0, 1, 2, 3]
    assert env.bot(1) is careful and env.bot(3) is sampler
    bot = env.opponents(2)[0]
    assert bot.policy is B.learned and bot.data.size > B.VIEW_SIZE * 16 // 2  # float32 weights two a slot


def random_states(players, games, seed):
    """The states met in random games (every player's view at each move, the final ones too)."""
    seed_numba(seed)
    rng = np.random.default_rng(seed)
    for _ in range(games):
        env = L.initEnv(players)
        while L.checkEnded(env) == -1:
            state = L.getAgentState(env)
            yield env, state
            L.stepEnv(int(rng.choice(np.flatnonzero(L.getValidActions(state)))), env)


def test_the_learned_level_sees_keen_s_choice_and_reads_only_its_own_state():
    data = B.LEVELS[2].initial_data()
    moves = departures = 0
    for _, state in random_states(6, 6, seed=12):
        seen, actions = B.policy_view(state)
        assert seen.shape == (B.VIEW_SIZE,) and np.array_equal(seen[: L.STATE_SIZE], state)
        assert np.array_equal(actions, np.arange(L.NUM_ACTIONS))
        choice = keen(state, np.zeros(1))[0]
        assert np.flatnonzero(seen[L.STATE_SIZE : L.STATE_SIZE + L.NUM_ACTIONS]).tolist() == [choice]
        action, _ = B.learned(state, data)
        assert L.isValidAction(state, action)
        # the same view of another deal of the hidden cards: the same move
        same = L.getAgentState(L.sampleEnv(state))
        np.testing.assert_array_equal(same, state)
        assert B.learned(same, data.copy())[0] == action
        if L.getValidActions(state).sum() > 1:
            moves += 1
            departures += action != choice
    assert moves > 200 and 0 < departures < moves // 2  # it departs from keen, now and then


@pytest.mark.slow
def test_the_learned_level_beats_careful():
    env = makeenv.make("ImplodingKittens", players=6)
    bot = env.opponents(2)[0]
    # one L2 against five careful bots: measured 22.4% of 20,000 games (README), one careful bot 17.0%;
    # 10,000 games give a standard error of 0.42 points, so 0.20 sits some five below the measure and
    # seven above a careful bot's share
    assert env.evaluate(bot.policy, 10_000, bot.initial_data(), level=1, seed=3).win_rate > 0.20
    two = makeenv.make("ImplodingKittens", players=2)
    # L2 against careful, two players: measured 67.4% of 20,000 games (README), careful against careful
    # 50%; 4,000 games give a standard error of 0.75 points
    assert two.evaluate(bot.policy, 4_000, bot.initial_data(), level=1, seed=3).win_rate > 0.60


# ---- drawings and words --------------------------------------------------------------------------


def test_render_and_words_for_sampled_states():
    seed_numba(9)
    rng = np.random.default_rng(9)
    env = L.initEnv(6)
    count = 0
    while L.checkEnded(env) == -1:
        state = L.getAgentState(env)
        legal = set(np.flatnonzero(L.getValidActions(state)).tolist())
        clickable = set(clickable_actions(ElementTree.fromstring(render(state))))
        assert clickable == legal, (clickable, legal)
        assert "Your hand" in describe_state(state) and "Imploding Kitten" in describe_state(state)
        L.stepEnv(int(rng.choice(sorted(legal))), env)
        count += 1
    final = L.getPlayerState(env, 0)
    ElementTree.fromstring(render(final))
    assert "won" in describe_state(final) or "out" in describe_state(final)
    assert count > 20
    assert describe_action(L.A_REVERSE).startswith("Play Reverse (")
    assert describe_action(L.A_ORDER + 2) == "Put the top three back in the order 2nd, 1st, 3rd (as seen, top first)"
    assert describe_action(L.A_DISCARD + FERAL) == "Discard a Feral Cat for the combo"
    with pytest.raises(ValueError, match="expected a state of length 188"):
        describe_state(np.zeros(5))

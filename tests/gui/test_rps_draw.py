"""RockPaperScissors drawings: what a person must read at a glance, in every phase."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from makeenv.games.rock_paper_scissors import draw, logic
from tests.gui.conftest import decode_png


def picture(env: np.ndarray, player: int) -> str:
    svg = draw.render(logic.getPlayerState(env, player))
    ET.fromstring(svg)  # well-formed XML
    return svg


def test_describe_action_names_every_action():
    assert [draw.describe_action(a) for a in range(4)] == ["Scissors", "Rock", "Paper", "Confirm"]
    assert "7" in draw.describe_action(7)


def test_choice_phase_hides_the_opponents_choice():
    env = logic.initEnv()
    start = picture(env, 0)
    assert "Round 1" in start and "Choose Scissors, Rock or Paper" in start
    logic.stepEnv(logic.ROCK, env)
    mine = picture(env, 0)
    assert "You chose Rock" in mine
    theirs = picture(env, 1)
    drawing, clickable = re.subn(r'<g data-action="\d"[^>]*>.*?</g>', "", theirs)
    assert clickable == 3  # Scissors, Rock and Paper to click, without telling what the other chose
    assert "Rock" not in drawing.replace("Scissors, Rock or Paper", "")
    assert "hidden until both chose" in theirs


def test_confirmation_shows_both_choices_and_the_rounds_result():
    env = logic.initEnv()
    logic.stepEnv(logic.PAPER, env)
    logic.stepEnv(logic.ROCK, env)
    p0, p1 = picture(env, 0), picture(env, 1)
    assert "confirmation phase" in p0 and "Confirm to go on" in p0
    assert "Paper beats Rock: you win the round" in p0
    assert "Paper beats Rock: the opponent wins the round" in p1
    logic.stepEnv(logic.CONFIRM, env)
    logic.stepEnv(logic.CONFIRM, env)
    assert "You won the game!" in picture(env, 0)
    assert "You lost the game" in picture(env, 1)


def test_a_tie_says_so_and_the_next_round_counts_it():
    env = logic.initEnv()
    logic.stepEnv(logic.SCISSORS, env)
    logic.stepEnv(logic.SCISSORS, env)
    assert "Both chose Scissors: a tie, a new round follows" in picture(env, 0)
    logic.stepEnv(logic.CONFIRM, env)
    logic.stepEnv(logic.CONFIRM, env)
    again = picture(env, 1)
    assert "Round 2" in again and "1 tied round so far" in again


def test_no_winner_after_the_round_limit():
    state = np.zeros(logic.STATE_SIZE)
    state[logic.S_OVER] = 1.0
    state[logic.S_CONFIRM] = 1.0
    state[logic.S_ROUND] = logic.MAX_ROUNDS
    state[logic.S_MINE + logic.ROCK] = 1.0
    state[logic.S_THEIRS + logic.ROCK] = 1.0
    svg = draw.render(state)
    assert f"No winner after {logic.MAX_ROUNDS} tied rounds" in svg
    assert f"Round {logic.MAX_ROUNDS} ·" in svg and "Both chose Rock: a tie<" in svg


def test_the_last_tied_round_drawn_from_the_real_rules():
    env = logic.initEnv()
    for _ in range(logic.MAX_ROUNDS):
        for action in (logic.PAPER, logic.PAPER, logic.CONFIRM, logic.CONFIRM):
            logic.stepEnv(action, env)
    assert logic.checkEnded(env) == 2
    svg = picture(env, 1)
    assert "No winner after 100 tied rounds" in svg and "Round 100 ·" in svg


def test_render_rejects_a_state_of_the_wrong_length():
    with pytest.raises(ValueError, match="length 11"):
        draw.render(np.zeros(3))


def test_the_png_decoder_of_the_screenshot_check_matches_pillow():
    Image = pytest.importorskip("PIL.Image")
    rng = np.random.default_rng(0)
    pixels = rng.integers(0, 255, size=(17, 23, 3), dtype=np.uint8)
    pixels[5:9] = 200  # flat rows favour other PNG filters
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, format="PNG", optimize=True)
    width, height, bpp, rows = decode_png(buffer.getvalue())
    assert (width, height, bpp) == (23, 17, 3)
    assert b"".join(rows) == pixels.tobytes()

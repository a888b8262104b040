"""The page in a real browser: Playwright driving Debian's Chromium against uvicorn on 127.0.0.1.

Screenshots are saved under artifacts/gui/ (gitignored) and checked to be non-blank.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.gui.conftest import OPPONENT_TEXT, assert_not_blank

pytestmark = pytest.mark.browser


def shot(page: Any, artifacts: Path, name: str, **kw: Any) -> Path:
    path = artifacts / f"{name}.png"
    page.screenshot(path=str(path), **kw)
    assert_not_blank(path)
    return path


def frame_number(page: Any) -> tuple[int, int]:
    found = re.match(r"State (\d+) of (\d+)", page.inner_text("#frame-label"))
    assert found, page.inner_text("#frame-label")
    return int(found.group(1)), int(found.group(2))


def wait_frame(page: Any, index: int) -> None:
    """Wait until the page has drawn state ``index`` (a past state is fetched from the server)."""
    page.wait_for_function(
        f"document.querySelector('#frame-label').textContent.startsWith('State {index} ') && "
        f"document.querySelector('#caption').dataset.frame === '{index}'")


def test_play_a_whole_rock_paper_scissors_game_by_clicking(rps_server, page, artifacts):
    page.goto(rps_server.url)
    page.wait_for_selector("#actions button")
    assert page.inner_text("#game-name") == "RockPaperScissors"
    # The guide: every action with what it means (and the README when the game has one).
    guide = page.inner_text("#action-guide")
    for label in ("Scissors", "Rock", "Paper", "Confirm"):
        assert label in guide
    page.select_option("#level", "1")
    page.click("#new-game")
    page.wait_for_selector("#actions button")
    assert "Level 1" in page.inner_text("#seatline")
    shot(page, artifacts, "rps-start")

    clicks = 0
    while page.locator("#banner").is_hidden():
        buttons = page.locator("#actions button")
        buttons.first.wait_for()
        labels = buttons.all_inner_texts()
        if any(label.startswith("Rock") for label in labels):
            assert [label.split()[0] for label in labels] == ["Scissors", "Rock", "Paper"]
            page.click("#actions button[data-action='2']")  # Paper beats the rock-lover's favourite
        else:
            assert [label.split()[0] for label in labels] == ["Confirm"]
            if clicks < 2:
                shot(page, artifacts, "rps-confirmation")  # both choices revealed
            page.click("#actions button[data-action='3']")
        clicks += 1
        page.wait_for_function(f"document.querySelectorAll('#actions button:disabled').length === 0")
        assert clicks < 400, "the game did not end"
    banner = page.inner_text("#banner")
    assert re.search(r"You won!|won\. You lost\.|no winner", banner), banner
    assert page.locator("#actions button").count() == 0
    image = page.get_attribute("#board-img", "src")
    assert image.startswith("data:image/svg+xml;base64,")
    path = shot(page, artifacts, "rps-game-over", full_page=True)
    assert path.stat().st_size > 10_000

    # The history downloads as JSON with every state shown on the slider.
    index, last = frame_number(page)
    assert index == last >= 4
    with page.expect_download() as download_info:
        page.click("#download")
    record = json.loads(Path(download_info.value.path()).read_text())
    assert len(record["states"]) == last + 1 and record["result"]["text"] in banner


def test_scrub_the_history_with_buttons_slider_and_keys(rps_server, page, artifacts):
    page.goto(rps_server.url)
    page.wait_for_selector("#actions button")
    page.click("#actions button[data-action='1']")
    page.wait_for_selector("#actions button[data-action='3']")
    page.click("#actions button[data-action='3']")
    page.wait_for_function("document.querySelector('#history-slider').max >= 4")
    index, last = frame_number(page)
    latest_image = page.get_attribute("#board-img", "src")

    page.click("#prev")
    wait_frame(page, last - 1)
    assert frame_number(page) == (last - 1, last)
    assert "Viewing the past" in page.inner_text("#turn")
    assert page.locator("#actions button").count() == 0  # no playing from the past
    page.keyboard.press("ArrowLeft")
    wait_frame(page, last - 2)
    page.eval_on_selector("#history-slider",
                          "el => { el.value = '0'; el.dispatchEvent(new Event('input')); }")
    wait_frame(page, 0)
    assert page.inner_text("#caption") == "Start of the game."
    assert page.get_attribute("#board-img", "src") != latest_image
    assert page.is_disabled("#prev")
    shot(page, artifacts, "rps-history-start")
    page.click("#next")
    wait_frame(page, 1)
    page.click("#live")
    wait_frame(page, last)
    assert page.locator("#actions button").count() > 0 or page.locator("#banner").is_visible()


def test_watch_an_agent_play_a_whole_game(rps_server, page, artifacts):
    page.goto(rps_server.url)
    page.wait_for_selector("#actions button")
    assert "level-2 bot" in page.inner_text("#mode")
    page.select_option("#mode", "watch")
    page.select_option("#level", "0")
    page.click("#new-game")
    page.wait_for_function("document.querySelector('#seatline').textContent.startsWith('Watching')")
    page.wait_for_selector("#banner:not([hidden])")
    banner = page.inner_text("#banner")
    assert re.search(r"The agent won\.|The agent lost\.|no winner", banner), banner
    wait_frame(page, 0)  # a watched game opens at its first state
    index, last = frame_number(page)
    assert index == 0 and last >= 4
    captions = []
    for _ in range(last):
        page.click("#next")
        wait_frame(page, len(captions) + 1)
        captions.append(page.inner_text("#caption"))
        if len(captions) == 3:
            shot(page, artifacts, "rps-watch-confirmation")
    assert any("Agent (level-2 bot) played" in c for c in captions)
    assert any("Bot" in c and "played" in c for c in captions)
    assert "Game over." in page.inner_text("#turn")
    page.click("summary")
    assert page.inner_text("#env-vec").startswith("[")  # a spectator sees the referee's env
    shot(page, artifacts, "rps-watch-end", full_page=True)


def test_an_invalid_request_shows_the_servers_message(rps_server, page):
    page.goto(rps_server.url)
    page.wait_for_selector("#actions button")
    page.evaluate("app.session.session_id = 'no-such-session'")
    page.click("#actions button[data-action='1']")
    page.wait_for_selector("#error:not([hidden])")
    assert "Unknown session" in page.inner_text("#error")


def test_play_scenario_planning_with_a_test_jury(text_server, page, artifacts):
    page.goto(text_server.url)
    page.wait_for_selector("#submit:enabled")
    assert page.inner_text("#game-name") == "ScenarioPlanning-v0"
    assert page.locator("#level-wrap").is_hidden() and page.locator("#mode-wrap").is_hidden()
    assert len(page.inner_text("#scenario")) > 40
    assert "Rules" in page.inner_text("#guide") or "Scenario" in page.inner_text("#guide")
    assert page.locator("#results").is_hidden()  # the opponent's strategy stays hidden

    page.click("#submit")  # empty: the server says why, the game goes on
    page.wait_for_selector("#error:not([hidden])")
    assert "empty" in page.inner_text("#error")

    strategy = ("1. Secure water: collect rain and boil it.\n2. Shelter: insulate one room.\n"
                "3. People: organise neighbours into shifts and share food.")
    page.fill("#strategy", strategy)
    assert page.inner_text("#char-count") == f"{len(strategy)} characters"
    shot(page, artifacts, "scenario-writing")
    page.click("#submit")
    page.wait_for_selector("#banner:not([hidden])")
    assert page.inner_text("#banner") == "You won: the jury preferred your strategy."
    assert page.inner_text("#s-left") == strategy
    assert page.inner_text("#s-right") == OPPONENT_TEXT
    rows = page.locator("#ballots tbody tr")
    assert rows.count() == 5
    assert "abstained" in rows.nth(2).inner_text()
    assert "4" in page.inner_text("#votes") and "Player 1 (you)" in page.inner_text("#votes")
    assert page.locator("#compose").is_hidden()
    path = shot(page, artifacts, "scenario-result", full_page=True)
    assert path.stat().st_size > 20_000
    with page.expect_download() as download_info:
        page.click("#text-download")
    record = json.loads(Path(download_info.value.path()).read_text())
    assert record["strategies_by_player"]["Player 1"] == strategy and len(record["verdict"]["ballots"]) == 5

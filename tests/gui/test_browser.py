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
        f"document.querySelector('#caption').dataset.frame === '{index}'"
    )


def start_new_game(page: Any, seat: int | None = None) -> None:
    """Click "New game" and wait until the page shows it: the game started on load (its bot may
    still be thinking) stays on screen until the new session arrives."""
    first_session = page.evaluate("app.session.session_id")
    page.click("#new-game")
    seated = "" if seat is None else f" && app.session.seat === {seat}"
    page.wait_for_function(f"app.session.session_id !== {first_session!r}{seated}")


def test_play_a_whole_rock_paper_scissors_game_by_clicking_the_picture(rps_server, page, artifacts):
    page.goto(rps_server.url)
    page.wait_for_selector("#actions button")
    assert page.inner_text("#game-name") == "RockPaperScissors"
    # The guide: every action with what it means (and the README when the game has one).
    guide = page.inner_text("#action-guide")
    for label in ("Scissors", "Rock", "Paper", "Confirm"):
        assert label in guide
    page.select_option("#level", "1")
    start_new_game(page)
    page.wait_for_selector("#actions button")
    assert "Level 1" in page.inner_text("#seatline")
    shot(page, artifacts, "rps-start")

    clicks = 0
    while page.locator("#banner").is_hidden():
        buttons = page.locator("#actions button")
        buttons.first.wait_for()
        labels = buttons.all_inner_texts()
        playable = page.locator("#board-svg [data-action].playable")
        # The picture's own buttons play exactly the valid actions; the page's buttons stay too.
        assert sorted(playable.evaluate_all("els => els.map(e => e.getAttribute('data-action'))")) == sorted(
            page.locator("#actions button").evaluate_all("els => els.map(e => e.dataset.action)")
        )
        before = page.evaluate("document.body.dataset.updates")
        if any(label.startswith("Rock") for label in labels):
            assert [label.split()[0] for label in labels] == ["Scissors", "Rock", "Paper"]
            page.click("#board-svg [data-action='2']")  # Paper beats the rock-lover's favourite
        else:
            assert [label.split()[0] for label in labels] == ["Confirm"]
            if clicks < 2:
                page.hover("#board-svg [data-action='3']")
                hovered = page.locator("#board-svg [data-action='3']")
                assert "drop-shadow" in hovered.evaluate("el => getComputedStyle(el).filter")
                assert hovered.evaluate("el => getComputedStyle(el).cursor") == "pointer"
                shot(page, artifacts, "rps-confirmation")  # both choices revealed, Confirm highlighted
            page.click("#board-svg [data-action='3']")
        clicks += 1
        page.wait_for_function(f"document.body.dataset.updates !== '{before}'")
        assert clicks < 400, "the game did not end"
    banner = page.inner_text("#banner")
    assert re.search(r"You won!|won\. You lost\.|ended with no winner|No winner", banner), banner
    returns = page.inner_text("#returns")
    assert returns.startswith("Returns: ") and re.search(r"You (\+1|−1|0)\b", returns), returns
    assert page.locator("#actions button").count() == 0 and page.locator("#board-svg .playable").count() == 0
    assert page.locator("#board-svg svg").count() == 1 and page.locator("#board-img").is_hidden()
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
    latest_picture = page.inner_html("#board-svg")

    page.click("#prev")
    wait_frame(page, last - 1)
    assert frame_number(page) == (last - 1, last)
    assert "Viewing the past" in page.inner_text("#turn")
    assert page.locator("#actions button").count() == 0  # no playing from the past
    page.keyboard.press("ArrowLeft")
    wait_frame(page, last - 2)
    page.eval_on_selector("#history-slider", "el => { el.value = '0'; el.dispatchEvent(new Event('input')); }")
    wait_frame(page, 0)
    assert page.inner_text("#caption") == "Start of the game"
    assert page.inner_html("#board-svg") != latest_picture
    # A past picture's choices are drawn but inert: nothing to play from the past.
    assert page.locator("#board-svg .playable").count() == 0
    inert = page.locator("#board-svg [data-action].inert")
    assert inert.count() == 3 and inert.first.evaluate("el => getComputedStyle(el).cursor") == "default"
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
    assert any(c.startswith("Agent (level-2 bot) played ") for c in captions)
    assert any(
        re.fullmatch(r"Player [01] \(bot, level 0\) played (Scissors|Rock|Paper)", c) for c in captions
    )  # all shown
    assert "Game over." in page.inner_text("#turn")
    page.click("summary")
    assert page.inner_text("#env-vec").startswith("[")  # a spectator sees the referee's env
    shot(page, artifacts, "rps-watch-end", full_page=True)


def test_the_person_chooses_a_seat_before_the_game(rps_server, page):
    page.goto(rps_server.url)
    page.wait_for_selector("#actions button")
    assert page.locator("#seat option").all_inner_texts() == ["Random", "Move first", "Player 0", "Player 1"]
    page.select_option("#seat", "first")
    page.click("#new-game")
    page.wait_for_function("document.querySelector('#seatline').textContent.includes('Player 0: You')")
    assert page.inner_text("#turn") == "Your move." and page.inner_text("#caption") == "Start of the game"
    page.select_option("#seat", "1")
    page.click("#new-game")
    page.wait_for_function("document.querySelector('#seatline').textContent.includes('Player 1: You')")
    assert page.inner_text("#caption") == "Player 0 (bot, level 1) chose (hidden)"  # a private choice stays hidden
    page.click("#board-svg [data-action='1']")
    page.wait_for_function(
        "document.querySelector('#caption').textContent === 'Player 0 (bot, level 1) played Confirm'"
    )
    page.click("#actions button[data-action='3']")  # the page's buttons play too
    # the round ends: a tie starts a new round (the bot chooses first again), else the game is over
    page.wait_for_function(
        "document.querySelector('#caption').textContent === 'Player 0 (bot, level 1) chose (hidden)'"
        " && document.querySelector('#frame-label').textContent.startsWith('State 5 ')"
        " || !document.querySelector('#banner').hidden"
    )


def test_an_invalid_request_shows_the_servers_message(rps_server, page):
    page.goto(rps_server.url)
    page.wait_for_selector("#actions button")
    page.evaluate("app.session.session_id = 'no-such-session'")
    page.click("#actions button[data-action='1']")
    page.wait_for_selector("#error:not([hidden])")
    assert "Unknown session" in page.inner_text("#error")


def test_play_scenario_planning_with_a_test_jury(text_server, page, artifacts):
    page.goto(text_server.url)
    page.wait_for_selector("body[data-updates]")
    assert page.inner_text("#game-name") == "ScenarioPlanning-v0"
    assert page.locator("#level-wrap").is_hidden() and page.locator("#mode-wrap").is_hidden()
    page.select_option("#seat", "1")
    start_new_game(page, seat=1)
    page.wait_for_selector("#submit:enabled")
    transcript = page.inner_text("#transcript")
    assert "Scenario: " in transcript and len(transcript) > 200
    assert page.inner_text("#answer-label") == "YOUR STRATEGY" and page.inner_text("#submit") == "Submit strategy"
    assert "Rules" in page.inner_text("#guide") or "Scenario" in page.inner_text("#guide")
    assert page.locator("#panel").is_hidden()  # the opponent's strategy stays hidden
    assert page.locator("#text-picture").is_hidden()  # the game draws nothing

    page.click("#submit")  # empty: the server says why, the game goes on
    page.wait_for_selector("#error:not([hidden])")
    assert "empty" in page.inner_text("#error")

    strategy = (
        "1. Secure water: collect rain and boil it.\n2. Shelter: insulate one room.\n"
        "3. People: organise neighbours into shifts and share food."
    )
    page.fill("#answer", strategy)
    assert page.inner_text("#char-count") == f"{len(strategy)} characters"
    shot(page, artifacts, "scenario-writing")
    page.click("#submit")
    page.wait_for_selector("#banner:not([hidden])")
    assert page.inner_text("#banner") == "You won."
    cards = page.locator("#panel .card-text").all_inner_texts()
    assert strategy in cards and OPPONENT_TEXT in cards
    rows = page.locator("#panel table tbody tr")
    assert rows.count() == 5
    assert "abstained" in rows.nth(2).inner_text()
    assert "4 votes" in page.inner_text("#panel") and "PLAYER 1 (YOU)" in page.inner_text("#panel")
    assert page.locator("#compose").is_hidden()
    path = shot(page, artifacts, "scenario-result", full_page=True)
    assert path.stat().st_size > 20_000
    with page.expect_download() as download_info:
        page.click("#text-download")
    record = json.loads(Path(download_info.value.path()).read_text())
    assert record["game_info"]["strategies"]["Player 1"] == strategy and len(record["game_info"]["ballots"]) == 5


def test_play_an_array_game_in_words_by_clicking_its_picture(page, artifacts):
    """TicTacToe-text: the game's own picture from the person's seat; a click sends "[k]"; typing works too."""
    from makeenv.gui import ServerThread, create_app

    with ServerThread(create_app("TicTacToe-text")) as server:
        page.goto(server.url)
        page.wait_for_selector("body[data-updates]")
        assert page.inner_text("#game-kind") == "text game · 2 players"
        assert "Bots of level 1" in page.inner_text("#level")
        page.select_option("#level", "0")
        page.select_option("#seat", "0")
        start_new_game(page, seat=0)
        page.wait_for_selector("#text-board-svg [data-action].playable")
        assert page.locator("#text-options button").count() == 9
        page.fill("#answer", "row 2, column 2")
        page.press("#answer", "Enter")  # one line: Enter sends it
        page.wait_for_function("document.querySelector('#transcript').textContent.includes('You played: Mark row 2')")
        for _ in range(5):
            if not page.locator("#banner").is_hidden():
                break
            updates = page.evaluate("document.body.dataset.updates")
            page.locator("#text-board-svg [data-action].playable").first.click()
            page.wait_for_function(f"document.body.dataset.updates !== '{updates}'")
        page.wait_for_selector("#banner:not([hidden])")
        assert page.inner_text("#banner") in ("You won.", "You lost.", "A draw.")
        assert "Player 0 (you)" in page.inner_text("#panel table")
        assert page.locator("#text-board-svg [data-action].playable").count() == 0
        shot(page, artifacts, "tictactoe-text-result", full_page=True)


HOSTILE = (
    '<script>window.pwned = "script"</script>'
    '<foreignObject width="10" height="10"><img xmlns="http://www.w3.org/1999/xhtml" src="x" '
    "onerror=\"window.pwned = 'foreign'\"/></foreignObject>"
    '<image href="http://example.invalid/tracker.png" width="5" height="5"/>'
    '<a href="javascript:window.pwned = \'link\'"><text id="caption" x="5" y="20" '
    "onclick=\"window.pwned = 'handler'\">Trap</text></a>"
    '<set attributeName="href" to="javascript:window.pwned = \'set\'"/>'
    '<defs><linearGradient id="shade"><stop offset="0" stop-color="#fc0"/></linearGradient></defs>'
    '<rect id="sample" x="0" y="0" width="30" height="30" fill="url(#shade)" '
    'style="fill: url(http://example.invalid/x)"/>'
    '<use href="#sample" x="40"/>'
)


def hostile_rock_paper_scissors() -> Any:
    """RockPaperScissors whose pictures carry scripts, handlers, outside links and clashing ids."""
    import types

    import makeenv.games.rock_paper_scissors as rps
    from makeenv.array.contract import load_array_env

    game = types.ModuleType("hostile_rock_paper_scissors")
    game.__dict__.update({k: v for k, v in vars(rps).items() if not k.startswith("__")})
    game.render = lambda state: (
        rps.render(state)
        .replace("</svg>", HOSTILE + "</svg>")
        .replace("<svg ", "<svg onload=\"window.pwned = 'onload'\" ", 1)
    )
    return load_array_env(game, name="RockPaperScissors")


def test_a_games_svg_is_cleaned_before_it_is_inlined(browser):
    """Nothing in a picture runs or reaches outside; the page's Content-Security-Policy is kept here."""
    from makeenv.gui import ServerThread, create_app

    requests: list[str] = []
    with ServerThread(create_app(hostile_rock_paper_scissors())) as server:
        context = browser.new_context()  # without bypass_csp: the policy applies
        page = context.new_page()
        page.on("request", lambda request: requests.append(request.url))
        try:
            page.goto(server.url)
            page.wait_for_selector("#board-svg [data-action='1'].playable")
            svg = page.locator("#board-svg svg")
            assert svg.locator("script, foreignObject, set").count() == 0
            assert (
                svg.evaluate(
                    "el => [el, ...el.querySelectorAll('*')].flatMap(e => [...e.attributes])"
                    ".filter(a => /^on/i.test(a.name)).length"
                )
                == 0
            )
            assert svg.locator("image").get_attribute("href") is None
            assert svg.locator("a").get_attribute("href") is None
            # ids are renamed (the page's own #caption is still the caption) and references follow
            assert page.locator("#caption").evaluate("el => el.tagName") == "P"
            assert svg.locator("#picture-caption").count() == 1
            assert svg.locator("rect#picture-sample").get_attribute("fill") == "url(#picture-shade)"
            assert svg.locator("rect#picture-sample").get_attribute("style") is None
            assert svg.locator("use").get_attribute("href") == "#picture-sample"
            page.locator("#picture-caption").dispatch_event("click")  # its onclick is gone
            page.click("#board-svg [data-action='1']")  # the cleaned picture still plays
            page.wait_for_selector("#board-svg [data-action='3'].playable")
            assert page.evaluate("window.pwned") is None
            assert not [url for url in requests if not url.startswith(server.url)], requests
            headers = page.request.get(server.url).headers
            assert "script-src 'self'" in headers["content-security-policy"]
        finally:
            context.close()

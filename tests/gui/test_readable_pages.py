"""The game pages at a laptop's width: readable text, every move since the person's last one, a
past state that does not ask for a move, one name per seat, the rules before the action table and
a loading message while the first game starts.

Screenshots of Splendor, SushiGo and TicTacToe at the start, mid-game, in the history view and at
the end are kept under artifacts/screenshots/ (gitignored).
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from makeenv.gui import ServerThread, create_app
from makeenv.gui.array_session import MAX_RECENT_MOVES, ArrayGame, ArraySession
from tests.gui.conftest import NEXT_MOVE, REPO, SMALL_TEXT, assert_not_blank, wait_for_update

MIN_TEXT_PX = 11
LAPTOP = {"width": 1280, "height": 800}
SEAT_NAME = re.compile(r"Player \d \(bot, level \d\)")


# ---------------------------------------------------------------- the session (no browser)


@pytest.fixture(scope="module")
def splendor_game() -> ArrayGame:
    import makeenv

    return ArrayGame(makeenv.make("Splendor"))


def test_every_move_since_the_persons_last_one_is_listed(splendor_game):
    session = ArraySession(splendor_game, "play", 0, 3, seed=1)  # the last of four seats: three bots first
    recent = session.snapshot()["recent"]
    bots = [f"Player {p} (bot, level 0)" for p in range(3)]
    assert [m["index"] for m in recent["moves"]] == list(range(1, len(session.frames)))
    assert recent["earlier"] == 0
    assert {m["caption"].split(" played ")[0] for m in recent["moves"]} == set(bots)
    assert session.snapshot()["seat_names"] == [*bots, "You"]
    for _ in range(2):  # a Splendor turn may take several steps (tokens one at a time)
        session.act(session.match.valid_action_ids()[0])
        mine = max(f.index for f in session.frames if f.actor == session.seat)
        last = len(session.frames) - 1
        indices = [m["index"] for m in session.snapshot()["recent"]["moves"]]
        # only what came after the person's own last move (just that move when nobody moved since)
        assert indices == (list(range(mine + 1, last + 1)) if mine < last else [last])


def test_a_long_run_of_moves_is_cut_to_the_latest_ones(splendor_game):
    session = ArraySession(splendor_game, "play", 0, 0, seed=2)
    for _ in range(MAX_RECENT_MOVES + 5):  # pretend the bots made many moves in a row
        session.frames.append(dataclasses.replace(session.frames[-1], index=len(session.frames), actor=1, action=0))
    recent = session.recent()
    assert len(recent["moves"]) == MAX_RECENT_MOVES and recent["moves"][-1]["index"] == len(session.frames) - 1
    assert recent["earlier"] == len(session.frames) - 1 - MAX_RECENT_MOVES


# ---------------------------------------------------------------- the pages in Chromium


@pytest.fixture(scope="module")
def shots() -> Path:
    folder = REPO / "artifacts" / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture()
def laptop(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=LAPTOP, bypass_csp=True)  # see conftest.page
    page = context.new_page()
    page.set_default_timeout(60_000)  # generous: the first game of a page may compile
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def shot(page: Any, folder: Path, name: str) -> None:
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    assert_not_blank(path)


def assert_readable(page: Any, game: str, when: str) -> None:
    small = page.evaluate(SMALL_TEXT, MIN_TEXT_PX)
    assert small == [], f"{game} {when}: text smaller than {MIN_TEXT_PX} px at 1280 px wide: {small[:10]}"


def play_moves(page: Any, rng: random.Random, moves: int) -> dict[str, Any]:
    """Click random playable elements (else action buttons) ``moves`` times or until the game ends."""
    where: dict[str, Any] = {}
    for _ in range(moves):
        where = page.evaluate(NEXT_MOVE, rng.random())
        assert not where["error"], where["error"]
        if where["banner"]:
            return where
        assert "x" in where, f"no reachable move: {where}"
        page.mouse.click(where["x"], where["y"])
        wait_for_update(page, where["updates"])
    return where


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "level", "seat", "mid"), [("Splendor", 0, 3, 40), ("SushiGo", 0, 2, 12), ("TicTacToe", 1, 1, 1)]
)
def test_a_game_page_at_a_laptops_width(game, level, seat, mid, laptop, shots):
    page = laptop
    app = create_app(game, level=level)
    with ServerThread(app) as server:
        page.goto(server.url)
        page.wait_for_function("Number(document.body.dataset.updates || 0) >= 1")
        page.select_option("#seat", str(seat))  # a late seat: several bots move before the person
        first = page.evaluate("app.session.session_id")
        page.click("#new-game")
        page.wait_for_function(f"app.session.session_id !== {first!r}")
        # The rules (the README) come before the bot levels and the action table.
        rules, after, folded = page.evaluate("""() => {
          const rules = document.querySelector("#guide"), table = document.querySelector("#action-guide .action-table");
          return [rules.textContent, !!(rules.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING),
                  !table.open]; }""")
        assert rules.startswith(game) and after, "the guide must open with the game's rules, the actions after them"
        assert folded == (page.evaluate("app.info.actions.length") > 12)  # a long table starts folded
        players = page.evaluate("app.session.players")
        # One name per seat, the same in the header, the picture and the captions.
        seatline = page.inner_text("#seatline")
        names = SEAT_NAME.findall(seatline)
        assert f"Player {seat}: You" in seatline and len(names) == players - 1, seatline
        drawn = page.locator("#board-svg [data-relative-seat]").all_text_contents()
        assert set(drawn) <= {*names, "You"} and (players < 3 or set(names) <= set(drawn)), drawn
        caption = page.inner_text("#caption").splitlines()
        # every bot's move before the person's first, not just the last one
        assert len(caption) == page.evaluate("app.session.length") - 1, caption
        assert {SEAT_NAME.match(line).group() for line in caption} == {
            f"Player {p} (bot, level {level})" for p in range(seat)
        }, caption
        assert_readable(page, game, "at the start")
        shot(page, shots, f"{game}-start")

        rng = random.Random(game)
        play_moves(page, rng, mid)
        assert_readable(page, game, "mid-game")
        shot(page, shots, f"{game}-mid")

        # The history view: an earlier state's picture does not ask for a move.
        last = page.evaluate("app.session.length") - 1
        page.eval_on_selector("#history-slider", "el => { el.value = '1'; el.dispatchEvent(new Event('input')); }")
        page.wait_for_function("document.querySelector('#caption').dataset.frame === '1'")
        prompts = page.locator("#board-svg [data-prompt]").all_text_contents()
        assert prompts == [f"Past state 1 of {last}"], prompts
        assert "Your turn" not in page.text_content("#board-svg") and page.locator("#board-svg .playable").count() == 0
        assert page.locator("#picture.past").count() == 1
        assert_readable(page, game, "in the history view")
        shot(page, shots, f"{game}-history")
        page.click("#live")
        page.wait_for_function(f"document.querySelector('#caption').dataset.frame === '{last}'")
        assert page.locator("#picture.past").count() == 0

        end = play_moves(page, rng, 2000)
        assert end.get("banner"), f"{game}: no end"
        assert_readable(page, game, "at the end")
        shot(page, shots, f"{game}-end")


@pytest.mark.browser
def test_the_page_says_it_is_loading_while_the_first_game_starts(laptop):
    page = laptop
    app = create_app("TicTacToe", level=1)
    held: list[Any] = []
    with ServerThread(app) as server:
        page.route("**/api/sessions", lambda route: held.append(route))  # the first game waits here
        page.goto(server.url)
        page.wait_for_function("document.querySelector('#loading').textContent.startsWith('Starting the first game')")
        assert page.is_visible("#loading") and "several seconds" in page.inner_text("#loading")
        page.wait_for_function("true")  # let the held request arrive
        assert held, "the page did not ask for a game"
        held[0].continue_()
        page.unroute("**/api/sessions")
        page.wait_for_function("Number(document.body.dataset.updates || 0) >= 1")
        assert page.is_hidden("#loading")

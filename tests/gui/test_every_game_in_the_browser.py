"""Every registered array game, played to its end in Chromium by clicking its own picture.

One browser page and one server host every game (each app mounted under /games/NAME/); the person
plays against level 0 (or the game's level in LEVEL) from a random seat, clicking a random playable
``data-action`` element of the picture (the action buttons only when the picture offers none).
After the first move and at the end no text on the page (the picture's, scaled as shown) is smaller
than MIN_TEXT_PX at 1280 px wide. A screenshot of each finished game goes to a pytest tmp folder,
and to $MAKEENV_SCREENSHOTS when it is set.
"""

from __future__ import annotations

import os
import random
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.games.support import ARRAY_GAMES
from tests.gui.conftest import NEXT_MOVE, SMALL_TEXT, assert_not_blank, wait_for_update

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MAX_MOVES = 600
# Games whose random play outlasts MAX_MOVES, or makes the test long, face bots that end them
# sooner. Catan: one random seat makes 643 moves on average against three random players (99th
# percentile 1,581; 2,000 games), 141 against three level-1 builders (99th percentile 260, most
# 313). Century: 151 against random players, 56 against level 1; StoneAge: 210 and 147 (20 games).
LEVEL = {"Catan": 1, "Century": 1, "StoneAge": 1}
MIN_TEXT_PX = 11  # the smallest text (CSS px) the page may show at 1280 px wide
RESULT = re.compile(
    r"You won!|You shared first place with .+\.|.+ won\. You lost\.|No winner: .+|"
    r"The game ended with no winner\.|Everybody shares first place: a draw\."
)


@pytest.fixture(scope="module")
def host() -> Iterator[Callable[[str, Any], str]]:
    """One uvicorn server; ``host(name, app)`` mounts an app at /games/NAME/ and returns its URL."""
    from starlette.applications import Starlette
    from starlette.routing import Mount

    from makeenv.gui import ServerThread

    root = Starlette()
    with ServerThread(root) as server:

        def mount(name: str, app: Any) -> str:
            root.router.routes.append(Mount(f"/games/{name}", app=app))
            return f"{server.url}games/{name}/"

        yield mount


@pytest.fixture(scope="module")
def shared_page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)  # see conftest.page
    page = context.new_page()
    page.set_default_timeout(30_000)  # generous: the test machine may be busy
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.js_errors = errors  # type: ignore[attr-defined]
    yield page
    context.close()


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("screenshots")


@pytest.mark.parametrize("game", ARRAY_GAMES)
def test_play_a_whole_game_by_clicking_its_picture(game: str, host: Any, shared_page: Any, screenshots: Path) -> None:
    from makeenv.gui import create_app

    page = shared_page
    level = LEVEL.get(game, 0)
    app = create_app(game, level=level)
    info = app.state.game.info()
    labels = [a["label"] for a in info["actions"]]
    private = {labels[a] for a in info["private_actions"]} - {
        labels[a] for a in range(len(labels)) if a not in info["private_actions"]
    }
    page.goto(host(game, app))
    page.wait_for_function("Number(document.body.dataset.updates || 0) >= 1")
    assert page.inner_text("#game-name") == game
    rng = random.Random(game)
    picture_clicks = button_clicks = 0
    for _ in range(MAX_MOVES):
        where = page.evaluate(NEXT_MOVE, rng.random())
        assert not where["error"], f"{game}: {where['error']}"
        if where["banner"]:  # the game is over (and shows every move now)
            break
        for line in where["caption"].splitlines():  # every move since the person's last one
            played = re.match(rf"Player \d+ \(bot, level {level}\) played (.+)$", line)
            assert not (played and played.group(1) in private), f"{game}: a private action was shown: {line!r}"
        if picture_clicks + button_clicks == 1:  # readable at a laptop's width, while playing
            assert page.evaluate(SMALL_TEXT, MIN_TEXT_PX) == [], f"{game}: text smaller than {MIN_TEXT_PX} px"
        assert "action" in where, f"{game}: neither the picture nor the buttons offer a move"
        assert "x" in where, f"{game}: the element of action {where['action']} is covered: a click cannot reach it"
        page.mouse.click(where["x"], where["y"])
        if where["picture"]:
            picture_clicks += 1
        else:
            button_clicks += 1
        wait_for_update(page, where["updates"])
    else:
        pytest.fail(f"{game}: no end after {MAX_MOVES} moves")
    banner = where["banner"]
    assert RESULT.fullmatch(banner), banner
    assert page.inner_text("#returns").startswith("Returns: ")
    assert page.locator("#actions button").count() == 0 and page.locator("#board-svg .playable").count() == 0
    if page.locator("#board-svg svg").count():  # an SVG game is played by clicking its picture
        assert picture_clicks > 0, f"{game}: the picture offered nothing to click ({button_clicks} buttons)"
    path = screenshots / f"{game}.png"
    page.screenshot(path=str(path), full_page=True)
    assert_not_blank(path)
    assert page.evaluate(SMALL_TEXT, MIN_TEXT_PX) == [], f"{game}: text smaller than {MIN_TEXT_PX} px at the end"
    if os.environ.get("MAKEENV_SCREENSHOTS"):
        folder = Path(os.environ["MAKEENV_SCREENSHOTS"])
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, folder / path.name)
    assert not page.js_errors, page.js_errors

"""Shared fixtures of the GUI tests: real uvicorn servers on 127.0.0.1 and Debian's Chromium."""

from __future__ import annotations

import os
import re
import struct
import subprocess
import sys
import time
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "gui"


# ---------------------------------------------------------------- games and servers


@pytest.fixture(scope="session")
def rps_env() -> Any:
    import makeenv

    return makeenv.make("RockPaperScissors")


@pytest.fixture(scope="session")
def rps_server(rps_env: Any) -> Iterator[Any]:
    """RockPaperScissors served for real (uvicorn in a thread), with an agent to watch."""
    from makeenv.gui import ServerThread, create_app

    app = create_app("RockPaperScissors", level=1, agent=rps_env.bot(2), agent_name="level-2 bot")
    with ServerThread(app) as server:
        yield server


def make_test_jury_class() -> Any:
    """A small Jury for tests: every juror votes for the longer strategy; juror 2 abstains."""
    from tests.gui.juries import LongerStrategyJury

    return LongerStrategyJury


OPPONENT_TEXT = "Find water first, then shelter."


def opponent_agent(observation: str) -> str:
    """The text opponent of the tests: a short fixed strategy (so a longer human one wins)."""
    return OPPONENT_TEXT


@pytest.fixture(scope="session")
def text_server() -> Iterator[Any]:
    """ScenarioPlanning-v0 served for real with the test jury (5 jurors) and a fixed opponent."""
    from makeenv.gui import ServerThread, create_app

    app = create_app(
        "ScenarioPlanning-v0",
        text_agent=opponent_agent,
        agent_name="fixed test opponent",
        jury_name="test jury (longer wins)",
        env_kwargs={"jury_class": make_test_jury_class(), "jury_size": 5},
    )
    with ServerThread(app) as server:
        yield server


REPO = Path(__file__).resolve().parents[2]


MAKEENV = [sys.executable, "-c", "from makeenv.cli import main; main()"]  # the `makeenv` console script


def cli_env() -> dict[str, str]:
    """The environment for a ``makeenv`` subprocess: this checkout first on the path."""
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
        "PYTHONUNBUFFERED": "1",
    }


def run_makeenv(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([*MAKEENV, *args], cwd=REPO, env=cli_env(), capture_output=True, text=True, timeout=timeout)


def spawn_play(*args: str, timeout: float = 60) -> tuple[subprocess.Popen, str]:
    """Run ``makeenv play ARGS --no-browser`` in a subprocess; return it and the URL it printed."""
    command = [*MAKEENV, "play", *args, "--no-browser"]
    process = subprocess.Popen(
        command, cwd=REPO, env=cli_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    deadline = time.time() + timeout
    lines = []
    while time.time() < deadline:
        line = process.stdout.readline()
        if not line:
            if process.poll() is not None:
                break
            continue
        lines.append(line)
        found = re.search(r"(http://\S+/)", line)
        if found:
            return process, found.group(1)
    stop(process)
    raise AssertionError(f"makeenv play did not print its URL: {''.join(lines)}")


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    if process.stdout is not None:
        process.stdout.close()


@pytest.fixture(scope="session")
def rps_subprocess() -> Iterator[str]:
    """``makeenv play RockPaperScissors`` as its own process (its own GIL): yields the URL."""
    process, url = spawn_play("RockPaperScissors")
    yield url
    stop(process)


# ---------------------------------------------------------------- the browser


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is missing: apt-get install -y chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    # Playwright's wait_for_function evaluates strings, which the page's Content-Security-Policy
    # forbids; the policy itself is proven in test_browser.py with a context that keeps it.
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True, bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_default_timeout(30_000)  # generous: the test machine may be busy
    page.js_errors = errors  # type: ignore[attr-defined]
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


# ---------------------------------------------------------------- screenshots


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def decode_png(data: bytes) -> tuple[int, int, int, list[bytes]]:
    """(width, height, bytes per pixel, rows) of an 8-bit RGB/RGBA PNG, decoded with zlib only."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG file"
    pos, idat, width = 8, b"", 0
    height = depth = colour = 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        chunk = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", chunk[:10])
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    assert depth == 8 and colour in (2, 6), f"unsupported PNG (depth {depth}, colour type {colour})"
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - bpp] if i >= bpp else 0
            up = previous[i]
            up_left = previous[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                line[i] = (line[i] + _paeth(left, up, up_left)) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, bpp, rows


def _pixels(path: Path) -> tuple[int, int, int, list[bytes]]:
    try:  # Pillow when it is installed (fast); otherwise the zlib decoder above
        from PIL import Image
    except ImportError:
        return decode_png(path.read_bytes())
    with Image.open(path) as image:
        rgb = image.convert("RGB")
        width, height = rgb.size
        data = rgb.tobytes()
    return width, height, 3, [data[y * width * 3 : (y + 1) * width * 3] for y in range(height)]


def screenshot_stats(path: Path) -> dict[str, float]:
    """Size, distinct colours and grey-level spread of a screenshot (sampled every 4th pixel)."""
    width, height, bpp, rows = _pixels(path)
    greys, colours = [], set()
    for y in range(0, height, 4):
        row = rows[y]
        for x in range(0, width, 4):
            r, g, b = row[x * bpp], row[x * bpp + 1], row[x * bpp + 2]
            colours.add((r, g, b))
            greys.append((r + g + b) / 3)
    mean = sum(greys) / len(greys)
    variance = sum((g - mean) ** 2 for g in greys) / len(greys)
    return {"width": width, "height": height, "colours": len(colours), "std": variance**0.5}


def assert_not_blank(path: Path) -> dict[str, float]:
    stats = screenshot_stats(path)
    assert stats["colours"] >= 20 and stats["std"] >= 10, f"screenshot {path} looks blank: {stats}"
    return stats


# ---------------------------------------------------------------- playing and measuring a page

# Resolves as soon as the page counts more than ``after`` updates (``document.body.dataset.updates``):
# a MutationObserver wakes it on the change itself, where ``page.wait_for_function`` polls once an
# animation frame (16 ms a move, a fifth of a long game's time in the browser tests).
_AFTER_UPDATE = """([after, limit]) => new Promise((resolve, reject) => {
  const done = () => Number(document.body.dataset.updates || 0) > after;
  if (done()) return resolve(true);
  const timer = setTimeout(() => { watcher.disconnect(); reject(new Error(`no page update after ${limit} ms`)); }, limit);
  const watcher = new MutationObserver(() => {
    if (done()) { clearTimeout(timer); watcher.disconnect(); resolve(true); }
  });
  watcher.observe(document.body, { attributes: true, attributeFilter: ["data-updates"] });
})"""


def wait_for_update(page: Any, after: int, timeout_ms: int = 30_000) -> None:
    """Wait until the page has applied more than ``after`` updates (the counter app.js keeps)."""
    page.evaluate(_AFTER_UPDATE, [after, timeout_ms])


# One round trip per move: where the page stands, and a point on a random playable element (or,
# when the picture offers none, on a random action button) where a click really lands on it.
NEXT_MOVE = """(r) => {
  const text = (id) => document.getElementById(id).hidden ? "" : document.getElementById(id).innerText;
  const where = { updates: Number(document.body.dataset.updates || 0), banner: text("banner"),
                  error: text("error"), caption: text("caption") };
  let targets = [...document.querySelectorAll("#board-svg [data-action].playable")];
  where.picture = targets.length > 0;
  if (!targets.length) targets = [...document.querySelectorAll("#actions button")];
  if (where.banner || where.error || !targets.length) return where;
  const target = targets[Math.floor(r * targets.length)];
  target.scrollIntoView({ block: "center", inline: "center" });
  const box = target.getBoundingClientRect();
  where.action = target.getAttribute("data-action");
  for (const [fx, fy] of [[.5, .5], [.3, .5], [.7, .5], [.5, .3], [.5, .7], [.3, .3], [.7, .7], [.3, .7], [.7, .3]]) {
    const x = box.left + fx * box.width, y = box.top + fy * box.height;
    if (target.contains(document.elementFromPoint(x, y))) { where.x = x; where.y = y; break; }
  }
  return where;
}"""


# Every piece of visible text on the page rendered smaller than ``min`` CSS pixels: an SVG text's
# font size is scaled by its on-screen transform (the picture shrinks with the window).
SMALL_TEXT = """(min) => {
  const small = [];
  for (const el of document.querySelectorAll("body *")) {
    if (![...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim())) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    if (el instanceof SVGGraphicsElement) {
      const m = el.getScreenCTM();
      size *= Math.hypot(m.a, m.b);
    }
    if (size < min - 0.01) small.push({ text: el.textContent.trim().slice(0, 50), px: Math.round(size * 10) / 10 });
  }
  return small;
}"""

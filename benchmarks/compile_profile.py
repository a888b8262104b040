"""Where a cold test run spends its time compiling: numba's compile time per function and per test.

A pytest plugin and a report. Run the suite with it (empty caches give the cold picture):

    NUMBA_CACHE_DIR=$(mktemp -d) MAKEENV_CACHE_DIR=$(mktemp -d) COMPILE_PROFILE_DIR=/tmp/profile \\
        pytest -p benchmarks.compile_profile
    python benchmarks/compile_profile.py /tmp/profile      # the report

Each pytest process (every xdist worker) writes one JSON file into ``COMPILE_PROFILE_DIR``: the
exclusive compile time of every numba function (its own, not that of the functions compiled while
typing it), how many times it was compiled, and the compile time spent in each test. The report
adds them up by kind: the runner's compiled loops (``LOOP.n_games`` ...), the referee, the batched
core, each game's rules and bots, and by test group (a game's tests run in one worker).
Times are wall-clock seconds inside the compiler, so a busy machine inflates them alike.
"""

from __future__ import annotations

import collections
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

OUT_ENV = "COMPILE_PROFILE_DIR"


class _CompileTimer:
    """numba compile events -> exclusive seconds per function, and per running test."""

    def __init__(self) -> None:
        self.exclusive: collections.Counter[str] = collections.Counter()
        self.compiles: collections.Counter[str] = collections.Counter()
        self.per_test: collections.Counter[str] = collections.Counter()
        self.test = "<collection>"
        self._stack: list[list[float]] = []  # [start, seconds spent compiling callees]

    def on_start(self, event: Any) -> None:
        self._stack.append([time.perf_counter(), 0.0])

    def on_end(self, event: Any) -> None:
        start, inner = self._stack.pop()
        spent = time.perf_counter() - start
        func = event.data["dispatcher"].py_func
        name = f"{func.__module__}.{func.__qualname__}"
        self.exclusive[name] += spent - inner
        self.compiles[name] += 1
        self.per_test[self.test] += spent - inner
        if self._stack:
            self._stack[-1][1] += spent


_TIMER: _CompileTimer | None = None


def pytest_configure(config: Any) -> None:
    global _TIMER
    if not os.environ.get(OUT_ENV):
        raise SystemExit(f"benchmarks.compile_profile: set {OUT_ENV} to the folder for its JSON files")
    from numba.core import event

    _TIMER = _CompileTimer()
    listener = type("_Listener", (event.Listener,), {"on_start": _TIMER.on_start, "on_end": _TIMER.on_end})
    event.register("numba:compile", listener())


def pytest_runtest_setup(item: Any) -> None:
    if _TIMER is not None:
        _TIMER.test = item.nodeid


def pytest_sessionfinish(session: Any) -> None:
    if _TIMER is None:
        return
    folder = Path(os.environ[OUT_ENV])
    folder.mkdir(parents=True, exist_ok=True)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    data = {"exclusive": _TIMER.exclusive, "compiles": _TIMER.compiles, "per_test": _TIMER.per_test}
    (folder / f"compile_{worker}_{os.getpid()}.json").write_text(json.dumps(data))


def kind_of(name: str) -> str:
    """A compiled function's kind: the template it came from, or the game folder and file."""
    parts = name.split(".")
    for prefix, label in (("makeenv_loop", "LOOP"), ("makeenv_referee", "REFEREE"), ("makeenv_batch", "BATCH")):
        if parts[0].startswith(prefix):
            return f"{label}.{parts[1]}"
    if parts[0].startswith("makeenv_live"):
        return f"LIVE (not cached).{parts[1]}"
    if parts[:2] == ["makeenv", "games"] and len(parts) > 3:
        return f"game {parts[2]}/{parts[3]}"
    return ".".join(parts[:2])


def group_of(test: str) -> str:
    """A test's group: the game it is parametrized by or whose file it is in, else its file."""
    found = re.search(r"\[([A-Z]\w*)", test)
    if found:
        return found.group(1)
    found = re.search(r"tests/games/test_(\w+)\.py", test)
    if found and found.group(1) != "every_game":
        return "".join(part.capitalize() for part in found.group(1).split("_"))
    return test.split("::")[0]


def report(folder: Path, top: int = 30) -> str:
    exclusive: collections.Counter[str] = collections.Counter()
    compiles: collections.Counter[str] = collections.Counter()
    per_test: collections.Counter[str] = collections.Counter()
    files = sorted(folder.glob("compile_*.json"))
    if not files:
        raise SystemExit(f"{folder}: no compile_*.json files; run pytest -p benchmarks.compile_profile first")
    for path in files:
        data = json.loads(path.read_text())
        exclusive.update(data["exclusive"])
        compiles.update(data["compiles"])
        per_test.update(data["per_test"])
    by_kind: collections.Counter[str] = collections.Counter()
    kind_compiles: collections.Counter[str] = collections.Counter()
    for name, seconds in exclusive.items():
        by_kind[kind_of(name)] += seconds
        kind_compiles[kind_of(name)] += compiles[name]
    by_group: collections.Counter[str] = collections.Counter()
    for test, seconds in per_test.items():
        by_group[group_of(test)] += seconds
    lines = [f"{len(files)} processes, {sum(exclusive.values()):.0f} s compiling, {sum(compiles.values())} compiles"]
    lines += ["", "by kind (seconds, compiles):"]
    lines += [f"{s:9.1f}  {kind_compiles[k]:5d}  {k}" for k, s in by_kind.most_common(top)]
    lines += ["", "by test group (seconds):"]
    lines += [f"{s:9.1f}  {g}" for g, s in by_group.most_common(top)]
    return "\n".join(lines)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    print(report(Path(sys.argv[1])))

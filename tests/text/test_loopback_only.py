"""A whole game (jury and model players) contacts no address beyond loopback."""

from __future__ import annotations

import ipaddress
import socket

import pytest

import makeenv
from makeenv.text import OpenAICompatibleAgent, OpenAICompatibleJury
from tests.support.text_loop import play_through
from tests.text.conftest import fast


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@pytest.fixture
def loopback_guard(monkeypatch):
    """Fail any connection (or name lookup) to a non-loopback address; record the loopback ones."""
    contacted: list[tuple] = []
    real_connect, real_getaddrinfo = socket.socket.connect, socket.getaddrinfo

    def guarded_connect(sock, address):
        if sock.family in (socket.AF_INET, socket.AF_INET6):
            assert _is_loopback(address[0]), f"contacted a non-loopback address: {address!r}"
            contacted.append(address)
        return real_connect(sock, address)

    def guarded_getaddrinfo(host, *args, **kwargs):
        host_text = host.decode() if isinstance(host, bytes) else str(host)
        assert _is_loopback(host_text), f"looked up a non-loopback host: {host!r}"
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", guarded_connect)
    monkeypatch.setattr(socket, "getaddrinfo", guarded_getaddrinfo)
    return contacted


def test_the_guard_catches_outside_addresses(loopback_guard):
    with pytest.raises(AssertionError, match="non-loopback"):
        socket.getaddrinfo("example.org", 443)
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        with pytest.raises(AssertionError, match="non-loopback"):
            sock.connect(("192.0.2.1", 9))


def test_a_full_game_only_talks_to_loopback(server, loopback_guard):
    server.handler = lambda request: "A plan." if request.model == "player" else "Player 1"
    env = makeenv.make("ScenarioPlanning-v0", jury_class=OpenAICompatibleJury, **fast(server))
    agent = OpenAICompatibleAgent("player", server.base_url)
    rewards, game_info, _ = play_through(env, agent, seed=0)
    assert rewards == {0: -1, 1: 1}
    assert len(server.chat_requests) == 2 + 11
    assert loopback_guard and all(address[0] == "127.0.0.1" for address in loopback_guard)

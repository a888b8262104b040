"""The local model as a player of an array game in words (needs the llm extra)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from makeenv.cli import app
from tests.llm.conftest import needs_llm


@needs_llm
@pytest.mark.llm
@pytest.mark.slow
def test_the_local_model_chooses_valid_moves_in_a_whole_game(tmp_path):
    """``--player0 local`` picks among the valid actions (LocalAgent.choose): never an invalid answer."""
    out = tmp_path / "local.json"
    result = CliRunner().invoke(
        app, ["match", "TicTacToe-text", "--player0", "local", "--player1", "bot:2", "--seed", "0", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    record = json.loads(out.read_text(encoding="utf-8"))
    game = record["game_info"]
    assert record["status"] == "finished" and game["forfeit"] is None
    assert "Invalid move" not in result.output
    mine = [m for m in game["moves"] if m["seat"] == 0]
    assert len(mine) >= 2 and all(0 <= m["action"] < 9 for m in mine)
    assert game["outcome"]["results"][1] in ("win", "draw")  # the perfect bot never loses

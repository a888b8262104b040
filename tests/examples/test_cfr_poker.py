"""examples/cfr_poker.py: CFR+ over the poker games' contract functions converges (checked with
OpenSpiel's exploitability), and the solver says clearly what it cannot do."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

import makeenv
from makeenv.games import kuhn_poker
from makeenv.games._poker.cfr import CFRSolver
from makeenv.games.kuhn_poker import logic as K

pytest.importorskip("pyspiel")
from makeenv.games._poker import openspiel as poker_openspiel  # noqa: E402  (needs open_spiel)

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "cfr_poker.py"


def load_example():
    """The example script as a module (examples/ is not a package)."""
    if "cfr_poker_example" not in sys.modules:
        spec = importlib.util.spec_from_file_location("cfr_poker_example", EXAMPLE)
        module = importlib.util.module_from_spec(spec)
        sys.modules["cfr_poker_example"] = module  # dataclasses look their module up
        spec.loader.exec_module(module)
    return sys.modules["cfr_poker_example"]


def test_kuhn_cfr_falls_below_001_exploitability():
    """A few dozen iterations bring Kuhn below 0.01 chips per hand; the result plays like the
    known equilibrium (Queens never open, Kings always call) and is worth -1/18 to player 0."""
    result = load_example().solve("KuhnPoker", target=0.01, max_iterations=200)
    assert result.exploitability < 0.01 and result.iterations < 60
    first, last = result.checks[0][2], result.checks[-1][2]
    assert first > 0.05 > last  # it was exploitable before converging

    solver = CFRSolver(makeenv.make("KuhnPoker"))
    solver.run(result.iterations)
    opening_queen = K.getAgentState(K.dealEnv(1, 0))
    assert solver.policy(opening_queen)[K.BET] < 0.05
    env = K.dealEnv(2, 0)
    K.stepEnv(K.PASS, env)
    K.stepEnv(K.BET, env)
    assert solver.policy(K.getAgentState(env))[K.BET] > 0.99
    from open_spiel.python.algorithms.expected_game_score import policy_value

    table = poker_openspiel.openspiel_policy(kuhn_poker, solver.policy)
    game = poker_openspiel.load_openspiel(kuhn_poker)
    assert policy_value(game.new_initial_state(), [table, table])[0] == pytest.approx(-1 / 18, abs=0.01)
    keys, probs = solver.information_sets()
    assert keys.shape == (12, K.STATE_SIZE) and np.allclose(probs.sum(axis=1), 1.0)


def test_solver_errors_name_the_problem():
    with pytest.raises(ValueError, match=r"RockPaperScissors has no getReturns\(\).*allDeals\(\)"):
        CFRSolver(makeenv.make("RockPaperScissors"))
    solver = CFRSolver(kuhn_poker)
    with pytest.raises(ValueError, match="iterations must be an int >= 0, got -1"):
        solver.run(-1)
    with pytest.raises(KeyError, match="no information set"):
        solver.policy(np.zeros(K.STATE_SIZE))
    with pytest.raises(ValueError, match="length 20"):
        solver.policy(np.zeros(3))


@pytest.mark.slow
def test_the_walk_over_a_games_functions_is_not_cached_on_disk(tmp_path):
    """numba's on-disk index of a function taking other functions keeps their types; once one is
    gone (a game loaded from a temporary folder), saving that index fails in every later process
    ("underlying object has vanished", numba #9348). So CFR's walk stays out of the cache, while
    its helpers and the game's own functions are cached."""
    import os
    import subprocess

    cache = tmp_path / "numba_cache"
    solve = (
        "import makeenv; from makeenv.games._poker.cfr import CFRSolver; CFRSolver(makeenv.make('KuhnPoker')).run(2)"
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    done = subprocess.run([sys.executable, "-c", solve], env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-2000:]
    cached = {p.name.split("-")[0] for p in cache.rglob("cfr.*.nbi")}
    assert "cfr.find_row" in cached and "cfr.regret_matching" in cached, cached
    assert not cached & {"cfr._discover", "cfr.discover_all", "cfr._walk", "cfr.cfr_iterations"}, cached

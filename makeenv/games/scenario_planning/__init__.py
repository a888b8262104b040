"""ScenarioPlanning: a two-player text game judged by a jury of language models."""

from makeenv.games.scenario_planning.env import (
    PROMPT_TEMPLATE,
    ScenarioFileError,
    ScenarioPlanningEnv,
    load_scenarios,
)

__all__ = ["ScenarioPlanningEnv", "ScenarioFileError", "load_scenarios", "PROMPT_TEMPLATE"]

"""ScenarioPlanning: two players write survival strategies for one scenario; a jury votes.

Rules (see README.md): a scenario is drawn from a curated list (reproducible with reset's seed);
Player 0 then Player 1 each submit one strategy, never seeing the other's; once both are in, the
jury votes. Winner +1, loser -1, a tie 0 and 0. An empty strategy is an invalid move: the player
is told why and tries once more; a second one forfeits. When too few jurors return a valid vote
``step`` raises ``JuryUnavailable``; both strategies stay and ``rejudge()`` votes again.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from makeenv.text.core import TextEnv, TextEnvError
from makeenv.text.jury.base import MAX_SUBMISSION_CHARS, Jury, JuryUnavailable, Verdict

OPTIONS = ["Player 0", "Player 1"]
DEFAULT_SCENARIOS_PATH = Path(__file__).with_name("scenarios.json")
DEFAULT_JURY_CLASS = "makeenv.text.jury:OpenRouterJury"

PROMPT_TEMPLATE = (
    "You are Player {player_id} in the Scenario Planning game.\n"
    "Scenario: {scenario}\n"
    "Your goal is to propose a strategy for survival in this scenario.\n"
    "After both players submit their strategies, a panel of judges will evaluate them.\n"
    "On your turn, simply type your strategy."
)
WIN_LINE = "[GAME] Player {winner} wins by convincing the judges."
DRAW_LINE = "[GAME] The votes are tied: the game is a draw."

# Characters that print as nothing; a strategy made only of them (and whitespace) is empty.
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))


class ScenarioFileError(ValueError):
    """A scenarios file is unreadable or not ``{"scenarios": ["...", ...]}``."""


def load_scenarios(path: str | os.PathLike[str] | None = None) -> list[str]:
    """The scenarios of a JSON file ``{"scenarios": ["...", ...]}`` (default: the built-in list)."""
    path = Path(DEFAULT_SCENARIOS_PATH if path is None else path)
    if not path.is_file():
        raise FileNotFoundError(
            f'scenarios file {str(path)!r} not found (it must be a JSON file like {{"scenarios": ["...", ...]}})'
        )
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as error:
        raise ScenarioFileError(f"scenarios file {str(path)!r} is not UTF-8 text: {error}") from None
    except ValueError as error:
        raise ScenarioFileError(f"scenarios file {str(path)!r} is not valid JSON: {error}") from None
    if not isinstance(data, dict) or "scenarios" not in data:
        raise ScenarioFileError(
            f'scenarios file {str(path)!r} must hold a JSON object with a "scenarios" '
            f"list, got {type(data).__name__}" + (f" with keys {sorted(data)[:5]}" if isinstance(data, dict) else "")
        )
    scenarios = data["scenarios"]
    if not isinstance(scenarios, list):
        raise ScenarioFileError(
            f'scenarios file {str(path)!r}: "scenarios" must be a list of strings, got {type(scenarios).__name__}'
        )
    if not scenarios:
        raise ScenarioFileError(f'scenarios file {str(path)!r}: the "scenarios" list is empty')
    for index, scenario in enumerate(scenarios):
        if not isinstance(scenario, str):
            raise ScenarioFileError(
                f"scenarios file {str(path)!r}: entry {index} is a {type(scenario).__name__}, not a string"
            )
        if not scenario.strip():
            raise ScenarioFileError(f"scenarios file {str(path)!r}: entry {index} is an empty string")
    return [scenario.strip() for scenario in scenarios]


def build_jury(jury_class: Any, jury_size: int, jury_kwargs: Mapping[str, Any]) -> Jury:
    """``jury_class(options=["Player 0", "Player 1"], jury_size=N, **jury_kwargs)``.

    ``jury_class`` may be a class (or factory), an import path ``"package.module:Name"``, or an
    already built ``Jury`` (then no other jury settings may be given).
    """
    if isinstance(jury_class, Jury):
        if jury_kwargs:
            raise TypeError(
                f"ScenarioPlanningEnv: got a built jury and jury settings {sorted(jury_kwargs)}; "
                "pass the settings to the jury instead"
            )
        if list(jury_class.options) != OPTIONS:
            raise ValueError(f"ScenarioPlanningEnv: the jury's options must be {OPTIONS}, got {jury_class.options}")
        return jury_class
    if isinstance(jury_class, str):
        from makeenv.registry import resolve_object

        try:
            jury_class = resolve_object(jury_class)
        except (ImportError, AttributeError) as error:
            raise ValueError(f"ScenarioPlanningEnv: cannot import the jury class {jury_class!r}: {error}") from error
    if not callable(jury_class):
        raise TypeError(
            f"ScenarioPlanningEnv: jury_class must be a Jury class, an import path or a Jury, got {jury_class!r}"
        )
    jury = jury_class(options=list(OPTIONS), jury_size=jury_size, **jury_kwargs)
    if not isinstance(jury, Jury):
        raise TypeError(f"ScenarioPlanningEnv: {jury_class!r} built a {type(jury).__name__}, not a makeenv.text.Jury")
    return jury


def is_empty_strategy(text: str) -> bool:
    """True when ``text`` has nothing but whitespace and invisible characters."""
    return not text.translate(_INVISIBLE).strip()


class ScenarioPlanningEnv(TextEnv):
    """Two players, one scenario, one strategy each, a jury's vote.

    Args:
        jury_class: a ``Jury`` class, an import path to one (default: OpenRouterJury), or a built
            jury; built as ``jury_class(options=["Player 0", "Player 1"], jury_size=N, **jury_kwargs)``.
        jury_size: number of jurors.
        scenarios_path: a JSON file ``{"scenarios": [...]}`` (default: the built-in list).
        **jury_kwargs: passed to the jury (``base_url``, ``models``, ``quorum``, ``timeout``, ...).

    The jury is built here, so a missing API key fails when the env is made, not mid-game.
    """

    has_jury = True
    answer_hint = {
        "label": "Your strategy",
        "button": "Submit strategy",
        "multiline": True,
        "placeholder": "What would you do to survive? Be concrete: first steps, resources, risks, long-term plan.",
    }

    def __init__(
        self,
        jury_class: Any = DEFAULT_JURY_CLASS,
        jury_size: int = 5,
        scenarios_path: str | os.PathLike[str] | None = None,
        **jury_kwargs: Any,
    ):
        super().__init__()
        self.scenarios = load_scenarios(scenarios_path)
        self.scenarios_path = str(scenarios_path) if scenarios_path is not None else None
        self.jury = build_jury(jury_class, jury_size, jury_kwargs)
        self._clear()

    def _clear(self) -> None:
        self.scenario_index: int | None = None
        self.scenario = ""
        self.phase = "new"  # "strategies" -> ("judging" ->) "done"
        self.strategies: dict[int, str] = {}
        self.submissions: dict[int, list[str]] = {0: [], 1: []}
        self.verdict: Verdict | None = None
        self.failed_verdicts: list[dict[str, Any]] = []
        self.jury_errors: list[str] = []
        self.outcome: str | None = None
        self.winner: int | None = None
        self.result_text = ""

    # ----------------------------------------------------------------- rules
    def _reset(self) -> None:
        self._clear()
        self.scenario_index = self.rng.randrange(len(self.scenarios))
        self.scenario = self.scenarios[self.scenario_index]
        self.phase = "strategies"
        for player_id in range(self.num_players):
            self.send(PROMPT_TEMPLATE.format(player_id=player_id, scenario=self.scenario), to=player_id, kind="prompt")

    def step(self, action: str) -> tuple[bool, dict[str, Any]]:
        """Submit the strategy of the player to move; after the second one the jury votes.

        Raises ``JuryUnavailable`` when the jury misses its quorum (then call ``rejudge()``).
        """
        if self._started and self.phase == "judging" and not self.done:
            raise TextEnvError(
                "ScenarioPlanningEnv.step: both strategies are in and the jury has not decided "
                "yet (it was unavailable); call env.rejudge() to vote again"
            )
        return super().step(action)

    def _step(self, player_id: int, action: str) -> dict[str, Any]:
        self.submissions[player_id].append(action)
        if is_empty_strategy(action):
            return self._invalid(player_id)
        self.strategies[player_id] = action
        if player_id == 0:
            self.current_player = 1
            return {"message": "", "submitted": OPTIONS[player_id]}
        self.phase = "judging"
        return self._judge()

    def _invalid(self, player_id: int) -> dict[str, Any]:
        other = 1 - player_id
        if len(self.submissions[player_id]) == 1:
            message = (
                f"[GAME] Player {player_id} submitted an empty strategy, which is an invalid move: "
                "a strategy must contain some text. You have one more try; an empty strategy again "
                "forfeits the game."
            )
            self.send(message, to=player_id, kind="admin")
            return {"message": message, "invalid_move": True}
        reason = f"Player {player_id} forfeits: it submitted an empty strategy twice. Player {other} wins."
        self.result_text = f"[GAME] {reason}"
        self.send(self.result_text, kind="admin")
        self.outcome, self.winner = "forfeit", other
        self.phase = "done"
        self.finish({other: 1, player_id: -1}, reason)
        return {"message": self.result_text, "invalid_move": True, "winner": OPTIONS[other]}

    @property
    def awaiting_rejudge(self) -> bool:
        """True after ``JuryUnavailable``: both strategies are in and ``rejudge()`` is needed."""
        return self._started and self.phase == "judging" and not self.done

    def rejudge(self, jury: Jury | None = None) -> tuple[bool, dict[str, Any]]:
        """Vote again after ``JuryUnavailable`` (optionally with another ``jury``); finishes the game.

        Returns ``(done, info)`` like ``step``; raises ``JuryUnavailable`` again if the jury is
        still short of its quorum (the strategies stay either way).
        """
        if not self._started or self.phase != "judging" or self.done:
            raise TextEnvError(
                "ScenarioPlanningEnv.rejudge: there is nothing to judge "
                f"(phase {self.phase!r}); rejudge() is for after the jury was unavailable"
            )
        if jury is not None:
            new_jury = build_jury(jury, self.jury.jury_size, {})
            if new_jury is not self.jury:
                self.jury.close()
                self.jury = new_jury
        info = self._judge()
        return self.done, info

    def _judge(self) -> dict[str, Any]:
        submissions = {OPTIONS[0]: self.strategies[0], OPTIONS[1]: self.strategies[1]}
        try:
            verdict = self.jury.evaluate(self.scenario, submissions)
        except JuryUnavailable as error:
            if error.verdict is not None:
                self.failed_verdicts.append(error.verdict.to_dict())
            self.jury_errors.append(str(error))
            raise
        self.verdict = verdict
        winner = verdict.winner
        lines = ["[GAME] Vote results:"]
        lines += [f"{option}: {verdict.votes[option]} votes" for option in OPTIONS]
        if winner is None:
            lines.append(DRAW_LINE)
            self.outcome, self.winner = "draw", None
            rewards, reason = (
                {0: 0, 1: 0},
                (f"The judges' votes are tied {verdict.votes[OPTIONS[0]]} to {verdict.votes[OPTIONS[1]]}."),
            )
        else:
            won = OPTIONS.index(winner)
            lines.append(WIN_LINE.format(winner=won))
            self.outcome, self.winner = "win", won
            rewards = {won: 1, 1 - won: -1}
            reason = (
                f"Player {won} wins by convincing the judges ({verdict.votes[winner]} votes to "
                f"{verdict.votes[OPTIONS[1 - won]]})."
            )
        self.result_text = "\n".join(lines)
        self.send(self.result_text, kind="admin")
        self.phase = "done"
        self.finish(rewards, reason)
        return {
            "message": self.result_text,
            "votes": dict(verdict.votes),
            "abstentions": verdict.abstentions,
            "winner": winner,
            "reason": reason,
            "rewards": dict(rewards),
        }

    # ----------------------------------------------------------------- views
    def _game_info(self) -> dict[str, Any]:
        verdict = self.verdict
        return {
            "game": "ScenarioPlanning",
            "phase": self.phase,
            "scenario_index": self.scenario_index,
            "scenario": self.scenario,
            "scenarios_path": self.scenarios_path,
            "strategies": {OPTIONS[p]: self.strategies.get(p) for p in (0, 1)},
            "submissions": {OPTIONS[p]: list(self.submissions[p]) for p in (0, 1)},
            "outcome": self.outcome,
            "winner": OPTIONS[self.winner] if self.winner is not None else None,
            "result": self.result_text,
            "votes": dict(verdict.votes) if verdict else None,
            "abstentions": verdict.abstentions if verdict else None,
            "ballots": verdict.to_dict()["ballots"] if verdict else [],
            "prompt_char_limit": MAX_SUBMISSION_CHARS,
            "truncated_for_jury": dict(verdict.truncated)
            if verdict
            else {OPTIONS[p]: len(self.strategies.get(p, "")) > MAX_SUBMISSION_CHARS for p in (0, 1)},
            "jury": self.jury.describe(),
            "failed_judgements": list(self.failed_verdicts),
            "jury_errors": list(self.jury_errors),
        }

    def get_board_str(self) -> str:
        if not self._started:
            return "Scenario Planning: not started (call reset)."
        lines = ["Scenario Planning", f"Scenario: {self.scenario}", ""]
        for p in (0, 1):
            if p in self.strategies:
                status = f"strategy submitted ({len(self.strategies[p]):,} characters)"
            elif self.submissions[p]:
                status = f"{len(self.submissions[p])} empty submission(s)"
            else:
                status = "writing a strategy"
            lines.append(f"Player {p}: {status}")
        if self.phase == "judging":
            lines += ["", "Waiting for the jury (it was unavailable; call rejudge())."]
        if self.verdict is not None:
            verdict = self.verdict
            lines += ["", f"Votes ({self.jury.jury_size} judges, {verdict.abstentions} abstained):"]
            lines += [f"  {option}: {verdict.votes[option]} votes" for option in OPTIONS]
            for option, cut in verdict.truncated.items():
                if cut:
                    lines.append(
                        f"  ({option}'s strategy was cut to {MAX_SUBMISSION_CHARS:,} characters for the judges)"
                    )
        if self.done:
            lines += ["", f"Result: {self.reason}"]
        return "\n".join(lines)

    def result_panel(self, player_id: int | None = None) -> list[dict[str, Any]]:
        """Strategies, votes and every juror's ballot, once both strategies are in (or after a forfeit)."""
        if not (self.done or self.awaiting_rejudge):
            return []
        blocks: list[dict[str, Any]] = []
        if self.verdict is not None:
            votes = self.verdict.votes
            top = max(votes.values())
            blocks.append(
                {
                    "kind": "cards",
                    "title": "Votes",
                    "cards": [
                        *(
                            {
                                "title": option + (" (you)" if player_id == p else ""),
                                "text": f"{votes[option]} votes",
                                "lead": votes[option] == top and top > 0,
                            }
                            for p, option in enumerate(OPTIONS)
                        ),
                        {"title": "Abstained", "text": str(self.verdict.abstentions), "lead": False},
                    ],
                }
            )
        cards = []
        for p, option in enumerate(OPTIONS):
            title = (
                "Your strategy" if player_id == p else "Opponent's strategy" if player_id is not None else "Strategy"
            ) + f" ({option})"
            text = self.strategies.get(p)
            if text is None:
                text = "(none submitted)"
            elif self.verdict is not None and self.verdict.truncated.get(option):
                text += f"\n\n(shown to the judges cut to {MAX_SUBMISSION_CHARS:,} characters)"
            cards.append({"title": title, "text": text, "lead": self.winner == p})
        blocks.append({"kind": "cards", "title": "Strategies", "cards": cards})
        for failed in self.failed_verdicts:
            blocks.append(
                _ballot_table(
                    f"A vote that missed the quorum ({failed.get('abstentions')} abstained)", failed.get("ballots", [])
                )
            )
        if self.verdict is not None:
            blocks.append(_ballot_table("Ballots", self.verdict.to_dict()["ballots"]))
        if self.result_text:
            blocks.append({"kind": "text", "title": "Result", "text": self.result_text})
        return blocks

    def _release(self) -> None:
        self.jury.close()


def _ballot_table(title: str, ballots: list[dict[str, Any]]) -> dict[str, Any]:
    rows = []
    for ballot in ballots:
        answer = f"error: {ballot['error']}" if ballot.get("error") else (ballot.get("raw_answer") or "")
        latency = ballot.get("latency_s")
        rows.append(
            [
                ballot.get("juror_id"),
                ballot.get("model") or "",
                (ballot.get("order") or [""])[0],
                ballot.get("vote") or "abstained",
                f"{latency:.2f} s" if isinstance(latency, (int, float)) else "",
                " ".join(answer.split())[:400],
            ]
        )
    return {
        "kind": "table",
        "title": title,
        "columns": ["Juror", "Model", "Saw first", "Vote", "Latency", "Answer / error"],
        "rows": rows,
    }

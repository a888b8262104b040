"""Juries for the GUI tests (module level, so a ``--jury tests.gui.juries:CLASS`` SPEC finds them)."""

from __future__ import annotations

import threading
from collections.abc import Mapping

from makeenv.text.jury.base import Ballot, Jury


class LongerStrategyJury(Jury):
    """Every juror votes for the longer strategy, except juror 2, who abstains."""

    def cast_ballots(self, scenario: str, submissions: Mapping[str, str]) -> list[Ballot]:
        longer = max(self.options, key=lambda option: len(submissions[option]))
        ballots = []
        for juror in range(self.jury_size):
            abstain = juror == 2
            ballots.append(
                Ballot(
                    juror_id=juror,
                    model="test/longer-wins",
                    order=self.presentation_order(juror),
                    raw_answer="I cannot decide." if abstain else longer,
                    vote=None if abstain else longer,
                    latency_s=0.01 * (juror + 1),
                    error="no valid vote in the answer" if abstain else None,
                )
            )
        return ballots


class FlakyJury(LongerStrategyJury):
    """Abstains entirely on its first vote (so the env raises JuryUnavailable), then votes normally."""

    calls = 0
    lock = threading.Lock()

    def cast_ballots(self, scenario: str, submissions: Mapping[str, str]) -> list[Ballot]:
        with FlakyJury.lock:
            FlakyJury.calls += 1
            first = FlakyJury.calls == 1
        if first:
            return [
                Ballot(
                    juror_id=j,
                    model="test/flaky",
                    order=self.presentation_order(j),
                    error="HTTP 503 from the test server",
                )
                for j in range(self.jury_size)
            ]
        return super().cast_ballots(scenario, submissions)

"""The answer to a command: accepted, refused or pending, with its rule and reason."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .events import Event


class Result(StrEnum):
    ACCEPTED = "accepted"
    REFUSED = "refused"
    PENDING = "pending"


@dataclass(frozen=True, slots=True)
class Decision:
    """What ``decide`` answers.

    ``events`` are appended to the log when the decision is accepted or pending; a
    refused decision has none and changes nothing. ``explanation`` is one plain
    sentence naming the unit, the place and the rule id.
    """

    result: Result
    rule: str | None
    explanation: str
    events: tuple[Event, ...] = ()
    awaiting: tuple[str, ...] = ()
    unit: str | None = None
    place: str | None = None
    siege: bool = False
    senior: str | None = None
    senior_rule: str | None = None
    request: str | None = None

    @property
    def accepted(self) -> bool:
        return self.result is Result.ACCEPTED

    @property
    def refused(self) -> bool:
        return self.result is Result.REFUSED

    @property
    def pending(self) -> bool:
        return self.result is Result.PENDING


class Refusal(Exception):
    """Raised inside the rules to refuse a command; ``decide`` turns it into a Decision."""

    def __init__(self, rule: str, explanation: str, unit: str | None = None, place: str | None = None):
        super().__init__(explanation)
        self.rule = rule
        self.explanation = explanation
        self.unit = unit
        self.place = place


def refused(rule: str, explanation: str, unit: str | None = None, place: str | None = None) -> Decision:
    return Decision(Result.REFUSED, rule, explanation, unit=unit, place=place)

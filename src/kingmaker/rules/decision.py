"""The answer to a command: accepted, refused or pending, with its rule and reason."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypedDict

from .events import Event

# -- what a decision of the full game reports (FULL_GAME §5, the `expect` fields) ----------

VoteCount = TypedDict("VoteCount", {"for": int, "against": int})


class EventReport(TypedDict):
    """The event card drawn (EVENT.draw): its id and its event's kind ("none" for none)."""

    card: str
    kind: str


class BattleReport(TypedDict, total=False):
    """A battle (BATTLE.*, FULL_GAME 3.13.5): ``strengths`` and ``winner`` by each side's
    commanding faction; ``ratio`` the category of larger to smaller (``"2:1"``,
    ``even``); ``odds`` the card's (None: Bad Weather); ``outcome`` ``decisive``,
    ``indecisive``, ``bad_weather`` or ``desperate``; ``killed`` and ``captured`` noble ids."""

    strengths: dict[str, int]
    ratio: str
    card: str
    odds: str | None
    outcome: str
    winner: str | None
    killed: tuple[str, ...]
    captured: tuple[str, ...]


class SiegeReport(TypedDict, total=False):
    """A siege's draw (SIEGE.resolve): ``outcome`` ``fallen``, ``continues`` or ``lifted``."""

    outcome: str
    card: str
    killed: tuple[str, ...]
    captured: tuple[str, ...]


class VoteReport(TypedDict, total=False):
    """A proposal's outcome in Parliament (PARL.vote)."""

    lords: VoteCount
    commons: VoteCount
    passed: bool


class Report(TypedDict, total=False):
    """What a decision reports beyond its result, rule and sentence, for the reports and
    the conformance runner (each key is the `expect` field of the same name): the event
    drawn, a battle, a siege draw, those an event killed (nobles and heirs), the captives
    executed, a vote, who presides over Parliament, the winner of the game."""

    event: EventReport
    battle: BattleReport
    siege: SiegeReport
    killed: tuple[str, ...]
    executed: tuple[str, ...]
    vote: VoteReport
    presides: str
    winner: str | None


#: The keys a ``Report`` may hold (the runner compares a case's `expect` fields to them).
REPORT_KEYS = frozenset(Report.__annotations__)


class Result(StrEnum):
    ACCEPTED = "accepted"
    REFUSED = "refused"
    PENDING = "pending"


@dataclass(frozen=True, slots=True)
class Decision:
    """What ``decide`` answers.

    ``events`` are appended to the log when the decision is accepted or pending; a
    refused decision has none and changes nothing. ``explanation`` is one plain
    sentence naming the unit, the place and the rule id. ``report`` holds what a
    decision of the full game reports besides (``Report``: a battle's figures, an
    event's card, the dead, the executed...); empty for every other decision.
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
    report: Report = field(default_factory=lambda: Report())

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

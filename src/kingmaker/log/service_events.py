"""Entries the service writes to the log beside the rules events: they are part of the
audit trail but do not change the rules state."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from kingmaker.rules.frozen import ADDED_LATER
from kingmaker.rules.records import Record


class ServiceEvent(Record):
    """Base of the service's own log entries."""


@dataclass(frozen=True, slots=True)
class GameStarted(ServiceEvent):
    """The game exists: its name, factions and the published seed commitment; and the
    game options its GM chose (``rules.options``), as ``name=value`` (none: every option
    has its default, and the entry reads as one written before options could be chosen).
    Public: every player may know the rules of the game."""

    kind = "game_started"
    name: str
    factions: tuple[str, ...]
    commitment: str
    data_set: str
    options: tuple[str, ...] = field(default=(), metadata=ADDED_LATER)

    def chosen_options(self) -> dict[str, str]:
        """The options as ``{name: value}``."""
        return dict(o.partition("=")[::2] for o in self.options)


def options_record(options: Mapping[str, str]) -> tuple[str, ...]:
    """``{name: value}`` as ``GameStarted.options`` keeps it (``("name=value", ...)``)."""
    return tuple(f"{k}={v}" for k, v in options.items())


@dataclass(frozen=True, slots=True)
class OrderSubmitted(ServiceEvent):
    """An order, declaration, answer or grant as given, with the rules' answer: the
    audit trail of every submission, refused ones included (they change nothing else)."""

    kind = "order_submitted"
    by: str
    command: Record
    result: str
    rule: str | None
    explanation: str
    open: bool = False  # published with the turn's orders once the turn has ended
    text: str | None = None  # the line as the player wrote it (None: not given as text)


@dataclass(frozen=True, slots=True)
class LineUnread(ServiceEvent):
    """A line of a post of orders that gave no command (it did not read as an order,
    named something unknown or ambiguous, or named something that cannot take the
    order), kept with the player's words and why: for the author's and the GM's eyes."""

    kind = "line_unread"
    by: str
    text: str
    problem: str  # syntax | unknown_name | ambiguous_name | refused | ...
    message: str


@dataclass(frozen=True, slots=True)
class PermissionAsked(ServiceEvent):
    """A faction asks the controlling faction for permission at a place (the GM passes
    the request on by private message; granting it is a ``grant``)."""

    kind = "permission_asked"
    by: str
    of: str
    place: str
    aspects: tuple[str, ...]
    note: str = ""


@dataclass(frozen=True, slots=True)
class PlayerSeated(ServiceEvent):
    kind = "player_seated"
    faction: str
    player: str


@dataclass(frozen=True, slots=True)
class DeadlineSet(ServiceEvent):
    """A deadline: for a faction's turn (``target`` = faction), an alliance declaration
    or a request (``target`` = its id)."""

    kind = "deadline_set"
    target: str
    target_kind: str  # "turn" | "declaration" | "request"
    due: str  # ISO 8601 UTC
    extended: bool = False


#: ``DeadlinePassed.outcome`` of a turn ended by hand before its deadline (the GM's
#: ``end-turn``, or the faction's own "finished"): the entry's actor says who ended it.
TURN_FINISHED = "turn finished"
#: ``DeadlinePassed.outcome`` of a turn ended because its deadline passed (the clock).
TURN_ENDED = "turn ended"


@dataclass(frozen=True, slots=True)
class DeadlinePassed(ServiceEvent):
    """A deadline is no longer open: it passed (the clock's entry), or, for a turn
    (``outcome`` ``TURN_FINISHED``), the turn was ended by hand before it."""

    kind = "deadline_passed"
    target: str
    target_kind: str
    outcome: str  # what the service did: TURN_ENDED, TURN_FINISHED, "extended ...", "lapsed", "declaration settled: ..."

    @property
    def by_hand(self) -> bool:
        """Whether a turn was ended before its deadline (by its actor), not by the clock."""
        return self.target_kind == "turn" and self.outcome == TURN_FINISHED


@dataclass(frozen=True, slots=True)
class OrdersMissed(ServiceEvent):
    """A faction's turn ended at its deadline without an order from it (NMR)."""

    kind = "orders_missed"
    faction: str
    policy: str


@dataclass(frozen=True, slots=True)
class Undone(ServiceEvent):
    """The GM restores the state as it stood after entry ``to_seq``."""

    kind = "undone"
    to_seq: int
    reason: str = ""

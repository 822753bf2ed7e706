"""Events: the facts a decision appends to the game log. ``apply`` folds them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .records import Record


class Event(Record):
    """Base of every event."""


@dataclass(frozen=True, slots=True)
class NobleMoved(Event):
    """A noble now stands at ``place``, inside it or in the open (land moves, enter, leave)."""

    kind = "noble_moved"
    noble: str
    place: str
    inside: bool
    path: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class NobleKilled(Event):
    """The GM's ruling: a noble dies (in battle, siege, or by execution). His crown items
    go to the Chancery; heirs he escorted stay where he was; an heir who is the noble
    himself (``heirs_dead``) dies with him."""

    kind = "noble_killed"
    noble: str
    heirs_dead: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class NobleCaptured(Event):
    kind = "noble_captured"
    noble: str
    by: str


@dataclass(frozen=True, slots=True)
class NobleReleased(Event):
    """A captive noble is ransomed or freed, and stands at ``place``."""

    kind = "noble_released"
    noble: str
    place: str
    inside: bool = False


@dataclass(frozen=True, slots=True)
class HeirMoved(Event):
    """An heir changes hands: escorted by ``with_noble``, or left at ``place``."""

    kind = "heir_moved"
    heir: str
    with_noble: str | None
    place: str | None = None
    inside: bool = False


@dataclass(frozen=True, slots=True)
class CombatResolved(Event):
    kind = "combat_resolved"
    combat: str
    summary: str = ""


@dataclass(frozen=True, slots=True)
class OrderGiven(Event):
    """An order of ``order_kind`` was given to ``unit`` this round (ALLY.4, ALLY.5)."""

    kind = "order_given"
    unit: str
    order_kind: str
    turn_of: str
    by: str


@dataclass(frozen=True, slots=True)
class Embarked(Event):
    kind = "embarked"
    ship: str
    nobles: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Landed(Event):
    kind = "landed"
    ship: str
    nobles: tuple[str, ...]
    place: str
    inside: bool


@dataclass(frozen=True, slots=True)
class ShipMoved(Event):
    """A ship is now at a sea zone, or in a port (``forced`` when a storm drove it there)."""

    kind = "ship_moved"
    ship: str
    place: str
    in_port: bool
    forced: bool = False
    path: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ControlSet(Event):
    """A location's controlling faction changes (None: neutral). Permissions its former
    controller granted for it end (ruling R5)."""

    kind = "control_set"
    place: str
    faction: str | None


@dataclass(frozen=True, slots=True)
class PermissionGranted(Event):
    kind = "permission_granted"
    by: str
    to: str
    place: str
    aspects: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PermissionRevoked(Event):
    """Revokes these aspects (all when empty)."""

    kind = "permission_revoked"
    by: str
    to: str
    place: str
    aspects: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class CombatDeclared(Event):
    kind = "combat_declared"
    combat_kind: str  # "siege" | "attack"
    by: str
    attackers: tuple[str, ...]
    place: str
    target: str | None = None
    defenders: tuple[str, ...] = ()
    id: str | None = None  # the combat's id (older logs: None, numbered by the log then)


@dataclass(frozen=True, slots=True)
class DefenceDeclared(Event):
    kind = "defence_declared"
    unit: str
    with_: str


@dataclass(frozen=True, slots=True)
class AllianceDeclared(Event):
    kind = "alliance_declared"
    alliance: str
    by: str
    invited: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class AllianceAnswered(Event):
    kind = "alliance_answered"
    alliance: str
    faction: str
    confirm: bool


@dataclass(frozen=True, slots=True)
class AllianceFormed(Event):
    kind = "alliance_formed"
    alliance: str
    members: tuple[str, ...]
    public: bool = False


@dataclass(frozen=True, slots=True)
class DeclarationEnded(Event):
    """A declaration is settled (formed or failed) and leaves the pending list."""

    kind = "declaration_ended"
    alliance: str
    rule: str


@dataclass(frozen=True, slots=True)
class AllianceLeft(Event):
    """``faction`` leaves; the others stay allied if two or more remain (ALLY.11);
    cooling-off until ``faction``'s turn in ``until_round`` (ALLY.12)."""

    kind = "alliance_left"
    alliance: str
    faction: str
    until_round: int


@dataclass(frozen=True, slots=True)
class AlliancesRevealed(Event):
    """Ruling R7: these alliances' factions acted together in the open."""

    kind = "alliances_revealed"
    alliances: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RequestOpened(Event):
    kind = "request_opened"
    request: str
    rule: str
    by: str
    command: Any
    awaiting: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RequestConfirmed(Event):
    kind = "request_confirmed"
    request: str
    faction: str


@dataclass(frozen=True, slots=True)
class RequestClosed(Event):
    """A request ends: carried out, rejected, refused on the second check, or lapsed."""

    kind = "request_closed"
    request: str
    outcome: str  # "accepted" | "refused" | "lapsed"
    rule: str


@dataclass(frozen=True, slots=True)
class ArmySet(Event):
    """An army or fleet is formed or its members or senior officer change."""

    kind = "army_set"
    army: str
    units: tuple[str, ...]
    fleet: bool
    senior: str | None
    senior_rule: str | None
    explanation: str = ""


@dataclass(frozen=True, slots=True)
class ArmyDisbanded(Event):
    kind = "army_disbanded"
    army: str


@dataclass(frozen=True, slots=True)
class RandomDrawn(Event):
    """One draw from the recorded random source: ``pick`` of ``n`` candidates."""

    kind = "random_drawn"
    n: int
    pick: int
    purpose: str = ""


@dataclass(frozen=True, slots=True)
class RandomInjected(Event):
    """Values the random source returns next (conformance ``random`` step)."""

    kind = "random_injected"
    values: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    """The next faction's turn begins; after the last, the next round."""

    kind = "turn_ended"


@dataclass(frozen=True, slots=True)
class SeedCommitted(Event):
    """At creation: the SHA-256 commitment to the game's secret random seed."""

    kind = "seed_committed"
    commitment: str


@dataclass(frozen=True, slots=True)
class SeedRevealed(Event):
    """The GM reveals the random seed (its SHA-256 commitment was published at creation)."""

    kind = "seed_revealed"
    seed: str

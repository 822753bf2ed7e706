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


# -- the full game (issues 13-14; docs/full-game.md) ----------------------------------------


@dataclass(frozen=True, slots=True)
class PhaseBegan(Event):
    """The turn moves on to ``phase`` (PHASE.*)."""

    kind = "phase_began"
    phase: str


@dataclass(frozen=True, slots=True)
class DeckShuffled(Event):
    """``deck`` ("event" or "crown") becomes ``order`` (top first): its discard (held
    cards excluded) shuffled with the recorded source, one value per swap (FULL_GAME §4);
    the cards leave the discard."""

    kind = "deck_shuffled"
    deck: str
    order: tuple[str, ...]
    values: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class CardDrawn(Event):
    """The top card of ``deck`` goes to ``to``: "discard", or "hand:<faction>"."""

    kind = "card_drawn"
    deck: str
    card: str
    to: str = "discard"


@dataclass(frozen=True, slots=True)
class BattleFought(Event):
    """A battle's record (BATTLE.*), for the reports; ``apply`` removes its combat. The
    deaths, captures and spoils follow as their own events."""

    kind = "battle_fought"
    combat: str
    place: str
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    strengths: tuple[tuple[str, int], ...]  # (commanding faction, strength), attacker first
    ratio: str
    card: str
    odds: str | None  # None: Bad Weather
    outcome: str  # decisive | indecisive | bad_weather | desperate
    winner: str | None = None
    killed: tuple[str, ...] = ()
    captured: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SiegeBegan(Event):
    """A siege is laid (SIEGE.strength): ``by`` commands, ``besiegers`` lay it."""

    kind = "siege_began"
    place: str
    by: str
    besiegers: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SiegeDrawn(Event):
    """A siege's card is drawn (SIEGE.resolve): it ``continues`` (Bad Weather), the
    place has ``fallen``, or the siege is ``lifted``. Deaths, captures, control follow."""

    kind = "siege_drawn"
    place: str
    card: str
    outcome: str  # continues | fallen | lifted
    killed: tuple[str, ...] = ()
    captured: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SiegeEnded(Event):
    """A siege ends without a draw: its besiegers left or are too weak (SIEGE.lift), or
    a relief won (SIEGE.sally)."""

    kind = "siege_ended"
    place: str
    reason: str


@dataclass(frozen=True, slots=True)
class NobleDied(Event):
    """A noble dies (battle, siege, plague, execution): EXEC.remains. His card goes to
    the Crown discard with ``to_discard``; ``to_chancery`` to the Chancery; heirs he
    escorted stay where he was (CAPTURE.orphan); an heir who is the noble himself
    (Beaufort) dies with him (``heirs_dead``)."""

    kind = "noble_died"
    noble: str
    cause: str  # battle | siege | plague | execution
    to_chancery: tuple[str, ...] = ()
    to_discard: tuple[str, ...] = ()
    heirs_dead: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class HeirDied(Event):
    """An heir dies (plague, execution)."""

    kind = "heir_died"
    heir: str
    cause: str


@dataclass(frozen=True, slots=True)
class NobleTaken(Event):
    """A noble is taken captive at ``place`` by ``by`` (CAPTURE.noble): off the board,
    out of every army, keeping his titles and offices."""

    kind = "noble_taken"
    noble: str
    by: str
    place: str


@dataclass(frozen=True, slots=True)
class AwardsMoved(Event):
    """Cards move from ``source`` to ``to``: each one of "noble:<id>" (his awards),
    "hand:<faction>", "chancery", "crown_discard" (spoils, ransoms, remains, mercenaries)."""

    kind = "awards_moved"
    cards: tuple[str, ...]
    source: str
    to: str


@dataclass(frozen=True, slots=True)
class StormBegan(Event):
    """A storm drives ``ships`` to port; each waits for its faction's choice among
    ``ports`` (the same order as ``ships``)."""

    kind = "storm_began"
    storm: str
    ships: tuple[str, ...]
    ports: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class PortChosen(Event):
    """A ship's port in a storm is chosen (by its faction, or at random at the deadline)."""

    kind = "port_chosen"
    storm: str
    ship: str
    port: str


@dataclass(frozen=True, slots=True)
class StormSettled(Event):
    """Every ship of the storm has its port (the ships' moves follow as ``ShipMoved``)."""

    kind = "storm_settled"
    storm: str


@dataclass(frozen=True, slots=True)
class EventFlagSet(Event):
    """A flag for the rest of this turn: ``parliament_chancellor``, ``parliament_must``
    (EVENT.parliament), ``free_move:<unit>`` (a Free Move played)."""

    kind = "event_flag_set"
    flag: str


# The end of the game's events live in their own module (size); named here as all the others.
from . import events_end as _end  # noqa: E402

NobleEntered = _end.NobleEntered
ShipEntered = _end.ShipEntered
HeirCrowned = _end.HeirCrowned
SoleKingProclaimed = _end.SoleKingProclaimed
ProclamationEnded = _end.ProclamationEnded
KingHeldCounted = _end.KingHeldCounted
HousesHeldCounted = _end.HousesHeldCounted
GameEnded = _end.GameEnded
ParliamentSummoned = _end.ParliamentSummoned
AttendanceDeclared = _end.AttendanceDeclared
ProposalMade = _end.ProposalMade
VoteCast = _end.VoteCast
ProposalDecided = _end.ProposalDecided
ParliamentClosed = _end.ParliamentClosed

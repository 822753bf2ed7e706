"""The card set: nobles, crown items (titles, offices, sees, mercenaries, towns), ships
and royal heirs, as static definitions. What a faction holds is in the state."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from .board import default_name
from .frozen import FrozenDict


class AwardKind(StrEnum):
    """The kinds of crown item a noble can hold."""

    TITLE = "title"
    OFFICE = "office"
    SEE = "see"
    MERCENARY = "mercenary"
    TOWN = "town"  # towns and cities given as crown items
    OTHER = "other"


# Offices by seniority for ALLY.7.ii (ruling R8 puts the Admiral in the fleet's list).
CHANCELLOR = "chancellor_of_england"
MARSHAL = "marshal_of_england"
ADMIRAL = "admiral_of_england"
WARDEN_NORTH = "warden_of_the_northern_marches"
WARDEN_CINQUE = "warden_of_the_cinque_ports"
TREASURER = "treasurer_of_england"
ARMY_OFFICES = (CHANCELLOR, MARSHAL, WARDEN_NORTH, TREASURER)
FLEET_OFFICES = (CHANCELLOR, ADMIRAL, WARDEN_CINQUE, TREASURER)
SEES_BY_SENIORITY = (
    "archbishop_of_canterbury",
    "archbishop_of_york",
    "bishop_of_westminster",
    "bishop_of_durham",
    "bishop_of_carlisle",
)


@dataclass(frozen=True, slots=True)
class Award:
    """A crown item held by a noble: its troops, and troops usable only in a region."""

    id: str
    name: str
    kind: AwardKind = AwardKind.OTHER
    troops: int = 0
    regional: tuple[tuple[str, int], ...] = ()
    places: tuple[str, ...] = ()  # locations it gives control of (a town card, an office's castle)
    commons_votes: int = 0
    lords_votes: int = 0
    copies: int = 1

    @property
    def potential(self) -> int:
        """Troops counted everywhere, regional troops included (ruling R9)."""
        return self.troops + sum(n for _, n in self.regional)


@dataclass(frozen=True, slots=True)
class NobleCard:
    """A noble family's card."""

    id: str
    name: str
    troops: int
    title: str | None = None  # a pre-printed title, e.g. "Earl of Warwick"
    castles: tuple[str, ...] = ()
    lords_votes: int = 0
    commons_votes: int = 0


@dataclass(frozen=True, slots=True)
class ShipCard:
    id: str
    name: str
    capacity: int
    home_port: str | None = None


@dataclass(frozen=True, slots=True)
class HeirCard:
    """A royal heir: house and place in the succession, and where the forum game starts it."""

    id: str
    name: str
    house: str  # "lancaster" | "york"
    order: int
    start: str | None = None
    noble: str | None = None  # an heir who is himself a noble card (Beaufort)


@dataclass(frozen=True)
class Catalog:
    """Every card of a game's card set, by id."""

    nobles: FrozenDict[str, NobleCard] = field(default_factory=FrozenDict)
    awards: FrozenDict[str, Award] = field(default_factory=FrozenDict)
    ships: FrozenDict[str, ShipCard] = field(default_factory=FrozenDict)
    heirs: FrozenDict[str, HeirCard] = field(default_factory=FrozenDict)
    removed: tuple[str, ...] = ()  # cards the forum set-up takes out of the deck

    def name_of(self, ident: str) -> str:
        for table in (self.nobles, self.ships, self.heirs, self.awards):
            card = table.get(ident)
            if card is not None:
                return card.name
        return default_name(ident)

    def award(self, award_id: str) -> Award:
        a = self.awards.get(award_id)
        return a if a is not None else Award(award_id, default_name(award_id))

"""The card set: nobles, crown items (titles, offices, sees, mercenaries, towns), ships,
royal heirs and the event deck, as static definitions. What a faction holds, and the
order of the decks, is in the state."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar

from .board import default_name
from .frozen import ADDED_LATER, FrozenDict


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


# -- the event deck (FULL_GAME 3.2, 3.3, 3.13.1) ---------------------------------------


class Odds(StrEnum):
    """The odds categories of a card's battle half, lowest first (BATTLE.ratio).

    A card with odds X decides a battle whose category is X or higher (BATTLE.decisive).

    >>> Odds("3:2").ratio, Odds.MAJORITY.ratio
    ((3, 2), (1, 1))
    >>> Odds.TWO_TO_ONE.rank > Odds.FIVE_TO_FOUR.rank
    True
    """

    MAJORITY = "majority"  # the larger side is larger at all (L > s)
    FIVE_TO_FOUR = "5:4"
    THREE_TO_TWO = "3:2"
    TWO_TO_ONE = "2:1"
    THREE_TO_ONE = "3:1"
    FOUR_TO_ONE = "4:1"

    @property
    def ratio(self) -> tuple[int, int]:
        """``(num, den)``: the category needs L x den >= s x num (``majority``: L > s)."""
        if self is Odds.MAJORITY:
            return (1, 1)
        num, den = self.value.split(":")
        return (int(num), int(den))

    @property
    def rank(self) -> int:
        """0 for ``majority`` up to 5 for ``4:1``."""
        return _ODDS_ORDER.index(self)


_ODDS_ORDER: tuple[Odds, ...] = tuple(Odds)


@dataclass(frozen=True, slots=True)
class BattleHalf:
    """The battle section of an event card, read by battle and siege draws
    (EVENT.combat_draw): the lowest odds category the card decides and the nobles it
    kills (BATTLE.decisive, BATTLE.deaths, SIEGE.deaths); or Bad Weather, ``odds`` None,
    which decides nothing and kills no one (BATTLE.bad_weather, SIEGE.resolve)."""

    odds: Odds | None
    deaths: tuple[str, ...] = ()  # noble ids

    @property
    def bad_weather(self) -> bool:
        return self.odds is None


BAD_WEATHER = BattleHalf(None)


class EventKind(StrEnum):
    """The kinds of a card's event section (FULL_GAME 3.13.1)."""

    NONE = "none"
    PLAGUE = "plague"
    STORM = "storm"
    SUMMONS = "summons"
    EMBASSY = "embassy"
    MERCENARIES = "mercenaries"
    PARLIAMENT_CHANCELLOR = "parliament_chancellor"
    PARLIAMENT_MUST = "parliament_must"
    WRIT = "writ"
    FREE_MOVE = "free_move"


class King(StrEnum):
    """Which King an embassy sends (EVENT.embassy)."""

    SOLE = "sole"
    LANCASTER = "lancaster"
    YORK = "york"


class EventSection:
    """Base of the event sections of a card: each kind is its own frozen dataclass with
    the class attribute ``kind`` (encoded with the section, as 3.13.1 writes it)."""

    __slots__ = ()
    kind: ClassVar[EventKind]


@dataclass(frozen=True, slots=True)
class NoEvent(EventSection):
    """``{kind: none}``: nothing happens (EVENT.none), as for a card with no event section."""

    kind: ClassVar[EventKind] = EventKind.NONE


@dataclass(frozen=True, slots=True)
class Plague(EventSection):
    """Nobles and heirs inside each place, or aboard ships in its port, die (EVENT.plague)."""

    kind: ClassVar[EventKind] = EventKind.PLAGUE
    places: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Storm(EventSection):
    """Ships at sea in each zone are driven into a port of their zone (EVENT.storm)."""

    kind: ClassVar[EventKind] = EventKind.STORM
    seas: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Summons(EventSection):
    """A noble (``target``), or whoever holds an award (``holder``), goes to ``place`` at
    once with the heirs he escorts (EVENT.summons, EVENT.summons.void). Exactly one of
    ``target`` and ``holder`` is given."""

    kind: ClassVar[EventKind] = EventKind.SUMMONS
    place: str
    target: str | None = None  # a noble id
    holder: str | None = None  # an award id: its holder is summoned


@dataclass(frozen=True, slots=True)
class Embassy(EventSection):
    """The sole King, or the King of a house, goes to ``place`` with his escort, as a
    summons (EVENT.embassy)."""

    kind: ClassVar[EventKind] = EventKind.EMBASSY
    king: King
    place: str


@dataclass(frozen=True, slots=True)
class Mercenaries(EventSection):
    """Every copy in play of each named mercenary award leaves its holder and goes to
    the Crown discard (EVENT.mercenaries)."""

    kind: ClassVar[EventKind] = EventKind.MERCENARIES
    cards: tuple[str, ...]  # award ids of kind mercenary


@dataclass(frozen=True, slots=True)
class ParliamentChancellor(EventSection):
    """With no sole King, the Chancellor's faction may summon Parliament this turn
    (EVENT.parliament, PARL.summon.chancellor)."""

    kind: ClassVar[EventKind] = EventKind.PARLIAMENT_CHANCELLOR


@dataclass(frozen=True, slots=True)
class ParliamentMust(EventSection):
    """With no sole King, Parliament must be summoned this turn (EVENT.parliament,
    PARL.summon.must)."""

    kind: ClassVar[EventKind] = EventKind.PARLIAMENT_MUST


@dataclass(frozen=True, slots=True)
class Writ(EventSection):
    """Held (EVENT.held): played later to replace the target of a summons by another
    noble of the same faction."""

    kind: ClassVar[EventKind] = EventKind.WRIT
    held: bool = True


@dataclass(frozen=True, slots=True)
class FreeMove(EventSection):
    """Held (EVENT.held): played later for one further movement order of one unit this
    round (ALLY.5 waived)."""

    kind: ClassVar[EventKind] = EventKind.FREE_MOVE
    held: bool = True


CardEvent = (
    NoEvent
    | Plague
    | Storm
    | Summons
    | Embassy
    | Mercenaries
    | ParliamentChancellor
    | ParliamentMust
    | Writ
    | FreeMove
)
EVENT_SECTIONS: dict[EventKind, type[EventSection]] = {
    cls.kind: cls
    for cls in (
        NoEvent,
        Plague,
        Storm,
        Summons,
        Embassy,
        Mercenaries,
        ParliamentChancellor,
        ParliamentMust,
        Writ,
        FreeMove,
    )
}


@dataclass(frozen=True, slots=True)
class EventCard:
    """A card of the event deck: an event section for the event phase, a battle half for
    battle and siege draws, or both (F2). A card with neither does nothing and is
    refused by the data loader."""

    id: str
    name: str
    event: CardEvent | None = None
    battle: BattleHalf | None = None

    @property
    def event_kind(self) -> EventKind:
        """The kind of its event; ``none`` for a card without an event section (EVENT.none)."""
        return EventKind.NONE if self.event is None else self.event.kind

    @property
    def held(self) -> bool:
        """Whether the event phase puts the card in a hand (EVENT.held)."""
        return isinstance(self.event, Writ | FreeMove) and self.event.held


@dataclass(frozen=True, slots=True)
class VoteTable:
    """Parliament's votes (FULL_GAME 3.7), by house: holder -> votes. A holder is a noble
    card, an award (its holder's while he attends), a place (a city or town: its
    controller's), or a royal key: ``king`` (the sole King's; with none, the
    Chancellor's), ``senior_lancaster``, ``senior_york`` (each house's senior heir's)."""

    lords: FrozenDict[str, int] = field(default_factory=FrozenDict)
    commons: FrozenDict[str, int] = field(default_factory=FrozenDict)

    def __bool__(self) -> bool:
        return bool(self.lords or self.commons)


@dataclass(frozen=True)
class Catalog:
    """Every card of a game's card set, by id."""

    nobles: FrozenDict[str, NobleCard] = field(default_factory=FrozenDict)
    awards: FrozenDict[str, Award] = field(default_factory=FrozenDict)
    ships: FrozenDict[str, ShipCard] = field(default_factory=FrozenDict)
    heirs: FrozenDict[str, HeirCard] = field(default_factory=FrozenDict)
    removed: tuple[str, ...] = ()  # cards the forum set-up takes out of the deck
    # The event deck's cards by id (file order; a shuffle sorts them by id). Games stored
    # before the deck existed have none, and keep their records and hashes.
    events: FrozenDict[str, EventCard] = field(default_factory=FrozenDict, metadata=ADDED_LATER)
    # Parliament's vote table (3.7); card sets stored before it have none, and keep their
    # records and hashes (``votes.table`` then reads the votes printed on the cards).
    votes: VoteTable | None = field(default=None, metadata=ADDED_LATER)
    # The rank of a see ("archbishop" or "bishop") where a card set says it (a format-2
    # case's ``kind: archbishop``); absent, an id beginning ``archbishop_`` ranks it
    # (``archbishopric``). Left out while empty, so older card sets keep their hashes.
    see_ranks: FrozenDict[str, str] = field(default_factory=FrozenDict, metadata=ADDED_LATER)

    def name_of(self, ident: str) -> str:
        for table in (self.nobles, self.ships, self.heirs, self.awards, self.events):
            card = table.get(ident)
            if card is not None:
                return card.name
        return default_name(ident)

    def award(self, award_id: str) -> Award:
        a = self.awards.get(award_id)
        return a if a is not None else Award(award_id, default_name(award_id))


ARCHBISHOP = "archbishop"
BISHOP = "bishop"


def archbishopric(catalog: Catalog, award_id: str) -> bool:
    """Whether a see is an archbishopric (CROWN.clergy): as the card set ranks it
    (``see_ranks``), else by its id (``archbishop_of_canterbury``, ``archbishop_of_york``).

    >>> sees = {a: Award(a, a, AwardKind.SEE) for a in ("archbishop_of_york", "bishop_of_durham")}
    >>> cat = Catalog(awards=FrozenDict(sees))
    >>> archbishopric(cat, "archbishop_of_york"), archbishopric(cat, "bishop_of_durham")
    (True, False)
    """
    rank = catalog.see_ranks.get(award_id)
    if rank is not None:
        return rank == ARCHBISHOP
    a = catalog.awards.get(award_id)
    return a is not None and a.kind is AwardKind.SEE and award_id.startswith("archbishop_")

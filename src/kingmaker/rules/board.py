"""The map: places, roads, cross-country links and sea zones.

A board is static for a whole game. It is built once (from the data files or from a
conformance case) and shared by every state of the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .frozen import FrozenDict


class PlaceKind(StrEnum):
    """What stands at a place."""

    COUNTRY = "country"
    CITY = "city"
    TOWN = "town"
    ROYAL_CASTLE = "royal_castle"
    CASTLE = "castle"
    UNFORTIFIED_TOWN = "unfortified_town"
    OPEN_TOWN = "open_town"

    @property
    def controllable(self) -> bool:
        """Cities, towns and castles are controlled by a faction (or by none)."""
        return self in CONTROLLABLE

    @property
    def is_location(self) -> bool:
        """Everything but countryside is a location."""
        return self is not PlaceKind.COUNTRY

    @property
    def label(self) -> str:
        """The kind as a player reads it: ``royal castle``, ``open town``."""
        return _LABELS[self]


_LABELS = {k: k.value.replace("_", " ") for k in PlaceKind}

CONTROLLABLE = frozenset({PlaceKind.CITY, PlaceKind.TOWN, PlaceKind.ROYAL_CASTLE, PlaceKind.CASTLE})

# Regions for regional troops (the labels the crown cards use).
REGIONS = (
    "london",
    "wales",
    "trent",
    "tees",
    "conway",
    "devon_cornwall",
    "ireland",
    "calais",
)


@dataclass(frozen=True, slots=True)
class Place:
    """One place on the map: a location (city, town, castle...) or open country."""

    id: str
    name: str
    kind: PlaceKind
    capacity: int | None = None  # troops it holds; None = unlimited
    garrison: int = 0
    cathedral: bool = False
    regions: tuple[str, ...] = ()
    seas: tuple[str, ...] = ()  # the sea zones a port borders; () = not a port
    lon: float | None = None
    lat: float | None = None
    offmap: bool = False  # reached only by sea (Ireland, Calais, the Isle of Man...)

    @property
    def is_port(self) -> bool:
        return bool(self.seas)


@dataclass(frozen=True, slots=True)
class Sea:
    """A sea zone; ships sail between neighbouring zones."""

    id: str
    name: str
    adjacent: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Road:
    """A road as the sequence of places it links, in order."""

    id: str
    name: str
    places: tuple[str, ...]


def _links(pairs: list[tuple[str, str]]) -> FrozenDict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for a, b in pairs:
        if a == b:
            continue
        out.setdefault(a, set()).add(b)
        out.setdefault(b, set()).add(a)
    return FrozenDict({k: frozenset(v) for k, v in out.items()})


@dataclass(frozen=True)
class Board:
    """Places, roads, cross-country neighbours and seas, with their link indexes.

    Links are symmetric: a road links each pair of consecutive places both ways, a
    cross-country pair both ways, a sea's neighbours both ways.
    """

    name: str
    places: FrozenDict[str, Place]
    seas: FrozenDict[str, Sea] = field(default_factory=FrozenDict)
    roads: tuple[Road, ...] = ()
    adjacent: tuple[tuple[str, str], ...] = ()
    road_links: FrozenDict[str, frozenset[str]] = field(init=False, repr=False)
    road_order: FrozenDict[str, tuple[str, ...]] = field(
        init=False, repr=False
    )  # sorted, for stable searches
    cross_links: FrozenDict[str, frozenset[str]] = field(init=False, repr=False)
    sea_links: FrozenDict[str, frozenset[str]] = field(init=False, repr=False)
    sea_order: FrozenDict[str, tuple[str, ...]] = field(init=False, repr=False)  # sorted
    ports_of_sea: FrozenDict[str, tuple[str, ...]] = field(init=False, repr=False)
    #: Memo of what follows from the map alone (``queries``: the voyages from each port
    #: and sea zone), filled as asked; never compared, hashed or serialised.
    memo: dict[Any, Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "memo", {})
        road_pairs = [(r.places[i], r.places[i + 1]) for r in self.roads for i in range(len(r.places) - 1)]
        object.__setattr__(self, "road_links", _links(road_pairs))
        object.__setattr__(
            self, "road_order", FrozenDict({k: tuple(sorted(v)) for k, v in self.road_links.items()})
        )
        object.__setattr__(self, "cross_links", _links(list(self.adjacent)))
        object.__setattr__(
            self, "sea_links", _links([(s.id, n) for s in self.seas.values() for n in s.adjacent])
        )
        object.__setattr__(
            self, "sea_order", FrozenDict({k: tuple(sorted(v)) for k, v in self.sea_links.items()})
        )
        ports: dict[str, list[str]] = {s: [] for s in self.seas}
        for p in self.places.values():
            for s in p.seas:
                ports.setdefault(s, []).append(p.id)
        object.__setattr__(self, "ports_of_sea", FrozenDict({k: tuple(sorted(v)) for k, v in ports.items()}))

    def place(self, place_id: str) -> Place:
        return self.places[place_id]

    def name_of(self, ident: str) -> str:
        """A place's or sea zone's name (the id itself when unknown)."""
        p = self.places.get(ident)
        if p is not None:
            return p.name
        s = self.seas.get(ident)
        return s.name if s is not None else ident

    def road_neighbours(self, place_id: str) -> frozenset[str]:
        return self.road_links.get(place_id, frozenset())

    def neighbours(self, place_id: str) -> frozenset[str]:
        """Every place one link away, by road or cross-country."""
        return self.road_neighbours(place_id) | self.cross_links.get(place_id, frozenset())

    def sea_neighbours(self, sea_id: str) -> frozenset[str]:
        return self.sea_links.get(sea_id, frozenset())


def default_name(ident: str) -> str:
    """A readable name made from an id.

    >>> default_name("archbishop_of_york")
    'Archbishop of York'
    """
    small = {"of", "the", "and", "de", "la", "in", "on"}
    words = ident.split("_")
    return " ".join(w if (i and w in small) else w.capitalize() for i, w in enumerate(words))

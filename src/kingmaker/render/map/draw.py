"""The map: England and Wales drawn from the board's lon/lat and one viewer's ``View``.

The drawing is built once as a list of plain shapes (``Group`` of ``Shape``), and both
renderers read that same list: ``svg(model)`` for the pages and the SVG download, and
``kingmaker.render.map.png`` for the PNG. Everything a map shows of the position comes from
``view(state, viewer)`` (``kingmaker.rules.views``), never from the raw state; the
board, the card names and the factions' names and colours are static public data.

Projection: equirectangular, longitude scaled by the cosine of the map's middle
latitude. Sea zones have no coordinates: their labels stand at the mean of their
ports' coordinates, or where ``coastline.json`` places them when that mean falls
on land.
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Literal
from xml.sax import saxutils

from kingmaker.rules.board import Board, Place, PlaceKind
from kingmaker.rules.cards import Catalog
from kingmaker.rules.views import View
from kingmaker.service.settings import GREY, FactionInfo

# characters XML 1.0 cannot hold (control characters, lone surrogates, U+FFFE/U+FFFF):
# a game named with one must still draw
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def escape(text: str) -> str:
    return saxutils.escape(_NOT_XML.sub("\ufffd", text))


def quoteattr(text: str) -> str:
    return saxutils.quoteattr(_NOT_XML.sub("\ufffd", text))


Point = tuple[float, float]
ShapeKind = Literal["polygon", "polyline", "circle", "rect", "text"]

SEA = "#cfe3f0"
LAND = "#f4efe1"
COAST = "#8a9a8a"
ROAD = "#9c5a33"
CROSS = "#8d8d8d"
INK = "#2b2b2b"
SEA_INK = "#2c5d85"
NEUTRAL = "#ffffff"
LANCASTER = "#c62828"
YORK = "#fafafa"

KIND_LABELS: dict[PlaceKind, str] = {
    PlaceKind.CITY: "City",
    PlaceKind.TOWN: "Town",
    PlaceKind.ROYAL_CASTLE: "Royal castle",
    PlaceKind.CASTLE: "Castle",
    PlaceKind.UNFORTIFIED_TOWN: "Unfortified town",
    PlaceKind.OPEN_TOWN: "Open town",
    PlaceKind.COUNTRY: "Countryside junction",
}
_LABELLED = {PlaceKind.CITY, PlaceKind.TOWN, PlaceKind.ROYAL_CASTLE}


@dataclass(frozen=True, slots=True)
class Shape:
    kind: ShapeKind
    points: tuple[Point, ...]
    r: float = 0.0  # circle radius; rect: (points[0] = top left, points[1] = size)
    fill: str | None = None
    stroke: str | None = None
    width: float = 1.0
    dash: bool = False
    opacity: float = 1.0
    text: str = ""
    size: float = 8.0
    anchor: Literal["start", "middle", "end"] = "start"
    italic: bool = False
    bold: bool = False
    halo: bool = False  # text drawn over a white outline


@dataclass(frozen=True, slots=True)
class Group:
    """Shapes with one tooltip: ``title`` (the SVG <title>), ``details`` (the details
    panel), and data attributes (``data-place``, ``data-unit``, ...)."""

    cls: str
    shapes: tuple[Shape, ...]
    title: str = ""
    details: str = ""
    data: tuple[tuple[str, str], ...] = ()
    ident: str | None = None


@dataclass(frozen=True)
class MapModel:
    width: int
    height: int
    title: str
    description: str
    groups: tuple[Group, ...]


# -- geometry (static per board) -------------------------------------------------------


@functools.cache
def coastline() -> dict[str, Any]:
    """The outline of Great Britain and Ireland (lon/lat) and sea label positions."""
    text = resources.files(__package__).joinpath("coastline.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@dataclass(frozen=True)
class Geometry:
    """Where everything of one board stands on the drawing (pixels)."""

    width: int
    height: int
    lon_min: float
    lat_max: float
    kx: float  # pixels per degree of longitude
    ky: float  # pixels per degree of latitude
    places: Mapping[str, Point]
    seas: Mapping[str, Point]
    land: tuple[tuple[Point, ...], ...]
    roads: tuple[tuple[Point, ...], ...]
    cross: tuple[tuple[Point, Point], ...]
    legend_at: Point = (10.0, 10.0)
    extra: Mapping[str, Any] = field(default_factory=dict)

    def xy(self, lon: float, lat: float) -> Point:
        return (round((lon - self.lon_min) * self.kx, 1), round((self.lat_max - lat) * self.ky, 1))


def geometry(board: Board, width: int = 900) -> Geometry:
    """Project the board: the frame is the places' extent with a margin."""
    located = [p for p in board.places.values() if p.lon is not None and p.lat is not None]
    lons = [p.lon for p in located if p.lon is not None] or [-6.0, 2.0]
    lats = [p.lat for p in located if p.lat is not None] or [50.0, 56.0]
    lon_min, lon_max = min(lons) - 0.6, max(lons) + 1.0
    lat_min, lat_max = min(lats) - 0.55, max(lats) + 0.45
    k = math.cos(math.radians((lat_min + lat_max) / 2))
    ky = width / ((lon_max - lon_min) * k)
    kx = ky * k
    height = round((lat_max - lat_min) * ky)
    g = Geometry(width, height, lon_min, lat_max, kx, ky, {}, {}, (), (), ())
    places = {p.id: g.xy(p.lon, p.lat) for p in located if p.lon is not None and p.lat is not None}
    hints = coastline().get("sea_labels", {})
    seas: dict[str, Point] = {}
    for sid in board.seas:
        hint = hints.get(sid)
        if isinstance(hint, list) and len(hint) == 2:
            seas[sid] = g.xy(float(hint[0]), float(hint[1]))
            continue
        ports = [board.places[p] for p in board.ports_of_sea.get(sid, ())]
        coords = [(p.lon, p.lat) for p in ports if p.lon is not None and p.lat is not None]
        if coords:
            lon = sum(c[0] for c in coords) / len(coords)
            lat = sum(c[1] for c in coords) / len(coords)
            seas[sid] = g.xy(lon, lat)
    land = tuple(
        tuple(g.xy(float(lon), float(lat)) for lon, lat in poly["points"]) for poly in coastline()["polygons"]
    )
    roads = tuple(
        tuple(places[pid] for pid in road.places if pid in places)
        for road in board.roads
        if sum(pid in places for pid in road.places) >= 2
    )
    cross = tuple((places[a], places[b]) for a, b in board.adjacent if a in places and b in places)
    return Geometry(
        width, height, lon_min, lat_max, kx, ky, places, seas, land, roads, cross, (width - 178.0, 8.0)
    )


# -- the drawing -------------------------------------------------------------------------


@dataclass(frozen=True)
class Styles:
    """Faction names and colours (the game's ``GameSettings.factions``)."""

    names: Mapping[str, str]
    colours: Mapping[str, str]

    def name(self, faction: str | None) -> str:
        if faction is None:
            return "no faction"
        return self.names.get(faction) or FactionInfo.of(faction).name

    def colour(self, faction: str | None) -> str:
        if faction is None:
            return NEUTRAL
        return self.colours.get(faction, GREY)

    @classmethod
    def of(cls, factions: Iterable[FactionInfo]) -> Styles:
        fs = list(factions)
        return cls({f.id: f.name for f in fs}, {f.id: f.colour for f in fs})


def place_symbol(kind: PlaceKind, x: float, y: float, fill: str) -> list[Shape]:
    """The symbol of a place of ``kind`` at (x, y), filled with its controller's colour."""
    if kind is PlaceKind.CITY:
        return [Shape("rect", ((x - 6, y - 6), (12, 12)), fill=fill, stroke=INK, width=2)]
    if kind is PlaceKind.TOWN:
        return [Shape("circle", ((x, y),), r=5.5, fill=fill, stroke=INK, width=1.6)]
    if kind is PlaceKind.ROYAL_CASTLE:
        return [
            Shape(
                "polygon",
                ((x, y - 7.5), (x + 7.5, y), (x, y + 7.5), (x - 7.5, y)),
                fill=fill,
                stroke="#b8860b",
                width=2.2,
            ),
            Shape("circle", ((x, y),), r=1.6, fill=INK),
        ]
    if kind is PlaceKind.CASTLE:
        return [
            Shape(
                "polygon",
                ((x, y - 6.5), (x + 6, y + 4.5), (x - 6, y + 4.5)),
                fill=fill,
                stroke=INK,
                width=1.4,
            )
        ]
    if kind is PlaceKind.UNFORTIFIED_TOWN:
        return [Shape("circle", ((x, y),), r=3.6, fill=fill, stroke=INK, width=1.2)]
    if kind is PlaceKind.OPEN_TOWN:
        return [Shape("circle", ((x, y),), r=3.6, fill=fill, stroke=INK, width=1.2, dash=True)]
    return [Shape("circle", ((x, y),), r=1.8, fill=CROSS)]


def _text(x: float, y: float, text: str, **kw: Any) -> Shape:
    return Shape("text", ((x, y),), text=text, **kw)


@dataclass
class _Where:
    """What stands at each place or sea zone, for markers and details."""

    inside: dict[str, list[str]] = field(default_factory=dict)
    open: dict[str, list[str]] = field(default_factory=dict)
    ships: dict[str, list[str]] = field(default_factory=dict)
    heirs: dict[str, list[str]] = field(default_factory=dict)


def build_map(
    board: Board,
    catalog: Catalog,
    v: View,
    styles: Styles,
    geo: Geometry,
    *,
    title: str = "",
    selectable: Iterable[str] = (),
    legend: bool = True,
) -> MapModel:
    """The drawing of the position ``v`` (one viewer's ``View``). ``selectable``: units
    the viewer may order (their markers carry ``data-unit`` for the order panel)."""
    pick = set(selectable)
    control = dict(v.control)
    nobles = {n.id: n for n in v.nobles}
    army_of = {u: a for a in v.armies if not a.fleet for u in a.units}
    where = _Where()
    for n in v.nobles:
        if n.place is None or n.aboard is not None:
            continue
        (where.inside if n.inside else where.open).setdefault(n.place, []).append(n.id)
    for s in v.ships:
        where.ships.setdefault(s.place, []).append(s.id)
    for h in v.heirs:
        spot = nobles[h.with_noble].place if h.with_noble in nobles else h.place
        if spot is not None:
            where.heirs.setdefault(spot, []).append(h.id)

    def noble_line(nid: str) -> str:
        n = nobles[nid]
        bits = [f"{catalog.name_of(nid)} ({styles.name(n.faction)}), {n.troops} troops"]
        if n.awards:
            bits.append("holds " + ", ".join(catalog.name_of(a) for a in n.awards))
        if nid in army_of:
            bits.append(f"in army {army_of[nid].id}")
        if n.captive_of:
            bits.append(f"captive of {styles.name(n.captive_of)}")
        return "; ".join(bits)

    def heir_line(hid: str) -> str:
        h = next(x for x in v.heirs if x.id == hid)
        crowned = ", crowned" if h.crowned else ""
        escort = f", with {catalog.name_of(h.with_noble)}" if h.with_noble else ""
        return f"{catalog.name_of(hid)} (heir of {h.house.capitalize()} no. {h.order}{crowned}{escort})"

    def ship_line(sid: str) -> str:
        s = next(x for x in v.ships if x.id == sid)
        aboard = f"; aboard: {', '.join(catalog.name_of(p) for p in s.passengers)}" if s.passengers else ""
        where_ = "in port" if s.in_port else "at sea"
        storm = " (driven in by a storm)" if s.forced else ""
        return f"{catalog.name_of(sid)} ({styles.name(s.faction)}), {where_}{storm}, carries {s.capacity}{aboard}"

    groups: list[Group] = [
        Group("sea", (Shape("rect", ((0, 0), (geo.width, geo.height)), fill=SEA),)),
        Group("land", tuple(Shape("polygon", poly, fill=LAND, stroke=COAST, width=1.0) for poly in geo.land)),
        Group(
            "cross",
            tuple(
                Shape("polyline", pair, stroke=CROSS, width=0.8, dash=True, opacity=0.7) for pair in geo.cross
            ),
        ),
        Group(
            "roads",
            tuple(Shape("polyline", line, stroke=ROAD, width=1.4, opacity=0.75) for line in geo.roads),
        ),
    ]
    for sid, (x, y) in sorted(geo.seas.items()):
        sea = board.seas[sid]
        ports = ", ".join(board.name_of(p) for p in board.ports_of_sea.get(sid, ()))
        ships_here = [ship_line(s) for s in where.ships.get(sid, ())]
        details = f"{sea.name} (sea zone). Ports: {ports or 'none'}." + (
            " Ships: " + "; ".join(ships_here) + "." if ships_here else ""
        )
        groups.append(
            Group(
                "sea-zone",
                (_text(x, y, sea.name, size=10, anchor="middle", italic=True, fill=SEA_INK, halo=False),),
                title=sea.name,
                details=details,
                data=(("sea", sid),),
                ident=f"sea-{sid}",
            )
        )
    places = sorted(board.places.values(), key=lambda p: (p.kind is not PlaceKind.COUNTRY, p.id))
    for p in places:
        if p.id not in geo.places:
            continue
        x, y = geo.places[p.id]
        holder = control.get(p.id)
        fill = styles.colour(holder) if p.kind.controllable else (NEUTRAL if p.kind.is_location else CROSS)
        shapes = place_symbol(p.kind, x, y, fill)
        if p.offmap:
            shapes.insert(
                0, Shape("circle", ((x, y),), r=10.5, fill=None, stroke=SEA_INK, width=1.0, dash=True)
            )
        label = p.name + (" (off-map)" if p.offmap else "")
        if p.kind in _LABELLED or p.offmap:
            left = x > geo.width - 110
            shapes.append(
                _text(
                    x - 8 if left else x + 8,
                    y + 3.5,
                    p.name,
                    size=8.5,
                    fill=INK,
                    halo=True,
                    bold=p.kind is PlaceKind.CITY,
                    anchor="end" if left else "start",
                )
            )
        groups.append(
            Group(
                f"place kind-{p.kind.value}",
                tuple(shapes),
                title=f"{label}: {KIND_LABELS[p.kind].lower()}",
                details=_place_details(p, holder, styles, board, where, noble_line, heir_line, ship_line),
                data=(("place", p.id),),
                ident=f"place-{p.id}",
            )
        )
    # unit markers: nobles (one per army), then ships, then heirs, in a row above each place
    spots = sorted(set(where.inside) | set(where.open) | set(where.ships) | set(where.heirs))
    for spot in spots:
        anchor = geo.places.get(spot) or geo.seas.get(spot)
        if anchor is None:
            continue
        at_sea = spot in geo.seas
        x0, y0 = (anchor[0] - 12, anchor[1] + 5) if at_sea else (anchor[0] - 7, anchor[1] - 18)
        marks: list[Group] = []
        done_armies: set[str] = set()
        for nid in [*where.inside.get(spot, ()), *where.open.get(spot, ())]:
            n = nobles[nid]
            army = army_of.get(nid)
            if army is not None:
                if army.id in done_armies:
                    continue
                done_armies.add(army.id)
                members = [m for m in army.units if m in nobles]
                senior = nobles.get(army.senior or members[0]) if members else n
                colour = styles.colour(senior.faction if senior else n.faction)
                lines = [noble_line(m) for m in members]
                inside = "inside" if n.inside else "in the open at"
                marks.append(
                    Group(
                        "unit army",
                        (),
                        title=f"Army {army.id} ({len(members)} nobles), {inside} {board.name_of(spot)}",
                        details=f"Army {army.id} {inside} {board.name_of(spot)}: " + "; ".join(lines) + ".",
                        data=(("unit", army.id), ("colour", colour), ("inside", "1" if n.inside else "0")),
                        ident=army.id,
                    )
                )
                continue
            inside = "inside" if n.inside else "in the open at"
            marks.append(
                Group(
                    "unit noble",
                    (),
                    title=f"{catalog.name_of(nid)} ({styles.name(n.faction)}), {inside} {board.name_of(spot)}",
                    details=noble_line(nid) + f"; {inside} {board.name_of(spot)}.",
                    data=(
                        ("unit", nid),
                        ("colour", styles.colour(n.faction)),
                        ("inside", "1" if n.inside else "0"),
                    ),
                    ident=nid,
                )
            )
        for sid in where.ships.get(spot, ()):
            s = next(x for x in v.ships if x.id == sid)
            marks.append(
                Group(
                    "unit ship",
                    (),
                    title=f"{catalog.name_of(sid)} ({styles.name(s.faction)}) at {board.name_of(spot)}",
                    details=ship_line(sid) + f", at {board.name_of(spot)}.",
                    data=(("unit", sid), ("colour", styles.colour(s.faction))),
                    ident=sid,
                )
            )
        for hid in where.heirs.get(spot, ()):
            h = next(x for x in v.heirs if x.id == hid)
            marks.append(
                Group(
                    "unit heir",
                    (),
                    title=heir_line(hid),
                    details=heir_line(hid) + f", at {board.name_of(spot)}.",
                    data=(("heir", hid), ("colour", LANCASTER if h.house == "lancaster" else YORK)),
                    ident=hid,
                )
            )
        for i, m in enumerate(marks):
            col, row = i % 5, i // 5
            x, y = x0 + col * 9.5, y0 - row * 11
            groups.append(_marker(m, x, y, m.ident in pick if m.ident else False))
    if legend:
        groups += _legend(geo, v, styles, board)
    title = title or f"Round {v.round}: {styles.name(v.turn)} to play"
    desc = (
        "Map of England and Wales: places by kind, coloured by the faction that controls them; "
        "roads; sea zones; nobles, armies, ships and heirs where they stand."
    )
    return MapModel(geo.width, geo.height, title, desc, tuple(groups))


def _marker(m: Group, x: float, y: float, selectable: bool) -> Group:
    data = dict(m.data)
    colour = data.pop("colour", GREY)
    stroke = "#000000" if colour.lower() in ("#fff", "#ffffff", YORK) else "#ffffff"
    kind = m.cls.split()[-1]
    if kind == "noble":
        shapes: tuple[Shape, ...] = (
            Shape(
                "polygon",
                ((x, y), (x + 8, y), (x + 8, y + 6), (x + 4, y + 10), (x, y + 6)),
                fill=colour,
                stroke=stroke,
                width=1.0,
            ),
        )
        if data.get("inside") == "1":
            shapes += (Shape("rect", ((x + 2.5, y + 2), (3, 3)), fill=stroke),)
    elif kind == "army":
        shapes = (
            Shape("rect", ((x - 1, y - 1), (10, 12)), fill=colour, stroke="#000000", width=1.6),
            Shape("polyline", ((x + 1, y + 10), (x + 7, y + 1)), stroke=stroke, width=1.4),
            Shape("polyline", ((x + 1, y + 1), (x + 7, y + 10)), stroke=stroke, width=1.4),
        )
    elif kind == "ship":
        shapes = (
            Shape(
                "polygon",
                ((x - 1, y + 5), (x + 9, y + 5), (x + 7, y + 9), (x + 1, y + 9)),
                fill=colour,
                stroke="#000000",
                width=0.8,
            ),
            Shape(
                "polygon",
                ((x + 4, y - 1), (x + 4, y + 5), (x + 8, y + 4)),
                fill=colour,
                stroke="#000000",
                width=0.6,
            ),
        )
    else:  # heir
        shapes = (Shape("circle", ((x + 4, y + 4.5),), r=4, fill=colour, stroke="#b8860b", width=1.6),)
    if selectable:
        shapes = (
            Shape("circle", ((x + 4, y + 4.5),), r=8, fill=None, stroke="#000000", width=1.2, dash=True),
            *shapes,
        )
    data.pop("inside", None)
    cls = m.cls + (" selectable" if selectable else "")
    return Group(cls, shapes, m.title, m.details, tuple(sorted(data.items())), None)


def _place_details(
    p: Place,
    holder: str | None,
    styles: Styles,
    board: Board,
    where: _Where,
    noble_line: Any,
    heir_line: Any,
    ship_line: Any,
) -> str:
    parts = [f"{p.name}: {KIND_LABELS[p.kind].lower()}" + (" (off-map, reached by sea)" if p.offmap else "")]
    facts = []
    if p.capacity is not None:
        facts.append(f"holds {p.capacity} troops")
    if p.garrison:
        facts.append(f"garrison {p.garrison}")
    if p.cathedral:
        facts.append("cathedral")
    if p.seas:
        facts.append("port on " + ", ".join(board.name_of(s) for s in p.seas))
    if facts:
        parts.append("; ".join(facts))
    if p.kind.controllable:
        parts.append(f"controlled by {styles.name(holder)}" if holder else "controlled by no faction")
    for label, ids in (
        ("inside", where.inside.get(p.id, ())),
        ("in the open", where.open.get(p.id, ())),
    ):
        if ids:
            parts.append(f"{label}: " + "; ".join(noble_line(n) for n in ids))
    if where.ships.get(p.id):
        parts.append("ships in port: " + "; ".join(ship_line(s) for s in where.ships[p.id]))
    if where.heirs.get(p.id):
        parts.append("heirs: " + "; ".join(heir_line(h) for h in where.heirs[p.id]))
    return ". ".join(parts) + "."


def _legend(geo: Geometry, v: View, styles: Styles, board: Board) -> list[Group]:
    kinds = [k for k in KIND_LABELS if any(p.kind is k for p in board.places.values())]
    factions = list(v.turn_order)
    rows = len(kinds) + len(factions) + 6
    h = rows * 13 + 12
    x0, y0 = geo.legend_at
    shapes: list[Shape] = [
        Shape("rect", ((x0, y0), (170, h)), fill="#ffffff", stroke=COAST, width=1.0, opacity=0.92),
        _text(x0 + 8, y0 + 14, "Legend", size=10, bold=True, fill=INK),
    ]
    y = y0 + 28
    for k in kinds:
        shapes += place_symbol(k, x0 + 16, y - 3, NEUTRAL)
        shapes.append(_text(x0 + 30, y, KIND_LABELS[k], size=8.5, fill=INK))
        y += 13
    for f in factions:
        shapes.append(
            Shape("rect", ((x0 + 10, y - 9), (12, 10)), fill=styles.colour(f), stroke=INK, width=0.8)
        )
        shapes.append(
            _text(x0 + 30, y, styles.name(f) + (" (to play)" if f == v.turn else ""), size=8.5, fill=INK)
        )
        y += 13
    shapes += [
        Shape("polyline", ((x0 + 8, y - 4), (x0 + 24, y - 4)), stroke=ROAD, width=1.4),
        _text(x0 + 30, y, "Road", size=8.5, fill=INK),
        Shape("polyline", ((x0 + 8, y + 9), (x0 + 24, y + 9)), stroke=CROSS, width=0.8, dash=True),
        _text(x0 + 30, y + 13, "Cross-country link", size=8.5, fill=INK),
        Shape(
            "polygon",
            ((x0 + 12, y + 18), (x0 + 20, y + 18), (x0 + 20, y + 24), (x0 + 16, y + 28), (x0 + 12, y + 24)),
            fill=GREY,
            stroke="#fff",
        ),
        _text(x0 + 30, y + 26, "Noble (dot: inside)", size=8.5, fill=INK),
        Shape("rect", ((x0 + 11, y + 31), (10, 12)), fill=GREY, stroke="#000", width=1.6),
        _text(x0 + 30, y + 40, "Army; ship; heir", size=8.5, fill=INK),
        Shape("circle", ((x0 + 16, y + 51),), r=6, fill=None, stroke=SEA_INK, dash=True),
        _text(x0 + 30, y + 54, "Off-map (reached by sea)", size=8.5, fill=INK),
    ]
    return [Group("legend", tuple(shapes), "Legend")]


# -- SVG ---------------------------------------------------------------------------------


def _num(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _pts(points: Sequence[Point]) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in points)


def _paint(s: Shape) -> str:
    out = [f'fill="{s.fill or "none"}"']
    if s.stroke:
        out.append(f'stroke="{s.stroke}" stroke-width="{_num(s.width)}"')
        if s.dash:
            out.append('stroke-dasharray="3,2"')
    if s.opacity < 1:
        out.append(f'opacity="{s.opacity}"')
    return " ".join(out)


def shape_svg(s: Shape) -> str:
    if s.kind == "polygon":
        return f'<polygon points="{_pts(s.points)}" {_paint(s)}/>'
    if s.kind == "polyline":
        return f'<polyline points="{_pts(s.points)}" {_paint(s)} stroke-linecap="round" stroke-linejoin="round"/>'
    if s.kind == "circle":
        (x, y) = s.points[0]
        return f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(s.r)}" {_paint(s)}/>'
    if s.kind == "rect":
        (x, y), (w, h) = s.points[0], s.points[1]
        return f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" height="{_num(h)}" {_paint(s)}/>'
    (x, y) = s.points[0]
    font = (
        f'font-family="DejaVu Sans, Verdana, sans-serif" font-size="{_num(s.size)}" text-anchor="{s.anchor}"'
        + (' font-style="italic"' if s.italic else "")
        + (' font-weight="bold"' if s.bold else "")
    )
    text = escape(s.text)
    halo = (
        f'<text x="{_num(x)}" y="{_num(y)}" {font} fill="none" stroke="#ffffff" stroke-width="2.6" '
        f'stroke-linejoin="round" opacity="0.85">{text}</text>'
        if s.halo
        else ""
    )
    return f'{halo}<text x="{_num(x)}" y="{_num(y)}" {font} fill="{s.fill or INK}">{text}</text>'


def svg(model: MapModel, *, element_id: str = "map-svg") -> str:
    """A standalone SVG document of the map (also embedded as it is in the pages)."""
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" id="{element_id}" class="map" '
        f'viewBox="0 0 {model.width} {model.height}" width="{model.width}" height="{model.height}" '
        f'role="img" aria-labelledby="{element_id}-title {element_id}-desc">',
        f'<title id="{element_id}-title">{escape(model.title)}</title>',
        f'<desc id="{element_id}-desc">{escape(model.description)}</desc>',
    ]
    for g in model.groups:
        attrs = [f"class={quoteattr(g.cls)}"]
        if g.ident and not g.cls.startswith("unit"):
            attrs.append(f"id={quoteattr(g.ident)}")
        attrs += [f"data-{k}={quoteattr(v)}" for k, v in g.data]
        if g.details:
            attrs.append(f"data-details={quoteattr(g.details)}")
        if "selectable" in g.cls:
            attrs.append('tabindex="0" role="button"')
        title = f"<title>{escape(g.title)}</title>" if g.title else ""
        out.append(f"<g {' '.join(attrs)}>{title}{''.join(shape_svg(s) for s in g.shapes)}</g>")
    out.append("</svg>")
    return "\n".join(out)


# -- the legal-destination overlay -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Mark:
    """A highlighted destination: ``status`` "enter" (may go inside), "open" (may stop
    in the open), "siege" (may lay siege) or "sea"."""

    ident: str
    name: str
    status: str
    url: str = ""


_MARK_COLOURS = {
    "enter": "#1b8a3a",
    "open": "#1f63b5",
    "siege": "#c25400",
    "sea": "#6a1b9a",
    "from": "#000000",
}


def overlay_svg(geo: Geometry, marks: Iterable[Mark], *, origin: str | None = None) -> str:
    """A transparent SVG, the size of the map, that rings each legal destination (and
    the unit's own place); each ring's ``data-url`` asks the server for the confirm form."""
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" id="map-overlay" class="map-overlay" '
        f'viewBox="0 0 {geo.width} {geo.height}" hx-swap-oob="true">'
    ]
    if origin is not None:
        at = geo.places.get(origin) or geo.seas.get(origin)
        if at is not None:
            out.append(
                f'<circle cx="{_num(at[0])}" cy="{_num(at[1])}" r="13" fill="none" stroke="#000" stroke-width="2.5"/>'
            )
    for m in marks:
        at = geo.places.get(m.ident) or geo.seas.get(m.ident)
        if at is None:
            continue
        colour = _MARK_COLOURS.get(m.status, "#000")
        attrs = f' data-url={quoteattr(m.url)} class="dest" tabindex="0" role="button"' if m.url else ""
        out.append(
            f"<g{attrs}><title>{escape(m.name)}: {escape(m.status)}</title>"
            f'<circle cx="{_num(at[0])}" cy="{_num(at[1])}" r="10" fill="{colour}" fill-opacity="0.25" '
            f'stroke="{colour}" stroke-width="2.5"/></g>'
        )
    out.append("</svg>")
    return "".join(out)

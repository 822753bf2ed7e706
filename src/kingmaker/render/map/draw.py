"""The drawing of the map: the board, and the position one viewer may see, as plain
shapes (``build_map``); ``kingmaker.render.map.svg`` and ``kingmaker.render.map.png``
render the same shapes. Everything a map shows of the position comes from
``view(state, viewer)`` (``kingmaker.rules.views``), never from the raw state; the
board, the card names and the factions' names and colours are static public data.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kingmaker.rules.board import Board, Place, PlaceKind
from kingmaker.rules.cards import Catalog
from kingmaker.rules.state import Captivity
from kingmaker.rules.views import View
from kingmaker.service.settings import GREY, FactionInfo

from .geometry import Geometry
from .shapes import (
    COAST,
    CROSS,
    INK,
    LANCASTER,
    LAND,
    NEUTRAL,
    ROAD,
    SEA,
    SEA_INK,
    YORK,
    Group,
    MapModel,
    Shape,
)

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
    captives: dict[str, list[tuple[str, Captivity]]] = field(default_factory=dict)  # where taken


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
    sieges = {x.place: x for x in v.sieges}
    nobles = {n.id: n for n in v.nobles}
    army_of = {u: a for a in v.armies if not a.fleet for u in a.units}
    where = _Where()
    for n in v.nobles:
        if n.place is None or n.aboard is not None:
            continue
        (where.inside if n.inside else where.open).setdefault(n.place, []).append(n.id)
    for nid, c in v.captivity:
        if nid in nobles and nobles[nid].captive_of and nobles[nid].place is None:
            where.captives.setdefault(c.place, []).append((nid, c))
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
        siege = sieges.get(p.id)
        if siege is not None:  # a ring in the besieger's colour round the place
            shapes[:0] = [
                Shape("circle", ((x, y),), r=12.5, fill=None, stroke=INK, width=4.2),
                Shape(
                    "circle",
                    ((x, y),),
                    r=12.5,
                    fill=None,
                    stroke=styles.colour(siege.by),
                    width=2.6,
                    dash=True,
                ),
            ]
            label += f", besieged by {styles.name(siege.by)}"
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
        details = _place_details(p, holder, styles, board, where, noble_line, heir_line, ship_line)
        if siege is not None:
            laying = ", ".join(catalog.name_of(b) for b in siege.besiegers)
            details += f" Under siege by {styles.name(siege.by)} ({laying}) since round {siege.round}."
        groups.append(
            Group(
                f"place kind-{p.kind.value}" + (" besieged" if siege is not None else ""),
                tuple(shapes),
                title=f"{label}: {KIND_LABELS[p.kind].lower()}",
                details=details,
                data=(("place", p.id),),
                ident=f"place-{p.id}",
            )
        )
    # unit markers: nobles (one per army), then ships, then heirs, in a row above each place
    spots = sorted(
        set(where.inside) | set(where.open) | set(where.captives) | set(where.ships) | set(where.heirs)
    )
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
        for nid, c in where.captives.get(spot, ()):  # off the board: marked where taken
            n = nobles[nid]
            held = (
                f"{catalog.name_of(nid)} ({styles.name(n.faction)}), captive of {styles.name(n.captive_of)}"
            )
            marks.append(
                Group(
                    "unit noble captive",
                    (),
                    title=f"{held}, taken at {board.name_of(spot)}",
                    details=f"{held}: taken at {board.name_of(spot)} in round {c.round}, off the board.",
                    data=(("colour", styles.colour(n.faction)), ("captor", styles.colour(n.captive_of))),
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
    kind = m.cls.split()[1]  # "unit noble", "unit noble captive", "unit ship"...
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
        captor = data.pop("captor", None)
        if captor is not None:  # a captive: a dashed frame in the captor's colour
            shapes = (
                Shape("rect", ((x - 2, y - 2), (12, 14)), fill=None, stroke=INK, width=2.6),
                Shape("rect", ((x - 2, y - 2), (12, 14)), fill=None, stroke=captor, width=1.6, dash=True),
                *shapes,
            )
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
    rows = len(kinds) + len(factions) + (8 if v.phase else 6)
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
    if v.phase:  # the full game: sieges in progress
        shapes += [
            Shape("circle", ((x0 + 16, y + 64),), r=6, fill=None, stroke=INK, width=3.2),
            Shape("circle", ((x0 + 16, y + 64),), r=6, fill=None, stroke="#ffffff", width=1.6, dash=True),
            _text(x0 + 30, y + 67, "Siege (besieger's colour)", size=8.5, fill=INK),
            Shape("rect", ((x0 + 10, y + 72), (12, 14)), fill=None, stroke=INK, width=2.6),
            Shape("rect", ((x0 + 10, y + 72), (12, 14)), fill=None, stroke="#ffffff", width=1.6, dash=True),
            _text(x0 + 30, y + 82, "Captive (captor's colour)", size=8.5, fill=INK),
        ]
    return [Group("legend", tuple(shapes), "Legend")]

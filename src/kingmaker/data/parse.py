"""Reading each data file's tables into model objects, with the checks one entry
can make on its own. Checks across entries and files are in ``checks.py``."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from kingmaker.rules.board import REGIONS, Place, PlaceKind, Road, Sea, default_name
from kingmaker.rules.cards import Award, AwardKind, EventCard, HeirCard, NobleCard, ShipCard
from kingmaker.rules.limits import FACTION_ID_MAX

from . import schema as s
from .dataset import Faction
from .fields import FileReader, describe
from .problems import DataProblem

COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
KINDS = tuple(k.value for k in PlaceKind)
# A region that lies inside another must list both (board.REGIONS).
REGION_IMPLIES = {"tees": "trent", "conway": "wales"}


@dataclass
class Parsed:
    """What the files of a folder hold, as far as they could be read.

    ``*_ids`` keep every entry's id in file order, also of entries with problems, so
    that references to them do not count as unknown.
    """

    problems: list[DataProblem] = field(default_factory=list)
    raw: dict[str, dict[str, Any]] = field(default_factory=dict)  # file -> parsed TOML
    setup: dict[str, Any] | None = None
    factions: list[Faction] = field(default_factory=list)
    places: dict[str, Place] = field(default_factory=dict)
    place_ids: list[str] = field(default_factory=list)
    seas: dict[str, Sea] = field(default_factory=dict)
    sea_ids: list[str] = field(default_factory=list)
    roads: list[Road] = field(default_factory=list)
    adjacent: tuple[tuple[str, str], ...] = ()
    nobles: dict[str, NobleCard] = field(default_factory=dict)
    noble_ids: list[str] = field(default_factory=list)
    awards: dict[str, Award] = field(default_factory=dict)
    award_ids: list[tuple[str, str]] = field(default_factory=list)  # (id, key path)
    seniority: dict[str, int] = field(default_factory=dict)
    ships: dict[str, ShipCard] = field(default_factory=dict)
    ship_ids: list[str] = field(default_factory=list)
    heirs: dict[str, HeirCard] = field(default_factory=dict)
    heir_ids: list[str] = field(default_factory=list)
    crowned: list[str] = field(default_factory=list)
    events: dict[str, EventCard] = field(default_factory=dict)  # events.toml (``deck.py``)
    event_ids: list[str] = field(default_factory=list)
    place_votes: dict[str, int] = field(default_factory=dict)  # places.toml commons_votes
    royal_votes: dict[str, dict[str, int]] = field(default_factory=dict)  # setup [parliament]

    def reader(self, file: str) -> FileReader:
        return FileReader(file, self.problems)


def parse_setup(out: Parsed, data: dict[str, Any]) -> None:
    """``setup.toml``: the game's name, faction range, deal size, removed cards, factions."""
    r = out.reader(s.SETUP)
    top = {k: v for k, v in data.items() if k not in (s.FACTIONS_KEY, s.PARLIAMENT_KEY)}
    values = r.fields("", top, s.SETUP_FIELDS)
    if values is not None:
        if values["min_factions"] > values["max_factions"]:
            r.report("min_factions", "must not be more than max_factions")
        out.setup = values
    royal = data.get(s.PARLIAMENT_KEY)
    if royal is not None:
        if not isinstance(royal, dict):
            r.report(s.PARLIAMENT_KEY, f"expected a table of royal votes, got {describe(royal)}")
        else:
            votes = r.fields(s.PARLIAMENT_KEY, royal, s.PARLIAMENT_FIELDS)
            if votes is not None:
                out.royal_votes = {house: dict(votes.get(house, ())) for house in ("lords", "commons")}
    factions = data.get(s.FACTIONS_KEY)
    if factions is None:
        r.report(s.FACTIONS_KEY, "missing required table of factions")
        return
    if not isinstance(factions, dict):
        r.report(s.FACTIONS_KEY, f"expected a table of factions, got {describe(factions)}")
        return
    for fid, path, table in r.tables(factions, f"{s.FACTIONS_KEY}."):
        if len(fid) > FACTION_ID_MAX:
            r.report(path, f"a faction id has at most {FACTION_ID_MAX} characters, this one {len(fid)}")
            continue
        f = r.fields(path, table, s.FACTION_FIELDS)
        if f is None:
            continue
        if not COLOUR.match(f["colour"]):
            r.report(f"{path}.colour", f'expected a colour like "#b22222", got {f["colour"]!r}')
            continue
        out.factions.append(Faction(fid, f["name"], f["colour"]))


def parse_places(out: Parsed, data: dict[str, Any]) -> None:
    """``places.toml``: one table per place."""
    r = out.reader(s.PLACES)
    for pid, path, table in r.tables(data):
        out.place_ids.append(pid)
        f = r.fields(path, table, s.PLACE_FIELDS)
        if f is None:
            continue
        place = _place(r, pid, path, f)
        if place is not None:
            out.places[pid] = place
            if f.get("commons_votes"):
                out.place_votes[pid] = f["commons_votes"]


def _place(r: FileReader, pid: str, path: str, f: dict[str, Any]) -> Place | None:
    ok = True
    if f["kind"] not in KINDS:
        r.report(f"{path}.kind", f"unknown kind {f['kind']!r}; expected one of: {', '.join(KINDS)}")
        return None
    kind = PlaceKind(f["kind"])
    if kind.is_location:
        for name in ("capacity", "garrison"):
            if name not in f:
                r.report(f"{path}.{name}", f"missing required field for a {kind.label} (an integer)")
                ok = False
    regions: tuple[str, ...] = f.get("regions", ())
    for i, region in enumerate(regions):
        if region not in REGIONS:
            r.report(
                f"{path}.regions[{i}]", f"unknown region {region!r}; expected one of: {', '.join(REGIONS)}"
            )
            ok = False
    for inner, outer in REGION_IMPLIES.items():
        if inner in regions and outer not in regions:
            r.report(f"{path}.regions", f"region {inner!r} lies inside {outer!r}: list both")
            ok = False
    seas: tuple[str, ...] = f.get("seas", ())
    if f.get("offmap", False) and not seas:
        r.report(f"{path}.seas", "an off-map place is reached only by sea, so it must be a port")
        ok = False
    if not ok:
        return None
    return Place(
        id=pid,
        name=f.get("name", default_name(pid)),
        kind=kind,
        capacity=f.get("capacity"),
        garrison=f.get("garrison", 0),
        cathedral=f.get("cathedral", False),
        regions=regions,
        seas=seas,
        lon=f.get("lon"),
        lat=f.get("lat"),
        offmap=f.get("offmap", False),
    )


def parse_seas(out: Parsed, data: dict[str, Any]) -> None:
    """``seas.toml``: one table per sea zone."""
    r = out.reader(s.SEAS)
    for sid, path, table in r.tables(data):
        out.sea_ids.append(sid)
        f = r.fields(path, table, s.SEA_FIELDS)
        if f is not None:
            out.seas[sid] = Sea(sid, f.get("name", default_name(sid)), f.get("adjacent", ()))


def parse_roads(out: Parsed, data: dict[str, Any]) -> None:
    """``roads.toml``: ``adjacent`` pairs and a ``roads`` table of named roads."""
    r = out.reader(s.ROADS)
    for key in data:
        if key not in s.ROADS_TOP:
            r.report(key, f"unknown field; expected one of: {', '.join(s.ROADS_TOP)}")
    if "adjacent" in data:
        pairs, ok = r.value("adjacent", data["adjacent"], s.ADJACENT_FIELD)
        if ok:
            out.adjacent = pairs
    roads = data.get("roads", {})
    if not isinstance(roads, dict):
        r.report("roads", f"expected a table of roads, got {describe(roads)}")
        return
    for rid, path, table in r.tables(roads, "roads."):
        f = r.fields(path, table, s.ROAD_FIELDS)
        if f is None:
            continue
        if len(f["places"]) < 2:
            r.report(f"{path}.places", f"a road needs at least 2 places, got {len(f['places'])}")
            continue
        out.roads.append(Road(rid, f.get("name", default_name(rid)), f["places"]))


def parse_nobles(out: Parsed, data: dict[str, Any]) -> None:
    """``nobles.toml``: one table per noble family card."""
    r = out.reader(s.NOBLES)
    for nid, path, table in r.tables(data):
        out.noble_ids.append(nid)
        f = r.fields(path, table, s.NOBLE_FIELDS)
        if f is None:
            continue
        if not f["castles"]:
            r.report(f"{path}.castles", "a noble needs at least one castle")
            continue
        out.nobles[nid] = NobleCard(
            id=nid,
            name=f.get("name", default_name(nid)),
            troops=f["troops"],
            title=f.get("title"),
            castles=f["castles"],
            lords_votes=f.get("lords_votes", 0),
            commons_votes=f.get("commons_votes", 0),
        )


def parse_awards(out: Parsed, data: dict[str, Any]) -> None:
    """``awards.toml``: a section per kind (titles, offices, sees...), a table per card."""
    r = out.reader(s.AWARDS)
    for section, value in data.items():
        kind = s.AWARD_SECTIONS.get(section)
        if kind is None:
            r.report(section, f"unknown award kind; expected one of: {', '.join(s.AWARD_SECTIONS)}")
            continue
        if not isinstance(value, dict):
            r.report(section, f"expected a table of awards, got {describe(value)}")
            continue
        for aid, path, table in r.tables(value, f"{section}."):
            out.award_ids.append((aid, path))
            award = _award(r, out, aid, path, table, kind)
            if award is not None:
                out.awards[aid] = award


def _award(
    r: FileReader, out: Parsed, aid: str, path: str, table: dict[str, Any], kind: AwardKind
) -> Award | None:
    f = r.fields(path, table, s.AWARD_FIELDS)
    if f is None:
        return None
    regional: tuple[tuple[str, int], ...] = f.get("regional", ())
    ok = True
    for region, _ in regional:
        if region not in REGIONS:
            r.report(
                f"{path}.regional.{region}",
                f"unknown region {region!r}; expected one of: {', '.join(REGIONS)}",
            )
            ok = False
    if "seniority" in f:
        if kind is not AwardKind.SEE:
            r.report(f"{path}.seniority", "only sees have a seniority")
            ok = False
        else:
            out.seniority[aid] = f["seniority"]
    if not ok:
        return None
    return Award(
        id=aid,
        name=f.get("name", default_name(aid)),
        kind=kind,
        troops=f.get("troops", 0),
        regional=regional,
        places=f.get("places", ()),
        commons_votes=f.get("commons_votes", 0),
        lords_votes=f.get("lords_votes", 0),
        copies=f.get("copies", 1),
    )


def parse_ships(out: Parsed, data: dict[str, Any]) -> None:
    """``ships.toml``: one table per ship card."""
    r = out.reader(s.SHIPS)
    for sid, path, table in r.tables(data):
        out.ship_ids.append(sid)
        f = r.fields(path, table, s.SHIP_FIELDS)
        if f is not None:
            out.ships[sid] = ShipCard(sid, f.get("name", default_name(sid)), f["capacity"], f["home_port"])


def parse_heirs(out: Parsed, data: dict[str, Any]) -> None:
    """``heirs.toml``: one table per royal heir."""
    r = out.reader(s.HEIRS)
    for hid, path, table in r.tables(data):
        out.heir_ids.append(hid)
        f = r.fields(path, table, s.HEIR_FIELDS)
        if f is None:
            continue
        if f["house"] not in s.HOUSES:
            r.report(f"{path}.house", f"unknown house {f['house']!r}; expected one of: {', '.join(s.HOUSES)}")
            continue
        if "start" not in f and "noble" not in f:
            r.report(f"{path}.start", "missing: an heir needs `start` (a place) or `noble` (the noble card he is)")
            continue
        if "start" in f and "noble" in f:
            r.report(path, "give `start` or `noble`, not both")
            continue
        out.heirs[hid] = HeirCard(
            hid, f.get("name", default_name(hid)), f["house"], f["order"], f.get("start"), f.get("noble")
        )
        if f.get("crowned", False):
            out.crowned.append(hid)


# events.toml is read by ``deck.parse_events`` (the loader adds it to these).
PARSERS = {
    s.SETUP: parse_setup,
    s.PLACES: parse_places,
    s.SEAS: parse_seas,
    s.ROADS: parse_roads,
    s.NOBLES: parse_nobles,
    s.AWARDS: parse_awards,
    s.SHIPS: parse_ships,
    s.HEIRS: parse_heirs,
}

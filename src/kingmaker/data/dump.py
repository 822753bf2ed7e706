"""Writing a data set back to a folder, in the format the loader reads.

``load_dataset(dump_dataset(load_dataset(x), folder))`` equals ``load_dataset(x)``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from enum import Enum
from pathlib import Path

from kingmaker.rules.board import Place
from kingmaker.rules.cards import Award, AwardKind, BattleHalf, CardEvent, EventCard, NobleCard

from . import schema as s
from .dataset import DataSet
from .toml_out import comment, inline_table, toml_value

Lines = list[str]
Notes = Mapping[str, str]  # key (an id, or "section.id") -> comment lines written before it


WIDTH = 92


def _field(lines: Lines, key: str, value: object) -> None:
    line = f"{key} = {toml_value(value)}"
    if len(line) <= WIDTH or not isinstance(value, list):
        lines.append(line)
        return
    lines.append(f"{key} = [")
    row = ""
    for item in (toml_value(v) + "," for v in value):
        if row and len(row) + 1 + len(item) > WIDTH - 2:
            lines.append("  " + row)
            row = item
        else:
            row = f"{row} {item}" if row else item
    lines.append("  " + row)
    lines.append("]")


def _header(lines: Lines, key: str, notes: Notes) -> None:
    if lines and lines[-1] != "":
        lines.append("")
    if key in notes:
        lines.extend(comment(notes[key]))
    lines.append(f"[{key}]")


def _file(header: str | None, body: Lines) -> str:
    head = [*comment(header), ""] if header else []
    return "\n".join(head + body).rstrip("\n") + "\n"


def setup_toml(ds: DataSet, notes: Notes) -> Lines:
    st = ds.setup
    lines: Lines = []
    _field(lines, "name", st.name)
    _field(lines, "min_factions", st.min_factions)
    _field(lines, "max_factions", st.max_factions)
    _field(lines, "cards_per_faction", st.cards_per_faction)
    _field(lines, "min_event_cards", st.min_event_cards)
    if "removed" in notes:
        lines.extend(comment(notes["removed"]))
    _field(lines, "removed", list(st.removed))
    for f in st.factions:
        _header(lines, f"{s.FACTIONS_KEY}.{f.id}", notes)
        _field(lines, "name", f.name)
        _field(lines, "colour", f.colour)
    votes = ds.catalog.votes
    if votes is not None:
        houses = [
            (h, [(k, t[k]) for k in s.ROYAL_VOTES if k in t])
            for h, t in (("lords", votes.lords), ("commons", votes.commons))
        ]
        if any(pairs for _, pairs in houses):
            _header(lines, s.PARLIAMENT_KEY, notes)
            for house, pairs in houses:
                if pairs:
                    lines.append(f"{house} = {inline_table(pairs)}")
    return lines


def _place(lines: Lines, p: Place) -> None:
    _field(lines, "name", p.name)
    _field(lines, "kind", p.kind.value)
    if p.capacity is not None:
        _field(lines, "capacity", p.capacity)
    if p.kind.is_location or p.garrison:
        _field(lines, "garrison", p.garrison)
    if p.cathedral:
        _field(lines, "cathedral", True)
    if p.regions:
        _field(lines, "regions", list(p.regions))
    if p.seas:
        _field(lines, "seas", list(p.seas))
    if p.lon is not None:
        _field(lines, "lon", p.lon)
    if p.lat is not None:
        _field(lines, "lat", p.lat)
    if p.offmap:
        _field(lines, "offmap", True)


def places_toml(ds: DataSet, notes: Notes) -> Lines:
    lines: Lines = []
    votes = ds.catalog.votes
    for p in ds.board.places.values():
        _header(lines, p.id, notes)
        _place(lines, p)
        if votes is not None and votes.commons.get(p.id):
            _field(lines, "commons_votes", votes.commons[p.id])
    return lines


def seas_toml(ds: DataSet, notes: Notes) -> Lines:
    lines: Lines = []
    for sea in ds.board.seas.values():
        _header(lines, sea.id, notes)
        _field(lines, "name", sea.name)
        _field(lines, "adjacent", list(sea.adjacent))
    return lines


def roads_toml(ds: DataSet, notes: Notes) -> Lines:
    lines: Lines = []
    if "adjacent" in notes:
        lines.extend(comment(notes["adjacent"]))
    lines.append("adjacent = [")
    lines.extend(f"  {toml_value(list(pair))}," for pair in ds.board.adjacent)
    lines.append("]")
    for road in ds.board.roads:
        _header(lines, f"roads.{road.id}", notes)
        _field(lines, "name", road.name)
        _field(lines, "places", list(road.places))
    return lines


def _noble(lines: Lines, n: NobleCard) -> None:
    _field(lines, "name", n.name)
    if n.title is not None:
        _field(lines, "title", n.title)
    _field(lines, "troops", n.troops)
    _field(lines, "lords_votes", n.lords_votes)
    _field(lines, "commons_votes", n.commons_votes)
    _field(lines, "castles", list(n.castles))


def nobles_toml(ds: DataSet, notes: Notes) -> Lines:
    lines: Lines = []
    for n in ds.catalog.nobles.values():
        _header(lines, n.id, notes)
        _noble(lines, n)
    return lines


def _award(lines: Lines, a: Award, seniority: int | None) -> None:
    _field(lines, "name", a.name)
    _field(lines, "troops", a.troops)
    if a.regional:
        lines.append(f"regional = {inline_table(a.regional)}")
    if a.places:
        _field(lines, "places", list(a.places))
    if a.commons_votes:
        _field(lines, "commons_votes", a.commons_votes)
    if a.lords_votes:
        _field(lines, "lords_votes", a.lords_votes)
    if a.copies != 1:
        _field(lines, "copies", a.copies)
    if seniority is not None:
        _field(lines, "seniority", seniority)


def awards_toml(ds: DataSet, notes: Notes) -> Lines:
    lines: Lines = []
    rank = {aid: i + 1 for i, aid in enumerate(ds.setup.see_seniority)}
    for kind in AwardKind:
        section = s.SECTION_OF_KIND[kind]
        for a in (a for a in ds.catalog.awards.values() if a.kind is kind):
            _header(lines, f"{section}.{a.id}", notes)
            _award(lines, a, rank.get(a.id))
    return lines


def ships_toml(ds: DataSet, notes: Notes) -> Lines:
    lines: Lines = []
    for ship in ds.catalog.ships.values():
        _header(lines, ship.id, notes)
        _field(lines, "name", ship.name)
        _field(lines, "capacity", ship.capacity)
        if ship.home_port is not None:
            _field(lines, "home_port", ship.home_port)
    return lines


def heirs_toml(ds: DataSet, notes: Notes) -> Lines:
    lines: Lines = []
    for h in ds.catalog.heirs.values():
        _header(lines, h.id, notes)
        _field(lines, "name", h.name)
        _field(lines, "house", h.house)
        _field(lines, "order", h.order)
        if h.start is not None:
            _field(lines, "start", h.start)
        if h.noble is not None:
            _field(lines, "noble", h.noble)
        if h.id in ds.setup.crowned:
            _field(lines, "crowned", True)
    return lines


def _event_table(event: CardEvent) -> str:
    pairs: list[tuple[str, object]] = [("kind", event.kind.value)]
    for f in dataclasses.fields(event):
        value = getattr(event, f.name)
        if value is None:
            continue
        if isinstance(value, Enum):
            value = value.value
        pairs.append((f.name, list(value) if isinstance(value, tuple) else value))
    return inline_table(pairs)


def _battle_value(battle: BattleHalf) -> str:
    if battle.odds is None:
        return toml_value(s.BAD_WEATHER)
    return inline_table([("odds", battle.odds.value), ("deaths", list(battle.deaths))])


def _event_card(lines: Lines, card: EventCard) -> None:
    _field(lines, "name", card.name)
    if card.event is not None:
        lines.append(f"event = {_event_table(card.event)}")
    if card.battle is not None:
        lines.append(f"battle = {_battle_value(card.battle)}")


def events_toml(ds: DataSet, notes: Notes) -> Lines:
    lines: Lines = []
    for card in ds.catalog.events.values():
        _header(lines, card.id, notes)
        _event_card(lines, card)
    return lines


WRITERS = {
    s.SETUP: setup_toml,
    s.PLACES: places_toml,
    s.ROADS: roads_toml,
    s.SEAS: seas_toml,
    s.NOBLES: nobles_toml,
    s.AWARDS: awards_toml,
    s.SHIPS: ships_toml,
    s.HEIRS: heirs_toml,
    s.EVENTS: events_toml,
}


def dataset_files(
    ds: DataSet,
    headers: Mapping[str, str] | None = None,
    notes: Mapping[str, Notes] | None = None,
) -> dict[str, str]:
    """The text of every file of ``ds``, by file name.

    ``headers`` puts a comment at the top of a file; ``notes[file][key]`` a comment
    before one table (``key`` as in the file: ``london``, ``offices.marshal_of_england``).
    """
    headers = headers or {}
    notes = notes or {}
    return {f: _file(headers.get(f), w(ds, notes.get(f, {}))) for f, w in WRITERS.items()}


def dump_dataset(
    ds: DataSet,
    folder: Path,
    headers: Mapping[str, str] | None = None,
    notes: Mapping[str, Notes] | None = None,
) -> Path:
    """Write ``ds`` into ``folder`` (created if needed) as the nine data files; returns ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in dataset_files(ds, headers, notes).items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder

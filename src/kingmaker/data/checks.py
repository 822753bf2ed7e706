"""Checks across entries and files: duplicate ids, references, reachability, the deal.

Each check reads the :class:`Parsed` folder and appends problems; none raises. Checks
that depend on a file are skipped when that file could not be read at all, so one
broken file does not drown the report in follow-on problems.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from itertools import pairwise
from typing import Any

from kingmaker.rules.board import PlaceKind

from . import schema as s
from .deck import check_events
from .parse import Parsed
from .problems import DataProblem


def run_checks(out: Parsed) -> None:
    """Every cross-file check, in a fixed order."""
    check_duplicates(out)
    check_map_references(out)
    check_land_links(out)
    check_reachability(out)
    check_card_references(out)
    check_heirs(out)
    check_succession(out)
    check_cathedrals(out)
    check_crown_deck(out)
    check_setup(out)
    check_events(out)


def _report(out: Parsed, file: str, key_path: str, reason: str) -> None:
    out.problems.append(DataProblem(file, key_path, reason))


def check_duplicates(out: Parsed) -> None:
    """An id names one thing only: across places, seas, nobles, awards, ships, heirs and
    event cards."""
    seen: dict[str, str] = {}
    groups: list[tuple[str, str, Iterable[tuple[str, str]]]] = [
        (s.PLACES, "a place", ((i, i) for i in out.place_ids)),
        (s.SEAS, "a sea zone", ((i, i) for i in out.sea_ids)),
        (s.NOBLES, "a noble", ((i, i) for i in out.noble_ids)),
        (s.AWARDS, "an award", iter(out.award_ids)),
        (s.SHIPS, "a ship", ((i, i) for i in out.ship_ids)),
        (s.HEIRS, "an heir", ((i, i) for i in out.heir_ids)),
        (s.EVENTS, "an event card", ((i, i) for i in out.event_ids)),
    ]
    for file, what, ids in groups:
        for ident, path in ids:
            if ident in seen:
                _report(out, file, path, f"duplicate id {ident!r}: already {seen[ident]}")
            else:
                seen[ident] = f"{what} in {file}"


def check_map_references(out: Parsed) -> None:
    """Ports name known seas; seas border known seas; roads and links name known places."""
    places = set(out.place_ids)
    seas = set(out.sea_ids)
    if s.SEAS in out.raw:
        for p in out.places.values():
            for i, sea in enumerate(p.seas):
                if sea not in seas:
                    _report(out, s.PLACES, f"{p.id}.seas[{i}]", f"unknown sea zone {sea!r}")
        for sea_obj in out.seas.values():
            for i, other in enumerate(sea_obj.adjacent):
                if other == sea_obj.id:
                    _report(out, s.SEAS, f"{sea_obj.id}.adjacent[{i}]", "a sea zone cannot border itself")
                elif other not in seas:
                    _report(out, s.SEAS, f"{sea_obj.id}.adjacent[{i}]", f"unknown sea zone {other!r}")
    if s.PLACES not in out.raw:
        return
    for road in out.roads:
        for i, pid in enumerate(road.places):
            if pid not in places:
                _report(out, s.ROADS, f"roads.{road.id}.places[{i}]", f"unknown place {pid!r}")
            elif i and road.places[i - 1] == pid:
                _report(out, s.ROADS, f"roads.{road.id}.places[{i}]", f"{pid!r} follows itself")
    for i, (a, b) in enumerate(out.adjacent):
        for j, pid in enumerate((a, b)):
            if pid not in places:
                _report(out, s.ROADS, f"adjacent[{i}][{j}]", f"unknown place {pid!r}")
        if a == b:
            _report(out, s.ROADS, f"adjacent[{i}]", f"{a!r} cannot be its own neighbour")


def check_land_links(out: Parsed) -> None:
    """Off-map places are reached only by sea: no road or link joins them to the map."""

    def crosses(a: str, b: str) -> bool:
        pa, pb = out.places.get(a), out.places.get(b)
        return pa is not None and pb is not None and pa.offmap != pb.offmap

    for road in out.roads:
        for i in range(1, len(road.places)):
            a, b = road.places[i - 1], road.places[i]
            if crosses(a, b):
                _report(
                    out,
                    s.ROADS,
                    f"roads.{road.id}.places[{i}]",
                    f"links off-map and on-map places ({a!r}, {b!r}) by land",
                )
    for i, (a, b) in enumerate(out.adjacent):
        if crosses(a, b):
            _report(out, s.ROADS, f"adjacent[{i}]", f"links off-map and on-map places ({a!r}, {b!r}) by land")


def _strings(value: Any) -> list[str]:
    return [x for x in value if isinstance(x, str)] if isinstance(value, list) else []


def land_and_sea_links(out: Parsed) -> dict[str, set[str]]:
    """The map as one graph (``p:`` places, ``s:`` seas), read leniently from the raw
    files so that one bad field does not cut a place off."""
    links: dict[str, set[str]] = {}

    def link(a: str, b: str) -> None:
        links.setdefault(a, set()).add(b)
        links.setdefault(b, set()).add(a)

    for pid, table in out.raw.get(s.PLACES, {}).items():
        links.setdefault(f"p:{pid}", set())
        if isinstance(table, dict):
            for sea in _strings(table.get("seas")):
                link(f"p:{pid}", f"s:{sea}")
    for sid, table in out.raw.get(s.SEAS, {}).items():
        if isinstance(table, dict):
            for other in _strings(table.get("adjacent")):
                link(f"s:{sid}", f"s:{other}")
    roads = out.raw.get(s.ROADS, {})
    named = roads.get("roads")
    for table in named.values() if isinstance(named, dict) else ():
        chain = _strings(table.get("places")) if isinstance(table, dict) else []
        for a, b in pairwise(chain):
            link(f"p:{a}", f"p:{b}")
    pairs = roads.get("adjacent")
    for pair in pairs if isinstance(pairs, list) else ():
        ends = _strings(pair)
        if len(ends) == 2:
            link(f"p:{ends[0]}", f"p:{ends[1]}")
    return links


def check_reachability(out: Parsed) -> None:
    """Every place can be reached from London (or the first place) by land or sea."""
    if not out.place_ids or not all(f in out.raw for f in (s.PLACES, s.ROADS, s.SEAS)):
        return
    start = "london" if "london" in out.place_ids else out.place_ids[0]
    links = land_and_sea_links(out)
    seen = {f"p:{start}"}
    queue = deque(seen)
    while queue:
        for nxt in links.get(queue.popleft(), ()):
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    name = out.places[start].name if start in out.places else start
    for pid in out.place_ids:
        if f"p:{pid}" not in seen:
            _report(out, s.PLACES, pid, f"cannot be reached by land or sea from {name}")


def check_card_references(out: Parsed) -> None:
    """Castles are castle places of one noble; award places are controllable; ships
    sail from known ports."""
    have_places = s.PLACES in out.raw
    known = set(out.place_ids)
    owner: dict[str, str] = {}
    for noble in out.nobles.values() if have_places else ():
        for i, pid in enumerate(noble.castles):
            path = f"{noble.id}.castles[{i}]"
            place = out.places.get(pid)
            if pid not in known:
                _report(out, s.NOBLES, path, f"unknown place {pid!r}")
            elif place is not None and place.kind is not PlaceKind.CASTLE:
                _report(out, s.NOBLES, path, f"{pid!r} is a {place.kind.label}, not a castle")
            elif pid in owner and owner[pid] != noble.id:
                _report(out, s.NOBLES, path, f"{pid!r} is already a castle of {owner[pid]!r}")
            else:
                owner.setdefault(pid, noble.id)
    for award in out.awards.values() if have_places else ():
        section = s.SECTION_OF_KIND[award.kind]
        for i, pid in enumerate(award.places):
            path = f"{section}.{award.id}.places[{i}]"
            place = out.places.get(pid)
            if pid not in known:
                _report(out, s.AWARDS, path, f"unknown place {pid!r}")
            elif place is not None and not place.kind.controllable:
                _report(out, s.AWARDS, path, f"{pid!r} is a {place.kind.label}, which no one controls")
    for ship in out.ships.values() if have_places else ():
        place = out.places.get(ship.home_port or "")
        if ship.home_port not in known:
            _report(out, s.SHIPS, f"{ship.id}.home_port", f"unknown place {ship.home_port!r}")
        elif place is not None and not place.is_port:
            _report(out, s.SHIPS, f"{ship.id}.home_port", f"{ship.home_port!r} is not a port")
    seniority: dict[int, str] = {}
    for aid, rank in out.seniority.items():
        if rank in seniority:
            _report(
                out, s.AWARDS, f"sees.{aid}.seniority", f"{rank} is also the seniority of {seniority[rank]!r}"
            )
        seniority.setdefault(rank, aid)


def check_heirs(out: Parsed) -> None:
    """Heirs start at known places, one per place in each house's succession."""
    known = set(out.place_ids)
    orders: dict[tuple[str, int], str] = {}
    for heir in out.heirs.values():
        if heir.noble is not None:
            if s.NOBLES in out.raw and heir.noble not in out.nobles:
                _report(out, s.HEIRS, f"{heir.id}.noble", f"unknown noble {heir.noble!r}")
        elif s.PLACES in out.raw and heir.start not in known:
            _report(out, s.HEIRS, f"{heir.id}.start", f"unknown place {heir.start!r}")
        key = (heir.house, heir.order)
        if key in orders:
            _report(
                out,
                s.HEIRS,
                f"{heir.id}.order",
                f"{heir.order} is also the order of {orders[key]!r} in {heir.house}",
            )
        orders.setdefault(key, heir.id)


def _has_problems(out: Parsed, file: str) -> bool:
    return any(p.file == file for p in out.problems)


def check_succession(out: Parsed) -> None:
    """Both houses have a succession (CROWN.succession, VICTORY.*): heirs numbered 1, 2,
    ... without a gap, at most one of them crowned. Skipped when heirs.toml has problems
    of its own, so that an entry that could not be read is not reported twice."""
    if s.HEIRS not in out.raw or _has_problems(out, s.HEIRS):
        return
    for house in s.HOUSES:
        line = [h for h in out.heirs.values() if h.house == house]
        if not line:
            _report(out, s.HEIRS, "", f"the house of {house} has no heir: both houses need a succession")
            continue
        orders = {h.order for h in line}
        missing = sorted(set(range(1, max(orders) + 1)) - orders)
        if missing:
            _report(
                out,
                s.HEIRS,
                "",
                f"the succession of {house} has no heir of order {', '.join(map(str, missing))}",
            )
        kings = [h.id for h in line if h.id in out.crowned]
        if len(kings) > 1:
            _report(
                out,
                s.HEIRS,
                f"{kings[1]}.crowned",
                f"{kings[0]!r} is crowned already: a house has at most one King (CROWN.succession)",
            )


def check_cathedrals(out: Parsed) -> None:
    """A coronation needs a cathedral city or town to be inside (CROWN.cathedral, F22):
    at least one location is a cathedral, and no countryside is one."""
    if s.PLACES not in out.raw or _has_problems(out, s.PLACES):
        return
    for p in out.places.values():
        if p.cathedral and not p.kind.is_location:
            _report(out, s.PLACES, f"{p.id}.cathedral", "countryside has no inside to crown an heir in (F22)")
    if not any(p.cathedral and p.kind.is_location for p in out.places.values()):
        _report(out, s.PLACES, "", "no place is a cathedral: no heir could ever be crowned (CROWN.cathedral)")


def check_crown_deck(out: Parsed) -> None:
    """The Crown deck holds every noble card an heir is (Beaufort, 3.13.4): one the
    set-up removes could never come into play, nor could the heir."""
    if out.setup is None or s.HEIRS not in out.raw:
        return
    removed = set(out.setup.get("removed", ()))
    for heir in out.heirs.values():
        if heir.noble is not None and heir.noble in removed:
            _report(
                out,
                s.HEIRS,
                f"{heir.id}.noble",
                f"the noble card {heir.noble!r} is removed from the Crown deck (setup.toml): "
                "he could never come into play as an heir",
            )


def check_setup(out: Parsed) -> None:
    """Removed cards exist; enough factions are listed; the deck can deal every game size."""
    if out.setup is None:
        return
    cards = set(out.noble_ids) | {a for a, _ in out.award_ids} | set(out.ship_ids)
    removed = set(out.setup.get("removed", ()))
    for i, cid in enumerate(out.setup.get("removed", ())):
        if cid not in cards and all(f in out.raw for f in (s.NOBLES, s.AWARDS, s.SHIPS)):
            _report(out, s.SETUP, f"removed[{i}]", f"unknown card {cid!r}")
    most = out.setup["max_factions"]
    if s.FACTIONS_KEY in out.raw.get(s.SETUP, {}) and len(out.factions) < most:
        _report(
            out,
            s.SETUP,
            s.FACTIONS_KEY,
            f"max_factions is {most} but {len(out.factions)} factions are listed",
        )
    if not all(f in out.raw for f in (s.NOBLES, s.AWARDS, s.SHIPS)):
        return
    # Entries with problems of their own still count, so their problem is not repeated here.
    nobles = sum(1 for n in out.noble_ids if n not in removed)
    deck = nobles + sum(1 for c in out.ship_ids if c not in removed)
    copies = {a.id: a.copies for a in out.awards.values()}
    deck += sum(copies.get(a, 1) for a, _ in out.award_ids if a not in removed)
    need = most * out.setup["cards_per_faction"]
    if need > deck:
        _report(
            out,
            s.SETUP,
            "cards_per_faction",
            f"{most} factions x {out.setup['cards_per_faction']} cards need {need} cards; the deck holds {deck}",
        )
    if nobles < most:
        _report(out, s.SETUP, "max_factions", f"every faction needs a noble, but the deck holds {nobles}")

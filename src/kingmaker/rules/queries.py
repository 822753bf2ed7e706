"""Queries for players, the web map and bots: where a unit may go this turn.

One search per unit (a breadth-first walk of the roads or seas, each place judged
once per faction), not one validation per candidate.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from . import ids
from .board import Board, Place
from .combat import siege_checks
from .decision import Refusal
from .orders import prior_order
from .potential import carried, held_inside, total_potential
from .sieges import begin_siege, besieged
from .state import MOVEMENT, GameState, Ship
from .status import judge
from .units import ARMY, FLEET, NOBLE, SHIP, commander, fleet_nobles, name, owner, unit_kind


@dataclass(frozen=True, slots=True)
class Destination:
    """A place a noble or army may reach: it may always stop in the open there;
    ``enter`` says whether it may go inside, ``siege`` whether it may lay siege (the
    way in when entering is refused). ``rule`` decided ``enter``."""

    place: str
    path: tuple[str, ...]
    by_road: bool
    enter: bool
    rule: str | None
    siege: bool
    reason: str = ""


@dataclass(frozen=True, slots=True)
class SeaDestination:
    """A sea zone or port a ship or fleet may reach; ``path`` runs from where it is now
    (its sea zone, or its port) through the zones it crosses to the destination.

    For a port: ``enter`` whether the ship may sail in (``rule`` decided it), and
    ``land`` whether its passengers may land there and go inside (they may always land
    in the open, from the port or from a bordering zone, R4)."""

    place: str
    path: tuple[str, ...]
    port: bool
    enter: bool
    rule: str | None
    land: bool
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Destinations:
    unit: str
    orderable: bool
    reason: str
    places: tuple[Destination, ...] = ()
    waters: tuple[SeaDestination, ...] = ()


def _not_orderable(state: GameState, units: Sequence[str], by: str | None) -> str:
    for u in units:
        o = prior_order(state, u, by or "", MOVEMENT)
        if o is not None and by is not None:
            return f"{name(state, u)} already had a movement order this round ({ids.ALLY_5})"
    return ""


def legal_destinations(state: GameState, unit: str) -> Destinations:
    """Every place ``unit`` may reach this turn, and what it may do there.

    For a noble or army: each place reachable by road (through places its members may
    pass) or by one cross-country link, with whether it may go inside or must lay siege.
    For a ship or fleet: each sea zone and port it may reach.
    """
    kind = unit_kind(state, unit)
    if kind is None:
        return Destinations(unit, False, f"there is no unit {unit!r}")
    if kind in (SHIP, FLEET):
        return _waters(state, unit, kind)
    members = (unit,) if kind == NOBLE else state.armies[unit].units
    by = owner(state, unit) if kind == NOBLE else commander(state, unit)
    first = state.nobles[members[0]]
    if first.aboard is not None or first.place is None:
        return Destinations(unit, False, f"{name(state, unit)} is at sea; land him first")
    why = _not_orderable(state, members, by)
    if why:
        return Destinations(unit, False, why)
    if first.inside and besieged(state, first.place):
        return Destinations(
            unit, False, f"{name(state, first.place)} is under siege: no one leaves it ({ids.SIEGE_SEALED})"
        )
    assert kind in (NOBLE, ARMY)
    return Destinations(unit, True, "", land_routes(state, members, first.place))


def land_routes(state: GameState, members: Sequence[str], start: str) -> tuple[Destination, ...]:
    """Every place these nobles, moving together from ``start``, may reach by road
    (through places each may pass) or by one cross-country link, with whether they may
    go inside or lay siege there; ``start`` itself when they stand in the open before
    a location. The ordering checks (turn, ALLY.4/5/6/8) are not made here."""
    board = state.board
    places = board.places
    factions = tuple({owner(state, m) for m in members})
    passable: dict[str, bool] = {}

    def can_pass(pid: str) -> bool:
        ok = passable.get(pid)
        if ok is None:
            p = places[pid]
            ok = all(judge(state, p, f, ids.ROAD).ok for f in factions)
            passable[pid] = ok
        return ok

    paths = road_paths(board, start, can_pass)
    troops = total_potential(state, members)
    out: list[Destination] = []
    for pid in sorted(paths):
        if pid != start:
            out.append(_destination(state, places[pid], members, factions, troops, paths[pid], True))
    for pid in sorted(board.cross_links.get(start, ())):
        if pid not in paths:
            out.append(_destination(state, places[pid], members, factions, troops, (start, pid), False))
    origin = places[start]
    if origin.kind.is_location and not state.nobles[members[0]].inside:
        out.append(_destination(state, origin, members, factions, troops, (start,), False))
    return tuple(out)


def _anywhere(place: str) -> bool:
    return True


def road_paths(
    board: Board, start: str, can_pass: Callable[[str], bool] = _anywhere, *, until: str | None = None
) -> dict[str, tuple[str, ...]]:
    """The roads searched breadth-first from ``start`` (each place's neighbours in
    ``board.road_order``): every place reached, with its shortest path from ``start``
    (both ends included). A place ``can_pass`` refuses is reached but not gone through;
    the search stops as soon as it reaches ``until``."""
    paths: dict[str, tuple[str, ...]] = {start: (start,)}
    queue = deque([start])
    links = board.road_order
    while queue:
        here = queue.popleft()
        base = paths[here]
        for nxt in links.get(here, ()):
            if nxt in paths:
                continue
            paths[nxt] = (*base, nxt)
            if nxt == until:
                return paths
            if can_pass(nxt):
                queue.append(nxt)
    return paths


def road_path(board: Board, start: str, dest: str) -> tuple[str, ...] | None:
    """The shortest path along roads from ``start`` to ``dest`` on the bare map (no place
    blocks; the same breadth-first order as ``land_routes``), or None when no road leads
    there. A reader of orders that gives a road move no path uses it, so that ``decide``
    refuses the move naming the first place that blocks it."""
    if start == dest:
        return (start,)
    return road_paths(board, start, until=dest).get(dest)


def _destination(
    state: GameState,
    place: Place,
    members: Sequence[str],
    factions: Sequence[str | None],
    troops: int,
    path: tuple[str, ...],
    by_road: bool,
) -> Destination:
    if not place.kind.is_location:
        return Destination(place.id, path, by_road, False, None, False)
    extra = tuple(_force_there(state, members, place)) if state.phased else ()
    key = (tuple(sorted(factions, key=str)), troops, ",".join((place.id, *extra)))
    memo = state.place_verdicts
    got = memo.get(key)
    if got is None:
        got = memo[key] = _place_verdict(state, place, (*members, *extra), factions, troops)
    enter, rule, siege, reason = got
    return Destination(place.id, path, by_road, enter, rule, siege, reason)


def _place_verdict(
    state: GameState, place: Place, members: Sequence[str], factions: Sequence[str | None], troops: int
) -> tuple[bool, str | None, bool, str]:
    """Whether troops of these factions may go inside (and the rule) or lay siege."""
    enter, rule, reason = True, None, ""
    for f in factions:
        v = judge(state, place, f, ids.ENTER)
        if not v.ok:
            enter, rule, reason = False, v.rule, v.reason
            break
        rule = v.rule if rule is None or v.rule == ids.LOC_PERMISSION else rule
    if enter and place.capacity is not None and held_inside(state, place.id) + troops > place.capacity:
        enter, rule, reason = False, ids.LOC_CAPACITY, f"{place.name} holds at most {place.capacity} troops"
    if enter and besieged(state, place.id):
        enter, rule, reason = False, ids.SIEGE_SEALED, f"{place.name} is under siege: no one enters it"
    siege = all(judge(state, place, f, ids.SIEGE).ok for f in factions)
    if siege:
        own = set(factions)
        if any(state.nobles[n].faction in own for n in state.inside_by_place.get(place.id, ())):
            siege = False
        else:
            try:
                siege_checks(state, "", members, place)
                if state.phased:  # SIEGE.strength (the rest of a lone noble's force is in members)
                    begin_siege(state, members, place)
            except Refusal:
                siege = False
    return enter, rule, siege, reason


def _force_there(state: GameState, members: Sequence[str], place: Place) -> list[str]:
    """The nobles of a lone noble's faction in the open at ``place`` in no army: the
    force he would lay a siege with there (BATTLE.sides)."""
    if len(members) != 1 or members[0] in state.army_of:
        return []
    faction = state.nobles[members[0]].faction
    return [
        n.id
        for n in state.nobles.values()
        if n.id != members[0]
        and n.faction == faction
        and n.place == place.id
        and not n.inside
        and n.captive_of is None
        and n.id not in state.army_of
    ]


def _waters(state: GameState, unit: str, kind: str) -> Destinations:
    ships = (unit,) if kind == SHIP else state.armies[unit].units
    by = owner(state, unit) if kind == SHIP else (commander(state, unit) or owner(state, ships[0]))
    why = _not_orderable(state, ships, by)
    if why:
        return Destinations(unit, False, why)
    board = state.board
    lead = state.ships[ships[0]]
    factions = tuple({owner(state, s) for s in ships})
    if lead.in_port:
        port = board.places[lead.place]
        for s in ships:
            sh = state.ships[s]
            if sh.forced:
                v = judge(state, port, sh.faction, ids.FORCED_LEAVE)
                if not v.ok:
                    return Destinations(
                        unit, False, f"{name(state, s)} may not leave {port.name}: {v.reason} ({v.rule})"
                    )
    passengers = fleet_nobles(state, ships)
    routes = sea_routes(state, lead)
    out: list[SeaDestination] = [
        SeaDestination(to, path, False, True, None, False) for to, path in routes if to in board.seas
    ]
    load = sum(carried(state, s) for s in ships)
    for pid, path in routes:
        if pid in board.seas:
            continue
        place = board.places[pid]
        enter, rule, reason = True, None, ""
        for f in factions:
            v = judge(state, place, f, ids.SHIP_ENTER)
            if not v.ok:
                enter, rule, reason = False, v.rule, v.reason
                break
            rule = v.rule if rule is None or v.rule == ids.LOC_PERMISSION else rule
        land = bool(passengers) and all(
            judge(state, place, state.nobles[p].faction, ids.DISEMBARK, enter=True).ok for p in passengers
        )
        if land and place.capacity is not None:
            land = held_inside(state, pid) + load <= place.capacity
        land = land and not besieged(state, pid)  # SIEGE.sealed
        out.append(SeaDestination(pid, path, True, enter, rule, land, reason))
    return Destinations(unit, True, "", waters=tuple(out))


def sea_routes(state: GameState, lead: Ship) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Where a ship (or the fleet ``lead`` heads) may sail in one voyage, with its
    route from where it is: every sea zone reachable through zones (from a port: the
    zones it borders and beyond), sorted, then every port bordering one of them except
    the one it is in. Ports are judged by ``decide``; this is only the geometry."""
    board = state.board
    origin = lead.place
    routes = zone_routes(state, lead)
    out: list[tuple[str, tuple[str, ...]]] = [
        (sea, routes[sea]) for sea in sorted(routes) if lead.in_port or sea != origin
    ]
    seen_ports: set[str] = {origin} if lead.in_port else set()
    for sea in sorted(routes):
        for pid in board.ports_of_sea.get(sea, ()):
            if pid not in seen_ports:
                seen_ports.add(pid)
                out.append((pid, (*routes[sea], pid)))
    return tuple(out)


def zone_routes(state: GameState, lead: Ship) -> dict[str, tuple[str, ...]]:
    """Every sea zone a ship (or the fleet ``lead`` heads) may reach through zones in one
    voyage, with its route from where it is: from a port, the port then the zones
    crossed (the zones it borders first); at sea, the zone it is in then the zones
    crossed (that zone's own route is itself alone). Breadth-first, in sorted order."""
    board = state.board
    origin = lead.place
    if lead.in_port:
        port = board.places.get(origin)
        starts = list(port.seas) if port is not None else []
    else:
        starts = [origin]
    routes: dict[str, tuple[str, ...]] = {s: (origin, s) if lead.in_port else (s,) for s in starts}
    queue = deque(sorted(starts))
    order = board.sea_order
    while queue:
        here = queue.popleft()
        base = routes[here]
        for nxt in order.get(here, ()):
            if nxt not in routes:
                routes[nxt] = (*base, nxt)
                queue.append(nxt)
    return routes

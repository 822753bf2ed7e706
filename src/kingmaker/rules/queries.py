"""Queries for players, the web map and bots: where a unit may go this turn.

What the nobles of some factions may do is judged once per state (states are immutable)
and shared by every unit of those factions (``reach.Side``, worked out in
``rules/reach.py`` on the board numbered once): which places they may pass through on
the roads, their routes from each place they start from (one breadth-first walk), and
at each location whether they may go inside or lay siege, as far as that depends on
their factions alone. Only what depends on the unit itself (its troops against a
location's capacity, a siege's strength) is judged per unit. The voyages from each port
and sea zone follow from the map alone and are worked out once per board; whether a
faction's ships may sail into each port is judged once per state.

These judgments are kept on the board by movement signature (``_signature``) and, for
each set of factions, their standing (``_standing``), so that a following state in which
nothing they read changed starts with them.

Nothing here reads more than ``decide`` would: a faction's answers depend only on its
own units, the places' holders and occupants, and its own alliances and permissions.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from . import ids
from .board import Board, Place, PlaceKind
from .orders import prior_order
from .peace import peace_at
from .potential import carried, held_inside, potential, total_potential
from .reach import Destination, Side, atlas, destinations
from .sieges import besieged
from .state import MOVEMENT, GameState, Ship
from .status import judge
from .units import ARMY, FLEET, NOBLE, SHIP, commander, fleet_nobles, name, owner, unit_kind

__all__ = [
    "Destination",
    "Destinations",
    "SeaDestination",
    "land_routes",
    "legal_destinations",
    "road_path",
    "road_paths",
    "sea_routes",
    "zone_routes",
]

_new = tuple.__new__  # a NamedTuple made without the cost of its keyword-checking __new__
_TOWNS = (PlaceKind.UNFORTIFIED_TOWN, PlaceKind.OPEN_TOWN)


class SeaDestination(NamedTuple):
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

    Answered once per state and unit (a state never changes): a post's reader and its
    reading ask for the same unit's destinations on the same state.
    """
    memo = state.place_verdicts
    key = ("destinations", unit)
    got: Destinations | None = memo.get(key)
    if got is None:
        got = memo[key] = _legal_destinations(state, unit)
    return got


def _legal_destinations(state: GameState, unit: str) -> Destinations:
    n = state.nobles.get(unit)
    if n is not None and n.aboard is None and n.place is not None:  # a noble on land: the common case
        why = _not_orderable(state, (unit,), n.faction) if state.orders else ""
        if not why and not (n.inside and n.place in state.sieges):
            places = destinations(
                state, _side(state, (n.faction,)), (unit,), potential(state, unit), n.place, n.inside
            )
            return _answer(state, unit, places, ())
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
    return _answer(state, unit, land_routes(state, members, first.place), ())


def _answer(
    state: GameState, unit: str, places: tuple[Destination, ...], waters: tuple[SeaDestination, ...]
) -> Destinations:
    """An orderable unit's destinations: the answer made for it before when the same
    kept destinations came back (``_shared``), else a new one."""
    shared = _shared(state)
    key = ("answer", unit)
    got: Destinations | None = shared.get(key)
    if got is None or got.places is not places or got.waters is not waters:
        got = shared[key] = Destinations(unit, True, "", places, waters)
    return got


def land_routes(state: GameState, members: Sequence[str], start: str) -> tuple[Destination, ...]:
    """Every place these nobles, moving together from ``start``, may reach by road
    (through places each may pass) or by one cross-country link, with whether they may
    go inside or lay siege there; ``start`` itself when they stand in the open before
    a location. The ordering checks (turn, ALLY.4/5/6/8) are not made here."""
    if len(members) == 1:
        factions: tuple[str | None, ...] = (state.nobles[members[0]].faction,)
    else:
        factions = tuple(sorted({owner(state, m) for m in members}, key=str))
    side = _side(state, factions)
    troops = total_potential(state, members)
    return destinations(state, side, members, troops, start, state.nobles[members[0]].inside)


def _side(state: GameState, factions: tuple[str | None, ...]) -> Side:
    """What nobles of ``factions`` moving together may do (``reach.Side``), judged once
    and shared by all their units on every state with the same ``_signature`` and the
    same ``_standing`` of these factions."""
    memo = state.place_verdicts
    key = ("side", factions)
    side: Side | None = memo.get(key)
    if side is None:
        shared = _shared(state)
        kept = ("side", factions, _standing(state, factions))
        side = shared.get(kept)
        if side is None:
            side = shared[kept] = Side(factions, atlas(state.board))
        memo[key] = side
    return side


def _standing(state: GameState, factions: tuple[str | None, ...]) -> tuple[Any, ...]:
    """What the judgments for units of ``factions`` read of the alliances and the
    permissions, beyond ``_signature``: each one's allies and the permissions in force
    it holds (``state.permitted``), as (place, aspect) pairs."""
    memo = state.place_verdicts
    got: tuple[Any, ...] | None = memo.get(("standing", factions))
    if got is not None:
        return got
    held: dict[str | None, frozenset[tuple[str, str]]] | None = memo.get("held")
    if held is None:
        by: dict[str | None, set[tuple[str, str]]] = {}
        for place, to, aspect in state.permitted if state.permissions else ():
            by.setdefault(to, set()).add((place, aspect))
        held = memo["held"] = {f: frozenset(v) for f, v in by.items()}
    none: frozenset[Any] = frozenset()
    allies = state.allies
    got = memo[("standing", factions)] = tuple(
        (allies.get(f, none) if f is not None else none, held.get(f, none)) for f in factions
    )
    return got


#: How many movement signatures each board keeps the judgments of (least recently used
#: dropped first): a game's successive states mostly share one.
KEEP = 32
#: How many judgments one signature keeps before they are dropped (each standing of each
#: set of factions asked about is kept apart, and a long game grants and revokes many).
KEEP_ENTRIES = 2048


def _shared(state: GameState) -> dict[Any, Any]:
    """The judgments shared by every state with this state's ``_signature`` (kept on
    the board, for the last ``KEEP`` signatures), found once per state."""
    memo = state.place_verdicts
    got: dict[Any, Any] | None = memo.get("shared")
    if got is None:
        sig = _signature(state)
        table: dict[Any, dict[Any, Any]] | None = state.board.memo.get("movement")
        if table is None:
            table = state.board.memo["movement"] = {}
        got = table.pop(sig, None)
        if got is None:
            got = {}
            while len(table) >= KEEP:
                try:
                    del table[next(iter(table))]
                except (KeyError, RuntimeError, StopIteration):  # another thread got there
                    break
        elif len(got) > KEEP_ENTRIES:  # sides of factions whose standing changed since
            got.clear()
        table[sig] = got
        memo["shared"] = got
    return got


def _signature(state: GameState) -> tuple[Any, ...]:
    """Everything of ``state`` that the judgments in ``_shared`` read (``status.judge``
    for the road, entering, sieges and ports; the occupants and troops inside, ALLY.9,
    ALLY.12, the King's Peace, SIEGE.sealed): two states with the same signature get
    the same answers, given the same ``_standing`` of the factions asked about (their
    allies and their permissions in force, part of the keys in ``_shared``: a grant or an
    alliance keeps the judgments of the other factions). Of the round and turn, only
    which cooling-offs are in force and whether the King's Peace holds (nothing else
    here depends on them)."""
    inside = tuple(
        (n.id, n.place, n.faction, potential(state, n.id), n.captive_of)
        for n in state.nobles.values()
        if n.inside
    )
    timing = None
    if state.cooling_off or state.summoned is not None:
        now = (state.round, state.turn_index)
        order = state.turn_order
        in_force = tuple(  # as ``combat.cooling`` judges it
            now < (c.until_round, order.index(c.faction) if c.faction in order else 0)
            for c in state.cooling_off
        )
        summoned = state.summoned
        timing = (in_force, summoned is not None and peace_at(state, summoned.seat) is not None)
    return (
        state.turn_order,
        state.control,
        state.sieges,
        state.cooling_off,
        state.summoned,
        timing,
        inside,
    )


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


def _waters(state: GameState, unit: str, kind: str) -> Destinations:
    ships = (unit,) if kind == SHIP else state.armies[unit].units
    by = owner(state, unit) if kind == SHIP else (commander(state, unit) or owner(state, ships[0]))
    why = _not_orderable(state, ships, by) if state.orders else ""
    if why:
        return Destinations(unit, False, why)
    board = state.board
    lead = state.ships[ships[0]]
    if len(ships) == 1:
        factions: tuple[str | None, ...] = (lead.faction,)
    else:
        factions = tuple(sorted({owner(state, s) for s in ships}, key=str))
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
    landers: tuple[str | None, ...] = ()
    load = 0
    if len(ships) > 1 or lead.passengers:
        passengers = fleet_nobles(state, ships)
        landers = tuple(sorted({state.nobles[p].faction for p in passengers}, key=str))
        load = sum(carried(state, s) for s in ships) if passengers else 0
    shared = _shared(state)
    standing = (_standing(state, factions), _standing(state, landers))
    key = ("waters", factions, lead.place, lead.in_port, landers, load, standing)
    kept: tuple[SeaDestination, ...] | None = shared.get(key)
    if kept is None:
        kept = shared[key] = _voyage_destinations(state, factions, lead, landers, load)
    return _answer(state, unit, (), kept)


def _voyage_destinations(
    state: GameState, factions: tuple[str | None, ...], lead: Ship, landers: tuple[str | None, ...], load: int
) -> tuple[SeaDestination, ...]:
    """Where ships of ``factions`` may sail from where ``lead`` is, and whether their
    passengers (of ``landers``, ``load`` troops) may land and go inside at each port."""
    passengers = bool(landers)
    _, zones, ports = _voyages(state.board, lead.place, lead.in_port)
    entry = _memo_of(state, ("ship_enter", factions, _standing(state, factions)))
    landing = _memo_of(state, ("disembark", landers, _standing(state, landers)))
    sieges = state.sieges
    # ``_entry_tails`` read here for one faction without the call (the tables it fills)
    f = factions[0] if len(factions) == 1 else None
    control = state.control
    inside = state.inside_by_place
    friends = state.allies.get(f, frozenset()) if f is not None else frozenset()
    permitted = state.permitted if state.permissions else frozenset()
    for place, _ in ports:
        pid = place.id
        if pid in entry:
            continue
        tails = None
        if f is not None:
            kind = place.kind
            if kind in _TOWNS:
                tails = _TOWN_ENTRY.get(kind) if pid not in inside else None
            else:
                holder = control.get(pid)
                if holder is None:
                    tails = _NEUTRAL_ENTRY.get(kind)
                elif holder == f or holder in friends:
                    tails = _FRIENDLY_ENTRY.get(kind)
                else:
                    tails = _UNFRIENDLY_ENTRY.get((kind, holder, f, (pid, f, ids.SHIP_ENTER) in permitted))
        entry[pid] = tails if tails is not None else _entry_tails(state, place, factions)
    if not passengers:  # no one to land: the tails for passengers who may not
        return (*zones, *[_new(SeaDestination, head + entry[head[0]][0]) for _, head in ports])
    out: list[SeaDestination] = list(zones)
    for place, head in ports:
        pid = place.id
        land: bool | None = landing.get(pid)
        if land is None:
            land = landing[pid] = _lands(state, place, landers)
        if land and place.capacity is not None:
            land = held_inside(state, pid) + load <= place.capacity
        land = land and pid not in sieges  # SIEGE.sealed
        out.append(_new(SeaDestination, head + entry[pid][land]))
    return tuple(out)


def _memo_of(state: GameState, key: tuple[Any, ...]) -> dict[str, Any]:
    """A memo of judgments per port for these factions (``_shared``)."""
    memo = _shared(state)
    got: dict[str, Any] | None = memo.get(key)
    if got is None:
        got = memo[key] = {}
    return got


#: (enter, rule, land, reason): what a port's destination says beyond its place and path.
_SeaTail = tuple[bool, str | None, bool, str]
_SeaTails = tuple[_SeaTail, _SeaTail]

#: The tails of the entry verdicts (SHIP_ENTER) for one faction at a port, by what alone
#: they depend on there: a town's kind when no one is inside (``_TOWN_ENTRY``); a
#: castle's, town's or city's kind when neutral or friendly, and when unfriendly its kind,
#: its holder, the faction and whether the faction may sail in by the holder's
#: permission (``_UNFRIENDLY_ENTRY``). Made once per process, as ``status`` makes its
#: verdicts.
_TOWN_ENTRY: dict[PlaceKind, _SeaTails] = {}
_NEUTRAL_ENTRY: dict[PlaceKind, _SeaTails] = {}
_FRIENDLY_ENTRY: dict[PlaceKind, _SeaTails] = {}
_UNFRIENDLY_ENTRY: dict[tuple[PlaceKind, str, str, bool], _SeaTails] = {}


def _entry_tails(state: GameState, place: Place, factions: tuple[str | None, ...]) -> _SeaTails:
    """Whether ships of ``factions`` may sail into the port (SHIP_ENTER), with its rule
    and why not, as the tails of its destination when its passengers may not land
    inside and when they may."""
    f = factions[0] if len(factions) == 1 else None
    pid = place.id
    kind = place.kind
    table: dict[Any, _SeaTails] | None = None
    key: Any = kind
    if f is None:
        pass
    elif kind in _TOWNS:
        if pid not in state.inside_by_place:
            table = _TOWN_ENTRY
    else:
        holder = state.control.get(pid)
        if holder is None:
            table = _NEUTRAL_ENTRY
        elif holder == f or holder in state.allies.get(f, ()):
            table = _FRIENDLY_ENTRY
        else:
            table = _UNFRIENDLY_ENTRY
            key = (kind, holder, f, bool(state.permissions) and (pid, f, ids.SHIP_ENTER) in state.permitted)
    if table is None:
        return _tails_of(_judged_entry(state, place, factions))
    got = table.get(key)
    if got is None:
        got = table[key] = _tails_of(_judged_entry(state, place, factions))
    return got


def _tails_of(v: tuple[bool, str | None, str]) -> _SeaTails:
    return (v[0], v[1], False, v[2]), (v[0], v[1], True, v[2])


def _judged_entry(
    state: GameState, place: Place, factions: Sequence[str | None]
) -> tuple[bool, str | None, str]:
    enter, rule, reason = True, None, ""
    for f in factions:
        v = judge(state, place, f, ids.SHIP_ENTER)
        if not v.ok:
            return False, v.rule, v.reason
        rule = v.rule if rule is None or v.rule == ids.LOC_PERMISSION else rule
    return enter, rule, reason


#: Whether one faction's nobles may land and go inside at a port, keyed as ``_ENTRY``.
_LANDS: dict[tuple[Any, ...], bool] = {}


def _lands(state: GameState, place: Place, landers: tuple[str | None, ...]) -> bool:
    key = _status_key(state, place, landers, ids.ENTER)
    if key is not None:
        got = _LANDS.get(key)
        if got is None:
            got = _LANDS[key] = _judged_landing(state, place, landers)
        return got
    return _judged_landing(state, place, landers)


def _judged_landing(state: GameState, place: Place, landers: tuple[str | None, ...]) -> bool:
    return all(judge(state, place, f, ids.DISEMBARK, enter=True).ok for f in landers)


def _status_key(
    state: GameState, place: Place, factions: Sequence[str | None], asked: str
) -> tuple[Any, ...] | None:
    """What alone ``status.judge`` reads for one faction at ``place`` (for ``asked``, the
    aspect a permission must name): the place's kind and status, and when unfriendly its
    holder, the faction and whether it holds the permission; None when it reads more
    (several factions, no faction, a town someone is inside)."""
    if len(factions) != 1:
        return None
    f = factions[0]
    if f is None:
        return None
    kind = place.kind
    pid = place.id
    if kind in _TOWNS:
        return (kind,) if pid not in state.inside_by_place else None
    holder = state.control.get(pid)
    if holder is None:
        return (kind, None)
    if holder == f or holder in state.allies.get(f, ()):
        return (kind, True)
    return (kind, holder, f, bool(state.permissions) and (pid, f, asked) in state.permitted)


def _voyages(
    board: Board, origin: str, in_port: bool
) -> tuple[
    tuple[tuple[str, tuple[str, ...]], ...],
    tuple[SeaDestination, ...],
    tuple[tuple[Place, tuple[str, tuple[str, ...], bool]], ...],
]:
    """From a port (``in_port``) or a sea zone: ``sea_routes``' voyages, the sea-zone
    destinations (the same for every ship there, whatever the state) and the ports with
    their routes. Worked out once per board."""
    key = ("voyages", origin, in_port)
    got = board.memo.get(key)
    if got is None:
        routes = _sea_routes(board, origin, in_port)
        zones = tuple(
            _new(SeaDestination, (to, path, False, True, None, False, ""))
            for to, path in routes
            if to in board.seas
        )
        ports = tuple((board.places[to], (to, path, True)) for to, path in routes if to not in board.seas)
        got = board.memo[key] = (routes, zones, ports)
    return got


def sea_routes(state: GameState, lead: Ship) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Where a ship (or the fleet ``lead`` heads) may sail in one voyage, with its
    route from where it is: every sea zone reachable through zones (from a port: the
    zones it borders and beyond), sorted, then every port bordering one of them except
    the one it is in. Ports are judged by ``decide``; this is only the geometry."""
    return _voyages(state.board, lead.place, lead.in_port)[0]


def _sea_routes(board: Board, origin: str, in_port: bool) -> tuple[tuple[str, tuple[str, ...]], ...]:
    routes = _zone_routes(board, origin, in_port)
    out: list[tuple[str, tuple[str, ...]]] = [
        (sea, routes[sea]) for sea in sorted(routes) if in_port or sea != origin
    ]
    seen_ports: set[str] = {origin} if in_port else set()
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
    return _zone_routes(state.board, lead.place, lead.in_port)


def _zone_routes(board: Board, origin: str, in_port: bool) -> dict[str, tuple[str, ...]]:
    if in_port:
        port = board.places.get(origin)
        starts = list(port.seas) if port is not None else []
    else:
        starts = [origin]
    routes: dict[str, tuple[str, ...]] = {s: (origin, s) if in_port else (s,) for s in starts}
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

"""Where ships and fleets may sail (issue 16): the work behind the waters of
``queries.legal_destinations``.

The voyages from each port and sea zone follow from the map alone and are worked out
once per board (``_voyages``: the sea-zone destinations, the same for every ship there
whatever the state, and the ports numbered by ``_harbours`` with the heads of their
destinations). Whether a faction's ships may sail into each port is judged once per
state for every port at once (``_entries``); where it depends only on the port's kind
and status for one faction, the verdicts are read from tables made once per process,
as ``status`` makes its verdicts.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any, NamedTuple

from . import ids
from .board import Board, Place, PlaceKind
from .potential import held_inside
from .state import GameState, Ship
from .status import judge

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


def voyage_destinations(
    state: GameState,
    shared: dict[Any, Any],
    factions: tuple[str | None, ...],
    lead: Ship,
    landers: tuple[str | None, ...],
    load: int,
    standing: tuple[Any, Any],
) -> tuple[SeaDestination, ...]:
    """Where ships of ``factions`` may sail from where ``lead`` is, and whether their
    passengers (of ``landers``, ``load`` troops) may land and go inside at each port.
    ``shared``: the judgments kept with the state's movement signature
    (``queries._shared``); ``standing``: the standing of ``factions`` and of ``landers``
    (``queries._standing``), part of their keys there."""
    _, zones, ports = _voyages(state.board, lead.place, lead.in_port)
    entry = _entries(state, shared, factions, standing[0])
    if not landers:  # no one to land: the tails for passengers who may not
        return (*zones, *[_new(SeaDestination, head + entry[j][0]) for j, place, head in ports])
    landing = _memo_of(shared, ("disembark", landers, standing[1]))
    sieges = state.sieges
    out: list[SeaDestination] = list(zones)
    for j, place, head in ports:
        pid = place.id
        land: bool | None = landing.get(pid)
        if land is None:
            land = landing[pid] = _lands(state, place, landers)
        if land and place.capacity is not None:
            land = held_inside(state, pid) + load <= place.capacity
        land = land and pid not in sieges  # SIEGE.sealed
        out.append(_new(SeaDestination, head + entry[j][land]))
    return tuple(out)


def _entries(
    state: GameState, shared: dict[Any, Any], factions: tuple[str | None, ...], standing: Any
) -> list[_SeaTails]:
    """Whether ships of ``factions`` may sail into each port of the board (numbered by
    ``_harbours``), as the tails of its destinations: judged once per state (and kept
    with ``_shared``) for every port at once, since every voyage reaches most of them."""
    key = ("ship_enter", factions, standing)
    got: list[_SeaTails] | None = shared.get(key)
    if got is not None:
        return got
    ports = _harbours(state.board)
    f = factions[0] if len(factions) == 1 else None
    if f is None:
        got = shared[key] = [_entry_tails(state, place, factions) for place in ports]
        return got
    # ``_entry_tails`` read here for one faction without the call (the tables it fills):
    # the ports whose tails depend on no faction once, then those held by one
    base, held = _open_ports(state)
    tails_of: list[_SeaTails | None] = list(base)
    friends = state.allies.get(f, frozenset())
    permitted = state.permitted if state.permissions else frozenset()
    for j, place, holder in held:
        if holder == f or holder in friends:
            tails = _FRIENDLY_ENTRY.get(place.kind)
        else:
            tails = _UNFRIENDLY_ENTRY.get((place.kind, holder, f, (place.id, f, ids.SHIP_ENTER) in permitted))
        tails_of[j] = tails
    result = shared[key] = [  # None: someone is inside a town, or no verdict in the tables yet
        tails if tails is not None else _entry_tails(state, ports[j], factions)
        for j, tails in enumerate(tails_of)
    ]
    return result


def _open_ports(
    state: GameState,
) -> tuple[list[_SeaTails | None], list[tuple[int, Place, str]]]:
    """For one faction's ships at each port (numbered by ``_harbours``): the tails of
    its destinations where they depend on no faction (a town no one is inside, a
    neutral castle, town or city; None where no verdict is in the tables yet, or
    someone is inside a town), and the ports some faction holds, with their holders.
    Once per state."""
    memo = state.place_verdicts
    got: tuple[list[_SeaTails | None], list[tuple[int, Place, str]]] | None = memo.get("open_ports")
    if got is None:
        control = state.control
        inside = state.inside_by_place
        base: list[_SeaTails | None] = []
        held: list[tuple[int, Place, str]] = []
        for j, place in enumerate(_harbours(state.board)):
            pid = place.id
            kind = place.kind
            tails = None
            if kind in _TOWNS:
                if pid not in inside:
                    tails = _TOWN_ENTRY.get(kind)
            else:
                holder = control.get(pid)
                if holder is None:
                    tails = _NEUTRAL_ENTRY.get(kind)
                else:
                    held.append((j, place, holder))
            base.append(tails)
        got = memo["open_ports"] = (base, held)
    return got


def _harbours(board: Board) -> tuple[Place, ...]:
    """The board's ports, numbered in the order of their ids. Made once per board."""
    got: tuple[Place, ...] | None = board.memo.get("harbours")
    if got is None:
        got = board.memo["harbours"] = tuple(
            board.places[p] for p in sorted(board.places) if board.places[p].is_port
        )
    return got


def _memo_of(memo: dict[Any, Any], key: tuple[Any, ...]) -> dict[str, Any]:
    """A memo of judgments per port for these factions (in ``memo``, ``queries._shared``)."""
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
    tuple[tuple[int, Place, tuple[str, tuple[str, ...], bool]], ...],
]:
    """From a port (``in_port``) or a sea zone: ``sea_routes``' voyages, the sea-zone
    destinations (the same for every ship there, whatever the state) and the ports (their
    numbers in ``_harbours``, the places and the heads of their destinations). Worked out
    once per board."""
    key = ("voyages", origin, in_port)
    got = board.memo.get(key)
    if got is None:
        routes = _sea_routes(board, origin, in_port)
        zones = tuple(
            _new(SeaDestination, (to, path, False, True, None, False, ""))
            for to, path in routes
            if to in board.seas
        )
        number = {p.id: j for j, p in enumerate(_harbours(board))}
        ports = tuple(
            (number[to], board.places[to], (to, path, True)) for to, path in routes if to not in board.seas
        )
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

"""Paths a move or voyage leaves out: what ``Percy MOVES TO Leeds`` or ``Swan SAILS TO
Hull`` comes to, from the rules' own searches (``legal_destinations`` from where the unit
stands; ``rules.routes.unit_route`` for a route of roads and cross-country links;
``road_path``, ``routes.land_route`` and ``zone_routes`` on the bare map when the unit
may not go there, so that ``decide`` refuses naming why). docs/rulings.md 74."""

from __future__ import annotations

from collections.abc import Callable

from kingmaker.rules import commands as c
from kingmaker.rules.queries import Destinations, road_path, zone_routes
from kingmaker.rules.routes import is_mixed, land_route, unit_route
from kingmaker.rules.state import GameState


def seas_of(state: GameState, place: str) -> tuple[str, ...]:
    """The sea zones a port borders (none for anything else)."""
    p = state.board.places.get(place)
    return p.seas if p is not None else ()


def infer_land_move(
    state: GameState,
    destinations: Callable[[str], Destinations],
    by: str,
    unit: str,
    start: str,
    dest: str,
    enter: bool,
    request: str | None,
    by_road: bool,
) -> c.Command:
    """The command for ``unit MOVES [FROM start] TO dest`` with no path given.

    From where the unit stands: the path ``legal_destinations`` finds (a cross-country
    neighbour off the roads becomes a ``Move``), else a legal route of roads and
    cross-country links (``MoveRoute``, R11; not ``by_road``); ``TO <here> IN <here>`` is
    entering. Otherwise (not reachable, or FROM another place) the shortest road path on
    the bare map, then the shortest mixed route there, so that the rules refuse it
    naming the first place that blocks (or where the unit really is)."""
    here = _unit_land_place(state, unit)
    if start == here:
        if dest == here:
            return c.Enter(by, unit, request) if enter else c.MoveRoad(by, unit, (here,), enter, request)
        for d in destinations(unit).places:
            if d.place == dest:
                if d.by_road:
                    return c.MoveRoad(by, unit, d.path, enter, request)
                if not by_road:
                    return c.Move(by, unit, dest, enter, request)
        if not by_road:
            route = unit_route(state, unit, dest)
            if route is not None and len(route) >= 2:
                return path_command(state, by, unit, route, enter, request)
    raw = road_path(state.board, start, dest)
    if raw is not None and len(raw) >= 2:
        return c.MoveRoad(by, unit, raw, enter, request)
    if start == here and not by_road and dest in state.board.cross_links.get(start, ()):
        return c.Move(by, unit, dest, enter, request)
    if not by_road and start in state.board.places and dest in state.board.places:
        route = land_route(state.board, start, dest)
        if route is not None and len(route) >= 2:
            return path_command(state, by, unit, route, enter, request)
        return c.MoveRoute(by, unit, (start, dest), enter, request)  # the rules say no route leads there
    return c.MoveRoad(by, unit, (start, dest), enter, request)


def path_command(
    state: GameState,
    by: str,
    unit: str,
    path: tuple[str, ...],
    enter: bool,
    request: str | None,
    by_road: bool = False,
) -> c.Command:
    """The command of a move along ``path`` as given (``VIA``, ``ALONG``, ``DIRECT``, or
    found): a route of roads and cross-country links (``MoveRoute``) when it holds a
    cross-country link (unless ``by_road``: ``BY ROAD``), whose refusal says which
    places are not next to each other; otherwise a road move (whose refusal says which
    places no road links)."""
    if not by_road and is_mixed(state.board, path):
        return c.MoveRoute(by, unit, path, enter, request)
    return c.MoveRoad(by, unit, path, enter, request)


def _unit_land_place(state: GameState, unit: str) -> str | None:
    army = state.armies.get(unit)
    if army is not None:
        if army.fleet or not army.units:
            return None
        unit = army.units[0]
    n = state.nobles.get(unit)
    if n is None or n.aboard is not None:
        return None
    return n.place


def infer_via(
    state: GameState,
    destinations: Callable[[str], Destinations],
    ship: str,
    dest: str,
    zone: str | None = None,
) -> tuple[str, ...]:
    """The sea zones a voyage crosses before ``dest``: the route ``legal_destinations``
    finds, or the same search on the bare sea map when the ship may not sail now. With
    ``zone`` (``TO <port> IN <zone>``) the route reaches the port from that zone."""
    if zone is None:
        for d in destinations(ship).waters:
            if d.place == dest:
                return d.path[1:-1]
    routes = _sea_routes(state, ship)
    if routes is None:
        return ()
    board = state.board
    if zone is not None:
        route = routes.get(zone)
        return route if route is not None else (zone,)
    if dest in board.seas:
        route = routes.get(dest)
        return route[:-1] if route else ()
    for sea in sorted(routes):
        if sea in seas_of(state, dest):
            return routes[sea]
    return ()


def _sea_routes(state: GameState, ship: str) -> dict[str, tuple[str, ...]] | None:
    """For each sea zone, the zones crossed to reach it (it included), from the ship's
    port or zone (not included): ``rules.queries.zone_routes`` of the ship or the
    fleet's lead ship."""
    army = state.armies.get(ship)
    lead = state.ships.get(army.units[0] if army is not None and army.units else ship)
    if lead is None:
        return None
    return {sea: route[1:] for sea, route in zone_routes(state, lead).items()}

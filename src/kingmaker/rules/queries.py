"""Queries for players, the web map and bots: where a unit may go this turn.

What the nobles of some factions may do is judged once per state (states are immutable)
and shared by every unit of those factions (``reach.Side``, worked out in
``rules/reach.py`` on the board numbered once): which places they may pass through on
the roads, their routes from each place they start from (one breadth-first walk), and
at each location whether they may go inside or lay siege, as far as that depends on
their factions alone. Only what depends on the unit itself (its troops against a
location's capacity, a siege's strength) is judged per unit. The voyages from each port
and sea zone follow from the map alone and are worked out once per board; whether a
faction's ships may sail into each port is judged once per state, for every port at
once (``rules/waters.py``).

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
from typing import Any

from . import ids
from .board import Board
from .orders import prior_order
from .peace import peace_at
from .potential import carried, potential, total_potential
from .reach import Destination, Side, atlas, destinations
from .sieges import besieged
from .state import MOVEMENT, GameState
from .status import judge
from .units import ARMY, FLEET, NOBLE, SHIP, commander, fleet_nobles, name, owner, unit_kind
from .waters import SeaDestination, sea_routes, voyage_destinations, zone_routes

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
            side = shared[kept] = Side(factions, atlas(state.board), state)
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
        kept = shared[key] = voyage_destinations(state, shared, factions, lead, landers, load, standing)
    return _answer(state, unit, (), kept)

"""Where nobles may go by land (issue 16): the work behind ``queries.land_routes``.

The board is indexed once (``Atlas``: places numbered in the order of their sorted ids,
road neighbours and cross-country links as tuples of numbers, the reasons that name a
place's capacity and a siege). What the nobles of some factions may do is judged once
per state and shared by all their units (``Side``): whether each place lets them pass
on the roads, their routes from each start (one breadth-first walk), and at each
location whether they may go inside or lay siege as far as that depends on their
factions alone. Only a unit's troops (a location's capacity) and, in a game with
phases, a siege's strength are judged per unit.

The common cases are judged without ``status.judge``: a place no one is inside, for one
faction, away from the King's Peace. Its verdicts then depend only on the place's kind,
its status for the faction and (unfriendly) its holder, the faction and a permission,
so they are made once per process (``_TOWN``, ``_NEUTRAL``, ``_FRIENDLY``,
``_UNFRIENDLY``), as ``status`` keeps its verdicts; everything else goes through
``status.judge`` as ``decide`` does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from . import ids
from .board import Board, Place, PlaceKind
from .combat import siege_checks
from .decision import Refusal
from .fighting import battle_strength, strength_bounds
from .potential import held_inside
from .sieges import may_besiege
from .state import GameState
from .status import judge

_new = tuple.__new__  # a NamedTuple made without the cost of its keyword-checking __new__

_COUNTRY = PlaceKind.COUNTRY
_TOWNS = (PlaceKind.UNFORTIFIED_TOWN, PlaceKind.OPEN_TOWN)


class Destination(NamedTuple):
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


#: (enter, rule, siege, reason): what a destination says beyond its place and path.
Tail = tuple[bool, str | None, bool, str]
#: A side's verdicts at a location: the tail of a destination whose troops fit, then how
#: many troops fit (None: any number).
Verdict = tuple[bool, str | None, bool, str, int | None]


class Atlas:
    """A board's places numbered in the order of their sorted ids (so sorting numbers
    sorts ids), with its roads and cross-country links as numbers. Built once per board."""

    __slots__ = (
        "alone",
        "country",
        "cross",
        "full",
        "ids",
        "index",
        "open_country",
        "places",
        "roads",
        "sealed",
        "town",
    )

    def __init__(self, board: Board) -> None:
        self.ids: tuple[str, ...] = tuple(sorted(board.places))
        self.index: dict[str, int] = {p: i for i, p in enumerate(self.ids)}
        self.places: tuple[Place, ...] = tuple(board.places[p] for p in self.ids)
        index = self.index
        self.roads: tuple[tuple[int, ...], ...] = tuple(
            tuple(index[n] for n in board.road_order.get(p, ())) for p in self.ids
        )
        self.cross: tuple[tuple[int, ...], ...] = tuple(
            tuple(sorted(index[n] for n in board.cross_links.get(p, ()))) for p in self.ids
        )
        self.alone: tuple[tuple[str], ...] = tuple((p,) for p in self.ids)  # to lengthen a path
        self.country: tuple[bool, ...] = tuple(p.kind is _COUNTRY for p in self.places)
        self.town: tuple[bool, ...] = tuple(p.kind in _TOWNS for p in self.places)
        #: ``Side.passable`` before anything is judged: countryside never blocks
        self.open_country = bytes(1 if c else 0 for c in self.country)
        self.full: tuple[str, ...] = tuple(f"{p.name} holds at most {p.capacity} troops" for p in self.places)
        self.sealed: tuple[str, ...] = tuple(
            f"{p.name} is under siege: no one enters it" for p in self.places
        )


def atlas(board: Board) -> Atlas:
    got: Atlas | None = board.memo.get("atlas")
    if got is None:
        got = board.memo["atlas"] = Atlas(board)
    return got


#: The places a side's nobles reach from a start: by road (in the order of their ids),
#: by one cross-country link, and the path to each.
Routes = tuple[list[int], list[int], dict[int, tuple[str, ...]]]


class Side:
    """What nobles of ``factions`` moving together may do on one state (and on every
    state with its movement signature and their standing, ``queries._side``): whether
    each place lets them pass on the roads (``passable``: 0 not judged yet, 1 yes, 2 no),
    their routes from each start (``routes``), at each location the verdicts that depend
    on their factions alone (``verdicts``: the tail of a destination whose troops fit, and
    how many troops fit, None for any number), and the destinations of a unit by its
    start, troops and whether it stands inside (``destinations``; not in a game with
    phases, where a siege's strength depends on who else stands where)."""

    __slots__ = (
        "destinations",
        "faction",
        "factions",
        "friends",
        "passable",
        "permitted",
        "routes",
        "seat",
        "verdicts",
    )

    def __init__(self, factions: tuple[str | None, ...], at: Atlas, state: GameState) -> None:
        places = len(at.ids)
        self.factions = factions
        #: the one faction of the side, when it has one (None: judged by ``status.judge``)
        self.faction: str | None = factions[0] if len(factions) == 1 else None
        # What ``_judge_place`` reads of the state for one faction, the same on every
        # state with its signature (the summons) and the side's standing (its allies
        # and the permissions in force it holds): its allies, the permissions in force
        # and the seat of the King's Peace.
        f = self.faction
        self.friends: frozenset[str] = state.allies.get(f, frozenset()) if f is not None else frozenset()
        self.permitted: frozenset[tuple[str, str, str]] = (
            state.permitted if state.permissions else frozenset()
        )
        self.seat: str | None = state.summoned.seat if state.summoned is not None else None
        self.passable = bytearray(at.open_country)
        self.routes: dict[int, Routes] = {}
        self.verdicts: list[Verdict | None] = [None] * places
        self.destinations: dict[tuple[str, int, bool], tuple[Destination, ...]] = {}


def routes(state: GameState, side: Side, start: int, members: Sequence[str]) -> Routes:
    """The places reached from ``start``: by road (breadth-first, each place's neighbours
    in ``board.road_order``, as ``queries.road_paths``; a place the side may not pass is
    reached but not gone through), in the order of their ids, then by one cross-country
    link, with the path to each; ``start`` itself is not among them (its path, itself
    alone, is with the others, for a start in the open before a location)."""
    got = side.routes.get(start)
    if got is not None:
        return got
    at = atlas(state.board)
    alone = at.alone
    roads = at.roads
    passable = side.passable
    paths: dict[int, tuple[str, ...]] = {start: alone[start]}
    queue = [start]  # first in, first out: read while it grows
    push = queue.append
    for here in queue:
        base = paths[here]
        for nxt in roads[here]:
            if nxt in paths:
                continue
            paths[nxt] = base + alone[nxt]
            ok = passable[nxt]
            if ok == 1:
                push(nxt)
            elif not ok:
                _judge_place(state, side, at, nxt, members)
                if passable[nxt] == 1:
                    push(nxt)
    del paths[start]
    by_road = sorted(paths)
    cross = [i for i in at.cross[start] if i not in paths]
    origin = at.ids[start]
    for i in cross:
        paths[i] = (origin, at.ids[i])
    paths[start] = alone[start]  # a start in the open before a location is a destination
    got = side.routes[start] = (by_road, cross, paths)
    return got


def destinations(
    state: GameState, side: Side, members: Sequence[str], troops: int, start: str, inside: bool
) -> tuple[Destination, ...]:
    """Every place these nobles (of ``side``, ``troops`` in all), moving together from
    ``start``, may reach, with whether they may go inside or lay siege there; ``start``
    itself when they stand in the open before a location."""
    phased = state.phased  # a siege's strength depends on more than the side: never kept
    key = (start, troops, inside)
    if not phased:
        got = side.destinations.get(key)
        if got is not None:
            return got
    at = atlas(state.board)
    begin = at.index[start]
    verdicts = side.verdicts
    names = at.ids
    country = at.country
    by_road, cross, paths = routes(state, side, begin, members)
    out: list[Destination] = []
    append = out.append
    road = True
    for todo in (by_road, cross, () if inside or country[begin] else (begin,)):
        for i in todo:
            v = verdicts[i]
            if v is None:
                if country[i]:
                    append(_new(Destination, (names[i], paths[i], road, False, None, False, "")))
                    continue
                _judge_place(state, side, at, i, members)
                v = verdicts[i]
                assert v is not None
            enter, rule, siege, reason, room = v
            if room is not None and troops > room:
                enter, rule, reason = False, ids.LOC_CAPACITY, at.full[i]
            if phased and siege:
                siege = _strong_enough(state, members, at.places[i])
            append(_new(Destination, (names[i], paths[i], road, enter, rule, siege, reason)))
        road = False
    result = tuple(out)
    if not phased:
        side.destinations[key] = result
    return result


#: The tails of one faction's destinations at places no one is inside, away from the
#: King's Peace, by what alone they depend on there: a town's kind (``_TOWN``); a
#: castle's, town's or city's kind when it is neutral or friendly, and when unfriendly
#: its kind, its holder, the faction and whether the faction may enter by the holder's
#: permission (``_UNFRIENDLY``). Made once per process, as ``status`` makes its verdicts.
_TOWN: dict[PlaceKind, Tail] = {}
_NEUTRAL: dict[PlaceKind, Tail] = {}
_FRIENDLY: dict[PlaceKind, Tail] = {}
_UNFRIENDLY: dict[tuple[PlaceKind, str, str, bool], Tail] = {}


def _judge_place(state: GameState, side: Side, at: Atlas, i: int, members: Sequence[str]) -> None:
    """Judge location ``i`` for the side, once: whether its nobles may pass it on the
    roads (``passable``: the ``road`` aspect for each of their factions) and their
    ``verdicts`` there: the tail of a destination whose troops fit (SIEGE.sealed judged)
    and how many troops fit (None: any number; more are refused by LOC.capacity).

    For one faction, where the verdicts depend only on the status (a town no one is
    inside; a castle, town or city, neutral, friendly, or unfriendly with or without
    the holder's permission), they are read from the tables; the rest goes through
    ``status.judge`` (and ALLY.9, ALLY.12 and the King's Peace for a siege)."""
    place = at.places[i]
    pid = place.id
    f = side.faction
    if f is not None and pid not in state.inside_by_place and pid != side.seat:
        # the common case: one faction, no one inside, away from the King's Peace
        key: Any = place.kind
        verdicts: dict[Any, Tail]
        if at.town[i]:
            ok, verdicts = 1, _TOWN
        else:
            holder = state.control.get(pid)
            if holder is None:
                ok, verdicts = 2, _NEUTRAL
            elif holder == f or holder in side.friends:
                ok, verdicts = 1, _FRIENDLY
            else:
                permitted = side.permitted
                ok = 1 if (pid, f, ids.ROAD) in permitted else 2
                verdicts = _UNFRIENDLY
                key = (key, holder, f, (pid, f, ids.ENTER) in permitted)
        side.passable[i] = ok
        tail = verdicts.get(key)
        if tail is None:
            tail = verdicts[key] = _judged_tail(state, place, side.factions, members)
        if tail[0]:
            if pid in state.sieges:
                tail = (False, ids.SIEGE_SEALED, tail[2], at.sealed[i])
            side.verdicts[i] = (*tail, place.capacity)  # no one is inside
        else:
            side.verdicts[i] = (*tail, None)
        return
    table: dict[Any, Tail] | None = None
    key = None
    passes: bool | None = None
    if f is not None:
        kind = place.kind
        key = kind
        occupied = pid in state.inside_by_place
        if kind in _TOWNS:
            if not occupied:
                passes, table = True, _TOWN
        else:
            holder = state.control.get(pid)
            if holder is None:
                passes, table = False, _NEUTRAL
            elif holder == f or holder in state.allies.get(f, ()):
                passes, table = True, _FRIENDLY
            else:
                permitted = state.permitted if state.permissions else frozenset()
                passes, table = (pid, f, ids.ROAD) in permitted, _UNFRIENDLY
                key = (kind, holder, f, (pid, f, ids.ENTER) in permitted)
        summoned = state.summoned
        if occupied or (summoned is not None and summoned.seat == pid):
            table = None  # the nobles inside or the King's Peace count for the verdicts
    if passes is None:
        passes = all(judge(state, place, g, ids.ROAD).ok for g in side.factions)
    side.passable[i] = 1 if passes else 2
    if table is not None:
        tail = table.get(key)
        if tail is None:
            tail = table[key] = _judged_tail(state, place, side.factions, members)
        held = 0  # no one is inside
    else:
        tail = _judged_tail(state, place, side.factions, members)
        held = -1
    room: int | None = None
    if tail[0]:
        if pid in state.sieges:
            tail = (False, ids.SIEGE_SEALED, tail[2], at.sealed[i])
        if place.capacity is not None:
            room = place.capacity - (held if held >= 0 else held_inside(state, pid))
    side.verdicts[i] = (*tail, room)


def _judged_tail(
    state: GameState, place: Place, factions: Sequence[str | None], members: Sequence[str]
) -> Tail:
    """Whether troops of these factions may go inside (with the rule and why not) and
    whether they may lay siege, as far as it depends on their factions (``members``:
    some of their nobles, for ALLY.9 and ALLY.12, which look only at their factions)."""
    enter, rule, reason = True, None, ""
    for f in factions:
        v = judge(state, place, f, ids.ENTER)
        if not v.ok:
            enter, rule, reason = False, v.rule, v.reason
            break
        rule = v.rule if rule is None or v.rule == ids.LOC_PERMISSION else rule
    siege = all(judge(state, place, f, ids.SIEGE).ok for f in factions)
    if siege:
        own = set(factions)
        nobles = state.nobles
        if any(nobles[n].faction in own for n in state.inside_by_place.get(place.id, ())):
            siege = False
        else:
            try:
                siege_checks(state, "", members, place)
            except Refusal:
                siege = False
    return enter, rule, siege, reason


def _strong_enough(state: GameState, members: Sequence[str], place: Place) -> bool:
    """SIEGE.strength: whether these nobles, with the rest of a lone noble's force in
    the open there (BATTLE.sides), may lay siege to ``place``."""
    laying = (*members, *_force_there(state, members, place))
    pid = place.id
    if pid not in state.sieges and pid not in state.inside_by_place:
        # the common case, judged here as ``may_besiege`` judges it: no siege in
        # progress there and no one inside, so the garrison alone is to be matched. The
        # nobles' strengths without and with every regional troop they hold bound their
        # strength anywhere (kept per state), and mostly settle it without the place's
        # regions
        garrison = place.garrison
        low = high = 0
        for n in laying:
            lo, hi = strength_bounds(state, n)
            low += lo
            high += hi
        if low >= garrison:
            return True
        if high < garrison:
            return False
        return sum(battle_strength(state, n, place) for n in laying) >= garrison
    memo = state.place_verdicts
    key = ("strength", laying, pid)
    ok = memo.get(key)
    if ok is None:
        ok = memo[key] = may_besiege(state, laying, place)
    return bool(ok)


def _force_there(state: GameState, members: Sequence[str], place: Place) -> tuple[str, ...]:
    """The nobles of a lone noble's faction in the open at ``place`` in no army: the
    force he would lay a siege with there (BATTLE.sides)."""
    if len(members) != 1 or members[0] in state.army_of:
        return ()
    faction = state.nobles[members[0]].faction
    return tuple(n for n in _in_the_open(state).get((faction, place.id), ()) if n != members[0])


def _in_the_open(state: GameState) -> dict[tuple[str | None, str], list[str]]:
    """The nobles in the open at each place in no army and not captive, by faction and
    place, in the order of ``state.nobles``."""
    memo = state.place_verdicts
    got: dict[tuple[str | None, str], list[str]] | None = memo.get("open")
    if got is None:
        got = {}
        army_of = state.army_of
        for n in state.nobles.values():
            if n.place is not None and not n.inside and n.captive_of is None and n.id not in army_of:
                got.setdefault((n.faction, n.place), []).append(n.id)
        memo["open"] = got
    return got

"""Routes of roads and cross-country links in one movement order (R11).

R11 makes the movement steps one faction gives one unit in one turn a single order. A
route that mixes roads and cross-country links is such steps: each run of road links is
a road move, each cross-country link a cross-country move (``route_steps``).
``decide_move_route`` decides them one after another, each with the decider of its own
kind (``movement.decide_move_road``, ``movement.decide_move``) on the state the steps
before it left, so no rule is decided twice and the route is accepted exactly when the
same steps given one by one would be (docs/rulings.md, "Mixed routes").

``land_route`` finds the shortest such route (fewest links; breadth-first, from each
place its road neighbours in the map's road order, then its cross-country neighbours in
id order). Along a road it passes only through places ``can_pass`` lets through; the
place where a cross-country link begins or ends is where one step stops and the next
starts, and a stop in the open and a step's start are never judged (docs/rulings.md 1).

>>> from kingmaker.conformance.case import build_board
>>> board = build_board({
...     "places": {"a": {"kind": "country"}, "b": {"kind": "town"}, "c": {"kind": "city"}},
...     "roads": [["b", "c"]],
...     "adjacent": [["a", "b"]],
... })
>>> land_route(board, "a", "c")
('a', 'b', 'c')
>>> [(s.road, s.path) for s in route_steps(board, ("a", "b", "c")) or ()]
[(False, ('a', 'b')), (True, ('b', 'c'))]
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace

from . import events as ev
from . import ids
from .apply import replay
from .board import Board
from .commands import Move, MoveRoad, MoveRoute
from .context import Pending, invalid, land_units, require_place
from .decision import Decision, Refusal
from .movement import decide_move, decide_move_road
from .orders import check_order
from .state import MOVEMENT, GameState
from .status import judge
from .units import name, owner

ROAD = "road"
CROSS = "cross"


@dataclass(frozen=True, slots=True)
class Step:
    """One movement step of a route: a road move along ``path`` (``road``), or a
    cross-country move from ``path[0]`` to ``path[1]``."""

    road: bool
    path: tuple[str, ...]


def link(board: Board, a: str, b: str) -> str | None:
    """How ``a`` and ``b`` are joined: ``road``, ``cross`` (cross-country) or None. A
    pair joined both ways counts as a road."""
    if b in board.road_links.get(a, ()):
        return ROAD
    if b in board.cross_links.get(a, ()):
        return CROSS
    return None


def route_steps(board: Board, path: tuple[str, ...]) -> tuple[Step, ...] | None:
    """The movement steps of ``path``: each run of road links one road move, each
    cross-country link one cross-country move; None if two places next to each other in
    ``path`` are not joined at all."""
    steps: list[Step] = []
    for a, b in itertools.pairwise(path):
        how = link(board, a, b)
        if how is None:
            return None
        if how == ROAD and steps and steps[-1].road:
            steps[-1] = Step(True, (*steps[-1].path, b))
        else:
            steps.append(Step(how == ROAD, (a, b)))
    return tuple(steps)


def is_mixed(board: Board, path: tuple[str, ...]) -> bool:
    """Whether ``path`` holds a cross-country link (two places next to each other in it
    joined only cross-country): a route of ``MoveRoute``, not a road move's path."""
    return any(link(board, a, b) == CROSS for a, b in itertools.pairwise(path))


def _anywhere(place: str) -> bool:
    return True


def land_route(
    board: Board, start: str, dest: str, can_pass: Callable[[str], bool] = _anywhere
) -> tuple[str, ...] | None:
    """The shortest route of roads and cross-country links from ``start`` to ``dest``
    (both included), passing along a road only through places ``can_pass`` lets
    through; None when there is none (``dest`` is reached only by sea, or every route
    passes a place that blocks). On the bare map (no ``can_pass``) it is the route a
    reader of orders gives a move that names none, so that ``decide`` refuses it naming
    the first place that blocks."""
    if start == dest:
        return (start,)
    # a state is (place, reached along a road): a road onwards from a place reached
    # along a road passes through it; a route never comes back to a place
    first = (start, False)
    parent: dict[tuple[str, bool], tuple[str, bool] | None] = {first: None}
    queue = deque([first])
    roads, cross = board.road_order, board.cross_links
    while queue:
        here = queue.popleft()
        place, by_road = here
        through_ok = not by_road or can_pass(place)
        nexts = [((q, True), through_ok) for q in roads.get(place, ())]
        nexts += [((q, False), True) for q in sorted(cross.get(place, ()))]
        for nxt, ok in nexts:
            if not ok or nxt in parent or _on(parent, here, nxt[0]):
                continue
            parent[nxt] = here
            if nxt[0] == dest:
                return _path(parent, nxt)
            queue.append(nxt)
    return None


def _on(parent: dict[tuple[str, bool], tuple[str, bool] | None], end: tuple[str, bool], place: str) -> bool:
    """Whether the route to ``end`` already passed ``place`` (a route never comes back)."""
    at: tuple[str, bool] | None = end
    while at is not None:
        if at[0] == place:
            return True
        at = parent[at]
    return False


def _path(parent: dict[tuple[str, bool], tuple[str, bool] | None], end: tuple[str, bool]) -> tuple[str, ...]:
    out: list[str] = []
    at: tuple[str, bool] | None = end
    while at is not None:
        out.append(at[0])
        at = parent[at]
    return tuple(reversed(out))


def unit_route(state: GameState, unit: str, dest: str) -> tuple[str, ...] | None:
    """The shortest route of roads and cross-country links by which the noble or army
    ``unit`` may reach ``dest`` from where it stands this turn: along roads only through
    places every member's faction may pass (``road``). None when it stands nowhere on
    land or no such route exists. Whether it may go inside at ``dest``, and the
    ordering checks, are ``decide``'s."""
    try:
        members = land_units(state, unit)
    except Refusal:  # not a noble or army on land: no route
        return None
    start = state.nobles[members[0]].place
    if start is None:
        return None
    places = state.board.places
    factions = {owner(state, m) for m in members}
    passable: dict[str, bool] = {}

    def can_pass(pid: str) -> bool:
        ok = passable.get(pid)
        if ok is None:
            ok = passable[pid] = all(judge(state, places[pid], f, ids.ROAD).ok for f in factions)
        return ok

    return land_route(state.board, start, dest, can_pass)


def _where(state: GameState, path: tuple[str, ...]) -> str:
    """Why two places next to each other in a route are not joined, in a sentence."""
    board = state.board
    for a, b in itertools.pairwise(path):
        if link(board, a, b) is not None:
            continue
        start, dest = path[0], path[-1]
        if land_route(board, start, dest) is None:
            port = board.places[dest].is_port if dest in board.places else False
            tail = f": {name(state, dest)} is reached only by sea" if port else ""
            return (
                f"no road or cross-country route leads from {name(state, start)} to {name(state, dest)}{tail}"
            )
        return f"{name(state, a)} and {name(state, b)} are not next to each other: no road or cross-country link joins them"
    return ""  # pragma: no cover - only called when a pair is not joined


def decide_move_route(state: GameState, cmd: MoveRoute, confirmed: bool = False) -> Decision:
    """A route of roads and cross-country links (R11): its steps (``route_steps``)
    decided one after another by the deciders of road and cross-country moves, each
    on the state the steps before it left; the first refusal refuses the whole order,
    which is accepted only when every step is. Only the last step may go inside.

    The steps are one order: the ordering checks (turn, ORDER.foreign, ALLY.4/5/6/8) are
    made once, where the order starts (an ally's unit shares a place with one of the
    ordering faction's own there, not at every stop; the second step of an allied
    order is no second allied order, R26), and the order is recorded once. An accepted
    route names ``LOC.permission`` if a step used a permission, otherwise the first
    rule a step named (R18)."""
    members = land_units(state, cmd.unit)
    path = cmd.path
    if len(path) < 2:
        raise invalid("a route needs at least two places", unit=cmd.unit)
    for p in path:
        require_place(state, p)
    here = state.nobles[members[0]].place
    if path[0] != here:
        raise invalid(
            f"{name(state, cmd.unit)} is at {name(state, here)}, not at {name(state, path[0])}",
            unit=cmd.unit,
            place=path[0],
        )
    steps = route_steps(state.board, path)
    if steps is None:
        raise invalid(_where(state, path), unit=cmd.unit, place=path[-1])
    last = state.board.places[path[-1]]
    if cmd.enter and not last.kind.is_location:
        raise invalid(f"there is no location to enter at {last.name}", unit=cmd.unit, place=last.id)
    # the order's checks, made once where it starts (R11: the steps are one order); an
    # order that waits for an ally's confirmation waits once every step has been judged
    check = check_order(state, cmd.by, (cmd.unit,), MOVEMENT, confirmed=confirmed)
    first = replace(check, awaiting=())
    later = replace(first, leaving=())
    now = state
    events: list[ev.Event] = []
    ordered: set[tuple[str, str]] = set()
    rule: str | None = None
    parts: list[str] = []
    for i, step in enumerate(steps):
        enter = cmd.enter and i == len(steps) - 1
        checked = first if i == 0 else later
        d = (
            decide_move_road(now, MoveRoad(cmd.by, cmd.unit, step.path, enter, cmd.id), confirmed, checked)
            if step.road
            else decide_move(now, Move(cmd.by, cmd.unit, step.path[-1], enter, cmd.id), confirmed, checked)
        )
        for e in d.events:
            if not isinstance(e, ev.OrderGiven):
                events.append(e)
            elif (e.unit, e.order_kind) not in ordered:
                ordered.add((e.unit, e.order_kind))
                events.append(e)
        now = replay(now, d.events)
        if d.rule is not None and (rule is None or d.rule == ids.LOC_PERMISSION):
            rule = d.rule
        into = "into" if enter else "to"
        parts.append(f"{'by road' if step.road else 'cross-country'} {into} {name(state, step.path[-1])}")
    if check.awaiting:
        raise Pending(check.awaiting)
    explanation = f"{name(state, cmd.unit)} moves " + ", then ".join(parts) + (f" ({rule})" if rule else "")
    return replace(d, rule=rule, explanation=explanation, events=tuple(events), place=path[-1], unit=cmd.unit)

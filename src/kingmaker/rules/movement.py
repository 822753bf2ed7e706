"""Land movement: along roads, cross-country, entering and leaving a location
(RULE_IDS §1 ``road`` and ``enter``; LOC.capacity)."""

from __future__ import annotations

import itertools

from . import events as ev
from . import ids
from .commands import Enter, Leave, Move, MoveRoad
from .context import check_capacity, finish, invalid, judge_all, land_units, require_place
from .decision import Decision
from .orders import OrderCheck, check_order
from .sieges import check_sealed
from .state import MOVEMENT, GameState
from .units import name


def _start(state: GameState, members: tuple[str, ...]) -> tuple[str, bool]:
    first = state.nobles[members[0]]
    assert first.place is not None
    return first.place, first.inside


def decide_move_road(
    state: GameState, cmd: MoveRoad, confirmed: bool = False, checked: OrderCheck | None = None
) -> Decision:
    """A move along roads: each place passed through judged by ``road``, the last by
    ``enter`` if the unit goes inside; the first place that blocks decides. An accepted
    move names the first status aspect judged, or LOC.permission if one was used (R18).
    ``checked``: the ordering checks already made for the order this move is a later
    step of (``routes.decide_move_route``), not made again."""
    members = land_units(state, cmd.unit)
    path = cmd.path
    if len(path) < 2:
        raise invalid("a road move needs a path of at least two places", unit=cmd.unit)
    for p in path:
        require_place(state, p)
    here, _ = _start(state, members)
    if path[0] != here:
        raise invalid(
            f"{name(state, cmd.unit)} is at {name(state, here)}, not at {name(state, path[0])}",
            unit=cmd.unit,
            place=path[0],
        )
    links = state.board.road_links
    for a, b in itertools.pairwise(path):
        if b not in links.get(a, ()):
            raise invalid(f"no road links {name(state, a)} and {name(state, b)}", unit=cmd.unit, place=b)
    last = state.board.places[path[-1]]
    if cmd.enter and not last.kind.is_location:
        raise invalid(f"there is no location to enter at {last.name}", unit=cmd.unit, place=last.id)
    check = checked or check_order(state, cmd.by, (cmd.unit,), MOVEMENT, confirmed=confirmed)
    rule: str | None = None
    for p in path[1:-1]:
        r = judge_all(state, state.board.places[p], members, ids.ROAD, "pass through", by=cmd.by)
        if r == ids.LOC_PERMISSION or rule is None:
            rule = r
    if cmd.enter:
        r = judge_all(state, last, members, ids.ENTER, "enter", by=cmd.by)
        rule = r if r == ids.LOC_PERMISSION or rule is None else rule
        check_capacity(state, last, members)
    check_sealed(state, members, last.id, cmd.enter)
    effects: list[ev.Event] = [ev.NobleMoved(m, last.id, cmd.enter, path) for m in members]
    where = f"into {last.name}" if cmd.enter else f"to {last.name}"
    return finish(
        state,
        cmd.by,
        check,
        MOVEMENT,
        effects,
        rule=rule,
        explanation=f"{name(state, cmd.unit)} moves by road {where}" + (f" ({rule})" if rule else ""),
        unit=cmd.unit,
        place=last.id,
        request=cmd.id,
    )


def decide_move(
    state: GameState, cmd: Move, confirmed: bool = False, checked: OrderCheck | None = None
) -> Decision:
    """A move of one link (a road or a cross-country neighbour). ``checked``: as for
    ``decide_move_road``."""
    members = land_units(state, cmd.unit)
    dest = require_place(state, cmd.to)
    here, _ = _start(state, members)
    if dest.id not in state.board.neighbours(here):
        raise invalid(
            f"{name(state, cmd.to)} is not next to {name(state, here)}", unit=cmd.unit, place=cmd.to
        )
    if cmd.enter and not dest.kind.is_location:
        raise invalid(f"there is no location to enter at {dest.name}", unit=cmd.unit, place=dest.id)
    check = checked or check_order(state, cmd.by, (cmd.unit,), MOVEMENT, confirmed=confirmed)
    rule: str | None = None
    if cmd.enter:
        rule = judge_all(state, dest, members, ids.ENTER, "enter", by=cmd.by)
        check_capacity(state, dest, members)
    check_sealed(state, members, dest.id, cmd.enter)
    effects: list[ev.Event] = [ev.NobleMoved(m, dest.id, cmd.enter, (here, dest.id)) for m in members]
    where = f"into {dest.name}" if cmd.enter else f"to {dest.name}"
    return finish(
        state,
        cmd.by,
        check,
        MOVEMENT,
        effects,
        rule=rule,
        explanation=f"{name(state, cmd.unit)} moves {where}" + (f" ({rule})" if rule else ""),
        unit=cmd.unit,
        place=dest.id,
        request=cmd.id,
    )


def decide_enter(state: GameState, cmd: Enter, confirmed: bool = False) -> Decision:
    members = land_units(state, cmd.unit)
    here, inside = _start(state, members)
    place = state.board.places[here]
    if inside:
        raise invalid(f"{name(state, cmd.unit)} is already inside {place.name}", unit=cmd.unit, place=here)
    if not place.kind.is_location:
        raise invalid(f"there is no location to enter at {place.name}", unit=cmd.unit, place=here)
    check = check_order(state, cmd.by, (cmd.unit,), MOVEMENT, confirmed=confirmed)
    rule = judge_all(state, place, members, ids.ENTER, "enter", by=cmd.by)
    check_capacity(state, place, members)
    check_sealed(state, members, here, True)
    effects: list[ev.Event] = [ev.NobleMoved(m, here, True) for m in members]
    return finish(
        state,
        cmd.by,
        check,
        MOVEMENT,
        effects,
        rule=rule,
        explanation=f"{name(state, cmd.unit)} enters {place.name} ({rule})",
        unit=cmd.unit,
        place=here,
        request=cmd.id,
    )


def decide_leave(state: GameState, cmd: Leave, confirmed: bool = False) -> Decision:
    members = land_units(state, cmd.unit)
    here, inside = _start(state, members)
    if not inside:
        raise invalid(f"{name(state, cmd.unit)} is not inside {name(state, here)}", unit=cmd.unit, place=here)
    check = check_order(state, cmd.by, (cmd.unit,), MOVEMENT, confirmed=confirmed)
    check_sealed(state, members, here, False)
    effects: list[ev.Event] = [ev.NobleMoved(m, here, False) for m in members]
    return finish(
        state,
        cmd.by,
        check,
        MOVEMENT,
        effects,
        rule=None,
        explanation=f"{name(state, cmd.unit)} leaves {name(state, here)} for the open",
        unit=cmd.unit,
        place=here,
        request=cmd.id,
    )

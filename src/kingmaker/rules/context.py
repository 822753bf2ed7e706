"""Helpers the decision modules share: refusing, judging places, finishing orders."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from . import events as ev
from . import ids
from .armies import settle_armies
from .board import Place
from .decision import Decision, Refusal, Result
from .orders import OrderCheck
from .potential import held_inside, potential
from .state import GameState
from .status import judge
from .units import ARMY, NOBLE, name, names, owner, unit_kind


def invalid(explanation: str, unit: str | None = None, place: str | None = None) -> Refusal:
    return Refusal(ids.ORDER_INVALID, f"{explanation} ({ids.ORDER_INVALID})", unit, place)


def require_place(state: GameState, place_id: str) -> Place:
    p = state.board.places.get(place_id)
    if p is None:
        raise invalid(f"there is no place {place_id!r} on the map", place=place_id)
    return p


def missing_unit(state: GameState, unit: str, what: str) -> str:
    """Why ``unit`` is not there to be ordered: a card of the game not in play (not
    drawn yet, or gone: which, the public map does not say), else no such ``what``."""
    cat = state.catalog
    if unit in cat.nobles or unit in cat.ships:
        whose = "his" if unit in cat.nobles else "its"
        return f"{name(state, unit)} is not in play: {whose} card is not on the map"
    return f"there is no {what} {unit!r}"


def land_units(state: GameState, unit: str) -> tuple[str, ...]:
    """The nobles a land order moves: the noble, or an army's members. ORDER.invalid
    for anything else, or for nobles at sea."""
    k = unit_kind(state, unit)
    if k == NOBLE:
        members: tuple[str, ...] = (unit,)
    elif k == ARMY:
        members = state.armies[unit].units
    elif k is None:
        raise invalid(missing_unit(state, unit, "noble or army"), unit=unit)
    else:
        raise invalid(f"{name(state, unit)} is a {k}, not a noble or army", unit=unit)
    for m in members:
        n = state.nobles[m]
        if n.aboard is not None:
            raise invalid(f"{name(state, m)} is aboard {name(state, n.aboard)}: land him first", unit=m)
        if n.place is None:
            raise invalid(f"{name(state, m)} is not on the map", unit=m)
    return members


def judge_all(
    state: GameState,
    place: Place,
    members: Sequence[str],
    aspect: str,
    verb: str,
    *,
    by: str | None = None,
    enter: bool = False,
) -> str | None:
    """Judge ``aspect`` of ``place`` for each unit's own faction; raise the first
    refusal, else return the deciding rule (LOC.permission when a permission was used).

    The ordering faction ``by``'s own units are judged first, and a refusal names a
    unit of another faction only when its faction is the only other one in the order:
    which of several allies' units fails may turn on their secret alliances and
    permissions, which ``by`` may not be told."""
    rule: str | None = None
    ordered = own_first(state, members, by)
    others = {owner(state, m) for m in members} - {by}
    for m in ordered:
        faction = owner(state, m)
        v = judge(state, place, faction, aspect, enter=enter)
        if not v.ok:
            who = name(state, m)
            reason = v.reason
            if by is not None and faction != by and len(others) > 1:
                who = names(state, list(members))
                reason = f"{place.name} is closed to one of their factions"
            raise Refusal(
                v.rule or ids.ORDER_INVALID,
                f"{who} may not {verb} {place.name}: {reason} ({v.rule})",
                unit=m,
                place=place.id,
            )
        if v.rule == ids.LOC_PERMISSION or rule is None:
            rule = v.rule
    return rule


def own_first(state: GameState, units: Sequence[str], by: str | None) -> list[str]:
    """``units`` with the ordering faction's own first (otherwise in their order)."""
    return sorted(units, key=lambda u: owner(state, u) != by)


def check_capacity(state: GameState, place: Place, entering: Sequence[str]) -> None:
    if place.capacity is None:
        return
    already = held_inside(state, place.id)
    adding = sum(
        potential(state, m)
        for m in entering
        if not state.nobles[m].inside or state.nobles[m].place != place.id
    )
    if already + adding > place.capacity:
        raise Refusal(
            ids.LOC_CAPACITY,
            f"{names(state, list(entering))} may not enter {place.name}: it holds at most "
            f"{place.capacity} troops and would hold {already + adding} ({ids.LOC_CAPACITY})",
            unit=entering[0] if entering else None,
            place=place.id,
        )


def order_events(check: OrderCheck, state: GameState, by: str, kind: str) -> list[ev.Event]:
    return [ev.OrderGiven(u, kind, state.turn, by) for u in check.units]


def finish(
    state: GameState,
    by: str,
    check: OrderCheck,
    kind: str,
    effects: list[ev.Event],
    *,
    rule: str | None,
    explanation: str,
    unit: str | None,
    place: str | None,
    request: str | None,
    siege: bool = False,
    extra_order_kinds: Iterable[str] = (),
) -> Decision:
    """Accept the order (with its order records and army changes), or hold it as a
    request awaiting the allied factions' confirmations (ALLY.4)."""
    if check.awaiting:
        raise Pending(check.awaiting)
    events: list[ev.Event] = list(effects)
    events += order_events(check, state, by, kind)
    for k in extra_order_kinds:
        events += order_events(check, state, by, k)
    changes = settle_armies(state, events, check.leaving)
    events += changes
    return Decision(
        Result.ACCEPTED,
        rule,
        explanation + left_armies(state, check.leaving, changes),
        tuple(events),
        unit=unit,
        place=place,
        siege=siege,
        request=request,
    )


def left_armies(state: GameState, leaving: Iterable[str], changes: Sequence[ev.Event]) -> str:
    """What an order of army members on their own does to their armies (ruling R17), as
    clauses to add to its explanation: ``; Bourchier leaves army a1, which is disbanded
    (an army needs two units, ruling R17)``; empty when no member leaves one."""
    by_army: dict[str, list[str]] = {}
    for u in leaving:
        army = state.army_of.get(u)
        if army is not None:
            by_army.setdefault(army, []).append(u)
    out = ""
    for army, members in by_army.items():
        who = names(state, members)
        verb = "leaves" if len(members) == 1 else "leave"
        gone = any(isinstance(e, ev.ArmyDisbanded) and e.army == army for e in changes)
        new = next((e for e in changes if isinstance(e, ev.ArmySet) and e.army == army), None)
        if gone:
            out += f"; {who} {verb} {name(state, army)}, which is disbanded (an army needs two units, ruling R17)"
        elif new is not None and new.senior is not None and new.senior != state.armies[army].senior:
            out += (
                f"; {who} {verb} {name(state, army)} (ruling R17); its senior officer is now "
                f"{name(state, new.senior)}" + (f" ({new.senior_rule})" if new.senior_rule else "")
            )
        else:
            out += f"; {who} {verb} {name(state, army)} (ruling R17)"
    return out


class Pending(Exception):
    """Raised when every check passed but the order waits for other factions."""

    def __init__(self, awaiting: tuple[str, ...]):
        super().__init__(", ".join(awaiting))
        self.awaiting = awaiting

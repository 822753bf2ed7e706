"""Who may order what: turn (R1), foreign units, allied orders (ALLY.4), armies (ALLY.6),
members of an ally's army (ALLY.8) and one order of each kind per round (ALLY.5, R11, R13).

The checks run in the order FORMAT.md gives for refusals: TURN.order, ORDER.foreign,
ALLY.4, ALLY.6, ALLY.8, ALLY.5.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from . import ids
from .decision import Refusal
from .state import MOVEMENT, GameState, OrderRecord
from .units import ARMY, FLEET, commander, name, owner, places_of_faction, unit_kind, unit_place


@dataclass(frozen=True, slots=True)
class OrderCheck:
    """What an order touches once the checks pass."""

    units: tuple[str, ...]  # every noble and ship the order is given to
    awaiting: tuple[str, ...]  # factions whose confirmation it waits for (ALLY.4)
    leaving: tuple[str, ...]  # army members ordered on their own (they leave, R17)


def prior_order(state: GameState, unit: str, by: str, kind: str | None = None) -> OrderRecord | None:
    """An order already given to ``unit`` this round that is not part of the order
    ``by`` is giving now (several steps by one faction in one turn are one order)."""
    turn = state.turn
    for o in state.orders:
        same_order = o.turn_of == turn and o.by == by
        if o.unit == unit and (kind is None or o.kind == kind) and not same_order:
            return o
    return None


def _when(state: GameState, o: OrderRecord) -> str:
    when = "this turn" if o.turn_of == state.turn else f"in {o.turn_of}'s turn"
    return f"a {o.kind} order {when} this round"


def check_turn(state: GameState, by: str, kind: str, what: str) -> None:
    if by != state.turn:
        raise Refusal(
            ids.TURN_ORDER,
            f"{by} may not give {what} now: {kind} orders are given only on one's own turn, "
            f"and it is {state.turn}'s turn ({ids.TURN_ORDER})",
        )


def check_order(
    state: GameState,
    by: str,
    top_units: Sequence[str],
    kind: str,
    *,
    confirmed: bool = False,
) -> OrderCheck:
    """Run the ordering checks for an order of ``kind`` (movement or combat) given by
    ``by`` to ``top_units`` (nobles, ships, armies or fleets). Raises ``Refusal``."""
    check_turn(state, by, kind, f"a {kind} order")

    own: list[str] = []  # units ``by`` orders as its own (own units, members of its armies)
    allied: list[str] = []  # other factions' units ordered one by one (ALLY.4)
    foreign_armies: list[str] = []  # armies commanded by another faction (ALLY.6)
    leaving: list[str] = []
    army_of = state.army_of
    for u in top_units:
        k = unit_kind(state, u)
        if k in (ARMY, FLEET):
            army = state.armies[u]
            chief = commander(state, u)
            if chief is None:  # a fleet with no passengers: ship by ship
                for s in army.units:
                    (own if state.ships[s].faction == by else allied).append(s)
            elif chief == by:
                own.extend(army.units)
            else:
                foreign_armies.append(u)
                for m in army.units:
                    if owner(state, m) != by:
                        allied.append(m)
            continue
        (own if owner(state, u) == by else allied).append(u)
        if u in army_of:
            leaving.append(u)

    every = own + allied
    for u in every:
        f = owner(state, u)
        if f != by and not state.allied(by, f or ""):
            raise Refusal(
                ids.ORDER_FOREIGN,
                f"{by} may not order {name(state, u)}: {f or 'no faction'} is not allied with {by} "
                f"({ids.ORDER_FOREIGN})",
                unit=u,
            )

    awaiting: set[str] = set()
    if allied:
        mine = places_of_faction(state, by)
        for u in allied:
            where = unit_place(state, u)
            if where not in mine:
                raise Refusal(
                    ids.ALLY_4,
                    f"{by} may not order {name(state, u)}: an ally's unit can be ordered only where "
                    f"one of {by}'s own units shares its place ({ids.ALLY_4})",
                    unit=u,
                    place=where,
                )
            o = prior_order(state, u, by)
            if o is not None:
                raise Refusal(
                    ids.ALLY_4,
                    f"{by} may not order {name(state, u)}: it has already had {_when(state, o)} "
                    f"({ids.ALLY_4})",
                    unit=u,
                )
            f = owner(state, u)
            if f is not None:
                awaiting.add(f)

    for a in foreign_armies:
        chief = commander(state, a)
        senior = state.armies[a].senior
        raise Refusal(
            ids.ALLY_6,
            f"{by} may not order {name(state, a)}: only the faction of its senior officer "
            f"{name(state, senior)} ({chief}) may order it ({ids.ALLY_6})",
            unit=a,
        )

    for u in own:
        army_id = army_of.get(u)
        if army_id is None or u not in leaving:
            continue
        chief = commander(state, army_id)
        if chief is not None and chief != by:
            o = prior_order(state, u, by)
            if o is not None:
                raise Refusal(
                    ids.ALLY_8,
                    f"{by} may not order {name(state, u)} out of {name(state, army_id)}, commanded by "
                    f"{chief}: he has already had {_when(state, o)} ({ids.ALLY_8})",
                    unit=u,
                )

    for u in own:
        o = prior_order(state, u, by, kind)
        if o is not None:
            raise Refusal(
                ids.ALLY_5,
                f"{name(state, u)} may not be given another {kind} order: it already had "
                f"{_when(state, o)} ({ids.ALLY_5})",
                unit=u,
            )

    return OrderCheck(
        tuple(every),
        () if confirmed else tuple(sorted(awaiting)),
        tuple(leaving) if kind == MOVEMENT else (),
    )

"""Who may order what: turn (R1), foreign units, allied orders (ALLY.4), armies (ALLY.6),
members of an ally's army (ALLY.8) and one order of each kind per round (ALLY.5, R11, R13,
R19); allied orders for armies (R21) and a second allied order in a turn (R26).

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


def prior_order(
    state: GameState, unit: str, by: str, kind: str | None = None, *, merge: bool = True
) -> OrderRecord | None:
    """An order already given to ``unit`` this round that is not part of the order
    ``by`` is giving now. Several movement steps by one faction in one turn are one
    order (R11); combat orders never merge (R19), and with ``merge`` False (an allied
    order, R26) nothing merges."""
    turn = state.turn
    for o in state.orders:
        if o.unit != unit or (kind is not None and o.kind != kind):
            continue
        if merge and o.kind == MOVEMENT and o.turn_of == turn and o.by == by:
            continue
        return o
    return None


def free_move(state: GameState, unit: str, kind: str) -> bool:
    """Whether a Free Move played this turn (EVENT.held) waives ALLY.5 for a ``kind``
    order of ``unit``, or of the army or fleet it is in."""
    if kind != MOVEMENT or not state.event_flags:
        return False
    army = state.army_of.get(unit)
    flags = state.event_flags
    return f"free_move:{unit}" in flags or (army is not None and f"free_move:{army}" in flags)


def _pending_allied_order(state: GameState, unit: str) -> str | None:
    """The id of an allied order (ALLY.4) still awaiting confirmation that orders
    ``unit`` (R26: it counts as the unit's order this turn)."""
    for r in state.requests.values():
        if r.rule != ids.ALLY_4:
            continue
        cmd = r.command
        named = [getattr(cmd, "unit", None), getattr(cmd, "ship", None), *(getattr(cmd, "nobles", ()) or ())]
        for u in named:
            if not isinstance(u, str):
                continue
            if u == unit or (u in state.armies and unit in state.armies[u].units):
                return r.id
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
    allied_armies: list[str] = []  # armies or fleets ordered (partly) under ALLY.4 (R21)
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
                if any(state.ships[s].faction != by for s in army.units):
                    allied_armies.append(u)
            elif chief == by:
                own.extend(army.units)
            else:
                foreign_armies.append(u)
                allied_armies.append(u)
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
            o = prior_order(state, u, by, merge=False)
            if o is not None:
                raise Refusal(
                    ids.ALLY_4,
                    f"{by} may not order {name(state, u)}: it has already had {_when(state, o)} "
                    f"({ids.ALLY_4})",
                    unit=u,
                )
            waiting = None if confirmed else _pending_allied_order(state, u)
            if waiting is not None:
                raise Refusal(
                    ids.ALLY_4,
                    f"{by} may not order {name(state, u)}: an allied order for it this turn "
                    f"({waiting}) already awaits confirmation ({ids.ALLY_4})",
                    unit=u,
                )
            f = owner(state, u)
            if f is not None:
                awaiting.add(f)

    for a in allied_armies:  # R21: an allied order for an army, before ALLY.6 and ALLY.5
        for m in state.armies[a].units:
            o = prior_order(state, m, by, kind)
            if o is not None:
                raise Refusal(
                    ids.ALLY_4,
                    f"{by} may not order {name(state, a)}: {name(state, m)} in it has already had "
                    f"{_when(state, o)} ({ids.ALLY_4})",
                    unit=a,
                )

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
        if o is not None and not free_move(state, u, kind):
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

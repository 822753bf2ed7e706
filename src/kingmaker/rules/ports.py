"""Ships and ports: sailing, entering ports (R2), storms and leaving a port one was
forced into, embarking within ship capacity, and landings (R3, R4, R14)."""

from __future__ import annotations

from . import events as ev
from . import ids
from .combat import combat_id, siege_checks, siege_reveal
from .commands import Disembark, Embark, Sail, Storm
from .context import check_capacity, finish, invalid, judge_all, own_first, require_place
from .decision import Decision, Refusal, Result
from .orders import OrderCheck, check_order
from .potential import carried, potential
from .sieges import begin_siege, check_sealed
from .state import COMBAT, MOVEMENT, GameState, Ship
from .status import judge
from .units import FLEET, SHIP, name, names, unit_kind


def _ships_of(state: GameState, unit: str) -> tuple[str, ...]:
    k = unit_kind(state, unit)
    if k == SHIP:
        return (unit,)
    if k == FLEET:
        return state.armies[unit].units
    if k is None:
        raise invalid(f"there is no ship or fleet {unit!r}", unit=unit)
    raise invalid(f"{name(state, unit)} is not a ship or fleet", unit=unit)


def _ship(state: GameState, ship_id: str) -> Ship:
    s = state.ships.get(ship_id)
    if s is None:
        raise invalid(f"there is no ship {ship_id!r}", unit=ship_id)
    return s


def decide_sail(state: GameState, cmd: Sail, confirmed: bool = False) -> Decision:
    """Sail from a sea zone to a neighbouring zone or a port bordering it, or from a
    port to a zone it borders or another port bordering one of those."""
    ships = _ships_of(state, cmd.ship)
    lead = state.ships[ships[0]]
    board = state.board
    hops = (*cmd.via, cmd.to)
    for h in hops:
        if h not in board.seas and h not in board.places:
            raise invalid(f"there is no sea zone or port {h!r}", unit=cmd.ship, place=h)
    at, in_port = lead.place, lead.in_port
    for i, h in enumerate(hops):
        last = i == len(hops) - 1
        if h in board.seas:
            ok = h in board.places[at].seas if in_port else h in board.sea_neighbours(at)
        else:
            port = board.places[h]
            if not port.is_port:
                raise invalid(f"{port.name} is not a port", unit=cmd.ship, place=h)
            if not last:
                raise invalid(f"a ship that enters {port.name} ends its voyage there", unit=cmd.ship, place=h)
            ok = h != at and bool(set(port.seas) & set(board.places[at].seas)) if in_port else at in port.seas
        if not ok:
            raise invalid(
                f"{name(state, cmd.ship)} cannot sail from {name(state, at)} to {name(state, h)}",
                unit=cmd.ship,
                place=h,
            )
        at, in_port = h, h in board.places
    check = check_order(state, cmd.by, (cmd.ship,), MOVEMENT, confirmed=confirmed)
    rule: str | None = None
    for s in ships:
        ship = state.ships[s]
        if ship.in_port and ship.forced:
            r = judge_all(state, board.places[ship.place], (s,), ids.FORCED_LEAVE, "leave", by=cmd.by)
            rule = r if r == ids.LOC_PERMISSION or rule is None else rule
    if cmd.to in board.places:
        r = judge_all(state, board.places[cmd.to], ships, ids.SHIP_ENTER, "sail into", by=cmd.by)
        rule = r if r == ids.LOC_PERMISSION or rule is None else rule
    dest_port = cmd.to in board.places
    effects: list[ev.Event] = [
        ev.ShipMoved(s, cmd.to, dest_port, False, (state.ships[s].place, *hops)) for s in ships
    ]
    verb = "sails into" if dest_port else "sails to"
    return finish(
        state,
        cmd.by,
        check,
        MOVEMENT,
        effects,
        rule=rule,
        explanation=f"{name(state, cmd.ship)} {verb} {name(state, cmd.to)}" + (f" ({rule})" if rule else ""),
        unit=cmd.ship,
        place=cmd.to,
        request=cmd.id,
    )


def decide_embark(state: GameState, cmd: Embark, confirmed: bool = False) -> Decision:
    """Nobles at a port (inside or in the open) go aboard a ship in that port; judged
    for the ship's faction (R14), within the ship's capacity."""
    ship = _ship(state, cmd.ship)
    if not ship.in_port:
        raise invalid(f"{name(state, ship.id)} is at sea: nobles embark only in a port", unit=ship.id)
    if not cmd.nobles:
        raise invalid("an embarkation needs at least one noble", unit=ship.id)
    for n in cmd.nobles:
        noble = state.nobles.get(n)
        if noble is None:
            raise invalid(f"there is no noble {n!r}", unit=n)
        if noble.aboard is not None or noble.place != ship.place:
            raise invalid(f"{name(state, n)} is not at {name(state, ship.place)}", unit=n, place=ship.place)
    check = check_order(state, cmd.by, (ship.id, *cmd.nobles), MOVEMENT, confirmed=confirmed)
    port = state.board.places[ship.place]
    rule = judge_all(state, port, (ship.id,), ids.EMBARK, "take passengers aboard at", by=cmd.by)
    load = carried(state, ship.id) + sum(potential(state, n) for n in cmd.nobles)
    if load > ship.capacity:
        raise Refusal(
            ids.SHIP_CAPACITY,
            f"{names(state, list(cmd.nobles))} may not embark on {name(state, ship.id)}: it carries at most "
            f"{ship.capacity} troops and would carry {load} ({ids.SHIP_CAPACITY})",
            unit=ship.id,
            place=port.id,
        )
    check_sealed(state, cmd.nobles, None, False)
    # the nobles leave their armies (R17); the ship stays in its fleet (R24)
    leaving = tuple(u for u in check.leaving if u != ship.id)
    leaving += tuple(n for n in cmd.nobles if n in state.army_of)
    check = OrderCheck(check.units, check.awaiting, leaving)
    return finish(
        state,
        cmd.by,
        check,
        MOVEMENT,
        [ev.Embarked(ship.id, tuple(cmd.nobles))],
        rule=rule,
        explanation=f"{names(state, list(cmd.nobles))} {'embarks' if len(cmd.nobles) == 1 else 'embark'} "
        f"on {name(state, ship.id)} at {port.name} ({rule})",
        unit=ship.id,
        place=port.id,
        request=cmd.id,
    )


def decide_disembark(state: GameState, cmd: Disembark, confirmed: bool = False) -> Decision:
    """Passengers land at a port, from inside it or from a sea zone it borders (R4);
    each judged for its own faction; at a town held by a non-allied faction the landing
    is accepted only as a siege attempt (R3)."""
    ship = _ship(state, cmd.ship)
    port = require_place(state, cmd.port)
    if not port.is_port:
        raise invalid(f"{port.name} is not a port", unit=ship.id, place=port.id)
    if ship.in_port:
        if ship.place != port.id:
            raise invalid(
                f"{name(state, ship.id)} is in {name(state, ship.place)}, not {port.name}", unit=ship.id
            )
    elif ship.place not in port.seas:
        raise invalid(f"{port.name} does not border {name(state, ship.place)}", unit=ship.id, place=port.id)
    if not cmd.nobles:
        raise invalid("a landing needs at least one noble", unit=ship.id)
    for n in cmd.nobles:
        if n not in ship.passengers:
            raise invalid(f"{name(state, n)} is not aboard {name(state, ship.id)}", unit=n)
    check = check_order(state, cmd.by, (ship.id, *cmd.nobles), MOVEMENT, confirmed=confirmed)
    # a landing does not take the ship out of its fleet (R24: its senior officer is chosen again)
    check = OrderCheck(check.units, check.awaiting, tuple(u for u in check.leaving if u != ship.id))
    nobles = tuple(cmd.nobles)
    siege_only = False
    rule: str | None = None
    others = {state.nobles[n].faction for n in nobles} - {cmd.by}
    for n in own_first(state, nobles, cmd.by):
        v = judge(state, port, state.nobles[n].faction, ids.DISEMBARK, enter=cmd.enter)
        if not v.ok:
            secret = state.nobles[n].faction != cmd.by and len(others) > 1  # as in judge_all
            raise Refusal(
                v.rule or ids.ORDER_INVALID,
                f"{names(state, list(nobles)) if secret else name(state, n)} may not land inside {port.name}: "
                f"{f'{port.name} is closed to one of their factions' if secret else v.reason} ({v.rule})",
                unit=n,
                place=port.id,
            )
        siege_only = siege_only or v.siege_only
        if rule is None or v.rule == ids.LOC_PERMISSION:
            rule = v.rule
    if siege_only:  # R3, R25: the siege is the nobles' combat order, so ALLY.5 applies (R19)
        check_order(state, cmd.by, nobles, COMBAT, confirmed=confirmed)
    inside = cmd.enter and not siege_only
    if inside:
        check_capacity(state, port, nobles)
        check_sealed(state, nobles, port.id, True)
    effects: list[ev.Event] = [ev.Landed(ship.id, nobles, port.id, inside)]
    if siege_only:
        defenders = siege_checks(state, cmd.by, nobles, port)
        if state.phased:  # SIEGE.strength: the landing nobles lay a siege only if strong enough
            laid, laying = begin_siege(state, nobles, port)
            effects += [*laid, *siege_reveal(state, laying, port, defenders)]
        else:
            effects.append(
                ev.CombatDeclared("siege", cmd.by, nobles, port.id, None, defenders, combat_id(state, cmd.id))
            )
            effects += siege_reveal(state, nobles, port, defenders)
        explanation = (
            f"{names(state, list(nobles))} {'lands' if len(nobles) == 1 else 'land'} at {port.name}, "
            "which is occupied by a faction not allied with "
            f"them: the landing is accepted only as an attempt to lay siege ({rule})"
        )
    else:
        where = f"inside {port.name}" if inside else f"in the open at {port.name}"
        verb = "lands" if len(nobles) == 1 else "land"
        explanation = f"{names(state, list(nobles))} {verb} {where} from {name(state, ship.id)} ({rule})"
    decision = finish(
        state,
        cmd.by,
        check,
        MOVEMENT,
        effects,
        rule=rule,
        explanation=explanation,
        unit=ship.id,
        place=port.id,
        request=cmd.id,
        siege=siege_only,
    )
    if siege_only:
        combat = tuple(ev.OrderGiven(n, COMBAT, state.turn, cmd.by) for n in nobles)
        decision = Decision(
            Result.ACCEPTED,
            decision.rule,
            decision.explanation,
            decision.events + combat,
            unit=decision.unit,
            place=decision.place,
            siege=True,
            request=decision.request,
        )
    return decision


def decide_storm(state: GameState, cmd: Storm) -> Decision:
    """The GM drives a ship by storm into any port."""
    ship = _ship(state, cmd.ship)
    port = require_place(state, cmd.into)
    if not port.is_port:
        raise invalid(f"{port.name} is not a port", unit=ship.id, place=port.id)
    return Decision(
        Result.ACCEPTED,
        ids.GM_ACTION,
        f"a storm drives {name(state, ship.id)} into {port.name}",
        (ev.ShipMoved(ship.id, port.id, True, True, (ship.place, port.id)),),
        unit=ship.id,
        place=port.id,
    )

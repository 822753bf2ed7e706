"""``apply(state, event)``: the only way a state changes; ``replay`` folds a log."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from . import events as ev
from .chance import advance
from .frozen import FrozenDict
from .state import (
    Alliance,
    Army,
    Combat,
    CoolingOff,
    Declaration,
    Defence,
    GameState,
    Noble,
    OrderRecord,
    Permission,
    RandomSource,
    Request,
    Ship,
)

Handler = Callable[[GameState, Any], dict[str, Any]]
_HANDLERS: dict[type[ev.Event], Handler] = {}


def on(cls: type[ev.Event]) -> Callable[[Handler], Handler]:
    """Register ``apply``'s rule for events of ``cls``."""

    def register(fn: Handler) -> Handler:
        _HANDLERS[cls] = fn
        return fn

    return register


def apply(state: GameState, event: ev.Event) -> GameState:
    """The state after ``event``. Pure: the same state and event give the same result."""
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise TypeError(f"no apply rule for event {type(event).__name__}")
    changes = handler(state, event)
    changes["seq"] = state.seq + 1
    return state.evolve(**changes)


def replay(initial: GameState, events: Iterable[ev.Event]) -> GameState:
    """Fold ``events`` over ``initial``."""
    state = initial
    for e in events:
        state = apply(state, e)
    return state


def _with_noble(state: GameState, noble: Noble) -> FrozenDict[str, Noble]:
    return state.nobles.set(noble.id, noble)


@on(ev.NobleMoved)
def _noble_moved(state: GameState, e: ev.NobleMoved) -> dict[str, Any]:
    n = state.nobles[e.noble]
    return {"nobles": _with_noble(state, Noble(n.id, n.faction, n.troops, n.awards, e.place, e.inside, None))}


def off_the_map(state: GameState, noble_id: str) -> dict[str, Any]:
    """Take a noble off the map: out of his ship, his escorted heirs left where he was."""
    n = state.nobles[noble_id]
    where, inside = (n.place, n.inside)
    ships = state.ships
    if n.aboard is not None:
        ship = ships[n.aboard]
        where, inside = ship.place, False
        ships = ships.set(
            ship.id, replace(ship, passengers=tuple(p for p in ship.passengers if p != noble_id))
        )
    heirs = state.heirs.set_many(
        {
            h.id: replace(h, with_noble=None, place=where, inside=inside)
            for h in state.heirs.values()
            if h.with_noble == noble_id
        }
    )
    defences = tuple(d for d in state.defences if noble_id not in (d.unit, d.with_))
    return {"ships": ships, "heirs": heirs, "defences": defences}


@on(ev.NobleKilled)
def _noble_killed(state: GameState, e: ev.NobleKilled) -> dict[str, Any]:
    n = state.nobles[e.noble]
    changes = off_the_map(state, e.noble)
    heirs = changes["heirs"]
    changes["heirs"] = heirs.without(*e.heirs_dead)
    changes["nobles"] = state.nobles.without(e.noble)
    changes["chancery"] = (*state.chancery, *n.awards)
    return changes


@on(ev.NobleCaptured)
def _noble_captured(state: GameState, e: ev.NobleCaptured) -> dict[str, Any]:
    n = state.nobles[e.noble]
    changes = off_the_map(state, e.noble)
    changes["nobles"] = _with_noble(state, replace(n, place=None, inside=False, aboard=None, captive_of=e.by))
    return changes


@on(ev.NobleReleased)
def _noble_released(state: GameState, e: ev.NobleReleased) -> dict[str, Any]:
    n = state.nobles[e.noble]
    return {
        "nobles": _with_noble(state, replace(n, place=e.place, inside=e.inside, aboard=None, captive_of=None)),
        "captivity": state.captivity.without(e.noble),
    }


@on(ev.HeirMoved)
def _heir_moved(state: GameState, e: ev.HeirMoved) -> dict[str, Any]:
    h = state.heirs[e.heir]
    return {
        "heirs": state.heirs.set(h.id, replace(h, with_noble=e.with_noble, place=e.place, inside=e.inside))
    }


@on(ev.CombatResolved)
def _combat_resolved(state: GameState, e: ev.CombatResolved) -> dict[str, Any]:
    return {"combats": tuple(c for c in state.combats if c.id != e.combat)}


@on(ev.OrderGiven)
def _order_given(state: GameState, e: ev.OrderGiven) -> dict[str, Any]:
    rec = OrderRecord(e.unit, e.order_kind, e.turn_of, e.by)
    if rec in state.orders:
        return {}
    return {"orders": (*state.orders, rec)}


@on(ev.Embarked)
def _embarked(state: GameState, e: ev.Embarked) -> dict[str, Any]:
    ship = state.ships[e.ship]
    nobles = dict(state.nobles)
    for nid in e.nobles:
        n = nobles[nid]
        nobles[nid] = Noble(n.id, n.faction, n.troops, n.awards, None, False, ship.id)
    passengers = (*ship.passengers, *(x for x in e.nobles if x not in ship.passengers))
    return {
        "nobles": FrozenDict(nobles),
        "ships": state.ships.set(ship.id, _ship(ship, passengers=passengers)),
    }


def _ship(s: Ship, **changes: Any) -> Ship:
    return replace(s, **changes)


@on(ev.Landed)
def _landed(state: GameState, e: ev.Landed) -> dict[str, Any]:
    ship = state.ships[e.ship]
    nobles = dict(state.nobles)
    for nid in e.nobles:
        n = nobles[nid]
        nobles[nid] = Noble(n.id, n.faction, n.troops, n.awards, e.place, e.inside, None)
    passengers = tuple(x for x in ship.passengers if x not in e.nobles)
    return {
        "nobles": FrozenDict(nobles),
        "ships": state.ships.set(ship.id, _ship(ship, passengers=passengers)),
    }


@on(ev.ShipMoved)
def _ship_moved(state: GameState, e: ev.ShipMoved) -> dict[str, Any]:
    ship = state.ships[e.ship]
    moved = _ship(ship, place=e.place, in_port=e.in_port, forced=e.forced)
    return {"ships": state.ships.set(ship.id, moved)}


@on(ev.ControlSet)
def _control_set(state: GameState, e: ev.ControlSet) -> dict[str, Any]:
    control = state.control.set(e.place, e.faction) if e.faction else state.control.without(e.place)
    permissions = tuple(p for p in state.permissions if p.place != e.place or p.by == e.faction)
    changes: dict[str, Any] = {"control": control, "permissions": permissions}
    if e.place in state.conquests:  # control won by a siege is now someone else's doing
        changes["conquests"] = state.conquests.without(e.place)
    return changes


@on(ev.PermissionGranted)
def _granted(state: GameState, e: ev.PermissionGranted) -> dict[str, Any]:
    kept: list[Permission] = []
    aspects = set(e.aspects)
    for p in state.permissions:
        if (p.by, p.to, p.place) == (e.by, e.to, e.place):
            aspects.update(p.aspects)
        else:
            kept.append(p)
    kept.append(Permission(e.by, e.to, e.place, tuple(sorted(aspects))))
    return {"permissions": tuple(kept)}


@on(ev.PermissionRevoked)
def _revoked(state: GameState, e: ev.PermissionRevoked) -> dict[str, Any]:
    kept: list[Permission] = []
    for p in state.permissions:
        if (p.by, p.to, p.place) == (e.by, e.to, e.place):
            left = tuple(a for a in p.aspects if e.aspects and a not in e.aspects)
            if left:
                kept.append(Permission(p.by, p.to, p.place, left))
        else:
            kept.append(p)
    return {"permissions": tuple(kept)}


@on(ev.CombatDeclared)
def _combat(state: GameState, e: ev.CombatDeclared) -> dict[str, Any]:
    cid = e.id or f"c{state.seq + 1}"  # older logs numbered combats by the log's length
    c = Combat(e.combat_kind, cid, e.by, e.attackers, e.place, e.target, e.defenders, state.round)
    return {"combats": (*state.combats, c)}


@on(ev.DefenceDeclared)
def _defence(state: GameState, e: ev.DefenceDeclared) -> dict[str, Any]:
    kept = tuple(d for d in state.defences if d.unit != e.unit)
    return {"defences": (*kept, Defence(e.unit, e.with_))}


@on(ev.AllianceDeclared)
def _declared(state: GameState, e: ev.AllianceDeclared) -> dict[str, Any]:
    d = Declaration(e.alliance, e.by, tuple(sorted(e.invited)))
    return {"declarations": state.declarations.set(e.alliance, d)}


@on(ev.AllianceAnswered)
def _answered(state: GameState, e: ev.AllianceAnswered) -> dict[str, Any]:
    d = state.declarations[e.alliance]
    if e.confirm:
        d = Declaration(d.id, d.by, d.invited, tuple(sorted({*d.confirmed, e.faction})), d.declined)
    else:
        d = Declaration(d.id, d.by, d.invited, d.confirmed, tuple(sorted({*d.declined, e.faction})))
    return {"declarations": state.declarations.set(e.alliance, d)}


@on(ev.AllianceFormed)
def _formed(state: GameState, e: ev.AllianceFormed) -> dict[str, Any]:
    a = Alliance(e.alliance, tuple(sorted(e.members)), e.public, state.seq + 1)
    return {"alliances": state.alliances.set(e.alliance, a)}


@on(ev.DeclarationEnded)
def _declaration_ended(state: GameState, e: ev.DeclarationEnded) -> dict[str, Any]:
    return {"declarations": state.declarations.without(e.alliance)}


@on(ev.AllianceLeft)
def _left(state: GameState, e: ev.AllianceLeft) -> dict[str, Any]:
    a = state.alliances[e.alliance]
    rest = tuple(m for m in a.members if m != e.faction)
    alliances = (
        state.alliances.set(a.id, Alliance(a.id, rest, a.public, a.formed_seq))
        if len(rest) >= 2
        else state.alliances.without(a.id)
    )
    cooling = CoolingOff(e.faction, rest, e.until_round, state.seq + 1, a.public)
    return {"alliances": alliances, "cooling_off": (*state.cooling_off, cooling)}


@on(ev.AlliancesRevealed)
def _revealed(state: GameState, e: ev.AlliancesRevealed) -> dict[str, Any]:
    changed = {
        aid: Alliance(a.id, a.members, True, a.formed_seq)
        for aid in e.alliances
        if (a := state.alliances.get(aid)) is not None
    }
    return {"alliances": state.alliances.set_many(changed)}


@on(ev.RequestOpened)
def _request_opened(state: GameState, e: ev.RequestOpened) -> dict[str, Any]:
    r = Request(e.request, e.rule, e.by, e.command, tuple(sorted(e.awaiting)), state.turn, state.round)
    return {"requests": state.requests.set(e.request, r)}


@on(ev.RequestConfirmed)
def _request_confirmed(state: GameState, e: ev.RequestConfirmed) -> dict[str, Any]:
    r = state.requests[e.request]
    left = tuple(f for f in r.awaiting if f != e.faction)
    return {
        "requests": state.requests.set(r.id, Request(r.id, r.rule, r.by, r.command, left, r.turn_of, r.round))
    }


@on(ev.RequestClosed)
def _request_closed(state: GameState, e: ev.RequestClosed) -> dict[str, Any]:
    return {
        "requests": state.requests.without(e.request),
        "closed": state.closed.set(e.request, e.rule),
    }


@on(ev.ArmySet)
def _army_set(state: GameState, e: ev.ArmySet) -> dict[str, Any]:
    army = Army(e.army, tuple(sorted(e.units)), e.fleet, e.senior, e.senior_rule, e.explanation)
    return {"armies": state.armies.set(e.army, army)}


@on(ev.ArmyDisbanded)
def _army_disbanded(state: GameState, e: ev.ArmyDisbanded) -> dict[str, Any]:
    return {"armies": state.armies.without(e.army)}


@on(ev.RandomDrawn)
def _drawn(state: GameState, e: ev.RandomDrawn) -> dict[str, Any]:
    return {"rng": advance(state.rng)}


@on(ev.RandomInjected)
def _injected(state: GameState, e: ev.RandomInjected) -> dict[str, Any]:
    r = state.rng
    return {"rng": RandomSource(r.seed, r.counter, (*r.injected, *e.values))}


@on(ev.SeedCommitted)
def _seed_committed(state: GameState, e: ev.SeedCommitted) -> dict[str, Any]:
    return {}


@on(ev.SeedRevealed)
def _seed_revealed(state: GameState, e: ev.SeedRevealed) -> dict[str, Any]:
    return {"seed_revealed": True}


@on(ev.TurnEnded)
def _turn_ended(state: GameState, e: ev.TurnEnded) -> dict[str, Any]:
    new_round, nxt = state.next_turn_index()
    order = state.turn_order
    cooling = tuple(
        c
        for c in state.cooling_off
        if (new_round, nxt) < (c.until_round, order.index(c.faction) if c.faction in order else 0)
    )
    changes: dict[str, Any] = {"turn_index": nxt, "round": new_round, "cooling_off": cooling}
    if new_round != state.round:
        changes.update(orders=(), defences=())
    if state.phased:  # the next faction's turn begins with its event phase
        changes.update(phase="event", event_flags=())
    return changes


from . import apply_crown, apply_full, apply_parliament  # noqa: E402, F401  (register the full game's events)

"""Who may order what, and which orders: ``orderable_units(state, faction)`` and
``candidate_orders(state, unit, by)``, for the web map, the CLI, the API and bots.

Both are built on ``decide`` itself, so they can never disagree with it: a candidate's
verdict *is* the verdict ``decide`` gives, and a unit is orderable exactly when one of
its candidate orders is accepted (or waits for an ally's consent, ALLY.4). The unit
orders are the movement and combat orders of R11: moving (by road, or one
cross-country link, stopping in the open or going inside), entering, leaving, laying
siege, attacking, embarking, sailing and landing. Forming an army (ALLY.6) and
choosing to defend (R12) are not orders to one unit and are not listed.

>>> from kingmaker.rules.candidates import orderable_units, candidate_orders
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from . import commands as c
from . import ids
from .decide import decide
from .decision import Refusal, Result
from .orders import check_order
from .queries import land_routes, sea_routes
from .state import COMBAT, MOVEMENT, GameState
from .units import ARMY, FLEET, NOBLE, SHIP, commander, owner, unit_kind, unit_place

MOVE = "move"
MOVE_ENTER = "move_enter"
ENTER = "enter"
LEAVE = "leave"
SIEGE = "siege"
ATTACK = "attack"
EMBARK = "embark"
SAIL = "sail"
LAND = "land"
LAND_ENTER = "land_enter"
ACTIONS = (MOVE, MOVE_ENTER, ENTER, LEAVE, SIEGE, ATTACK, EMBARK, SAIL, LAND, LAND_ENTER)


@dataclass(frozen=True, slots=True)
class Candidate:
    """One order ``by`` could give the unit now, with ``decide``'s verdict on it.

    ``target``: the destination (move, move_enter, sail, land, land_enter), the unit's
    own place (enter, leave, siege), the ship boarded (a noble's embark), the noble
    taken aboard (a ship's embark), or the unit attacked. ``path``: the route of a
    move or voyage, from where the unit is."""

    action: str
    target: str
    command: c.Command
    result: Result
    rule: str | None
    explanation: str
    path: tuple[str, ...] = ()

    @property
    def allowed(self) -> bool:
        """Accepted now, or accepted once the unit's owner confirms (ALLY.4)."""
        return self.result is not Result.REFUSED


@dataclass(frozen=True, slots=True)
class OrderableUnit:
    """A unit ``faction`` may order now. ``faction`` here is the unit's own faction
    (an army's or fleet's: its commander's); ``allied``: an order to it waits for the
    owner's consent (ALLY.4)."""

    id: str
    kind: str
    faction: str | None
    place: str | None
    inside: bool
    allied: bool


def candidate_orders(state: GameState, unit: str, by: str) -> tuple[Candidate, ...]:
    """Every movement and combat order ``by`` could give ``unit`` here and now, each
    with ``decide``'s verdict (orders the rules do not recognise at all, such as an
    attack on a unit standing on the other side of the walls, are left out)."""
    return tuple(_judged(state, unit, by))


def candidate_command(state: GameState, unit: str, by: str, action: str, target: str) -> c.Command | None:
    """The command of the order ``action`` on ``target`` among the unit's candidate orders,
    not judged: an order chosen from the list is decided once, when it is submitted.
    None when the list has no such order."""
    for act, tgt, _path, command in _commands(state, unit, by):
        if act == action and tgt == target:
            return command
    return None


def why_not_orderable(state: GameState, unit: str, by: str) -> Refusal | None:
    """Why ``by`` may give ``unit`` no movement or combat order at all now (the turn, a
    foreign unit, ALLY.4/5/6/8), or None when it may give it some."""
    first: Refusal | None = None
    for kind in (MOVEMENT, COMBAT):
        try:
            check_order(state, by, (unit,), kind)
        except Refusal as r:
            first = first or r
            continue
        return None
    return first


def orderable_units(state: GameState, faction: str) -> tuple[OrderableUnit, ...]:
    """The units ``faction`` may order now: those with at least one candidate order
    ``decide`` accepts (its own units on its turn, an ally's units under ALLY.4, the
    armies and fleets it commands under ALLY.6, a member of another's army under
    ALLY.8)."""
    out: list[OrderableUnit] = []
    for uid in _considered(state):
        if not _may_be_ordered(state, uid, faction):
            continue
        if any(cand.allowed for cand in _judged(state, uid, faction)):
            out.append(_describe(state, uid, faction))
    return tuple(out)


def _considered(state: GameState) -> Iterator[str]:
    """Every unit that could take an order at all: armies and fleets, nobles on the
    board (not captives, not passengers) and ships."""
    yield from sorted(state.armies)
    for n in sorted(state.nobles.values(), key=lambda n: n.id):
        if n.place is not None and n.aboard is None and n.captive_of is None:
            yield n.id
    yield from sorted(state.ships)


def _may_be_ordered(state: GameState, uid: str, by: str) -> bool:
    """The ordering checks (turn, foreign units, ALLY.4/6/8/5) for a movement or a
    combat order. Every unit order runs them with at least this unit, so a unit that
    fails both can take no order (a quick way past most units)."""
    return why_not_orderable(state, uid, by) is None


def _describe(state: GameState, uid: str, by: str) -> OrderableUnit:
    kind = unit_kind(state, uid)
    assert kind is not None
    if kind in (ARMY, FLEET):
        members = state.armies[uid].units
        chief = commander(state, uid)
        faction = chief if chief is not None else owner(state, members[0])
        allied = chief is None and any(owner(state, m) != by for m in members)
        first = members[0]
    else:
        faction = owner(state, uid)
        allied = faction != by
        first = uid
    inside = state.nobles[first].inside if kind in (NOBLE, ARMY) else state.ships[first].in_port
    return OrderableUnit(uid, kind, faction, unit_place(state, uid), inside, allied)


def _judged(state: GameState, unit: str, by: str) -> Iterator[Candidate]:
    for action, target, path, command in _commands(state, unit, by):
        d = decide(state, command)
        if d.refused and d.rule == ids.ORDER_INVALID:
            continue
        yield Candidate(action, target, command, d.result, d.rule, d.explanation, path)


def _commands(state: GameState, unit: str, by: str) -> Iterator[tuple[str, str, tuple[str, ...], c.Command]]:
    """The unit orders to judge, cheapest first (so a search for the first allowed one
    stops early): enter, leave and siege where it stands, attacks, embarking, then moves."""
    kind = unit_kind(state, unit)
    if kind in (NOBLE, ARMY):
        yield from _land_commands(state, unit, by, kind)
    elif kind in (SHIP, FLEET):
        yield from _sea_commands(state, unit, by, kind)


def _land_commands(
    state: GameState, unit: str, by: str, kind: str
) -> Iterator[tuple[str, str, tuple[str, ...], c.Command]]:
    members = (unit,) if kind == NOBLE else state.armies[unit].units
    first = state.nobles[members[0]]
    here = first.place
    if here is None or first.aboard is not None or first.captive_of is not None:
        return
    place = state.board.places[here]
    if first.inside:
        yield LEAVE, here, (here,), c.Leave(by, unit)
    elif place.kind.is_location:
        yield ENTER, here, (here,), c.Enter(by, unit)
        yield SIEGE, here, (here,), c.Siege(by, unit, here)
    own = {state.nobles[m].faction for m in members}
    aimed: set[str] = set()
    for n in sorted(state.nobles.values(), key=lambda n: n.id):
        if n.id in members or n.place != here or n.inside != first.inside:
            continue
        if n.aboard is not None or n.captive_of is not None or n.faction in own:
            continue
        target = state.army_of.get(n.id, n.id)
        if target not in aimed:
            aimed.add(target)
            yield ATTACK, target, (here,), c.Attack(by, unit, target)
    if kind == NOBLE:
        for s in sorted(state.ships.values(), key=lambda s: s.id):
            if s.in_port and s.place == here:
                yield EMBARK, s.id, (here,), c.Embark(by, s.id, (unit,))
    for dest in land_routes(state, members, here):
        if len(dest.path) == 1:
            continue  # where it stands: enter and siege above
        to = dest.place
        if dest.by_road:
            yield MOVE, to, dest.path, c.MoveRoad(by, unit, dest.path, False)
        else:
            yield MOVE, to, dest.path, c.Move(by, unit, to, False)
        if state.board.places[to].kind.is_location:
            if dest.by_road:
                yield MOVE_ENTER, to, dest.path, c.MoveRoad(by, unit, dest.path, True)
            else:
                yield MOVE_ENTER, to, dest.path, c.Move(by, unit, to, True)


def _sea_commands(
    state: GameState, unit: str, by: str, kind: str
) -> Iterator[tuple[str, str, tuple[str, ...], c.Command]]:
    ships = (unit,) if kind == SHIP else state.armies[unit].units
    lead = state.ships[ships[0]]
    board = state.board
    passengers = lead.passengers
    if kind == SHIP and passengers:
        ports = [lead.place] if lead.in_port else sorted(board.ports_of_sea.get(lead.place, ()))
        for port in ports:
            for enter, action in ((False, LAND), (True, LAND_ENTER)):
                yield action, port, (lead.place, port), c.Disembark(by, unit, passengers, port, enter)
    if kind == SHIP and lead.in_port:
        for n in sorted(state.nobles.values(), key=lambda n: n.id):
            if n.place == lead.place and n.aboard is None and n.captive_of is None:
                yield EMBARK, n.id, (lead.place,), c.Embark(by, unit, (n.id,))
    for to, path in sea_routes(state, lead):
        yield SAIL, to, path, c.Sail(by, unit, to, path[1:-1])

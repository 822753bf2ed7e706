"""Storms at sea (EVENT.storm, F18, FULL_GAME §4): the ships at sea in a storm's zones are
driven into ports bordering their zones, each chosen by its ship's faction
(``choose_port``) or, at the deadline, at random; they are marked ``forced``
(LOC.*.forced_leave) and keep their passengers.

Readings of this project (docs/rulings.md, "The full game"): a ship whose zone borders
one port is driven into it at once; a ship whose zone borders none rides the storm out
at sea; a fleet whose ships end in different places breaks up (each ship the storm moved
leaves it, R17); a storm still waiting when the turn ends is settled at random, as at
its deadline.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import events as ev
from . import ids
from .apply import replay
from .armies import settle_armies
from .chance import draw
from .commands import ChoosePort, Expire
from .context import invalid
from .decision import Decision, Refusal, Result
from .outcomes import decide_expire as decide_request_expiry
from .state import MOVEMENT, GameState, StormRequest
from .units import name, names


@dataclass(frozen=True, slots=True)
class StormOutcome:
    """What a storm card does at its draw: its events, a clause for the sentence, and
    the factions whose port choices it waits for (none: settled at once)."""

    events: list[ev.Event]
    text: str
    awaiting: tuple[str, ...] = ()


def _faction(state: GameState, ship: str) -> str | None:
    return state.ships[ship].faction


def awaiting(state: GameState, storm: StormRequest) -> tuple[str, ...]:
    """The factions whose ships still wait for a port."""
    return tuple(sorted({f for s in storm.waiting if (f := _faction(state, s)) is not None}))


def storm(state: GameState, seas: tuple[str, ...], storm_id: str) -> StormOutcome:
    """The storm of a card over ``seas``: the ships at sea there, each with the ports its
    zone borders (sorted by id)."""
    caught = sorted(s.id for s in state.ships.values() if not s.in_port and s.place in seas)
    zones = names(state, list(seas))
    if not caught:
        return StormOutcome([], f"a storm sweeps {zones}, where no ship is at sea")
    driven = [s for s in caught if state.board.ports_of_sea.get(state.ships[s].place)]
    riding = [s for s in caught if s not in driven]
    rides = (
        f"; {names(state, riding)} find{'s' if len(riding) == 1 else ''} no port and "
        f"ride{'s' if len(riding) == 1 else ''} it out"
        if riding
        else ""
    )
    if not driven:
        return StormOutcome([], f"a storm sweeps {zones}{rides}")
    ports = [state.board.ports_of_sea[state.ships[s].place] for s in driven]
    events: list[ev.Event] = [ev.StormBegan(storm_id, tuple(driven), tuple(ports))]
    events += [ev.PortChosen(storm_id, s, p[0]) for s, p in zip(driven, ports, strict=True) if len(p) == 1]
    s1 = replay(state, events)
    request = s1.storms[storm_id]
    who = awaiting(s1, request)
    if who:
        text = (
            f"a storm in {zones} drives {names(state, driven)} to port{rides}; "
            f"{' and '.join(who)} choose{'s' if len(who) == 1 else ''} the port{'s' if len(request.waiting) > 1 else ''}"
        )
        return StormOutcome(events, text, who)
    settled, where = settle(s1, storm_id)
    return StormOutcome(events + settled, f"a storm in {zones} drives {where}{rides}")


def settle(state: GameState, storm_id: str) -> tuple[list[ev.Event], str]:
    """The storm settled: a port drawn for each ship still waiting (one value per ship,
    ships sorted by id, over its ports sorted by id: FULL_GAME §4), then every ship
    driven into its port, fleets broken up where their ships part; and the words."""
    request = state.storms[storm_id]
    events: list[ev.Event] = []
    rng = state.rng
    chosen = dict(request.chosen)
    for ship in sorted(request.waiting):
        ports = request.ports[ship]
        pick, rng = draw(rng, len(ports))
        events += [
            ev.RandomDrawn(len(ports), pick, f"storm port of {ship}"),
            ev.PortChosen(storm_id, ship, ports[pick]),
        ]
        chosen[ship] = ports[pick]
    moves: list[ev.Event] = [
        ev.ShipMoved(s, chosen[s], True, True, (state.ships[s].place, chosen[s])) for s in request.ships
    ]
    after = replay(state, [*events, *moves])
    parting = _parting(after, request.ships)
    events += moves
    events += settle_armies(replay(state, events), [], parting)
    events.append(ev.StormSettled(storm_id))
    where = "; ".join(f"{name(state, s)} into {name(state, chosen[s])}" for s in request.ships)
    return events, where


def _parting(state: GameState, ships: tuple[str, ...]) -> tuple[str, ...]:
    """Ships the storm moved whose fleet no longer lies in one place."""
    out: list[str] = []
    for army in state.armies.values():
        if not army.fleet or not set(army.units) & set(ships):
            continue
        if len({state.ships[u].place for u in army.units}) > 1:
            out += [u for u in army.units if u in ships]
    return tuple(sorted(out))


def storm_of(state: GameState, ship: str) -> StormRequest | None:
    return next((s for s in state.storms.values() if ship in s.ships), None)


def _after_storm(state: GameState, events: list[ev.Event]) -> list[ev.Event]:
    """The turn moves on to its movement phase once no storm waits (EVENT.draw)."""
    after = replay(state, events)
    if state.phase == "event" and not after.storms:
        return [*events, ev.PhaseBegan(MOVEMENT)]
    return events


def decide_choose_port(state: GameState, cmd: ChoosePort) -> Decision:
    """A ship's faction chooses the port a storm drives it into (EVENT.storm)."""
    if cmd.ship not in state.ships:
        raise invalid(f"there is no ship {cmd.ship!r}", unit=cmd.ship)
    request = storm_of(state, cmd.ship)
    ship = name(state, cmd.ship)
    if request is None:
        raise invalid(f"no storm is driving {ship} to port", unit=cmd.ship)
    owner = _faction(state, cmd.ship)
    if owner != cmd.by:
        raise Refusal(
            ids.EVENT_STORM,
            f"{cmd.by} may not choose {ship}'s port: the ship's own faction ({owner or 'none'}) chooses it "
            f"({ids.EVENT_STORM})",
            unit=cmd.ship,
        )
    if cmd.ship not in request.waiting:
        raise Refusal(
            ids.EVENT_STORM,
            f"{ship}'s port is already chosen: {name(state, request.chosen[cmd.ship])} ({ids.EVENT_STORM})",
            unit=cmd.ship,
        )
    ports = request.ports[cmd.ship]
    if cmd.port not in ports:
        raise Refusal(
            ids.EVENT_STORM,
            f"{ship} may not be driven into {name(state, cmd.port)}: its zone borders only "
            f"{names(state, list(ports))} ({ids.EVENT_STORM})",
            unit=cmd.ship,
            place=cmd.port,
        )
    events: list[ev.Event] = [ev.PortChosen(request.id, cmd.ship, cmd.port)]
    s1 = replay(state, events)
    left = s1.storms[request.id]
    if left.waiting and awaiting(s1, left):
        who = awaiting(s1, left)
        return Decision(
            Result.PENDING,
            ids.EVENT_STORM,
            f"{cmd.by} chooses {name(state, cmd.port)} for {ship}; the storm still waits for "
            f"{' and '.join(who)} ({ids.EVENT_STORM})",
            tuple(events),
            awaiting=who,
            unit=cmd.ship,
            place=cmd.port,
            request=request.id,
        )
    settled, where = settle(s1, request.id)
    return Decision(
        Result.ACCEPTED,
        ids.EVENT_STORM,
        f"{cmd.by} chooses {name(state, cmd.port)} for {ship}; the storm drives {where} ({ids.EVENT_STORM})",
        tuple(_after_storm(state, events + settled)),
        unit=cmd.ship,
        place=cmd.port,
        request=request.id,
    )


def decide_storm_deadline(state: GameState, cmd: Expire) -> Decision:
    """The storm's deadline passes (the GM's ``deadline``): a port is drawn at random
    for every ship still waiting (EVENT.storm, F18)."""
    request = state.storms[cmd.request]
    waiting = request.waiting
    settled, where = settle(state, request.id)
    late = (
        f"no port was chosen for {names(state, list(waiting))}, so one is drawn at random; "
        if waiting
        else ""
    )
    return Decision(
        Result.ACCEPTED,
        ids.EVENT_STORM,
        f"the storm's deadline passes: {late}the storm drives {where} ({ids.EVENT_STORM})",
        tuple(_after_storm(state, settled)),
        request=request.id,
    )


def settle_all(state: GameState) -> tuple[list[ev.Event], str]:
    """Every storm still waiting settled at random (the turn ends: every deadline with it)."""
    events: list[ev.Event] = []
    words: list[str] = []
    for sid in sorted(state.storms):
        more, where = settle(replay(state, events), sid)
        events += more
        words.append(where)
    return events, "; ".join(words)


def decide_expire(state: GameState, cmd: Expire) -> Decision:
    """A deadline passes (the rules' ``Expire``): a storm's is settled at random
    (EVENT.storm); any other request lapses (R15)."""
    if cmd.request in state.storms:
        return decide_storm_deadline(state, cmd)
    return decide_request_expiry(state, cmd)

"""Voyages for the players with aims (``simulation_aims``), to and from the places only
ships reach (Ireland, Calais, the Isle of Man: places marked ``england: false``):

- ``homecoming``: a faction whose nobles are there sends one of its ships for them
  (its nobles inside an open town step out first: no ship enters a town port that holds
  a noble, R2), embarks them, sails back and lands them at an English port, escorts of
  heirs first (an heir abroad can be neither crowned, nor the last heir's victory, nor
  the King who summons Parliament: VICTORY.last_heir, PARL.summon.king);
- ``expedition``: a faction sends nobles by ship to an heir left alone there, lands
  them and (``simulation_aims``) captures him; ``land_strays`` lands the passengers no
  expedition wants.

Each returns the next step of the faction whose turn it is, one that ``decide`` takes,
or None.
"""

from __future__ import annotations

from .rules import commands as c
from .rules.potential import potential
from .rules.state import GameState, Noble, Ship
from .simulation import decided
from .simulation import destinations as legal_destinations
from .simulation_full import move_toward


def _takes(state: GameState, cmd: c.Command) -> bool:
    return not decided(state, cmd).refused


def _rid(state: GameState) -> str:
    return f"sea{state.seq:x}"


def _abroad(state: GameState, n: Noble) -> bool:
    return (
        n.place is not None
        and n.aboard is None
        and n.captive_of is None
        and state.board.places[n.place].offmap
    )


def _ships(state: GameState, f: str) -> list[Ship]:
    return [s for s in state.ships.values() if s.faction == f and s.id not in state.army_of]


def homecoming(state: GameState) -> c.Command | None:
    """The next step home for the faction whose turn it is, or None."""
    f = state.turn
    ships = _ships(state, f)
    if not ships:
        return None
    escorts = {h.with_noble for h in state.heirs.values() if h.with_noble}
    away = sorted(
        (n for n in state.nobles.values() if n.faction == f and _abroad(state, n)),
        key=lambda n: (n.id not in escorts, n.id),
    )
    for ship in ships:
        if ship.passengers and (
            (ship.in_port and state.board.places[ship.place].offmap) or escorts & set(ship.passengers)
        ):
            cmd = _bring_in(state, f, ship, away)
            if cmd is not None:
                return cmd
    if not away:
        return None
    places = list(dict.fromkeys(n.place for n in away if n.place))
    for ship in ships:
        if ship.passengers or not ship.in_port or ship.place not in places:
            continue
        cmd = _embark(state, f, ship, [n for n in away if n.place == ship.place])
        if cmd is not None:
            return cmd
    for n in away:  # out into the open, so that a ship may come into the port (R2)
        if n.inside and state.board.places[n.place or ""].kind.value in ("open_town", "unfortified_town"):
            cmd = c.Leave(f, state.army_of.get(n.id, n.id), _rid(state))
            if _takes(state, cmd):
                return cmd
    return _sail_to(state, f, [s for s in ships if not s.passengers], places)


def _sail_to(state: GameState, f: str, ships: list[Ship], places: list[str]) -> c.Command | None:
    """One of ``ships`` sails into the port of one of ``places``."""
    for ship in ships:
        if ship.in_port and ship.place in places:
            continue
        for w in legal_destinations(state, ship.id).waters:
            if w.port and w.enter and w.place in places:
                cmd = c.Sail(f, ship.id, w.place, w.path[1:-1], _rid(state))
                if _takes(state, cmd):
                    return cmd
    return None


def _embark(state: GameState, f: str, ship: Ship, here: list[Noble]) -> c.Command | None:
    """As many of ``here`` (in that order) as the ship carries go aboard."""
    room, going = ship.capacity, []
    for n in here:
        need = potential(state, n.id)
        if need <= room and n.id not in state.army_of:
            going.append(n.id)
            room -= need
    while going:
        cmd = c.Embark(f, ship.id, tuple(going), _rid(state))
        if _takes(state, cmd):
            return cmd
        going.pop()
    return None


def _bring_in(state: GameState, f: str, ship: Ship, away: list[Noble]) -> c.Command | None:
    """A ship with passengers: more of the faction's nobles at its port abroad go
    aboard; at an English port, or at sea by one, they land; abroad, it sails for home."""
    board = state.board
    mine = tuple(p for p in ship.passengers if state.nobles[p].faction == f)
    if not mine:
        return None
    if ship.in_port and board.places[ship.place].offmap:
        more = [n for n in away if n.place == ship.place]
        if more:
            cmd = _embark(state, f, ship, more)
            if cmd is not None:
                return cmd
    ports = [ship.place] if ship.in_port else list(board.ports_of_sea.get(ship.place, ()))
    for port in ports:
        if board.places[port].offmap:
            continue
        cmd = c.Disembark(f, ship.id, mine, port, False, _rid(state))
        if _takes(state, cmd):
            return cmd
    waters = legal_destinations(state, ship.id).waters
    home = [w for w in waters if w.port and w.enter and not board.places[w.place].offmap]
    zones = [
        w
        for w in waters
        if not w.port and any(not board.places[p].offmap for p in board.ports_of_sea.get(w.place, ()))
    ]
    for w in sorted(home, key=lambda w: len(w.path)) + sorted(zones, key=lambda w: len(w.path)):
        cmd = c.Sail(f, ship.id, w.place, w.path[1:-1], _rid(state))
        if _takes(state, cmd):
            return cmd
    return None


def land_strays(state: GameState) -> c.Command | None:
    """Passengers of the faction's ships who are going nowhere (no ``expedition`` wants
    them) land in England."""
    f = state.turn
    for ship in _ships(state, f):
        if ship.passengers and not (ship.in_port and state.board.places[ship.place].offmap):
            cmd = _bring_in(state, f, ship, [])
            if cmd is not None:
                return cmd
    return None


def expedition(state: GameState) -> c.Command | None:
    """The next step of an expedition to the first heir left alone abroad: passengers
    land there (in the open); an empty ship in a port takes the faction's nobles there
    aboard; else the faction's nearest noble walks to its ship's port."""
    f = state.turn
    board = state.board
    far = sorted(
        h.place
        for h in state.heirs.values()
        if h.with_noble is None and h.place and board.places[h.place].offmap
    )
    ships = _ships(state, f)
    if not far or not ships:
        return None
    goal = board.places[far[0]]
    for ship in ships:
        mine = tuple(p for p in ship.passengers if state.nobles[p].faction == f)
        if not mine:
            continue
        if ship.place == goal.id or (not ship.in_port and ship.place in goal.seas):
            cmd: c.Command = c.Disembark(f, ship.id, mine, goal.id, False, _rid(state))
            if _takes(state, cmd):
                return cmd
        for w in legal_destinations(state, ship.id).waters:
            if (w.place == goal.id and w.enter) or w.place in goal.seas:
                cmd = c.Sail(f, ship.id, w.place, w.path[1:-1], _rid(state))
                if _takes(state, cmd):
                    return cmd
        return None
    # not the escort of an heir: abroad he could be neither crowned nor win (VICTORY.last_heir)
    escorts = {h.with_noble for h in state.heirs.values() if h.with_noble}
    free = [
        n
        for n in state.nobles.values()
        if n.faction == f and n.captive_of is None and n.place and n.id not in escorts
    ]
    for ship in ships:
        if not ship.in_port or board.places[ship.place].offmap:
            continue
        cmd_ = _embark(state, f, ship, [n for n in free if n.place == ship.place])
        if cmd_ is not None:
            return cmd_
    for ship in ships:
        if not ship.in_port or board.places[ship.place].offmap:
            continue
        walkers = [n for n in free if not board.places[n.place or ""].offmap and n.id not in state.army_of]
        for n in walkers:
            move = move_toward(state, f, n.id, ship.place, _rid(state), enter=False)
            if move is not None and _takes(state, move):
                return move
    return None

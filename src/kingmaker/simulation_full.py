"""Random play of the full game (FULL_GAME), phase by phase: what the property tests,
the self-play of whole games and the benchmarks run. Not part of the rules core (it
uses :mod:`random`); every command it makes is judged by ``decide`` like any other, and
many are refused: random players try things.

In each turn: the GM draws the event (storms answered by the ships' factions, or settled
at their deadline); the faction to play moves its units and its allies' (some orders
waiting for consents, answered at once), captures heirs it finds unescorted, forms
armies, attacks and lays sieges; the GM resolves each battle and each siege due; captors
ransom, free or execute their captives; the GM ends the turn (the Crown draw and the
executions of the unransomed follow, as the rules say).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from .rules import commands as c
from .rules.apply import replay
from .rules.decide import decide
from .rules.queries import legal_destinations
from .rules.state import GameState
from .simulation import Played

Maker = Callable[[GameState], c.Command | None]


def _token(rnd: random.Random, prefix: str) -> str:
    return f"{prefix}{rnd.getrandbits(32):08x}"


class FullGamePlayer:
    """Draws commands for a game with phases (``state.phased``)."""

    def __init__(self, seed: int | str = 0, *, end_phase_weight: int = 4):
        self.rnd = random.Random(seed)
        self.end_phase_weight = end_phase_weight

    def command(self, state: GameState) -> c.Command:
        """One more command for ``state``: an answer to whatever waits first, else what
        the phase calls for."""
        for answer in (self._storm, self._answer_request, self._captives):
            cmd = answer(state)
            if cmd is not None and self.rnd.random() < 0.8:
                return cmd
        makers: dict[str, list[tuple[int, Maker]]] = {
            "event": [(1, lambda s: c.DrawEvent(c.GM))],
            "movement": [
                (14, self._move),
                (8, self._seek),
                (5, self._ships),
                (3, self._capture_heir),
                (2, self._form_army),
                (2, self._diplomacy),
                (self.end_phase_weight, self._end_phase),
            ],
            "combat": [
                (10, self._resolve),
                (6, self._fight),
                (self.end_phase_weight, self._end_phase),
            ],
            "crown": [(1, lambda s: c.EndTurn(c.GM))],
        }
        options = makers.get(state.phase, [(1, self._end_phase)])
        total = sum(w for w, _ in options)
        for _ in range(20):
            pick = self.rnd.uniform(0, total)
            for weight, make in options:
                pick -= weight
                if pick <= 0:
                    cmd = make(state)
                    if cmd is not None:
                        return cmd
                    break
        return self._end_phase(state)

    # -- what waits -------------------------------------------------------------------
    def _storm(self, state: GameState) -> c.Command | None:
        for storm in state.storms.values():
            for ship in storm.waiting:
                faction = state.ships[ship].faction
                ports = storm.ports.get(ship, ())
                if faction is not None and ports and self.rnd.random() < 0.85:
                    return c.ChoosePort(faction, ship, self.rnd.choice(ports))
            return c.Expire(c.GM, storm.id)
        return None

    def _answer_request(self, state: GameState) -> c.Command | None:
        waiting = [r for r in state.requests.values() if r.awaiting]
        if not waiting:
            return None
        r = self.rnd.choice(waiting)
        who = self.rnd.choice(r.awaiting)
        return c.Confirm(who, r.id) if self.rnd.random() < 0.7 else c.Reject(who, r.id)

    def _captives(self, state: GameState) -> c.Command | None:
        held = [n for n in state.nobles.values() if n.captive_of is not None]
        if not held:
            return None
        n = self.rnd.choice(held)
        captor, owner = n.captive_of, n.faction
        assert captor is not None
        roll = self.rnd.random()
        if roll < 0.4 and owner is not None:
            hand = state.hands.get(owner, ())
            cards = tuple(self.rnd.sample(hand, min(len(hand), self.rnd.choice([0, 1, 1, 2]))))
            give = (c.Consideration(owner, cards),) if cards else ()
            return c.Ransom(captor, _token(self.rnd, "ransom"), n.id, give)
        if roll < 0.6:
            return c.ReleaseCaptive(captor, n.id)
        if roll < 0.75:
            return c.Execute(captor, captive=n.id)
        return None

    # -- the movement phase ----------------------------------------------------------------
    def _units(self, state: GameState) -> list[str]:
        f = state.turn
        allies = state.allies.get(f, frozenset())
        mine = [
            n.id
            for n in state.nobles.values()
            if (n.faction == f or n.faction in allies)
            and n.place
            and n.aboard is None
            and n.captive_of is None
        ]
        return mine + [a.id for a in state.armies.values() if not a.fleet]

    def _move(self, state: GameState) -> c.Command | None:
        units = self._units(state)
        if not units:
            return None
        unit = self.rnd.choice(units)
        dests = legal_destinations(state, unit)
        if not dests.places:
            return None
        d = self.rnd.choice(dests.places)
        f, rid = state.turn, _token(self.rnd, "req")
        if len(d.path) == 1:
            return c.Enter(f, unit, rid)
        enter = d.enter and self.rnd.random() < 0.6
        if not d.by_road:
            return c.Move(f, unit, d.place, enter, rid)
        return c.MoveRoad(f, unit, d.path, enter, rid)

    def _seek(self, state: GameState) -> c.Command | None:
        """A move to where another faction's nobles stand in the open (a battle to come),
        or before a location weakly held (a siege to lay)."""
        units = self._units(state)
        if not units:
            return None
        unit = self.rnd.choice(units)
        f = state.turn
        foes = {n.place for n in state.nobles.values() if n.faction not in (f, None) and n.place and not n.inside}
        dests = [d for d in legal_destinations(state, unit).places if len(d.path) > 1]
        near = [d for d in dests if d.place in foes or (d.siege and state.board.places[d.place].garrison <= 100)]
        if not near:
            return None
        d = self.rnd.choice(near)
        rid = _token(self.rnd, "req")
        if not d.by_road:
            return c.Move(f, unit, d.place, False, rid)
        return c.MoveRoad(f, unit, d.path, False, rid)

    def _ships(self, state: GameState) -> c.Command | None:
        f = state.turn
        ships = [s for s in state.ships.values() if s.faction == f]
        if not ships:
            return None
        ship = self.rnd.choice(ships)
        rid = _token(self.rnd, "req")
        if ship.in_port and self.rnd.random() < 0.35:
            here = [n.id for n in state.nobles.values() if n.place == ship.place and n.aboard is None]
            if here:
                return c.Embark(f, ship.id, (self.rnd.choice(here),), rid)
        if ship.passengers and self.rnd.random() < 0.6:
            ports = [ship.place] if ship.in_port else list(state.board.ports_of_sea.get(ship.place, ()))
            if ports:
                port = self.rnd.choice(ports)
                return c.Disembark(f, ship.id, ship.passengers, port, self.rnd.random() < 0.5, rid)
        dests = legal_destinations(state, ship.id)
        if not dests.waters:
            return None
        w = self.rnd.choice(dests.waters)
        return c.Sail(f, ship.id, w.place, w.path[1:-1], rid)

    def _capture_heir(self, state: GameState) -> c.Command | None:
        f = state.turn
        for h in state.heirs.values():
            if h.with_noble is not None or h.place is None:
                continue
            for n in state.nobles.values():
                if n.faction == f and n.place == h.place and n.captive_of is None:
                    return c.CaptureHeir(f, n.id, h.id)
        return None

    def _form_army(self, state: GameState) -> c.Command | None:
        f = state.turn
        mine = [n for n in state.nobles.values() if n.faction == f and n.place and n.aboard is None]
        if not mine:
            return None
        n = self.rnd.choice(mine)
        friends = [
            o.id
            for o in state.nobles.values()
            if o.id != n.id
            and o.place == n.place
            and o.inside == n.inside
            and o.aboard is None
            and o.captive_of is None
            and state.friends(f, o.faction)
        ]
        if not friends:
            return None
        return c.FormArmy(f, _token(self.rnd, "army"), (n.id, self.rnd.choice(friends)))

    def _diplomacy(self, state: GameState) -> c.Command | None:
        f = state.turn
        others = [x for x in state.turn_order if x != f]
        open_ = [d for d in state.declarations.values() if d.awaiting]
        if open_ and self.rnd.random() < 0.6:
            d = self.rnd.choice(open_)
            return c.AnswerAlliance(self.rnd.choice(d.awaiting), d.id, self.rnd.random() < 0.6)
        if others and self.rnd.random() < 0.5:
            return c.DeclareAlliance(f, _token(self.rnd, "ally"), (self.rnd.choice(others),))
        mine = [a.id for a in state.alliances.values() if f in a.members]
        return c.LeaveAlliance(f, self.rnd.choice(mine)) if mine and self.rnd.random() < 0.3 else None

    # -- the combat phase ---------------------------------------------------------------
    def _resolve(self, state: GameState) -> c.Command | None:
        attacks = [x for x in state.combats if x.kind == "attack"]
        if attacks:
            return c.Battle(c.GM, attacks[0].id)
        due = [s for s in state.sieges.values() if s.by == state.turn and s.last_draw_round < state.round]
        if due:
            return c.SiegeAssault(c.GM, due[0].place)
        fresh = [s for s in state.sieges.values() if s.by == state.turn]
        if fresh and self.rnd.random() < 0.5:
            return c.SiegeAssault(c.GM, self.rnd.choice(fresh).place)
        return None

    def _fight(self, state: GameState) -> c.Command | None:
        f = state.turn
        mine = [n for n in state.nobles.values() if n.faction == f and n.place and n.aboard is None]
        if not mine:
            return None
        n = self.rnd.choice(mine)
        others = [
            o.id
            for o in state.nobles.values()
            if o.place == n.place
            and o.inside == n.inside
            and o.faction != f
            and o.aboard is None
            and o.captive_of is None
        ]
        cid = _token(self.rnd, "fight")
        if others and self.rnd.random() < 0.6:
            return c.Attack(f, n.id, self.rnd.choice(others), cid)
        if n.place is None or n.inside:
            return None
        return c.Siege(f, n.id, n.place, cid)

    def _end_phase(self, state: GameState) -> c.Command:
        return c.EndTurn(c.GM) if state.phase == "crown" else c.EndPhase(c.GM)


def random_full_play(state: GameState, steps: int, seed: int | str = 0) -> Iterator[Played]:
    """``steps`` random commands of the full game played from ``state`` (which must
    have phases), each with its decision."""
    player = FullGamePlayer(seed)
    for _ in range(steps):
        cmd = player.command(state)
        d = decide(state, cmd)
        if d.events:
            state = replay(state, d.events)
        yield Played(cmd, d, state)

"""Random legal play: a stream of plausible commands for property tests, secrecy
walks and benchmarks. Not part of the rules core (it uses :mod:`random`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from .rules import commands as c
from .rules.apply import replay
from .rules.decide import decide
from .rules.decision import Decision
from .rules.queries import Destinations, legal_destinations
from .rules.state import GameState
from .rules.units import unit_place


@dataclass(frozen=True)
class Played:
    """One step of a random game."""

    command: c.Command
    decision: Decision
    state: GameState  # the state after it


# -- what the players ask of one state, asked once -------------------------------------------
#: The state last asked about, with what was asked of it: a player asks ``decide`` and
#: ``legal_destinations`` about the same state again and again (whether an aim's step is
#: taken, then the step itself), and both are pure functions of the state and the
#: question. One state at a time: kept with the answers, so no answer is ever read for
#: another state (a thread that finds another's state starts its own memo).
_LAST: tuple[GameState | None, dict[Any, Any]] = (None, {})


def _memo(state: GameState) -> dict[Any, Any]:
    global _LAST
    last = _LAST
    if last[0] is not state:
        last = _LAST = (state, {})
    return last[1]


def decided(state: GameState, cmd: c.Command) -> Decision:
    """``decide(state, cmd)``, each command decided once per state."""
    memo = _memo(state)
    got: Decision | None = memo.get(cmd)
    if got is None:
        got = memo[cmd] = decide(state, cmd)
    return got


def destinations(state: GameState, unit: str) -> Destinations:
    """``queries.legal_destinations``, asked once per state and unit."""
    memo = _memo(state)
    key = ("destinations", unit)
    got: Destinations | None = memo.get(key)
    if got is None:
        got = memo[key] = legal_destinations(state, unit)
    return got


def _token(rnd: random.Random, prefix: str) -> str:
    """A fresh id: lower case, as every id is (kingmaker.rules.limits)."""
    return f"{prefix.lower()}{rnd.getrandbits(32):08x}"


class RandomPlayer:
    """Draws commands: orders for the faction whose turn it is (its own units and
    allies' units), answers, alliances, grants, and the GM's acts."""

    def __init__(self, seed: int | str = 0):
        self.rnd = random.Random(seed)

    def command(self, state: GameState) -> c.Command:
        rnd = self.rnd
        makers: list[tuple[int, Callable[[GameState], c.Command | None]]] = [
            (30, self._move),
            (8, self._answer_request),
            (6, self._declare),
            (6, self._answer_declaration),
            (2, self._deadline),
            (3, self._leave),
            (4, self._grant),
            (2, self._revoke),
            (6, self._fight),
            (4, self._form_army),
            (6, self._ships),
            (2, self._defend),
            (1, self._gm_storm),
            (2, self._gm_control),
            (1, self._gm_outcome),
            (10, self._end_turn),
        ]
        total = sum(w for w, _ in makers)
        for _ in range(20):
            pick = rnd.uniform(0, total)
            for w, make in makers:
                pick -= w
                if pick <= 0:
                    cmd = make(state)
                    if cmd is not None:
                        return cmd
                    break
        return c.EndTurn(c.GM)

    # -- movement ---------------------------------------------------------------
    def _units_for(self, state: GameState, faction: str) -> list[str]:
        mine = [n.id for n in state.nobles.values() if n.faction == faction and n.aboard is None and n.place]
        allies = state.allies.get(faction, frozenset())
        theirs = [n.id for n in state.nobles.values() if n.faction in allies and n.aboard is None and n.place]
        armies = list(state.armies)
        return mine + theirs[: len(theirs) // 2 + 1] + armies

    def _move(self, state: GameState) -> c.Command | None:
        f = state.turn
        units = self._units_for(state, f)
        if not units:
            return None
        unit = self.rnd.choice(units)
        dests = legal_destinations(state, unit)
        if not dests.places:
            return None
        d = self.rnd.choice(dests.places)
        rid = _token(self.rnd, "REQ")
        if len(d.path) == 1:
            return c.Enter(f, unit, rid) if self.rnd.random() < 0.7 else c.Siege(f, unit, d.place, rid)
        enter = d.enter and self.rnd.random() < 0.5
        if not d.by_road:
            return c.Move(f, unit, d.place, enter, rid)
        return c.MoveRoad(f, unit, d.path, enter, rid)

    def _ships(self, state: GameState) -> c.Command | None:
        f = state.turn
        ships = [s for s in state.ships.values() if s.faction == f or s.faction in state.allies.get(f, ())]
        if not ships:
            return None
        ship = self.rnd.choice(ships)
        roll = self.rnd.random()
        rid = _token(self.rnd, "REQ")
        if ship.in_port and roll < 0.35:
            here = [n.id for n in state.nobles.values() if n.place == ship.place and n.aboard is None]
            if here:
                return c.Embark(f, ship.id, tuple(self.rnd.sample(here, min(len(here), 2))), rid)
        if ship.passengers and roll < 0.6:
            board = state.board
            ports = [ship.place] if ship.in_port else list(board.ports_of_sea.get(ship.place, ()))
            if ports:
                return c.Disembark(
                    f, ship.id, ship.passengers[:1], self.rnd.choice(ports), self.rnd.random() < 0.5, rid
                )
        dests = legal_destinations(state, ship.id)
        if not dests.waters:
            return None
        d = self.rnd.choice(dests.waters)
        return c.Sail(f, ship.id, d.place, d.path[1:-1], rid)

    def _fight(self, state: GameState) -> c.Command | None:
        f = state.turn
        mine = [n for n in state.nobles.values() if n.faction == f and n.place and n.aboard is None]
        if not mine:
            return None
        n = self.rnd.choice(mine)
        rid = _token(self.rnd, "REQ")
        others = [
            o.id
            for o in state.nobles.values()
            if o.place == n.place and o.inside == n.inside and o.faction != f and o.aboard is None
        ]
        if others and self.rnd.random() < 0.6:
            return c.Attack(f, n.id, self.rnd.choice(others), rid)
        if n.place is None:
            return None
        return c.Siege(f, n.id, n.place, rid)

    def _form_army(self, state: GameState) -> c.Command | None:
        f = state.turn
        mine = [n for n in state.nobles.values() if n.faction == f and n.place and n.aboard is None]
        if not mine:
            return None
        n = self.rnd.choice(mine)
        friends = [
            o.id
            for o in state.nobles.values()
            if o.place == n.place and o.inside == n.inside and o.id != n.id and state.friends(f, o.faction)
            and o.aboard is None
        ]
        if not friends:
            return None
        return c.FormArmy(f, _token(self.rnd, "ARMY"), (n.id, *self.rnd.sample(friends, min(2, len(friends)))))

    def _defend(self, state: GameState) -> c.Command | None:
        if not state.turn_order:
            return None
        f = self.rnd.choice(state.turn_order)
        for n in state.nobles.values():
            if n.faction != f or n.place is None:
                continue
            for o in state.nobles.values():
                if o.place == n.place and o.faction in state.allies.get(f, ()):
                    return c.Defend(f, n.id, o.id)
        return None

    # -- answers and alliances ------------------------------------------------------
    def _answer_request(self, state: GameState) -> c.Command | None:
        # Only requests someone still has to answer: a log cut between a request's last
        # confirmation and its closing (a writer killed mid-command) leaves one awaiting
        # nobody.
        open_ = [r for r in state.requests.values() if r.awaiting]
        if not open_:
            return None
        r = self.rnd.choice(open_)
        who = self.rnd.choice(r.awaiting)
        return c.Confirm(who, r.id) if self.rnd.random() < 0.75 else c.Reject(who, r.id)

    def _declare(self, state: GameState) -> c.Command | None:
        if not state.turn_order:
            return None
        f = self.rnd.choice(state.turn_order)
        others = [x for x in state.turn_order if x != f]
        if not others:
            return None
        invited = tuple(self.rnd.sample(others, self.rnd.choice([1, 1, 2]) if len(others) > 1 else 1))
        return c.DeclareAlliance(f, _token(self.rnd, "ALLY"), invited)

    def _answer_declaration(self, state: GameState) -> c.Command | None:
        open_ = [d for d in state.declarations.values() if d.awaiting]
        if not open_:
            return None
        d = self.rnd.choice(open_)
        return c.AnswerAlliance(self.rnd.choice(d.awaiting), d.id, self.rnd.random() < 0.7)

    def _deadline(self, state: GameState) -> c.Command | None:
        if not state.declarations:
            return None
        return c.Deadline(c.GM, self.rnd.choice(list(state.declarations)))

    def _leave(self, state: GameState) -> c.Command | None:
        f = state.turn
        mine = [a.id for a in state.alliances.values() if f in a.members]
        return c.LeaveAlliance(f, self.rnd.choice(mine)) if mine else None

    def _grant(self, state: GameState) -> c.Command | None:
        held = list(state.control.items())
        if not held:
            return None
        place, f = self.rnd.choice(held)
        to = self.rnd.choice([x for x in state.turn_order if x != f] or [f])
        aspects = tuple(self.rnd.sample(["road", "enter", "ship_enter", "embark", "forced_leave"], 2))
        return c.Grant(f, to, place, aspects)

    def _revoke(self, state: GameState) -> c.Command | None:
        if not state.permissions:
            return None
        p = self.rnd.choice(state.permissions)
        return c.Revoke(p.by, p.to, p.place, ())

    # -- the GM -------------------------------------------------------------------
    def _gm_storm(self, state: GameState) -> c.Command | None:
        if not state.ships:
            return None
        ship = self.rnd.choice(list(state.ships.values()))
        ports = [p.id for p in state.board.places.values() if p.is_port]
        if not ports:
            return None
        near = [p for p in ports if unit_place(state, ship.id) in state.board.places[p].seas] or ports
        return c.Storm(c.GM, ship.id, self.rnd.choice(near))

    def _gm_control(self, state: GameState) -> c.Command | None:
        places = [p.id for p in state.board.places.values() if p.kind.controllable]
        if not places:
            return None
        return c.SetControl(c.GM, self.rnd.choice(places), self.rnd.choice([*state.turn_order, None]))

    def _gm_outcome(self, state: GameState) -> c.Command | None:
        rnd = self.rnd
        if state.combats and rnd.random() < 0.4:
            return c.ResolveCombat(c.GM, rnd.choice(state.combats).id, "settled by the GM")
        captives = [n.id for n in state.nobles.values() if n.captive_of is not None]
        if captives and state.board.places and rnd.random() < 0.5:
            return c.Release(c.GM, rnd.choice(captives), rnd.choice(sorted(state.board.places)))
        free = [n.id for n in state.nobles.values() if n.captive_of is None]
        if not free:
            return None
        noble = rnd.choice(free)
        if rnd.random() < 0.3 or not state.turn_order:
            return c.Kill(c.GM, noble)
        if state.heirs and rnd.random() < 0.3:
            return c.MoveHeir(c.GM, rnd.choice(sorted(state.heirs)), with_noble=noble)
        return c.Capture(c.GM, noble, rnd.choice(state.turn_order))

    def _end_turn(self, state: GameState) -> c.Command | None:
        return c.EndTurn(c.GM)


def random_play(state: GameState, steps: int, seed: int | str = 0) -> Iterator[Played]:
    """``steps`` random commands played from ``state``, each with its decision."""
    player = RandomPlayer(seed)
    for _ in range(steps):
        cmd = player.command(state)
        d = decide(state, cmd)
        if d.events:
            state = replay(state, d.events)
        yield Played(cmd, d, state)

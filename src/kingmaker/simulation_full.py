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
from .rules import kings
from .rules.apply import replay
from .rules.state import GameState
from .simulation import Played, decided
from .simulation import destinations as legal_destinations

Maker = Callable[[GameState], c.Command | None]


def _token(rnd: random.Random, prefix: str) -> str:
    return f"{prefix}{rnd.getrandbits(32):08x}"


class FullGamePlayer:
    """Draws commands for a game with phases (``state.phased``)."""

    def __init__(self, seed: int | str = 0, *, end_phase_weight: int = 4):
        self.rnd = random.Random(seed)
        self.end_phase_weight = end_phase_weight
        self._phases: dict[str, tuple[tuple[tuple[int, Maker], ...], int]] | None = None

    def command(self, state: GameState) -> c.Command:
        """One more command for ``state``: an answer to whatever waits first, else what
        the phase calls for."""
        if state.parliament is not None:
            return self._sitting(state)
        for answer in (self._storm, self._answer_request, self._captives, self._heirs, self._cards):
            cmd = answer(state)
            if cmd is not None and self.rnd.random() < 0.8:
                return cmd
        options, total = self._by_phase().get(state.phase) or (((1, self._end_phase),), 1)
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

    def _by_phase(self) -> dict[str, tuple[tuple[tuple[int, Maker], ...], int]]:
        """What each phase calls for, by weight, with the weights' total: made once."""
        if self._phases is None:
            makers: dict[str, list[tuple[int, Maker]]] = {
                "event": [(1, lambda s: c.DrawEvent(c.GM))],
                "movement": [
                    (14, self._move),
                    (8, self._seek),
                    (5, self._ships),
                    (3, self._capture_heir),
                    (3, self._seek_heir),
                    (4, self._seek_cathedral),
                    (3, self._seek_clergy),
                    (3, self._expedition),
                    (1, self._enter_play),
                    (2, self._form_army),
                    (2, self._diplomacy),
                    (self.end_phase_weight, self._end_phase),
                ],
                "combat": [
                    (10, self._resolve),
                    (6, self._fight),
                    (self.end_phase_weight, self._end_phase),
                ],
                "parliament": [(1, self._parliament)],
                "coronation": [(3, self._crown), (2, self._end_phase)],
                "crown": [(2, self._draw_crown), (3, lambda s: c.EndTurn(c.GM))],
            }
            self._phases = {k: (tuple(v), sum(w for w, _ in v)) for k, v in makers.items()}
        return self._phases

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
        foes = {
            n.place for n in state.nobles.values() if n.faction not in (f, None) and n.place and not n.inside
        }
        dests = [d for d in legal_destinations(state, unit).places if len(d.path) > 1]
        near = [
            d for d in dests if d.place in foes or (d.siege and state.board.places[d.place].garrison <= 100)
        ]
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

    # -- heirs: captured where found unescorted, the others' executed, one's own crowned ----
    def _heirs(self, state: GameState) -> c.Command | None:
        """Heirs executed (EXEC.heir): this is how games end (VICTORY.last_heir). A
        faction that holds several keeps its best hope; the sole King's faction keeps
        only its King; and as the wars drag on (past round 40) a faction whose heir
        has no crown left to win despairs of him."""
        if self.rnd.random() > 0.3:
            return None
        king = kings.sole_king(state)
        king_side = kings.controller(state, king) if king is not None else None
        held: dict[str, list[str]] = {}
        for h in state.heirs.values():
            f = kings.controller(state, h.id)
            if f is not None and not kings.noble_heir(state, h.id):  # Beaufort dies as a noble
                held.setdefault(f, []).append(h.id)
        for f, heirs in sorted(held.items()):
            keep = max(heirs, key=lambda h: (state.heirs[h].crowned, -state.heirs[h].order))
            if f == king_side and king is not None:
                keep = king
            doomed = [h for h in heirs if h != keep]
            late = state.round > 40 and king is not None and f != king_side and self.rnd.random() < 0.2
            # with no King for long, heirs no one can crown are given up too
            kingless = state.round > 60 and king is None and self.rnd.random() < 0.1
            if late or kingless:
                doomed = heirs
            if doomed:
                return c.Execute(f, heir=self.rnd.choice(doomed))
        return None

    def _seek_heir(self, state: GameState) -> c.Command | None:
        """A noble walks towards an unescorted heir."""
        f = state.turn
        spots = sorted({h.place for h in state.heirs.values() if h.with_noble is None and h.place})
        mine = [u for u in self._units(state) if u in state.nobles and state.nobles[u].faction == f]
        if not spots or not mine:
            return None
        return move_toward(state, f, self.rnd.choice(mine), self.rnd.choice(spots), _token(self.rnd, "req"))

    def _expedition(self, state: GameState) -> c.Command | None:
        """An expedition by sea to an heir left alone where no road goes (Calais,
        Dublin): a noble walks to his faction's ship, embarks, sails to a zone by the
        port, lands in the open there (and then captures him)."""
        f = state.turn
        far = sorted(
            h.place
            for h in state.heirs.values()
            if h.with_noble is None and h.place and state.board.places[h.place].offmap
        )
        ships = [x for x in state.ships.values() if x.faction == f and x.id not in state.army_of]
        if not far or not ships:
            return None
        goal = state.board.places[far[0]]
        rid = _token(self.rnd, "req")
        for ship in ships:
            if ship.passengers:
                if ship.place == goal.id or (not ship.in_port and ship.place in goal.seas):
                    return c.Disembark(f, ship.id, ship.passengers, goal.id, False, rid)
                for w in legal_destinations(state, ship.id).waters:
                    if w.place in goal.seas:
                        return c.Sail(f, ship.id, w.place, w.path[1:-1], rid)
                continue
            if ship.in_port:
                here = [n.id for n in state.nobles.values() if n.faction == f and n.place == ship.place]
                here = [n for n in here if n not in state.army_of and state.nobles[n].captive_of is None]
                if here:
                    return c.Embark(f, ship.id, (here[0],), rid)
                mine = [
                    n.id for n in state.nobles.values() if n.faction == f and n.place and n.captive_of is None
                ]
                if mine:
                    move = move_toward(state, f, self.rnd.choice(mine), ship.place, rid)
                    if move is not None:
                        return move
        return None

    def _cards(self, state: GameState) -> c.Command | None:
        """A card from a hand assigned to one of its nobles (DEAL.assign)."""
        if self.rnd.random() > 0.4:
            return None
        hands = [
            (f, card) for f, hand in state.hands.items() for card in hand if card not in state.catalog.events
        ]
        if not hands:
            return None
        f, card = self.rnd.choice(hands)
        if card in state.catalog.nobles:
            return None  # a noble card enters play in the movement phase
        mine = [n.id for n in state.nobles.values() if n.faction == f and n.captive_of is None]
        return c.Assign(f, card, self.rnd.choice(mine)) if mine else None

    def _enter_play(self, state: GameState) -> c.Command | None:
        f = state.turn
        for card in state.hands.get(f, ()):
            noble = state.catalog.nobles.get(card)
            if noble is not None and noble.castles:
                return c.EnterPlay(f, card, self.rnd.choice(noble.castles))
        return None

    def _seek_cathedral(self, state: GameState) -> c.Command | None:
        """The escort of an heir who could be crowned takes him towards a cathedral."""
        f = state.turn
        for h in state.heirs.values():
            if h.crowned or kings.controller(state, h.id) != f or kings.king_of(state, h.house):
                continue
            if kings.senior_heir(state, h.house) != h.id or h.with_noble is None:
                continue
            escort = state.nobles[h.with_noble]
            if escort.place is None:
                continue
            if escort.inside and state.board.places[escort.place].cathedral:
                return None  # there already: the coronation phase will try
            unit = state.army_of.get(escort.id, escort.id)
            near = distances_to(state, escort.place)
            cathedrals = sorted(
                (near.get(p.id, 10**6), p.id) for p in state.board.places.values() if p.cathedral
            )
            for _, goal in cathedrals[:3]:
                if goal == escort.place:
                    return c.Enter(f, unit, _token(self.rnd, "req"))
                move = move_toward(state, f, unit, goal, _token(self.rnd, "req"))
                if move is not None:
                    return move
        return None

    def _seek_clergy(self, state: GameState) -> c.Command | None:
        """Nobles holding sees join an heir waiting inside a cathedral to be crowned."""
        f = state.turn
        for h in state.heirs.values():
            if h.crowned or h.with_noble is None or kings.controller(state, h.id) != f:
                continue
            escort = state.nobles[h.with_noble]
            if not (escort.place and escort.inside and state.board.places[escort.place].cathedral):
                continue
            clergy = [
                n.id
                for n in state.nobles.values()
                if n.faction == f
                and n.id != escort.id
                and n.captive_of is None
                and n.aboard is None
                and (n.place, n.inside) != (escort.place, True)
                and any(state.catalog.award(a).kind.value == "see" for a in n.awards)
            ]
            for noble in clergy:
                move = move_toward(
                    state, f, state.army_of.get(noble, noble), escort.place, _token(self.rnd, "req")
                )
                if move is not None:
                    return move
        return None

    def _crown(self, state: GameState) -> c.Command | None:
        f = state.turn
        mine = [
            h.id
            for h in state.heirs.values()
            if not h.crowned
            and kings.controller(state, h.id) == f
            and kings.senior_heir(state, h.house) == h.id
        ]
        return c.Crown(f, self.rnd.choice(mine)) if mine else None

    def _draw_crown(self, state: GameState) -> c.Command | None:
        return None if "crown_drawn" in state.event_flags else c.DrawCrown(c.GM)

    # -- Parliament ---------------------------------------------------------------------
    def _parliament(self, state: GameState) -> c.Command:
        """The King's faction (or the Chancellor's after a Parliament card) summons;
        the others pass the phase."""
        f = state.turn
        king = kings.sole_king(state)
        may = (king is not None and kings.controller(state, king) == f) or any(
            flag.startswith("parliament") for flag in state.event_flags
        )
        seat = _may_summon_here(state, f) if may else None
        if seat is not None and self.rnd.random() < 0.9:
            summon = c.SummonParliament(f, _token(self.rnd, "parl"), seat)
            if not decided(state, summon).refused:
                return summon
        leave = self._end_phase(state)
        # a Parliament owed and not summoned keeps the phase: the GM ends the turn
        return leave if not decided(state, leave).refused else c.EndTurn(c.GM)

    def _sitting(self, state: GameState) -> c.Command:
        """Attendance, proposals and votes while Parliament sits, then its close."""
        p = state.parliament
        assert p is not None
        order = [p.presides, *(f for f in state.turn_order if f != p.presides)]
        for f in order:
            if f not in p.attending:
                mine = [
                    n.id for n in state.nobles.values() if n.faction == f and n.place and n.captive_of is None
                ]
                picked = tuple(self.rnd.sample(mine, min(len(mine), self.rnd.randint(0, 3))))
                attend = c.Attend(f, picked)
                if decided(state, attend).refused:  # one who may not come (besieged...): none
                    attend = c.Attend(f, ())
                return attend
        prop = p.open
        if prop is not None:
            voter = prop.awaiting[0]
            own = voter == p.presides
            # the longer the wars last, the readier the realm is to make peace
            weary = 0.25 + min(state.round, 60) / 100
            stance = "for" if own or self.rnd.random() < weary else self.rnd.choice(["against", "abstain"])
            return c.Vote(voter, prop.id, stance, stance)
        made = len(p.proposals)
        if made < 3 and self.rnd.random() < 0.8:
            king = kings.sole_king(state)
            pid = _token(self.rnd, "prop")
            if king is not None and kings.controller(state, king) == p.presides and self.rnd.random() < 0.6:
                return c.Propose(p.presides, pid, motion="victory")
            attending = [n for ns in p.attending.values() for n in ns]
            if state.chancery and attending:
                return c.Propose(
                    p.presides, pid, award=self.rnd.choice(state.chancery), to=self.rnd.choice(attending)
                )
        return c.CloseParliament(p.presides)

    def _end_phase(self, state: GameState) -> c.Command:
        return c.EndTurn(c.GM) if state.phase == "crown" else c.EndPhase(c.GM)


# -- walking towards a goal ---------------------------------------------------------------
_DISTANCES: dict[tuple[int, str], dict[str, int]] = {}


def distances_to(state: GameState, target: str) -> dict[str, int]:
    """Links (road or cross-country) from every place to ``target`` on the bare map."""
    key = (id(state.board), target)
    got = _DISTANCES.get(key)
    if got is None:
        got = {target: 0}
        frontier = [target]
        while frontier:
            nxt = []
            for here in frontier:
                for other in sorted(state.board.neighbours(here)):
                    if other not in got:
                        got[other] = got[here] + 1
                        nxt.append(other)
            frontier = nxt
        if len(_DISTANCES) > 512:
            _DISTANCES.clear()
        _DISTANCES[key] = got
    return got


def move_toward(
    state: GameState, faction: str, unit: str, target: str, rid: str, *, enter: bool = True
) -> c.Command | None:
    """The move of ``unit`` this turn that comes nearest ``target`` (going inside when it
    reaches it and may, unless ``enter`` is False), or None when no move brings it nearer."""
    dist = distances_to(state, target)
    here = (
        state.nobles[state.armies[unit].units[0]].place if unit in state.armies else state.nobles[unit].place
    )
    best, score = None, dist.get(here or "", 10**6)
    for d in legal_destinations(state, unit).places:
        if len(d.path) > 1 and dist.get(d.place, 10**6) < score:
            best, score = d, dist[d.place]
    if best is None:
        return None
    inside = enter and best.place == target and best.enter
    if not best.by_road:
        return c.Move(faction, unit, best.place, inside, rid)
    return c.MoveRoad(faction, unit, best.path, inside, rid)


# -- the game's ends: heirs, Crown cards, Parliament, coronation -------------------------
def _may_summon_here(state: GameState, faction: str) -> str | None:
    """A city or town ``faction`` controls (a seat for its Parliament, PARL.seat)."""
    seats = sorted(
        p
        for p, f in state.control.items()
        if f == faction and state.board.places[p].kind.value in ("city", "town")
    )
    return seats[0] if seats else None


def random_full_play(state: GameState, steps: int, seed: int | str = 0) -> Iterator[Played]:
    """``steps`` random commands of the full game played from ``state`` (which must
    have phases), each with its decision."""
    player = FullGamePlayer(seed)
    for _ in range(steps):
        cmd = player.command(state)
        d = decided(state, cmd)
        if d.events:
            state = replay(state, d.events)
        yield Played(cmd, d, state)

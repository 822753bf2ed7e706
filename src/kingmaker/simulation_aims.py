"""Random players with aims, for self-play of whole games (issue 14): ``FullGamePlayer``
(``simulation_full``), which tries anything legal at random, plus what a player who
means to end the war does, more and more often as the rounds go by (``focus``):

- every faction brings the nobles of its hand into play, gives its sees to the escort
  of an heir it could crown, and its other cards to its nobles in England (DEAL.noble,
  DEAL.assign), but no card that would keep an heir's escort from coming home by sea;
- it brings its nobles home from Ireland and Calais in its ships, and sends expeditions
  to heirs left alone there (``simulation_sea``);
- the escort of an heir it could crown (his house's senior heir, his house with no
  King) takes him inside a cathedral, laying siege to it first if need be, its clergy
  go in with him, and the faction crowns him (CROWN.*);
- the faction that keeps the sole King takes a city or town for Parliament's seat if it
  has none, summons Parliament whenever it may, attends with every noble it may send
  and moves the victory motion (PARL.*, VICTORY.parliament); a faction that keeps one
  of two Kings moves the sole King motion when it presides;
- the others gather their nobles against the heirs they do not hold: they capture the
  unescorted, besiege the places they are kept in and attack their escorts when they
  are the stronger, and, lacking the clergy to crown their own, the holders of sees
  (BATTLE.*, SIEGE.*, CAPTURE.*); a captor executes Beaufort, who dies only as a noble
  (EXEC.captive); late in a long war, factions leave alliances with those who keep the
  heirs, and give up heirs stranded abroad (EXEC.heir).

Every command is still judged by ``decide``: an aim's step is made only when ``decide``
takes it, and otherwise the random player plays. What the aims read in a state is in
``simulation_goals``.
"""

from __future__ import annotations

from collections.abc import Callable

from .rules import commands as c
from .rules import kings
from .rules.crown_cards import within_limits
from .rules.fighting import force, strength
from .rules.parliament import seats, undeclared
from .rules.potential import potential
from .rules.sieges import besieged
from .rules.state import GameState, Heir, Noble
from .rules.votes import chancellor_faction
from .simulation_full import FullGamePlayer, move_toward
from .simulation_goals import (
    LATE,
    Objective,
    at_home,
    clergy_short,
    coronation_target,
    crownable,
    enough_clergy,
    exiles,
    fortified_against,
    free,
    free_by_place,
    futility,
    inside,
    is_see,
    keeps_beaufort_away,
    may_summon,
    noble_heirs,
    objective,
    prey,
    shut_to,
    takes,
    unwise,
)
from .simulation_sea import expedition, homecoming, land_strays

Aim = Callable[[GameState], c.Command | None]
#: After this round a faction leaves alliances that keep it from the heirs (``_break``).
BREAK = 30
#: Steps of aims a ship (or a noble) may take in a turn (sail, embark, sail, land).
VOYAGE = 4
#: Chancery cards the presiding faction proposes in one sitting (PARL.business).
CARDS = 3
#: Commands in a row that change nothing before the GM ends the turn (3.13.8).
STUCK = 500


class AimingPlayer(FullGamePlayer):
    """A ``FullGamePlayer`` that, with a chance growing from ``start`` by one ``zeal``-th
    a round, plays towards the end of the game first (see the module's text)."""

    def __init__(
        self, seed: int | str = 0, *, end_phase_weight: int = 4, start: float = 0.4, zeal: int = 25
    ) -> None:
        super().__init__(seed, end_phase_weight=end_phase_weight)
        self.start, self.zeal = start, zeal
        self._idle: GameState | None = None  # the last state in which no aim had a step
        self._last: GameState | None = None  # the last state a command was made for, and
        self._stuck = 0  # how many commands in a row were made for it
        # this turn's (round, turn index); the units its aims moved (each once: a unit
        # may take any number of steps in its own turn); each faction's coronation plan
        # and objective, worked out once; the aims' steps of each ship
        self._turn: tuple[int, int] = (0, -1)
        self._moved: set[str] = set()
        self._plans: dict[str, tuple[Heir, str] | None] = {}
        self._goals: dict[str, Objective | None] = {}
        self._voyages: dict[str, int] = {}
        self._kept: dict[str, object] = {}  # per faction: what held when no card could go
        self._futile: dict[str, object] = {}  # and what decided that none could (``futility``)
        self._boards: tuple[tuple[object, ...], tuple[object, ...]] | None = None  # ``_board``

    def focus(self, state: GameState) -> float:
        """The chance that the aims are asked for a step before the random player."""
        return min(1.0, self.start + state.round / self.zeal)

    def command(self, state: GameState) -> c.Command:
        if state is self._last:
            self._stuck += 1
            if self._stuck >= STUCK:  # nothing anyone tries is taken: the GM ends the turn
                self._stuck = 0
                return c.EndTurn(c.GM)
        else:
            self._last, self._stuck = state, 0
        if state.parliament is None and state is not self._idle and self.rnd.random() < self.focus(state):
            cmd = self._aims(state)
            if cmd is not None:
                return cmd
            self._idle = state
        return super().command(state)

    def _aims(self, state: GameState) -> c.Command | None:
        self._this_turn(state)
        aims: list[Aim] = [self._captive_heirs, self._stranded, self._assign]
        if state.phase == "movement":
            aims += [
                self._break,
                self._enter_play_now,
                self._capture_now,
                self._home,
                self._to_cathedral,
                self._gather,
                self._abroad,
                self._strays,
            ]
        elif state.phase == "combat":
            aims += [self._resolve, self._lay_siege, self._attack]
        elif state.phase == "coronation":
            aims += [self._crown_now]
        for aim in aims:
            cmd = aim(state)
            if cmd is not None:
                return cmd
        return None

    # -- this turn's memory -----------------------------------------------------------------
    def _this_turn(self, state: GameState) -> None:
        key = (state.round, state.turn_index)
        if key != self._turn:
            self._turn, self._moved, self._voyages = key, set(), {}
            self._plans, self._goals = {}, {}

    def plan(self, state: GameState, faction: str) -> tuple[Heir, str] | None:
        """This turn's ``coronation_target`` of ``faction`` (while it still holds)."""
        self._this_turn(state)
        if faction not in self._plans:
            self._plans[faction] = coronation_target(state, faction)
        got = self._plans[faction]
        if got is None:
            return None
        now = state.heirs.get(got[0].id)
        if now is None or now.crowned or kings.controller(state, now.id) != faction:
            return None
        return now, got[1]

    def objective(self, state: GameState, faction: str) -> Objective | None:
        """This turn's ``objective`` of ``faction``, worked out at its first step."""
        self._this_turn(state)
        if faction not in self._goals:
            self._goals[faction] = objective(state, faction, self.plan(state, faction))
        return self._goals[faction]

    def _move_once(self, state: GameState, unit: str, cmd: c.Command | None) -> c.Command | None:
        """``cmd``, a step of ``unit``, if ``decide`` takes it and no aim moved the unit
        this turn (a unit may take any number of steps in its own turn: aims whose
        targets change as units move must not walk them to and fro for ever)."""
        if cmd is None or unit in self._moved or not takes(state, cmd):
            return None
        self._moved.add(unit)
        return cmd

    def _voyage(self, cmd: c.Command | None) -> c.Command | None:
        """``cmd`` unless its ship (or noble) took ``VOYAGE`` steps of aims this turn (a
        landing and a homecoming must not undo each other for ever)."""
        if cmd is None:
            return None
        unit = getattr(cmd, "ship", None) or getattr(cmd, "unit", None) or ""
        n = self._voyages.get(unit, 0)
        if n >= VOYAGE:
            return None
        self._voyages[unit] = n + 1
        return cmd

    # -- voyages (simulation_sea) -----------------------------------------------------------
    def _home(self, state: GameState) -> c.Command | None:
        return self._voyage(homecoming(state))

    def _strays(self, state: GameState) -> c.Command | None:
        return self._voyage(land_strays(state))

    def _abroad(self, state: GameState) -> c.Command | None:
        """An expedition to an heir left alone abroad, when the faction has nothing to
        march on at home or few heirs are left."""
        if self.objective(state, state.turn) is not None and len(state.heirs) > 3:
            return None
        return self._voyage(expedition(state))

    # -- the random player, kept from stranding heirs abroad ---------------------------------
    def _expedition(self, state: GameState) -> c.Command | None:
        """The random player's expeditions are ``simulation_sea``'s (no escort of an heir
        sails)."""
        return self._voyage(expedition(state))

    def _ships(self, state: GameState) -> c.Command | None:
        """The random player's voyages, except that no escort of an heir goes aboard."""
        cmd = super()._ships(state)
        if isinstance(cmd, c.Embark) and any(h.with_noble in cmd.nobles for h in state.heirs.values()):
            return None
        return cmd

    def _cards(self, state: GameState) -> c.Command | None:
        """The random player's assignments, to nobles in England only (a card makes a
        noble heavier, and one abroad may become too heavy for any ship to bring home),
        and none ``unwise``."""
        cmd = super()._cards(state)
        if isinstance(cmd, c.Assign) and (
            not at_home(state, state.nobles[cmd.to]) or unwise(state, cmd.to, cmd.card)
        ):
            return None
        return cmd

    def _heirs(self, state: GameState) -> c.Command | None:
        """The random player's executions of heirs, except of the last Lancastrian while
        Beaufort is stranded abroad: Beaufort, an heir once no other Lancastrian lives,
        could then be neither crowned nor killed."""
        cmd = super()._heirs(state)
        if isinstance(cmd, c.Execute) and cmd.heir is not None and keeps_beaufort_away(state, cmd.heir):
            return None
        return cmd

    # -- any time: cards, captives, heirs given up -------------------------------------------
    def _assign(self, state: GameState) -> c.Command | None:
        """A card from a hand to a noble in England (DEAL.assign): a see to the escort of
        an heir to be crowned, else to the noble holding most sees; any other card to any
        noble that may hold it; none ``unwise``."""
        board: tuple[object, ...] | None = None
        guarding: set[str | None] | None = None
        awards = state.catalog.awards
        for f in state.turn_order:
            hand = [x for x in state.hands.get(f, ()) if x in awards]
            if not hand:
                continue
            # what decides whether a card may go: the hand, the faction's nobles, sieges,
            # heirs' escorts; nothing of it changed since no card could go: none can
            if board is None:
                board = self._board(state)
            sign = (tuple(hand), *board)
            if self._kept.get(f) == sign:
                continue
            mine = [
                n
                for n in state.nobles.values()
                if n.faction == f and n.captive_of is None and at_home(state, n)
            ]
            if not mine:
                continue
            if guarding is None:
                guarding = {h.with_noble for h in state.heirs.values()}  # only they may be unwise
            # all that decides whether any card may go to any of them: the hand, and each
            # one's cards, troops, walls besieged and heir (``decide_assign``, ``unwise``);
            # nothing of it changed since no card could go: none can, and the search's
            # shuffles are drawn as it draws them
            futile = (tuple(hand), futility(state, mine, guarding))
            if self._futile.get(f) == futile:
                for card in hand:
                    if not is_see(state, card):
                        self.rnd.shuffle(list(mine))
                self._kept[f] = sign
                continue
            escorts = [state.nobles[h.with_noble] for h in crownable(state, f) if h.with_noble]
            escorts = [n for n in escorts if n in mine]
            by_sees = sorted(mine, key=lambda n: (-sum(1 for a in n.awards if is_see(state, a)), n.id))
            for card in hand:
                if is_see(state, card):
                    holders = [*escorts, *by_sees]
                else:
                    holders = list(mine)
                    self.rnd.shuffle(holders)
                for n in holders:
                    # a card DEAL.limits forbids him is refused whatever else holds: not asked
                    if n.id in guarding and unwise(state, n.id, card):
                        continue
                    if not within_limits(state, card, n.id):
                        continue
                    cmd = c.Assign(f, card, n.id)
                    if takes(state, cmd):
                        return cmd
            self._kept[f] = sign
            self._futile[f] = futile
        return None

    def _board(self, state: GameState) -> tuple[object, ...]:
        """What ``_assign``'s signs read of the board, made again only when the nobles,
        the sieges or the heirs are not the same objects as last time (a state's fields
        are immutable)."""
        key = (state.nobles, state.sieges, state.heirs)
        last = self._boards
        if last is not None and all(a is b for a, b in zip(last[0], key, strict=True)):
            return last[1]
        board = (
            tuple((n.id, n.awards, n.place, n.inside, n.aboard, n.captive_of) for n in state.nobles.values()),
            tuple(state.sieges),
            tuple((h.id, h.with_noble) for h in state.heirs.values()),
        )
        self._boards = (key, board)
        return board

    def _captive_heirs(self, state: GameState) -> c.Command | None:
        """A captor executes Beaufort (an heir who dies only as a noble does)."""
        table = noble_heirs(state)
        for heir in [h for h in state.heirs if h in table]:  # the heirs who are nobles
            n = state.nobles.get(table[heir])
            if n is not None and n.captive_of is not None:
                cmd = c.Execute(n.captive_of, captive=n.id)
                if takes(state, cmd):
                    return cmd
        return None

    def _stranded(self, state: GameState) -> c.Command | None:
        """After round ``LATE``, the faction whose turn it is gives up an heir stranded
        abroad (EXEC.heir): his escort too heavy for any of its ships, or it has none
        (after twice ``LATE`` rounds, whatever keeps him there)."""
        if state.round <= LATE:
            return None
        f = state.turn
        room = max((s.capacity for s in state.ships.values() if s.faction == f), default=0)
        for h in state.heirs.values():
            escort = state.nobles.get(h.with_noble or "")
            if escort is None or escort.faction != f or escort.place is None or kings.noble_heir(state, h.id):
                continue
            if not state.board.places[escort.place].offmap or keeps_beaufort_away(state, h.id):
                continue
            if potential(state, escort.id) > room or state.round > 2 * LATE:
                cmd = c.Execute(f, heir=h.id)
                if takes(state, cmd):
                    return cmd
        return None

    # -- the movement phase ----------------------------------------------------------------
    def _break(self, state: GameState) -> c.Command | None:
        """After round ``BREAK``, a faction leaves an alliance with factions that keep
        heirs, or hold the sees it lacks: allies never fight (ALLY.9), and a realm where
        all are allied never ends."""
        if state.round <= BREAK:
            return None
        f = state.turn
        rivals = {kings.controller(state, h.id) for h in state.heirs.values()} - {None, f}
        if clergy_short(state, f):
            rivals |= {n.faction for n in state.nobles.values() if any(is_see(state, a) for a in n.awards)}
        for a in state.alliances.values():
            if f in a.members and rivals & set(a.members):
                cmd = c.LeaveAlliance(f, a.id)
                if takes(state, cmd):
                    return cmd
        return None

    def _enter_play_now(self, state: GameState) -> c.Command | None:
        """The noble cards of the hand come into play (DEAL.noble)."""
        f = state.turn
        for card in state.hands.get(f, ()):
            noble = state.catalog.nobles.get(card)
            if noble is None:
                continue
            castles = list(noble.castles)
            self.rnd.shuffle(castles)
            if card in state.nobles or card in state.dead:
                continue  # in play already, or dead: refused at every castle, not asked
            for castle in castles:
                cmd = c.EnterPlay(f, card, castle)
                if takes(state, cmd):
                    return cmd
        return None

    def _capture_now(self, state: GameState) -> c.Command | None:
        """A noble at the place of an unescorted heir takes him (CAPTURE.heir), going
        inside first if he must: the one best able to travel (no office an event may
        summon abroad, the lightest)."""
        f = state.turn
        away = exiles(state)
        mine: dict[str | None, list[Noble]] | None = None
        for h in state.heirs.values():
            if h.with_noble is not None or h.place is None:
                continue
            mine = mine if mine is not None else free_by_place(state, f)
            here = mine.get(h.place)
            if not here:
                continue
            # refusals known without asking decide: the heir inside a place held against f
            # (CAPTURE.fortified), a place closed to the unit (LOC.*.enter); when every
            # step is refused so, only the request ids the search draws are drawn
            fortified = fortified_against(state, h, f)
            if fortified and all(n.inside or shut_to(state, state.army_of.get(n.id, n.id)) for n in here):
                _ = [self._rid() for n in here if not n.inside]
                continue
            for n in sorted(here, key=lambda n: (bool(away & set(n.awards)), potential(state, n.id), n.id)):
                cmd = c.CaptureHeir(f, n.id, h.id)
                if not fortified and takes(state, cmd):
                    return cmd
                if not n.inside:
                    unit = state.army_of.get(n.id, n.id)
                    enter = c.Enter(f, unit, self._rid())
                    if not shut_to(state, unit) and takes(state, enter):
                        return enter
        return None

    def _to_cathedral(self, state: GameState) -> c.Command | None:
        """The escort of the heir to be crowned goes inside his cathedral (``plan``),
        and, if he holds not the clergy himself, the nobles holding the faction's sees."""
        f = state.turn
        plan = self.plan(state, f)
        if plan is None:
            return None
        heir, goal = plan
        escort = state.nobles[heir.with_noble or ""]
        movers = [escort.id]
        if not enough_clergy(state, escort.awards):
            movers += [
                n.id
                for n in state.nobles.values()
                if n.faction == f
                and n.id != escort.id
                and free(n)
                and any(is_see(state, a) for a in n.awards)
            ]
        for noble in movers:
            n = state.nobles[noble]
            unit = state.army_of.get(noble, noble)
            if (n.place == goal and n.inside) or unit in self._moved:
                continue
            if unit in state.armies and state.armies[unit].senior not in (None, noble) and noble != escort.id:
                continue
            if n.place == goal:
                cmd: c.Command | None = c.Enter(f, unit, self._rid())
            else:
                cmd = move_toward(state, f, unit, goal, self._rid())
            step = self._move_once(state, unit, cmd)
            if step is not None:
                return step
        return None

    def _gather(self, state: GameState) -> c.Command | None:
        """The faction's nobles march on its objective, stopping in the open there;
        escorts of its heirs stay out of it, unless it is their coronation."""
        f = state.turn
        goal = self.objective(state, f)
        if goal is None:
            return None
        keep = {h.with_noble for h in state.heirs.values() if kings.controller(state, h.id) == f}
        for unit in self._units_of(state, f):
            members = state.armies[unit].units if unit in state.armies else (unit,)
            if (keep & set(members) and goal.why != "crown") or unit in self._moved:
                continue
            first = state.nobles[members[0]]
            if first.place == goal.place or not at_home(state, first):
                continue
            move = move_toward(state, f, unit, goal.place, self._rid(), enter=False)
            step = self._move_once(state, unit, move)
            if step is not None:
                return step
        return None

    def _units_of(self, state: GameState, f: str) -> list[str]:
        """``f``'s nobles who may march and its armies, shuffled."""
        nobles = [
            n.id
            for n in state.nobles.values()
            if n.faction == f
            and free(n)
            and n.id not in state.army_of
            and not (n.inside and besieged(state, n.place))
        ]
        armies = [
            a.id
            for a in state.armies.values()
            if not a.fleet and all(state.nobles[u].faction == f and free(state.nobles[u]) for u in a.units)
        ]
        units = nobles + armies
        self.rnd.shuffle(units)
        return units

    # -- the combat phase ------------------------------------------------------------------
    def _lay_siege(self, state: GameState) -> c.Command | None:
        """The faction's force in the open at its objective besieges it, when it is
        strong enough (SIEGE.strength): a cathedral, a seat, or the place an heir or a
        noble it is after is inside."""
        f = state.turn
        goal = self.objective(state, f)
        if goal is None:
            return None
        p = state.board.places[goal.place]
        if not p.kind.controllable or p.id in state.sieges or state.friends(f, state.control.get(p.id)):
            return None
        if goal.why in ("attack", "capture") and not inside(state, goal):
            return None
        for n in state.nobles.values():
            if n.faction == f and n.place == p.id and not n.inside and free(n):
                cmd = c.Siege(f, state.army_of.get(n.id, n.id), p.id, self._rid())
                if takes(state, cmd):
                    return cmd
        return None

    def _attack(self, state: GameState) -> c.Command | None:
        """The faction's force attacks one of its ``prey`` at the same place in the
        open, when it is the stronger."""
        f = state.turn
        for target in prey(state, f):
            if target.place is None or target.inside:
                continue
            p = state.board.places[target.place]
            theirs = strength(state, force(state, target.id), p)
            for n in state.nobles.values():
                if n.faction != f or n.place != p.id or n.inside or not free(n):
                    continue
                if strength(state, force(state, n.id), p) <= theirs:
                    continue
                cmd = c.Attack(f, state.army_of.get(n.id, n.id), target.id, self._rid())
                if takes(state, cmd):
                    return cmd
        return None

    # -- Parliament and coronation ---------------------------------------------------------
    def _parliament(self, state: GameState) -> c.Command:
        """The faction whose turn it is, or the Chancellor's, summons Parliament to one of
        its seats whenever it may (PARL.summon.*); otherwise the phase passes."""
        for f in dict.fromkeys([state.turn, chancellor_faction(state) or state.turn]):
            places = list(seats(state, f))
            self.rnd.shuffle(places)
            may = may_summon(state, f)  # else every seat is refused (PARL.summon.*): not asked
            for seat in places:
                summon = c.SummonParliament(f, self._rid("parl"), seat)
                if may and takes(state, summon):
                    return summon
        leave = self._end_phase(state)
        return leave if takes(state, leave) else c.EndTurn(c.GM)

    def _sitting(self, state: GameState) -> c.Command:
        """The presiding faction and the sole King's send every noble they may; the
        presiding faction moves the victory motion when it keeps the sole King, the
        sole King motion when it keeps one of two, and proposes Chancery cards for its
        own nobles (sees first; ``CARDS`` cards, each once); then it closes. The others
        attend and vote at random."""
        p = state.parliament
        assert p is not None
        king = kings.sole_king(state)
        keeper = kings.controller(state, king) if king is not None else None
        for f in (p.presides, *(x for x in state.turn_order if x != p.presides)):
            if f in p.attending or f not in (p.presides, keeper):
                continue
            mine = [n.id for n in state.nobles.values() if n.faction == f]
            attend = c.Attend(f, tuple(sorted(n for n in mine if takes(state, c.Attend(f, (n,))))))
            if takes(state, attend):
                return attend
        if p.open is not None or undeclared(state, p):
            return super()._sitting(state)
        by = p.presides
        done = {x.matter for x in p.proposals}
        motions: list[c.Propose] = []
        if keeper == by:
            motions.append(c.Propose(by, self._rid("prop"), motion="victory"))
        for k in kings.crowned(state):
            if kings.controller(state, k) == by and k != king:
                motions.append(c.Propose(by, self._rid("prop"), motion="sole_king", heir=k))
        attending = [n for n in p.attending.get(by, ()) if n in state.nobles]
        heard = {x.award for x in p.proposals if x.award}  # each card once, a few in all
        cards = [x for x in state.chancery if x not in heard] if len(heard) < CARDS else []
        for card in sorted(cards, key=lambda x: (not is_see(state, x), x)):
            motions += [
                c.Propose(by, self._rid("prop"), award=card, to=n)
                for n in attending
                if not unwise(state, n, card)
            ]
        for m in motions:
            if (m.motion or "", m.award or m.heir or "", m.to or "") not in done and takes(state, m):
                return m
        return c.CloseParliament(by)

    def _crown_now(self, state: GameState) -> c.Command | None:
        for h in crownable(state, state.turn):
            cmd = c.Crown(state.turn, h.id)
            if takes(state, cmd):
                return cmd
        return None

    def _rid(self, prefix: str = "req") -> str:
        return f"{prefix}{self.rnd.getrandbits(32):08x}"

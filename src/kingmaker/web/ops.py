"""What the pages and the API do, once: each operation takes the acting ``Actor``, goes
through ``GameService``, and answers with the API's models.

Secrecy: positions come from ``view(state, viewer)``, log entries from
``GameService.log_for``, waiting items from ``GameService.pending``, reports from the
report builders for that viewer. Text orders are read against a copy of the state that
holds only the alliances, declarations and requests the author may see (so a name's
"did you mean" never suggests another faction's secret id), then judged by the rules on
the real state, as the service judges a submission.
"""

from __future__ import annotations

import dataclasses
import re
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from kingmaker.log.envelope import Envelope
from kingmaker.render.reports import (
    Reports,
    alliance_request,
    allied_order_request,
    army_consent_request,
    messages_for,
    private_report,
    render,
    reports_for,
    turn_report,
)
from kingmaker.render.reports.document import Document, plain
from kingmaker.render.reports.happenings import sentence
from kingmaker.render.reports.timeline import Turn
from kingmaker.rules import commands as rc
from kingmaker.rules import ids
from kingmaker.rules.board import Board
from kingmaker.rules.commands import GM
from kingmaker.rules.decide import decide
from kingmaker.rules.decision import Result
from kingmaker.rules.frozen import FrozenDict
from kingmaker.rules.orders import prior_order
from kingmaker.rules.queries import legal_destinations
from kingmaker.rules.records import to_data
from kingmaker.rules.state import GameState
from kingmaker.rules.units import places_of_faction, unit_place
from kingmaker.rules.views import PUBLIC, View, view
from kingmaker.service import GM_ACTOR, Actor, BadRequest, NotFound, PermissionDenied
from kingmaker.service.commands import (
    AskPermission,
    CreateGame,
    ExtendDeadline,
    FinishTurn,
    SeatPlayer,
    Submit,
    Tick,
    Undo,
)
from kingmaker.service.game_service import GameService
from kingmaker.service.outcome import Outcome
from kingmaker.service.settings import GameSettings

from . import schemas as s
from .mapdraw import Geometry, MapModel, Styles, build_map, geometry
from .settings import data_folder_within


def viewer_of(actor: Actor) -> str:
    if actor.is_gm:
        return GM
    if actor.role == "player" and actor.faction:
        return actor.faction
    return PUBLIC


def key_for(actor: Actor, key: str | None) -> str | None:
    """An idempotency key in the actor's own space (a key never replays another's answer)."""
    if not key:
        return None
    return f"web:{actor.label}:{key[:100]}"


def outcome_out(o: Outcome) -> s.OutcomeOut:
    return s.OutcomeOut(
        game=o.game,
        result=o.result,
        explanation=o.explanation,
        rule=o.rule,
        awaiting=list(o.awaiting),
        request=o.request,
        first_seq=o.first_seq,
        last_seq=o.last_seq,
        replayed=o.replayed,
    )


@dataclass
class Site:
    """The web app's shared parts: the service, the data root, per-game caches."""

    svc: GameService
    data_root: Path | None = None  # where the GM may name a data folder from the web (None: nowhere)

    def __post_init__(self) -> None:
        self._geo: dict[str, Geometry] = {}
        self._guard = threading.Lock()

    # -- static facts of a game ----------------------------------------------------------
    def geometry(self, game: str, board: Board) -> Geometry:
        with self._guard:
            g = self._geo.get(game)
            if g is None:
                g = self._geo[game] = geometry(board)
            return g

    def styles(self, game: str) -> Styles:
        return Styles.of(self.svc.settings(game).factions)

    def faction_names(self, game: str) -> dict[str, str]:
        return self.svc.settings(game).faction_names()

    # -- who may see what ----------------------------------------------------------------
    def require_faction(self, actor: Actor, faction: str | None) -> str:
        """The viewer an answer is for: the player's own faction, or (the GM only) any
        faction, ``gm`` or ``public``."""
        if faction is None or faction == "":
            return viewer_of(actor)
        if actor.is_gm:
            return faction
        if faction == PUBLIC:
            return PUBLIC
        if faction != actor.faction:
            raise PermissionDenied(f"you play {actor.faction}; you cannot see what {faction} sees")
        return faction

    def check_viewer(self, game: str, who: str) -> str:
        if who in (GM, PUBLIC):
            return who
        if who not in self.svc.store.game(game).factions:
            raise NotFound(f"{who!r} is not a faction of game {game}")
        return who

    # -- games ---------------------------------------------------------------------------
    def game_out(self, game: str) -> s.GameOut:
        rec = self.svc.store.game(game)
        state = self.svc.state(game)
        st = self.styles(game)
        return s.GameOut(
            id=rec.id,
            name=rec.name,
            created_at=rec.created_at,
            data_set=rec.data_set,
            seed_commitment=rec.commitment,
            factions=[s.FactionOut(id=f, name=st.name(f), colour=st.colour(f)) for f in rec.factions],
            round=state.round,
            turn=state.turn,
            turn_order=list(state.turn_order),
        )

    def games(self, actor: Actor) -> list[s.GameOut]:
        gm_only(actor)
        return [self.game_out(r.id) for r in self.svc.store.games()]

    def create_game(self, actor: Actor, body: s.CreateGameIn) -> s.OutcomeOut:
        gm_only(actor)
        settings = GameSettings(
            policy=body.policy, turn_hours=body.turn_hours, request_hours=body.request_hours
        )
        cmd = CreateGame(
            body.name,
            tuple(f.strip() for f in body.factions if f.strip()),
            seed=body.seed or None,
            data_folder=data_folder_within(self.data_root, body.data_folder),
            settings=settings,
            game_id=body.game_id or None,
            cards_per_faction=body.cards_per_faction,
        )
        return outcome_out(self.svc.execute(actor, cmd))

    def status(self, actor: Actor, game: str) -> s.StatusOut:
        gm_only(actor)
        proj = self.svc.projection(game)
        return s.StatusOut(
            game=self.game_out(game),
            ordered={f: proj.has_ordered(f) for f in proj.state.turn_order},
            seats=[s.SeatInfo(faction=x.faction, player=x.player) for x in self.svc.store.seats(game)],
            deadlines=[s.DeadlineOut(**dataclasses.asdict(d)) for d in proj.open_deadlines()],
            head=proj.head,
        )

    # -- positions -----------------------------------------------------------------------
    def view(self, actor: Actor, game: str, faction: str | None = None) -> View:
        who = self.check_viewer(game, self.require_faction(actor, faction))
        return view(self.svc.state(game), who)

    def view_out(self, actor: Actor, game: str, faction: str | None = None) -> s.ViewOut:
        v = self.view(actor, game, faction)
        cat = self.svc.state(game).catalog
        return s.ViewOut(
            viewer=v.viewer,
            round=v.round,
            turn=v.turn,
            turn_order=list(v.turn_order),
            control=dict(v.control),
            nobles=[s.NobleOut(**_plain(n), name=cat.name_of(n.id)) for n in v.nobles],
            ships=[s.ShipOut(**_plain(x), name=cat.name_of(x.id)) for x in v.ships],
            heirs=[s.HeirOut(**_plain(h), name=cat.name_of(h.id)) for h in v.heirs],
            armies=[
                s.ArmyOut(
                    id=a.id, units=list(a.units), fleet=a.fleet, senior=a.senior, senior_rule=a.senior_rule
                )
                for a in v.armies
            ],
            alliances=[s.AllianceOut(id=a.id, members=list(a.members), public=a.public) for a in v.alliances],
            declarations=[s.DeclarationOut(**_plain(d)) for d in v.declarations],
            requests=[
                s.RequestOut(
                    id=r.id,
                    rule=r.rule,
                    by=r.by,
                    command=to_data(r.command),
                    awaiting=list(r.awaiting),
                    turn_of=r.turn_of,
                    round=r.round,
                )
                for r in v.requests
            ],
            permissions=[s.PermissionOut(**_plain(p)) for p in v.permissions],
            combats=[s.CombatOut(**_plain(c)) for c in v.combats],
            seed_commitment=v.seed_commitment,
            seed=v.seed,
        )

    def map_model(
        self, actor: Actor, game: str, faction: str | None = None, *, selectable: bool = True
    ) -> MapModel:
        """The map as ``faction`` (default: the actor's own view) sees it."""
        state = self.svc.state(game)
        v = self.view(actor, game, faction)
        pick = [u.id for u in self.units(actor, game)] if selectable and not actor.is_gm else []
        title = f"{self.svc.store.game(game).name}: round {v.round}, {self.styles(game).name(v.turn)} to play"
        return build_map(
            state.board,
            state.catalog,
            v,
            self.styles(game),
            self.geometry(game, state.board),
            title=title,
            selectable=pick,
        )

    # -- units and where they may go --------------------------------------------------------
    def units(self, actor: Actor, game: str) -> list[s.UnitOut]:
        """The units ``actor`` may order: its own, its allies' where one of its own units
        stands and not yet ordered this round (ALLY.4: the owner must consent) and the
        armies it commands (ALLY.6). The GM may order every unit."""
        state = self.svc.state(game)
        me = viewer_of(actor)
        v = view(state, me)
        friends = {m for a in v.alliances if me in a.members for m in a.members} - {me}
        nobles = {n.id: n for n in v.nobles}
        in_army = {u for a in v.armies for u in a.units}
        board, cat = state.board, state.catalog
        out: list[s.UnitOut] = []

        my_places = places_of_faction(state, me) if me != GM else frozenset()

        def mine(f: str | None, unit: str | None = None) -> tuple[bool, bool]:
            if me == GM:
                return f is not None, False
            if f == me:
                return True, False
            # ALLY.4: an ally's unit where one of mine stands, not yet ordered this round.
            ok = (
                f in friends
                and unit is not None
                and unit_place(state, unit) in my_places
                and prior_order(state, unit, me) is None
            )
            return ok, ok

        for a in v.armies:
            senior = nobles.get(a.senior) if a.senior else None
            f = senior.faction if senior else None
            ok, allied = mine(f)  # ALLY.6: only the senior officer's faction orders an army
            if not ok:
                continue
            first = a.units[0] if a.units else None
            n = nobles.get(first) if first else None
            place = (
                (n.place if n else None)
                if not a.fleet
                else next((x.place for x in v.ships if x.id == first), None)
            )
            out.append(
                s.UnitOut(
                    id=a.id,
                    name=f"{'Fleet' if a.fleet else 'Army'} {a.id}",
                    kind="fleet" if a.fleet else "army",
                    faction=f,
                    place=place,
                    place_name=board.name_of(place) if place else "nowhere",
                    inside=bool(n and n.inside),
                    allied=allied,
                )
            )
        def card(
            kind: Literal["noble", "ship"], uid: str, f: str | None, place: str, inside: bool, allied: bool
        ) -> s.UnitOut:
            return s.UnitOut(
                id=uid,
                name=cat.name_of(uid),
                kind=kind,
                faction=f,
                place=place,
                place_name=board.name_of(place),
                inside=inside,
                allied=allied,
            )

        for n in v.nobles:
            ok, allied = mine(n.faction, n.id)
            if not ok or n.id in in_army or n.place is None or n.aboard is not None or n.captive_of:
                continue
            out.append(card("noble", n.id, n.faction, n.place, n.inside, allied))
        for x in v.ships:
            ok, allied = mine(x.faction, x.id)
            if not ok or x.id in in_army:
                continue
            out.append(card("ship", x.id, x.faction, x.place, x.in_port, allied))
        return out

    def _unit(self, actor: Actor, game: str, unit: str) -> s.UnitOut:
        for u in self.units(actor, game):
            if u.id == unit:
                return u
        state = self.svc.state(game)
        if unit not in state.nobles and unit not in state.ships and unit not in state.armies:
            raise NotFound(f"there is no unit {unit!r}")
        raise PermissionDenied(
            f"you cannot order {state.catalog.name_of(unit) if unit in state.nobles else unit}"
        )

    def destinations(self, actor: Actor, game: str, unit: str) -> s.DestinationsOut:
        """Where ``unit`` may go this turn and what it may do there (``legal_destinations``)."""
        u = self._unit(actor, game, unit)
        state = self.svc.state(game)
        d = legal_destinations(state, unit)
        board = state.board
        out: list[s.DestinationOut] = []
        for p in d.places:
            here = len(p.path) == 1
            actions = (
                (["enter"] if p.enter else []) + (["siege"] if p.siege else [])
                if here
                else (["move"] + (["move_enter"] if p.enter else []))
            )
            if not actions:
                continue
            out.append(
                s.DestinationOut(
                    place=p.place,
                    name=board.name_of(p.place),
                    path=list(p.path),
                    by_road=p.by_road,
                    enter=p.enter,
                    siege=p.siege,
                    rule=p.rule,
                    reason=p.reason,
                    actions=actions,
                )
            )
        for w in d.waters:
            actions = [] if w.port and not w.enter else ["sail"]
            out.append(
                s.DestinationOut(
                    place=w.place,
                    name=board.name_of(w.place),
                    path=list(w.path),
                    sea=not w.port,
                    port=w.port,
                    enter=w.enter,
                    land=w.land,
                    rule=w.rule,
                    reason=w.reason,
                    actions=actions,
                )
            )
        return s.DestinationsOut(
            unit=unit,
            name=u.name,
            orderable=d.orderable,
            reason=d.reason,
            place=u.place,
            inside=u.inside,
            can_leave=u.inside and u.kind in ("noble", "army") and d.orderable,
            destinations=out,
            others=self._others(actor, state, u) if d.orderable else [],
        )

    def _others(self, actor: Actor, state: GameState, u: s.UnitOut) -> list[s.OtherOrderOut]:
        """Embark, land and attack orders for ``u``, each judged now; candidates that
        the rules do not even recognise (``ORDER.invalid``) are left out."""
        by = actor.faction if not actor.is_gm else u.faction
        if by is None or u.place is None:
            return []
        v = view(state, viewer_of(actor))
        board, cat = state.board, state.catalog
        candidates: list[tuple[str, str, str, rc.Command]] = []
        if u.kind == "noble":
            for x in v.ships:
                if x.in_port and x.place == u.place:
                    label = f"Embark on {cat.name_of(x.id)}"
                    candidates.append(("embark", x.id, label, rc.Embark(by, x.id, (u.id,))))
        if u.kind in ("noble", "army"):
            mine = set(state.armies[u.id].units) if u.kind == "army" else {u.id}
            army_of = {m: a.id for a in v.armies if not a.fleet for m in a.units}
            seen: set[str] = set()
            for n in v.nobles:
                if n.id in mine or n.place != u.place or n.inside != u.inside or n.aboard or n.captive_of:
                    continue
                target = army_of.get(n.id, n.id)
                if target in seen or (n.faction == u.faction and u.faction is not None):
                    continue
                seen.add(target)
                label = f"Attack {cat.name_of(target) if target in state.nobles else 'army ' + target}"
                candidates.append(("attack", target, label, rc.Attack(by, u.id, target)))
        if u.kind == "ship":
            ship = state.ships[u.id]
            if ship.passengers:
                ports = (
                    [ship.place]
                    if ship.in_port
                    else sorted(p.id for p in board.places.values() if ship.place in p.seas)
                )
                for port in ports:
                    name = board.name_of(port)
                    for enter in (False, True):
                        action = "land_enter" if enter else "land"
                        label = f"Land at {name}" + (" and go inside" if enter else " (in the open)")
                        landing = rc.Disembark(by, ship.id, ship.passengers, port, enter)
                        candidates.append((action, port, label, landing))
        out: list[s.OtherOrderOut] = []
        for action, target, label, cmd in candidates:
            d = decide(state, cmd)
            if d.result is Result.REFUSED and d.rule == ids.ORDER_INVALID:
                continue
            out.append(
                s.OtherOrderOut(
                    action=action,  # type: ignore[arg-type]
                    target=target,
                    label=label,
                    allowed=d.result in (Result.ACCEPTED, Result.PENDING),
                    rule=d.rule,
                    explanation=d.explanation,
                )
            )
        return out

    def map_order(self, actor: Actor, game: str, body: s.MapOrderIn, key: str | None) -> s.OutcomeOut:
        """An order chosen on the map, submitted through the service."""
        u = self._unit(actor, game, body.unit)
        by = body.by or (actor.faction if not actor.is_gm else u.faction)
        if by is None:
            raise BadRequest("say whose order this is (by)")
        rid: str | None = None  # set below when the order waits for a consent (ALLY.4)
        command: rc.Command
        if body.action in ("embark", "land", "land_enter", "attack"):
            command = self._other_command(actor, game, u, by, body)
        elif body.action == "leave":
            command = rc.Leave(by, body.unit, rid)
        elif body.action in ("enter", "siege"):
            if u.place is None:
                raise BadRequest(f"{u.name} stands nowhere")
            command = (
                rc.Enter(by, body.unit, rid)
                if body.action == "enter"
                else rc.Siege(by, body.unit, u.place, rid)
            )
        else:
            if not body.to:
                raise BadRequest("choose a destination (to)")
            dests = self.destinations(actor, game, body.unit)
            match = [d for d in dests.destinations if d.place == body.to and body.action in d.actions]
            if not match and not key:
                state = self.svc.state(game)
                raise BadRequest(
                    f"{u.name} cannot {body.action.replace('_', ' and ')} to {state.board.name_of(body.to)} this turn"
                )
            if not match:
                # a retried request (its key may have been applied already: the service
                # answers a replay with the first answer; otherwise the rules judge it)
                fallback: rc.Command
                if body.action == "sail":
                    fallback = rc.Sail(by, body.unit, body.to, (), rid)
                else:
                    fallback = rc.Move(by, body.unit, body.to, body.action == "move_enter", rid)
                return outcome_out(self.svc.execute(actor, Submit(game, fallback), key_for(actor, key)))
            d = match[0]
            if body.action == "sail":
                command = rc.Sail(by, body.unit, d.place, tuple(d.path[1:-1]), rid)
            elif d.by_road:
                command = rc.MoveRoad(by, body.unit, tuple(d.path), body.action == "move_enter", rid)
            else:
                command = rc.Move(by, body.unit, d.place, body.action == "move_enter", rid)
        command = with_request_id(command, self.svc.state(game))
        return outcome_out(self.svc.execute(actor, Submit(game, command), key_for(actor, key)))

    def _other_command(
        self, actor: Actor, game: str, u: s.UnitOut, by: str, body: s.MapOrderIn
    ) -> rc.Command:
        """The embark, land or attack order chosen from the unit's list (only what
        that list offers: nothing the caller may not see can be named here)."""
        wanted = body.target if body.action in ("embark", "attack") else body.to
        if not wanted:
            raise BadRequest("say which ship (embark), port (land, as to) or unit (attack): target")
        state = self.svc.state(game)
        offered = {(o.action, o.target) for o in self.destinations(actor, game, u.id).others}
        if (body.action, wanted) not in offered:
            raise BadRequest(f"{u.name} has no such order here: choose one from its list")
        if body.action == "embark":
            return rc.Embark(by, wanted, (u.id,))
        if body.action == "attack":
            return rc.Attack(by, u.id, wanted)
        return rc.Disembark(by, u.id, state.ships[u.id].passengers, wanted, body.action == "land_enter")

    # -- text orders ---------------------------------------------------------------------------
    def _author(self, actor: Actor, by: str | None) -> str:
        if actor.is_gm:
            return by or GM
        if by and by != actor.faction:
            raise PermissionDenied(f"you play {actor.faction}; you cannot post for {by}")
        assert actor.faction is not None
        return actor.faction

    def check_text(self, actor: Actor, game: str, body: s.TextOrdersIn) -> list[s.VerdictOut]:
        """One verdict per order line, judged on the current state; nothing is sent."""
        from kingmaker.orders_text import parse_post

        author = self._author(actor, body.by)
        state = self.svc.state(game)
        post = parse_post(
            parse_state(state, viewer_of(actor)), body.text, author, faction_names=self.faction_names(game)
        )
        rows: list[s.VerdictOut] = []
        for o in post.orders:
            d = (
                o.refusal
                if o.command is None
                else decide(state, private_ids(o.command, o.text, author, state))
            )
            assert d is not None
            rows.append(
                s.VerdictOut(
                    line=o.line,
                    column=o.column,
                    text=o.text.strip(),
                    result=str(d.result),
                    rule=d.rule,
                    explanation=d.explanation,
                    request=d.request,
                )
            )
        rows += [_problem(p) for p in post.problems]
        return sorted(rows, key=lambda r: r.line)

    def send_text(self, actor: Actor, game: str, body: s.TextOrdersIn, key: str | None) -> list[s.VerdictOut]:
        """Each line read against the state as it stands when its turn comes (a later
        order sees the effect of an earlier one) and submitted."""
        from kingmaker.orders_text import parse_post

        author = self._author(actor, body.by)
        names = self.faction_names(game)
        rows: list[s.VerdictOut] = []
        base = key_for(actor, key)
        for no, line in enumerate(body.text.splitlines(), start=1):
            state = self.svc.state(game)
            post = parse_post(parse_state(state, viewer_of(actor)), line, author, faction_names=names)
            rows += [_problem(dataclasses.replace(p, line=no)) for p in post.problems]
            for o in post.orders:
                if o.command is None:
                    d = o.refusal
                    assert d is not None
                    rows.append(
                        s.VerdictOut(
                            line=no,
                            column=o.column,
                            text=line.strip(),
                            result=str(d.result),
                            rule=d.rule,
                            explanation=d.explanation,
                        )
                    )
                    continue
                k = f"{base}:{no}" if base else None
                out = self.svc.execute(actor, Submit(game, private_ids(o.command, o.text, author, state)), k)
                rows.append(
                    s.VerdictOut(
                        line=no,
                        column=o.column,
                        text=line.strip(),
                        result=out.result,
                        rule=out.rule,
                        explanation=out.explanation,
                        request=out.request,
                    )
                )
        return rows

    # -- the inbox -----------------------------------------------------------------------------
    def pending(self, actor: Actor, game: str, faction: str | None = None) -> list[s.PendingOut]:
        who = self.check_viewer(game, self.require_faction(actor, faction))
        viewer = GM_ACTOR if who == GM else Actor("player", who) if who != PUBLIC else Actor("clock")
        items = self.svc.pending(game, viewer)
        return [
            s.PendingOut(
                kind="declaration" if i.kind == "declaration" else "request",
                id=i.id,
                by=i.by,
                awaiting=list(i.awaiting),
                due=i.due,
                rule=i.rule,
                summary=i.summary,
                for_you=who in i.awaiting,
            )
            for i in items
        ]

    def messages(self, actor: Actor, game: str, items: list[s.PendingOut]) -> dict[str, Document]:
        """The GM's message for each item awaiting the actor's answer (by item id)."""
        me = viewer_of(actor)
        if me in (GM, PUBLIC):
            return {}
        ctx = reports_for(self.svc, game)
        state = ctx.timeline.now
        out: dict[str, Document] = {}
        for i in items:
            if not i.for_you:
                continue
            try:
                if i.kind == "declaration":
                    m = alliance_request(state, i.id, me, ctx.names, due=i.due, describe=ctx.describe)
                elif i.rule == ids.ALLY_4:
                    m = allied_order_request(state, i.id, me, ctx.names, due=i.due, describe=ctx.describe)
                else:
                    m = army_consent_request(state, i.id, me, ctx.names, due=i.due, describe=ctx.describe)
            except LookupError:
                continue
            out[i.id] = m.body
        return out

    def answer(self, actor: Actor, game: str, body: s.AnswerIn, key: str | None) -> s.OutcomeOut:
        """Answer a declaration or request awaiting the actor (the GM: awaiting ``by``)."""
        by = body.by or actor.faction
        if by is None:
            raise BadRequest("say who answers (by)")
        if not actor.is_gm and by != actor.faction:
            raise PermissionDenied(f"you play {actor.faction}; you cannot answer for {by}")
        waiting = [p for p in self.pending(actor, game, by if actor.is_gm else None) if p.id == body.id]
        if not waiting or by not in waiting[0].awaiting or waiting[0].kind != body.kind:
            raise NotFound(f"nothing awaits {by}'s answer under {body.id!r}")
        command: rc.Command
        if body.kind == "declaration":
            command = rc.AnswerAlliance(by, body.id, body.accept)
        else:
            command = rc.Confirm(by, body.id) if body.accept else rc.Reject(by, body.id)
        return outcome_out(self.svc.execute(actor, Submit(game, command), key_for(actor, key)))

    def finish_turn(self, actor: Actor, game: str, key: str | None) -> s.OutcomeOut:
        faction = actor.faction if not actor.is_gm else self.svc.state(game).turn
        if faction is None:
            raise BadRequest("only the faction to play or the GM ends a turn")
        return outcome_out(self.svc.execute(actor, FinishTurn(game, faction), key_for(actor, key)))

    def ask_permission(
        self, actor: Actor, game: str, body: s.PermissionAskIn, key: str | None
    ) -> s.OutcomeOut:
        if actor.faction is None:
            raise BadRequest("a faction asks for permission")
        cmd = AskPermission(game, actor.faction, body.of, body.place, tuple(body.aspects), body.note)
        return outcome_out(self.svc.execute(actor, cmd, key_for(actor, key)))

    def deadlines(self, actor: Actor, game: str) -> list[s.DeadlineOut]:
        """Open deadlines the actor may know of: turns, and its own declarations and requests."""
        v = view(self.svc.state(game), viewer_of(actor))
        known = {d.id for d in v.declarations} | {r.id for r in v.requests}
        return [
            s.DeadlineOut(**dataclasses.asdict(d))
            for d in self.svc.deadlines(game)
            if actor.is_gm or d.kind == "turn" or d.target in known
        ]

    # -- the log and reports ---------------------------------------------------------------------
    def log(self, actor: Actor, game: str, ctx: Reports | None = None) -> list[s.LogEntryOut]:
        ctx = ctx or reports_for(self.svc, game)
        entries = self.svc.log_for(game, actor)
        return [_log_entry(ctx, e, actor.is_gm) for e in entries]

    def turn_of(self, ctx: Reports, rnd: int | None, turn: str | None) -> Turn:
        turns = ctx.timeline.turns()
        if not turns:
            raise NotFound("no turn has been played yet")
        if rnd is not None or turn is not None:
            state = ctx.timeline.now
            wanted = (rnd if rnd is not None else state.round, turn or state.turn)
            if wanted not in turns:
                raise NotFound(f"there is no turn of {wanted[1]} in round {wanted[0]} yet")
            return wanted
        over = [t for t in turns if ctx.timeline.is_over(t)]
        return over[-1] if over else turns[-1]

    def reports(
        self,
        actor: Actor,
        game: str,
        rnd: int | None,
        turn: str | None,
        fmt: str,
        faction: str | None = None,
    ) -> s.ReportsOut:
        if fmt not in ("bbcode", "markdown", "plain"):
            raise BadRequest("format is bbcode, markdown or plain")
        who = self.check_viewer(game, self.require_faction(actor, faction))
        ctx = reports_for(self.svc, game)
        t = self.turn_of(ctx, rnd, turn)
        docs = report_docs(ctx, t, who)
        return s.ReportsOut(
            round=t[0],
            turn=t[1],
            format=fmt,
            viewer=who,
            turns=[(r, f) for r, f in ctx.timeline.turns()],
            turn_report=render(docs.turn, fmt),  # type: ignore[arg-type]
            private_report=render(docs.private, fmt) if docs.private else None,  # type: ignore[arg-type]
            messages=[
                s.MessageOut(to=m.to, subject=m.subject, body=render(m.body, fmt))  # type: ignore[arg-type]
                for m in docs.messages
            ],
        )

    # -- the GM's acts -------------------------------------------------------------------------
    def seat(self, actor: Actor, game: str, body: s.SeatIn, base_url: str) -> s.SeatOut:
        gm_only(actor)
        out = self.svc.execute(actor, SeatPlayer(game, body.faction, body.player))
        assert out.token is not None
        return s.SeatOut(
            faction=body.faction,
            player=body.player,
            token=out.token,
            link=f"{base_url.rstrip('/')}/play/{game}/{out.token}",
        )

    def extend(self, actor: Actor, game: str, body: s.ExtendIn, key: str | None) -> s.OutcomeOut:
        return outcome_out(
            self.svc.execute(actor, ExtendDeadline(game, body.target, body.hours), key_for(actor, key))
        )

    def undo(self, actor: Actor, game: str, body: s.UndoIn, key: str | None) -> s.OutcomeOut:
        return outcome_out(self.svc.execute(actor, Undo(game, body.to_seq, body.reason), key_for(actor, key)))

    def tick(self, actor: Actor, game: str) -> s.OutcomeOut:
        gm_only(actor)
        return outcome_out(self.svc.execute(actor, Tick(game)))

    def storm(self, actor: Actor, game: str, body: s.StormIn, key: str | None) -> s.OutcomeOut:
        gm_only(actor)
        return outcome_out(
            self.svc.execute(actor, Submit(game, rc.Storm(rc.GM, body.ship, body.into)), key_for(actor, key))
        )

    def set_control(self, actor: Actor, game: str, body: s.ControlIn, key: str | None) -> s.OutcomeOut:
        gm_only(actor)
        cmd = rc.SetControl(rc.GM, body.place, body.faction or None)
        return outcome_out(self.svc.execute(actor, Submit(game, cmd), key_for(actor, key)))


@dataclass(frozen=True)
class ReportDocs:
    turn: Document
    private: Document | None
    messages: list[Any]


def report_docs(ctx: Reports, t: Turn, who: str) -> ReportDocs:
    faction = who not in (GM, PUBLIC)
    return ReportDocs(
        turn_report(ctx, t, who),
        private_report(ctx, t, who) if faction else None,
        messages_for(ctx, who) if faction else [],
    )


def gm_only(actor: Actor) -> None:
    if not actor.is_gm:
        raise PermissionDenied("only the GM may do this")


_PARSE_STATES: OrderedDict[tuple[int, str], tuple[GameState, GameState]] = OrderedDict()
_PARSE_STATES_LOCK = threading.Lock()


def parse_state(state: GameState, viewer: str) -> GameState:
    """``state`` with only the alliances, declarations and requests ``viewer`` may see
    (for reading names in text orders; the rules judge on the real state). The same
    state object for the same state and viewer, so the reader's name index, kept per
    state, is built once."""
    if viewer == GM:
        return state
    key = (id(state), viewer)
    with _PARSE_STATES_LOCK:
        hit = _PARSE_STATES.get(key)
        if hit is not None and hit[0] is state:
            _PARSE_STATES.move_to_end(key)
            return hit[1]
    narrowed = _narrowed(state, viewer)
    with _PARSE_STATES_LOCK:
        _PARSE_STATES[key] = (state, narrowed)
        while len(_PARSE_STATES) > 64:
            _PARSE_STATES.popitem(last=False)
    return narrowed


def _narrowed(state: GameState, viewer: str) -> GameState:
    v = view(state, viewer)
    return dataclasses.replace(
        state,
        alliances=FrozenDict({a.id: a for a in v.alliances}),
        declarations=FrozenDict({d.id: d for d in v.declarations}),
        requests=FrozenDict({r.id: r for r in v.requests}),
        closed=FrozenDict(),
    )


_AUTO_ALLIANCE = re.compile(r"^alliance-\d+$")


def private_ids(command: rc.Command, text: str, author: str, state: GameState) -> rc.Command:
    """A player's command with ids that tell nothing of others: the reader numbers new
    alliances (``alliance-3``) and the rules number requests by the log's length, and
    both would tell a player how many secret ones there are. An id the player wrote
    (``AS rg``) is kept under the player's faction (``red-rg``): otherwise "already
    exists" would confirm that another faction's secret alliance or request bears it.
    An order that needs no one's consent gets no request id."""
    if author == GM:
        return command
    if (
        isinstance(command, rc.DeclareAlliance)
        and _AUTO_ALLIANCE.match(command.id)
        and command.id not in text
    ):
        return dataclasses.replace(command, id=f"alliance-{secrets.token_hex(3)}")
    chosen = getattr(command, "id", None)
    if isinstance(chosen, str) and chosen and not chosen.startswith(f"{author}-"):
        command = dataclasses.replace(command, id=f"{author}-{chosen}")  # type: ignore[type-var]
    return with_request_id(command, state)


def with_request_id(command: rc.Command, state: GameState) -> rc.Command:
    """``command`` with a request id of its own when it will wait for a consent."""
    if (
        any(f.name == "id" for f in dataclasses.fields(command))  # type: ignore[arg-type]
        and getattr(command, "id", "") is None
        and decide(state, command).result is Result.PENDING
    ):
        return dataclasses.replace(command, id=f"req-{secrets.token_hex(4)}")  # type: ignore[type-var]
    return command


def _problem(p: Any) -> s.VerdictOut:
    return s.VerdictOut(
        line=p.line, column=p.column, text=p.text.strip(), result=p.kind, rule=None, explanation=p.message
    )


def _plain(obj: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in dataclasses.fields(obj):
        v = getattr(obj, f.name)
        out[f.name] = list(v) if isinstance(v, tuple) else v
    return out


def _log_entry(ctx: Reports, env: Envelope, gm: bool) -> s.LogEntryOut:
    try:
        text = plain(sentence(env, ctx.names, ctx.describe, ctx.timeline.state_before(env.seq)) or ())
    except Exception:  # an entry no sentence can say: its kind
        text = ""
    data = to_data(env.event)
    return s.LogEntryOut(
        seq=env.seq,
        round=env.round,
        turn=env.turn,
        actor=env.actor,
        rule=env.rule,
        kind=str(data.get("kind", "")),
        text=text or str(data.get("kind", "")).replace("_", " "),
        recorded_at=env.recorded_at,
        event=data,
        command=env.command if gm else None,
    )

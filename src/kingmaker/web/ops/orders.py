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
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kingmaker.log.envelope import Envelope
from kingmaker.log.visibility import numbering
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
from kingmaker.rules.candidates import (
    ATTACK,
    EMBARK,
    ENTER,
    LAND,
    LAND_ENTER,
    LEAVE,
    MOVE,
    MOVE_ENTER,
    SAIL,
    SIEGE,
    Candidate,
    OrderableUnit,
    candidate_orders,
    orderable_units,
)
from kingmaker.rules.commands import GM
from kingmaker.rules.records import to_data
from kingmaker.rules.state import GameState
from kingmaker.rules.units import owner, unit_kind, unit_place
from kingmaker.rules.views import PUBLIC, View, view
from kingmaker.service import GM_ACTOR, Actor, BadRequest, NotFound, PermissionDenied
from kingmaker.service.commands import (
    AskPermission,
    CreateGame,
    ExtendDeadline,
    FinishTurn,
    SeatPlayer,
    ServiceCommand,
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


def outcome_out(o: Outcome, actor: Actor) -> s.OutcomeOut:
    """The service's answer for ``actor``: the log entries written are numbered only
    for the GM (a player's numbers would give the log's head, and with it how many
    entries they may not read, away)."""
    return s.OutcomeOut(
        game=o.game,
        result=o.result,
        explanation=o.explanation,
        rule=o.rule,
        awaiting=list(o.awaiting),
        request=o.request,
        first_seq=o.first_seq if actor.is_gm else None,
        last_seq=o.last_seq if actor.is_gm else None,
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

    def run(self, actor: Actor, command: ServiceCommand, key: str | None = None) -> s.OutcomeOut:
        """Execute ``command`` for ``actor`` (``key``: an idempotency key, already in
        the actor's own space) and answer it as ``actor`` may read it."""
        return outcome_out(self.svc.execute(actor, command, key), actor)

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
        return self.run(actor, cmd)

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
    def orderer(self, actor: Actor, state: GameState) -> str | None:
        """Whose orders ``actor`` gives on the map: a player's own faction's; the GM's,
        the faction to play's (None for an observer)."""
        if actor.is_gm:
            return state.turn
        return actor.faction if actor.role == "player" else None

    def units(self, actor: Actor, game: str) -> list[s.UnitOut]:
        """The units ``actor`` may order now (``rules.orderable_units``): its own on
        its turn, an ally's where one of its own units stands (ALLY.4), the armies it
        commands (ALLY.6). The GM orders for the faction to play."""
        state = self.svc.state(game)
        by = self.orderer(actor, state)
        if by is None:
            return []
        return [self._unit_out(state, u) for u in orderable_units(state, by)]

    @staticmethod
    def _unit_out(state: GameState, u: OrderableUnit) -> s.UnitOut:
        army = u.kind in ("army", "fleet")
        return s.UnitOut(
            id=u.id,
            name=f"{'Fleet' if u.kind == 'fleet' else 'Army'} {u.id}"
            if army
            else state.catalog.name_of(u.id),
            kind=u.kind,  # type: ignore[arg-type]  # one of the four kinds
            faction=u.faction,
            place=u.place,
            place_name=state.board.name_of(u.place) if u.place else "nowhere",
            inside=u.inside,
            allied=u.allied,
        )

    def destinations(self, actor: Actor, game: str, unit: str) -> s.DestinationsOut:
        """Where ``unit`` may go this turn and what it may do there: its candidate
        orders (``rules.candidate_orders``), each with the verdict ``decide`` gives."""
        state = self.svc.state(game)
        kind = unit_kind(state, unit)
        by = self.orderer(actor, state)
        if kind is None or by is None:
            raise NotFound(f"there is no unit {unit[:40]!r}")
        self._require_friendly(state, unit, by)
        cands = candidate_orders(state, unit, by)
        place = unit_place(state, unit)
        first = state.armies[unit].units[0] if unit in state.armies else unit
        inside = state.nobles[first].inside if first in state.nobles else state.ships[first].in_port
        label = self._label(state, unit)
        orderable = any(c.allowed for c in cands)
        if not orderable:
            refusal = next((c for c in cands if not c.allowed), None)
            reason = refusal.explanation if refusal else f"{label} can take no order here now"
            return s.DestinationsOut(
                unit=unit,
                name=label,
                orderable=False,
                reason=reason,
                place=place,
                inside=inside,
                can_leave=False,
                destinations=[],
            )
        return s.DestinationsOut(
            unit=unit,
            name=label,
            orderable=True,
            reason="",
            place=place,
            inside=inside,
            can_leave=any(c.action == LEAVE and c.allowed for c in cands),
            destinations=_destination_rows(state, cands),
            others=[_other_row(state, c) for c in cands if c.action in _OTHER_ACTIONS],
        )

    @classmethod
    def _require_friendly(cls, state: GameState, unit: str, by: str) -> None:
        """A unit neither ``by``'s nor an ally's is not ``by``'s to order (ORDER.foreign)."""
        members = state.armies[unit].units if unit in state.armies else (unit,)
        owners = {owner(state, m) for m in members}
        if not any(f == by or (f is not None and state.allied(by, f)) for f in owners):
            raise PermissionDenied(
                f"you cannot order {cls._label(state, unit)}: it is neither yours nor an ally's"
            )

    @staticmethod
    def _label(state: GameState, unit: str) -> str:
        if unit in state.armies:
            return f"{'Fleet' if state.armies[unit].fleet else 'Army'} {unit}"
        return state.catalog.name_of(unit)

    def map_order(self, actor: Actor, game: str, body: s.MapOrderIn, key: str | None) -> s.OutcomeOut:
        """An order chosen on the map: one of the unit's candidate orders, submitted
        through the service (a retried request with the same key gets its first answer;
        otherwise the order must be one the list offers, key or no key)."""
        k = key_for(actor, key)
        if k is not None:
            seen = self.svc.earlier_answer(game, k)
            if seen is not None:
                return outcome_out(seen, actor)
        state = self.svc.state(game)
        by = self.orderer(actor, state)
        if actor.is_gm and body.by:
            by = body.by
        elif body.by and body.by != by:
            raise PermissionDenied(f"you play {actor.faction}; you cannot give {body.by}'s orders")
        if by is None:
            raise PermissionDenied("only a player or the GM gives orders")
        if unit_kind(state, body.unit) is None:
            raise NotFound(f"there is no unit {body.unit[:40]!r}")
        self._require_friendly(state, body.unit, by)
        if body.action in (ENTER, LEAVE, SIEGE):
            wanted = unit_place(state, body.unit)
        elif body.action in (EMBARK, ATTACK):
            wanted = body.target
        else:
            wanted = body.to
        if not wanted:
            raise BadRequest("say where (to) or what (target) the order is for")
        cands = candidate_orders(state, body.unit, by)
        if not any(c.allowed for c in cands):
            refusal = next((c.explanation for c in cands), "it can take no order here now")
            raise PermissionDenied(f"you cannot order {self._label(state, body.unit)} now: {refusal}")
        match = [c for c in cands if c.action == body.action and c.target == wanted]
        if not match:
            raise BadRequest(
                f"{self._label(state, body.unit)} has no such order here now: choose one from its list"
            )
        return self.run(actor, Submit(game, match[0].command), k)

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
        return self._post(actor, game, body, None, send=False)

    def send_text(self, actor: Actor, game: str, body: s.TextOrdersIn, key: str | None) -> list[s.VerdictOut]:
        """Each line read against the state as it stands when its turn comes (a later
        order sees the effect of an earlier one) and submitted. Every line gets its
        verdict, whatever happens to the others."""
        return self._post(actor, game, body, key, send=True)

    def _post(
        self, actor: Actor, game: str, body: s.TextOrdersIn, key: str | None, *, send: bool
    ) -> list[s.VerdictOut]:
        verdicts = self.svc.post(
            actor,
            game,
            body.text,
            self._author(actor, body.by),
            send=send,
            key=key_for(actor, key),
        )
        return [
            s.VerdictOut(
                line=v.line,
                column=v.column,
                text=v.text,
                result=v.result,
                rule=v.rule,
                explanation=v.explanation,
                request=v.request,
                reading=v.reading,
            )
            for v in verdicts
        ]

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
        return self.run(actor, Submit(game, command), key_for(actor, key))

    def finish_turn(self, actor: Actor, game: str, key: str | None) -> s.OutcomeOut:
        faction = actor.faction if not actor.is_gm else self.svc.state(game).turn
        if faction is None:
            raise BadRequest("only the faction to play or the GM ends a turn")
        return self.run(actor, FinishTurn(game, faction), key_for(actor, key))

    def ask_permission(
        self, actor: Actor, game: str, body: s.PermissionAskIn, key: str | None
    ) -> s.OutcomeOut:
        if actor.faction is None:
            raise BadRequest("a faction asks for permission")
        cmd = AskPermission(game, actor.faction, body.of, body.place, tuple(body.aspects), body.note)
        return self.run(actor, cmd, key_for(actor, key))

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
        number = numbering(entries, viewer_of(actor))
        return [_log_entry(ctx, e, actor.is_gm, number) for e in entries]

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
        return self.run(actor, ExtendDeadline(game, body.target, body.hours), key_for(actor, key))

    def undo(self, actor: Actor, game: str, body: s.UndoIn, key: str | None) -> s.OutcomeOut:
        return self.run(actor, Undo(game, body.to_seq, body.reason), key_for(actor, key))

    def tick(self, actor: Actor, game: str) -> s.OutcomeOut:
        gm_only(actor)
        return self.run(actor, Tick(game))

    def storm(self, actor: Actor, game: str, body: s.StormIn, key: str | None) -> s.OutcomeOut:
        gm_only(actor)
        return self.run(actor, Submit(game, rc.Storm(rc.GM, body.ship, body.into)), key_for(actor, key))

    def set_control(self, actor: Actor, game: str, body: s.ControlIn, key: str | None) -> s.OutcomeOut:
        gm_only(actor)
        cmd = rc.SetControl(rc.GM, body.place, body.faction or None)
        return self.run(actor, Submit(game, cmd), key_for(actor, key))


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


def _plain(obj: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in dataclasses.fields(obj):
        v = getattr(obj, f.name)
        out[f.name] = list(v) if isinstance(v, tuple) else v
    return out


def _log_entry(ctx: Reports, env: Envelope, gm: bool, number: Callable[[int], int]) -> s.LogEntryOut:
    """One entry as its reader sees it, numbered as that reader numbers the log."""
    try:
        text = plain(sentence(env, ctx.names, ctx.describe, ctx.timeline.state_before(env.seq), number) or ())
    except Exception:  # an entry no sentence can say: its kind
        text = ""
    data = to_data(env.event)
    return s.LogEntryOut(
        seq=number(env.seq),
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


_OTHER_ACTIONS = {EMBARK: "Embark on", LAND: "Land at", LAND_ENTER: "Land at", ATTACK: "Attack"}


def _other_row(state: GameState, c: Candidate) -> s.OtherOrderOut:
    """An order that goes nowhere new on the map (embark, land, attack), with its verdict."""
    target = (
        state.catalog.name_of(c.target)
        if c.target in state.nobles or c.target in state.ships
        else (f"army {c.target}" if c.target in state.armies else state.board.name_of(c.target))
    )
    label = f"{_OTHER_ACTIONS[c.action]} {target}"
    if c.action == LAND:
        label += " (in the open)"
    elif c.action == LAND_ENTER:
        label += " and go inside"
    elif c.action == EMBARK and c.target in state.nobles:
        label = f"Take {target} aboard"
    return s.OtherOrderOut(
        action=c.action,  # type: ignore[arg-type]  # one of the four
        target=c.target,
        label=label,
        allowed=c.allowed,
        rule=c.rule,
        explanation=c.explanation,
    )


def _destination_rows(state: GameState, cands: tuple[Candidate, ...]) -> list[s.DestinationOut]:
    """The unit's moves, voyages, and what it may do where it stands, one row per place:
    ``actions`` lists the allowed ones; ``enter``/``siege``/``rule``/``reason`` say
    whether it may go inside (or lay siege) there and, when not, why."""
    board = state.board
    rows: dict[str, s.DestinationOut] = {}
    for c in cands:
        if c.action not in (MOVE, MOVE_ENTER, ENTER, SIEGE, SAIL):
            continue
        row = rows.get(c.target)
        if row is None:
            sea = c.action == SAIL and c.target in board.seas
            row = rows[c.target] = s.DestinationOut(
                place=c.target,
                name=board.name_of(c.target),
                path=list(c.path),
                sea=sea,
                port=c.action == SAIL and not sea,
                by_road=isinstance(c.command, rc.MoveRoad),
                actions=[],
            )
        if c.allowed:
            row.actions.append(c.action)
        if c.action in (MOVE_ENTER, ENTER) or (c.action == SAIL and row.port):
            row.enter = c.allowed
            row.rule = c.rule
            row.reason = "" if c.allowed else c.explanation
        elif c.action == SIEGE:
            row.siege = c.allowed
    for c in cands:  # a port where the passengers may land and go inside
        if c.action == LAND_ENTER and c.allowed and c.target in rows:
            rows[c.target].land = True
    return list(rows.values())

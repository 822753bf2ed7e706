"""``GameService``: runs commands against games in a ``GameStore`` and answers queries.

Each command goes to its handler (``service.handlers``), which decides it on the game's
current state and commits its entries through the unit of work
(``service.unit_of_work``): appends use optimistic concurrency on the sequence number
(if another writer got there first, the game is reloaded and the command decided
again), and an idempotency key makes a retried request apply once. Deadlines are
checked against the injected clock before every command and on ``Tick``.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass

from kingmaker.log.envelope import Envelope
from kingmaker.log.fold import Timeline
from kingmaker.orders_text import format_order
from kingmaker.rules import commands as rc
from kingmaker.rules import ids
from kingmaker.rules.state import GameState
from kingmaker.rules.views import PUBLIC, View, view
from kingmaker.storage.base import GameRecord, GameStore, Seat

from . import handlers, limits, posts
from .clock import Clock
from .commands import (
    AskPermission,
    CreateGame,
    ExtendDeadline,
    FinishTurn,
    NoteUnreadLine,
    SeatPlayer,
    ServiceCommand,
    Submit,
    Tick,
    Undo,
)
from .errors import BadRequest, PermissionDenied
from .identity import GM_ACTOR, Actor, player, token_hash
from .open_business import OpenBusiness, open_asks, open_business
from .outcome import Outcome
from .projection import Deadline, Projection
from .settings import GameSettings
from .unit_of_work import CACHE_SIZE, UnitOfWork


class GameService:
    """The one way games change, and the queries over them: commands go to their
    handlers over the unit of work (``uow``), which holds the games it has loaded."""

    def __init__(
        self,
        store: GameStore,
        clock: Clock | None = None,
        *,
        max_retries: int = 200,
        cache_size: int = CACHE_SIZE,
    ):
        self.uow = UnitOfWork(store, clock, max_retries=max_retries, cache_size=cache_size)

    @property
    def store(self) -> GameStore:
        return self.uow.store

    @property
    def clock(self) -> Clock:
        return self.uow.clock

    def require_game(self, game: str) -> GameRecord:
        """The game's record; ``NotFound`` when there is no such game."""
        return self.uow.require_game(game)

    def games(self) -> list[GameRecord]:
        """Every game's record, as the store lists them."""
        return self.store.games()

    def seats(self, game: str) -> list[Seat]:
        """Who sits at each faction of ``game`` (never a token: only its hash is kept)."""
        self.require_game(game)
        return self.store.seats(game)

    def earlier_answer(self, game: str, key: str) -> Outcome | None:
        """The answer given to an earlier command sent with idempotency ``key``."""
        return self.uow.earlier_answer(game, key)

    def execute(self, actor: Actor, command: ServiceCommand, idempotency_key: str | None = None) -> Outcome:
        """Run one command for ``actor``; raises ``ServiceError`` subclasses with a
        message for the user when the request itself is not allowed or malformed."""
        limits.check(command)
        bad_key = limits.key_problem(idempotency_key)
        if bad_key is not None:
            raise BadRequest(bad_key)
        with self.uow.request():  # the store's head is read once (``UnitOfWork.request``)
            outcome = self._dispatch(actor, command, idempotency_key)
            if not outcome.replayed:
                self._automatic_steps(outcome.game)
            return outcome

    def _automatic_steps(self, game: str) -> None:
        """What the service does by itself once a command is done: in a full game whose
        settings say so, draw the event card of a turn that has begun (EVENT.draw), as
        the GM would."""
        if not self.uow.static_of(game).settings.draw_events:
            return
        for _ in range(3):  # a draw moves the turn to its movement phase (or waits for a storm)
            state = self.state(game)
            if not (state.phased and state.phase == "event" and not state.storms):
                return
            out = handlers.submit(self.uow, GM_ACTOR, Submit(game, rc.DrawEvent(rc.GM)), None)
            if out.result != "accepted":
                return

    def _dispatch(self, actor: Actor, command: ServiceCommand, idempotency_key: str | None) -> Outcome:
        if isinstance(command, CreateGame):
            return handlers.create_game(self.uow, actor, command)
        game = command.game
        self.require_game(game)
        if isinstance(command, Tick):
            return handlers.tick(self.uow, game)
        if isinstance(command, Undo):
            return handlers.undo(self.uow, actor, command, idempotency_key)
        handlers.tick(self.uow, game)
        if isinstance(command, SeatPlayer):
            return handlers.seat_player(self.uow, actor, command, idempotency_key)
        if isinstance(command, Submit):
            return handlers.submit(self.uow, actor, command, idempotency_key)
        if isinstance(command, NoteUnreadLine):
            return posts.note_unread_line(self.uow, actor, command, idempotency_key)
        if isinstance(command, FinishTurn):
            return handlers.finish_turn(self.uow, actor, command, idempotency_key)
        if isinstance(command, AskPermission):
            return handlers.ask_permission(self.uow, actor, command, idempotency_key)
        if isinstance(command, ExtendDeadline):
            return handlers.extend_deadline(self.uow, actor, command, idempotency_key)
        raise BadRequest(f"unknown command {type(command).__name__}")

    def post(
        self,
        actor: Actor,
        game: str,
        text: str,
        author: str,
        *,
        send: bool,
        key: str | None = None,
    ) -> list[posts.LineVerdict]:
        """A post of text orders by ``author``, each line judged and (``send``) submitted,
        with one verdict per line (``service.posts``)."""
        with self.uow.request():
            return posts.post(self, actor, game, text, author, send=send, key=key)

    def preview(self, actor: Actor, command: Submit) -> Outcome:
        r"""What submitting ``command`` would answer now; nothing is written. Raises the
        same ``ServiceError``\ s as ``execute``."""
        limits.check(command)
        self.require_game(command.game)
        with self.uow.request():
            return handlers.preview(self.uow, actor, command)

    # ------------------------------------------------------------------ queries
    def state(self, game: str) -> GameState:
        """The current rules state (the GM's; players get ``view``)."""
        self.require_game(game)
        return self.uow.held(game).state

    def projection(self, game: str) -> Projection:
        """The game as the service holds it: state, deadlines, who has ordered (a copy)."""
        self.require_game(game)
        return self.uow.current(game)

    def settings(self, game: str) -> GameSettings:
        """The game's settings: its deadline policy, and its factions' names and colours."""
        self.require_game(game)
        return self.uow.static_of(game).settings

    def replayed_state(self, game: str) -> GameState:
        """The state replayed from the first entry, ignoring every snapshot."""
        self.require_game(game)
        return self.uow.project(game, snapshots=False).state

    def save_snapshot(self, game: str) -> None:
        """Store a snapshot of the game as it stands (snapshots only make loading fast)."""
        self.require_game(game)
        self.uow.save_snapshot(game)

    def identify(self, game: str, token: str) -> Actor:
        """The player a secret token belongs to; ``PermissionDenied`` for any other token."""
        self.require_game(game)
        digest = token_hash(token)
        for seat in self.store.seats(game):
            if secrets.compare_digest(seat.token_hash, digest):
                return player(seat.faction)
        raise PermissionDenied("that link is not valid for this game")

    def log(self, game: str) -> list[Envelope]:
        """Every entry (the GM's audit log; players read ``log_for``)."""
        self.require_game(game)
        return list(self.uow.timeline(game).envelopes)

    def log_for(self, game: str, viewer: Actor) -> list[Envelope]:
        """The entries ``viewer`` may read, with their rule ids."""
        self.require_game(game)
        return list(self.uow.timeline(game).visible(_viewer(viewer)))

    def report_inputs(self, game: str) -> ReportInputs:
        """What the game's reports read: its record, settings and timeline (the log as
        the service holds it, folded from the first entry to the latest). Only entries
        the service has not folded yet are read from the store."""
        self.require_game(game)
        timeline = self.uow.timeline(game)
        st = self.uow.static_of(game)
        return ReportInputs(self.store.game(game), st.settings, timeline)

    def view(self, game: str, viewer: Actor) -> View:
        """What ``viewer`` may see of the position (secret alliances hidden)."""
        return view(self.state(game), _viewer(viewer))

    def pending(self, game: str, viewer: Actor) -> list[PendingItem]:
        """What waits for answers, and for whom, with deadlines: only what ``viewer``
        may know of (its own declarations and requests, and those awaiting it)."""
        self.require_game(game)
        pos = self.uow.held(game).position
        v = view(pos.state, _viewer(viewer))
        due = {d.target: d.due for d in pos.open_deadlines()}
        names = self.uow.static_of(game).settings.faction_names()
        items = [
            PendingItem(
                "declaration",
                d.id,
                d.by,
                d.awaiting,
                due.get(d.id),
                ids.ALLY_2,
                f"{d.by} declares an alliance with {', '.join(d.invited)}",
            )
            for d in v.declarations
        ]
        items += [
            PendingItem(
                "request",
                r.id,
                r.by,
                r.awaiting,
                due.get(r.id),
                r.rule,
                _describe(r.command, pos.state, names),
            )
            for r in v.requests
        ]
        return items

    def open_business(self, game: str) -> OpenBusiness:
        """What is still open, for the GM (``service.open_business``): battles and
        sieges, the answers awaited by faction (permissions asked included), Parliament,
        captives, and where every heir is; each item says whether ending the turn now
        would settle or drop it."""
        self.require_game(game)
        pos = self.uow.held(game).position
        timeline = self.uow.timeline(game)
        live = timeline.live
        asks = open_asks(e for e in timeline.envelopes if e.seq in live)
        return open_business(pos.state, {d.target: d.due for d in pos.open_deadlines()}, asks)

    def deadlines(self, game: str) -> list[Deadline]:
        """The open deadlines: the current turn's, pending declarations' and requests'."""
        self.require_game(game)
        return self.uow.held(game).position.open_deadlines()


@dataclass(frozen=True)
class ReportInputs:
    """What a game's reports read (``GameService.report_inputs``)."""

    record: GameRecord
    settings: GameSettings
    timeline: Timeline


@dataclass(frozen=True)
class PendingItem:
    kind: str  # "declaration" | "request"
    id: str
    by: str
    awaiting: tuple[str, ...]
    due: str | None
    rule: str
    summary: str


def _viewer(actor: Actor) -> str:
    if actor.is_gm:
        return rc.GM
    if actor.role == "player" and actor.faction:
        return actor.faction
    return PUBLIC


def _describe(command: object, state: GameState, names: Mapping[str, str]) -> str:
    """The request's order as players write it (``Red: Mowbray LEAVES Ipswich AS q12``)."""
    if isinstance(command, rc.Command):
        try:
            return format_order(command, state, label=True, faction_names=names)
        except ValueError:  # a command with no text form: its kind, in words
            pass
    kind = getattr(command, "kind", "order").replace("_", " ")
    return f"{getattr(command, 'by', '?')}: {kind}"

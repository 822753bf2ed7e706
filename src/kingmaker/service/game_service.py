"""``GameService``: runs commands against games in a ``GameStore``.

Each command is decided on the game's current state and its entries are appended with
optimistic concurrency on the sequence number: if another writer got there first, the
service reloads and decides again. An idempotency key makes a retried request apply
once. Deadlines are checked against the injected clock before every command and on
``Tick``.
"""

from __future__ import annotations

import random
import re
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from pathlib import Path

from kingmaker.data import DataError, load_dataset
from kingmaker.log.envelope import Envelope
from kingmaker.log.service_events import (
    DeadlinePassed,
    DeadlineSet,
    GameStarted,
    OrdersMissed,
    OrderSubmitted,
    PermissionAsked,
    PlayerSeated,
    Undone,
)
from kingmaker.log.visibility import visible_log
from kingmaker.rules import commands as rc
from kingmaker.rules import events as ev
from kingmaker.rules import ids
from kingmaker.rules.board import Board
from kingmaker.rules.cards import Catalog
from kingmaker.rules.chance import commitment
from kingmaker.rules.codec import board_from_data, board_to_data, catalog_from_data, catalog_to_data
from kingmaker.rules.deal import new_game
from kingmaker.rules.decide import decide
from kingmaker.rules.records import Record
from kingmaker.rules.state import GameState
from kingmaker.rules.views import PUBLIC, View, open_order, view
from kingmaker.storage.base import ConcurrencyError, GameExists, GameRecord, GameStore, Seat, UnknownGame

from .clock import Clock, SystemClock, iso, parse_iso
from .commands import (
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
from .errors import BadRequest, Conflict, NotFound, PermissionDenied
from .identity import CLOCK, GM_ACTOR, Actor, new_token, player, token_hash
from .outcome import Outcome
from .projection import Deadline, Projection
from .settings import GameSettings

Entry = tuple[Record, str | None]  # an event or service entry, and the rule that decided it
Build = Callable[[Projection], tuple[Outcome, list[Entry]]]

_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,62}$")


@dataclass(frozen=True)
class _Static:
    board: Board
    catalog: Catalog
    settings: GameSettings


class GameService:
    """The one way games change. Thread-safe; several processes may share one store."""

    def __init__(self, store: GameStore, clock: Clock | None = None, *, max_retries: int = 200):
        self.store = store
        self.clock: Clock = clock or SystemClock()
        self.max_retries = max_retries
        self._cache: dict[str, Projection] = {}
        self._static: dict[str, _Static] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    # ------------------------------------------------------------------ commands
    def execute(self, actor: Actor, command: ServiceCommand, idempotency_key: str | None = None) -> Outcome:
        """Run one command for ``actor``; raises ``ServiceError`` subclasses with a
        message for the user when the request itself is not allowed or malformed."""
        if isinstance(command, CreateGame):
            return self._create(actor, command)
        game = command.game
        self._require_game(game)
        if isinstance(command, Tick):
            return self._tick(game)
        if isinstance(command, Undo):
            return self._undo(actor, command, idempotency_key)
        self._tick(game)
        if isinstance(command, SeatPlayer):
            return self._seat(actor, command, idempotency_key)
        if isinstance(command, Submit):
            return self._submit(actor, command, idempotency_key)
        if isinstance(command, FinishTurn):
            return self._finish_turn(actor, command, idempotency_key)
        if isinstance(command, AskPermission):
            return self._ask(actor, command, idempotency_key)
        if isinstance(command, ExtendDeadline):
            return self._extend(actor, command, idempotency_key)
        raise BadRequest(f"unknown command {type(command).__name__}")

    def _create(self, actor: Actor, cmd: CreateGame) -> Outcome:
        if not actor.is_gm:
            raise PermissionDenied("only the GM creates games")
        try:
            ds = load_dataset(Path(cmd.data_folder) if cmd.data_folder else None)
        except DataError as e:
            raise BadRequest(f"the data set cannot be used:\n{e}") from None
        factions = tuple(cmd.factions)
        if len(set(factions)) != len(factions) or not factions:
            raise BadRequest("give one or more distinct factions")
        for f in factions:
            if not _ID.match(f) or f in ("gm", "clock", "public"):
                raise BadRequest(f"{f!r} is not a usable faction id (lower case letters, digits, - and _)")
        if not ds.setup.min_factions <= len(factions) <= ds.setup.max_factions:
            raise BadRequest(
                f"{ds.name} seats {ds.setup.min_factions} to {ds.setup.max_factions} factions, not {len(factions)}"
            )
        game_id = cmd.game_id or f"{_slug(cmd.name)}-{secrets.token_hex(3)}"
        if not _ID.match(game_id):
            raise BadRequest(f"{game_id!r} is not a usable game id")
        seed = cmd.seed if cmd.seed is not None else secrets.token_hex(16)
        try:
            state = new_game(
                ds.board,
                ds.catalog,
                factions,
                seed,
                cards_per_faction=cmd.cards_per_faction or ds.setup.cards_per_faction,
                removed=ds.setup.removed,
                crowned=ds.setup.crowned,
            )
        except ValueError as e:
            raise BadRequest(f"the game cannot be dealt: {e}") from None
        known = {f.id: f for f in ds.setup.factions}
        names = {
            f: {
                "name": known[f].name if f in known else f.capitalize(),
                "colour": known[f].colour if f in known else "#777777",
            }
            for f in factions
        }
        now = self.clock.now()
        record = GameRecord(
            id=game_id,
            name=cmd.name,
            created_at=iso(now),
            factions=factions,
            data_set=ds.name,
            board=board_to_data(ds.board),
            catalog=catalog_to_data(ds.catalog),
            seed=seed,
            commitment=commitment(seed),
            settings={**cmd.settings.to_data(), "factions": names},
        )
        try:
            self.store.create_game(record, Projection.initial_snapshot(state))
        except GameExists:
            raise BadRequest(f"a game {game_id!r} already exists") from None
        entries: list[Entry] = [
            (GameStarted(cmd.name, factions, record.commitment, ds.name), None),
            (ev.SeedCommitted(record.commitment), None),
        ]
        if cmd.settings.turn_hours:
            due = iso(now + timedelta(hours=cmd.settings.turn_hours))
            entries.append((DeadlineSet(state.turn, "turn", due), ids.TURN_END))
        outcome = Outcome(game_id, "done", f"game {game_id} created for {', '.join(factions)}")
        return self._commit(game_id, GM_ACTOR, lambda proj: (outcome, entries), None)

    def _seat(self, actor: Actor, cmd: SeatPlayer, key: str | None) -> Outcome:
        if not actor.is_gm:
            raise PermissionDenied("only the GM seats players")
        rec = self.store.game(cmd.game)
        if cmd.faction not in rec.factions:
            raise BadRequest(f"{cmd.faction!r} is not a faction of game {cmd.game}")
        if not cmd.player.strip():
            raise BadRequest("a player needs a name")
        token = new_token()
        outcome = Outcome(cmd.game, "done", f"{cmd.player} plays {cmd.faction}")
        result = self._commit(
            cmd.game, actor, lambda p: (outcome, [(PlayerSeated(cmd.faction, cmd.player), None)]), key
        )
        if result.replayed:
            return result
        self.store.set_seat(cmd.game, Seat(cmd.faction, cmd.player, token_hash(token)))
        return replace(result, token=token)

    def _authorize(self, actor: Actor, command: rc.Command, state: GameState) -> None:
        if actor.role == "clock":
            raise PermissionDenied("the clock gives no orders")
        gm_only = isinstance(command, rc.GM_COMMANDS)
        if actor.is_gm:
            if gm_only and command.by != rc.GM:
                raise BadRequest(f"a {command.kind} is given by the GM (by: gm)")
            return
        if gm_only:
            raise PermissionDenied(f"only the GM may give a {command.kind.replace('_', ' ')}")
        if command.by != actor.faction:
            raise PermissionDenied(f"you play {actor.faction}; you cannot act for {command.by}")

    def _submit(self, actor: Actor, cmd: Submit, key: str | None) -> Outcome:
        command = cmd.command

        def build(proj: Projection) -> tuple[Outcome, list[Entry]]:
            self._authorize(actor, command, proj.state)
            d = decide(proj.state, command)
            entries: list[Entry] = [
                (
                    OrderSubmitted(
                        command.by, command, d.result.value, d.rule, d.explanation, open_order(proj.state, command)
                    ),
                    d.rule,
                )
            ]
            entries += [(e, d.rule) for e in d.events]
            entries += self._deadlines_for(proj, d.events)
            return Outcome.of(cmd.game, d), entries

        return self._commit(cmd.game, actor, build, key)

    def _ask(self, actor: Actor, cmd: AskPermission, key: str | None) -> Outcome:
        if not actor.is_gm and actor.faction != cmd.faction:
            raise PermissionDenied(f"you play {actor.faction}; you cannot ask for {cmd.faction}")

        def build(proj: Projection) -> tuple[Outcome, list[Entry]]:
            state = proj.state
            if cmd.place not in state.board.places:
                raise NotFound(f"there is no place {cmd.place!r}")
            holder = state.control.get(cmd.place)
            if holder != cmd.of:
                raise BadRequest(f"{cmd.of} does not control {state.board.name_of(cmd.place)}")
            if cmd.faction == cmd.of or cmd.faction not in state.turn_order:
                raise BadRequest(f"{cmd.faction!r} cannot ask {cmd.of} for permission")
            bad = [a for a in cmd.aspects if a not in ids.GRANTABLE]
            if not cmd.aspects or bad:
                raise BadRequest(f"ask for one or more of {', '.join(ids.GRANTABLE)}")
            text = f"{cmd.faction} asks {cmd.of} for {', '.join(cmd.aspects)} at {state.board.name_of(cmd.place)}"
            entry = PermissionAsked(cmd.faction, cmd.of, cmd.place, tuple(cmd.aspects), cmd.note)
            return Outcome(cmd.game, "done", text), [(entry, ids.LOC_PERMISSION)]

        return self._commit(cmd.game, actor, build, key)

    def _finish_turn(self, actor: Actor, cmd: FinishTurn, key: str | None) -> Outcome:
        def build(proj: Projection) -> tuple[Outcome, list[Entry]]:
            if not actor.is_gm and actor.faction != cmd.faction:
                raise PermissionDenied(f"you play {actor.faction}; you cannot end {cmd.faction}'s turn")
            if proj.state.turn != cmd.faction:
                raise BadRequest(f"it is {proj.state.turn}'s turn, not {cmd.faction}'s")
            d = decide(proj.state, rc.EndTurn(rc.GM))
            entries: list[Entry] = [(e, d.rule) for e in d.events]
            entries += (
                [(DeadlinePassed(cmd.faction, "turn", "turn finished"), ids.TURN_END)]
                if cmd.faction in proj.deadlines
                else []
            )
            entries += self._deadlines_for(proj, d.events)
            return Outcome.of(cmd.game, d), entries

        return self._commit(cmd.game, actor, build, key)

    def _extend(self, actor: Actor, cmd: ExtendDeadline, key: str | None) -> Outcome:
        if not actor.is_gm:
            raise PermissionDenied("only the GM extends deadlines")
        if not (isinstance(cmd.hours, (int, float)) and 0 < cmd.hours <= 24 * 60):
            raise BadRequest("extend by a positive number of hours (at most 60 days)")

        def build(proj: Projection) -> tuple[Outcome, list[Entry]]:
            open_ = {d.target: d for d in proj.open_deadlines()}
            d = open_.get(cmd.target)
            if d is None:
                raise NotFound(f"there is no open deadline for {cmd.target!r}")
            due = iso(max(parse_iso(d.due), self.clock.now()) + timedelta(hours=cmd.hours))
            out = Outcome(cmd.game, "done", f"the deadline for {cmd.target} is now {due}")
            return out, [(DeadlineSet(d.target, d.kind, due, True), None)]

        return self._commit(cmd.game, actor, build, key)

    def _undo(self, actor: Actor, cmd: Undo, key: str | None) -> Outcome:
        if not actor.is_gm:
            raise PermissionDenied("only the GM may undo")
        with self._lock(cmd.game):
            for _ in range(self.max_retries):
                head = self.store.head(cmd.game)
                if not isinstance(cmd.to_seq, int) or not 0 <= cmd.to_seq < head:
                    raise BadRequest(f"undo to an entry between 0 and {head - 1}")
                restored = self._project(cmd.game, upto=cmd.to_seq)
                restored.head = head
                envs = [self._envelope(restored, actor, Undone(cmd.to_seq, cmd.reason), None, head + 1, None)]
                restored.head = head + 1
                settings = restored.settings
                if settings.turn_hours:
                    due = iso(self.clock.now() + timedelta(hours=settings.turn_hours))
                    dl = DeadlineSet(restored.state.turn, "turn", due)
                    envs.append(self._envelope(restored, actor, dl, ids.TURN_END, head + 2, None))
                    restored.step(envs[-1])
                for env in envs:
                    restored.head = env.seq
                outcome = Outcome(cmd.game, "done", f"the game is restored to entry {cmd.to_seq}")
                try:
                    r = self.store.append(
                        cmd.game,
                        head,
                        envs,
                        idempotency_key=key,
                        response=outcome.to_data(),
                        snapshot=restored.snapshot(),
                    )
                except ConcurrencyError:
                    continue
                if r.replayed:
                    return Outcome.from_data(r.response or {}, replayed=True).with_seqs(
                        r.first_seq, r.last_seq
                    )
                self._cache[cmd.game] = restored
                return outcome.with_seqs(r.first_seq, r.last_seq)
        raise Conflict(f"game {cmd.game} kept changing; try again")

    # ------------------------------------------------------------------ deadlines
    def _deadlines_for(self, proj: Projection, events: Sequence[Record]) -> list[Entry]:
        """Deadlines for what these events open: declarations, requests, a new turn."""
        s = proj.settings
        now = self.clock.now()
        out: list[Entry] = []
        state = proj.state
        for e in events:
            if isinstance(e, ev.AllianceDeclared) and s.request_hours:
                out.append(
                    (
                        DeadlineSet(e.alliance, "declaration", iso(now + timedelta(hours=s.request_hours))),
                        ids.ALLY_3,
                    )
                )
            elif isinstance(e, ev.RequestOpened) and s.request_hours:
                out.append(
                    (DeadlineSet(e.request, "request", iso(now + timedelta(hours=s.request_hours))), e.rule)
                )
            elif isinstance(e, ev.TurnEnded) and s.turn_hours:
                nxt = state.turn_order[(state.turn_index + 1) % len(state.turn_order)]
                out.append((DeadlineSet(nxt, "turn", iso(now + timedelta(hours=s.turn_hours))), ids.TURN_END))
        return out

    def _tick(self, game: str) -> Outcome:
        """Record every deadline that has passed (by the clock), in order."""
        now = self.clock.now()
        proj = self._current(game)
        if not any(parse_iso(d.due) <= now for d in proj.open_deadlines()):
            return Outcome(game, "done", "no deadline has passed")

        def build(p: Projection) -> tuple[Outcome, list[Entry]]:
            work = p.copy()
            entries: list[Entry] = []
            done: list[str] = []
            for _ in range(100):
                due = [d for d in work.open_deadlines() if parse_iso(d.due) <= now]
                if not due:
                    break
                step = self._deadline_passed(work, due[0], now)
                for record, rule in step:
                    entries.append((record, rule))
                    work.step(
                        Envelope(work.head + 1, work.state.round, work.state.turn, "clock", rule, record, "")
                    )
                done.append(f"{due[0].kind} {due[0].target}")
            return Outcome(game, "done", "deadlines passed: " + (", ".join(done) or "none")), entries

        return self._commit(game, CLOCK, build, None)

    def _deadline_passed(self, proj: Projection, d: Deadline, now: object) -> list[Entry]:
        s = proj.settings
        state = proj.state
        if d.kind == "declaration":
            dec = decide(state, rc.Deadline(rc.GM, d.target))
            return [(e, dec.rule) for e in dec.events] + [
                (DeadlinePassed(d.target, d.kind, f"declaration settled: {dec.result.value}"), ids.ALLY_3)
            ]
        if d.kind == "request":
            dec = decide(state, rc.Expire(rc.GM, d.target))
            return [(e, dec.rule) for e in dec.events] + [
                (DeadlinePassed(d.target, d.kind, "lapsed"), dec.rule)
            ]
        # a faction's turn
        if not proj.has_ordered(d.target) and s.policy == "extend" and not d.extended and s.turn_hours:
            due = iso(parse_iso(d.due) + timedelta(hours=s.turn_hours))
            return [
                (DeadlinePassed(d.target, d.kind, "extended once (no orders yet)"), ids.TURN_END),
                (DeadlineSet(d.target, "turn", due, True), ids.TURN_END),
            ]
        out: list[Entry] = []
        if not proj.has_ordered(d.target):
            out.append((OrdersMissed(d.target, s.policy), ids.TURN_END))
        end = decide(state, rc.EndTurn(rc.GM))
        out.append((DeadlinePassed(d.target, d.kind, "turn ended"), ids.TURN_END))
        out += [(e, end.rule) for e in end.events]
        out += self._deadlines_for(proj, end.events)
        return out

    # ------------------------------------------------------------------ the unit of work
    def _lock(self, game: str) -> threading.Lock:
        with self._guard:
            lock = self._locks.get(game)
            if lock is None:
                lock = self._locks[game] = threading.Lock()
            return lock

    def _envelope(
        self,
        proj: Projection,
        actor: Actor,
        record: Record,
        rule: str | None,
        seq: int,
        command_id: str | None,
    ) -> Envelope:
        return Envelope(
            seq,
            proj.state.round,
            proj.state.turn,
            actor.label,
            rule,
            record,
            iso(self.clock.now()),
            command_id,
        )

    def _commit(self, game: str, actor: Actor, build: Build, key: str | None) -> Outcome:
        command_id = key or secrets.token_hex(8)
        with self._lock(game):
            for attempt in range(self.max_retries):
                proj = self._current(game)
                outcome, entries = build(proj)
                if not entries:
                    return outcome
                work = proj.copy()
                envs: list[Envelope] = []
                for record, rule in entries:
                    env = self._envelope(work, actor, record, rule, work.head + 1, command_id)
                    work.step(env)
                    envs.append(env)
                every = proj.settings.snapshot_every
                snapshot = work.snapshot() if work.head // every > proj.head // every else None
                try:
                    r = self.store.append(
                        game,
                        proj.head,
                        envs,
                        idempotency_key=key,
                        response=outcome.to_data(),
                        snapshot=snapshot,
                    )
                except ConcurrencyError:
                    # another process appended first: catch up (``_current`` reads the new
                    # entries) and decide again, after a short random pause
                    time.sleep(random.uniform(0, 0.001 * min(attempt + 1, 10)))
                    continue
                if r.replayed:
                    return Outcome.from_data(r.response or {}, replayed=True).with_seqs(
                        r.first_seq, r.last_seq
                    )
                self._cache[game] = work
                return outcome.with_seqs(r.first_seq, r.last_seq)
        raise Conflict(f"game {game} kept changing under this request; try again")

    # ------------------------------------------------------------------ loading
    def _require_game(self, game: str) -> GameRecord:
        try:
            return self.store.game(game)
        except UnknownGame:
            raise NotFound(f"there is no game {game!r}") from None

    def _static_of(self, game: str) -> _Static:
        st = self._static.get(game)
        if st is None:
            rec = self._require_game(game)
            st = _Static(
                board_from_data(rec.board),
                catalog_from_data(rec.catalog),
                GameSettings.from_data(rec.settings),
            )
            self._static[game] = st
        return st

    def _project(self, game: str, upto: int | None = None, *, snapshots: bool = True) -> Projection:
        """The game as it stood after entry ``upto`` (default: now)."""
        st = self._static_of(game)
        rec = self.store.game(game)
        snap = self.store.latest_snapshot(game, at_or_before=upto if snapshots else 0)
        proj = Projection.from_snapshot(rec, st.settings, snap, st.board, st.catalog)
        for env in self.store.envelopes(game, after=snap.seq, upto=upto):
            if isinstance(env.event, Undone):
                proj = self._project(game, upto=min(env.event.to_seq, env.seq - 1), snapshots=snapshots)
                proj.head = env.seq
            else:
                proj.step(env)
        return proj

    def _current(self, game: str) -> Projection:
        """The cached projection, caught up with entries other processes appended."""
        proj = self._cache.get(game)
        if proj is None:
            proj = self._project(game)
            self._cache[game] = proj
            return proj
        tail = list(self.store.envelopes(game, after=proj.head))
        if not tail:
            return proj
        if any(isinstance(e.event, Undone) for e in tail):
            proj = self._project(game)
        else:
            proj = proj.copy()
            for env in tail:
                proj.step(env)
        self._cache[game] = proj
        return proj

    # ------------------------------------------------------------------ queries
    def state(self, game: str) -> GameState:
        """The current rules state (the GM's; players get ``view``)."""
        self._require_game(game)
        return self._current(game).state

    def projection(self, game: str) -> Projection:
        self._require_game(game)
        return self._current(game).copy()

    def replayed_state(self, game: str) -> GameState:
        """The state replayed from the first entry, ignoring every snapshot."""
        self._require_game(game)
        return self._project(game, snapshots=False).state

    def save_snapshot(self, game: str) -> None:
        """Store a snapshot of the game as it stands (snapshots only make loading fast)."""
        with self._lock(game):
            proj = self._project(game)
            self._cache[game] = proj
            self.store.save_snapshot(game, proj.snapshot())

    def identify(self, game: str, token: str) -> Actor:
        """The player a secret token belongs to; ``PermissionDenied`` for any other token."""
        self._require_game(game)
        digest = token_hash(token)
        for seat in self.store.seats(game):
            if secrets.compare_digest(seat.token_hash, digest):
                return player(seat.faction)
        raise PermissionDenied("that link is not valid for this game")

    def log(self, game: str) -> list[Envelope]:
        """Every entry (the GM's audit log; players read ``log_for``)."""
        self._require_game(game)
        return list(self.store.envelopes(game))

    def log_for(self, game: str, viewer: Actor) -> list[Envelope]:
        """The entries ``viewer`` may read, with their rule ids."""
        return visible_log(self.log(game), _viewer(viewer))

    def view(self, game: str, viewer: Actor) -> View:
        """What ``viewer`` may see of the position (secret alliances hidden)."""
        return view(self.state(game), _viewer(viewer))

    def pending(self, game: str, viewer: Actor) -> list[PendingItem]:
        """What waits for answers, and for whom, with deadlines: only what ``viewer``
        may know of (its own declarations and requests, and those awaiting it)."""
        proj = self.projection(game)
        v = view(proj.state, _viewer(viewer))
        due = {d.target: d.due for d in proj.open_deadlines()}
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
            PendingItem("request", r.id, r.by, r.awaiting, due.get(r.id), r.rule, _describe(r.command))
            for r in v.requests
        ]
        return items

    def deadlines(self, game: str) -> list[Deadline]:
        return self.projection(game).open_deadlines()


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


def _describe(command: object) -> str:
    kind = getattr(command, "kind", "order").replace("_", " ")
    who = getattr(command, "by", "?")
    unit = (
        getattr(command, "unit", None)
        or getattr(command, "ship", None)
        or ", ".join(getattr(command, "units", ()))
    )
    return f"{who}: {kind} {unit}".strip()


def _slug(name: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return (s or "game")[:40]

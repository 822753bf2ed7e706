"""Command handlers: one function per service command, each taking the unit of work,
the actor and the command. No rules here: every ruling comes from ``kingmaker.rules``."""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

from kingmaker.data import DataError, load_dataset
from kingmaker.log.envelope import Envelope
from kingmaker.log.service_events import (
    TURN_ENDED,
    TURN_FINISHED,
    DeadlinePassed,
    DeadlineSet,
    GameStarted,
    OrdersMissed,
    OrderSubmitted,
    PermissionAsked,
    PlayerSeated,
    Undone,
    options_record,
)
from kingmaker.rules import commands as rc
from kingmaker.rules import events as ev
from kingmaker.rules import ids
from kingmaker.rules.chance import commitment
from kingmaker.rules.codec import board_to_data, catalog_to_data
from kingmaker.rules.deal import new_game
from kingmaker.rules.decide import decide
from kingmaker.rules.limits import CHOSEN_ID_MAX
from kingmaker.rules.permissions import judge_permission_ask
from kingmaker.rules.records import Record
from kingmaker.rules.state import GameState
from kingmaker.rules.views import open_order
from kingmaker.storage.base import GameExists, GameRecord, Seat, SeatTaken

from .clock import iso, parse_iso
from .commands import (
    AskPermission,
    CreateGame,
    ExtendDeadline,
    FinishTurn,
    SeatPlayer,
    Submit,
    Undo,
)
from .contact import normal_email
from .errors import BadRequest, Conflict, NotFound, PermissionDenied
from .identity import CLOCK, GM_ACTOR, Actor, new_token, token_hash
from .open_business import open_business
from .outcome import Outcome
from .projection import Deadline, Projection
from .settings import FactionInfo
from .unit_of_work import Entry, UnitOfWork

_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,62}$")


def create_game(uow: UnitOfWork, actor: Actor, cmd: CreateGame, key: str | None = None) -> Outcome:
    if not actor.is_gm:
        raise PermissionDenied("only the GM creates games")
    try:
        ds = load_dataset(Path(cmd.data_folder) if cmd.data_folder else None)
    except DataError as e:
        raise BadRequest(f"the data set cannot be used:\n{e}") from None
    except OSError as e:  # a path the system cannot even look at (a name too long, ...)
        raise BadRequest(f"the data folder cannot be read: {e.strerror or type(e).__name__}") from None
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
    options = dict(cmd.settings.options)  # checked by GameSettings (rules.options)
    if options and not cmd.settings.full_game:
        raise BadRequest("game options apply to the full game only, not to a game adjudicated by hand")
    try:
        state = new_game(
            ds.board,
            ds.catalog,
            factions,
            seed,
            cards_per_faction=cmd.cards_per_faction or ds.setup.cards_per_faction,
            removed=ds.setup.removed,
            crowned=ds.setup.crowned,
            full_game=cmd.settings.full_game,
            options=options,
        )
    except ValueError as e:
        raise BadRequest(f"the game cannot be dealt: {e}") from None
    # the factions' names and colours: the data set's, or the defaults
    known = {f.id: {"name": f.name, "colour": f.colour} for f in ds.setup.factions}
    settings = cmd.settings.with_factions(FactionInfo.of(f, known.get(f)) for f in factions)
    now = uow.clock.now()
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
        settings=settings.to_data(),
    )
    try:
        uow.store.create_game(record, Projection.initial_snapshot(state))
    except GameExists:
        raise BadRequest(f"a game {game_id!r} already exists") from None
    entries: list[Entry] = [
        (GameStarted(cmd.name, factions, record.commitment, ds.name, options_record(options)), None),
        (ev.SeedCommitted(record.commitment), None),
    ]
    if cmd.settings.turn_hours:
        due = iso(now + timedelta(hours=cmd.settings.turn_hours))
        entries.append((DeadlineSet(state.turn, "turn", due), ids.TURN_END))
    outcome = Outcome(game_id, "done", f"game {game_id} created for {', '.join(factions)}")
    return uow.commit(game_id, GM_ACTOR, lambda proj: (outcome, entries), None)


def seat_player(uow: UnitOfWork, actor: Actor, cmd: SeatPlayer, key: str | None) -> Outcome:
    if not actor.is_gm:
        raise PermissionDenied("only the GM seats players")
    rec = uow.store.game(cmd.game)
    if cmd.faction not in rec.factions:
        raise BadRequest(f"{cmd.faction!r} is not a faction of game {cmd.game}")
    if not cmd.player.strip():
        raise BadRequest("a player needs a name")
    email = normal_email(cmd.email) if cmd.email is not None else None
    token = new_token()
    outcome = Outcome(cmd.game, "done", f"{cmd.player} plays {cmd.faction}")
    # written with the entry: both or neither (the address is not in the entry: it is secret)
    seat = Seat(cmd.faction, cmd.player, token_hash(token), email)
    try:
        result = uow.commit(
            cmd.game,
            actor,
            lambda p: (outcome, [(PlayerSeated(cmd.faction, cmd.player), None)]),
            key,
            seat=seat,
        )
    except SeatTaken as e:  # a new random token is another seat's: nothing was written
        raise Conflict(f"{cmd.player} could not be seated: {e}; try again") from None
    if result.replayed:
        return result
    return replace(result, token=token)


def authorize(uow: UnitOfWork, actor: Actor, command: rc.Command, state: GameState) -> None:
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


def preview(uow: UnitOfWork, actor: Actor, cmd: Submit) -> Outcome:
    """What ``submit`` would answer now, with nothing written (the same checks)."""
    state = uow.current(cmd.game).state
    authorize(uow, actor, cmd.command, state)
    return Outcome.of(cmd.game, decide(state, cmd.command))


def submit(uow: UnitOfWork, actor: Actor, cmd: Submit, key: str | None) -> Outcome:
    command = cmd.command

    def build(proj: Projection) -> tuple[Outcome, list[Entry]]:
        authorize(uow, actor, command, proj.state)
        if isinstance(command, rc.EndTurn):
            held = turn_held(actor, proj.state, command.anyway)
            if held is not None:  # nothing is written: the GM decides again
                why = f"{held}; to end it all the same: END TURN ANYWAY"
                return Outcome(cmd.game, "refused", why, ids.TURN_END), []
        d = decide(proj.state, command)
        entries: list[Entry] = [
            (
                OrderSubmitted(
                    command.by,
                    command,
                    d.result.value,
                    d.rule,
                    d.explanation,
                    open_order(proj.state, command),
                    cmd.text,
                ),
                d.rule,
            )
        ]
        entries += [(e, d.rule) for e in d.events]
        entries += deadlines_for(uow, proj, d.events)
        return Outcome.of(cmd.game, d), entries

    return uow.commit(cmd.game, actor, build, key)


def turn_held(actor: Actor, state: GameState, force: bool) -> str | None:
    """Why the GM should not end the turn yet (``open_business``: a battle not resolved,
    a siege that may still be drawn, requests that would lapse, ...), or None: nothing
    holds it, it is forced, or the faction ends its own turn (it cannot see all of it)."""
    if force or not actor.is_gm:
        return None
    return open_business(state).warning() or None


def ask_permission(uow: UnitOfWork, actor: Actor, cmd: AskPermission, key: str | None) -> Outcome:
    if not actor.is_gm and actor.faction != cmd.faction:
        raise PermissionDenied(f"you play {actor.faction}; you cannot ask for {cmd.faction}")

    def build(proj: Projection) -> tuple[Outcome, list[Entry]]:
        if cmd.place not in proj.state.board.places:
            raise NotFound(f"there is no place {cmd.place!r}")
        d = judge_permission_ask(proj.state, cmd.faction, cmd.of, cmd.place, tuple(cmd.aspects))
        if d.refused:
            raise BadRequest(d.explanation)
        entry = PermissionAsked(cmd.faction, cmd.of, cmd.place, tuple(cmd.aspects), cmd.note)
        return Outcome(cmd.game, "done", d.explanation), [(entry, d.rule)]

    return uow.commit(cmd.game, actor, build, key)


def finish_turn(uow: UnitOfWork, actor: Actor, cmd: FinishTurn, key: str | None) -> Outcome:
    def build(proj: Projection) -> tuple[Outcome, list[Entry]]:
        if not actor.is_gm and actor.faction != cmd.faction:
            raise PermissionDenied(f"you play {actor.faction}; you cannot end {cmd.faction}'s turn")
        if proj.state.turn != cmd.faction:
            raise BadRequest(f"it is {proj.state.turn}'s turn, not {cmd.faction}'s")
        held = turn_held(actor, proj.state, cmd.force)
        if held is not None:
            return Outcome(cmd.game, "refused", held, ids.TURN_END), []
        d = decide(proj.state, rc.EndTurn(rc.GM))
        # the deadline first, so that the turn's own report says how it ended
        entries: list[Entry] = (
            [(DeadlinePassed(cmd.faction, "turn", TURN_FINISHED), ids.TURN_END)]
            if cmd.faction in proj.deadlines
            else []
        )
        entries += [(e, d.rule) for e in d.events]
        entries += deadlines_for(uow, proj, d.events)
        return Outcome.of(cmd.game, d), entries

    return uow.commit(cmd.game, actor, build, key)


def extend_deadline(uow: UnitOfWork, actor: Actor, cmd: ExtendDeadline, key: str | None) -> Outcome:
    if not actor.is_gm:
        raise PermissionDenied("only the GM extends deadlines")
    if not (isinstance(cmd.hours, (int, float)) and 0 < cmd.hours <= 24 * 60):
        raise BadRequest("extend by a positive number of hours (at most 60 days)")

    def build(proj: Projection) -> tuple[Outcome, list[Entry]]:
        open_ = {d.target: d for d in proj.open_deadlines()}
        d = open_.get(cmd.target)
        if d is None:
            raise NotFound(f"there is no open deadline for {cmd.target!r}")
        due = iso(max(parse_iso(d.due), uow.clock.now()) + timedelta(hours=cmd.hours))
        out = Outcome(cmd.game, "done", f"the deadline for {cmd.target} is now {due}")
        return out, [(DeadlineSet(d.target, d.kind, due, True), None)]

    return uow.commit(cmd.game, actor, build, key)


def undo(uow: UnitOfWork, actor: Actor, cmd: Undo, key: str | None) -> Outcome:
    """The GM restores the game as it stood after entry ``to_seq``: an ``Undone`` entry
    (the fold restores the position it kept), then a fresh deadline for the turn it
    returns to; stored with a snapshot."""
    if not actor.is_gm:
        raise PermissionDenied("only the GM may undo")

    def build(proj: Projection) -> tuple[Outcome, list[Entry]]:
        head = proj.head
        if not 0 <= cmd.to_seq < head:
            raise BadRequest(
                f"cannot undo to entry {cmd.to_seq}: give an entry from 0 (the game as created) "
                f"to {head - 1} (entry {head} is the latest)"
            )
        entries: list[Entry] = [(Undone(cmd.to_seq, cmd.reason), None)]
        if proj.settings.turn_hours:
            restored = uow.position_after(cmd.game, proj.fold, cmd.to_seq)
            due = iso(uow.clock.now() + timedelta(hours=proj.settings.turn_hours))
            entries.append((DeadlineSet(restored.state.turn, "turn", due), ids.TURN_END))
        return Outcome(cmd.game, "done", f"the game is restored to entry {cmd.to_seq}"), entries

    return uow.commit(cmd.game, actor, build, key, command_ids=False, snapshot=True)


def deadlines_for(uow: UnitOfWork, proj: Projection, events: Sequence[Record]) -> list[Entry]:
    """Deadlines for what these events open: declarations, requests, a new turn."""
    s = proj.settings
    now = uow.clock.now()
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
        elif isinstance(e, ev.StormBegan) and s.request_hours:  # ports chosen, else drawn (F18)
            out.append(
                (
                    DeadlineSet(e.storm, "request", iso(now + timedelta(hours=s.request_hours))),
                    ids.EVENT_STORM,
                )
            )
        elif isinstance(e, ev.TurnEnded) and s.turn_hours:
            _, nxt = state.next_turn()
            out.append((DeadlineSet(nxt, "turn", iso(now + timedelta(hours=s.turn_hours))), ids.TURN_END))
    return out


def tick(uow: UnitOfWork, game: str) -> Outcome:
    """Record every deadline that has passed (by the clock), in order."""
    now = uow.clock.now()
    proj = uow.held(game)  # read only: nothing is folded into it here
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
            step = deadline_passed(uow, work, due[0], now)
            for record, rule in step:
                entries.append((record, rule))
                work.step(
                    Envelope(work.head + 1, work.state.round, work.state.turn, "clock", rule, record, "")
                )
            done.append(f"{due[0].kind} {due[0].target}")
        return Outcome(game, "done", "deadlines passed: " + (", ".join(done) or "none")), entries

    return uow.commit(game, CLOCK, build, None)


def deadline_passed(uow: UnitOfWork, proj: Projection, d: Deadline, now: object) -> list[Entry]:
    s = proj.settings
    state = proj.state
    if d.kind == "declaration":
        dec = decide(state, rc.Deadline(rc.GM, d.target))
        return [(e, dec.rule) for e in dec.events] + [
            (DeadlinePassed(d.target, d.kind, f"declaration settled: {dec.result.value}"), ids.ALLY_3)
        ]
    if d.kind == "request":
        dec = decide(state, rc.Expire(rc.GM, d.target))
        return [(e, dec.rule) for e in dec.events] + [(DeadlinePassed(d.target, d.kind, "lapsed"), dec.rule)]
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
    out.append((DeadlinePassed(d.target, d.kind, TURN_ENDED), ids.TURN_END))
    out += [(e, end.rule) for e in end.events]
    out += deadlines_for(uow, proj, end.events)
    return out


def _slug(name: str) -> str:
    """The start of a game id made from its name: with "-" and 6 hex digits after it,
    the id has at most ``CHOSEN_ID_MAX`` (40) characters."""
    s = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return (s or "game")[: CHOSEN_ID_MAX - 7].rstrip("-") or "game"

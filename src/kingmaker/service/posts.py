"""Submitting a post of text orders: the one use case behind ``kingmaker orders``, the
web pages' text box and the API's ``orders/text`` and ``orders/check``.

A post is read line by line, each line against the state as it stands when its turn
comes (a later order sees the effect of an earlier one). In a game with phases the
lines' turns come in phase order (``rules.phases.batch_order``: a faction's movement
orders before its attacks, in the order written within a phase); a game without
phases (F26) takes them as written. The verdicts come back in line order. Names are
read within what the author may know (``rules.views.as_seen_by``: no "did you mean"
ever points at a secret); the rules judge on the real state and explain to the author
only what it may see. Each
order is decided once, by the service's ``submit``; each line gets its verdict, whatever
happens to the others (a line the author may not give is answered "not allowed" and the
rest still count). When the post is sent, the log keeps the author's own words: with the
command each line became, or, for a line that gave no command, with what was wrong.
"""

from __future__ import annotations

import dataclasses
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kingmaker.log.service_events import LineUnread
from kingmaker.orders_text import AmbiguousName, Problem, SyntaxProblem, UnknownName, format_order, parse_post
from kingmaker.orders_text.parse import ParsedPost, post_size_problem
from kingmaker.rules import commands as rc
from kingmaker.rules import limits as lim
from kingmaker.rules.phases import batch_order
from kingmaker.rules.state import GameState
from kingmaker.rules.views import as_seen_by

from .commands import NoteUnreadLine, Submit
from .errors import BadRequest, PermissionDenied, ServiceError
from .identity import Actor
from .outcome import Outcome

if TYPE_CHECKING:
    from .game_service import GameService
    from .projection import Projection
    from .unit_of_work import Entry, UnitOfWork

NOT_ALLOWED = "not allowed"
IGNORED = "ignored"
OK_RESULTS = frozenset({"accepted", "pending", IGNORED})


@dataclass(frozen=True)
class LineVerdict:
    """The answer to one line of a post.

    ``result``: accepted, pending or refused (the rules' answer, with ``rule``); a
    problem of the text (syntax, unknown_name, ambiguous_name); "not allowed" (the
    author may not give that order at all, e.g. a GM ruling in a player's post); or
    "ignored" (chatter: a greeting, a signature, a heading).
    ``reading``: how the engine read the line, in canonical text. ``suggestions``: the
    names a misspelt or ambiguous name may have meant ("did you mean ..."); ``example``:
    for a syntax problem, the closest verb's example."""

    line: int
    column: int
    text: str
    result: str
    rule: str | None
    explanation: str
    request: str | None = None
    reading: str | None = None
    suggestions: tuple[str, ...] = ()
    example: str = ""
    awaiting: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """Accepted, pending, or chatter ignored: nothing the author must put right."""
        return self.result in OK_RESULTS


def post(
    svc: GameService,
    actor: Actor,
    game: str,
    text: str,
    author: str,
    *,
    send: bool,
    key: str | None = None,
) -> list[LineVerdict]:
    """Read ``text`` posted by ``author`` (a faction id, or ``gm``) for ``actor``; with
    ``send``, submit each order (``key``: an idempotency key for the whole post, each
    line's own being ``key:<line>``), else only judge it. One verdict per line that is
    an order or was meant as one, in line order."""
    if not actor.is_gm and author != actor.faction:
        raise PermissionDenied(f"you play {actor.faction}; you cannot post for {author}")
    svc.require_game(game)
    faction_names = svc.settings(game).faction_names()
    too_big = post_size_problem(text)
    if too_big is not None:
        raise BadRequest(f"{too_big.message}; nothing was read")
    lines = text.splitlines()
    state = svc.state(game)
    order: Sequence[int] = range(len(lines))
    plan: _Plan | None = None  # with phases: each line read as written, on the game as it stands
    if state.phased:
        plan = _plan(as_seen_by(state, author), lines, author, faction_names)
        order = batch_order(state, plan.kinds)
    answers: dict[int, list[LineVerdict]] = {}
    section: str | None = None  # the faction a label alone on its line gave the lines below
    for i in order:
        no = i + 1
        now = svc.state(game)
        if plan is not None and now is state:  # nothing applied yet: the plan's reading holds
            seen, parsed = plan.seen, plan.readings[i]
        else:
            # the author's view of the game: what the line is read on, and what its reading
            # is written on (the words the reader would take back for the same command)
            seen = as_seen_by(now, author)
            parsed = parse_post(
                seen,
                lines[i],
                author,
                faction_names=faction_names,
                section=section if plan is None else plan.sections[i],
                first_line=no,
            )
        section = parsed.section
        answers[i] = _answer(svc, actor, game, author, no, lines[i], parsed, seen, faction_names, send, key)
    return [v for i in range(len(lines)) for v in answers[i]]


@dataclass(frozen=True)
class _Plan:
    """A post read as written on the game as it stands (``seen``: the author's view of it):
    each line's reading, the section it is read under (a label alone on its line labels
    the lines below it as written, whatever order they are applied in), and the kind of
    step it gives (None: none), which ``rules.phases.batch_order`` puts in phase order. A
    line applied before anything else changed the game keeps this reading."""

    seen: GameState
    readings: list[ParsedPost]
    sections: list[str | None]
    kinds: list[type[rc.Command] | None]


def _plan(seen: GameState, lines: list[str], author: str, faction_names: Mapping[str, str]) -> _Plan:
    plan = _Plan(seen, [], [], [])
    section: str | None = None
    for no, line in enumerate(lines, start=1):
        plan.sections.append(section)
        parsed = parse_post(seen, line, author, faction_names=faction_names, section=section, first_line=no)
        plan.readings.append(parsed)
        section = parsed.section
        plan.kinds.append(next((o.kind for o in parsed.orders), None))
    return plan


def _answer(
    svc: GameService,
    actor: Actor,
    game: str,
    author: str,
    no: int,
    line: str,
    parsed: ParsedPost,
    seen: GameState,
    faction_names: Mapping[str, str],
    send: bool,
    key: str | None,
) -> list[LineVerdict]:
    """The verdicts of one line read as ``parsed``; with ``send``, its orders submitted and
    what gave no order noted in the log."""
    out: list[LineVerdict] = []
    words = _one_line(line.strip())
    line_key = f"{key}:{no}" if key else None
    for x in parsed.ignored:  # chatter: answered, never logged
        out.append(LineVerdict(no, 1, words, IGNORED, None, x.reason))
    for p in parsed.problems:
        v = LineVerdict(no, p.column, words, p.kind, None, p.message, **_hints(p))
        out.append(v)
        if send:
            _note(svc, actor, game, author, v, line_key)
    for order in parsed.orders:
        if order.command is None:
            assert order.refusal is not None
            d = order.refusal
            v = LineVerdict(no, order.column, words, d.result.value, d.rule, d.explanation)
            out.append(v)
            if send:
                _note(svc, actor, game, author, v, line_key)
            continue
        command = private_ids(order.command, order.text, author)
        reading = format_order(command, seen, faction_names=faction_names)
        try:
            if send:
                answer = svc.execute(actor, Submit(game, command, words), line_key)
            else:
                answer = svc.preview(actor, Submit(game, command))
        except ServiceError as e:  # this line is not allowed; the others still count
            out.append(LineVerdict(no, order.column, words, NOT_ALLOWED, None, str(e), reading=reading))
            continue
        out.append(_verdict(no, order.column, words, answer, reading))
    return out


def _verdict(no: int, column: int, words: str, o: Outcome, reading: str) -> LineVerdict:
    return LineVerdict(
        no, column, words, o.result, o.rule, o.explanation, o.request, reading, awaiting=tuple(o.awaiting)
    )


def _hints(p: Problem) -> dict[str, Any]:
    """What a problem suggests: the names meant ("did you mean"), the verb's example."""
    if isinstance(p, UnknownName):
        return {"suggestions": p.suggestions}
    if isinstance(p, AmbiguousName):
        return {"suggestions": p.candidates}
    if isinstance(p, SyntaxProblem):
        return {"example": p.example}
    return {}


def _one_line(text: str) -> str:
    """The author's words as the log may keep them: one line of at most ``LINE_MAX``
    characters, each character a reader would not see replaced by U+FFFD."""
    if lim.bad_character(text) is None:  # the usual line: no character to replace
        kept = text
    else:
        kept = "".join("\ufffd" if lim.bad_character(ch) is not None else ch for ch in text)
    return kept if len(kept) <= lim.LINE_MAX else kept[: lim.LINE_MAX - 1] + "…"


def _note(svc: GameService, actor: Actor, game: str, author: str, v: LineVerdict, key: str | None) -> None:
    message = (
        v.explanation if len(v.explanation) <= lim.EXPLANATION_MAX else v.explanation[: lim.EXPLANATION_MAX]
    )
    svc.execute(actor, NoteUnreadLine(game, author, v.text, v.result, _one_line(message)), key)


def note_unread_line(uow: UnitOfWork, actor: Actor, cmd: NoteUnreadLine, key: str | None) -> Outcome:
    """The handler of ``NoteUnreadLine``: one log entry, for the author and the GM."""
    if not actor.is_gm and actor.faction != cmd.by:
        raise PermissionDenied(f"you play {actor.faction}; you cannot post for {cmd.by}")

    def build(proj: Projection) -> tuple[Outcome, list[Entry]]:
        event = LineUnread(cmd.by, cmd.text, cmd.problem, cmd.message)
        return Outcome(cmd.game, "done", f"kept {cmd.by}'s unread line"), [(event, None)]

    return uow.commit(cmd.game, actor, build, key)


_AUTO_ALLIANCE = re.compile(r"^alliance-\d+$")
# the commands whose id names something they create: an alliance, an army, a request or
# combat the order opens
_NAMING = (*rc.MOVEMENT_COMMANDS, *rc.COMBAT_COMMANDS, rc.FormArmy, rc.DeclareAlliance, rc.Ransom)


def private_ids(command: rc.Command, text: str, author: str) -> rc.Command:
    """A player's command with ids that tell nothing of others. The reader numbers new
    alliances (``alliance-3``) within what the author may see, which would collide with,
    and so reveal, others' secret ones: such an id becomes a random one. An id the
    player wrote (``AS rg``) is kept under the player's faction (``red-rg``): otherwise
    "already exists" would confirm that another faction's secret alliance or request
    bears it. (Requests the rules open get ids no one can guess: ``rules.decide``.)"""
    if author == rc.GM:
        return command
    if (
        isinstance(command, rc.DeclareAlliance)
        and _AUTO_ALLIANCE.match(command.id)
        and command.id not in text
    ):
        return dataclasses.replace(command, id=f"alliance-{secrets.token_hex(3)}")
    if not isinstance(command, _NAMING):  # a confirm or reject names someone else's request
        return command
    chosen = getattr(command, "id", None)
    if isinstance(chosen, str) and chosen and not chosen.startswith(f"{author}-"):
        return dataclasses.replace(command, id=f"{author}-{chosen}")
    return command

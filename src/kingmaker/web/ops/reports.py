"""The log and the reports as a viewer may read them: log entries in words
(``GameService.log_for``, numbered as that reader numbers the log), the turn to report,
the turn report, private report and GM's messages for a viewer, and a round's digest."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kingmaker.log.envelope import Envelope
from kingmaker.log.visibility import numbering
from kingmaker.render.reports import Reports, messages_for, private_report, render, reports_for, turn_report
from kingmaker.render.reports.digest import round_digest, round_of_last_turn, rounds
from kingmaker.render.reports.document import Document, plain
from kingmaker.render.reports.formats import FORMATS, Format
from kingmaker.render.reports.happenings import sentence
from kingmaker.render.reports.timeline import Turn
from kingmaker.rules.commands import GM
from kingmaker.rules.records import to_data
from kingmaker.rules.views import PUBLIC
from kingmaker.service import Actor, BadRequest, NotFound

from .. import schemas as s
from .site import Site, viewer_of


def log(site: Site, actor: Actor, game: str, ctx: Reports | None = None) -> list[s.LogEntryOut]:
    ctx = ctx or reports_for(site.svc, game)
    entries = site.svc.log_for(game, actor)
    number = numbering(entries, viewer_of(actor))
    return [_log_entry(ctx, e, actor.is_gm, number) for e in entries]


def turn_of(ctx: Reports, rnd: int | None, turn: str | None) -> Turn:
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
    site: Site,
    actor: Actor,
    game: str,
    rnd: int | None,
    turn: str | None,
    fmt: str,
    faction: str | None = None,
) -> s.ReportsOut:
    form = _format(fmt)
    who = site.viewer(actor, game, faction)
    ctx = reports_for(site.svc, game)
    t = turn_of(ctx, rnd, turn)
    docs = report_docs(ctx, t, who)
    return s.ReportsOut(
        round=t[0],
        turn=t[1],
        format=fmt,
        viewer=who,
        turns=[(r, f) for r, f in ctx.timeline.turns()],
        turn_report=render(docs.turn, form),
        private_report=render(docs.private, form) if docs.private else None,
        messages=[s.MessageOut(to=m.to, subject=m.subject, body=render(m.body, form)) for m in docs.messages],
    )


def round_of(ctx: Reports, rnd: int | None) -> int:
    """The round to digest: ``rnd``, or that of the last turn that has ended."""
    if rnd is None:
        last = round_of_last_turn(ctx)
        if last is None:
            raise NotFound("no turn has been played yet")
        return last
    if rnd not in rounds(ctx):
        raise NotFound(f"there is no turn in round {rnd} yet")
    return rnd


def digest_doc(ctx: Reports, rnd: int, who: str) -> Document:
    """Round ``rnd`` in one post, as ``who`` may read it."""
    return round_digest(ctx, rnd, who)


def digest(
    site: Site, actor: Actor, game: str, rnd: int | None, fmt: str, faction: str | None = None
) -> s.DigestOut:
    """A round's digest (every turn's orders and resolution, one position) for the
    caller's view (the GM: any faction's, ``gm`` or ``public``)."""
    form = _format(fmt)
    who = site.viewer(actor, game, faction)
    ctx = reports_for(site.svc, game)
    r = round_of(ctx, rnd)
    return s.DigestOut(
        round=r,
        format=fmt,
        viewer=who,
        rounds=rounds(ctx),
        turns=[f for rr, f in ctx.timeline.turns() if rr == r],
        digest=render(digest_doc(ctx, r, who), form),
    )


def _format(fmt: str) -> Format:
    for known in FORMATS:
        if fmt == known:
            return known
    raise BadRequest("format is bbcode, markdown or plain")


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
        messages_for(ctx, who, t) if faction else [],
    )


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

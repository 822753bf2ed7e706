"""A player's inbox: the declarations and requests waiting for answers
(``GameService.pending``), the GM's message for each one awaiting the player, the
answers, and the open deadlines the player may know of."""

from __future__ import annotations

import dataclasses

from kingmaker.render.reports import alliance_request, allied_order_request, army_consent_request, reports_for
from kingmaker.render.reports.document import Document
from kingmaker.render.reports.messages_full import ransom_request
from kingmaker.rules import commands as rc
from kingmaker.rules import ids
from kingmaker.rules.commands import GM
from kingmaker.rules.views import PUBLIC, view
from kingmaker.service import GM_ACTOR, Actor, BadRequest, NotFound, PermissionDenied
from kingmaker.service.commands import Submit

from .. import schemas as s
from .site import Site, key_for, viewer_of


def pending(site: Site, actor: Actor, game: str, faction: str | None = None) -> list[s.PendingOut]:
    who = site.viewer(actor, game, faction)
    viewer = GM_ACTOR if who == GM else Actor("player", who) if who != PUBLIC else Actor("clock")
    items = site.svc.pending(game, viewer)
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


def messages(site: Site, actor: Actor, game: str, items: list[s.PendingOut]) -> dict[str, Document]:
    """The GM's message for each item awaiting the actor's answer (by item id)."""
    me = viewer_of(actor)
    if me in (GM, PUBLIC):
        return {}
    ctx = reports_for(site.svc, game)
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
            elif i.rule == ids.RANSOM_OFFER:
                m = ransom_request(state, i.id, me, ctx.names, due=i.due, describe=ctx.describe)
            else:
                m = army_consent_request(state, i.id, me, ctx.names, due=i.due, describe=ctx.describe)
        except LookupError:
            continue
        out[i.id] = m.body
    return out


def answer(site: Site, actor: Actor, game: str, body: s.AnswerIn, key: str | None) -> s.OutcomeOut:
    """Answer a declaration or request awaiting the actor (the GM: awaiting ``by``). One
    request of the service: the store's head is read once for the check and the answer
    (an answer decided on a game another process has moved on is decided again)."""
    by = body.by or actor.faction
    if by is None:
        raise BadRequest("say who answers (by)")
    if not actor.is_gm and by != actor.faction:
        raise PermissionDenied(f"you play {actor.faction}; you cannot answer for {by}")
    with site.svc.uow.request():
        waiting = [p for p in pending(site, actor, game, by if actor.is_gm else None) if p.id == body.id]
        if not waiting or by not in waiting[0].awaiting or waiting[0].kind != body.kind:
            raise NotFound(f"nothing awaits {by}'s answer under {body.id!r}")
        command: rc.Command
        if body.kind == "declaration":
            command = rc.AnswerAlliance(by, body.id, body.accept)
        else:
            command = rc.Confirm(by, body.id) if body.accept else rc.Reject(by, body.id)
        return site.run(actor, Submit(game, command), key_for(actor, key))


def deadlines(site: Site, actor: Actor, game: str) -> list[s.DeadlineOut]:
    """Open deadlines the actor may know of: turns, its own declarations and requests,
    and storms (public: which ships they drive)."""
    v = view(site.svc.state(game), viewer_of(actor))
    known = {d.id for d in v.declarations} | {r.id for r in v.requests} | {st.id for st in v.storms}
    return [
        s.DeadlineOut(**dataclasses.asdict(d))
        for d in site.svc.deadlines(game)
        if actor.is_gm or d.kind == "turn" or d.target in known
    ]

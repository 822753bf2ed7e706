"""A faction's steps of the full game that are no map order (issue 13): offering a ransom
(the captive, what each side gives from what it holds), choosing a storm's port,
freeing or executing a captive. Each becomes one rules command, judged by the rules
through the service; answering a ransom is an answer like any other (``inbox.answer``)."""

from __future__ import annotations

import secrets

from kingmaker.rules import commands as rc
from kingmaker.service import Actor, BadRequest, PermissionDenied
from kingmaker.service.commands import Submit

from .. import schemas as s
from .. import schemas_full as sf
from .site import Site, key_for


def _by(actor: Actor, by: str | None) -> str:
    """Whose step: the player's own faction; the GM says whose."""
    if actor.is_gm:
        if not by:
            raise BadRequest("say whose step it is (by)")
        return by
    if by and by != actor.faction:
        raise PermissionDenied(f"you play {actor.faction}; you cannot act for {by}")
    if actor.faction is None:
        raise PermissionDenied("only a player or the GM may do this")
    return actor.faction


def offer_ransom(site: Site, actor: Actor, game: str, body: sf.RansomIn, key: str | None) -> s.OutcomeOut:
    """RANSOM.offer: the caller's part (``give``) and the other side's (``take``): the
    other side is the captive's faction when the caller holds him, else his captor."""
    by = _by(actor, body.by)
    noble = site.svc.state(game).nobles.get(body.captive)  # captives are public
    other = None
    if noble is not None and noble.captive_of is not None:
        other = noble.faction if by == noble.captive_of else noble.captive_of
    give = []
    if body.give or body.give_heirs:
        give.append(rc.Consideration(by, tuple(body.give), tuple(body.give_heirs)))
    if body.take or body.take_heirs:
        if other is None:
            raise BadRequest(f"{body.captive!r} is no captive: no one else is party to a ransom of him")
        give.append(rc.Consideration(other, tuple(body.take), tuple(body.take_heirs)))
    chosen = body.id or f"ransom-{secrets.token_hex(4)}"
    ident = chosen if by == rc.GM or chosen.startswith(f"{by}-") else f"{by}-{chosen}"  # the player's own ids
    command = rc.Ransom(by, ident, body.captive, tuple(give), body.note)
    return site.run(actor, Submit(game, command), key_for(actor, key))


def choose_port(site: Site, actor: Actor, game: str, body: sf.PortIn, key: str | None) -> s.OutcomeOut:
    """EVENT.storm: the port a storm drives the caller's ship into."""
    by = _by(actor, body.by)
    return site.run(actor, Submit(game, rc.ChoosePort(by, body.ship, body.port)), key_for(actor, key))


def captive_step(site: Site, actor: Actor, game: str, body: sf.CaptiveIn, key: str | None) -> s.OutcomeOut:
    """RANSOM.release (free a captive for nothing) or EXEC.captive (execute him)."""
    by = _by(actor, body.by)
    command: rc.Command = (
        rc.ReleaseCaptive(by, body.captive)
        if body.action == "release"
        else rc.Execute(by, captive=body.captive)
    )
    return site.run(actor, Submit(game, command), key_for(actor, key))

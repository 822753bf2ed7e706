"""The GM's acts on a game: seating a player (a private link with a secret token),
extending a deadline, undo, the clock's tick, storms and control; and what is still
open in it."""

from __future__ import annotations

from kingmaker.rules import commands as rc
from kingmaker.service import Actor
from kingmaker.service.commands import ExtendDeadline, SeatPlayer, Submit, Tick, Undo
from kingmaker.service.open_business import OpenBusiness

from .. import schemas as s
from .site import Site, gm_only, key_for


def open_business(site: Site, actor: Actor, game: str) -> OpenBusiness:
    """What is still open (battles, sieges, answers awaited by faction, Parliament,
    captives) and where every heir is: the service's one query, for the GM."""
    gm_only(actor)
    return site.svc.open_business(game)


def seat(site: Site, actor: Actor, game: str, body: s.SeatIn, base_url: str) -> s.SeatOut:
    gm_only(actor)
    out = site.svc.execute(actor, SeatPlayer(game, body.faction, body.player))
    assert out.token is not None
    return s.SeatOut(
        faction=body.faction,
        player=body.player,
        token=out.token,
        link=f"{base_url.rstrip('/')}/play/{game}/{out.token}",
    )


def extend(site: Site, actor: Actor, game: str, body: s.ExtendIn, key: str | None) -> s.OutcomeOut:
    return site.run(actor, ExtendDeadline(game, body.target, body.hours), key_for(actor, key))


def undo(site: Site, actor: Actor, game: str, body: s.UndoIn, key: str | None) -> s.OutcomeOut:
    return site.run(actor, Undo(game, body.to_seq, body.reason), key_for(actor, key))


def tick(site: Site, actor: Actor, game: str) -> s.OutcomeOut:
    gm_only(actor)
    return site.run(actor, Tick(game))


def storm(site: Site, actor: Actor, game: str, body: s.StormIn, key: str | None) -> s.OutcomeOut:
    gm_only(actor)
    return site.run(actor, Submit(game, rc.Storm(rc.GM, body.ship, body.into)), key_for(actor, key))


def set_control(site: Site, actor: Actor, game: str, body: s.ControlIn, key: str | None) -> s.OutcomeOut:
    gm_only(actor)
    cmd = rc.SetControl(rc.GM, body.place, body.faction or None)
    return site.run(actor, Submit(game, cmd), key_for(actor, key))

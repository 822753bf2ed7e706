"""Games: the list (the GM's), one game's public facts, creating a game, and the GM's
status of a game (who has ordered, seats, open deadlines)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from kingmaker.rules.options import OptionError, chosen, in_force
from kingmaker.service import Actor, BadRequest
from kingmaker.service.commands import CreateGame
from kingmaker.service.settings import GameSettings

from .. import schemas as s
from ..settings import data_folder_within
from .site import Site, gm_only


def game_out(site: Site, game: str) -> s.GameOut:
    rec = site.svc.require_game(game)
    state = site.svc.state(game)
    st = site.styles(game)
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
        options=in_force(state.options) if state.phased else {},
    )


def _options(raw: Mapping[str, object]) -> dict[str, str]:
    """The options of a create-game body, checked (``rules.options``): an unknown name or
    a value not allowed is the service's ``BadRequest`` (400), naming the allowed values."""
    try:
        return chosen(raw)
    except OptionError as e:
        raise BadRequest(str(e)) from None


def games(site: Site, actor: Actor) -> list[s.GameOut]:
    gm_only(actor)
    return [game_out(site, r.id) for r in site.svc.games()]


def create_game(site: Site, actor: Actor, body: s.CreateGameIn) -> s.OutcomeOut:
    gm_only(actor)
    settings = GameSettings(
        policy=body.policy,
        turn_hours=body.turn_hours,
        request_hours=body.request_hours,
        full_game=body.full_game,
        draw_events=body.draw_events,
        options=_options(body.options or {}),
    )
    cmd = CreateGame(
        body.name,
        tuple(f.strip() for f in body.factions if f.strip()),
        seed=body.seed or None,
        data_folder=data_folder_within(site.data_root, body.data_folder),
        settings=settings,
        game_id=body.game_id or None,
        cards_per_faction=body.cards_per_faction,
    )
    return site.run(actor, cmd)


def status(site: Site, actor: Actor, game: str) -> s.StatusOut:
    gm_only(actor)
    proj = site.svc.projection(game)
    return s.StatusOut(
        game=game_out(site, game),
        ordered={f: proj.has_ordered(f) for f in proj.state.turn_order},
        seats=[s.SeatInfo(faction=x.faction, player=x.player) for x in site.svc.seats(game)],
        deadlines=[s.DeadlineOut(**dataclasses.asdict(d)) for d in proj.open_deadlines()],
        head=proj.head,
    )

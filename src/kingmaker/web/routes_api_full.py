"""The JSON API of the full game (issue 13): what the GM console and the players' pages
do with phases, events, battles, sieges, captives, ransoms and storms. Same
authentication, errors and ``Idempotency-Key`` as the rest of ``/api``."""

from __future__ import annotations

from fastapi import APIRouter

from . import ops
from . import schemas as s
from . import schemas_full as sf
from .auth import ApiActor, SiteDep
from .routes_api import ERRORS, FactionQ, IdemKey

router = APIRouter(prefix="/api", tags=["api"], responses=ERRORS)


@router.get(
    "/games/{game}/full",
    response_model=sf.FullGameOut,
    summary="The phase, the event drawn, decks, hands, captives, ransoms, storms and sieges, as the caller sees them",
)
def full_game(game: str, site: SiteDep, actor: ApiActor, faction: FactionQ = None) -> sf.FullGameOut:
    return ops.full.full_game(site, actor, game, faction)


@router.get(
    "/games/{game}/fighting",
    response_model=sf.FightingOut,
    summary="The open battles and sieges, with the strengths the rules count (GM)",
)
def fighting(game: str, site: SiteDep, actor: ApiActor) -> sf.FightingOut:
    return ops.fighting.fighting(site, actor, game)


@router.post(
    "/games/{game}/resolve",
    response_model=sf.ResolvedOut,
    summary="Draw the card for a battle or a siege, on the server, and tell what it did (GM)",
)
def resolve(
    game: str, body: sf.ResolveIn, site: SiteDep, actor: ApiActor, key: IdemKey = None
) -> sf.ResolvedOut:
    return ops.fighting.resolve(site, actor, game, body, key)


@router.post(
    "/games/{game}/draw-event", response_model=s.OutcomeOut, summary="Draw this turn's event card (GM)"
)
def draw_event(game: str, site: SiteDep, actor: ApiActor, key: IdemKey = None) -> s.OutcomeOut:
    return ops.fighting.draw_event(site, actor, game, key)


@router.post(
    "/games/{game}/end-phase", response_model=s.OutcomeOut, summary="Move the turn on to its next phase (GM)"
)
def end_phase(game: str, site: SiteDep, actor: ApiActor, key: IdemKey = None) -> s.OutcomeOut:
    return ops.fighting.end_phase(site, actor, game, key)


@router.post(
    "/games/{game}/ransoms",
    response_model=s.OutcomeOut,
    summary="Offer a ransom for a captive: what each side gives (the other side confirms or rejects it)",
)
def offer_ransom(
    game: str, body: sf.RansomIn, site: SiteDep, actor: ApiActor, key: IdemKey = None
) -> s.OutcomeOut:
    return ops.captives.offer_ransom(site, actor, game, body, key)


@router.post(
    "/games/{game}/ports", response_model=s.OutcomeOut, summary="Choose the port a storm drives a ship into"
)
def choose_port(
    game: str, body: sf.PortIn, site: SiteDep, actor: ApiActor, key: IdemKey = None
) -> s.OutcomeOut:
    return ops.captives.choose_port(site, actor, game, body, key)


@router.post(
    "/games/{game}/captives",
    response_model=s.OutcomeOut,
    summary="Free a captive for nothing, or execute him",
)
def captive(
    game: str, body: sf.CaptiveIn, site: SiteDep, actor: ApiActor, key: IdemKey = None
) -> s.OutcomeOut:
    return ops.captives.captive_step(site, actor, game, body, key)

"""The JSON API of the game's end (issue 14): what the caller may do with its hand, its
heirs and Parliament (each choice judged by the rules), Parliament as it sees it, what
each faction still has to do, and the steps: assign a card, bring a noble into play,
play a held card, crown an heir, summon Parliament, declare attendance, propose, vote,
close. Same authentication, errors and ``Idempotency-Key`` as the rest of ``/api``."""

from __future__ import annotations

from fastapi import APIRouter

from . import ops
from . import schemas as s
from . import schemas_end as se
from .auth import ApiActor, SiteDep
from .routes_api import ERRORS, FactionQ, IdemKey

router = APIRouter(prefix="/api", tags=["api"], responses=ERRORS)


@router.get(
    "/games/{game}/choices",
    response_model=se.ChoicesOut,
    summary="What the caller may do now with its hand, its heirs and Parliament, judged by the rules",
)
def choices(game: str, site: SiteDep, actor: ApiActor, faction: FactionQ = None) -> se.ChoicesOut:
    return ops.parliament.choices(site, actor, game, faction)


@router.get(
    "/games/{game}/duties",
    response_model=se.DutiesOut,
    summary="The phase and what each faction still has to do in it (GM: everyone's; a player: its own)",
)
def duties(game: str, site: SiteDep, actor: ApiActor, faction: FactionQ = None) -> se.DutiesOut:
    return ops.crown.duties_for(site, actor, game, faction)


@router.get(
    "/games/{game}/parliament",
    response_model=se.ParliamentOut,
    summary="Parliament as the caller sees it: attendance, blocs, proposals, each decided one's tally",
)
def parliament(game: str, site: SiteDep, actor: ApiActor, faction: FactionQ = None) -> se.ParliamentOut:
    return ops.parliament.parliament(site, actor, game, faction)


@router.post(
    "/games/{game}/assign", response_model=s.OutcomeOut, summary="Assign a card of the hand to a noble"
)
def assign(game: str, body: se.AssignIn, site: SiteDep, actor: ApiActor, key: IdemKey = None) -> s.OutcomeOut:
    return ops.crown.assign(site, actor, game, body, key)


@router.post(
    "/games/{game}/enter-play",
    response_model=s.OutcomeOut,
    summary="Bring a noble card of the hand into play at one of his castles",
)
def enter_play(
    game: str, body: se.EnterPlayIn, site: SiteDep, actor: ApiActor, key: IdemKey = None
) -> s.OutcomeOut:
    return ops.crown.enter_play(site, actor, game, body, key)


@router.post(
    "/games/{game}/play-card", response_model=s.OutcomeOut, summary="Play a held event card for a unit"
)
def play_card(
    game: str, body: se.PlayCardIn, site: SiteDep, actor: ApiActor, key: IdemKey = None
) -> s.OutcomeOut:
    return ops.crown.play_card(site, actor, game, body, key)


@router.post("/games/{game}/crown", response_model=s.OutcomeOut, summary="Crown an heir the caller controls")
def crown(game: str, body: se.CrownIn, site: SiteDep, actor: ApiActor, key: IdemKey = None) -> s.OutcomeOut:
    return ops.crown.crown(site, actor, game, body, key)


@router.post(
    "/games/{game}/parliament/summon", response_model=s.OutcomeOut, summary="Summon Parliament to a seat"
)
def summon(game: str, body: se.SummonIn, site: SiteDep, actor: ApiActor, key: IdemKey = None) -> s.OutcomeOut:
    return ops.parliament.summon(site, actor, game, body, key)


@router.post(
    "/games/{game}/parliament/attend",
    response_model=s.OutcomeOut,
    summary="Declare which of the caller's nobles attend Parliament",
)
def attend(game: str, body: se.AttendIn, site: SiteDep, actor: ApiActor, key: IdemKey = None) -> s.OutcomeOut:
    return ops.parliament.attend(site, actor, game, body, key)


@router.post(
    "/games/{game}/parliament/propose",
    response_model=s.OutcomeOut,
    summary="Propose a Chancery card for a noble, a sole King motion or the victory motion (presiding faction)",
)
def propose(
    game: str, body: se.ProposeIn, site: SiteDep, actor: ApiActor, key: IdemKey = None
) -> s.OutcomeOut:
    return ops.parliament.propose(site, actor, game, body, key)


@router.post(
    "/games/{game}/parliament/vote",
    response_model=s.OutcomeOut,
    summary="Vote on the open proposal: one stance, or one for each house (secret until all have voted)",
)
def vote(game: str, body: se.VoteIn, site: SiteDep, actor: ApiActor, key: IdemKey = None) -> s.OutcomeOut:
    return ops.parliament.vote(site, actor, game, body, key)


@router.post(
    "/games/{game}/parliament/close",
    response_model=s.OutcomeOut,
    summary="Close Parliament (the presiding faction, or the GM)",
)
def close(game: str, body: se.CloseIn, site: SiteDep, actor: ApiActor, key: IdemKey = None) -> s.OutcomeOut:
    return ops.parliament.close(site, actor, game, body, key)

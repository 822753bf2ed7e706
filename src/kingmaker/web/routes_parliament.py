"""A player's steps of the game's end (issue 14), under their private link: the
Parliament page (the seat, who presides, attendance, each faction's votes, the
proposals with the tally of each decided one, the forms to summon, attend, propose,
vote and close), and the forms of the map page's side for the hand (assign a card,
bring a noble into play, play a held card) and the crown.

Every form offers only what the rules allow now (``rules.choices``, judged by
``decide``) and goes through the service as one rules command; the answer comes back as
a message on the page the form was on. Votes on an open proposal are secret: the page
shows a faction its own vote only, and every vote and the tally once the proposal is
decided.
"""

from __future__ import annotations

import secrets
from typing import Annotated

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import RedirectResponse, Response

from kingmaker.service import BadRequest

from . import ops
from . import schemas as s
from . import schemas_end as se
from .auth import PlayerActor, SiteDep
from .csrf import csrf_guard
from .routes_play import _common
from .templating import flash, page

router = APIRouter(prefix="/play/{game}/{token}", dependencies=[Depends(csrf_guard)], include_in_schema=False)

Text = Annotated[str, Form()]
OptText = Annotated[str | None, Form()]
Many = Annotated[list[str], Form()]


def _told(request: Request, out: s.OutcomeOut, to: str) -> Response:
    """The answer as a message on the page ``to``."""
    ok = out.result in ("accepted", "pending", "done")
    flash(
        request,
        f"{out.result}: {out.explanation}" + (f" [{out.rule}]" if out.rule else ""),
        "ok" if ok else "error",
    )
    return RedirectResponse(to, status_code=303)


def _map(game: str, token: str) -> str:
    return f"/play/{game}/{token}#end-side"


def _parliament(game: str, token: str) -> str:
    return f"/play/{game}/{token}/parliament"


@router.get("/parliament")
def parliament_page(request: Request, game: str, token: str, site: SiteDep, actor: PlayerActor) -> Response:
    ctx = _common(site, actor, game, token)
    state = site.svc.state(game)
    ctx |= {
        "parl": ops.parliament.parliament(site, actor, game) if state.phased else None,
        "choices": ops.parliament.choices(site, actor, game) if state.phased else None,
        "styles": site.styles(game),
        "phase": state.phase,
        "key": secrets.token_hex(8),
    }
    return page(request, "parliament.html", ctx)


# -- Parliament's steps -----------------------------------------------------------------------
@router.post("/summon")
def summon(
    request: Request,
    game: str,
    token: str,
    site: SiteDep,
    actor: PlayerActor,
    seat: Text,
    key: OptText = None,
) -> Response:
    out = ops.parliament.summon(site, actor, game, se.SummonIn.model_validate({"seat": seat}), key)
    return _told(request, out, _parliament(game, token))


@router.post("/attend")
def attend(
    request: Request,
    game: str,
    token: str,
    site: SiteDep,
    actor: PlayerActor,
    nobles: Many = [],  # noqa: B006 (FastAPI copies a form field's default)
    key: OptText = None,
) -> Response:
    out = ops.parliament.attend(site, actor, game, se.AttendIn.model_validate({"nobles": nobles}), key)
    return _told(request, out, _parliament(game, token))


@router.post("/propose")
def propose(
    request: Request,
    game: str,
    token: str,
    site: SiteDep,
    actor: PlayerActor,
    proposal: Text,
    key: OptText = None,
) -> Response:
    """``proposal`` is a choice's target: ``<card>:<noble>``, ``sole_king:<heir>`` or
    ``victory``."""
    if proposal == "victory":
        body = {"motion": "victory"}
    elif proposal.startswith("sole_king:"):
        body = {"motion": "sole_king", "heir": proposal.split(":", 1)[1]}
    elif proposal.count(":") == 1:
        award, to = proposal.split(":")
        body = {"award": award, "to": to}
    else:
        raise BadRequest("choose a proposal: a Chancery card for a noble, a sole King motion or victory")
    out = ops.parliament.propose(site, actor, game, se.ProposeIn.model_validate(body), key)
    return _told(request, out, _parliament(game, token))


@router.post("/vote")
def vote(
    request: Request,
    game: str,
    token: str,
    site: SiteDep,
    actor: PlayerActor,
    proposal: Text,
    stance: OptText = None,
    lords: OptText = None,
    commons: OptText = None,
    key: OptText = None,
) -> Response:
    """One click (``stance``, both houses) or one stance for each house."""
    body = se.VoteIn.model_validate(
        {"proposal": proposal, "stance": stance or None, "lords": lords or None, "commons": commons or None}
    )
    return _told(request, ops.parliament.vote(site, actor, game, body, key), _parliament(game, token))


@router.post("/close-parliament")
def close(
    request: Request, game: str, token: str, site: SiteDep, actor: PlayerActor, key: OptText = None
) -> Response:
    out = ops.parliament.close(site, actor, game, se.CloseIn(), key)
    return _told(request, out, _parliament(game, token))


# -- the hand and the crown (the map page's side) ----------------------------------------------
@router.post("/assign")
def assign(
    request: Request,
    game: str,
    token: str,
    site: SiteDep,
    actor: PlayerActor,
    card: Text,
    to: Text,
    key: OptText = None,
) -> Response:
    out = ops.crown.assign(site, actor, game, se.AssignIn.model_validate({"card": card, "to": to}), key)
    return _told(request, out, _map(game, token))


@router.post("/enter-play")
def enter_play(
    request: Request,
    game: str,
    token: str,
    site: SiteDep,
    actor: PlayerActor,
    noble: Text,
    castle: Text,
    key: OptText = None,
) -> Response:
    body = se.EnterPlayIn.model_validate({"noble": noble, "castle": castle})
    return _told(request, ops.crown.enter_play(site, actor, game, body, key), _map(game, token))


@router.post("/play-card")
def play_card(
    request: Request,
    game: str,
    token: str,
    site: SiteDep,
    actor: PlayerActor,
    card: Text,
    unit: Text,
    key: OptText = None,
) -> Response:
    body = se.PlayCardIn.model_validate({"card": card, "unit": unit})
    return _told(request, ops.crown.play_card(site, actor, game, body, key), _map(game, token))


@router.post("/crown")
def crown(
    request: Request,
    game: str,
    token: str,
    site: SiteDep,
    actor: PlayerActor,
    heir: Text,
    key: OptText = None,
) -> Response:
    out = ops.crown.crown(site, actor, game, se.CrownIn.model_validate({"heir": heir}), key)
    return _told(request, out, _map(game, token))

"""The JSON API: everything the pages do, for scripts, bots and other clients.

Authentication: ``Authorization: Bearer <token>`` (a player's secret token: it acts for
that faction only) or ``Authorization: Bearer gm:<password>`` (the GM). Errors are
``{"error": code, "message": ...}``. A POST may carry an ``Idempotency-Key`` header:
the same key from the same caller applies once.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import Response

from kingmaker.render.map import svg

from . import ops
from . import schemas as s
from .auth import ApiActor, SiteDep, seat_link_base
from .jsonout import json_answer

ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": s.ErrorOut, "description": "The request is not allowed or malformed"},
    401: {"model": s.ErrorOut, "description": "No credentials"},
    403: {"model": s.ErrorOut, "description": "These credentials may not do this"},
    404: {"model": s.ErrorOut, "description": "No such game, unit or item"},
    409: {"model": s.ErrorOut, "description": "The game kept changing; try again"},
    413: {"model": s.ErrorOut, "description": "The request body is too large (at most 64 KB)"},
    422: {"model": s.ErrorOut, "description": "The request's fields are not valid"},
    429: {
        "model": s.ErrorOut,
        "description": "Too many failed GM logins, or too many requests with this token; see Retry-After",
    },
    503: {"model": s.ErrorOut, "description": "The game store cannot be reached; try again"},
}

router = APIRouter(prefix="/api", tags=["api"], responses=ERRORS)

IdemKey = Annotated[str | None, Header(alias="Idempotency-Key", description="apply a retried request once")]
FactionQ = Annotated[
    str | None, Query(description="whose view (the GM: any faction, gm or public; a player: their own)")
]


@router.get("/games", response_model=list[s.GameOut], summary="Every game (GM)")
@json_answer()
def list_games(site: SiteDep, actor: ApiActor) -> list[s.GameOut]:
    return ops.games.games(site, actor)


@router.post("/games", response_model=s.OutcomeOut, status_code=201, summary="Create a game (GM)")
@json_answer(201)
def create_game(body: s.CreateGameIn, site: SiteDep, actor: ApiActor) -> s.OutcomeOut:
    return ops.games.create_game(site, actor, body)


@router.get("/games/{game}", response_model=s.GameOut, summary="A game's factions, round and turn")
@json_answer()
def get_game(game: str, site: SiteDep, actor: ApiActor) -> s.GameOut:
    return ops.games.game_out(site, game)


@router.get(
    "/games/{game}/status", response_model=s.StatusOut, summary="Who has ordered, seats, deadlines (GM)"
)
@json_answer()
def status(game: str, site: SiteDep, actor: ApiActor) -> s.StatusOut:
    return ops.games.status(site, actor, game)


@router.get("/games/{game}/view", response_model=s.ViewOut, summary="The position as the caller may see it")
@json_answer()
def get_view(game: str, site: SiteDep, actor: ApiActor, faction: FactionQ = None) -> s.ViewOut:
    return ops.positions.view_out(site, actor, game, faction)


@router.get("/games/{game}/units", response_model=list[s.UnitOut], summary="The units the caller may order")
@json_answer()
def units(game: str, site: SiteDep, actor: ApiActor) -> list[s.UnitOut]:
    return ops.orders.units(site, actor, game)


@router.get(
    "/games/{game}/units/{unit}/destinations",
    response_model=s.DestinationsOut,
    summary="Where a unit may go this turn, and what it may do there",
)
@json_answer()
def destinations(game: str, unit: str, site: SiteDep, actor: ApiActor) -> s.DestinationsOut:
    return ops.orders.destinations(site, actor, game, unit)


@router.post("/games/{game}/orders", response_model=s.OutcomeOut, summary="Give an order chosen on the map")
@json_answer()
def map_order(
    game: str, body: s.MapOrderIn, site: SiteDep, actor: ApiActor, key: IdemKey = None
) -> s.OutcomeOut:
    return ops.orders.map_order(site, actor, game, body, key)


@router.post(
    "/games/{game}/orders/check",
    response_model=list[s.VerdictOut],
    summary="Check text orders (nothing is sent)",
)
@json_answer()
def check_orders(game: str, body: s.TextOrdersIn, site: SiteDep, actor: ApiActor) -> list[s.VerdictOut]:
    return ops.orders.check_text(site, actor, game, body)


@router.post("/games/{game}/orders/text", response_model=list[s.VerdictOut], summary="Send text orders")
@json_answer()
def send_orders(
    game: str, body: s.TextOrdersIn, site: SiteDep, actor: ApiActor, key: IdemKey = None
) -> list[s.VerdictOut]:
    return ops.orders.send_text(site, actor, game, body, key)


@router.get(
    "/games/{game}/pending", response_model=list[s.PendingOut], summary="What awaits answers (the inbox)"
)
@json_answer()
def pending(game: str, site: SiteDep, actor: ApiActor, faction: FactionQ = None) -> list[s.PendingOut]:
    return ops.inbox.pending(site, actor, game, faction)


@router.post("/games/{game}/answers", response_model=s.OutcomeOut, summary="Answer an alliance or a request")
@json_answer()
def answer(game: str, body: s.AnswerIn, site: SiteDep, actor: ApiActor, key: IdemKey = None) -> s.OutcomeOut:
    return ops.inbox.answer(site, actor, game, body, key)


@router.post("/games/{game}/finish-turn", response_model=s.OutcomeOut, summary="End the current turn")
@json_answer()
def finish_turn(
    game: str,
    site: SiteDep,
    actor: ApiActor,
    key: IdemKey = None,
    force: Annotated[
        bool, Query(description="the GM ends the turn although something is still open (else: refused)")
    ] = False,
) -> s.OutcomeOut:
    return ops.orders.finish_turn(site, actor, game, key, force)


@router.post(
    "/games/{game}/permission-requests",
    response_model=s.OutcomeOut,
    summary="Ask a place's controller for permission",
)
@json_answer()
def ask_permission(
    game: str, body: s.PermissionAskIn, site: SiteDep, actor: ApiActor, key: IdemKey = None
) -> s.OutcomeOut:
    return ops.orders.ask_permission(site, actor, game, body, key)


@router.get(
    "/games/{game}/deadlines",
    response_model=list[s.DeadlineOut],
    summary="Open deadlines the caller may know",
)
@json_answer()
def deadlines(game: str, site: SiteDep, actor: ApiActor) -> list[s.DeadlineOut]:
    return ops.inbox.deadlines(site, actor, game)


@router.get(
    "/games/{game}/log", response_model=list[s.LogEntryOut], summary="The log entries the caller may read"
)
@json_answer()
def log(game: str, site: SiteDep, actor: ApiActor) -> list[s.LogEntryOut]:
    return ops.reports.log(site, actor, game)


@router.get(
    "/games/{game}/reports", response_model=s.ReportsOut, summary="The turn reports and private report"
)
@json_answer()
def reports(
    game: str,
    site: SiteDep,
    actor: ApiActor,
    round: Annotated[int | None, Query(ge=1)] = None,
    turn: str | None = None,
    format: Annotated[str, Query(pattern="^(bbcode|markdown|plain)$")] = "markdown",
    faction: FactionQ = None,
) -> s.ReportsOut:
    return ops.reports.reports(site, actor, game, round, turn, format, faction)


@router.get(
    "/games/{game}/digest",
    response_model=s.DigestOut,
    summary="A round in one post: every turn's orders and resolution, one position",
)
@json_answer()
def digest(
    game: str,
    site: SiteDep,
    actor: ApiActor,
    round: Annotated[int | None, Query(ge=1, description="default: the round of the last turn ended")] = None,
    format: Annotated[str, Query(pattern="^(bbcode|markdown|plain)$")] = "markdown",
    faction: FactionQ = None,
) -> s.DigestOut:
    return ops.reports.digest(site, actor, game, round, format, faction)


@router.get(
    "/games/{game}/map.svg",
    response_class=Response,
    responses={200: {"content": {"image/svg+xml": {}}}},
    summary="The map as the caller may see it (SVG)",
)
def map_svg(game: str, site: SiteDep, actor: ApiActor, faction: FactionQ = None) -> Response:
    model = ops.positions.map_model(site, actor, game, faction, selectable=False)
    return Response(svg(model), media_type="image/svg+xml")


@router.get(
    "/games/{game}/map.png",
    response_class=Response,
    responses={200: {"content": {"image/png": {}}}},
    summary="The map as the caller may see it (PNG, for the forum)",
)
def map_png(
    game: str,
    site: SiteDep,
    actor: ApiActor,
    faction: FactionQ = None,
    round: Annotated[int | None, Query(ge=1, description="with turn: the map after that turn")] = None,
    turn: Annotated[str | None, Query(description="whose turn in that round")] = None,
) -> Response:
    """1600 pixels wide: every place named, each noble, army, ship and heir a labelled
    counter, sieges, a caption and the legend; now, or after the turn asked for."""
    return Response(ops.positions.forum_png(site, actor, game, faction, round, turn), media_type="image/png")


# -- the GM's acts -------------------------------------------------------------------------
@router.post("/games/{game}/seats", response_model=s.SeatOut, status_code=201, summary="Seat a player (GM)")
@json_answer(201)
def seat(game: str, body: s.SeatIn, request: Request, site: SiteDep, actor: ApiActor) -> s.SeatOut:
    return ops.gm.seat(site, actor, game, body, seat_link_base(request))


@router.post("/games/{game}/extend", response_model=s.OutcomeOut, summary="Extend a deadline (GM)")
@json_answer()
def extend(game: str, body: s.ExtendIn, site: SiteDep, actor: ApiActor, key: IdemKey = None) -> s.OutcomeOut:
    return ops.gm.extend(site, actor, game, body, key)


@router.post(
    "/games/{game}/undo", response_model=s.OutcomeOut, summary="Restore the game to a log entry (GM)"
)
@json_answer()
def undo(game: str, body: s.UndoIn, site: SiteDep, actor: ApiActor, key: IdemKey = None) -> s.OutcomeOut:
    return ops.gm.undo(site, actor, game, body, key)


@router.post(
    "/games/{game}/tick", response_model=s.OutcomeOut, summary="Record the deadlines that have passed (GM)"
)
@json_answer()
def tick(game: str, site: SiteDep, actor: ApiActor) -> s.OutcomeOut:
    return ops.gm.tick(site, actor, game)


@router.post(
    "/games/{game}/storm", response_model=s.OutcomeOut, summary="A storm drives a ship into a port (GM)"
)
@json_answer()
def storm(game: str, body: s.StormIn, site: SiteDep, actor: ApiActor, key: IdemKey = None) -> s.OutcomeOut:
    return ops.gm.storm(site, actor, game, body, key)


@router.post("/games/{game}/control", response_model=s.OutcomeOut, summary="Set who controls a place (GM)")
@json_answer()
def control(
    game: str, body: s.ControlIn, site: SiteDep, actor: ApiActor, key: IdemKey = None
) -> s.OutcomeOut:
    return ops.gm.set_control(site, actor, game, body, key)

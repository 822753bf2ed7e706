"""The GM console: log in, create games, seat players (each gets a private link), see
who has not ordered, end or extend turns, storms and control changes, undo, GM text
orders, the reports to copy (BBCode and Markdown) and the map as a PNG for the post."""

from __future__ import annotations

import secrets
from contextlib import suppress
from typing import Annotated, Any, Final
from urllib.parse import quote

from fastapi import APIRouter, Depends, Form, Query, Request
from fastapi.responses import RedirectResponse, Response

from kingmaker.render.map import svg
from kingmaker.render.reports import render, reports_for
from kingmaker.rules import limits as lim
from kingmaker.rules.board import PlaceKind
from kingmaker.rules.commands import GM
from kingmaker.rules.options import OPTIONS, OptionError
from kingmaker.rules.state import GameState
from kingmaker.rules.views import PUBLIC
from kingmaker.service import BadRequest

from . import ops
from . import schemas as s
from . import schemas_full as sf
from .auth import GmActor, SiteDep, gm_credential, gm_login, gm_sessions, seat_link_base
from .csrf import csrf_guard
from .ops import Site
from .report_html import render_html
from .templating import flash, page
from .throttle import TooManyAttempts

router = APIRouter(prefix="/gm", dependencies=[Depends(csrf_guard)], include_in_schema=False)

Text = Annotated[str, Form()]
OptText = Annotated[str | None, Form()]


def _note(request: Request, out: s.OutcomeOut) -> None:
    ok = out.result in ("accepted", "pending", "done")
    flash(
        request,
        f"{out.result}: {out.explanation}" + (f" [{out.rule}]" if out.rule else ""),
        "ok" if ok else "error",
    )


def _back(game: str, anchor: str = "") -> RedirectResponse:
    return RedirectResponse(f"/gm/games/{quote(game)}{anchor}", status_code=303)


@router.get("/login")
def login_form(request: Request, next: Annotated[str, Query()] = "/gm") -> Response:
    enabled = gm_credential(request) is not None
    return page(request, "gm_login.html", {"next": _safe_next(next), "enabled": enabled})


@router.post("/login")
def login(request: Request, password: Text, next: OptText = None) -> Response:
    """A new server-side session for the GM (the browser's old one, if any, ends)."""
    ctx: dict[str, Any] = {"next": _safe_next(next or "/gm"), "enabled": gm_credential(request) is not None}
    try:
        ok = gm_login(request, password)
    except TooManyAttempts as e:
        ctx["throttled"] = str(e)
        response = page(request, "gm_login.html", ctx, status_code=429)
        response.headers["Retry-After"] = str(e.retry_after)
        return response
    if not ok:
        return page(request, "gm_login.html", {**ctx, "failed": True}, status_code=403)
    response = RedirectResponse(_safe_next(next or "/gm"), status_code=303)
    gm_sessions(request).start(request, response)
    return response


@router.post("/logout")
def logout(request: Request) -> Response:
    """The GM's session ends on the server: its cookie opens nothing any more."""
    response = RedirectResponse("/", status_code=303)
    gm_sessions(request).end(request, response)
    return response


def _safe_next(url: str) -> str:
    return url if url.startswith("/gm") and "//" not in url and "\\" not in url else "/gm"


@router.get("")
def console(request: Request, site: SiteDep, actor: GmActor) -> Response:
    return page(
        request, "gm_index.html", {"games": ops.games.games(site, actor), "gm": True, "options": OPTIONS}
    )


async def _form_options(request: Request) -> dict[str, str]:
    """The create form's option fields (``option_NAME``, one per ``rules.options``
    option, each showing its default): the options set to other than their default (a
    default is no choice, so a game made with all of them is as one made with none).
    A value its option does not allow is passed on, to be refused with the allowed ones."""
    form = await request.form()  # Starlette keeps the parsed form: the Form fields read the same
    chosen: dict[str, str] = {}
    for o in OPTIONS:
        value = form.get(f"option_{o.name}")
        if not isinstance(value, str) or not value.strip():
            continue
        with suppress(OptionError):
            if o.normal(value) == o.default:
                continue
        chosen[o.name] = value[: lim.ID_MAX + 1]
    return chosen


@router.post("/games")
def create_game(
    request: Request,
    site: SiteDep,
    actor: GmActor,
    options: Annotated[dict[str, str], Depends(_form_options)],
    name: Text,
    factions: Text,
    data_folder: OptText = None,
    seed: OptText = None,
    game_id: OptText = None,
    policy: Annotated[str, Form()] = "hold",
    turn_hours: OptText = None,
    request_hours: OptText = None,
    adjudication: Annotated[str, Form()] = "full",
) -> Response:
    if adjudication not in _ADJUDICATION:
        raise BadRequest(f"adjudication is one of {', '.join(_ADJUDICATION)}, not {adjudication[:20]!r}")
    full_game, draw_events = _ADJUDICATION[adjudication]
    body = s.CreateGameIn.model_validate(
        {
            "name": name,
            "factions": [f.strip() for f in factions.replace(";", ",").split(",") if f.strip()],
            "data_folder": (data_folder or "").strip() or None,
            "seed": (seed or "").strip() or None,
            "game_id": (game_id or "").strip() or None,
            "policy": policy,
            "turn_hours": _hours(turn_hours),
            "request_hours": _hours(request_hours),
            "full_game": full_game,
            "draw_events": draw_events,
            "options": options,
        }
    )
    out = ops.games.create_game(site, actor, body)
    _note(request, out)
    return _back(out.game)


# The GM form's adjudication: (full_game, draw_events).
_ADJUDICATION: Final = {"full": (True, True), "manual-events": (True, False), "hand": (False, False)}


def _hours(text: str | None) -> float | None:
    t = (text or "").strip()
    if not t or t.lower() in ("none", "no", "0"):
        return None
    try:
        return float(t)
    except ValueError:
        raise BadRequest(f"{t!r} is not a number of hours") from None


def _game_ctx(site: Site, game: str) -> dict[str, Any]:
    from kingmaker.service import GM_ACTOR

    st = ops.games.status(site, GM_ACTOR, game)
    state = site.svc.state(game)
    board = state.board
    styles = site.styles(game)
    return {
        "gm": True,
        "status": st,
        "game": st.game,
        "styles": styles,
        "seated": {x.faction: x.player for x in st.seats},
        "ships": sorted(
            ((x.id, state.catalog.name_of(x.id), x.place) for x in state.ships.values()), key=lambda t: t[1]
        ),
        "ports": sorted(((p.id, p.name) for p in board.places.values() if p.seas), key=lambda t: t[1]),
        "controllable": sorted(
            (
                (p.id, p.name, styles.name(state.control.get(p.id)) if p.id in state.control else "")
                for p in board.places.values()
                if p.kind.controllable
            ),
            key=lambda t: t[1],
        ),
        "kinds": PlaceKind,
        "key": secrets.token_hex(8),
    } | _full_ctx(site, game, state)


def _full_ctx(site: Site, game: str, state: GameState) -> dict[str, Any]:
    """The full game's part of the console: phase, event, decks, the open battles and
    sieges with their strengths, storms, ransoms and captives (the GM sees all)."""
    if not state.phased:
        return {"full": None, "fighting": None, "duties": None, "parl": None}
    from kingmaker.service import GM_ACTOR

    return {
        "full": ops.full.full_game(site, GM_ACTOR, game),
        "fighting": ops.fighting.fighting(site, GM_ACTOR, game),
        "duties": ops.crown.duties_for(site, GM_ACTOR, game),  # what each faction still has to do
        "parl": ops.parliament.parliament(site, GM_ACTOR, game),
    }


@router.get("/games/{game}")
def game_console(
    request: Request,
    game: str,
    site: SiteDep,
    actor: GmActor,
    resolved: Annotated[int | None, Query(ge=1)] = None,
) -> Response:
    ctx = _game_ctx(site, game)
    if resolved is not None:  # the battle or siege just drawn: its paragraph and table
        doc = ops.fighting.fight_document(reports_for(site.svc, game), resolved)
        ctx["resolved_html"] = render_html(doc, shift=2) if doc is not None else None
    ctx["map_svg"] = svg(ops.positions.map_model(site, actor, game, GM, selectable=False))
    log = ops.reports.log(site, actor, game)
    ctx["recent"] = list(reversed(log[-60:]))
    ctx["pending"] = ops.inbox.pending(site, actor, game)
    ctx["open"] = ops.gm.open_business(site, actor, game)
    return page(request, "gm_game.html", ctx)


@router.post("/games/{game}/seat")
def seat(request: Request, game: str, site: SiteDep, actor: GmActor, faction: Text, player: Text) -> Response:
    out = ops.gm.seat(site, actor, game, s.SeatIn(faction=faction, player=player), seat_link_base(request))
    ctx = _game_ctx(site, game) | {"seat": out}
    return page(request, "gm_seated.html", ctx)


@router.post("/games/{game}/finish")
def finish(
    request: Request, game: str, site: SiteDep, actor: GmActor, key: OptText = None, force: OptText = None
) -> Response:
    """The turn ends; while something is still open, a page says what and asks the GM
    to confirm (the confirmation posts again with ``force``)."""
    out = ops.orders.finish_turn(site, actor, game, key, force=bool(force))
    if out.result == "refused" and not force:
        business = ops.gm.open_business(site, actor, game)
        if business.holding:
            ctx = _game_ctx(site, game) | {"open": business, "refused": out}
            return page(request, "gm_end_turn.html", ctx)
    _note(request, out)
    return _back(game)


@router.post("/games/{game}/resolve")
def resolve(
    request: Request,
    game: str,
    site: SiteDep,
    actor: GmActor,
    attack: OptText = None,
    place: OptText = None,
    key: OptText = None,
) -> Response:
    """One button per open battle or siege: the draw happens here, on the server."""
    body = sf.ResolveIn.model_validate({"attack": attack or None, "place": place or None})
    out = ops.fighting.resolve(site, actor, game, body, key)
    _note(request, out.outcome)
    seq = out.outcome.last_seq if out.outcome.result == "accepted" else None
    return RedirectResponse(
        f"/gm/games/{quote(game)}" + (f"?resolved={seq}" if seq else "") + "#fighting", status_code=303
    )


@router.post("/games/{game}/draw-event")
def draw_event(request: Request, game: str, site: SiteDep, actor: GmActor, key: OptText = None) -> Response:
    _note(request, ops.fighting.draw_event(site, actor, game, key))
    return _back(game, "#fighting")


@router.post("/games/{game}/end-phase")
def end_phase(request: Request, game: str, site: SiteDep, actor: GmActor, key: OptText = None) -> Response:
    _note(request, ops.fighting.end_phase(site, actor, game, key))
    return _back(game, "#fighting")


@router.post("/games/{game}/tick")
def tick(request: Request, game: str, site: SiteDep, actor: GmActor) -> Response:
    _note(request, ops.gm.tick(site, actor, game))
    return _back(game)


@router.post("/games/{game}/extend")
def extend(
    request: Request, game: str, site: SiteDep, actor: GmActor, target: Text, hours: Text, key: OptText = None
) -> Response:
    h = _hours(hours)
    if h is None:
        raise BadRequest("extend by a positive number of hours")
    _note(request, ops.gm.extend(site, actor, game, s.ExtendIn(target=target, hours=h), key))
    return _back(game)


@router.post("/games/{game}/storm")
def storm(
    request: Request, game: str, site: SiteDep, actor: GmActor, ship: Text, into: Text, key: OptText = None
) -> Response:
    _note(request, ops.gm.storm(site, actor, game, s.StormIn(ship=ship, into=into), key))
    return _back(game)


@router.post("/games/{game}/control")
def control(
    request: Request,
    game: str,
    site: SiteDep,
    actor: GmActor,
    place: Text,
    faction: OptText = None,
    key: OptText = None,
) -> Response:
    _note(
        request, ops.gm.set_control(site, actor, game, s.ControlIn(place=place, faction=faction or None), key)
    )
    return _back(game)


@router.post("/games/{game}/undo")
def undo(
    request: Request,
    game: str,
    site: SiteDep,
    actor: GmActor,
    to_seq: Text,
    reason: OptText = None,
    key: OptText = None,
) -> Response:
    try:
        seq = int(to_seq)
    except ValueError:
        raise BadRequest("undo to a log entry number") from None
    try:
        out = ops.gm.undo(site, actor, game, s.UndoIn(to_seq=seq, reason=reason or ""), key)
    except BadRequest as e:  # an entry before 0 or after the latest: say so beside the form
        flash(request, f"undo refused: {e}", "error")
        return _back(game)
    _note(request, out)
    return _back(game)


@router.post("/games/{game}/orders")
def orders(
    request: Request,
    game: str,
    site: SiteDep,
    actor: GmActor,
    text: Text,
    do: Annotated[str, Form()] = "check",
    key: OptText = None,
) -> Response:
    body = s.TextOrdersIn(text=text, by=None)
    verdicts = (
        ops.orders.send_text(site, actor, game, body, key)
        if do == "send"
        else ops.orders.check_text(site, actor, game, body)
    )
    ctx = _game_ctx(site, game)
    ctx |= {"verdicts": verdicts, "text": text if do != "send" else "", "sent": do == "send"}
    ctx["receipt"] = ops.orders.receipt(site, actor, game, None, verdicts, sent=do == "send")
    ctx["map_svg"] = svg(ops.positions.map_model(site, actor, game, GM, selectable=False))
    ctx["recent"] = list(reversed(ops.reports.log(site, actor, game)[-60:]))
    ctx["pending"] = ops.inbox.pending(site, actor, game)
    return page(request, "gm_game.html", ctx)


@router.get("/games/{game}/reports")
def reports(
    request: Request,
    game: str,
    site: SiteDep,
    actor: GmActor,
    round: Annotated[int | None, Query(ge=1)] = None,
    turn: Annotated[str | None, Query()] = None,
) -> Response:
    ctx = _game_ctx(site, game)
    rctx = reports_for(site.svc, game)
    if not rctx.timeline.turns():
        ctx |= {"turns": [], "current": None, "copies": []}
        return page(request, "gm_reports.html", ctx)
    t = ops.reports.turn_of(rctx, round, turn)
    copies: list[dict[str, Any]] = []
    pub = ops.reports.report_docs(rctx, t, PUBLIC)
    gm = ops.reports.report_docs(rctx, t, GM)
    copies.append(
        {
            "title": "Turn report for the thread",
            "id": "public",
            "bbcode": render(pub.turn, "bbcode"),
            "markdown": render(pub.turn, "markdown"),
            "html": render_html(pub.turn),
        }
    )
    copies.append(
        {
            "title": "GM's copy (everything)",
            "id": "gm",
            "bbcode": render(gm.turn, "bbcode"),
            "markdown": render(gm.turn, "markdown"),
            "html": None,
        }
    )
    digest = ops.reports.digest_doc(rctx, t[0], PUBLIC)
    copies.append(
        {
            "title": f"Round {t[0]} digest for the thread (every turn of the round, one position)",
            "id": "digest",
            "bbcode": render(digest, "bbcode"),
            "markdown": render(digest, "markdown"),
            "html": render_html(digest),
        }
    )
    for f in ctx["game"].turn_order:
        d = ops.reports.report_docs(rctx, t, f)
        name = ctx["styles"].name(f)
        if d.private is not None:
            copies.append(
                {
                    "title": f"Private report for {name}",
                    "id": f"private-{f}",
                    "bbcode": render(d.private, "bbcode"),
                    "markdown": render(d.private, "markdown"),
                    "html": None,
                }
            )
        for i, m in enumerate(d.messages):
            copies.append(
                {
                    "title": f"Message to {name}: {m.subject}",
                    "id": f"msg-{f}-{i}",
                    "bbcode": render(m.body, "bbcode"),
                    "markdown": render(m.body, "markdown"),
                    "html": None,
                }
            )
    ctx |= {"turns": rctx.timeline.turns(), "current": t, "copies": copies}
    return page(request, "gm_reports.html", ctx)


@router.get("/games/{game}/log")
def log(request: Request, game: str, site: SiteDep, actor: GmActor) -> Response:
    ctx = _game_ctx(site, game) | {"entries": list(reversed(ops.reports.log(site, actor, game)))}
    return page(request, "gm_log.html", ctx)


@router.get("/games/{game}/map.svg")
def map_svg(game: str, site: SiteDep, actor: GmActor, viewer: Annotated[str, Query()] = PUBLIC) -> Response:
    return Response(
        svg(ops.positions.map_model(site, actor, game, viewer, selectable=False)), media_type="image/svg+xml"
    )


@router.get("/games/{game}/map.png")
def map_png(
    game: str,
    site: SiteDep,
    actor: GmActor,
    viewer: Annotated[str, Query()] = PUBLIC,
    round: Annotated[int | None, Query(ge=1)] = None,
    turn: Annotated[str | None, Query()] = None,
) -> Response:
    """The map for the post: after the turn asked for (default: the last turn that has
    ended), as ``viewer`` may see it, 1600 pixels wide."""
    data = ops.positions.forum_png(site, actor, game, viewer, round, turn, now=False)
    headers = {"Content-Disposition": f'inline; filename="{game}-map.png"'}
    return Response(data, media_type="image/png", headers=headers)

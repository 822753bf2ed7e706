"""A player's pages, under their private link ``/play/<game>/<token>``: the map with
orders, text orders, the inbox, the position, the log and the reports.

Every page and fragment is built for the token's faction only (``view``, ``log_for``,
``pending``, the faction's reports). Forms post with the session's CSRF token; with
htmx a POST answers with the fragment to swap in (and fresh copies of the map and the
unit list), without it the page is shown again with a message.
"""

from __future__ import annotations

import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Query, Request
from fastapi.responses import RedirectResponse, Response

from kingmaker.render.map import Mark, overlay_svg, svg
from kingmaker.render.reports import Document, reports_for
from kingmaker.render.reports import position as position_doc
from kingmaker.render.reports.digest import rounds
from kingmaker.service import Actor

from . import ops
from . import schemas as s
from . import schemas_full as sf
from .auth import PlayerActor, SiteDep
from .csrf import csrf_guard
from .ops import Site
from .report_html import render_html
from .templating import flash, page

router = APIRouter(prefix="/play/{game}/{token}", dependencies=[Depends(csrf_guard)], include_in_schema=False)

Text = Annotated[str, Form()]
OptText = Annotated[str | None, Form()]


def _base(game: str, token: str) -> str:
    return f"/play/{game}/{token}"


def _common(site: Site, actor: Actor, game: str, token: str) -> dict[str, Any]:
    g = ops.games.game_out(site, game)
    me = actor.faction or ""
    deadlines = ops.inbox.deadlines(site, actor, game)
    pending = ops.inbox.pending(site, actor, game)
    return {
        "game": g,
        "me": me,
        "me_name": site.styles(game).name(me),
        "me_colour": site.styles(game).colour(me),
        "base": _base(game, token),
        "turn_due": next((d.due for d in deadlines if d.kind == "turn"), None),
        "inbox_count": sum(1 for p in pending if p.for_you),
        "my_turn": g.turn == me,
    }


def _map_ctx(site: Site, actor: Actor, game: str) -> dict[str, Any]:
    model = ops.positions.map_model(site, actor, game)
    units = ops.orders.units(site, actor, game)
    return {"map_svg": svg(model), "units": units} | _full_ctx(site, actor, game)


def _full_ctx(site: Site, actor: Actor, game: str) -> dict[str, Any]:
    """The full game's part of a player's pages (phase, hand, captives, storms, what it
    may do with its hand, heirs and Parliament), from the player's view; None in a game
    without phases."""
    if not site.svc.state(game).phased:
        return {"full": None, "choices": None, "parl": None}
    return {
        "full": ops.full.full_game(site, actor, game),
        "styles": site.styles(game),
        "choices": ops.parliament.choices(site, actor, game),  # the hand, the crown, Parliament
        "parl": ops.parliament.parliament(site, actor, game),
    }


def _panel_ctx(
    site: Site, actor: Actor, game: str, base: str, unit: str | None, to: str | None
) -> dict[str, Any]:
    if not unit:
        return {"dest": None, "choice": None, "overlay": ""}
    dest = ops.orders.destinations(site, actor, game, unit)
    state = site.svc.state(game)
    geo = site.geometry(game, state.board)
    marks = []
    for d in dest.destinations:
        if not d.actions:
            continue
        status = "sea" if d.sea or d.port else "enter" if d.enter else "siege" if d.siege else "open"
        marks.append(Mark(d.place, d.name, status, f"{base}/panel/confirm?unit={unit}&to={d.place}"))
    choice = next((d for d in dest.destinations if d.place == to), None) if to else None
    return {
        "dest": dest,
        "choice": choice,
        "route": [state.board.name_of(p) for p in choice.path] if choice else [],
        "overlay": overlay_svg(geo, marks, origin=dest.place),
    }


@router.get("")
def play_page(
    request: Request,
    game: str,
    token: str,
    site: SiteDep,
    actor: PlayerActor,
    unit: Annotated[str | None, Query()] = None,
    to: Annotated[str | None, Query()] = None,
) -> Response:
    base = _base(game, token)
    ctx = _common(site, actor, game, token) | _map_ctx(site, actor, game)
    ctx |= _panel_ctx(site, actor, game, base, unit, to)
    ctx["key"] = secrets.token_hex(8)
    ctx["text"] = ""
    ctx["verdicts"] = None
    return page(request, "play.html", ctx)


@router.get("/panel/units/{unit}")
def unit_panel(
    request: Request, game: str, token: str, unit: str, site: SiteDep, actor: PlayerActor
) -> Response:
    base = _base(game, token)
    ctx = {"base": base, "key": secrets.token_hex(8)} | _panel_ctx(site, actor, game, base, unit, None)
    return page(request, "_order_panel.html", ctx)


@router.get("/panel/confirm")
def confirm_panel(
    request: Request,
    game: str,
    token: str,
    site: SiteDep,
    actor: PlayerActor,
    unit: Annotated[str, Query()],
    to: Annotated[str, Query()],
) -> Response:
    base = _base(game, token)
    ctx = {"base": base, "key": secrets.token_hex(8)} | _panel_ctx(site, actor, game, base, unit, to)
    return page(request, "_order_panel.html", ctx)


def _after_post(
    request: Request,
    site: Site,
    actor: Actor,
    game: str,
    token: str,
    outcomes: list[s.OutcomeOut] | None = None,
    verdicts: list[s.VerdictOut] | None = None,
    text: str = "",
    target: str = "",
) -> Response:
    base = _base(game, token)
    if request.headers.get("hx-request"):
        ctx = {
            "base": base,
            "outcomes": outcomes or [],
            "verdicts": verdicts,
            "receipt": ops.orders.receipt(site, actor, game, None, verdicts, sent=True) if verdicts else None,
            "sent": True,
            "text": text,
            "key": secrets.token_hex(8),
        } | _map_ctx(site, actor, game)
        ctx |= _common(site, actor, game, token)
        return page(request, "_after_post.html", ctx)
    for o in outcomes or []:
        flash(
            request,
            f"{o.result}: {o.explanation}" + (f" [{o.rule}]" if o.rule else ""),
            "ok" if o.result in ("accepted", "pending", "done") else "error",
        )
    for v in verdicts or []:
        flash(
            request,
            f"line {v.line}: {v.result}: {v.explanation}" + (f" [{v.rule}]" if v.rule else ""),
            "ok" if v.ok else "error",
        )
    return RedirectResponse(base + target, status_code=303)


@router.post("/order")
def post_order(
    request: Request,
    game: str,
    token: str,
    site: SiteDep,
    actor: PlayerActor,
    unit: Text,
    action: Text,
    to: OptText = None,
    target: OptText = None,
    key: OptText = None,
) -> Response:
    body = s.MapOrderIn.model_validate(
        {"unit": unit, "action": action, "to": to or None, "target": target or None}
    )
    out = ops.orders.map_order(site, actor, game, body, key)
    return _after_post(request, site, actor, game, token, outcomes=[out])


@router.post("/check")
def check_text(
    request: Request, game: str, token: str, site: SiteDep, actor: PlayerActor, text: Text
) -> Response:
    verdicts = ops.orders.check_text(site, actor, game, s.TextOrdersIn(text=text, by=None))
    base = _base(game, token)
    ctx = {"base": base, "verdicts": verdicts, "sent": False, "text": text, "key": secrets.token_hex(8)}
    ctx["receipt"] = ops.orders.receipt(site, actor, game, None, verdicts, sent=False) if verdicts else None
    if request.headers.get("hx-request"):
        return page(request, "_verdicts.html", ctx)
    full = (
        _common(site, actor, game, token)
        | _map_ctx(site, actor, game)
        | _panel_ctx(site, actor, game, base, None, None)
    )
    return page(request, "play.html", full | ctx)


@router.post("/send")
def send_text(
    request: Request,
    game: str,
    token: str,
    site: SiteDep,
    actor: PlayerActor,
    text: Text,
    key: OptText = None,
) -> Response:
    verdicts = ops.orders.send_text(site, actor, game, s.TextOrdersIn(text=text, by=None), key)
    return _after_post(request, site, actor, game, token, verdicts=verdicts, text=text)


@router.get("/inbox")
def inbox(request: Request, game: str, token: str, site: SiteDep, actor: PlayerActor) -> Response:
    ctx = _common(site, actor, game, token)
    items = ops.inbox.pending(site, actor, game)
    messages = ops.inbox.messages(site, actor, game, items)
    ctx |= {
        "items": items,
        "messages": {k: render_html(v, shift=2) for k, v in messages.items()},
        "deadlines": ops.inbox.deadlines(site, actor, game),
        "key": secrets.token_hex(8),
        "styles": site.styles(game),
    } | _full_ctx(site, actor, game)
    ctx["ransom_forms"] = ops.full.ransom_choices(site, actor, game) if ctx["full"] else []
    return page(request, "inbox.html", ctx)


def _to_inbox(request: Request, game: str, token: str, out: s.OutcomeOut) -> Response:
    flash(
        request,
        f"{out.result}: {out.explanation}" + (f" [{out.rule}]" if out.rule else ""),
        "ok" if out.result in ("accepted", "pending", "done") else "error",
    )
    return RedirectResponse(_base(game, token) + "/inbox", status_code=303)


@router.post("/port")
def port(
    request: Request,
    game: str,
    token: str,
    site: SiteDep,
    actor: PlayerActor,
    ship: Text,
    port: Text,
    key: OptText = None,
) -> Response:
    """One click per port a storm may drive the player's ship into."""
    out = ops.captives.choose_port(
        site, actor, game, sf.PortIn.model_validate({"ship": ship, "port": port}), key
    )
    return _to_inbox(request, game, token, out)


Many = Annotated[list[str], Form()]


@router.post("/ransom")
def ransom(
    request: Request,
    game: str,
    token: str,
    site: SiteDep,
    actor: PlayerActor,
    captive: Text,
    give: Many = [],  # noqa: B006 (FastAPI copies a form field's default)
    take: Many = [],  # noqa: B006
    give_heirs: Many = [],  # noqa: B006
    take_heirs: Many = [],  # noqa: B006
    note: OptText = None,
    key: OptText = None,
) -> Response:
    body = sf.RansomIn.model_validate(
        {
            "captive": captive,
            "give": give,
            "take": take,
            "give_heirs": give_heirs,
            "take_heirs": take_heirs,
            "note": note or "",
        }
    )
    return _to_inbox(request, game, token, ops.captives.offer_ransom(site, actor, game, body, key))


@router.post("/captive")
def captive(
    request: Request,
    game: str,
    token: str,
    site: SiteDep,
    actor: PlayerActor,
    captive: Text,
    action: Text,
    key: OptText = None,
) -> Response:
    """Free a captive for nothing, or execute him."""
    body = sf.CaptiveIn.model_validate({"captive": captive, "action": action})
    return _to_inbox(request, game, token, ops.captives.captive_step(site, actor, game, body, key))


@router.post("/answer")
def answer(
    request: Request,
    game: str,
    token: str,
    site: SiteDep,
    actor: PlayerActor,
    id: Text,
    kind: Text,
    accept: Text,
    key: OptText = None,
) -> Response:
    body = s.AnswerIn.model_validate({"id": id, "kind": kind, "accept": accept in ("yes", "true", "1")})
    return _to_inbox(request, game, token, ops.inbox.answer(site, actor, game, body, key))


@router.post("/finish")
def finish(
    request: Request, game: str, token: str, site: SiteDep, actor: PlayerActor, key: OptText = None
) -> Response:
    out = ops.orders.finish_turn(site, actor, game, key)
    flash(request, out.explanation, "ok")
    return RedirectResponse(_base(game, token), status_code=303)


@router.get("/position")
def position(request: Request, game: str, token: str, site: SiteDep, actor: PlayerActor) -> Response:
    ctx = _common(site, actor, game, token)
    rctx = reports_for(site.svc, game)
    v = ops.positions.position(site, actor, game)
    ctx["doc"] = render_html(Document(tuple(position_doc(v, rctx.names, level=1))))
    return page(request, "position.html", ctx)


@router.get("/log")
def log(request: Request, game: str, token: str, site: SiteDep, actor: PlayerActor) -> Response:
    ctx = _common(site, actor, game, token)
    ctx["entries"] = list(reversed(ops.reports.log(site, actor, game)))
    return page(request, "log.html", ctx)


@router.get("/reports")
def reports(
    request: Request,
    game: str,
    token: str,
    site: SiteDep,
    actor: PlayerActor,
    round: Annotated[int | None, Query(ge=1)] = None,
    turn: Annotated[str | None, Query()] = None,
    digest: Annotated[bool, Query(description="the round's digest instead of one turn's reports")] = False,
) -> Response:
    ctx = _common(site, actor, game, token)
    rctx = reports_for(site.svc, game)
    if not rctx.timeline.turns():
        ctx |= {"turns": [], "current": None, "turn_html": None, "private_html": None}
        return page(request, "reports.html", ctx)
    ctx |= {"turns": rctx.timeline.turns(), "rounds": rounds(rctx), "styles": site.styles(game)}
    if digest:
        rnd = ops.reports.round_of(rctx, round)
        doc = ops.reports.digest_doc(rctx, rnd, actor.faction or "")
        ctx |= {"current": None, "digest_round": rnd, "turn_html": render_html(doc), "private_html": None}
        return page(request, "reports.html", ctx)
    t = ops.reports.turn_of(rctx, round, turn)
    docs = ops.reports.report_docs(rctx, t, actor.faction or "")
    ctx |= {
        "current": t,
        "turn_html": render_html(docs.turn),
        "private_html": render_html(docs.private) if docs.private else None,
    }
    return page(request, "reports.html", ctx)


@router.get("/map.svg")
def map_svg(game: str, site: SiteDep, actor: PlayerActor) -> Response:
    return Response(
        svg(ops.positions.map_model(site, actor, game, selectable=False)), media_type="image/svg+xml"
    )


@router.get("/map.png")
def map_png(game: str, site: SiteDep, actor: PlayerActor) -> Response:
    """The map as this player may see it now, drawn for posting (1600 pixels wide)."""
    return Response(ops.positions.forum_png(site, actor, game), media_type="image/png")

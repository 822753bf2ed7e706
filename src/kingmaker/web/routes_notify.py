"""The GM console's notifications page (``docs/notifications.md``): each seat's e-mail
address, the game's webhook and reminders, the outbox with each message's status,
attempts and last error, a button to send now, and retrying a failed row.

Addresses are shown to the GM only (this router needs a GM session); the webhook's URL
and secret are never shown again once set (its host is), except a secret the server
made, on the page that answers the form, once."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import RedirectResponse, Response

from kingmaker.notify import SmtpConfigError, SmtpSettings, admin, run_once
from kingmaker.render.reports import FORMATS
from kingmaker.service import GM_ACTOR, BadRequest
from kingmaker.storage.outbox import OutboxStore

from . import ops
from .auth import GmActor, SiteDep
from .csrf import csrf_guard
from .ops import Site
from .templating import flash, page

router = APIRouter(prefix="/gm", dependencies=[Depends(csrf_guard)], include_in_schema=False)

Text = Annotated[str, Form()]
OptText = Annotated[str | None, Form()]


def _box(site: Site) -> OutboxStore:
    return OutboxStore.of(site.svc.store)


def _back(game: str) -> RedirectResponse:
    return RedirectResponse(f"/gm/games/{quote(game)}/notify", status_code=303)


def _at(t: float | None) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M UTC") if t else ""


def _ctx(site: Site, game: str) -> dict[str, Any]:
    box = _box(site)
    st = ops.games.status(site, GM_ACTOR, game)
    contacts = admin.contacts(site.svc, box, GM_ACTOR, game)
    try:
        smtp = SmtpSettings.from_env(os.environ)
        smtp_note = f"e-mail goes through {smtp.host}:{smtp.port}" if smtp else "no SMTP server is set"
    except SmtpConfigError as e:
        smtp_note = f"the SMTP settings are not usable: {e}"
    rows = admin.outbox(site.svc, box, GM_ACTOR, game)
    return {
        "gm": True,
        "game": st.game,
        "styles": site.styles(game),
        "seated": {x.faction: x.player for x in st.seats},
        "contacts": contacts,
        "formats": FORMATS,
        "smtp_note": smtp_note,
        "counts": box.counts(game),
        "rows": rows,
        "at": _at,
    }


@router.get("/games/{game}/notify")
def notify_page(request: Request, game: str, site: SiteDep, actor: GmActor) -> Response:
    return page(request, "gm_notify.html", _ctx(site, game))


@router.post("/games/{game}/notify/email")
def set_email(
    request: Request, game: str, site: SiteDep, actor: GmActor, faction: Text, email: OptText = None
) -> Response:
    kept = admin.set_email(site.svc, actor, game, faction, email)
    name = site.styles(game).name(faction)
    flash(request, f"{name} is told at {kept}" if kept else f"{name} has no e-mail address", "ok")
    return _back(game)


@router.post("/games/{game}/notify/webhook")
def set_webhook(
    request: Request,
    game: str,
    site: SiteDep,
    actor: GmActor,
    url: OptText = None,
    secret: OptText = None,
    format: Annotated[str, Form()] = "markdown",
) -> Response:
    url = (url or "").strip() or None
    given = (secret or "").strip() or None
    key = admin.set_webhook(site.svc, _box(site), actor, game, url, given, format)
    if url is None:
        flash(request, "webhook removed", "ok")
        return _back(game)
    if given:
        flash(request, "webhook set: each turn's public report is posted from now on", "ok")
        return _back(game)
    return page(request, "gm_notify.html", _ctx(site, game) | {"new_secret": key})


@router.post("/games/{game}/notify/remind")
def set_remind(request: Request, game: str, site: SiteDep, actor: GmActor, hours: Text) -> Response:
    try:
        value = float(hours.strip())
    except ValueError:
        raise BadRequest(f"{hours.strip()[:20]!r} is not a number of hours") from None
    admin.set_remind_hours(site.svc, _box(site), actor, game, value)
    flash(request, f"reminders {value:g} hours before a deadline" if value else "no reminders", "ok")
    return _back(game)


@router.post("/games/{game}/notify/send")
def send_now(request: Request, game: str, site: SiteDep, actor: GmActor) -> Response:
    """Queue and send what is due now (every game's: the outbox is one)."""
    try:
        smtp = SmtpSettings.from_env(os.environ)
    except SmtpConfigError as e:
        raise BadRequest(str(e)) from None
    added, done = run_once(site.svc, _box(site), smtp)
    flash(
        request,
        f"{added} queued; {len(done.sent)} sent, {len(done.retrying)} to try again, {len(done.failed)} failed",
        "error" if done.failed else "ok",
    )
    return _back(game)


@router.post("/games/{game}/notify/retry")
def retry(request: Request, game: str, site: SiteDep, actor: GmActor, row: Text) -> Response:
    if not row.strip().isdigit():
        raise BadRequest("give the row's number")
    admin.retry(site.svc, _box(site), actor, game, int(row))
    flash(request, f"row {int(row)} is queued again", "ok")
    return _back(game)

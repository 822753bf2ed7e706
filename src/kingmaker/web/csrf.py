"""CSRF protection for the pages' forms: a random token sent back with every POST as the
``csrf_token`` form field or the ``X-CSRF-Token`` header (htmx sends the header). The
GM's token belongs to the GM's session on the server (it changes at each login and
dies at logout); before a login, and on a player's pages, it is kept in the browser's
signed session cookie. The JSON API, authenticated by a bearer token that a browser
never sends on its own, needs none."""

from __future__ import annotations

import hmac
import secrets

from fastapi import Request
from starlette.concurrency import run_in_threadpool

from kingmaker.service import ServiceError

from .sessions import GmSessions

SESSION_KEY = "csrf"
FIELD = "csrf_token"
HEADER = "x-csrf-token"


class CsrfRefused(ServiceError):
    code = "csrf"


def csrf_token(request: Request) -> str:
    """The GM session's token, or the browser session's (made on first use)."""
    gm = _sessions(request).find(request)
    if gm is not None:
        return gm.csrf
    token = request.session.get(SESSION_KEY)
    if not isinstance(token, str) or len(token) < 20:
        token = secrets.token_urlsafe(32)
        request.session[SESSION_KEY] = token
    return token


async def csrf_guard(request: Request) -> None:
    """Refuse a state-changing request whose CSRF token is missing or wrong."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    sessions = _sessions(request)
    gm = await run_in_threadpool(sessions.find, request) if sessions.has_cookie(request) else None
    expected = gm.csrf if gm is not None else request.session.get(SESSION_KEY)
    sent = request.headers.get(HEADER)
    if not sent:
        ctype = request.headers.get("content-type", "")
        if ctype.startswith(("application/x-www-form-urlencoded", "multipart/form-data")):
            form = await request.form()
            value = form.get(FIELD)
            sent = value if isinstance(value, str) else None
    if not isinstance(expected, str) or not sent or not hmac.compare_digest(expected, sent):
        raise CsrfRefused(
            "this form has expired or did not come from this site: reload the page and try again"
        )


def _sessions(request: Request) -> GmSessions:
    sessions: GmSessions = request.app.state.gm_sessions
    return sessions

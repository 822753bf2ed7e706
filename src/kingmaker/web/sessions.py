"""GM sessions, kept on the server (``web_sessions``): the browser's cookie holds only a
random id (32 bytes); the database keeps its SHA-256, the session's CSRF token, and
when it began and was last used. A login starts a new session (ending the one the
browser had), logout deletes it, and a session ends 12 hours after its last use or 7
days after the login, whichever comes first. A new GM password ends them all.

The cookie is ``HttpOnly`` and ``SameSite=Lax``; with ``--https`` it is also ``Secure``
and named ``__Host-kingmaker_gm`` (the browser then refuses it over plain HTTP and from
any other host).
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from fastapi import Request
from fastapi.responses import Response

from kingmaker.storage.websec import SessionRow, WebSecurityStore

from .password import GM_ACCOUNT

COOKIE = "kingmaker_gm"
SECURE_COOKIE = "__Host-kingmaker_gm"
LIFETIME = 7 * 86400.0
IDLE = 12 * 3600.0
TOUCH_EVERY = 300.0  # seconds between two records of a session's use


@dataclass(frozen=True)
class GmSession:
    id_hash: str
    csrf: str


def _hash(session_id: str) -> str:
    return hashlib.sha256(session_id.encode("utf-8")).hexdigest()


class GmSessions:
    def __init__(
        self,
        db: WebSecurityStore,
        *,
        https: bool = False,
        lifetime: float = LIFETIME,
        idle: float = IDLE,
        clock: Callable[[], float] = time.time,
    ):
        self.db, self.https, self.lifetime, self.idle, self.clock = db, https, lifetime, idle, clock
        self.cookie = SECURE_COOKIE if https else COOKIE

    def start(self, request: Request, response: Response) -> GmSession:
        """A new session for the GM who just logged in on this browser (its old one ends);
        the cookie is set on ``response``."""
        self.end(request, None)
        now = self.clock()
        self.db.purge_sessions(now, now - self.idle)
        session_id = secrets.token_urlsafe(32)
        row = SessionRow(_hash(session_id), GM_ACCOUNT, secrets.token_urlsafe(32), now, now, now + self.lifetime)
        self.db.add_session(row)
        response.set_cookie(
            self.cookie,
            session_id,
            max_age=int(self.lifetime),
            path="/",
            secure=self.https,
            httponly=True,
            samesite="lax",
        )
        session = GmSession(row.id_hash, row.csrf)
        request.state.gm_session = session
        return session

    def find(self, request: Request) -> GmSession | None:
        """This browser's GM session, if it has a live one (looked up once per request)."""
        cached: GmSession | bool | None = getattr(request.state, "gm_session", False)
        if cached is None or isinstance(cached, GmSession):
            return cached
        session = self._lookup(request.cookies.get(self.cookie))
        request.state.gm_session = session
        return session

    def has_cookie(self, request: Request) -> bool:
        return self.cookie in request.cookies

    def _lookup(self, session_id: str | None) -> GmSession | None:
        if not session_id or len(session_id) > 100:
            return None
        row = self.db.session(_hash(session_id))
        now = self.clock()
        if row is None or row.account != GM_ACCOUNT:
            return None
        if row.expires_at <= now or row.seen_at <= now - self.idle:
            self.db.end_session(row.id_hash)
            return None
        if now - row.seen_at >= TOUCH_EVERY:
            self.db.touch_session(row.id_hash, now)
        return GmSession(row.id_hash, row.csrf)

    def end(self, request: Request, response: Response | None) -> None:
        """End this browser's session (if any) and, on ``response``, delete its cookie."""
        session_id = request.cookies.get(self.cookie)
        if session_id and len(session_id) <= 100:
            self.db.end_session(_hash(session_id))
        request.state.gm_session = None
        if response is not None:
            response.delete_cookie(self.cookie, path="/", secure=self.https, httponly=True, samesite="lax")

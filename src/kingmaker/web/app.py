"""The web app: ``create_app(store_url, gm_password=..., clock=...)`` and ``serve``.

Pages are rendered on the server (Jinja2) and enhanced with htmx (shipped in
``static/``; no CDN); the rules stay on the server: the page asks it where a unit may
go. The JSON API under ``/api`` does everything the pages do; ``/api/docs`` and
``/api/openapi.json`` describe it.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import MutableHeaders
from starlette.middleware.sessions import SessionMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kingmaker.orders_text.parse import parser
from kingmaker.service.clock import Clock
from kingmaker.service.game_service import GameService
from kingmaker.storage import open_store

from . import errors, routes_api, routes_gm, routes_play
from .auth import is_gm_session
from .ops import Site
from .templating import make_templates, page
from .throttle import LoginThrottle

SESSION_COOKIE = "kingmaker_session"


def create_app(
    store_url: str,
    *,
    gm_password: str | None = None,
    clock: Clock | None = None,
    session_secret: str | None = None,
    https_only: bool = False,
    login_throttle: LoginThrottle | None = None,
) -> FastAPI:
    """The web app over the games in ``store_url`` (``sqlite:///file`` or
    ``postgresql://...``). ``gm_password``: the GM's password (None: no GM login).
    ``session_secret`` signs the session cookies (default: ``KINGMAKER_SESSION_SECRET``
    or a random secret, so sessions end when the server restarts). ``login_throttle``
    limits failed GM logins per client (default: 5 in 10 minutes)."""
    store = open_store(store_url)
    svc = GameService(store, clock)
    parser()  # build the text-order parser now, not in the first requests' threads

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        store.close()

    app = FastAPI(
        lifespan=lifespan,
        title="Kingmaker GM",
        summary="A game-master engine for Kingmaker played by forum",
        version="0.1.0",
        docs_url="/api/docs",
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.state.site = Site(svc, gm_password or None)
    app.state.templates = make_templates()
    app.state.gm_throttle = login_throttle or LoginThrottle()
    secret = session_secret or os.environ.get("KINGMAKER_SESSION_SECRET") or secrets.token_urlsafe(32)
    app.add_middleware(
        SessionMiddleware,
        secret_key=secret,
        session_cookie=SESSION_COOKIE,
        same_site="lax",
        https_only=https_only,
        max_age=14 * 24 * 3600,
    )

    app.add_middleware(SecurityHeaders)

    app.mount("/static", StaticFiles(packages=[("kingmaker.web", "static")]), name="static")
    errors.install(app)
    app.include_router(routes_api.router)
    app.include_router(routes_gm.router)
    app.include_router(routes_play.router)

    @app.get("/", include_in_schema=False)
    def home(request: Request) -> Response:
        if is_gm_session(request):
            return RedirectResponse("/gm", status_code=303)
        return page(request, "home.html", {"gm_enabled": bool(gm_password)})

    @app.get("/healthz", include_in_schema=False)
    def health() -> dict[str, str]:
        return {"status": "ok"}

    return app


def serve(
    store_url: str,
    host: str = "127.0.0.1",
    port: int = 8000,
    gm_password: str | None = None,
    log_level: str = "info",
    **options: Any,
) -> None:
    """Run the web app with uvicorn until interrupted (``options`` go to ``create_app``)."""
    import uvicorn

    app = create_app(store_url, gm_password=gm_password, **options)
    uvicorn.run(app, host=host, port=port, proxy_headers=True, log_level=log_level)


_SECURITY_HEADERS = (
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),  # private links stay private
    ("x-frame-options", "DENY"),
)


class SecurityHeaders:
    """Adds the security headers to every HTTP answer (and ``Cache-Control: no-store``
    to a player's pages). Plain ASGI: cheaper than ``@app.middleware("http")``, which
    runs each request through an extra task and body stream."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        private = str(scope.get("path", "")).startswith("/play/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in _SECURITY_HEADERS:
                    headers.setdefault(name, value)
                if private:
                    headers.setdefault("cache-control", "no-store")
            await send(message)

        await self.app(scope, receive, send_with_headers)

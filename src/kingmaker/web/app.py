"""The web app: ``create_app(store_url, gm_password=..., settings=...)`` and ``serve``.

Pages are rendered on the server (Jinja2) and enhanced with htmx (shipped in
``static/``; no CDN); the rules stay on the server: the page asks it where a unit may
go. The JSON API under ``/api`` does everything the pages do; ``/api/docs`` (Swagger UI,
shipped in ``static/swagger/``) and ``/api/openapi.json`` describe it.
"""

from __future__ import annotations

import gc
import os
import secrets
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.datastructures import MutableHeaders
from starlette.middleware.sessions import SessionMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kingmaker.orders_text.syntax import parser
from kingmaker.service.clock import Clock
from kingmaker.service.game_service import GameService
from kingmaker.storage import open_store
from kingmaker.storage.websec import WebSecurityStore

from . import (
    accesslog,
    errors,
    routes_api,
    routes_api_end,
    routes_api_full,
    routes_gm,
    routes_gm_end,
    routes_parliament,
    routes_play,
)
from .auth import is_gm_session
from .limits import BodyLimit
from .ops import Site
from .password import GmCredential
from .ratelimit import TokenRateLimit
from .sessions import GmSessions
from .settings import WebSettings
from .templating import make_templates, page
from .throttle import LoginThrottle

SESSION_COOKIE = "kingmaker_session"


def create_app(
    store_url: str,
    *,
    gm_password: str | None = None,
    clock: Clock | None = None,
    settings: WebSettings | None = None,
    session_secret: str | None = None,
    security_clock: Callable[[], float] = time.time,
) -> FastAPI:
    """The web app over the games in ``store_url`` (``sqlite:///file`` or
    ``postgresql://...``). ``gm_password``: the GM's password (None: no GM login); only
    its scrypt hash is kept. ``settings``: HTTPS, the base URL of links, trusted proxies,
    the data root, the players' rate limit. ``session_secret`` signs the browser session
    cookie that holds flash messages and, before a GM login or on players' pages, the
    CSRF token (default: ``KINGMAKER_SESSION_SECRET`` or a random secret).
    ``security_clock``: the time for login throttling, rate limits and GM sessions."""
    settings = settings or WebSettings()
    store = open_store(store_url)
    svc = GameService(store, clock)
    db = WebSecurityStore.of(store)
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
        docs_url=None,
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.state.settings = settings
    app.state.site = Site(svc, data_root=settings.data_root)
    app.state.websec = db
    app.state.templates = make_templates()
    app.state.gm_credential = GmCredential.start(db, gm_password, security_clock) if gm_password else None
    app.state.gm_sessions = GmSessions(db, https=settings.https, clock=security_clock)
    app.state.gm_throttle = LoginThrottle(db, clock=security_clock)
    app.state.player_rate = TokenRateLimit(db, settings.player_requests_per_minute, clock=security_clock)
    secret = session_secret or os.environ.get("KINGMAKER_SESSION_SECRET") or secrets.token_urlsafe(32)
    app.add_middleware(
        SessionMiddleware,
        secret_key=secret,
        session_cookie=SESSION_COOKIE,
        same_site="lax",
        https_only=settings.https,
        max_age=14 * 24 * 3600,
    )

    app.add_middleware(BodyLimit)  # inside the security headers: a 413 carries them too
    app.add_middleware(SecurityHeaders, https=settings.https)

    app.mount("/static", StaticFiles(packages=[("kingmaker.web", "static")]), name="static")
    errors.install(app)
    accesslog.install()
    from .routes_notify import router as notify_router  # the GM's notifications page

    # The API's routes first: FastAPI tries the routes in order, and nearly every
    # request is the API's (a page's path matches none of the API's).
    app.include_router(routes_api.router)
    app.include_router(routes_api_full.router)
    app.include_router(routes_api_end.router)
    app.include_router(notify_router)
    app.include_router(routes_gm.router)
    app.include_router(routes_gm_end.router)
    app.include_router(routes_play.router)
    app.include_router(routes_parliament.router)

    @app.get("/", include_in_schema=False)
    def home(request: Request) -> Response:
        if is_gm_session(request):
            return RedirectResponse("/gm", status_code=303)
        return page(request, "home.html", {"gm_enabled": app.state.gm_credential is not None})

    @app.get("/api/docs", include_in_schema=False)
    def api_docs(request: Request) -> Response:
        """Swagger UI from the package (no CDN), started by a static script (the CSP
        allows no inline script)."""
        templates: Jinja2Templates = app.state.templates
        return templates.TemplateResponse(request, "api_docs.html", {"openapi_url": app.openapi_url})

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
    settings: WebSettings | None = None,
    **options: Any,
) -> None:
    """Build the web app (``options`` go to ``create_app``) and ``run`` it."""
    settings = settings or WebSettings()
    app = create_app(store_url, gm_password=gm_password, settings=settings, **options)
    del gm_password  # only the hash is kept
    run(app, host, port, settings, log_level)


def run(app: FastAPI, host: str, port: int, settings: WebSettings, log_level: str = "info") -> None:
    """Run ``app`` with uvicorn until interrupted. ``X-Forwarded-For`` and
    ``X-Forwarded-Proto`` are believed only from ``settings.trusted_proxies``; the logs
    never show a private link's token."""
    import uvicorn

    # What the app holds from its start (the text-order grammar, the data sets, the
    # framework's routes and models: some 170,000 objects) lives as long as the process:
    # moved out of the collector's sight, a full collection walks only what came after
    # (~100 ms -> a few ms: the pause every request in flight would wait through).
    gc.collect()
    gc.freeze()
    trusted = settings.trusted_proxies
    uvicorn.run(
        app,
        host=host,
        port=port,
        proxy_headers=bool(trusted),
        forwarded_allow_ips=list(trusted) if trusted else None,
        log_level=log_level,
        log_config=accesslog.log_config(),
    )


#: Scripts, styles, images and requests from this site only; no inline script, no
#: plugin, no framing. Inline ``style`` attributes are allowed (faction colours in
#: chips and reports; their values are checked colours), inline ``<style>`` is not.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline';"
    " img-src 'self' data:; font-src 'self'; connect-src 'self'; form-action 'self';"
    " frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
)
HSTS = "max-age=31536000"

_SECURITY_HEADERS = (
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),  # private links stay private
    ("x-frame-options", "DENY"),
)


class SecurityHeaders:
    """Adds the security headers to every HTTP answer: the CSP, ``nosniff``, no framing,
    no referrer; ``Cache-Control: no-store`` on everything but the static files (pages,
    fragments and API answers may be private); HSTS with ``--https``. Plain ASGI:
    cheaper than ``@app.middleware("http")``, which runs each request through an extra
    task and body stream."""

    def __init__(self, app: ASGIApp, https: bool = False) -> None:
        self.app = app
        self.headers = [*_SECURITY_HEADERS, ("content-security-policy", CSP)]
        if https:
            self.headers.append(("strict-transport-security", HSTS))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        private = not str(scope.get("path", "")).startswith("/static/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in self.headers:
                    headers.setdefault(name, value)
                if private:
                    headers["cache-control"] = "no-store"
            await send(message)

        await self.app(scope, receive, send_with_headers)

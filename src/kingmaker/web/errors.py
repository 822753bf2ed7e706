"""Errors as users read them: JSON ``{"error": code, "message": ...}`` for the API, a
plain page (or, for htmx, a small alert) for the pages; never a traceback."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any
from urllib.parse import quote

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from kingmaker.service import BadRequest, Conflict, NotFound, PermissionDenied, ServiceError
from kingmaker.storage import StoreError, UnknownGame

from . import schemas
from .accesslog import redact_path
from .auth import LoginRequired, Unauthorized, unchecked
from .csrf import CsrfRefused
from .ratelimit import TooManyRequests
from .throttle import TooManyAttempts

log = logging.getLogger("kingmaker.web")

STATUS: dict[type[ServiceError], int] = {
    BadRequest: 400,
    NotFound: 404,
    PermissionDenied: 403,
    Conflict: 409,
    Unauthorized: 401,
    CsrfRefused: 403,
}
_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "not_allowed",
    409: "conflict",
    422: "invalid",
    429: "too_many_attempts",
    500: "internal",
    503: "unavailable",
}


def status_of(error: ServiceError) -> int:
    for cls in type(error).__mro__:
        if cls in STATUS:
            return STATUS[cls]
    return 400


def is_api(request: Request) -> bool:
    return request.url.path.startswith("/api/") or request.url.path == "/api"


def error_response(request: Request, status: int, code: str, message: str) -> Response:
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    if is_api(request):
        return JSONResponse({"error": code, "message": message}, status_code=status, headers=headers)
    templates: Jinja2Templates = request.app.state.templates
    ctx: dict[str, Any] = {"status": status, "code": code, "message": message}
    if request.headers.get("hx-request"):
        # htmx shows the alert in the page's error region, leaving the panel it targeted
        hx = {"HX-Retarget": "#htmx-errors", "HX-Reswap": "innerHTML", **(headers or {})}
        return templates.TemplateResponse(request, "_error.html", ctx, status_code=status, headers=hx)
    return templates.TemplateResponse(request, "error.html", ctx, status_code=status, headers=headers)


_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def allowed_methods(request: Request) -> str:
    """The methods some route takes at this path (a 405's ``Allow``: the route that
    refused lists only its own, but each method of a path may be a route of its own)."""
    base = {k: v for k, v in request.scope.items() if k not in ("fastapi", "route", "endpoint")}
    allowed = [
        m
        for m in _METHODS
        if any(r.matches({**base, "method": m})[0] is Match.FULL for r in request.app.router.routes)
    ]
    return ", ".join(allowed)


def problems(errors: Sequence[Any]) -> str:
    """What is wrong with a request's fields, and where (the first five problems)."""
    out = []
    for e in errors[:5]:
        loc = tuple(e.get("loc", ()))
        if e.get("type") == "json_invalid":
            where = f" at character {loc[-1]}" if loc else ""
            out.append(f"the body is not valid JSON{where}: {e.get('ctx', {}).get('error', 'cannot be read')}")
            continue
        where = ".".join(str(x) for x in loc if x not in ("body", "query", "path", "form", "header"))
        out.append(f"{where or (loc[0] if loc else 'request')}: {e.get('msg', 'invalid')}")
    return "; ".join(out) or "the request is not valid"


async def _handled(request: Request, exc: Exception) -> Response:
    """The answer the app's handler for ``exc`` gives (the most specific one)."""
    for kind in type(exc).__mro__:
        handler = request.app.exception_handlers.get(kind)
        if handler is not None:
            answer: Response = await handler(request, exc)
            return answer
    raise exc


def install(app: FastAPI) -> None:
    @app.exception_handler(ServiceError)
    async def service_error(request: Request, exc: ServiceError) -> Response:
        return error_response(request, status_of(exc), exc.code, str(exc))

    @app.exception_handler(TooManyAttempts)
    @app.exception_handler(TooManyRequests)
    async def too_many(request: Request, exc: TooManyAttempts | TooManyRequests) -> Response:
        response = error_response(request, 429, exc.code, str(exc))
        response.headers["Retry-After"] = str(exc.retry_after)
        return response

    @app.exception_handler(LoginRequired)
    async def login_required(request: Request, exc: LoginRequired) -> Response:
        if request.headers.get("hx-request"):
            return Response(status_code=200, headers={"HX-Redirect": "/gm/login"})
        return RedirectResponse(f"/gm/login?next={quote(exc.next_url)}", status_code=303)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        code = _CODES.get(exc.status_code, "error")
        message = exc.detail if isinstance(exc.detail, str) else code.replace("_", " ")
        headers = dict(exc.headers or {})
        allow = allowed_methods(request) if exc.status_code == 405 else ""
        if allow:
            headers["Allow"] = allow
            message = f"{request.method} is not allowed here; use {allow}"
        response = error_response(request, exc.status_code, code, message)
        for name, value in headers.items():
            response.headers.setdefault(name, value)
        return response

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> Response:
        credentials = unchecked(request)
        if credentials is not None:  # checked before any word on the fields (auth.Credentials)
            try:
                await run_in_threadpool(credentials.actor)
            except Exception as refused:
                return await _handled(request, refused)
        return error_response(request, 422, "invalid", problems(exc.errors()))

    @app.exception_handler(ValidationError)
    async def invalid_input(request: Request, exc: ValidationError) -> Response:
        # a request body a page built from its form (the API's come as RequestValidationError);
        # any other model that fails to validate is the server's fault
        model = getattr(schemas, exc.title, None)
        if isinstance(model, type) and issubclass(model, schemas.Input):
            return error_response(request, 422, "invalid", problems(exc.errors()))
        return await internal(request, exc)

    @app.exception_handler(UnknownGame)
    async def unknown_game(request: Request, exc: UnknownGame) -> Response:
        return error_response(request, 404, "not_found", "there is no such game")

    @app.exception_handler(StoreError)
    async def store_error(request: Request, exc: StoreError) -> Response:
        log.error("store error: %s", exc)
        return error_response(request, 503, "unavailable", "the game store cannot be reached; try again")

    @app.exception_handler(Exception)
    async def internal(request: Request, exc: Exception) -> Response:
        log.exception("internal error on %s %s", request.method, redact_path(request.url.path))
        return error_response(request, 500, "internal", "something went wrong on the server")

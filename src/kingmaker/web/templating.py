"""Jinja2 templates (shipped in the package) and what every page needs: the CSRF
token, flash messages, times in UTC with the reader's local time beside them."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.templating import Jinja2Templates
from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup
from starlette.responses import Response

from .csrf import FIELD, csrf_token


def utc_time(iso: str | None) -> Markup:
    """A ``<time>`` element showing a UTC time; the page's script adds local time."""
    if not iso:
        return Markup("<span>no deadline</span>")
    shown = iso.replace("T", " ").replace("Z", "").replace("+00:00", "")[:16] + " UTC"
    return Markup('<time class="utc" datetime="{}">{}</time>').format(iso, shown)


def make_templates() -> Jinja2Templates:
    env = Environment(
        loader=PackageLoader("kingmaker.web", "templates"),
        autoescape=select_autoescape(["html", "svg"], default_for_string=True, default=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["utc"] = utc_time
    env.globals["csrf_field_name"] = FIELD
    return Jinja2Templates(env=env)


def flash(request: Request, text: str, kind: str = "info") -> None:
    notes = list(request.session.get("flash", []))[-4:]
    notes.append({"kind": kind, "text": text[:2000]})
    request.session["flash"] = notes


def page(request: Request, name: str, ctx: dict[str, Any], status_code: int = 200) -> Response:
    """Render a page (or fragment) with the session's CSRF token and flash messages."""
    templates: Jinja2Templates = request.app.state.templates
    full = {
        "csrf": csrf_token(request),
        "flashes": request.session.pop("flash", []) if not name.startswith("_") else [],
        "htmx": bool(request.headers.get("hx-request")),
        **ctx,
    }
    return templates.TemplateResponse(request, name, full, status_code=status_code)

"""The web app: server-rendered pages (FastAPI, Jinja2, htmx) and a JSON API over the
GM service. ``create_app(store_url, gm_password=...)`` builds it; ``serve(...)`` runs it."""

from .app import create_app, serve

__all__ = ["create_app", "serve"]

"""``kingmaker serve``: the web app (map, orders, inboxes, the GM console, the JSON API)."""

from __future__ import annotations

import os

import typer

from .store_option import DEFAULT_DB, DbOption


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve_cmd(
        host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on."),
        port: int = typer.Option(8000, "--port", help="Port to listen on."),
        gm_password: str | None = typer.Option(
            None,
            "--gm-password",
            envvar="KINGMAKER_GM_PASSWORD",
            help="The GM's password (also KINGMAKER_GM_PASSWORD).",
        ),
        db: str | None = DbOption,
        https: bool = typer.Option(
            False,
            "--https/--no-https",
            envvar="KINGMAKER_HTTPS",
            help="The server is reached over HTTPS (through a proxy): Secure cookies, and HSTS.",
        ),
        trusted_proxies: str | None = typer.Option(
            None,
            "--trusted-proxies",
            envvar="KINGMAKER_TRUSTED_PROXIES",
            help="Comma-separated addresses or networks of the reverse proxies whose"
            " X-Forwarded-For / X-Forwarded-Proto are believed (default: none; the client"
            " is the TCP peer). Login throttling counts per client address.",
        ),
        player_rate: int = typer.Option(
            300,
            "--player-requests-per-minute",
            envvar="KINGMAKER_PLAYER_RATE",
            min=1,
            help="Requests each player token may make per minute (across all server"
            " processes on the same database); past it, 429 with Retry-After.",
        ),
    ) -> None:
        """Serve the web app: the map, orders, the players' inboxes and the GM console
        at /gm; the JSON API under /api (OpenAPI at /api/docs).

        Example: kingmaker serve --port 8000 --gm-password 'change me' --db sqlite:///wars.db
        """
        from kingmaker.web import serve
        from kingmaker.web.settings import SettingsError, WebSettings, parse_trusted_proxies

        if not gm_password:
            typer.echo("give the GM's password with --gm-password or KINGMAKER_GM_PASSWORD", err=True)
            raise typer.Exit(2)
        try:
            settings = WebSettings(
                https=https,
                trusted_proxies=parse_trusted_proxies(trusted_proxies),
                player_requests_per_minute=player_rate,
            )
        except SettingsError as e:
            typer.echo(str(e), err=True)
            raise typer.Exit(2) from None
        url = db or os.environ.get("KINGMAKER_DB") or DEFAULT_DB
        typer.echo(f"kingmaker web app on http://{host}:{port}/ (GM console: /gm)")
        serve(url, host=host, port=port, gm_password=gm_password, settings=settings)

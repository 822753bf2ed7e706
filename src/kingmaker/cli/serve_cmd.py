"""``kingmaker serve``: the web app (map, orders, inboxes, the GM console, the JSON API).

The GM's password comes from ``KINGMAKER_GM_PASSWORD`` or a file
(``--gm-password-file``), never from the command line, where ``ps`` shows it to every
user of the machine."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import typer

from .store_option import DEFAULT_DB, DbOption

PASSWORD_ENV = "KINGMAKER_GM_PASSWORD"
NO_PASSWORD_OPTION = (
    "--gm-password is not accepted: a password on the command line shows in `ps` to every user"
    " of the machine. Set KINGMAKER_GM_PASSWORD in the environment, or put the password in a"
    " file only you can read and pass --gm-password-file FILE."
)


def gm_password_file_option() -> Any:
    return typer.Option(
        None,
        "--gm-password-file",
        envvar="KINGMAKER_GM_PASSWORD_FILE",
        help="A file holding the GM's password (its first line). Or set KINGMAKER_GM_PASSWORD.",
        dir_okay=False,
    )


def refused_password_option() -> Any:
    return typer.Option(None, "--gm-password", hidden=True, help="Not accepted (shows in ps).")


def gm_password_from(file: Path | None, *, required: bool) -> str | None:
    """The GM's password: the first line of ``file``, or ``KINGMAKER_GM_PASSWORD``
    (``None`` when neither is given and it is not ``required``)."""
    if file is not None:
        try:
            mode = file.stat().st_mode
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise typer.BadParameter(
                f"cannot read {str(file)!r}: {e}", param_hint="--gm-password-file"
            ) from None
        password = text.splitlines()[0] if text.splitlines() else ""
        if not password.strip():
            raise typer.BadParameter(f"{str(file)!r} holds no password", param_hint="--gm-password-file")
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            typer.echo(f"warning: {file} can be read by other users (chmod 600 {file})", err=True)
        return password
    password = os.environ.get(PASSWORD_ENV, "")
    if password.strip():
        return password
    if required:
        typer.echo(f"give the GM's password in {PASSWORD_ENV} or in a file with --gm-password-file", err=True)
        raise typer.Exit(2)
    return None


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve_cmd(
        host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on."),
        port: int = typer.Option(8000, "--port", help="Port to listen on.", min=1, max=65535),
        gm_password_file: Path | None = gm_password_file_option(),
        db: str | None = DbOption,
        base_url: str | None = typer.Option(
            None,
            "--base-url",
            envvar="KINGMAKER_BASE_URL",
            help="Where players reach the server, e.g. https://kingmaker.example.org; the"
            " players' links are built from it, never from a request's Host header"
            " (default: http://HOST:PORT).",
        ),
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
        data_root: str | None = typer.Option(
            None,
            "--data-root",
            envvar="KINGMAKER_DATA_ROOT",
            help="A folder under which the GM may name a custom data folder when creating a"
            " game from the web or the API (default: none; only the built-in England 1455).",
        ),
        player_rate: int = typer.Option(
            300,
            "--player-requests-per-minute",
            envvar="KINGMAKER_PLAYER_RATE",
            min=1,
            help="Requests each player token may make per minute (across all server"
            " processes on the same database); past it, 429 with Retry-After.",
        ),
        mail_every: float = typer.Option(
            60.0,
            "--mail-every",
            envvar="KINGMAKER_MAIL_EVERY",
            min=0,
            help="Seconds between two runs of the notification sender in the background"
            " (queue what new log entries tell, send e-mail by KINGMAKER_SMTP_* and the"
            " webhooks; 0: never, run `kingmaker mail send` instead). See docs/notifications.md.",
        ),
        gm_password: str | None = refused_password_option(),
    ) -> None:
        """Serve the web app: the map, orders, the players' inboxes and the GM console
        at /gm; the JSON API under /api (OpenAPI at /api/docs).

        The GM's password is read from KINGMAKER_GM_PASSWORD or from the file given with
        --gm-password-file; only its scrypt hash is kept. See docs/web.md (security) for
        every setting.

        Example: KINGMAKER_GM_PASSWORD='change me' kingmaker serve --db sqlite:///wars.db
          --base-url https://kingmaker.example.org --https --trusted-proxies 127.0.0.1
        """
        from kingmaker.storage import StoreError
        from kingmaker.web import create_app
        from kingmaker.web.app import run
        from kingmaker.web.settings import (
            SettingsError,
            WebSettings,
            parse_base_url,
            parse_data_root,
            parse_trusted_proxies,
        )

        if gm_password is not None:
            typer.echo(NO_PASSWORD_OPTION, err=True)
            raise typer.Exit(2)
        password = gm_password_from(gm_password_file, required=True)
        try:
            settings = WebSettings(
                https=https,
                base_url=parse_base_url(base_url) or default_base_url(host, port, https),
                trusted_proxies=parse_trusted_proxies(trusted_proxies),
                data_root=parse_data_root(data_root),
                player_requests_per_minute=player_rate,
            )
        except SettingsError as e:
            typer.echo(str(e), err=True)
            raise typer.Exit(2) from None
        if not base_url and host in ("0.0.0.0", "::", ""):
            typer.echo(
                f"warning: players' links will start {settings.base_url}; give --base-url with the"
                " address players use",
                err=True,
            )
        from kingmaker.notify import Background, SmtpConfigError, SmtpSettings
        from kingmaker.storage.outbox import OutboxStore

        try:
            smtp = SmtpSettings.from_env(os.environ)
        except SmtpConfigError as e:
            typer.echo(str(e), err=True)
            raise typer.Exit(2) from None
        url = db or os.environ.get("KINGMAKER_DB") or DEFAULT_DB
        typer.echo(
            f"kingmaker web app on http://{host}:{port}/ (GM console: /gm; links: {settings.base_url})"
        )
        try:
            app = create_app(url, gm_password=password, settings=settings)
        except StoreError as e:
            typer.echo(f"cannot open the game store: {e}", err=True)
            raise typer.Exit(2) from None
        del password  # the app keeps only its scrypt hash
        sender = None
        if mail_every > 0:
            svc = app.state.site.svc
            sender = Background(svc, OutboxStore.of(svc.store), smtp, every=mail_every)
            sender.start()
            where = f"e-mail by {smtp.host}:{smtp.port}" if smtp else "no SMTP server: e-mail waits"
            typer.echo(f"notifications every {mail_every:g} s ({where})")
        try:
            run(app, host, port, settings)
        finally:
            if sender is not None:
                sender.stop()


def default_base_url(host: str, port: int, https: bool) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"{'https' if https else 'http'}://{shown}:{port}"

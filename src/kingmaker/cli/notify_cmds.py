"""The GM's notification commands (``docs/notifications.md``): ``email set|remove|list``,
``webhook set|remove``, ``outbox`` (the rows, their status, attempts and last error;
``--retry ID``), ``mail send`` (queue and send once) and ``mail remind``.

Addresses, webhook URLs and secrets are the GM's: ``email list`` and ``outbox`` show
them to the GM at the terminal only (``outbox`` shows where a mail went, never the
webhook's URL or secret)."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import typer
from rich.table import Table

from kingmaker.service import GM_ACTOR
from kingmaker.service.game_service import GameService

from .output import REFUSED, UNAVAILABLE, console, emit, fail, safe, service_errors
from .store_option import DbOption, opened

if TYPE_CHECKING:
    from kingmaker.notify import SmtpSettings

JsonOption = typer.Option(False, "--json", help="Print JSON for scripts.")


def _smtp() -> SmtpSettings | None:
    from kingmaker.notify import SmtpConfigError, SmtpSettings

    try:
        return SmtpSettings.from_env(os.environ)
    except SmtpConfigError as e:
        fail(str(e), UNAVAILABLE)


def _at(t: float | None) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M:%S UTC") if t else ""


def register(app: typer.Typer) -> None:
    from kingmaker.notify import admin
    from kingmaker.storage.outbox import OutboxStore

    email_app = typer.Typer(help="Players' e-mail addresses (the GM's only).", no_args_is_help=True)
    webhook_app = typer.Typer(
        help="The game's webhook (the public turn report, signed).", no_args_is_help=True
    )
    mail_app = typer.Typer(help="Send what the outbox holds; reminders.", no_args_is_help=True)
    app.add_typer(email_app, name="email")
    app.add_typer(webhook_app, name="webhook")
    app.add_typer(mail_app, name="mail")

    @email_app.command("set")
    def email_set(game: str, faction: str, address: str, db: str | None = DbOption) -> None:
        """Give a seated faction's player an e-mail address: they are told by e-mail of
        what happens from now on (requests awaiting them, their private report after each
        turn, reminders).

        Example: kingmaker email set wars-1a2b3c red alice@example.org
        """
        with opened(db) as store, service_errors():
            kept = admin.set_email(GameService(store), GM_ACTOR, game, faction, address)
            console.print(f"{safe(faction)} is told at {safe(kept)}")

    @email_app.command("remove")
    def email_remove(game: str, faction: str, db: str | None = DbOption) -> None:
        """Remove a faction's e-mail address (what was queued for it is cancelled)."""
        with opened(db) as store, service_errors():
            admin.set_email(GameService(store), GM_ACTOR, game, faction, None)
            console.print(f"{safe(faction)} has no e-mail address")

    @email_app.command("list")
    def email_list(game: str, db: str | None = DbOption, as_json: bool = JsonOption) -> None:
        """Each seat's e-mail address, the webhook's host and the reminders' lead time."""
        with opened(db) as store, service_errors():
            c = admin.contacts(GameService(store), OutboxStore.of(store), GM_ACTOR, game)
            data = {
                "emails": c.emails,
                "webhook_host": c.webhook_host,
                "webhook_format": c.webhook_format,
                "remind_hours": c.remind_hours,
            }

            def show() -> None:
                for f, a in sorted(c.emails.items()):
                    console.print(f"{safe(f)}: {safe(a or '— none')}")
                hook = f"{c.webhook_host} ({c.webhook_format})" if c.webhook_host else "none"
                console.print(f"webhook: {safe(hook)}; reminders {c.remind_hours:g} hours before a deadline")

            emit(as_json, data, show)

    @webhook_app.command("set")
    def webhook_set(
        game: str,
        url: str,
        secret: str | None = typer.Option(
            None,
            "--secret",
            envvar="KINGMAKER_WEBHOOK_SECRET",
            help="The signing secret (16 to 200 characters; better in KINGMAKER_WEBHOOK_SECRET than"
            " on the command line, where ps shows it). Default: a new random one, printed once.",
        ),
        fmt: str = typer.Option(
            "markdown", "--format", help="The report's format: bbcode, markdown or plain."
        ),
        db: str | None = DbOption,
    ) -> None:
        """POST each turn's public report to URL (https://, or http:// to this machine),
        as JSON signed with HMAC-SHA256 (header X-Kingmaker-Signature-256).

        Example: kingmaker webhook set wars-1a2b3c https://chat.example.org/hooks/kingmaker
        """
        with opened(db) as store, service_errors():
            key = admin.set_webhook(
                GameService(store), OutboxStore.of(store), GM_ACTOR, game, url, secret, fmt
            )
            console.print("webhook set: each turn's public report is posted from now on")
            if not secret:
                console.print(f"signing secret (shown once; give it to the receiver): {key}")

    @webhook_app.command("remove")
    def webhook_remove(game: str, db: str | None = DbOption) -> None:
        """Post nothing more (what was queued for the webhook is cancelled)."""
        with opened(db) as store, service_errors():
            admin.set_webhook(GameService(store), OutboxStore.of(store), GM_ACTOR, game, None)
            console.print("webhook removed")

    @app.command("outbox")
    def outbox(
        game: str,
        retry: int | None = typer.Option(None, "--retry", help="Queue this failed or uncertain row again."),
        db: str | None = DbOption,
        as_json: bool = JsonOption,
    ) -> None:
        """The game's outbox, newest first: each message's channel, recipient, kind,
        status, attempts and last error.

        Example: kingmaker outbox wars-1a2b3c
        """
        with opened(db) as store, service_errors():
            svc = GameService(store)
            box = OutboxStore.of(store)
            if retry is not None:
                admin.retry(svc, box, GM_ACTOR, game, retry)
                console.print(f"row {retry} is queued again")
                return
            rows = admin.outbox(svc, box, GM_ACTOR, game)
            data = [
                {
                    "id": r.id,
                    "channel": r.channel,
                    "to": r.faction or "webhook",
                    "kind": r.kind,
                    "ref": r.ref,
                    "subject": r.subject,
                    "status": r.status,
                    "attempts": r.attempts,
                    "last_error": r.last_error,
                    "created_at": _at(r.created_at),
                    "next_attempt_at": _at(r.next_attempt_at) if r.status == "queued" else None,
                    "sent_at": _at(r.sent_at) or None,
                }
                for r in rows
            ]

            def show() -> None:
                if not rows:
                    console.print("the outbox is empty")
                    return
                t = Table("id", "to", "kind", "subject", "status", "tries", "last error", "when")
                for d in data:
                    when = d["sent_at"] or d["next_attempt_at"] or d["created_at"]
                    t.add_row(
                        str(d["id"]),
                        safe(d["to"]),
                        safe(d["kind"]),
                        safe(d["subject"] or ""),
                        safe(d["status"]),
                        str(d["attempts"]),
                        safe(d["last_error"] or ""),
                        safe(when),
                    )
                console.print(t)

            emit(as_json, data, show)

    @mail_app.command("send")
    def mail_send(db: str | None = DbOption, as_json: bool = JsonOption) -> None:
        """Queue what every game's new log entries tell (and the reminders due), then send
        what is due once: e-mail by SMTP (KINGMAKER_SMTP_HOST, _PORT, _USER, _PASSWORD,
        _FROM, _STARTTLS), the webhooks. `kingmaker serve` does this every minute.

        Example: KINGMAKER_SMTP_HOST=smtp.example.org kingmaker mail send
        """
        from kingmaker.notify import run_once

        smtp = _smtp()
        with opened(db) as store, service_errors():
            added, done = run_once(GameService(store), OutboxStore.of(store), smtp)
            data = {
                "queued": added,
                "sent": len(done.sent),
                "retrying": len(done.retrying),
                "failed": len(done.failed),
                "cancelled": len(done.cancelled),
                "smtp": smtp is not None,
            }

            def show() -> None:
                console.print(
                    f"{added} queued; {len(done.sent)} sent, {len(done.retrying)} to try again,"
                    f" {len(done.failed)} failed, {len(done.cancelled)} cancelled"
                )
                if smtp is None:
                    console.print("no SMTP server set (KINGMAKER_SMTP_HOST): e-mail waits in the outbox")

            emit(as_json, data, show)
            if done.failed:
                raise typer.Exit(REFUSED)

    @mail_app.command("remind")
    def mail_remind(game: str, hours: float, db: str | None = DbOption) -> None:
        """Remind players HOURS before a deadline that waits for them (0: never; default 12).

        Example: kingmaker mail remind wars-1a2b3c 6
        """
        with opened(db) as store, service_errors():
            admin.set_remind_hours(GameService(store), OutboxStore.of(store), GM_ACTOR, game, hours)
            console.print(f"reminders {hours:g} hours before a deadline" if hours else "no reminders")

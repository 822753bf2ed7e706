"""The notification commands (issue 15, item 11): seat with --email, email set, webhook
set, outbox, mail send, on a SQLite file with the real local SMTP and HTTP servers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kingmaker.cli.app import command_app
from kingmaker.notify.smtp import SmtpSettings

from .conftest import Hooked, Mailbox

runner = CliRunner()


def _km(db: str, *args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    done = runner.invoke(command_app(), [*args, "--db", db], env=env or {})
    return done.exit_code, done.output


def test_a_gm_tells_players_by_e_mail_and_the_group_by_webhook_from_the_command_line(
    tmp_path: Path, smtp: tuple[Mailbox, SmtpSettings], hook_server: Hooked
) -> None:
    mailbox, settings = smtp
    db = f"sqlite:///{tmp_path / 'cli.db'}"
    env = {
        "KINGMAKER_SMTP_HOST": "127.0.0.1",
        "KINGMAKER_SMTP_PORT": str(settings.port),
        "KINGMAKER_SMTP_FROM": "gm@example.org",
    }
    code, out = _km(db, "new", "Cli Wars", "--factions", "red,blue", "--id", "cw", "--hand-adjudication")
    assert code == 0, out
    assert _km(db, "seat", "cw", "red", "Ann", "--email", "ann@example.org")[0] == 0
    assert _km(db, "seat", "cw", "blue", "Bob")[0] == 0
    code, out = _km(db, "email", "set", "cw", "blue", "Bob <bob@example.org>")
    assert code == 1 and "one bare address" in out
    code, out = _km(db, "email", "set", "cw", "blue", "bob@example.org")
    assert code == 0 and "blue is told at bob@example.org" in out
    code, out = _km(db, "webhook", "set", "cw", "http://chat.example.org/hook")
    assert code == 1 and "must start https://" in out
    code, out = _km(db, "webhook", "set", "cw", hook_server.url, "--format", "plain")
    assert code == 0 and "signing secret (shown once" in out
    code, out = _km(db, "email", "list", "cw", "--json")
    assert json.loads(out)["emails"] == {"blue": "bob@example.org", "red": "ann@example.org"}
    assert json.loads(out)["webhook_host"] == "127.0.0.1" and hook_server.url not in out
    assert _km(db, "end-turn", "cw")[0] == 0
    code, out = _km(db, "mail", "send", env={"KINGMAKER_SMTP_PORT": "x", "KINGMAKER_SMTP_HOST": "h"})
    assert code == 2 and "KINGMAKER_SMTP_PORT is a port number" in out
    code, out = _km(db, "mail", "send", "--json", env=env)
    assert code == 0, out
    assert json.loads(out) | {"queued": 0} == {
        "queued": 0,
        "sent": 3,
        "retrying": 0,
        "failed": 0,
        "cancelled": 0,
        "smtp": True,
    }
    assert sorted(str(m["To"]) for m in mailbox.messages) == ["ann@example.org", "bob@example.org"]
    assert len(hook_server.posts) == 1 and hook_server.json(0)["format"] == "plain"
    code, out = _km(db, "mail", "send", "--json", env=env)  # nothing twice
    assert json.loads(out)["sent"] == 0 and len(mailbox.messages) == 2
    code, out = _km(db, "outbox", "cw", "--json")
    rows = json.loads(out)
    assert code == 0 and sorted((r["to"], r["kind"], r["status"], r["attempts"]) for r in rows) == [
        ("blue", "report", "sent", 1),
        ("red", "report", "sent", 1),
        ("webhook", "turn_report", "sent", 1),
    ]
    code, out = _km(db, "outbox", "cw")
    assert code == 0 and "sent" in out
    code, out = _km(db, "outbox", "cw", "--retry", "99")
    assert code == 3 and "no failed, uncertain or cancelled outbox row 99" in out
    assert _km(db, "mail", "remind", "cw", "0")[1].strip() == "no reminders"


def test_kingmaker_serve_sends_in_the_background(
    tmp_path: Path, smtp: tuple[Mailbox, SmtpSettings], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``kingmaker serve`` starts the sender's thread before it serves, and stops it after
    (the server itself is replaced by a wait for the mail: no process to start)."""
    import time

    import kingmaker.web.app
    from kingmaker.rules import commands as rc
    from kingmaker.service import GM_ACTOR, player
    from kingmaker.service.commands import CreateGame, SeatPlayer, Submit
    from kingmaker.service.game_service import GameService
    from kingmaker.service.settings import GameSettings
    from kingmaker.storage import open_store

    mailbox, settings = smtp
    db = f"sqlite:///{tmp_path / 'served.db'}"
    with open_store(db) as store:
        svc = GameService(store)
        hand = GameSettings(full_game=False)
        svc.execute(GM_ACTOR, CreateGame("Served", ("red", "blue"), seed="s", game_id="sv", settings=hand))
        svc.execute(GM_ACTOR, SeatPlayer("sv", "red", "Ann", "ann@example.org"))
        svc.execute(player("blue"), Submit("sv", rc.DeclareAlliance("blue", "br", ("red",))))

    def serving(*args: object, **kwargs: object) -> None:  # what uvicorn would do meanwhile
        deadline = time.monotonic() + 20
        while not mailbox.messages and time.monotonic() < deadline:
            time.sleep(0.05)

    monkeypatch.setattr(kingmaker.web.app, "run", serving)
    env = {
        "KINGMAKER_GM_PASSWORD": "a password",
        "KINGMAKER_SMTP_HOST": "127.0.0.1",
        "KINGMAKER_SMTP_PORT": str(settings.port),
        "KINGMAKER_MAIL_EVERY": "0.1",
    }
    code, out = _km(db, "serve", "--port", "8765", env=env)
    assert code == 0, out
    assert [m["To"] for m in mailbox.messages] == ["ann@example.org"]
    assert "notifications every 0.1 s (e-mail by 127.0.0.1" in out
    assert "ann@example.org" not in out

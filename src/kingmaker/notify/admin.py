"""The GM's notification settings, one use case each, shared by the CLI and the web
console: a seat's e-mail address, the game's webhook and its reminder lead time, the
outbox's rows and retrying one. Each checks its input (``service.contact``) and that
the actor is the GM; the addresses and secrets go to the store and nowhere else."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

from kingmaker.render.reports import FORMATS
from kingmaker.service.contact import normal_email, secret_problem, webhook_problem
from kingmaker.service.errors import BadRequest, NotFound, PermissionDenied
from kingmaker.service.game_service import GameService
from kingmaker.service.identity import Actor
from kingmaker.storage.outbox import NotifySettings, OutboxRow, OutboxStore

MAX_REMIND_HOURS: Final = 24 * 14.0


def _gm(actor: Actor) -> None:
    if not actor.is_gm:
        raise PermissionDenied("only the GM sets where players and groups are told")


def set_email(svc: GameService, actor: Actor, game: str, faction: str, address: str | None) -> str | None:
    """Give ``faction``'s seat the e-mail ``address`` (None or "": remove it); the address
    as kept. It is told of what happens from now on."""
    _gm(actor)
    rec = svc.require_game(game)
    if faction not in rec.factions:
        raise BadRequest(f"{faction!r} is not a faction of game {game}")
    email = normal_email(address.strip()) if address and address.strip() else None
    if not svc.store.set_email(game, faction, email):
        raise NotFound(f"{faction} has no seat in game {game}: seat a player first")
    return email


def set_webhook(
    svc: GameService,
    box: OutboxStore,
    actor: Actor,
    game: str,
    url: str | None,
    secret: str | None = None,
    fmt: str = "markdown",
) -> str | None:
    """Set the game's webhook (``url`` None or "": remove it), told of what happens from
    now on. The signing secret is ``secret`` or a new random one; it is returned (to be
    shown to the GM once)."""
    _gm(actor)
    svc.require_game(game)
    if not url:
        box.set_webhook(game, None, None, fmt, 0)
        return None
    problem = webhook_problem(url)
    if problem is not None:
        raise BadRequest(problem)
    if fmt not in FORMATS:
        raise BadRequest(f"the webhook's format is one of {', '.join(FORMATS)}, not {fmt[:20]!r}")
    if secret:
        problem = secret_problem(secret)
        if problem is not None:
            raise BadRequest(problem)
    key = secret or secrets.token_urlsafe(32)
    box.set_webhook(game, url, key, fmt, svc.store.head(game))
    return key


def set_remind_hours(svc: GameService, box: OutboxStore, actor: Actor, game: str, hours: float) -> None:
    """Remind players ``hours`` before a deadline (0: never)."""
    _gm(actor)
    svc.require_game(game)
    if not 0 <= hours <= MAX_REMIND_HOURS or hours != hours:
        raise BadRequest(f"reminders are 0 (none) to {MAX_REMIND_HOURS:g} hours before a deadline")
    box.set_remind_hours(game, hours)


@dataclass(frozen=True)
class Contacts:
    """What the GM sees of a game's notifications: each seat's address, the webhook's
    host (the URL itself may hold a key: it is never shown again), its format, and the
    reminder lead time."""

    emails: dict[str, str | None]
    webhook_host: str | None
    webhook_format: str
    remind_hours: float


def contacts(svc: GameService, box: OutboxStore, actor: Actor, game: str) -> Contacts:
    _gm(actor)
    svc.require_game(game)
    s: NotifySettings = box.settings(game)
    host = urlsplit(s.webhook_url).hostname if s.webhook_url else None
    emails = {seat.faction: seat.email for seat in svc.store.seats(game)}
    return Contacts(emails, host, s.webhook_format, s.remind_hours)


def outbox(svc: GameService, box: OutboxStore, actor: Actor, game: str) -> list[OutboxRow]:
    """The game's outbox, newest first (the GM's only)."""
    _gm(actor)
    svc.require_game(game)
    return box.rows(game)


def retry(svc: GameService, box: OutboxStore, actor: Actor, game: str, row: int) -> None:
    """Queue a failed, uncertain or cancelled row again."""
    _gm(actor)
    svc.require_game(game)
    if not box.retry(game, row, svc.clock.now().timestamp()):
        raise NotFound(f"game {game} has no failed, uncertain or cancelled outbox row {row}")

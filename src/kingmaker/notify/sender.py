"""Queueing and sending: ``queue_game`` reads a game's new log entries into the outbox
(``compose``), ``Sender.send_due`` claims due rows and sends them (SMTP, the webhook),
``run_once`` does both for every game, and ``Background`` runs it every so often in a
thread of the web server.

A failed attempt is tried again after ``backoff(attempts)`` (1 minute, doubling, at
most 6 hours) until ``MAX_ATTEMPTS``; an error the server says is permanent fails at
once. Addresses and secrets are read when the row is sent (a removed address cancels
the row) and never written to the process's log: it says how many went, by game.
"""

from __future__ import annotations

import bisect
import logging
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Final

from kingmaker.render.reports import reports_for
from kingmaker.service.game_service import GameService
from kingmaker.storage.outbox import OutboxRow, OutboxStore

from .compose import Hook, Recipient, entry_messages, reminders
from .smtp import SendError, SmtpConnection, SmtpSettings, mail
from .webhook import post

log = logging.getLogger("kingmaker.notify")

MAX_ATTEMPTS: Final = 8
LEASE: Final = 300.0  # seconds a claim lasts: longer than any SMTP or HTTP timeout
FIRST_DELAY: Final = 60.0
LONGEST_DELAY: Final = 6 * 3600.0


def backoff(attempts: int) -> float:
    """Seconds before the next try after ``attempts`` tries.

    >>> [backoff(n) for n in (1, 2, 3)], backoff(20)
    ([60.0, 120.0, 240.0], 21600.0)
    """
    return float(min(FIRST_DELAY * 2 ** max(attempts - 1, 0), LONGEST_DELAY))


def queue_game(svc: GameService, box: OutboxStore, game: str, now: datetime) -> int:
    """Queue what the entries after the game's cursor tell, and the reminders due
    ``now``; move the cursor to the head. How many rows were new."""
    seats = svc.store.seats(game)
    recipients = [Recipient(s.faction, s.email_since) for s in seats if s.email]
    settings = box.settings(game)
    hook = Hook(settings.webhook_since, settings.webhook_format) if settings.webhook_url else None
    cursor = box.cursor(game)
    head = svc.store.head(game)
    if not recipients and hook is None:  # nobody to tell: read nothing
        if head > cursor:
            box.advance(game, head)
        return 0
    if head <= cursor and (not recipients or settings.remind_hours <= 0 or not svc.deadlines(game)):
        return 0  # nothing new, and no reminder can be due
    ctx = reports_for(svc, game)
    tl = ctx.timeline
    title = svc.store.game(game).name
    messages = []
    envelopes = tl.envelopes
    for env in envelopes[bisect.bisect_right(envelopes, cursor, key=lambda e: e.seq) :]:
        messages += entry_messages(ctx, game, title, env, recipients, hook)
    pos = tl.position
    factions = [r.faction for r in recipients]
    messages += reminders(
        ctx, game, title, pos.open_deadlines(), pos.has_ordered, factions, now, settings.remind_hours
    )
    added = box.enqueue(game, messages, now.timestamp())
    if tl.head > cursor:
        box.advance(game, tl.head)
    return added


@dataclass
class Sent:
    """What one ``send_due`` did, by outcome: row ids."""

    sent: list[int] = field(default_factory=list)
    retrying: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)
    cancelled: list[int] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.sent or self.retrying or self.failed or self.cancelled)


class Sender:
    """Sends the outbox's due rows of one database. ``smtp``: None leaves e-mail queued
    (only webhooks go)."""

    def __init__(
        self, svc: GameService, box: OutboxStore, smtp: SmtpSettings | None, *, lease: float = LEASE
    ):
        self.svc = svc
        self.box = box
        self.smtp = smtp
        self.lease = lease

    def send_due(self, now: float, *, limit: int = 50) -> Sent:
        channels = ("email", "webhook") if self.smtp is not None else ("webhook",)
        rows = self.box.claim(now, self.lease, limit=limit, channels=channels)
        done = Sent()
        connection = SmtpConnection(self.smtp) if self.smtp is not None else None
        down: SendError | None = None  # the SMTP server cannot be reached: the batch's other mail waits
        try:
            for row in rows:
                if down is not None and row.channel == "email":
                    self._failed(row, down, now, done)
                    continue
                error = self._one(row, now, connection, done)
                if error is not None and error.unreachable and row.channel == "email":
                    down = error
        finally:
            if connection is not None:
                connection.close()
        if done:
            log.info(
                "outbox: %d sent, %d to retry, %d failed, %d cancelled",
                len(done.sent),
                len(done.retrying),
                len(done.failed),
                len(done.cancelled),
            )
        return done

    def _one(
        self, row: OutboxRow, now: float, connection: SmtpConnection | None, done: Sent
    ) -> SendError | None:
        """Send ``row``; the error, if it failed."""
        try:
            if row.channel == "email":
                address = self._address(row)
                if address is None:
                    self.box.cancel(row.id, "the seat has no e-mail address any more")
                    done.cancelled.append(row.id)
                    return None
                assert connection is not None and self.smtp is not None
                message_id = f"<{row.game_id}.{row.id}.{row.created_at:.0f}@kingmaker>"
                connection.send(mail(self.smtp, address, row.subject or "", row.body or "", message_id))
                self.box.sent(row.id, now, address)
            else:
                settings = self.box.settings(row.game_id)
                if not settings.webhook_url or not settings.webhook_secret:
                    self.box.cancel(row.id, "the game has no webhook any more")
                    done.cancelled.append(row.id)
                    return None
                post(
                    settings.webhook_url, settings.webhook_secret, (row.body or "").encode("utf-8"), row.dedup
                )
                self.box.sent(row.id, now)
            done.sent.append(row.id)
            return None
        except SendError as e:
            self._failed(row, e, now, done)
            return e

    def _failed(self, row: OutboxRow, e: SendError, now: float, done: Sent) -> None:
        """Record the failure: try again after the backoff, or give up."""
        error = str(e)
        if row.channel == "email" and (address := self._address(row)):
            error = error.replace(address, "<the address>")
        if e.permanent or row.attempts >= MAX_ATTEMPTS:
            self.box.failed(row.id, error, None)
            done.failed.append(row.id)
        else:
            self.box.failed(row.id, error, now + backoff(row.attempts))
            done.retrying.append(row.id)
        log.warning("outbox row %d of game %s: attempt %d failed", row.id, row.game_id, row.attempts)

    def _address(self, row: OutboxRow) -> str | None:
        for seat in self.svc.store.seats(row.game_id):
            if seat.faction == row.faction:
                return seat.email
        return None


def queue_all(svc: GameService, box: OutboxStore, now: datetime, games: Iterable[str] | None = None) -> int:
    """Queue every game's new messages (a game that fails to queue is logged and skipped)."""
    added = 0
    for game in games if games is not None else [g.id for g in svc.store.games()]:
        try:
            added += queue_game(svc, box, game, now)
        except Exception:  # one game's trouble must not stop the others' mail
            log.exception("outbox: cannot queue the messages of game %s", game)
    return added


def run_once(svc: GameService, box: OutboxStore, smtp: SmtpSettings | None) -> tuple[int, Sent]:
    """Queue every game's new messages, then send what is due (all of it, in batches)."""
    now = svc.clock.now()
    added = queue_all(svc, box, now)
    total = Sent()
    while True:
        done = Sender(svc, box, smtp).send_due(now.timestamp())
        for name in ("sent", "retrying", "failed", "cancelled"):
            getattr(total, name).extend(getattr(done, name))
        if not done:
            return added, total


class Background:
    """``run_once`` every ``every`` seconds in a daemon thread, until ``stop``."""

    def __init__(self, svc: GameService, box: OutboxStore, smtp: SmtpSettings | None, every: float = 60.0):
        self.svc, self.box, self.smtp, self.every = svc, box, smtp, every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="kingmaker-notify", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        self._thread.join(timeout)

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                run_once(self.svc, self.box, self.smtp)
            except Exception:
                log.exception("outbox: the sender's run failed; trying again later")
            self._stop.wait(self.every)

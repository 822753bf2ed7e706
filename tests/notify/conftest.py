"""Real local servers for the notification tests: an SMTP server (aiosmtpd) and an HTTP
server (``http.server`` in a thread), each on a free port of 127.0.0.1, recording what
they receive and told to fail when a test wants; and a game on SQLite with seats."""

from __future__ import annotations

import email
import email.policy
import json
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from kingmaker.notify import SmtpSettings
from kingmaker.service import GM_ACTOR, FixedClock
from kingmaker.service.commands import CreateGame, SeatPlayer
from kingmaker.service.game_service import GameService
from kingmaker.service.settings import GameSettings
from kingmaker.storage import SqlStore, open_store
from kingmaker.storage.outbox import OutboxStore
from tests.web.conftest import world  # noqa: F401 (the web app's fixture, for test_web)

FACTIONS = ("red", "blue", "green", "gold")
EMAILS = {"red": "ann@example.org", "blue": "bob@example.org", "green": "cy@example.org"}  # gold: none


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Mailbox:
    """What the SMTP server accepted; ``fail``: answers to give instead, one per message."""

    messages: list[EmailMessage] = field(default_factory=list)
    fail: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        with self.lock:
            if self.fail:
                return self.fail.pop(0)
            # on the wire lines end in CRLF; a mail client stores them with LF, as read here
            wire = bytes(envelope.content).replace(b"\r\n", b"\n")
            parsed = email.message_from_bytes(wire, policy=email.policy.default)
            assert isinstance(parsed, EmailMessage)
            self.messages.append(parsed)
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.messages if m["To"] == address]


@pytest.fixture
def smtp() -> Iterator[tuple[Mailbox, SmtpSettings]]:
    box = Mailbox()
    port = free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield box, SmtpSettings("127.0.0.1", port, sender="gm@example.org", timeout=5)
    finally:
        controller.stop()


@dataclass
class Hooked:
    """What the HTTP server received (headers, body); ``statuses``: answers to give first."""

    posts: list[tuple[dict[str, str], bytes]] = field(default_factory=list)
    statuses: list[int] = field(default_factory=list)
    url: str = ""

    def json(self, i: int) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.posts[i][1])
        return data


@pytest.fixture
def hook_server() -> Iterator[Hooked]:
    got = Hooked()
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            with lock:
                status = got.statuses.pop(0) if got.statuses else 204
                if status < 300:
                    got.posts.append(({k.lower(): v for k, v in self.headers.items()}, body))
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    got.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    try:
        yield got
    finally:
        server.shutdown()
        server.server_close()


@dataclass
class Game:
    svc: GameService
    box: OutboxStore
    clock: FixedClock
    id: str
    url: str


@pytest.fixture
def game(tmp_path: Path) -> Iterator[Game]:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    store = open_store(url)
    clock = FixedClock()
    svc = GameService(store, clock)
    settings = GameSettings(full_game=False, turn_hours=24.0, request_hours=24.0)
    g = svc.execute(GM_ACTOR, CreateGame("Wars", FACTIONS, seed="s", game_id="wars", settings=settings)).game
    for f in FACTIONS:
        svc.execute(GM_ACTOR, SeatPlayer(g, f, f.title(), EMAILS.get(f)))
    assert isinstance(store, SqlStore)
    yield Game(svc, OutboxStore.of(store), clock, g, url)
    store.close()

"""Helpers for the security tests: web apps over one database (as several server
processes would share it), browsers from given addresses, a clock the test moves, and
real ``kingmaker serve`` processes."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI
from fastapi.testclient import TestClient

from kingmaker.web import create_app
from kingmaker.web.settings import WebSettings

from .conftest import FACTIONS, GAME, GM_PASSWORD, csrf_of


class Clock:
    """Seconds since the epoch, moved by the test."""

    def __init__(self, now: float = 1_800_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def make_app(url: str, clock: Clock, password: str | None = GM_PASSWORD, **settings: Any) -> FastAPI:
    return create_app(url, gm_password=password, settings=WebSettings(**settings), security_clock=clock)


def browser(app: FastAPI, address: str = "198.51.100.1") -> TestClient:
    """A browser of its own (its own cookies), connecting from ``address``."""
    return TestClient(app, raise_server_exceptions=False, client=(address, 50000))


def gm_bearer(password: str = GM_PASSWORD) -> dict[str, str]:
    return {"Authorization": f"Bearer gm:{password}"}


def login(c: TestClient, password: str) -> httpx.Response:
    token = csrf_of(c.get("/gm/login").text)
    return c.post("/gm/login", data={"password": password, "csrf_token": token, "next": "/gm"})


def new_game(app: FastAPI, factions: tuple[str, ...] = FACTIONS) -> dict[str, str]:
    """Game ``wars`` with every faction seated; the players' tokens."""
    api = browser(app, "192.0.2.200")
    r = api.post(
        "/api/games",
        json={"name": "Wars", "factions": list(factions), "seed": "s", "game_id": GAME, "full_game": False},
        headers=gm_bearer(),
    )
    assert r.status_code == 201, r.text
    tokens = {}
    for f in factions:
        r = api.post(f"/api/games/{GAME}/seats", json={"faction": f, "player": f"{f} player"}, headers=gm_bearer())
        assert r.status_code == 201, r.text
        tokens[f] = r.json()["token"]
    return tokens


# -- real server processes -------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    url: str
    log: Path
    proc: subprocess.Popen[bytes]

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")


def serve_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "kingmaker.cli.app", "serve", *args]


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KINGMAKER_")}
    env.update(extra)
    return env


@contextmanager
def server(db: Path, *args: str, password: str = GM_PASSWORD) -> Iterator[Server]:
    """``kingmaker serve`` on a free port over the SQLite file ``db`` (the GM password in
    the environment), until the block ends."""
    port = free_port()
    log = db.with_name(f"server-{port}.log")
    cmd = serve_command("--host", "127.0.0.1", "--port", str(port), "--db", f"sqlite:///{db}", *args)
    with log.open("wb") as out:
        proc = subprocess.Popen(
            cmd, stdout=out, stderr=subprocess.STDOUT, env=clean_env(KINGMAKER_GM_PASSWORD=password), cwd=db.parent
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"the server exited ({proc.returncode}):\n{log.read_text()}")
            try:
                if httpx.get(url + "/healthz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start:\n{log.read_text()}")
            time.sleep(0.05)
        yield Server(url, log, proc)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

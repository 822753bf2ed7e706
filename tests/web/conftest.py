"""The web app on a real SQLite file store (tmp_path), a fixed clock, a GM password and
a four-faction game with every faction seated."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from kingmaker.service import FixedClock
from kingmaker.web import create_app
from kingmaker.web.settings import WebSettings

GM_PASSWORD = "crown-and-sceptre"
BASE_URL = "https://kingmaker.example"  # where the players' links point
FACTIONS = ("red", "blue", "green", "gold")
GAME = "wars"

_CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
_HX = re.compile(r'"X-CSRF-Token": "([^"]+)"')


def csrf_of(html: str) -> str:
    m = _CSRF.search(html) or _HX.search(html)
    assert m, "no CSRF token on the page"
    return m.group(1)


def gm_auth() -> dict[str, str]:
    return {"Authorization": f"Bearer gm:{GM_PASSWORD}"}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@dataclass
class World:
    app: FastAPI
    api: TestClient  # no cookies needed: bearer tokens
    clock: FixedClock
    tokens: dict[str, str] = field(default_factory=dict)

    def client(self) -> TestClient:
        """A browser of its own (its own session cookie)."""
        return TestClient(self.app, raise_server_exceptions=False)

    def page(self, faction: str) -> str:
        return f"/play/{GAME}/{self.tokens[faction]}"

    def player(self, faction: str) -> tuple[TestClient, str]:
        """A player's browser on their map page, and the page's CSRF token."""
        c = self.client()
        r = c.get(self.page(faction))
        assert r.status_code == 200, r.text
        return c, csrf_of(r.text)

    def gm(self) -> tuple[TestClient, str]:
        """The GM's browser, logged in, and its CSRF token (the GM session's: a new one
        at each login)."""
        c = self.client()
        r = c.get("/gm/login")
        token = csrf_of(r.text)
        r = c.post("/gm/login", data={"password": GM_PASSWORD, "csrf_token": token, "next": "/gm"})
        assert r.status_code == 200 and r.url.path == "/gm", r.text
        return c, csrf_of(r.text)

    @property
    def svc(self):  # type: ignore[no-untyped-def]
        return self.app.state.site.svc


@pytest.fixture
def world(tmp_path: Path) -> World:
    clock = FixedClock()
    app = create_app(
        f"sqlite:///{tmp_path / 'games.db'}",
        gm_password=GM_PASSWORD,
        clock=clock,
        # the rate limit per token has tests of its own (test_player_rate.py); here it
        # must not get in the way of the many requests some tests and the fuzzer make
        settings=WebSettings(base_url=BASE_URL, player_requests_per_minute=100_000),
    )
    api = TestClient(app, raise_server_exceptions=False)
    r = api.post(
        "/api/games",
        # the GM adjudicates by hand: these tests are about the pages and the API (the full
        # game's own tests create full games)
        json={
            "name": "Wars of the Roses",
            "factions": list(FACTIONS),
            "seed": "s",
            "game_id": GAME,
            "full_game": False,
        },
        headers=gm_auth(),
    )
    assert r.status_code == 201, r.text
    w = World(app, api, clock)
    for f in FACTIONS:
        r = api.post(
            f"/api/games/{GAME}/seats", json={"faction": f, "player": f"{f} player"}, headers=gm_auth()
        )
        assert r.status_code == 201, r.text
        w.tokens[f] = r.json()["token"]
    return w

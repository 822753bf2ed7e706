"""Each player token's requests per minute (finding 3.6, in part): counted in the
database, so every server process on it shares the count (SQLite and PostgreSQL);
past the limit, 429 with Retry-After, on the API and the pages alike."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kingmaker.storage import open_store
from kingmaker.storage.websec import WebSecurityStore
from kingmaker.web.ratelimit import TokenRateLimit, TooManyRequests
from tests.storage.conftest import postgres_schema

from .apps import Clock, browser, gm_bearer, make_app, new_game
from .conftest import GAME


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.db'}"
    else:
        with postgres_schema() as url:
            yield url


def test_a_tokens_limit_is_shared_by_every_process(db_url: str) -> None:
    clock = Clock(1_800_000_000.0)  # a minute starts here
    one = make_app(db_url, clock, player_requests_per_minute=6)
    two = make_app(db_url, clock, player_requests_per_minute=6)
    tokens = new_game(one)
    red = {"Authorization": f"Bearer {tokens['red']}"}
    a, b = browser(one), browser(two)
    # six requests, through both processes, the API and the pages
    assert a.get(f"/api/games/{GAME}/view", headers=red).status_code == 200
    assert b.get(f"/api/games/{GAME}/view", headers=red).status_code == 200
    assert a.get(f"/play/{GAME}/{tokens['red']}").status_code == 200
    assert b.get(f"/play/{GAME}/{tokens['red']}/log").status_code == 200
    clock.advance(15)
    assert a.get(f"/api/games/{GAME}/pending", headers=red).status_code == 200
    assert b.get(f"/api/games/{GAME}/units", headers=red).status_code == 200
    # the seventh, in either process, waits for the next minute
    for c in (a, b):
        r = c.get(f"/api/games/{GAME}/view", headers=red)
        assert r.status_code == 429 and r.json()["error"] == "too_many_requests", r.text
        assert r.headers["Retry-After"] == "45"
        assert "6 a minute" in r.json()["message"]
    r = b.get(f"/play/{GAME}/{tokens['red']}")
    assert r.status_code == 429 and r.headers["Retry-After"] == "45" and "Traceback" not in r.text
    # other players and the GM are not held back by red's requests
    blue = {"Authorization": f"Bearer {tokens['blue']}"}
    assert a.get(f"/api/games/{GAME}/view", headers=blue).status_code == 200
    assert a.get(f"/api/games/{GAME}/view", headers=gm_bearer()).status_code == 200
    clock.advance(45)
    assert b.get(f"/api/games/{GAME}/view", headers=red).status_code == 200


def test_a_process_takes_a_share_at_a_time_and_never_serves_past_the_limit(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'games.db'}")
    try:
        db = WebSecurityStore.of(store)
        clock = Clock(1_800_000_000.0)
        one = TokenRateLimit(db, 100, clock=clock)  # shares of 10
        two = TokenRateLimit(db, 100, clock=clock)
        served = 0
        for i in range(200):
            try:
                (one if i % 3 else two).hit("seat:g:red")
                served += 1
            except TooManyRequests:
                pass
        assert served == 100
        engine = store.engine
        with engine.connect() as conn:
            used = conn.exec_driver_sql("SELECT used FROM rate_limits WHERE key = 'seat:g:red'").scalar()
        assert used == 100  # ten shares written, not a hundred requests
    finally:
        store.close()

"""Failed GM logins (finding 3.3): counted per client and account with exponential
backoff, plus a looser count per account; kept in the database, so that every server
process on it sees the same counts and a restart forgets nothing (SQLite and
PostgreSQL). The address a proxy claims is believed only from a trusted proxy
(``test_server_security.py`` runs real servers for that)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.storage.conftest import postgres_schema

from .apps import Clock, browser, gm_bearer, login, make_app
from .conftest import GM_PASSWORD

ATTACKER, GM_HOME, ELSEWHERE = "203.0.113.66", "192.0.2.7", "198.51.100.23"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """One database for several apps (as for several server processes)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.db'}"
    else:
        with postgres_schema() as url:
            yield url


def test_processes_share_the_count_and_a_restart_forgets_nothing(db_url: str) -> None:
    clock = Clock()
    one, two = make_app(db_url, clock), make_app(db_url, clock)
    a, b = browser(one, ATTACKER), browser(two, ATTACKER)
    # five failures, through both processes, the form and the API
    assert login(a, "guess-1").status_code == 403
    assert a.get("/api/games", headers=gm_bearer("guess-2")).status_code == 403
    assert login(b, "guess-3").status_code == 403
    assert b.get("/api/games", headers=gm_bearer("guess-4")).status_code == 403
    assert login(a, "guess-5").status_code == 403
    # now either process refuses even the right password, for 30 s
    for c in (a, b):
        r = login(c, GM_PASSWORD)
        assert r.status_code == 429 and r.headers["Retry-After"] == "30", r.text
        assert "Too many failed GM logins" in r.text and "try again in 30 seconds" in r.text
        r = c.get("/api/games", headers=gm_bearer())
        assert r.status_code == 429 and r.json()["error"] == "too_many_attempts"
    # a restarted server (a new app on the same database) still knows
    three = browser(make_app(db_url, clock), ATTACKER)
    assert login(three, GM_PASSWORD).status_code == 429
    clock.advance(10)
    assert int(login(three, GM_PASSWORD).headers["Retry-After"]) == 20
    clock.advance(20)
    r = login(three, GM_PASSWORD)
    assert r.status_code == 200 and r.url.path == "/gm"
    # the good login cleared this client's failures: five free attempts again
    for i in range(5):
        assert login(a, f"again-{i}").status_code == 403
    assert login(b, GM_PASSWORD).status_code == 429


def test_each_failure_past_the_free_ones_doubles_the_wait(tmp_path: Path) -> None:
    clock = Clock()
    c = browser(make_app(f"sqlite:///{tmp_path / 'games.db'}", clock), ATTACKER)
    for i in range(5):
        assert login(c, f"guess-{i}").status_code == 403
    waits = []
    for i in range(9):
        r = login(c, f"more-{i}")
        assert r.status_code == 429
        waits.append(int(r.headers["Retry-After"]))
        clock.advance(waits[-1])
        assert login(c, f"more-{i}").status_code == 403  # one try after each wait
    assert waits == [30, 60, 120, 240, 480, 960, 1920, 3600, 3600]  # capped at an hour
    # failures are forgotten a day after the last one
    clock.advance(86400 + 3600)
    for i in range(4):
        assert login(c, f"later-{i}").status_code == 403
    assert login(c, GM_PASSWORD).status_code == 200


def test_one_attacker_does_not_lock_the_gm_out(tmp_path: Path) -> None:
    clock = Clock()
    app = make_app(f"sqlite:///{tmp_path / 'games.db'}", clock)
    attacker = browser(app, ATTACKER)
    for i in range(12):
        login(attacker, f"guess-{i}")
        clock.advance(1)
    assert login(attacker, GM_PASSWORD).status_code == 429
    # the GM, from another address, never met the GM before either: gets in at once
    gm = browser(app, ELSEWHERE)
    r = login(gm, GM_PASSWORD)
    assert r.status_code == 200 and r.url.path == "/gm"
    assert browser(app, ELSEWHERE).get("/api/games", headers=gm_bearer()).status_code == 200


def test_many_addresses_lock_the_account_for_a_minute_at_most_and_never_the_gms_own(tmp_path: Path) -> None:
    clock = Clock()
    app = make_app(f"sqlite:///{tmp_path / 'games.db'}", clock)
    assert login(browser(app, GM_HOME), GM_PASSWORD).status_code == 200  # the GM's usual address
    failures, n = 0, 0
    while failures < 30:  # 30 failures from 30 addresses, each waiting out the account's lock
        n += 1
        r = login(browser(app, f"10.0.{n // 250}.{n % 250}"), "guess")
        if r.status_code == 429:
            assert int(r.headers["Retry-After"]) <= 60
            clock.advance(int(r.headers["Retry-After"]))
            continue
        assert r.status_code == 403
        failures += 1
    # a new address with the right password waits, at most a minute
    r = login(browser(app, ELSEWHERE), GM_PASSWORD)
    assert r.status_code == 429 and r.headers["Retry-After"] == "60"
    # the GM's own address is not locked out by others
    assert login(browser(app, GM_HOME), GM_PASSWORD).status_code == 200
    assert browser(app, GM_HOME).get("/api/games", headers=gm_bearer()).status_code == 200
    clock.advance(60)
    assert login(browser(app, ELSEWHERE), GM_PASSWORD).status_code == 200


def test_parallel_guesses_cannot_slip_past_the_count(tmp_path: Path) -> None:
    clock = Clock()
    app = make_app(f"sqlite:///{tmp_path / 'games.db'}", clock)
    start = threading.Barrier(12)
    codes: list[int] = []

    def guess(i: int) -> None:
        c = browser(app, ATTACKER)
        start.wait()
        codes.append(c.get("/api/games", headers=gm_bearer(f"guess-{i}")).status_code)

    threads = [threading.Thread(target=guess, args=(i,)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # each attempt is counted (and the lock checked) in one transaction before the
    # password is: exactly five are judged, however the requests interleave
    assert sorted(codes) == [403] * 5 + [429] * 7


def test_ipv6_clients_count_per_network(tmp_path: Path) -> None:
    clock = Clock()
    app = make_app(f"sqlite:///{tmp_path / 'games.db'}", clock)
    for i in range(5):  # five addresses of one /64: one client
        assert login(browser(app, f"2001:db8:1:2::{i + 1}"), "guess").status_code == 403
    assert login(browser(app, "2001:db8:1:2::99"), GM_PASSWORD).status_code == 429
    assert login(browser(app, "2001:db8:1:3::1"), GM_PASSWORD).status_code == 200

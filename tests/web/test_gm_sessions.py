"""GM sessions (finding 3.4): kept on the server under a random id; the cookie carries
nothing derived from the password; a new one at each login, gone at logout, ended by
time and by a new password; the CSRF token is the session's; only a slow hash of the
password is kept; GM pages and every authenticated answer are not cached; ``https``
makes the cookies Secure and adds HSTS."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from pathlib import Path

import pytest
import sqlalchemy as sa

from kingmaker.web import password as pw

from .apps import Clock, browser, gm_bearer, login, make_app, new_game
from .conftest import GAME, GM_PASSWORD, csrf_of


def _url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.db'}"


def test_the_cookies_hold_nothing_derived_from_the_password(tmp_path: Path) -> None:
    app = make_app(_url(tmp_path), Clock())
    gm = browser(app)
    assert login(gm, GM_PASSWORD).status_code == 200
    old_mark = hmac.new(b"kingmaker-gm-session", GM_PASSWORD.encode(), hashlib.sha256).hexdigest()
    for name, value in gm.cookies.items():
        assert old_mark not in value
        if name == "kingmaker_session":  # the signed browser session: base64 JSON, then a signature
            data = json.loads(base64.b64decode(value.split(".")[0] + "=="))
            assert "gm" not in data and old_mark not in json.dumps(data)
    session_id = gm.cookies["kingmaker_gm"]
    assert len(session_id) >= 40
    # the database keeps the id's SHA-256, never the id
    engine = sa.create_engine(_url(tmp_path))
    with engine.connect() as conn:
        rows = conn.execute(sa.text("SELECT id_hash FROM web_sessions")).scalars().all()
    engine.dispose()
    assert rows == [hashlib.sha256(session_id.encode()).hexdigest()]


def test_logout_ends_the_session_so_a_replayed_cookie_opens_nothing(tmp_path: Path) -> None:
    app = make_app(_url(tmp_path), Clock())
    new_game(app)
    gm = browser(app)
    assert login(gm, GM_PASSWORD).status_code == 200
    stolen = dict(gm.cookies)
    assert gm.get(f"/gm/games/{GAME}").status_code == 200
    token = csrf_of(gm.get("/gm").text)
    r = gm.post("/gm/logout", data={"csrf_token": token}, follow_redirects=False)
    assert r.status_code == 303 and "kingmaker_gm" not in gm.cookies
    thief = browser(app, "203.0.113.9")
    thief.cookies.update(stolen)
    r = thief.get(f"/gm/games/{GAME}", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/gm/login")


def test_each_login_starts_a_new_session_and_ends_the_old_one(tmp_path: Path) -> None:
    app = make_app(_url(tmp_path), Clock())
    gm = browser(app)
    assert login(gm, GM_PASSWORD).status_code == 200
    first, first_csrf = gm.cookies["kingmaker_gm"], csrf_of(gm.get("/gm").text)
    assert login(gm, GM_PASSWORD).status_code == 200
    second, second_csrf = gm.cookies["kingmaker_gm"], csrf_of(gm.get("/gm").text)
    assert first != second and first_csrf != second_csrf
    old = browser(app)
    old.cookies.set("kingmaker_gm", first)
    assert old.get("/gm", follow_redirects=False).status_code == 303
    # the CSRF token belongs to the session: the old session's token no longer works
    r = gm.post("/gm/games", data={"name": "X", "factions": "red, blue", "csrf_token": first_csrf})
    assert r.status_code == 403 and "reload the page" in r.text
    r = gm.post("/gm/games", data={"name": "X", "factions": "red, blue", "csrf_token": second_csrf})
    assert r.status_code == 200


def test_a_session_ends_after_12_idle_hours_or_7_days(tmp_path: Path) -> None:
    clock = Clock()
    app = make_app(_url(tmp_path), clock)
    gm = browser(app)
    assert login(gm, GM_PASSWORD).status_code == 200
    for _ in range(15):  # used every 11 hours: alive until 7 days (168 h) after the login
        clock.advance(11 * 3600)
        assert gm.get("/gm", follow_redirects=False).status_code == 200
    clock.advance(11 * 3600)  # 176 h: past the 7 days
    assert gm.get("/gm", follow_redirects=False).status_code == 303
    assert login(gm, GM_PASSWORD).status_code == 200
    clock.advance(12 * 3600 + 1)
    assert gm.get("/gm", follow_redirects=False).status_code == 303


def test_a_new_password_ends_every_gm_session(tmp_path: Path) -> None:
    clock = Clock()
    old = make_app(_url(tmp_path), clock)
    gm = browser(old)
    assert login(gm, GM_PASSWORD).status_code == 200
    same = make_app(_url(tmp_path), clock)  # another process, the same password: sessions live on
    assert gm.get("/gm", follow_redirects=False).status_code == 200
    make_app(_url(tmp_path), clock, password="a-new-password")  # restarted with a new password
    assert gm.get("/gm", follow_redirects=False).status_code == 303
    elsewhere = browser(same)
    elsewhere.cookies.update(dict(gm.cookies))
    assert elsewhere.get("/gm", follow_redirects=False).status_code == 303


def test_only_a_slow_hash_of_the_password_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(_url(tmp_path), Clock())
    engine = sa.create_engine(_url(tmp_path))
    with engine.connect() as conn:
        stored = conn.execute(sa.text("SELECT hash FROM web_credentials WHERE account = 'gm'")).scalar_one()
    engine.dispose()
    assert stored.startswith("scrypt$15$8$1$") and GM_PASSWORD not in stored
    found = pw.PasswordHash.decode(stored)
    assert found is not None and found.verify(GM_PASSWORD) and not found.verify(GM_PASSWORD + "x")
    # nothing the app keeps holds the password itself
    seen: set[int] = set()

    def holds_password(obj: object, depth: int = 0) -> bool:
        if id(obj) in seen or depth > 6:
            return False
        seen.add(id(obj))
        if isinstance(obj, str):
            return GM_PASSWORD in obj
        if isinstance(obj, bytes):
            return GM_PASSWORD.encode() in obj
        if isinstance(obj, dict):
            return any(holds_password(k, depth + 1) or holds_password(v, depth + 1) for k, v in obj.items())
        if isinstance(obj, list | tuple | set | frozenset):
            return any(holds_password(x, depth + 1) for x in obj)
        return hasattr(obj, "__dict__") and holds_password(vars(obj), depth + 1)

    assert not holds_password(app.state._state)
    # the API's Bearer gm:<password> pays scrypt once, then an HMAC
    calls = []
    real = pw._scrypt
    monkeypatch.setattr(pw, "_scrypt", lambda *a: calls.append(1) or real(*a))
    api = browser(app)
    for _ in range(20):
        assert api.get("/api/games", headers=gm_bearer()).status_code == 200
    assert len(calls) == 1
    assert api.get("/api/games", headers=gm_bearer("not-it")).status_code == 403
    assert len(calls) == 2


def test_gm_pages_and_authenticated_answers_are_not_cached(tmp_path: Path) -> None:
    app = make_app(_url(tmp_path), Clock())
    tokens = new_game(app)
    gm = browser(app)
    login(gm, GM_PASSWORD)
    for path in ("/gm", f"/gm/games/{GAME}", f"/gm/games/{GAME}/log", "/gm/login"):
        r = gm.get(path)
        assert r.status_code == 200 and r.headers["cache-control"] == "no-store", path
    api = browser(app)
    for headers in (gm_bearer(), {"Authorization": f"Bearer {tokens['red']}"}):
        r = api.get(f"/api/games/{GAME}/view", headers=headers)
        assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
    r = api.get(f"/play/{GAME}/{tokens['red']}")
    assert r.headers["cache-control"] == "no-store"
    assert "no-store" not in api.get("/static/app.css").headers.get("cache-control", "")


def test_https_makes_the_cookies_secure_and_adds_hsts(tmp_path: Path) -> None:
    app = make_app(_url(tmp_path), Clock(), https=True)
    gm = browser(app)
    token = csrf_of(gm.get("https://testserver/gm/login").text)
    r = gm.post(
        "https://testserver/gm/login",
        data={"password": GM_PASSWORD, "csrf_token": token, "next": "/gm"},
        follow_redirects=False,
    )
    assert r.status_code == 303
    cookies = r.headers.get_list("set-cookie")
    session = next(c for c in cookies if c.startswith("__Host-kingmaker_gm="))
    assert "; secure" in session.lower() and "httponly" in session.lower() and "path=/" in session.lower()
    assert "samesite=lax" in session.lower() and "domain" not in session.lower()
    assert all("secure" in c.lower() for c in cookies)
    assert r.headers["strict-transport-security"] == "max-age=31536000"
    assert gm.get("https://testserver/gm", follow_redirects=False).status_code == 200
    # without it: no HSTS (plain HTTP on localhost must keep working)
    plain = browser(make_app(f"sqlite:///{tmp_path / 'other.db'}", Clock()))
    assert "strict-transport-security" not in plain.get("/").headers

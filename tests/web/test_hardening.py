"""Hardening (finding 3.9, in part): a Content-Security-Policy on every answer and no
inline script to need it; the API docs' assets served from the package; seat links
from the configured base URL, never the ``Host`` header; the GM's data folder only
under a configured root."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from kingmaker.data import default_folder

from .apps import Clock, browser, gm_bearer, login, make_app, new_game
from .conftest import GAME, GM_PASSWORD, csrf_of

_INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I)
_HANDLER = re.compile(r"\son[a-z]+\s*=", re.I)


def test_every_answer_has_a_csp_and_no_page_needs_inline_script(tmp_path: Path) -> None:
    app = make_app(f"sqlite:///{tmp_path / 'games.db'}", Clock())
    tokens = new_game(app)
    gm = browser(app)
    assert login(gm, GM_PASSWORD).status_code == 200
    base = f"/play/{GAME}/{tokens['red']}"
    pages = [
        (gm, "/"),
        (gm, "/gm"),
        (gm, f"/gm/games/{GAME}"),
        (gm, f"/gm/games/{GAME}/log"),
        (gm, f"/gm/games/{GAME}/reports"),
        (browser(app), "/gm/login"),
        (browser(app), base),
        (browser(app), f"{base}/inbox"),
        (browser(app), f"{base}/log"),
        (browser(app), f"{base}/position"),
        (browser(app), "/api/docs"),
        (browser(app), "/no-such-page"),
    ]
    for c, path in pages:
        r = c.get(path)
        csp = r.headers.get("content-security-policy", "")
        policy = dict(p.strip().split(" ", 1) for p in csp.split(";") if p.strip())
        assert policy.get("script-src") == "'self'", (path, csp)
        assert policy.get("default-src") == "'none'" and policy.get("frame-ancestors") == "'none'"
        assert policy.get("style-src") == "'self'" and "unsafe-eval" not in csp
        assert not _INLINE_SCRIPT.search(r.text), (path, _INLINE_SCRIPT.search(r.text))
        assert not _HANDLER.search(r.text), (path, _HANDLER.search(r.text))
        assert "<style" not in r.text, path
    r = browser(app).get(f"/api/games/{GAME}/view", headers=gm_bearer())
    assert "script-src 'self'" in r.headers["content-security-policy"]


def test_the_api_docs_work_offline(tmp_path: Path) -> None:
    c = browser(make_app(f"sqlite:///{tmp_path / 'games.db'}", Clock()))
    r = c.get("/api/docs")
    assert r.status_code == 200 and "swagger-ui" in r.text
    assert "cdn" not in r.text and "jsdelivr" not in r.text and "http" not in r.text.replace("http-equiv", "")
    assets = re.findall(r'(?:src|href)="(/static/[^"]+)"', r.text)
    assert {"/static/swagger/swagger-ui-bundle.js", "/static/swagger/swagger-ui.css", "/static/swagger/init.js"} <= set(
        assets
    )
    for asset in assets:
        got = c.get(asset)
        assert got.status_code == 200 and len(got.content) > 100, asset
    assert "SwaggerUIBundle" in c.get("/static/swagger/swagger-ui-bundle.js").text
    assert "/api/openapi.json" in r.text
    assert "Apache License" in c.get("/static/swagger/LICENSE").text


def test_seat_links_come_from_the_base_url_not_the_host_header(tmp_path: Path) -> None:
    app = make_app(f"sqlite:///{tmp_path / 'games.db'}", Clock(), base_url="https://kingmaker.example/forum")
    new_game(app, ("red", "blue", "green"))
    evil = {"Host": "attacker.example", "X-Forwarded-Host": "attacker.example"}
    r = browser(app).post(
        f"/api/games/{GAME}/seats", json={"faction": "red", "player": "Mallory"}, headers={**gm_bearer(), **evil}
    )
    assert r.status_code == 201
    assert r.json()["link"] == f"https://kingmaker.example/forum/play/{GAME}/{r.json()['token']}"
    gm = browser(app)
    login(gm, GM_PASSWORD)
    token = csrf_of(gm.get("/gm").text)
    r = gm.post(f"/gm/games/{GAME}/seat", data={"faction": "blue", "player": "Eve", "csrf_token": token}, headers=evil)
    assert r.status_code == 200 and "attacker.example" not in r.text  # nor in the page's own links
    assert f'value="https://kingmaker.example/forum/play/{GAME}/' in r.text


def _create(app_client: object, folder: str) -> tuple[int, str]:
    r = app_client.post(  # type: ignore[attr-defined]
        "/api/games",
        json={"name": "Custom", "factions": ["red", "blue", "green"], "seed": "s", "data_folder": folder},
        headers=gm_bearer(),
    )
    return r.status_code, r.text


def test_no_data_folder_from_the_web_without_a_data_root(tmp_path: Path) -> None:
    outside = tmp_path / "anywhere"
    shutil.copytree(Path(str(default_folder())), outside)
    c = browser(make_app(f"sqlite:///{tmp_path / 'games.db'}", Clock()))
    status, text = _create(c, str(outside))
    assert status == 400 and "takes no data folder from the web" in text and "--data-root" in text
    status, _ = _create(c, "")  # the built-in data set is always there
    assert status == 201


@pytest.mark.parametrize(
    ("folder", "problem"),
    [
        ("../secret", "may not go up"),
        ("custom/../../secret", "may not go up"),
        ("/etc", "relative to the server's data root"),
        ("~/x", "relative to the server's data root"),
        ("escape", "leads outside the data root"),
        ("nothing-here", "no data folder 'nothing-here'"),
    ],
)
def test_a_data_folder_must_stay_under_the_data_root(tmp_path: Path, folder: str, problem: str) -> None:
    root, secret = tmp_path / "root", tmp_path / "secret"
    shutil.copytree(Path(str(default_folder())), root / "custom")
    shutil.copytree(Path(str(default_folder())), secret)
    (root / "escape").symlink_to(secret, target_is_directory=True)
    c = browser(make_app(f"sqlite:///{tmp_path / 'games.db'}", Clock(), data_root=root))
    status, text = _create(c, folder)
    assert status == 400 and problem in text, text
    status, text = _create(c, "custom")
    assert status == 201, text

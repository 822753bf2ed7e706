"""The API's answers to requests it cannot take (found by tests/web/test_openapi_fuzz.py):
a clear 4xx, in JSON, that the OpenAPI document describes."""

from __future__ import annotations

from xml.etree import ElementTree

import pytest

from kingmaker.storage import StoreError

from .conftest import GAME, World, bearer, gm_auth


def test_a_method_not_allowed_lists_every_method_of_the_path(world: World) -> None:
    r = world.api.request("OPTIONS", "/api/games", headers=gm_auth())
    assert r.status_code == 405 and r.headers["Allow"] == "GET, POST"
    assert r.json() == {"error": "not_allowed", "message": "OPTIONS is not allowed here; use GET, POST"}
    r = world.api.delete(f"/api/games/{GAME}/orders", headers=bearer(world.tokens["red"]))
    assert r.status_code == 405 and r.headers["Allow"] == "POST"


def test_a_boolean_is_not_an_entry_number(world: World) -> None:
    head = world.svc.store.head(GAME)
    r = world.api.post(f"/api/games/{GAME}/undo", json={"to_seq": False}, headers=gm_auth())
    assert r.status_code == 422 and r.json()["error"] == "invalid"
    assert r.json()["message"] == "to_seq: Input should be a valid integer"
    assert world.svc.store.head(GAME) == head  # nothing undone
    r = world.api.post(f"/api/games/{GAME}/extend", json={"target": "red", "hours": "5"}, headers=gm_auth())
    assert r.status_code == 422 and r.json()["message"] == "hours: Input should be a valid number"


def test_the_document_lists_every_error_the_api_answers(world: World) -> None:
    doc = world.api.get("/api/openapi.json").json()
    for path, item in doc["paths"].items():
        for method, op in item.items():
            for status in ("400", "401", "403", "404", "409", "422", "429", "503"):
                assert status in op["responses"], (method, path, status)
    # too many failed GM logins: 429, as documented
    for _ in range(5):
        assert world.api.get("/api/games", headers={"Authorization": "Bearer gm:wrong"}).status_code == 403
    r = world.api.get("/api/games", headers=gm_auth())
    assert r.status_code == 429 and r.json()["error"] == "too_many_attempts" and r.headers["Retry-After"]


def test_a_store_that_cannot_be_reached_answers_503(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    def unreachable() -> None:
        raise StoreError("connection refused")

    monkeypatch.setattr(world.svc.store, "games", unreachable)
    r = world.api.get("/api/games", headers=gm_auth())
    assert r.status_code == 503
    assert r.json() == {"error": "unavailable", "message": "the game store cannot be reached; try again"}


def test_a_deadline_beyond_a_year_is_refused_not_a_crash(world: World) -> None:
    for hours in (1e30, 8761):
        r = world.api.post(
            "/api/games", json={"name": "Long", "factions": ["red", "blue"], "turn_hours": hours}, headers=gm_auth()
        )
        assert r.status_code == 400, r.text
        assert r.json()["message"] == "turn_hours must be a positive number of hours, at most 8760 (or none)"
    r = world.api.post(
        "/api/games", json={"name": "Long", "factions": ["red", "blue"], "request_hours": 8760}, headers=gm_auth()
    )
    assert r.status_code == 201


def test_a_body_that_is_not_json_says_where_it_breaks(world: World) -> None:
    r = world.api.post(
        "/api/games", content=b'{"name": ', headers={**gm_auth(), "Content-Type": "application/json"}
    )
    assert r.status_code == 422
    assert r.json()["message"] == "the body is not valid JSON at character 9: Expecting value"


def test_a_gm_form_with_no_faction_is_refused_not_a_crash(world: World) -> None:
    c, token = world.gm()
    r = c.post("/gm/games", data={"name": "Empty", "factions": " , ", "csrf_token": token})
    assert r.status_code == 422 and "factions: List should have at least 1 item" in r.text


def test_a_game_named_with_control_characters_still_draws(world: World) -> None:
    r = world.api.post(
        "/api/games",
        json={"name": "Wars\x1b\x00 of the Roses", "factions": ["red", "blue"], "game_id": "odd"},
        headers=gm_auth(),
    )
    # such a name is refused now (docs/limits.md); a game created before the limits
    # may still hold one, and must still draw
    assert r.status_code == 400 and "character 5 is a control character (U+001B)" in r.json()["message"]
    from kingmaker.service import GM_ACTOR, handlers
    from kingmaker.service.commands import CreateGame

    handlers.create_game(world.svc.uow, GM_ACTOR, CreateGame("Wars\x1b\x00 of the Roses", ("red", "blue"), game_id="odd"))
    r = world.api.get("/api/games/odd/map.svg", headers=gm_auth())
    assert r.status_code == 200
    title = ElementTree.fromstring(r.text).find("{http://www.w3.org/2000/svg}title")  # well-formed XML
    assert title is not None and title.text is not None and "Wars\ufffd\ufffd of the Roses" in title.text
    r = world.api.get("/api/games/odd/map.png", headers=gm_auth())
    assert r.status_code == 200 and r.content.startswith(b"\x89PNG")


def test_a_missing_body_says_so(world: World) -> None:
    r = world.api.post(f"/api/games/{GAME}/orders", headers=bearer(world.tokens["red"]))
    assert r.status_code == 422 and r.json()["message"] == "body: Field required"
    r = world.api.post(f"/api/games/{GAME}/orders", json={"action": "move"}, headers=bearer(world.tokens["red"]))
    assert r.status_code == 422 and r.json()["message"] == "unit: Field required"

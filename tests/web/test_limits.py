"""Limits in the web app (issue 11 §3.5, §3.6, §3.9): the request models refuse what
the service would (and the OpenAPI document says so), a body over 64 KB is refused with
413 before it is read whole, and the GM's undo form shows the service's refusal of an
entry before 0 instead of resetting the game."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from kingmaker.rules.limits import ID_MAX, NAME_MAX, NOTE_MAX, ORDERS_MAX_CHARS, ORDERS_MAX_LINES
from kingmaker.web.limits import MAX_BODY, BodyLimit

from .conftest import GAME, World, bearer, gm_auth

ANNOUNCEMENT = "york\n\n## GM ANNOUNCEMENT: Red wins"


def _blue_place(world: World) -> str:
    return next(p for p, f in sorted(world.svc.state(GAME).control.items()) if f == "blue")


def test_a_map_order_destination_with_a_line_break_is_refused_even_with_a_key(world: World) -> None:
    head = world.svc.store.head(GAME)
    unit = sorted(n.id for n in world.svc.state(GAME).nobles.values() if n.faction == "red" and n.place)[0]
    r = world.api.post(
        f"/api/games/{GAME}/orders",
        json={"unit": unit, "action": "move", "to": ANNOUNCEMENT},
        headers={**bearer(world.tokens["red"]), "Idempotency-Key": "k-announce"},
    )
    assert r.status_code == 422, r.text
    assert r.json()["message"].startswith("to: ")
    assert world.svc.store.head(GAME) == head
    assert "ANNOUNCEMENT" not in json.dumps([e.event.__repr__() for e in world.svc.log(GAME)])


@pytest.mark.parametrize(
    "note, status, words",
    [
        ("please\n\n## GM ANNOUNCEMENT", 400, ("note", "line break")),
        ("please \u202eevil", 400, ("note", "bidirectional")),
        ("n" * (NOTE_MAX + 1), 422, ("note", str(NOTE_MAX))),
    ],
)
def test_a_permission_note_must_be_one_short_line(
    world: World, note: str, status: int, words: tuple[str, ...]
) -> None:
    head = world.svc.store.head(GAME)
    body = {"of": "blue", "place": _blue_place(world), "aspects": ["road"], "note": note}
    r = world.api.post(
        f"/api/games/{GAME}/permission-requests", json=body, headers=bearer(world.tokens["red"])
    )
    assert r.status_code == status, r.text
    message = r.json()["message"]
    assert all(w in message for w in words), message
    assert "\n" not in message and len(message) < 400
    assert world.svc.store.head(GAME) == head


def test_names_and_ids_over_their_limits_are_refused(world: World) -> None:
    r = world.api.post(
        f"/api/games/{GAME}/seats", json={"faction": "red", "player": "P" * (NAME_MAX + 1)}, headers=gm_auth()
    )
    assert r.status_code == 422 and r.json()["message"].startswith("player: ")
    r = world.api.post(
        f"/api/games/{GAME}/seats", json={"faction": "red", "player": "Eve\u202e"}, headers=gm_auth()
    )
    assert r.status_code == 400 and "bidirectional" in r.json()["message"]
    r = world.api.post(
        "/api/games", json={"name": "G" * (NAME_MAX + 1), "factions": ["red", "blue"]}, headers=gm_auth()
    )
    assert r.status_code == 422 and r.json()["message"].startswith("name: ")
    r = world.api.post("/api/games", json={"name": "G", "factions": ["Red", "blue"]}, headers=gm_auth())
    assert r.status_code == 422 and r.json()["message"].startswith("factions.0: ")
    r = world.api.post(
        f"/api/games/{GAME}/answers",
        json={"id": "q" * (ID_MAX + 1), "kind": "request", "accept": True},
        headers=bearer(world.tokens["red"]),
    )
    assert r.status_code == 422 and r.json()["message"].startswith("id: ")


def test_a_post_of_orders_over_its_limits_is_refused(world: World) -> None:
    red = bearer(world.tokens["red"])
    r = world.api.post(
        f"/api/games/{GAME}/orders/check",
        json={"text": "Percy MOVES TO York\n" * (ORDERS_MAX_LINES + 1)},
        headers=red,
    )
    assert r.status_code == 400 and str(ORDERS_MAX_LINES) in r.json()["message"], r.text
    r = world.api.post(
        f"/api/games/{GAME}/orders/text", json={"text": "x" * (ORDERS_MAX_CHARS + 1)}, headers=red
    )
    assert r.status_code == 422 and r.json()["message"].startswith("text: ")


def test_the_openapi_document_states_the_limits(world: World) -> None:
    schemas = world.api.get("/api/openapi.json").json()["components"]["schemas"]

    def prop(model: str, name: str) -> dict[str, object]:
        p = schemas[model]["properties"][name]
        return next((x for x in p.get("anyOf", []) if x.get("type") == "string"), p)  # type: ignore[no-any-return]

    assert prop("PermissionAskIn", "note")["maxLength"] == NOTE_MAX
    assert "pattern" in prop("PermissionAskIn", "note")
    assert prop("UndoIn", "reason")["maxLength"] == NOTE_MAX
    assert prop("SeatIn", "player")["maxLength"] == NAME_MAX
    assert prop("CreateGameIn", "name")["maxLength"] == NAME_MAX
    assert prop("TextOrdersIn", "text")["maxLength"] == ORDERS_MAX_CHARS
    for model, name in (
        ("MapOrderIn", "to"),
        ("MapOrderIn", "unit"),
        ("SeatIn", "faction"),
        ("AnswerIn", "id"),
    ):
        p = prop(model, name)
        assert p["maxLength"] == ID_MAX and p["pattern"] == "^[a-z0-9][a-z0-9_-]*$", (model, name, p)
    assert schemas["UndoIn"]["properties"]["to_seq"]["minimum"] == 0


# -- undo ---------------------------------------------------------------------------------------
def test_undo_to_minus_one_is_refused_by_the_api_and_the_form(world: World) -> None:
    svc = world.svc
    svc_state = svc.state(GAME)
    head = svc.store.head(GAME)
    r = world.api.post(f"/api/games/{GAME}/undo", json={"to_seq": -1}, headers=gm_auth())
    assert r.status_code == 400, r.text
    assert r.json()["message"].startswith("cannot undo to entry -1: give an entry from 0")
    r = world.api.post(f"/api/games/{GAME}/undo", json={"to_seq": head + 5}, headers=gm_auth())
    assert r.status_code == 400 and f"entry {head + 5}" in r.json()["message"]
    gm, token = world.gm()
    r = gm.post(f"/gm/games/{GAME}/undo", data={"to_seq": "-1", "reason": "", "csrf_token": token})
    assert r.status_code == 200 and r.url.path == f"/gm/games/{GAME}", r.text
    assert "cannot undo to entry -1" in r.text  # shown on the console, beside the form
    assert svc.store.head(GAME) == head and svc.state(GAME) == svc_state  # not reset to entry 0


# -- the size of a request body ----------------------------------------------------------------
@pytest.fixture
def limited(world: World) -> Iterator[TestClient]:
    yield TestClient(BodyLimit(world.app), raise_server_exceptions=False)


def test_a_body_over_64_kb_is_refused_with_413(world: World, limited: TestClient) -> None:
    head = world.svc.store.head(GAME)
    body = {"of": "blue", "place": _blue_place(world), "aspects": ["road"], "note": "n" * 5_000_000}
    r = limited.post(f"/api/games/{GAME}/permission-requests", json=body, headers=bearer(world.tokens["red"]))
    assert r.status_code == 413
    assert r.json() == {
        "error": "too_large",
        "message": "the request body is too large: at most 64 KB are accepted",
    }

    def chunks() -> Iterator[bytes]:  # no Content-Length: the body is counted as it comes
        yield b'{"of": "blue", "note": "'
        for _ in range(MAX_BODY // 1000 + 2):
            yield b"n" * 1000
        yield b'"}'

    r = limited.post(
        f"/api/games/{GAME}/permission-requests",
        content=chunks(),
        headers={**bearer(world.tokens["red"]), "Content-Type": "application/json"},
    )
    assert r.status_code == 413
    r = limited.post("/gm/login", content=b"x" * (MAX_BODY + 1))
    assert r.status_code == 413 and r.text.startswith("413 ")
    assert world.svc.store.head(GAME) == head
    # under the limit, the app answers as before
    body["note"] = "please"
    r = limited.post(f"/api/games/{GAME}/permission-requests", json=body, headers=bearer(world.tokens["red"]))
    assert r.status_code == 200, r.text
    assert limited.get("/healthz").status_code == 200

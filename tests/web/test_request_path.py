"""The player's request path: a seat found by its token's hash (``_seated``), and JSON
answers written in the endpoint's thread (``jsonout.json_answer``) as FastAPI would."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from kingmaker.service import GM_ACTOR
from kingmaker.service.commands import CreateGame, SeatPlayer
from kingmaker.web import schemas as s

from .conftest import FACTIONS, GAME, World, bearer, gm_auth


def test_a_token_opens_only_its_own_seat_in_its_own_game(world: World) -> None:
    api = world.api
    red = bearer(world.tokens["red"])
    assert api.get(f"/api/games/{GAME}/view", headers=red).json()["viewer"] == "red"
    world.svc.execute(GM_ACTOR, CreateGame("Other", FACTIONS, seed="x", game_id="other"))
    r = api.get("/api/games/other/view", headers=red)  # a seat of another game
    assert r.status_code == 403 and r.json()["error"] == "forbidden"
    assert api.get("/api/games/nosuch/view", headers=red).status_code == 404
    assert api.get(f"/api/games/{GAME}/view", headers=bearer("x" * 40)).status_code == 403
    assert api.get(f"/play/{GAME}/{'y' * 40}").status_code == 403


def test_a_new_seat_ends_the_old_token(world: World) -> None:
    api = world.api
    old = world.tokens["blue"]
    out = world.svc.execute(GM_ACTOR, SeatPlayer(GAME, "blue", "Someone else"))
    assert out.token
    assert api.get(f"/api/games/{GAME}/pending", headers=bearer(old)).status_code == 403
    assert api.get(f"/play/{GAME}/{old}").status_code == 403
    r = api.get(f"/api/games/{GAME}/pending", headers=bearer(out.token))
    assert r.status_code == 200 and r.json() == []


def _same_as_fastapi(body: bytes, model: Any) -> None:
    """``body`` is what FastAPI's own serializer writes for the value it holds."""
    adapter: TypeAdapter[Any] = TypeAdapter(model)
    assert adapter.dump_json(adapter.validate_json(body), by_alias=True) == body


def test_json_answers_are_the_models_json(world: World) -> None:
    api = world.api
    red = bearer(world.tokens["red"])
    r = api.post(f"/api/games/{GAME}/orders/text", json={"text": "Red ALLIES WITH Blue\nhello"}, headers=red)
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    assert r.headers["content-length"] == str(len(r.content))
    _same_as_fastapi(r.content, list[s.VerdictOut])
    assert r.json()[0]["result"] == "pending"
    r = api.get(f"/api/games/{GAME}/view", headers=red)
    _same_as_fastapi(r.content, s.ViewOut)
    r = api.post(
        "/api/games",
        json={"name": "More", "factions": ["red", "blue"], "seed": "m", "game_id": "more"},
        headers=gm_auth(),
    )
    assert r.status_code == 201  # the route's own status
    _same_as_fastapi(r.content, s.OutcomeOut)
    r = api.post("/api/games/more/seats", json={"faction": "red", "player": "P"}, headers=gm_auth())
    assert r.status_code == 201 and r.json()["token"]


def test_the_openapi_schema_still_names_the_models(world: World) -> None:
    spec = world.api.get("/api/openapi.json").json()
    text = spec["paths"]["/api/games/{game}/orders/text"]["post"]
    ok = text["responses"]["200"]["content"]["application/json"]["schema"]
    assert ok["items"]["$ref"].endswith("/VerdictOut")
    assert "requestBody" in text
    names = {p["name"] for p in spec["paths"]["/api/games/{game}/view"]["get"]["parameters"]}
    assert names == {"game", "faction"}
    assert "201" in spec["paths"]["/api/games"]["post"]["responses"]

"""The JSON API and its OpenAPI document; the map as SVG and PNG."""

from __future__ import annotations

import io

from PIL import Image

from kingmaker.render.map import Styles, build_map, geometry, pillow_png, svg
from kingmaker.rules.board import PlaceKind
from kingmaker.rules.views import view

from .conftest import GAME, World, bearer, gm_auth

PNG = b"\x89PNG\r\n\x1a\n"


def test_the_openapi_document_loads(world: World) -> None:
    r = world.api.get("/api/openapi.json")
    assert r.status_code == 200
    doc = r.json()
    assert doc["openapi"].startswith("3.")
    paths = doc["paths"]
    for p in (
        "/api/games",
        "/api/games/{game}/view",
        "/api/games/{game}/units/{unit}/destinations",
        "/api/games/{game}/orders",
        "/api/games/{game}/orders/check",
        "/api/games/{game}/orders/text",
        "/api/games/{game}/pending",
        "/api/games/{game}/answers",
        "/api/games/{game}/log",
        "/api/games/{game}/reports",
        "/api/games/{game}/map.png",
        "/api/games/{game}/seats",
        "/api/games/{game}/undo",
    ):
        assert p in paths, p
    schemas = doc["components"]["schemas"]
    for name in (
        "MapOrderIn",
        "OutcomeOut",
        "ViewOut",
        "DestinationsOut",
        "VerdictOut",
        "PendingOut",
        "ErrorOut",
    ):
        assert name in schemas, name
    assert not any(p.startswith(("/play", "/gm")) for p in paths)  # the pages are not API
    assert world.api.get("/api/docs").status_code == 200


def test_the_png_endpoint_returns_a_png(world: World) -> None:
    r = world.api.get(f"/api/games/{GAME}/map.png", headers=bearer(world.tokens["red"]))
    assert r.status_code == 200 and r.headers["content-type"] == "image/png" and r.content.startswith(PNG)
    img = Image.open(io.BytesIO(r.content))
    assert img.width > 800 and img.height > 800
    # the GM's export for the forum post: the public view
    gm, _ = world.gm()
    r = gm.get(f"/gm/games/{GAME}/map.png")
    assert r.status_code == 200 and r.content.startswith(PNG)
    # a player's page link too
    r = world.client().get(world.page("red") + "/map.png")
    assert r.status_code == 200 and r.content.startswith(PNG)


def test_pillow_draws_the_same_map_without_cairo(world: World) -> None:
    state = world.svc.state(GAME)
    model = build_map(
        state.board, state.catalog, view(state, "public"), Styles({}, {}), geometry(state.board)
    )
    data = pillow_png(model, scale=1.0)
    assert data.startswith(PNG)
    assert Image.open(io.BytesIO(data)).size == (model.width, model.height)


def test_the_map_draws_places_by_kind_roads_seas_and_control(world: World) -> None:
    world.api.post(
        f"/api/games/{GAME}/control", json={"place": "bristol", "faction": "blue"}, headers=gm_auth()
    )
    r = world.api.get(f"/api/games/{GAME}/map.svg", headers=bearer(world.tokens["red"]))
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    text = r.text
    for kind in PlaceKind:
        assert f"kind-{kind.value}" in text, kind
    for sea in ("North Sea", "Irish Sea", "English Channel", "Bristol Channel"):
        assert sea in text
    assert 'class="roads"' in text and 'class="land"' in text and "<polygon" in text
    assert "Calais" in text and "Dublin" in text and "off-map" in text
    blue = world.svc.settings(GAME).faction("blue").colour
    bristol = text.split('data-place="bristol"')[1].split("</g>")[0]
    assert f'fill="{blue}"' in bristol and "controlled by Blue" in bristol
    assert 'class="unit noble' in text and 'class="unit ship' in text and 'class="unit heir' in text
    assert "<title>" in text and "data-details=" in text


def test_map_model_is_built_from_the_view_only(world: World) -> None:
    state = world.svc.state(GAME)
    st = Styles.of(world.svc.settings(GAME).factions)
    model = build_map(state.board, state.catalog, view(state, "red"), st, geometry(state.board))
    again = build_map(state.board, state.catalog, view(state, "blue"), st, geometry(state.board))
    # no secret differs between them in a fresh game: the same drawing for every faction
    assert svg(model) == svg(again)


def test_reports_log_and_view_through_the_api(world: World) -> None:
    red = bearer(world.tokens["red"])
    world.api.post(f"/api/games/{GAME}/orders/text", json={"text": "Red ALLIES WITH Blue AS rb"}, headers=red)
    world.api.post(f"/api/games/{GAME}/finish-turn", headers=red)
    rep = world.api.get(f"/api/games/{GAME}/reports", params={"format": "bbcode"}, headers=red)
    assert rep.status_code == 200
    body = rep.json()
    assert body["round"] == 1 and body["turn"] == "red" and body["private_report"]
    assert "[b]" in body["turn_report"] or "[color" in body["turn_report"]
    log = world.api.get(f"/api/games/{GAME}/log", headers=red).json()
    assert any(e["rule"] == "ALLY.2" for e in log) and all(e["command"] is None for e in log)
    gm_log = world.api.get(f"/api/games/{GAME}/log", headers=gm_auth()).json()
    assert any(e["command"] for e in gm_log)
    v = world.api.get(f"/api/games/{GAME}/view", headers=red).json()
    assert v["viewer"] == "red" and v["turn"] == "blue" and v["seed"] is None
    game = world.api.get(f"/api/games/{GAME}", headers=red).json()
    assert [f["id"] for f in game["factions"]] == ["red", "blue", "green", "gold"] and "seed" not in game
    status = world.api.get(f"/api/games/{GAME}/status", headers=gm_auth()).json()
    assert status["ordered"] == {"red": False, "blue": False, "green": False, "gold": False}  # a new turn
    assert sorted(s["faction"] for s in status["seats"]) == ["blue", "gold", "green", "red"]

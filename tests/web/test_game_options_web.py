"""Game options (FULL_GAME §1, ``rules.options``) on the web, on a real SQLite store:
the JSON API's create-game body (``options``, in the OpenAPI document), a bad option
refused with the allowed values and nothing created, and the GM console's create form
(a field per option, its default shown) and game page (the options in force)."""

from __future__ import annotations

from kingmaker.rules.options import OPTIONS

from .conftest import World, bearer, csrf_of, gm_auth

FOUR = ["red", "blue", "green", "gold"]


def _create(world: World, game: str, **body: object) -> tuple[int, dict[str, object]]:
    r = world.api.post(
        "/api/games",
        json={"name": "Options", "factions": FOUR, "seed": "o", "game_id": game, **body},
        headers=gm_auth(),
    )
    return r.status_code, r.json()


def test_the_api_creates_a_game_with_options(world: World) -> None:
    code, out = _create(
        world, "opt", options={"heir_survival": True, "victory_hold_turns": 4, "parliament": "basic"}
    )
    assert code == 201, out
    chosen = {"parliament": "basic", "heir_survival": "on", "victory_hold_turns": "4"}
    assert dict(world.svc.state("opt").options) == chosen
    game = world.api.get("/api/games/opt", headers=gm_auth()).json()
    assert game["options"] == {o.name: chosen.get(o.name, o.default) for o in OPTIONS}
    # public: a player of the game may read them
    r = world.api.post("/api/games/opt/seats", json={"faction": "red", "player": "R"}, headers=gm_auth())
    token = r.json()["token"]
    assert world.api.get("/api/games/opt", headers=bearer(token)).json()["options"] == game["options"]


def test_a_game_without_options_has_the_defaults(world: World) -> None:
    code, out = _create(world, "plain")
    assert code == 201, out
    assert dict(world.svc.state("plain").options) == {}
    assert "options" not in world.svc.store.game("plain").settings
    game = world.api.get("/api/games/plain", headers=gm_auth()).json()
    assert game["options"] == {o.name: o.default for o in OPTIONS}
    hand = world.api.get("/api/games/wars", headers=gm_auth()).json()
    assert hand["options"] == {}  # adjudicated by hand: the options do not apply


def test_a_bad_option_is_refused_with_the_allowed_values(world: World) -> None:
    for options, needles, status in (
        ({"heir_survival": "maybe"}, ["heir_survival", "on, off"], 400),
        ({"deaths_per_side": 2}, ["deaths_per_side", "all, 1"], 400),
        ({"victory_hold_turns": 1000}, ["victory_hold_turns", "whole number"], 400),
        ({"crowning": "on"}, ["crowning", "parliament", "two_houses_limit"], 400),
        ({"heir_survival": ["on"]}, ["options"], 422),
    ):
        code, out = _create(world, "bad", options=options)
        assert code == status, (options, out)
        text = str(out)
        for needle in needles:
            assert needle in text, (options, out)
    code, out = _create(world, "bad", options={"heir_survival": "on"}, full_game=False)
    assert code == 400 and "full game only" in str(out), out
    assert world.api.get("/api/games/bad", headers=gm_auth()).status_code == 404


def test_the_openapi_document_describes_the_options(world: World) -> None:
    schemas = world.api.get("/api/openapi.json").json()["components"]["schemas"]
    prop = schemas["CreateGameIn"]["properties"]["options"]
    for o in OPTIONS:
        assert o.name in prop["description"] and o.default in prop["description"]
    assert "options" in schemas["GameOut"]["properties"]


def test_the_gm_console_form_creates_a_game_with_options(world: World) -> None:
    gm, token = world.gm()
    page = gm.get("/gm").text
    for o in OPTIONS:
        assert f'name="option_{o.name}"' in page, o.name
    assert '<option value="off" selected>off (default)</option>' in page
    assert 'name="option_victory_hold_turns" inputmode="numeric" pattern="[0-9]{1,2}" value="0"' in page
    defaults = {f"option_{o.name}": o.default for o in OPTIONS}
    form = {"name": "Console", "factions": "red, blue, green", "csrf_token": token}
    r = gm.post("/gm/games", data={**form, **defaults, "game_id": "c1", "option_two_houses_limit": "on"})
    assert r.status_code == 200 and r.url.path == "/gm/games/c1", r.text
    assert dict(world.svc.state("c1").options) == {"two_houses_limit": "on"}
    assert "Options in force" in r.text and "<code>two_houses_limit</code> on" in r.text
    # every field at its default: no option chosen, the game as one made without the form's fields
    r = gm.post("/gm/games", data={**form, **defaults, "game_id": "c2"})
    assert r.status_code == 200 and dict(world.svc.state("c2").options) == {}
    r = gm.post("/gm/games", data={**form, **defaults, "game_id": "c3", "option_parliament": "votes"})
    assert r.status_code == 400 and "voting, basic" in r.text
    assert world.api.get("/api/games/c3", headers=gm_auth()).status_code == 404
    assert csrf_of(gm.get("/gm").text)

"""Who may do what: a player's token acts only for their faction; the GM's credentials
are separate; every page form carries a CSRF token; errors are JSON for the API."""

from __future__ import annotations

import pytest

from kingmaker.log.service_events import LineUnread

from .conftest import GAME, World, bearer, gm_auth


def _some_unit(world: World, faction: str) -> str:
    state = world.svc.state(GAME)
    return sorted(n.id for n in state.nobles.values() if n.faction == faction and n.place)[0]


def test_a_player_token_cannot_act_for_another_faction(world: World) -> None:
    red = bearer(world.tokens["red"])
    blue_unit = _some_unit(world, "blue")
    # an order for Blue's unit, or given in Blue's name
    r = world.api.post(f"/api/games/{GAME}/orders", json={"unit": blue_unit, "action": "enter"}, headers=red)
    assert r.status_code == 403 and r.json()["error"] == "forbidden"
    red_unit = _some_unit(world, "red")
    r = world.api.post(
        f"/api/games/{GAME}/orders", json={"unit": red_unit, "action": "leave", "by": "blue"}, headers=red
    )
    assert r.status_code == 403
    r = world.api.post(
        f"/api/games/{GAME}/orders/text", json={"text": "Blue ALLIES WITH Green", "by": "blue"}, headers=red
    )
    assert r.status_code == 403
    r = world.api.get(f"/api/games/{GAME}/units/{blue_unit}/destinations", headers=red)
    assert r.status_code == 403
    # a labelled line for another faction is refused by the reader: no order is sent, and
    # the log keeps only red's words, for red's and the GM's eyes
    head = world.svc.store.head(GAME)
    rows = world.api.post(
        f"/api/games/{GAME}/orders/text", json={"text": "Blue: Blue ALLIES WITH Green"}, headers=red
    ).json()
    assert rows[0]["result"] == "syntax" and world.svc.store.head(GAME) == head + 1
    [kept] = [e.event for e in world.svc.log(GAME) if e.seq > head]
    assert isinstance(kept, LineUnread) and kept.by == "red"
    # answering for Blue
    world.api.post(
        f"/api/games/{GAME}/orders/text",
        json={"text": "Green ALLIES WITH Blue AS green-gb"},
        headers=bearer(world.tokens["green"]),
    )
    r = world.api.post(
        f"/api/games/{GAME}/answers",
        json={"id": "green-gb", "kind": "declaration", "accept": True, "by": "blue"},
        headers=red,
    )
    assert r.status_code == 403
    assert "green-gb" in world.svc.state(GAME).declarations


def test_a_player_cannot_read_another_factions_inbox_or_view(world: World) -> None:
    red = bearer(world.tokens["red"])
    for path in ("pending", "view", "reports", "map.svg", "map.png"):
        r = world.api.get(f"/api/games/{GAME}/{path}", params={"faction": "blue"}, headers=red)
        assert r.status_code == 403, path
        assert r.json()["error"] == "forbidden"
    assert (
        world.api.get(f"/api/games/{GAME}/pending", params={"faction": "gm"}, headers=red).status_code == 403
    )
    # their own is fine, and the GM may look as anyone
    assert (
        world.api.get(f"/api/games/{GAME}/pending", params={"faction": "red"}, headers=red).status_code == 200
    )
    assert (
        world.api.get(f"/api/games/{GAME}/pending", params={"faction": "blue"}, headers=gm_auth()).status_code
        == 200
    )


def test_gm_only_actions_are_refused_for_players(world: World) -> None:
    red = bearer(world.tokens["red"])
    posts = {
        "seats": {"faction": "red", "player": "Mallory"},
        "extend": {"target": "red", "hours": 5},
        "undo": {"to_seq": 1},
        "tick": None,
        "storm": {"ship": "x", "into": "cardiff"},
        "control": {"place": "bristol", "faction": "red"},
    }
    for path, body in posts.items():
        r = world.api.post(f"/api/games/{GAME}/{path}", json=body, headers=red)
        assert r.status_code == 403, path
        assert set(r.json()) == {"error", "message"}
    assert world.api.get(f"/api/games/{GAME}/status", headers=red).status_code == 403
    assert world.api.get("/api/games", headers=red).status_code == 403
    r = world.api.post("/api/games", json={"name": "x", "factions": ["red", "blue", "green"]}, headers=red)
    assert r.status_code == 403
    # no credentials at all: 401; wrong GM password: 403
    assert world.api.get("/api/games").status_code == 401
    assert world.api.get("/api/games", headers={"Authorization": "Bearer gm:nope"}).status_code == 403
    assert world.api.get("/api/games", headers=gm_auth()).status_code == 200
    # the GM console's pages and forms need the GM's login, not a player's link
    c, token = world.player("red")
    r = c.post(
        f"/gm/games/{GAME}/control",
        data={"place": "bristol", "faction": "red", "csrf_token": token},
        follow_redirects=False,
    )
    assert r.status_code == 303 and r.headers["location"].startswith("/gm/login")
    assert world.svc.state(GAME).control.get("bristol") != "red"


@pytest.mark.parametrize("how", ["none", "wrong", "other-session"])
def test_csrf_refuses_a_post_without_the_sessions_token(world: World, how: str) -> None:
    c, token = world.player("red")
    base = world.page("red")
    data = {"text": "Red ALLIES WITH Blue"}
    if how == "wrong":
        data["csrf_token"] = "x" * 43
    elif how == "other-session":
        _, data["csrf_token"] = world.player("red")
    head = world.svc.store.head(GAME)
    r = c.post(f"{base}/send", data=data)
    assert r.status_code == 403 and "reload the page" in r.text
    assert world.svc.store.head(GAME) == head
    r = c.post(f"{base}/finish", data={}, headers={"X-CSRF-Token": "nope"})
    assert r.status_code == 403 and world.svc.state(GAME).turn == "red"
    # with htmx the refusal is a small alert shown in the page's error region
    r = c.post(f"{base}/send", data=data, headers={"HX-Request": "true"})
    assert r.status_code == 403 and r.headers["HX-Retarget"] == "#htmx-errors" and 'role="alert"' in r.text
    assert "<html" not in r.text
    # with the token the same post goes through
    r = c.post(f"{base}/send", data={"text": "Red ALLIES WITH Blue", "csrf_token": token})
    assert r.status_code == 200 and world.svc.store.head(GAME) > head


def test_gm_forms_need_csrf_too(world: World) -> None:
    c = world.client()
    r = c.post("/gm/login", data={"password": "crown-and-sceptre"})
    assert r.status_code == 403
    gm, _token = world.gm()
    r = gm.post(f"/gm/games/{GAME}/control", data={"place": "bristol", "faction": "red"})
    assert r.status_code == 403 and world.svc.state(GAME).control.get("bristol") != "red"


def test_api_errors_are_json_and_never_a_traceback(world: World) -> None:
    red = bearer(world.tokens["red"])
    r = world.api.get("/api/games/nogame/view", headers=red)
    assert r.status_code == 404 and r.json()["error"] == "not_found"
    r = world.api.post(f"/api/games/{GAME}/orders", json={"unit": "nobody", "action": "fly"}, headers=red)
    assert r.status_code == 422 and r.json()["error"] == "invalid"
    r = world.api.post(f"/api/games/{GAME}/orders", json={"unit": "nobody", "action": "enter"}, headers=red)
    assert r.status_code == 404 and r.json()["error"] == "not_found"
    r = world.api.post(f"/api/games/{GAME}/extend", json={"target": "nothing", "hours": 2}, headers=gm_auth())
    assert r.status_code == 404 and "Traceback" not in r.text
    r = world.api.get("/api/nothing-here", headers=red)
    assert r.status_code == 404 and r.json()["error"] == "not_found"

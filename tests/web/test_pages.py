"""The pages render for the GM and for players, with accessible structure, UTC times
and no traceback on errors."""

from __future__ import annotations

import re

from .conftest import GAME, World, bearer, csrf_of


def test_home_and_static_files(world: World) -> None:
    c = world.client()
    r = c.get("/")
    assert r.status_code == 200 and "Kingmaker" in r.text
    js = c.get("/static/htmx.min.js")
    assert js.status_code == 200 and "htmx" in js.text[:200]
    assert c.get("/static/app.css").status_code == 200
    assert c.get("/static/app.js").status_code == 200


def test_gm_pages_need_a_login_and_render_after_it(world: World) -> None:
    c = world.client()
    r = c.get("/gm", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/gm/login")
    r = c.get("/gm/login")
    bad = c.post("/gm/login", data={"password": "wrong", "csrf_token": csrf_of(r.text)})
    assert bad.status_code == 403 and "not the GM" in bad.text
    gm, _ = world.gm()
    index = gm.get("/gm")
    assert index.status_code == 200 and f'href="/gm/games/{GAME}"' in index.text
    console = gm.get(f"/gm/games/{GAME}")
    assert console.status_code == 200
    for part in (
        "Who plays",
        "Seat a player",
        "Storm",
        "Set control",
        "Undo",
        "Orders as text",
        'class="map"',
    ):
        assert part in console.text, part
    assert '<time class="utc" datetime="' in console.text
    assert gm.get(f"/gm/games/{GAME}/log").status_code == 200
    reports = gm.get(f"/gm/games/{GAME}/reports")
    assert reports.status_code == 200 and "BBCode" in reports.text and "Markdown" in reports.text
    assert "[b]" in reports.text or "[color" in reports.text  # the BBCode is there to copy


def test_player_pages_render(world: World) -> None:
    c = world.client()
    base = world.page("red")
    r = c.get(base)
    assert r.status_code == 200
    assert 'lang="en"' in r.text and 'href="#main"' in r.text and "<nav" in r.text
    assert 'class="map"' in r.text and 'id="map-overlay"' in r.text and "Your units" in r.text
    assert "it is your turn" in r.text and '<time class="utc"' in r.text
    for sub, words in {
        "/inbox": "Awaiting your answer",
        "/position": "Turn order",
        "/log": "The log, as you may read it",
        "/reports": "Reports",
    }.items():
        page = c.get(base + sub)
        assert page.status_code == 200, sub
        assert words in page.text, sub


def test_a_forged_link_and_an_unknown_game_get_a_plain_error_page(world: World) -> None:
    c = world.client()
    r = c.get(f"/play/{GAME}/not-a-token")
    assert r.status_code == 403 and "Not allowed" in r.text and "Traceback" not in r.text
    r = c.get(f"/play/nogame/{world.tokens['red']}")
    assert r.status_code == 404 and "Traceback" not in r.text
    # a token of one game is no key to another
    world.api.post(
        "/api/games",
        json={"name": "Other", "factions": ["red", "blue", "green"], "game_id": "other"},
        headers={"Authorization": "Bearer gm:crown-and-sceptre"},
    )
    assert c.get(f"/play/other/{world.tokens['red']}").status_code == 403
    assert world.api.get("/api/games/other/view", headers=bearer(world.tokens["red"])).status_code == 403


def test_gm_console_acts(world: World) -> None:
    gm, token = world.gm()
    svc = world.svc
    # who has not ordered
    page = gm.get(f"/gm/games/{GAME}").text
    assert page.count('class="no"') == 4
    # a GM text order for Red, checked then sent
    r = gm.post(
        f"/gm/games/{GAME}/orders",
        data={"text": "Red ALLIES WITH Blue AS rb", "do": "check", "csrf_token": token},
    )
    assert r.status_code == 200 and "pending" in r.text and svc.state(GAME).declarations == {}
    r = gm.post(
        f"/gm/games/{GAME}/orders",
        data={"text": "Red ALLIES WITH Blue AS rb", "do": "send", "csrf_token": token},
    )
    assert "rb" in svc.state(GAME).declarations
    assert re.search(
        r'<th scope="row">.*?Red.*?</th>\s*<td>[^<]*</td>\s*<td><span class="yes">', r.text, re.S
    )
    # control, storm, extend, end the turn, undo
    r = gm.post(
        f"/gm/games/{GAME}/control", data={"place": "bristol", "faction": "blue", "csrf_token": token}
    )
    assert r.status_code == 200 and svc.state(GAME).control.get("bristol") == "blue"
    ship = sorted(svc.state(GAME).ships)[0]
    r = gm.post(f"/gm/games/{GAME}/storm", data={"ship": ship, "into": "cardiff", "csrf_token": token})
    assert r.status_code == 200
    due = {d.target: d.due for d in svc.deadlines(GAME)}["red"]
    gm.post(f"/gm/games/{GAME}/extend", data={"target": "red", "hours": "12", "csrf_token": token})
    assert {d.target: d.due for d in svc.deadlines(GAME)}["red"] > due
    mark = svc.log(GAME)[-1].seq
    gm.post(f"/gm/games/{GAME}/finish", data={"csrf_token": token})
    assert svc.state(GAME).turn == "blue"
    gm.post(f"/gm/games/{GAME}/undo", data={"to_seq": str(mark), "reason": "too soon", "csrf_token": token})
    assert svc.state(GAME).turn == "red"
    # seating gives a private link that works
    r = gm.post(f"/gm/games/{GAME}/seat", data={"faction": "gold", "player": "Gwen", "csrf_token": token})
    link = re.search(r'value="https://kingmaker\.example(/play/[^"]+)"', r.text)
    assert link and world.client().get(link.group(1)).status_code == 200
    assert world.client().get(world.page("gold")).status_code == 403  # the old link ends


def test_gm_creates_a_game_from_the_form(world: World) -> None:
    gm, token = world.gm()
    r = gm.post(
        "/gm/games",
        data={
            "name": "Second",
            "factions": "red, blue, green",
            "game_id": "second",
            "data_folder": "",
            "turn_hours": "48",
            "request_hours": "",
            "policy": "extend",
            "csrf_token": token,
        },
    )
    assert r.status_code == 200 and r.url.path == "/gm/games/second"
    r = gm.post(
        "/gm/games", data={"name": "Bad", "factions": "red", "data_folder": "/nowhere", "csrf_token": token}
    )
    assert r.status_code == 400 and "no data folder from the web" in r.text and "Traceback" not in r.text


def test_the_confirmation_names_the_route_by_place_names(world: World) -> None:
    from kingmaker.rules import commands as rc
    from kingmaker.service import GM_ACTOR
    from kingmaker.service.commands import Submit

    world.svc.execute(GM_ACTOR, Submit(GAME, rc.Capture(rc.GM, "greystoke", "gold")))
    world.svc.execute(GM_ACTOR, Submit(GAME, rc.Release(rc.GM, "greystoke", "york", False)))
    red = bearer(world.tokens["red"])
    units = world.api.get(f"/api/games/{GAME}/units", headers=red).json()
    for u in units:
        d = world.api.get(f"/api/games/{GAME}/units/{u['id']}/destinations", headers=red).json()
        far = [x for x in d["destinations"] if x["by_road"] and len(x["path"]) > 2]
        if far:
            break
    assert far, "some red unit can go two places or more by road"
    target = far[0]
    c, _ = world.player("red")
    html = c.get(
        f"{world.page('red')}/panel/confirm", params={"unit": u["id"], "to": target["place"]}
    ).text
    state = world.svc.state(GAME)
    names = " → ".join(state.board.name_of(p) for p in target["path"])
    assert names in html.replace("&#39;", "'")
    assert " → ".join(target["path"]) not in html

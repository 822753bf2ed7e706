"""Orders from the map (legal destinations from the server, then a confirmed order) and
as text (a verdict per order before sending), and answers from the inbox."""

from __future__ import annotations

from kingmaker.log.service_events import OrderSubmitted
from kingmaker.rules import commands as rc
from kingmaker.rules.queries import legal_destinations
from kingmaker.service import GM_ACTOR
from kingmaker.service.commands import Submit

from .conftest import GAME, World, bearer


def _mover(world: World, faction: str = "red") -> tuple[str, str, str]:
    """One of ``faction``'s nobles, a road destination and the path to it."""
    state = world.svc.state(GAME)
    for n in sorted(state.nobles.values(), key=lambda n: n.id):
        if n.faction == faction and n.place and n.aboard is None:
            for d in legal_destinations(state, n.id).places:
                if d.by_road and len(d.path) >= 2:
                    return n.id, d.place, n.place
    raise AssertionError("no move")


def test_legal_destinations_come_from_the_server(world: World) -> None:
    unit, dest, _ = _mover(world)
    state = world.svc.state(GAME)
    expected = {d.place for d in legal_destinations(state, unit).places}
    r = world.api.get(f"/api/games/{GAME}/units/{unit}/destinations", headers=bearer(world.tokens["red"]))
    assert r.status_code == 200
    got = r.json()
    assert got["orderable"] and {d["place"] for d in got["destinations"]} <= expected
    assert dest in {d["place"] for d in got["destinations"]}
    assert all(
        set(d["actions"]) <= {"move", "move_enter", "enter", "siege", "sail"} for d in got["destinations"]
    )
    # the page's fragment: the list and the overlay ringing each destination on the map
    c, _ = world.player("red")
    frag = c.get(f"{world.page('red')}/panel/units/{unit}", headers={"HX-Request": "true"})
    assert frag.status_code == 200
    assert (
        'id="order-panel"' in frag.text
        and 'id="map-overlay"' in frag.text
        and 'hx-swap-oob="true"' in frag.text
    )
    assert f"to={dest}" in frag.text and 'class="dest"' in frag.text
    # units listed for the player are theirs
    units = world.api.get(f"/api/games/{GAME}/units", headers=bearer(world.tokens["red"])).json()
    assert units and all(u["faction"] == "red" for u in units)


def test_order_from_the_map_with_htmx(world: World) -> None:
    unit, dest, _start = _mover(world)
    c, token = world.player("red")
    base = world.page("red")
    confirm = c.get(
        f"{base}/panel/confirm", params={"unit": unit, "to": dest}, headers={"HX-Request": "true"}
    )
    assert confirm.status_code == 200 and 'value="move"' in confirm.text and "Confirm" in confirm.text
    r = c.post(
        f"{base}/order",
        data={"unit": unit, "to": dest, "action": "move", "key": "k1"},
        headers={"HX-Request": "true", "X-CSRF-Token": token},
    )
    assert r.status_code == 200 and "accepted" in r.text
    assert 'id="map-wrap"' in r.text and 'hx-swap-oob="true"' in r.text  # a fresh map comes along
    noble = world.svc.state(GAME).nobles[unit]
    assert noble.place == dest and not noble.inside
    last = [e for e in world.svc.log(GAME) if isinstance(e.event, OrderSubmitted)][-1]
    assert last.actor == "red" and last.event.by == "red"
    # the same key again applies once
    again = c.post(
        f"{base}/order",
        data={"unit": unit, "to": dest, "action": "move", "key": "k1"},
        headers={"HX-Request": "true", "X-CSRF-Token": token},
    )
    assert again.status_code == 200
    assert sum(isinstance(e.event, OrderSubmitted) for e in world.svc.log(GAME)) == 1


def test_order_from_the_map_without_javascript(world: World) -> None:
    unit, dest, _ = _mover(world)
    c, token = world.player("red")
    base = world.page("red")
    page = c.get(base, params={"unit": unit, "to": dest})
    assert page.status_code == 200 and "Confirm: Move there" in page.text
    r = c.post(f"{base}/order", data={"unit": unit, "to": dest, "action": "move", "csrf_token": token})
    assert r.status_code == 200 and r.url.path == base and "accepted" in r.text
    assert world.svc.state(GAME).nobles[unit].place == dest


def test_an_order_the_unit_cannot_give_is_refused(world: World) -> None:
    unit, _, _ = _mover(world)
    r = world.api.post(
        f"/api/games/{GAME}/orders",
        json={"unit": unit, "action": "move", "to": "calais"},
        headers=bearer(world.tokens["red"]),
    )
    assert r.status_code == 400 and r.json()["error"] == "bad_request"


def test_text_orders_checked_then_sent(world: World) -> None:
    unit, dest, start = _mover(world)
    state = world.svc.state(GAME)
    names = state.catalog.name_of(unit), state.board.name_of(start), state.board.name_of(dest)
    text = f"{names[0]} MOVES FROM {names[1]} TO {names[2]}\nRed ALLIES WITH Gold\nPercy FLIES TO the moon"
    c, token = world.player("red")
    base = world.page("red")
    head = world.svc.store.head(GAME)
    r = c.post(f"{base}/check", data={"text": text, "csrf_token": token}, headers={"HX-Request": "true"})
    assert r.status_code == 200 and 'id="verdicts"' in r.text
    assert r.text.count('class="verdict ') == 3 and "accepted" in r.text and "pending" in r.text
    assert "syntax" in r.text or "unknown" in r.text
    assert world.svc.store.head(GAME) == head  # checking sends nothing
    r = c.post(
        f"{base}/send", data={"text": text, "csrf_token": token, "key": "t1"}, headers={"HX-Request": "true"}
    )
    assert r.status_code == 200 and "Sent" in r.text
    after = world.svc.state(GAME)
    assert after.nobles[unit].place == dest and len(after.declarations) == 1
    # the API says the same, line by line
    rows = world.api.post(
        f"/api/games/{GAME}/orders/check",
        json={"text": "Red ALLIES WITH Green"},
        headers=bearer(world.tokens["red"]),
    ).json()
    assert [r["result"] for r in rows] == ["pending"]


def test_inbox_answer_in_one_click(world: World) -> None:
    world.api.post(
        f"/api/games/{GAME}/orders/text",
        json={"text": "Red ALLIES WITH Blue AS red-blue"},
        headers=bearer(world.tokens["red"]),
    )
    c, token = world.player("blue")
    base = world.page("blue")
    inbox = c.get(f"{base}/inbox")
    assert inbox.status_code == 200 and "red-blue" in inbox.text and "Accept" in inbox.text
    assert '<time class="utc" datetime="' in inbox.text
    r = c.post(
        f"{base}/answer", data={"id": "red-blue", "kind": "declaration", "accept": "yes", "csrf_token": token}
    )
    assert r.status_code == 200 and r.url.path == f"{base}/inbox" and "accepted" in r.text
    assert "red-blue" in world.svc.state(GAME).alliances
    # nothing awaits Blue now; an answer to it again is refused
    assert world.api.get(f"/api/games/{GAME}/pending", headers=bearer(world.tokens["blue"])).json() == []
    again = world.api.post(
        f"/api/games/{GAME}/answers",
        json={"id": "red-blue", "kind": "declaration", "accept": True},
        headers=bearer(world.tokens["blue"]),
    )
    assert again.status_code == 404


def test_allied_order_consent_through_the_api(world: World) -> None:
    world.api.post(
        f"/api/games/{GAME}/orders/text",
        json={"text": "Red ALLIES WITH Gold AS red-gold"},
        headers=bearer(world.tokens["red"]),
    )
    world.api.post(
        f"/api/games/{GAME}/answers",
        json={"id": "red-gold", "kind": "declaration", "accept": True},
        headers=bearer(world.tokens["gold"]),
    )
    # ALLY.4: an ally's unit is ordered where one of Red's own units stands: the GM's
    # rulings put Gold's Mowbray beside Red's Bourchier
    world.svc.execute(GM_ACTOR, Submit(GAME, rc.Capture(rc.GM, "mowbray", "red")))
    world.svc.execute(GM_ACTOR, Submit(GAME, rc.Release(rc.GM, "mowbray", "halstead", True)))
    units = world.api.get(f"/api/games/{GAME}/units", headers=bearer(world.tokens["red"])).json()
    allied = [u for u in units if u["allied"] and u["id"] == "mowbray"]
    assert allied, "Gold's nobles are Red's to order, with Gold's consent"
    # Only where one of Red's own units stands: Gold's other nobles are not offered.
    state = world.svc.state(GAME)
    red_places = {n.place for n in state.nobles.values() if n.faction == "red"}
    offered = {u["id"] for u in units if u["allied"]}
    elsewhere = {n.id for n in state.nobles.values() if n.faction == "gold" and n.place not in red_places}
    assert elsewhere and not offered & elsewhere
    target = None
    for u in allied:
        d = world.api.get(
            f"/api/games/{GAME}/units/{u['id']}/destinations", headers=bearer(world.tokens["red"])
        ).json()
        moves = [x for x in d["destinations"] if "move" in x["actions"]]
        if moves:
            target = (u["id"], moves[0]["place"])
            break
    assert target
    out = world.api.post(
        f"/api/games/{GAME}/orders",
        json={"unit": target[0], "action": "move", "to": target[1]},
        headers=bearer(world.tokens["red"]),
    ).json()
    assert out["result"] == "pending" and out["awaiting"] == ["gold"]
    pending = world.api.get(f"/api/games/{GAME}/pending", headers=bearer(world.tokens["gold"])).json()
    assert [p["id"] for p in pending if p["for_you"]] == [out["request"]]
    inbox = world.client().get(f"{world.page('gold')}/inbox")
    assert "Allied order" in inbox.text
    ok = world.api.post(
        f"/api/games/{GAME}/answers",
        json={"id": out["request"], "kind": "request", "accept": True},
        headers=bearer(world.tokens["gold"]),
    ).json()
    assert ok["result"] == "accepted"
    assert world.svc.state(GAME).nobles[target[0]].place == target[1]
    # Ordered once this round (ALLY.4): no longer offered to Red.
    again = world.api.get(f"/api/games/{GAME}/units", headers=bearer(world.tokens["red"])).json()
    assert target[0] not in {u["id"] for u in again}


def test_finish_turn_from_the_page(world: World) -> None:
    c, token = world.player("red")
    r = c.post(f"{world.page('red')}/finish", data={"csrf_token": token})
    assert r.status_code == 200 and world.svc.state(GAME).turn == "blue"
    c2, token2 = world.player("green")
    r = c2.post(f"{world.page('green')}/finish", data={"csrf_token": token2})
    assert r.status_code == 400  # not Green's turn


def _put(world: World, noble: str, place: str, inside: bool = False) -> None:
    """The GM's rulings put ``noble`` at ``place`` (captured, then released there)."""
    world.svc.execute(GM_ACTOR, Submit(GAME, rc.Capture(rc.GM, noble, "gold" if noble != "scrope" else "red")))
    world.svc.execute(GM_ACTOR, Submit(GAME, rc.Release(rc.GM, noble, place, inside)))


def _others(world: World, faction: str, unit: str) -> dict[tuple[str, str], dict]:  # type: ignore[type-arg]
    d = world.api.get(
        f"/api/games/{GAME}/units/{unit}/destinations", headers=bearer(world.tokens[faction])
    ).json()
    return {(o["action"], o["target"]): o for o in d["others"]}


def test_attack_from_the_map_and_the_rule_when_refused(world: World) -> None:
    _put(world, "greystoke", "york")
    _put(world, "scrope", "york")
    others = _others(world, "red", "greystoke")
    attack = others[("attack", "scrope")]
    assert attack["allowed"] and attack["label"] == "Attack " + world.svc.state(GAME).catalog.name_of("scrope")
    # the page offers the same order as a button
    c, _ = world.player("red")
    panel = c.get(f"{world.page('red')}/panel/units/greystoke", headers={"HX-Request": "true"}).text
    assert 'name="action" value="attack"' in panel and 'name="target" value="scrope"' in panel
    out = world.api.post(
        f"/api/games/{GAME}/orders",
        json={"unit": "greystoke", "action": "attack", "target": "scrope"},
        headers=bearer(world.tokens["red"]),
    ).json()
    assert out["result"] == "accepted", out
    # a target the list does not offer is refused without touching the game
    head = world.svc.store.head(GAME)
    r = world.api.post(
        f"/api/games/{GAME}/orders",
        json={"unit": "greystoke", "action": "attack", "target": "mowbray"},
        headers=bearer(world.tokens["red"]),
    )
    assert r.status_code == 400 and "no such order here" in r.json()["message"]
    assert world.svc.store.head(GAME) == head


def test_an_allys_noble_is_offered_as_a_refused_attack_with_its_rule(world: World) -> None:
    red, gold = bearer(world.tokens["red"]), bearer(world.tokens["gold"])
    world.api.post(f"/api/games/{GAME}/orders/text", json={"text": "Red ALLIES WITH Gold AS rg"}, headers=red)
    world.api.post(
        f"/api/games/{GAME}/answers", json={"id": "red-rg", "kind": "declaration", "accept": True}, headers=gold
    )
    _put(world, "greystoke", "york")
    _put(world, "scrope", "york")
    attack = _others(world, "red", "greystoke")[("attack", "scrope")]
    assert not attack["allowed"] and attack["rule"] == "ALLY.9"
    panel = world.client().get(f"{world.page('red')}/panel/units/greystoke", headers={"HX-Request": "true"}).text
    assert "not allowed" in panel and "ALLY.9" in panel


def test_embark_and_land_from_the_map(world: World) -> None:
    world.api.post(f"/api/games/{GAME}/finish-turn", headers=bearer(world.tokens["red"]))  # Blue's turn
    blue = bearer(world.tokens["blue"])
    _put(world, "berkeley", "plymouth")
    others = _others(world, "blue", "berkeley")
    refused = others[("embark", "holy_ghost")]
    assert not refused["allowed"] and refused["rule"] == "LOC.neutral.embark"
    world.svc.execute(GM_ACTOR, Submit(GAME, rc.SetControl(rc.GM, "plymouth", "blue")))
    others = _others(world, "blue", "berkeley")
    assert others[("embark", "holy_ghost")]["allowed"], others[("embark", "holy_ghost")]["explanation"]
    out = world.api.post(
        f"/api/games/{GAME}/orders",
        json={"unit": "berkeley", "action": "embark", "target": "holy_ghost"},
        headers=blue,
    ).json()
    assert out["result"] == "accepted", out
    assert world.svc.state(GAME).ships["holy_ghost"].passengers == ("berkeley",)
    landing = _others(world, "blue", "holy_ghost")
    assert {k for k in landing} == {("land", "plymouth"), ("land_enter", "plymouth")}
    assert all(o["rule"] and o["explanation"] for o in landing.values())
    # another faction's ship is not Blue's to board without an alliance (ORDER.foreign)
    _put(world, "berkeley", "bristol")
    foreign = _others(world, "blue", "berkeley")[("embark", "jesus")]
    assert not foreign["allowed"] and foreign["rule"] == "ORDER.foreign"
    # and Green orders nothing on Blue's turn: its units are not orderable, and say why
    _put(world, "cromwell", "bristol")
    d = world.api.get(
        f"/api/games/{GAME}/units/cromwell/destinations", headers=bearer(world.tokens["green"])
    ).json()
    assert not d["orderable"] and "TURN.order" in d["reason"] and d["others"] == []

"""Issue 11: previews and explanations built from what the asking faction may see
(§3.1), the log numbered densely for each reader (§3.2), no check skipped because an
idempotency key is given (§3.5), every line of a post answered (§3.8), and the units
the web offers being exactly those the rules let a faction order (§4)."""

from __future__ import annotations

import html
import re

from kingmaker.rules import commands as rc
from kingmaker.rules.candidates import orderable_units
from kingmaker.service import GM_ACTOR
from kingmaker.service.commands import Submit
from kingmaker.service.identity import player

from .conftest import GAME, World, bearer, gm_auth


def _noble_of(world: World, faction: str, skip: tuple[str, ...] = ()) -> str:
    state = world.svc.state(GAME)
    return next(
        n.id
        for n in sorted(state.nobles.values(), key=lambda n: n.id)
        if n.faction == faction and n.id not in skip and n.place is not None
    )


def _put(world: World, noble: str, place: str) -> None:
    """The GM's rulings put ``noble`` in the open at ``place``."""
    world.svc.execute(GM_ACTOR, Submit(GAME, rc.Capture(rc.GM, noble, "red")))
    world.svc.execute(GM_ACTOR, Submit(GAME, rc.Release(rc.GM, noble, place, False)))


def _name(world: World, noble: str) -> str:
    return str(world.svc.state(GAME).catalog.name_of(noble))


def _secret_defence(world: World) -> tuple[str, str, str]:
    """On Blue's turn: Blue's noble, Green's and Gold's stand in the open at Barnet;
    Green and Gold are secretly allied and Gold's noble has chosen to defend with
    Green's. Returns (attacker, target, defender)."""
    world.api.post(f"/api/games/{GAME}/finish-turn", headers=bearer(world.tokens["red"]))
    attacker, target, defender = _noble_of(world, "blue"), _noble_of(world, "green"), _noble_of(world, "gold")
    for n in (attacker, target, defender):
        _put(world, n, "barnet")
    green, gold = bearer(world.tokens["green"]), bearer(world.tokens["gold"])
    r = world.api.post(
        f"/api/games/{GAME}/orders/text", json={"text": "Green ALLIES WITH Gold AS gg"}, headers=green
    )
    assert r.status_code == 200, r.text
    r = world.api.post(
        f"/api/games/{GAME}/answers",
        json={"id": "green-gg", "kind": "declaration", "accept": True},
        headers=gold,
    )
    assert r.json()["result"] == "accepted", r.text
    out = world.svc.execute(player("gold"), Submit(GAME, rc.Defend("gold", defender, target)))
    assert out.result == "accepted", out.explanation
    assert world.svc.state(GAME).turn == "blue"
    return attacker, target, defender


def test_an_attack_preview_names_no_secret_defender(world: World) -> None:
    attacker, target, defender = _secret_defence(world)
    blue = bearer(world.tokens["blue"])
    secret = _name(world, defender)
    text = f"{_name(world, attacker)} ATTACKS {_name(world, target)}"
    # the text-order check
    [verdict] = world.api.post(f"/api/games/{GAME}/orders/check", json={"text": text}, headers=blue).json()
    assert verdict["result"] == "accepted", verdict["explanation"]
    assert _name(world, target) in verdict["explanation"] and secret not in verdict["explanation"]
    # the unit's list of orders
    d = world.api.get(f"/api/games/{GAME}/units/{attacker}/destinations", headers=blue).json()
    [attack] = [o for o in d["others"] if o["action"] == "attack" and o["target"] == target]
    assert attack["allowed"] and secret not in attack["explanation"]
    # the button's hover title on the map page
    page = (
        world.client()
        .get(f"{world.page('blue')}/panel/units/{attacker}", headers={"HX-Request": "true"})
        .text
    )
    titles = [
        html.unescape(t)
        for t in re.findall(r'title="([^"]*)">Attack ' + re.escape(_name(world, target)), page)
    ]
    assert titles and all(secret not in t for t in titles)
    # what the defenders' own factions are told names him: it is theirs to know
    gold = bearer(world.tokens["gold"])
    [own] = world.api.post(f"/api/games/{GAME}/orders/check", json={"text": text}, headers=gold).json()
    assert own["result"] == "refused"  # not gold's turn, nor its noble
    # once Blue's attack is made, the two fight side by side: the alliance is public (R7)
    out = world.api.post(f"/api/games/{GAME}/orders/text", json={"text": text}, headers=blue).json()
    assert out[0]["result"] == "accepted"
    alliances = world.api.get(f"/api/games/{GAME}/view", headers=blue).json()["alliances"]
    assert [sorted(a["members"]) for a in alliances] == [["gold", "green"]]


def test_a_players_log_is_numbered_without_gaps(world: World) -> None:
    _secret_defence(world)  # secret entries: a declaration, its answer, an alliance, a defence pact
    blue = bearer(world.tokens["blue"])
    entries = world.api.get(f"/api/games/{GAME}/log", headers=blue).json()
    assert [e["seq"] for e in entries] == list(range(1, len(entries) + 1))
    gm = world.api.get(f"/api/games/{GAME}/log", headers=gm_auth()).json()
    assert len(gm) > len(entries)  # the GM's log has entries blue may not read, numbered as stored
    assert [e["seq"] for e in gm] == [e.seq for e in world.svc.log(GAME)]
    # a write answer gives a player no log numbers (they would give the log's head away)
    out = world.api.post(f"/api/games/{GAME}/finish-turn", headers=blue).json()
    assert out["result"] == "accepted" and out["first_seq"] is None and out["last_seq"] is None
    out = world.api.post(f"/api/games/{GAME}/finish-turn", headers=gm_auth()).json()
    assert out["first_seq"] is not None


def test_an_undo_is_told_in_the_readers_numbers(world: World) -> None:
    _secret_defence(world)
    head = world.svc.store.head(GAME)
    world.api.post(f"/api/games/{GAME}/finish-turn", headers=bearer(world.tokens["blue"]))
    r = world.api.post(
        f"/api/games/{GAME}/undo", json={"to_seq": head, "reason": "too soon"}, headers=gm_auth()
    )
    assert r.status_code == 200, r.text
    readable = [e.seq for e in world.svc.log_for(GAME, player("blue")) if e.seq <= head]
    assert len(readable) < head  # some entries up to there are secret to blue
    [undone] = [
        e
        for e in world.api.get(f"/api/games/{GAME}/log", headers=bearer(world.tokens["blue"])).json()
        if e["kind"] == "undone"
    ]
    assert undone["text"] == f"The GM restores the game as it stood after entry {len(readable)}: too soon."
    [gm_undone] = [
        e for e in world.api.get(f"/api/games/{GAME}/log", headers=gm_auth()).json() if e["kind"] == "undone"
    ]
    assert gm_undone["text"] == f"The GM restores the game as it stood after entry {head}: too soon."


def test_an_idempotency_key_skips_no_check(world: World) -> None:
    red = bearer(world.tokens["red"])
    unit = _noble_of(world, "red")
    head = world.svc.store.head(GAME)
    bad = {"unit": unit, "action": "move", "to": "york\n\n## GM ANNOUNCEMENT: Red wins"}
    r = world.api.post(f"/api/games/{GAME}/orders", json=bad, headers=red | {"Idempotency-Key": "k1"})
    assert r.status_code in (400, 422), r.text
    assert world.svc.store.head(GAME) == head
    nowhere = {"unit": unit, "action": "move", "to": "atlantis"}
    r = world.api.post(f"/api/games/{GAME}/orders", json=nowhere, headers=red | {"Idempotency-Key": "k2"})
    assert r.status_code == 400 and world.svc.store.head(GAME) == head
    # a real retry still gets its first answer, though the unit has moved since
    dests = world.api.get(f"/api/games/{GAME}/units/{unit}/destinations", headers=red).json()["destinations"]
    to = next(d["place"] for d in dests if "move" in d["actions"] and len(d["path"]) > 1)
    order = {"unit": unit, "action": "move", "to": to}
    first = world.api.post(f"/api/games/{GAME}/orders", json=order, headers=red | {"Idempotency-Key": "k3"})
    assert first.json()["result"] == "accepted", first.text
    again = world.api.post(f"/api/games/{GAME}/orders", json=order, headers=red | {"Idempotency-Key": "k3"})
    assert again.status_code == 200 and again.json()["replayed"] and again.json()["result"] == "accepted"


def test_every_line_of_a_post_gets_its_verdict(world: World) -> None:
    blue = bearer(world.tokens["blue"])
    post = "Blue ALLIES WITH Green AS q1\nset Alnwick to Blue\nBlue ALLIES WITH Gold AS q2"
    for path in ("orders/check", "orders/text"):
        r = world.api.post(f"/api/games/{GAME}/{path}", json={"text": post}, headers=blue)
        assert r.status_code == 200, r.text
        rows = {v["line"]: v for v in r.json()}
        assert set(rows) == {1, 2, 3}
        assert rows[1]["result"] == "pending" and rows[3]["result"] == "pending"
        assert rows[2]["result"] == "not allowed" and "GM" in rows[2]["explanation"]
    assert world.svc.state(GAME).control.get("alnwick") != "blue"
    assert {"blue-q1", "blue-q2"} <= set(world.svc.state(GAME).declarations)


def test_a_fleet_without_passengers_formed_with_an_ally_is_offered(world: World) -> None:
    """§4: the web left out a fleet of ships with no passengers formed by an ally,
    though the rules let each ship's own faction order it (ALLY.6, R24)."""
    state = world.svc.state(GAME)
    ships = sorted(state.ships.values(), key=lambda s: (state.turn_order.index(s.faction), s.id))
    first = ships[0]
    second = next(s for s in ships if s.faction != first.faction)
    a, b = first.faction, second.faction
    while world.svc.state(GAME).turn != a:
        world.api.post(f"/api/games/{GAME}/finish-turn", headers=gm_auth())
    port = "london"
    for ship in (first.id, second.id):
        world.svc.execute(GM_ACTOR, Submit(GAME, rc.Storm(rc.GM, ship, port)))
    world.svc.execute(GM_ACTOR, Submit(GAME, rc.SetControl(rc.GM, port, a)))
    ha, hb = bearer(world.tokens[a]), bearer(world.tokens[b])
    r = world.api.post(f"/api/games/{GAME}/orders/text", json={"text": f"{a} ALLIES WITH {b} AS ab"}, headers=ha)
    assert r.json()[0]["result"] == "pending", r.text
    world.api.post(
        f"/api/games/{GAME}/answers", json={"id": f"{a}-ab", "kind": "declaration", "accept": True}, headers=hb
    )
    out = world.svc.execute(player(a), Submit(GAME, rc.FormArmy(a, "fl1", (first.id, second.id), True)))
    assert out.result == "pending", out.explanation
    world.api.post(
        f"/api/games/{GAME}/answers", json={"id": out.request, "kind": "request", "accept": True}, headers=hb
    )
    assert "fl1" in world.svc.state(GAME).armies
    units = {u["id"] for u in world.api.get(f"/api/games/{GAME}/units", headers=ha).json()}
    assert units == {u.id for u in orderable_units(world.svc.state(GAME), a)}
    assert "fl1" in units
    d = world.api.get(f"/api/games/{GAME}/units/fl1/destinations", headers=ha).json()
    assert d["orderable"] and any("sail" in x["actions"] for x in d["destinations"])

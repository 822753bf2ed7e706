"""No answer to a faction holds another faction's secret: a small game with a secret
alliance, a pending declaration and an allied order awaiting consent, then every page,
fragment and API answer for the factions outside them is searched for their ids."""

from __future__ import annotations

import re
from typing import Any

from kingmaker.rules import commands as rc
from kingmaker.service import GM_ACTOR
from kingmaker.service.commands import Submit

from .conftest import GAME, World, bearer, gm_auth

SECRETS = ("secret-bg", "pending-bgx", "order-secret-q")


def _play(world: World) -> None:
    def text(faction: str, line: str) -> dict[str, Any]:
        r = world.api.post(
            f"/api/games/{GAME}/orders/text", json={"text": line}, headers=bearer(world.tokens[faction])
        )
        assert r.status_code == 200, r.text
        rows: list[dict[str, Any]] = r.json()
        return rows[0]

    assert text("blue", "Blue ALLIES WITH Green AS blue-secret-bg")["result"] == "pending"
    assert text("green", "Green ACCEPTS ALLIANCE blue-secret-bg")["result"] == "accepted"
    assert text("blue", "Blue ALLIES WITH Green AS blue-pending-bgx")["result"] == "pending"  # left unanswered
    # red declares openly to gold and ends its turn
    assert text("red", "Red ALLIES WITH Gold AS red-gold")["result"] == "pending"
    assert (
        world.api.post(f"/api/games/{GAME}/finish-turn", headers=bearer(world.tokens["red"])).status_code
        == 200
    )
    # in Blue's turn, an allied order awaiting Green's consent (Green's Cromwell is put
    # beside Blue's Berkeley by the GM's rulings)
    world.svc.execute(GM_ACTOR, Submit(GAME, rc.Capture(rc.GM, "cromwell", "blue")))
    world.svc.execute(GM_ACTOR, Submit(GAME, rc.Release(rc.GM, "cromwell", "berkeley_castle", True)))
    row = text("blue", "Cromwell LEAVES Berkeley Castle AS blue-order-secret-q")
    assert row["result"] == "pending", row
    world.clock.advance(hours=2)


def _answers_for(world: World, faction: str) -> list[tuple[str, bytes]]:
    h = bearer(world.tokens[faction])
    api = world.api
    out: list[tuple[str, bytes]] = []

    def get(path: str, **params: Any) -> None:
        r = api.get(path, params=params, headers=h)
        assert r.status_code == 200, (path, r.text)
        out.append((path, r.content))

    base = f"/api/games/{GAME}"
    for path in ("", "/view", "/units", "/pending", "/deadlines", "/log", "/map.svg", "/map.png"):
        get(base + path)
    turns = api.get(base + "/reports", headers=h).json()["turns"]
    for rnd, whose in turns:
        for fmt in ("bbcode", "markdown", "plain"):
            get(base + "/reports", round=rnd, turn=whose, format=fmt)
    for rnd in sorted({r for r, _ in turns}):  # each round's digest
        for fmt in ("bbcode", "markdown", "plain"):
            get(base + "/digest", round=rnd, format=fmt)
    for unit in [u["id"] for u in api.get(base + "/units", headers=h).json()]:
        get(f"{base}/units/{unit}/destinations")
    # guessing at the ids in text orders: no "did you mean" may name a secret one
    probes = "Red ACCEPTS ALLIANCE secret-b\nGold CONFIRMS order-secret\nRed CONFIRMS secret-bh\nRed LEAVES ALLIANCE pending-bgy"
    probes = probes.replace("Red", faction.capitalize()).replace("Gold", faction.capitalize())
    for path in ("/orders/check", "/orders/text"):
        r = api.post(base + path, json={"text": probes}, headers=h)
        assert r.status_code == 200
        out.append((path, r.content))
    # answering a secret id is refused exactly as answering an id that does not exist
    nothing = api.post(
        base + "/answers", json={"id": "no-such-id", "kind": "request", "accept": True}, headers=h
    )
    for secret in SECRETS:
        r = api.post(base + "/answers", json={"id": secret, "kind": "request", "accept": True}, headers=h)
        assert (r.status_code, r.text.replace(secret, "no-such-id")) == (nothing.status_code, nothing.text)
    # the pages and fragments
    c = world.client()
    page = world.page(faction)
    for sub in ("", "/inbox", "/position", "/log", "/reports", "/map.svg"):
        r = c.get(page + sub)
        assert r.status_code == 200, sub
        out.append((sub, r.content))
    for rnd, whose in turns:
        out.append(("reports page", c.get(page + "/reports", params={"round": rnd, "turn": whose}).content))
        out.append(("digest page", c.get(page + "/reports", params={"round": rnd, "digest": 1}).content))
    return out


def test_no_answer_for_a_faction_holds_another_factions_secret(world: World) -> None:
    _play(world)
    gm_view = world.api.get(f"/api/games/{GAME}/view", headers=gm_auth()).text
    blue_view = world.api.get(f"/api/games/{GAME}/view", headers=bearer(world.tokens["blue"])).text
    green_inbox = world.client().get(world.page("green") + "/inbox").text
    assert all(s in gm_view for s in SECRETS)  # the secrets are there to find
    assert "secret-bg" in blue_view and "pending-bgx" in green_inbox and "order-secret-q" in green_inbox
    for faction in ("red", "gold"):
        for where, body in _answers_for(world, faction):
            for secret in SECRETS:
                assert secret.encode() not in body, (faction, where, secret)
        deadlines = world.api.get(
            f"/api/games/{GAME}/deadlines", headers=bearer(world.tokens[faction])
        ).json()
        assert not {d["target"] for d in deadlines} & set(SECRETS)
        assert {d["target"] for d in deadlines} <= {"red-gold", "blue"}


def test_player_ids_for_new_alliances_and_requests_tell_nothing(world: World) -> None:
    _play(world)
    rows = world.api.post(
        f"/api/games/{GAME}/orders/check",
        json={"text": "Gold ALLIES WITH Red"},
        headers=bearer(world.tokens["gold"]),
    ).json()
    assert rows[0]["result"] == "pending"
    assert re.search(r"alliance alliance-[0-9a-f]{6} with", rows[0]["explanation"]), rows[0]["explanation"]


def test_a_chosen_id_cannot_probe_for_another_factions_secret(world: World) -> None:
    """Whether or not Blue has a secret alliance named ``blue-bg``, Red's declaration
    "AS blue-bg" gets the same answer: a player's chosen id is kept under the player's
    own faction, so it never meets another faction's."""
    blue, red = bearer(world.tokens["blue"]), bearer(world.tokens["red"])
    url = f"/api/games/{GAME}/orders"
    rows = world.api.post(f"{url}/text", json={"text": "Blue ALLIES WITH Green AS bg"}, headers=blue).json()
    assert rows[0]["result"] == "pending" and "blue-bg" in world.svc.state(GAME).declarations
    answers = []
    for chosen in ("blue-bg", "bg", "blue-nothing"):
        r = world.api.post(f"{url}/check", json={"text": f"Red ALLIES WITH Gold AS {chosen}"}, headers=red)
        assert r.status_code == 200
        row = r.json()[0]
        answers.append((row["result"], row["rule"], row["explanation"].replace(chosen, "X")))
        assert "already exists" not in row["explanation"]
    assert len(set(answers)) == 1, answers
    sent = world.api.post(f"{url}/text", json={"text": "Red ALLIES WITH Gold AS blue-bg"}, headers=red).json()
    assert sent[0]["result"] == "pending"
    assert world.svc.state(GAME).declarations["red-blue-bg"].by == "red"

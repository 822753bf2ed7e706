"""The GM console lists what is open (issue 15 §6): the service's one query
(``open_business``), by the faction each item waits for, and the heirs; ending a turn
with something still open asks the GM to confirm (the API: ``force``)."""

from __future__ import annotations

from kingmaker.service import player

from .conftest import GAME, World, gm_auth


def _siege(world: World) -> None:
    """Red's Bourchier lays siege to Colchester: the GM must rule on it (a game settled
    by hand)."""
    text = "Bourchier MOVES CROSS COUNTRY TO Colchester\nBourchier BESIEGES Colchester"
    verdicts = world.svc.post(player("red"), GAME, text, "red", send=True)
    assert [v.result for v in verdicts] == ["accepted", "accepted"], verdicts


def test_the_console_lists_open_business_by_faction_and_the_heirs(world: World) -> None:
    _siege(world)
    gm, _ = world.gm()
    page = gm.get(f"/gm/games/{GAME}").text
    assert 'id="open-h">Open business' in page
    assert "the siege of Colchester" in page and "awaits the GM&#39;s ruling (GM.action)" in page
    assert "Royal heirs" in page and "Henry VI (Lancaster 1, crowned): inside London" in page
    assert "1 thing still open (below): you will be asked to confirm." in page


def test_ending_a_turn_with_something_open_asks_the_gm_to_confirm(world: World) -> None:
    _siege(world)
    gm, token = world.gm()
    r = gm.post(f"/gm/games/{GAME}/finish", data={"csrf_token": token, "key": "f1"})
    assert r.status_code == 200 and "End <span" in r.text and "turn anyway</button>" in r.text
    assert "the siege of Colchester" in r.text and 'name="force" value="1"' in r.text
    assert world.svc.state(GAME).turn == "red"
    r = gm.post(f"/gm/games/{GAME}/finish", data={"csrf_token": token, "key": "f2", "force": "1"})
    assert r.status_code == 200 and r.url.path == f"/gm/games/{GAME}"
    assert world.svc.state(GAME).turn == "blue"


def test_the_api_refuses_unless_forced(world: World) -> None:
    _siege(world)
    r = world.api.post(f"/api/games/{GAME}/finish-turn", headers=gm_auth())
    assert r.status_code == 200 and r.json()["result"] == "refused", r.text
    assert "still open" in r.json()["explanation"] and world.svc.state(GAME).turn == "red"
    r = world.api.post(f"/api/games/{GAME}/finish-turn?force=true", headers=gm_auth())
    assert r.json()["result"] == "accepted" and world.svc.state(GAME).turn == "blue"

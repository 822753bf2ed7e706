"""The full game in the web app (issue 13): the GM console's open battles and sieges
(strengths from the rules, one button each, the draw on the server, the card, sentence
and table after), the phase, the event and the decks, draw-event and end-phase; the
players' captives, ransoms (offered from the inbox, answered with one click), storm
ports (one click per port), hands; the map's sieges; and the API behind them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import unescape
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from kingmaker.service import GM_ACTOR, FixedClock
from kingmaker.service.commands import SeatPlayer
from kingmaker.web import create_app
from kingmaker.web.settings import WebSettings
from tests.reports.scenario_full import FACTIONS, GAME, play

from .conftest import GM_PASSWORD, bearer, csrf_of, gm_auth


@dataclass
class Full:
    app: FastAPI
    tokens: dict[str, str]

    def client(self) -> TestClient:
        return TestClient(self.app, raise_server_exceptions=False)

    def page(self, faction: str) -> str:
        return f"/play/{GAME}/{self.tokens[faction]}"

    def gm(self) -> tuple[TestClient, str]:
        c = self.client()
        token = csrf_of(c.get("/gm/login").text)
        r = c.post("/gm/login", data={"password": GM_PASSWORD, "csrf_token": token, "next": "/gm"})
        assert r.status_code == 200, r.text
        return c, csrf_of(r.text)


def _full(tmp_path: Path, until: str) -> Full:
    app = create_app(
        f"sqlite:///{tmp_path / 'games.db'}",
        gm_password=GM_PASSWORD,
        clock=FixedClock(),
        settings=WebSettings(player_requests_per_minute=100_000),
    )
    svc = app.state.site.svc
    play(svc, until=until)
    tokens = {f: svc.execute(GM_ACTOR, SeatPlayer(GAME, f, f"{f} player")).token or "" for f in FACTIONS}
    return Full(app, tokens)


@pytest.fixture
def at_battle(tmp_path: Path) -> Full:
    """Round 2, Blue's combat phase: Pole's attack on Mowbray waits for its draw; Red's
    siege of Goodrich goes on."""
    return _full(tmp_path, "attack")


def _text(html: str) -> str:
    """The page's words, one space between each (a tag is a space; "Blue 's" is "Blue's")."""
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))).replace(" 's", "'s")


def test_the_gm_console_resolves_a_battle_with_one_button(at_battle: Full) -> None:
    gm, csrf = at_battle.gm()
    page = gm.get(f"/gm/games/{GAME}")
    text = _text(page.text)
    assert "combat phase" in text and "Event this turn: Tempest in the Narrow Seas (storm)" in text
    assert "Event deck 66 cards" in text and "Chancery 3 cards" in text
    assert "a-framlingham" in text and "Pole 120" in text and "Mowbray 80" in text and "3:2" in text
    # the siege is drawn in Red's combat phase: its button is off, and says why
    assert "Not now: the siege of Goodrich is drawn in red's combat phase" in text
    key = re.search(r'name="key" value="([^"]+-b-a-framlingham)"', page.text)
    assert key
    r = gm.post(
        f"/gm/games/{GAME}/resolve",
        data={"attack": "a-framlingham", "key": key.group(1), "csrf_token": csrf},
        follow_redirects=False,
    )
    assert r.status_code == 303 and "?resolved=" in r.headers["location"], r.text
    shown = _text(gm.get(r.headers["location"]).text)
    assert "Just drawn" in shown
    assert "Battle at Framlingham: Blue's 120 against Gold's 80 is 3:2" in shown
    assert "Parley with the Irish Lords (3:2)" in shown and "decisive: Blue wins" in shown
    assert "No open battle." in shown  # resolved: gone from the list
    assert "Mowbray (Gold): held by Blue" in shown
    # the same form sent again (a double click) draws nothing more
    again = gm.post(
        f"/gm/games/{GAME}/resolve",
        data={"attack": "a-framlingham", "key": key.group(1), "csrf_token": csrf},
        follow_redirects=False,
    )
    assert again.headers["location"] == r.headers["location"]


def test_the_players_see_the_captive_and_settle_a_ransom_in_the_inbox(at_battle: Full) -> None:
    api = at_battle.client()
    r = api.post(f"/api/games/{GAME}/resolve", json={"attack": "a-framlingham"}, headers=gm_auth())
    assert r.status_code == 200 and r.json()["card"]["name"] == "Parley with the Irish Lords"
    gold = at_battle.client()
    page = gold.get(at_battle.page("gold"))
    assert "Mowbray (Gold), held by Blue — taken from you" in _text(page.text)
    assert "Writ under the Privy Seal" in _text(page.text)  # Gold's own hand
    inbox = gold.get(at_battle.page("gold") + "/inbox")
    assert "Captives: ransom, free or execute" in inbox.text
    r = gold.post(
        at_battle.page("gold") + "/ransom",
        data={"captive": "mowbray", "give": ["duke_of_exeter"], "csrf_token": csrf_of(inbox.text)},
    )
    assert "pending: gold offers a ransom for Mowbray" in r.text, _text(r.text)
    blue = at_battle.client()
    binbox = blue.get(at_battle.page("blue") + "/inbox")
    btext = _text(binbox.text)
    assert "Ransom offered by Gold" in btext and "Duke of Exeter" in btext
    for other in ("red", "green"):  # the terms are the two parties' only
        t = at_battle.client().get(at_battle.page(other) + "/inbox").text
        assert "Duke of Exeter" not in t and "ransom" not in t.lower()
        full = api.get(f"/api/games/{GAME}/full", headers=bearer(at_battle.tokens[other])).json()
        assert full["ransoms"] == []
    offer = api.get(f"/api/games/{GAME}/full", headers=bearer(at_battle.tokens["blue"])).json()["ransoms"]
    assert [o["for_you"] for o in offer] == [True] and offer[0]["terms"] == "Gold gives Blue Duke of Exeter"
    r = blue.post(
        at_battle.page("blue") + "/answer",
        data={"id": offer[0]["id"], "kind": "request", "accept": "yes", "csrf_token": csrf_of(binbox.text)},
    )
    assert "accepted: Mowbray is ransomed" in _text(r.text)
    blue_full = api.get(f"/api/games/{GAME}/full", headers=bearer(at_battle.tokens["blue"])).json()
    assert blue_full["captives"] == []
    assert "duke_of_exeter" in [c["id"] for c in blue_full["hands"][1]["cards"]]


def test_a_storm_asks_its_ship_s_faction_for_a_port_in_the_inbox(tmp_path: Path) -> None:
    w = _full(tmp_path, "storm")
    blue = w.client()
    inbox = blue.get(w.page("blue") + "/inbox")
    assert "Storms: choose a port" in inbox.text
    buttons = re.findall(r'name="port" value="([a-z_]+)"', inbox.text)
    assert buttons == ["newport_iow", "poole", "portsmouth", "rye", "southampton", "weymouth"]
    assert "choose a port" not in w.client().get(w.page("gold") + "/inbox").text
    r = blue.post(
        w.page("blue") + "/port",
        data={"ship": "grace_dieu", "port": "rye", "csrf_token": csrf_of(inbox.text)},
    )
    assert "accepted: blue chooses Rye for Grace Dieu" in _text(r.text)
    assert "Storms: choose a port" not in blue.get(w.page("blue") + "/inbox").text


def test_the_map_rings_a_siege_and_the_side_panel_lists_captives(at_battle: Full) -> None:
    api = at_battle.client()
    api.post(f"/api/games/{GAME}/resolve", json={"attack": "a-framlingham"}, headers=gm_auth())
    page = api.get(at_battle.page("red")).text
    assert re.search(r'class="place kind-castle besieged"[^>]*data-place="goodrich"', page)
    assert "Goodrich, besieged by Red" in page
    side = _text(page[page.index('id="full-side"') :])
    assert "Mowbray (Gold), held by Blue;" in side and "Goodrich: besieged by Red since round 2" in side
    # the captive is marked on the map: his counter framed in his captor's colour, and said so
    marker = re.search(r'<g class="unit noble captive"[^>]*>(.*?)</g>', page, re.S)
    assert marker, "no captive marked on the map"
    assert "Mowbray (Gold), captive of Blue, taken at Framlingham" in marker.group(1)
    assert '<path' in marker.group(1) or '<polygon' in marker.group(1)  # a noble's shield
    assert 'stroke-dasharray' in marker.group(1) and 'stroke="#1f4e9c"' in marker.group(1)  # blue's frame
    assert "Captive (captor" in page  # the legend says what the frame means


def test_the_api_answers_each_caller_its_own_part(at_battle: Full) -> None:
    api = at_battle.client()
    red = bearer(at_battle.tokens["red"])
    full = api.get(f"/api/games/{GAME}/full", headers=red).json()
    hands = {h["faction"]: h for h in full["hands"]}
    assert hands["red"]["cards"] and all(hands[f]["cards"] is None for f in ("blue", "green", "gold"))
    assert full["phase"] == "combat" and full["event"]["id"] == "tempest_in_the_narrow_seas"
    for path, body in (("fighting", None), ("resolve", {"attack": "a-framlingham"}), ("end-phase", None)):
        r = (
            api.get(f"/api/games/{GAME}/{path}", headers=red)
            if body is None and path == "fighting"
            else api.post(f"/api/games/{GAME}/{path}", json=body, headers=red)
        )
        assert r.status_code == 403, (path, r.text)
    gm = api.get(f"/api/games/{GAME}/full", headers=gm_auth()).json()
    assert all(h["cards"] is not None for h in gm["hands"])
    fights = api.get(f"/api/games/{GAME}/fighting", headers=gm_auth()).json()
    assert fights["battles"][0]["attacking"]["strength"] == 120 and fights["sieges"][0]["held"] == 130


def test_the_gm_draws_the_event_and_ends_phases_when_the_game_leaves_it_to_them(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'g.db'}", gm_password=GM_PASSWORD, clock=FixedClock())
    api = TestClient(app, raise_server_exceptions=False)
    body = {
        "name": "By hand",
        "factions": list(FACTIONS),
        "seed": "s56",
        "game_id": "hand",
        "draw_events": False,
    }
    assert api.post("/api/games", json=body, headers=gm_auth()).status_code == 201
    w = Full(app, {})
    gm, csrf = w.gm()
    page = gm.get("/gm/games/hand").text
    assert "Draw the event card" in page and "not drawn yet" in page
    r = gm.post("/gm/games/hand/draw-event", data={"csrf_token": csrf, "key": "d1"})
    assert "accepted: Turncoats at Midday is drawn" in _text(r.text)
    assert "Event this turn: Turncoats at Midday" in _text(r.text) and "Draw the event card" not in r.text
    r = gm.post("/gm/games/hand/end-phase", data={"csrf_token": csrf, "key": "e1"})
    assert "combat phase" in _text(r.text)

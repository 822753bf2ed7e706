"""A whole game run through the web app by four players and a GM (issue 14), on a real
SQLite file: the GM creates the game and seats the players from the console's API, then
every step is a form of a player's page or of the GM's console (map orders, "I have
finished my turn", the hand's assign and enter-play forms, the Parliament page's
summons, attendance, proposals and one-click votes, the GM's text orders) to a
parliamentary victory; and another game to a last-heir victory through the JSON API
alone (the choices, the assign and crown steps, the duties). Along the way: each form
offers only what the rules allow (a card's legal holders, the proposals the presiding
faction may make), votes stay secret until each proposal completes and then the tally
is on every page, the hand and the Chancery are shown to no one else, the GM console
says what each faction still has to do, and the game replays to the same hash.

Both games are dealt from the seed ``cli-106``, as ``tests/cli/test_whole_games.py``
deals them (four factions): red's Pole in Wingfield, blue's Roos in Helmsley, green's
Mowbray (Archbishop of Canterbury) at Framlingham, Neville in Warwick and Stanley in
Lathom, gold's Holland, Audley and Greystoke; Henry VI crowned, unescorted, in London.
Round 1's Crown draws give red the noble card Talbot, blue the Town of Newcastle, green
the ship Grace Dieu and gold the Bishop of Lincoln.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kingmaker.rules.hashing import state_hash
from kingmaker.service import FixedClock
from kingmaker.web import create_app
from kingmaker.web.settings import WebSettings

from .conftest import GM_PASSWORD, bearer, csrf_of, gm_auth

GAME = "wars"
FACTIONS = ("red", "blue", "green", "gold")
SEED = "cli-106"
#: The Chancery's cards at the deal: only the presiding faction (and the GM) may see them.
CHANCERY = (
    "Captain of Calais",
    "Steward of the Royal Household",
    "Treasurer of England",
    "Earl of Wiltshire",
)


def text_of(html: str) -> str:
    """The page's words, one space between each."""
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))).replace(" 's", "'s")


def options(html: str, hidden: str, value: str, select: str) -> list[str]:
    """The values offered by the ``select`` of the form holding ``hidden=value``."""
    at = html.find(f'name="{hidden}" value="{value}"')
    assert at >= 0, f"no form for {hidden}={value}"
    end = html.find("</form>", at)
    m = re.search(rf'<select[^>]*name="{select}"[^>]*>(.*?)</select>', html[at:end], re.S)
    assert m, f"no {select} choice in the form for {value}"
    return re.findall(r'<option value="([^"]+)"', m.group(1))


@dataclass
class Table:
    """Four players at their own browsers and a GM at the console."""

    app: Any
    tokens: dict[str, str]
    browsers: dict[str, TestClient] = field(default_factory=dict)

    def page(self, faction: str, path: str = "") -> str:
        return f"/play/{GAME}/{self.tokens[faction]}{path}"

    def browser(self, who: str) -> TestClient:
        if who not in self.browsers:
            c = TestClient(self.app, raise_server_exceptions=False)
            if who == "gm":
                token = csrf_of(c.get("/gm/login").text)
                r = c.post("/gm/login", data={"password": GM_PASSWORD, "csrf_token": token, "next": "/gm"})
                assert r.status_code == 200, r.text
            self.browsers[who] = c
        return self.browsers[who]

    def look(self, faction: str, path: str = "") -> str:
        r = self.browser(faction).get(self.page(faction, path))
        assert r.status_code == 200, r.text
        return r.text

    def submit(self, faction: str, on: str, action: str, data: dict[str, Any]) -> str:
        """Post a form of ``faction``'s page ``on`` (read first, for its CSRF token) to
        ``action``; the words of the page it comes back to (with the answer as a message)."""
        html = self.look(faction, on)
        r = self.browser(faction).post(self.page(faction, action), data={**data, "csrf_token": csrf_of(html)})
        assert r.status_code == 200, r.text
        return text_of(r.text)

    def console(self) -> str:
        r = self.browser("gm").get(f"/gm/games/{GAME}")
        assert r.status_code == 200, r.text
        return r.text

    def gm_orders(self, text: str) -> str:
        html = self.console()
        r = self.browser("gm").post(
            f"/gm/games/{GAME}/orders", data={"text": text, "do": "send", "csrf_token": csrf_of(html)}
        )
        assert r.status_code == 200, r.text
        return text_of(r.text)

    def api(self, faction: str) -> dict[str, str]:
        return gm_auth() if faction == "gm" else bearer(self.tokens[faction])

    def get(self, faction: str, path: str) -> Any:
        r = self.browser("api").get(f"/api/games/{GAME}/{path}", headers=self.api(faction))
        assert r.status_code == 200, r.text
        return r.json()

    def post(self, faction: str, path: str, body: dict[str, Any]) -> Any:
        r = self.browser("api").post(f"/api/games/{GAME}/{path}", json=body, headers=self.api(faction))
        assert r.status_code == 200, r.text
        return r.json()


@pytest.fixture
def table(tmp_path: Path) -> Table:
    app = create_app(
        f"sqlite:///{tmp_path / 'whole.db'}",
        gm_password=GM_PASSWORD,
        clock=FixedClock(),
        settings=WebSettings(player_requests_per_minute=100_000),
    )
    api = TestClient(app, raise_server_exceptions=False)
    body = {"name": "Wars of the Roses", "factions": list(FACTIONS), "seed": SEED, "game_id": GAME}
    r = api.post("/api/games", json=body, headers=gm_auth())
    assert r.status_code == 201, r.text
    tokens = {}
    for f in FACTIONS:
        r = api.post(
            f"/api/games/{GAME}/seats", json={"faction": f, "player": f"{f} player"}, headers=gm_auth()
        )
        assert r.status_code == 201, r.text
        tokens[f] = r.json()["token"]
    return Table(app, tokens)


def _first_round(t: Table) -> None:
    """Round 1 on the players' pages: red and blue take a noble out of his castle on the
    map; each player ends its turn with its button; each turn's end draws its Crown card."""
    for faction, noble, castle in (("red", "pole", "Wingfield"), ("blue", "roos", "Helmsley")):
        shown = t.submit(faction, "", "/order", {"unit": noble, "action": "leave"})
        assert f"accepted: {noble.capitalize()} leaves {castle} for the open" in shown, shown
        assert "I have finished my turn" in t.look(faction)
        t.submit(faction, "", "/finish", {})
    for faction in ("green", "gold"):
        t.submit(faction, "", "/finish", {})
    cards = {"red": "Talbot", "blue": "Town of Newcastle", "green": "Grace Dieu", "gold": "Bishop of Lincoln"}
    for faction in FACTIONS:
        full = t.get(faction, "full")
        assert (full["round"], full["turn"], full["phase"]) == (2, "red", "movement")
        mine = text_of(t.look(faction)).split("Your hand")[1].split("Captives")[0]
        assert cards[faction] in mine
        for other, card in cards.items():  # another's hand is its own
            if other != faction:
                assert card not in mine


def test_four_players_and_a_gm_play_a_whole_game_on_the_web_to_a_parliamentary_victory(table: Table) -> None:
    t = table
    _first_round(t)

    # -- the hand: each card offers its legal holders only -----------------------------------
    red = t.look("red")
    assert options(red, "noble", "talbot", "castle") == ["goodrich", "sheffield"]
    shown = t.submit("red", "", "/enter-play", {"noble": "talbot", "castle": "sheffield"})
    assert "accepted: Talbot enters play for red inside Sheffield" in shown and "[DEAL.noble]" in shown
    # out of turn, at any time: blue assigns its town card to its one noble
    assert options(t.look("blue"), "card", "town_of_newcastle", "to") == ["roos"]
    shown = t.submit("blue", "", "/assign", {"card": "town_of_newcastle", "to": "roos"})
    assert "accepted: blue assigns Town of Newcastle to Roos" in shown
    assert "Your hand Empty." in text_of(t.look("blue"))
    # a captive may hold no card (DEAL.assign): while the GM holds Audley, gold's form
    # does not offer him, and the API refuses the step with the rule
    assert options(t.look("gold"), "card", "bishop_of_lincoln", "to") == ["audley", "greystoke", "holland"]
    assert "accepted" in t.gm_orders("CAPTURE Audley BY Red\n")
    assert options(t.look("gold"), "card", "bishop_of_lincoln", "to") == ["greystoke", "holland"]
    choice = next(c for c in t.get("gold", "choices")["hand"] if c["card"]["id"] == "bishop_of_lincoln")
    assert [x["target"] for x in choice["targets"]] == ["greystoke", "holland"]
    out = t.post("gold", "assign", {"card": "bishop_of_lincoln", "to": "audley"})
    assert (out["result"], out["rule"]) == ("refused", "DEAL.assign"), out
    assert "accepted" in t.gm_orders("RELEASE Audley AT Heleigh INSIDE\n")
    assert "audley" in options(t.look("gold"), "card", "bishop_of_lincoln", "to")

    # -- the GM's hand ruling: red keeps the sole King ----------------------------------------
    console = text_of(t.gm_orders("Henry VI GOES WITH Pole\n"))
    assert "accepted" in console
    todo = text_of(t.console()).split("Still to do", 1)[1].split("Phase, event and fighting")[0]
    assert "movement phase" in todo and "red gives its movement orders (or none) (PHASE.movement)" in todo

    # -- Parliament: red summons it from its page ---------------------------------------------
    red = t.look("red")
    assert options(red, "key", re.search(r'value="([^"]+-summon)"', red).group(1), "seat") == [  # type: ignore[union-attr]
        "bristol",
        "ipswich",
    ]
    out = t.post("blue", "parliament/summon", {"seat": "belvoir"})
    assert (out["result"], out["rule"]) == ("refused", "PHASE.order"), out
    shown = t.submit("red", "/parliament", "/summon", {"seat": "ipswich"})
    assert "accepted: red summons Parliament to Ipswich as the faction of the sole King, Henry VI" in shown
    assert "Parliament at Ipswich" in shown and "you preside" in shown

    # attendance: the presiding faction first, then turn order
    for faction in ("blue", "green", "gold"):
        page = t.look(faction, "/parliament")
        assert "Declare your attendance" not in page and "You declare your attendance after Red" in text_of(
            page
        )
    page = t.look("red", "/parliament")
    assert re.findall(r'name="nobles" value="([a-z_]+)"', page) == ["pole", "talbot"]
    shown = t.submit("red", "/parliament", "/attend", {"nobles": ["pole", "talbot"]})
    assert "accepted: red attends Parliament at Ipswich with Pole and Talbot" in shown
    out = t.post("green", "parliament/attend", {"nobles": ["mowbray", "neville", "stanley"]})
    assert (out["result"], out["rule"]) == ("refused", "PARL.attend")
    console = text_of(t.console())
    assert "blue declares which of its nobles attend Parliament (PARL.attend)" in console
    assert "green declares its attendance after blue (PARL.attend)" in console
    t.submit("blue", "/parliament", "/attend", {"nobles": ["roos"]})
    t.submit("green", "/parliament", "/attend", {"nobles": ["mowbray", "neville", "stanley"]})
    shown = t.submit("gold", "/parliament", "/attend", {"nobles": ["holland"]})
    assert "attendance is complete, and red may propose" in shown

    # the Chancery is the presiding faction's: red sees its cards, no one else does
    red = t.look("red", "/parliament")
    for card in CHANCERY:
        assert card in text_of(red)
    for faction in ("blue", "green", "gold"):
        for where in (t.look(faction, "/parliament"), t.look(faction), str(t.get(faction, "parliament"))):
            for card in (*CHANCERY, "Marshal of England"):
                assert card not in where, (faction, card)
        assert t.get(faction, "parliament")["chancery"] is None
    # the proposals offered are those the rules take: an office to a titled noble holding
    # none, a title to an untitled noble (DEAL.limits), the victory motion (the sole King's)
    offered = options(red, "key", re.search(r'value="([^"]+-propose)"', red).group(1), "proposal")  # type: ignore[union-attr]
    assert "marshal_of_england:pole" in offered and "victory" in offered
    assert "marshal_of_england:roos" not in offered and "earl_of_wiltshire:pole" not in offered
    assert "earl_of_wiltshire:roos" in offered
    shown = t.submit("red", "/parliament", "/propose", {"proposal": "marshal_of_england:pole"})
    assert "pending: red proposes Marshal of England for Pole" in shown

    # one-click votes, secret until every voter has voted
    shown = t.submit("red", "/parliament", "/vote", {"proposal": "m1", "stance": "for"})
    assert "pending: red votes on m1, in secret until every voter has voted" in shown
    t.submit("blue", "/parliament", "/vote", {"proposal": "m1", "stance": "against"})
    seen = next(p for p in t.get("blue", "parliament")["proposals"] if p["id"] == "m1")
    assert seen["votes"] == [{"faction": "blue", "lords": "against", "commons": "against"}]
    assert seen["voted"] == ["red", "blue"] and seen["tally"] is None
    assert next(p for p in t.get("gold", "parliament")["proposals"] if p["id"] == "m1")["votes"] == []
    blue_page = text_of(t.look("blue", "/parliament"))
    assert "secret until every voter has voted ; voted: Red, Blue; waiting for Green, Gold" in blue_page
    assert "Red for" not in blue_page and "Blue against" in blue_page
    # green splits its vote by house
    shown = t.submit(
        "green", "/parliament", "/vote", {"proposal": "m1", "lords": "for", "commons": "against"}
    )
    assert "pending: green votes on m1" in shown
    assert "Red for" not in text_of(t.look("gold", "/parliament"))
    shown = t.submit("gold", "/parliament", "/vote", {"proposal": "m1", "stance": "abstain"})
    assert "accepted: Parliament passed Marshal of England for Pole" in shown, shown
    # decided: the tally and every vote on every page
    for faction in FACTIONS:
        page = text_of(t.look(faction, "/parliament"))
        assert "m1 Marshal of England for Pole passed" in page
        assert "Red for" in page and "Blue against" in page and "Green Lords for, Commons against" in page
        decided = next(p for p in t.get(faction, "parliament")["proposals"] if p["id"] == "m1")
        assert (
            decided["outcome"] == "passed"
            and decided["tally"]["lords_for"] > decided["tally"]["lords_against"]
        )
        assert len(decided["votes"]) == 4

    # the victory motion
    red = t.look("red", "/parliament")
    assert "victory" in options(red, "key", re.search(r'value="([^"]+-propose)"', red).group(1), "proposal")  # type: ignore[union-attr]
    t.submit("red", "/parliament", "/propose", {"proposal": "victory"})
    t.submit("red", "/parliament", "/vote", {"proposal": "m2", "stance": "for"})
    t.submit("blue", "/parliament", "/vote", {"proposal": "m2", "stance": "abstain"})
    t.submit("green", "/parliament", "/vote", {"proposal": "m2", "lords": "abstain", "commons": "against"})
    todo = text_of(t.console()).split("Still to do", 1)[1]
    assert "gold votes on m2, in each house (PARL.vote)" in todo
    shown = t.submit("gold", "/parliament", "/vote", {"proposal": "m2", "stance": "for"})
    assert (
        "Parliament passed the victory motion: Lords 15 for, 0 against; Commons 42 for, 6 against, of 51 present"
        in shown
    ), shown
    assert "red wins the game" in shown

    # the game is over: every page says so, and nothing more is done
    for faction in FACTIONS:
        assert "The game is over: Red wins (VICTORY.parliament)" in text_of(t.look(faction))
    assert "The game is over: Red wins (VICTORY.parliament)" in text_of(t.console())
    assert (
        t.get("gm", "duties")["duties"] == [] and t.get("gm", "duties")["game_over"] == "VICTORY.parliament"
    )
    out = t.post("gold", "assign", {"card": "bishop_of_lincoln", "to": "holland"})
    assert (out["result"], out["rule"]) == ("refused", "VICTORY.timing")
    shown = t.submit("red", "/parliament", "/close-parliament", {})
    assert "refused" in shown and "VICTORY.timing" in shown

    # the reports tell it; the log replays to the same game
    report = t.get("gm", "reports?round=2&turn=red&format=plain")
    words = str(report)
    for rule in (
        "DEAL.noble",
        "DEAL.assign",
        "PARL.summon.king",
        "PARL.attend",
        "PARL.vote",
        "VICTORY.parliament",
    ):
        assert f"[{rule}]" in words, rule
    svc = t.app.state.site.svc
    assert state_hash(svc.replayed_state(GAME)) == state_hash(svc.state(GAME))


#: every heir but Richard, Duke of York, whom Green's Mowbray keeps at York (the GM's rulings)
OTHER_HEIRS = (
    "Henry VI",
    "Margaret of Anjou",
    "Edward, Prince of Wales",
    "Edward, Earl of March",
    "Edmund, Earl of Rutland",
    "George, Duke of Clarence",
    "Richard, Duke of Gloucester",
)


def _green_holds_the_other_heirs_at_york(t: Table) -> tuple[str, ...]:
    """After the first round and red's and blue's turns of round 2, in green's turn: the
    GM's hand rulings (one text post through the API) put Mowbray inside York, which green
    holds, with the seven other heirs in his keeping. The heirs' names."""
    _first_round(t)
    t.post("red", "enter-play", {"noble": "talbot", "castle": "sheffield"})
    for faction in ("red", "blue"):
        r = t.browser("api").post(f"/api/games/{GAME}/finish-turn", headers=t.api(faction))
        assert r.status_code == 200, r.text
    assert t.get("green", "full")["turn"] == "green"
    setup = "CAPTURE Mowbray BY Red\nRELEASE Mowbray AT York INSIDE\nSET York TO Green\n"
    setup += "".join(f'"{h}" GOES WITH Mowbray\n' for h in OTHER_HEIRS)
    rows = t.post("gm", "orders/text", {"text": setup})
    assert all(v["result"] == "accepted" for v in rows), rows
    return OTHER_HEIRS


def test_a_whole_game_to_a_last_heir_victory_through_the_json_api(table: Table) -> None:
    """Green crowns Richard, Duke of York at York once every other heir is dead, and wins
    when its turn ends (VICTORY.last_heir). The GM's hand rulings (one text post through
    the API) put Mowbray inside York with the seven other heirs in his keeping, as the
    CLI's game does; the rest is the players' API: choices, text orders for the capture and
    the executions, the crown step, the GM's end of the turn."""
    t = table
    heirs = _green_holds_the_other_heirs_at_york(t)

    # green keeps seven heirs: Henry VI, crowned, and six it may not crown (each refusal
    # says why); not yet Richard of York
    crowns = t.get("green", "choices")["coronations"]
    assert len(crowns) == 6 and not any(c["allowed"] for c in crowns)
    assert "richard_duke_of_york" not in [c["target"] for c in crowns]
    assert {c["rule"] for c in crowns} <= {
        "CROWN.succession",
        "CROWN.cathedral",
        "CROWN.clergy",
        "CROWN.phase",
    }
    out = t.post("green", "crown", {"heir": "richard_duke_of_york"})
    assert (out["result"], out["rule"]) == ("refused", "CROWN.escort")
    # the ship card to a noble the choices offer, through the assign step
    grace = next(c for c in t.get("green", "choices")["hand"] if c["card"]["id"] == "grace_dieu")
    assert [x["target"] for x in grace["targets"]] == ["mowbray", "neville", "stanley"]
    out = t.post("green", "assign", {"card": "grace_dieu", "to": "neville"})
    assert (out["result"], out["rule"]) == ("accepted", "DEAL.assign")
    post = "Mowbray CAPTURES Richard, Duke of York\n" + "".join(f"Green EXECUTES {h}\n" for h in heirs)
    rows = t.post("green", "orders/text", {"text": post})
    assert [v["rule"] for v in rows] == ["CAPTURE.heir", *["EXEC.heir"] * 7], rows

    # the coronation is offered where the rules crown him: at York (moving the turn on)
    (crown,) = t.get("green", "choices")["coronations"]
    assert (crown["target"], crown["allowed"], crown["place"], crown["advances_to"]) == (
        "richard_duke_of_york",
        True,
        "york",
        "coronation",
    )
    assert crown["rule"] == "CROWN.succession"
    duties = t.get("green", "duties")["duties"]
    assert duties[0]["kind"] == "orders"
    out = t.post("green", "crown", {"heir": "richard_duke_of_york"})
    assert (out["result"], out["rule"]) == ("accepted", "CROWN.succession")
    assert t.get("green", "duties")["phase"] == "coronation"
    everyone = t.get("gm", "duties")["duties"]
    assert [d["who"] for d in everyone] == ["gm"]  # the GM moves the turn on
    assert t.get("red", "duties")["duties"] == []  # a player sees its own duties only

    r = t.browser("api").post(f"/api/games/{GAME}/finish-turn", headers=t.api("green"))
    assert r.status_code == 200 and r.json()["rule"] == "VICTORY.last_heir", r.text
    final = t.get("gm", "duties")
    assert (final["game_over"], final["winner"]) == ("VICTORY.last_heir", "green")
    out = t.post("gold", "assign", {"card": "bishop_of_lincoln", "to": "holland"})
    assert (out["result"], out["rule"]) == ("refused", "VICTORY.timing")
    svc = t.app.state.site.svc
    assert state_hash(svc.replayed_state(GAME)) == state_hash(svc.state(GAME))


def test_the_crown_button_is_on_the_page_only_where_a_coronation_is_legal_and_it_crowns(table: Table) -> None:
    """Green's noble holds Richard of York at York, a cathedral green controls, with every
    other heir dead: the crown button is on green's page (and on no other), and its form
    crowns him (CROWN.succession); until then no page has one."""
    t = table
    heirs = _green_holds_the_other_heirs_at_york(t)
    crown = re.compile(r'class="primary crown">([^<]+)<')
    assert not crown.findall(t.look("green"))  # Henry VI lives: York's heir is not next
    post = "Mowbray CAPTURES Richard, Duke of York\n" + "".join(f"Green EXECUTES {h}\n" for h in heirs)
    assert all(v["result"] == "accepted" for v in t.post("green", "orders/text", {"text": post}))
    page = t.look("green")
    assert crown.findall(page) == ["Crown Richard, Duke of York at York"]
    for other in ("red", "blue", "gold"):
        assert not crown.findall(t.look(other))
    form = re.search(r'<form method="post" action="[^"]+(/crown)"[^>]*>(.*?)</form>', page, re.S)
    assert form, "no crown form on green's page"
    fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form.group(2)))
    fields.pop("csrf_token", None)
    shown = t.submit("green", "", form.group(1), fields)
    assert "accepted" in shown and "CROWN.succession" in shown, shown
    heir = next(h for h in t.get("green", "view")["heirs"] if h["id"] == "richard_duke_of_york")
    assert heir["crowned"], heir

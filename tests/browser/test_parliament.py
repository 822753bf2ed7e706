"""Parliament and the hand in the browser (issue 14): a game dealt from ``cli-106``
brought by the API to round 2 with red keeping the sole King (as the web's whole-game
test does); then in Chromium red brings its noble card into play from the hand's form
(which offers his castles only), summons Parliament, declares its attendance, proposes
from the Chancery only it sees, and votes with one click; blue sees that red has voted
and not how, until blue's vote completes nothing (two more voters); the GM console
says who is awaited. Screenshots of the pages go to ``test-artifacts/``."""

from __future__ import annotations

import json
import secrets
import urllib.request
from typing import Any

import pytest

from .conftest import GM_PASSWORD, Browsers, Server, artifacts_dir, need_playwright

need_playwright()

from playwright.sync_api import expect  # noqa: E402

from .pages import GmConsole  # noqa: E402

pytestmark = pytest.mark.browser

FACTIONS = ("red", "blue", "green", "gold")


def _api(server: Server, path: str, body: Any = None, token: str | None = None) -> Any:
    auth = f"Bearer {token}" if token else f"Bearer gm:{GM_PASSWORD}"
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(
        server.url + "/api" + path,
        data=data,
        method="POST" if data is not None else "GET",
        headers={"Authorization": auth, "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def _round_two(server: Server, game: str) -> dict[str, str]:
    """The game at round 2, red's movement phase: every faction holds its first Crown
    card; red keeps Henry VI (the GM's hand ruling). The players' tokens."""
    body = {"name": "Browser Parliament", "factions": list(FACTIONS), "seed": "cli-106", "game_id": game}
    _api(server, "/games", body)
    tokens = {
        f: _api(server, f"/games/{game}/seats", {"faction": f, "player": f"{f} player"})["token"]
        for f in FACTIONS
    }
    for f in FACTIONS:
        _api(server, f"/games/{game}/finish-turn", {}, tokens[f])
    rows = _api(server, f"/games/{game}/orders/text", {"text": "Henry VI GOES WITH Pole\n"})
    assert [r["result"] for r in rows] == ["accepted"], rows
    return tokens


def test_parliament_is_summoned_attended_proposed_and_voted_in_the_browser(
    gm: GmConsole, browsers: Browsers, server: Server
) -> None:
    game = f"p{secrets.token_hex(4)}"
    tokens = _round_two(server, game)
    out = artifacts_dir()

    red = browsers.page("red")
    red.goto(f"/play/{game}/{tokens['red']}")
    red.locator(".side-col").screenshot(path=str(out / "parliament-red-hand.png"))
    hand = red.locator("li.hand-card", has_text="Talbot")
    assert hand.locator("select option").all_inner_texts() == ["Goodrich", "Sheffield"]
    hand.locator("select").select_option("sheffield")
    hand.get_by_role("button", name="Bring into play").click()
    expect(red.locator(".flash.ok")).to_contain_text("Talbot enters play for red inside Sheffield")
    side = red.locator("#end-side")
    expect(side).to_contain_text("red gives its movement orders (or none)")
    side.get_by_label("Summon Parliament to").select_option("ipswich")
    side.get_by_role("button", name="Summon").click()
    red.wait_for_url("**/parliament")
    expect(red.locator(".flash.ok")).to_contain_text("red summons Parliament to Ipswich")
    expect(red.get_by_role("heading", name="Parliament at Ipswich")).to_be_visible()
    red.get_by_role("button", name="Declare attendance").click()
    expect(red.locator(".flash.ok")).to_contain_text("red attends Parliament at Ipswich with Pole and Talbot")

    for f, nobles in (
        ("blue", ["roos"]),
        ("green", ["mowbray", "neville", "stanley"]),
        ("gold", ["holland"]),
    ):
        o = _api(server, f"/games/{game}/parliament/attend", {"nobles": nobles}, tokens[f])
        assert o["result"] == "accepted", o
    red.reload()
    expect(red.locator("#business-h")).to_be_visible()
    expect(red.get_by_text("Treasurer of England").first).to_be_visible()  # the Chancery, red's to see
    red.get_by_label("Propose").select_option(label="Marshal of England for Pole")
    red.get_by_role("button", name="Propose", exact=True).click()
    expect(red.locator(".flash.ok")).to_contain_text("red proposes Marshal of England for Pole")
    red.get_by_role("button", name="For", exact=True).click()
    expect(red.locator(".flash.ok")).to_contain_text("red votes on m1, in secret")
    red.screenshot(path=str(out / "parliament-red.png"), full_page=True)

    blue = browsers.page("blue")
    blue.goto(f"/play/{game}/{tokens['blue']}/parliament")
    expect(blue.locator("table.proposals")).to_contain_text("voted: Red")
    assert "Treasurer of England" not in blue.content()
    blue.get_by_text("Vote differently in each house").click()
    blue.get_by_label("Lords").select_option("against")
    blue.get_by_label("Commons").select_option("for")
    blue.get_by_role("button", name="Vote", exact=True).click()
    expect(blue.locator(".flash.ok")).to_contain_text("blue votes on m1")
    row = blue.locator("table.proposals tr", has_text="m1")
    expect(row).to_contain_text("Blue Lords against, Commons for")
    assert "Red for" not in row.inner_text()  # red's vote stays secret until all have voted
    blue.screenshot(path=str(out / "parliament-blue.png"), full_page=True)

    gm.page.goto(f"/gm/games/{game}")
    todo = gm.page.locator("#todo")
    expect(todo).to_contain_text("green votes on m1, in each house (PARL.vote)")
    expect(todo).to_contain_text("Chancery (6): Earl of Wiltshire, Marshal of England")
    todo.screenshot(path=str(out / "parliament-gm-todo.png"))

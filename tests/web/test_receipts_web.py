"""Receipts on the web (issue 15, item 5): the GM console and the player's post result
show the receipt of the post, the same the CLI prints (``render.reports.receipt`` from
the verdicts of ``service.posts``); chatter is listed as ignored."""

from __future__ import annotations

import html

from kingmaker.render.reports import render
from kingmaker.render.reports.receipt import receipt_for
from kingmaker.service.identity import player

from .conftest import GAME, World

POST = "Hi GM, orders for Red round 1:\nPercy MOVES TO Tadcastr\nthanks! -- Alice\n"


def test_the_players_check_and_send_show_the_receipt(world: World) -> None:
    c, token = world.player("red")
    base = world.page("red")
    r = c.post(f"{base}/check", data={"text": POST, "csrf_token": token}, headers={"HX-Request": "true"})
    assert r.status_code == 200
    page = html.unescape(r.text)
    assert 'class="receipt"' in r.text
    assert "[b][u]Orders checked (not sent) for " in page
    assert "ignored" in page and "did you mean Tadcaster?" in page
    verdicts = world.svc.post(player("red"), GAME, POST, "red", send=False)
    want = render(receipt_for(world.svc, GAME, "red", verdicts, sent=False), "plain")
    assert want.strip() in page
    r = c.post(
        f"{base}/send", data={"text": POST, "csrf_token": token, "key": "rc1"}, headers={"HX-Request": "true"}
    )
    assert r.status_code == 200
    assert "Orders received from " in html.unescape(r.text)


def test_the_gm_console_shows_the_receipt_of_its_post(world: World) -> None:
    c, token = world.gm()
    r = c.post(
        f"/gm/games/{GAME}/orders",
        data={"text": "Red: Percy MOVES TO Tadcastr\nGood evening all", "do": "check", "csrf_token": token},
    )
    assert r.status_code == 200, r.text
    page = html.unescape(r.text)
    assert 'class="receipt"' in r.text and "[b][u]Orders checked (not sent) for the GM" in page
    assert "ignored" in page

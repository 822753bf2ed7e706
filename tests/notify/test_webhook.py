"""The webhook (issue 15, item 11), against a real local HTTP server: a JSON POST of the
public turn report, signed with HMAC-SHA256 of the body with the game's secret, once per
turn, tried again after a failure; bad URLs and secrets refused."""

from __future__ import annotations

import pytest

from kingmaker.notify import run_once
from kingmaker.notify.admin import contacts, set_webhook
from kingmaker.notify.webhook import SIGNATURE_HEADER, verify
from kingmaker.render.reports import render, reports_for, turn_report
from kingmaker.rules import commands as rc
from kingmaker.rules.views import PUBLIC
from kingmaker.service import GM_ACTOR, BadRequest, PermissionDenied, player
from kingmaker.service.commands import FinishTurn, Submit
from kingmaker.storage.outbox import OutboxRow

from .conftest import Game, Hooked

SECRET = "s3cret-s3cret-s3cret"


def _hooks(game: Game) -> list[OutboxRow]:
    return [r for r in game.box.rows(game.id) if r.channel == "webhook"]


def test_the_public_turn_report_is_posted_once_signed(game: Game, hook_server: Hooked) -> None:
    svc, g = game.svc, game.id
    assert set_webhook(svc, game.box, GM_ACTOR, g, hook_server.url, SECRET, "bbcode") == SECRET
    svc.execute(player("red"), Submit(g, rc.DeclareAlliance("red", "secret-rg", ("green",))))
    run_once(svc, game.box, None)  # no SMTP server: e-mail waits, the webhook goes
    assert hook_server.posts == []  # nothing public happened yet
    svc.execute(GM_ACTOR, FinishTurn(g, "red"))
    run_once(svc, game.box, None)
    run_once(svc, game.box, None)
    ((headers, body),) = hook_server.posts
    assert verify(body, SECRET, headers[SIGNATURE_HEADER.lower()])
    assert headers["content-type"] == "application/json; charset=utf-8"
    assert headers["x-kingmaker-event"] == "turn_report"
    data = hook_server.json(0)
    assert headers["x-kingmaker-delivery"] == data["delivery"]
    expected = render(turn_report(reports_for(svc, g), (1, "red"), PUBLIC), "bbcode")
    assert data | {"text": None} == {
        "event": "turn_report",
        "game": g,
        "game_name": "Wars",
        "round": 1,
        "turn": "red",
        "turn_name": "Red",
        "seq": data["seq"],
        "format": "bbcode",
        "delivery": data["delivery"],
        "text": None,
    }
    assert data["text"] == expected and "secret-rg" not in data["text"]
    # the e-mail waits for a server; the GM sees the webhook's host, never its URL or secret
    assert {r.channel: r.status for r in game.box.rows(g) if r.channel == "webhook"} == {"webhook": "sent"}
    assert "queued" in game.box.counts(g)
    seen = contacts(svc, game.box, GM_ACTOR, g)
    assert seen.webhook_host == "127.0.0.1" and SECRET not in repr(seen) and "/hook" not in repr(seen)


def test_a_failed_post_is_tried_again_and_a_client_error_fails(game: Game, hook_server: Hooked) -> None:
    svc, g = game.svc, game.id
    key = set_webhook(svc, game.box, GM_ACTOR, g, hook_server.url)
    assert key is not None and len(key) >= 32  # made for the GM, shown once
    hook_server.statuses = [503]
    svc.execute(GM_ACTOR, FinishTurn(g, "red"))
    run_once(svc, game.box, None)
    (row,) = _hooks(game)
    assert (row.status, row.attempts, row.last_error) == (
        "queued",
        1,
        "the webhook answered 503 Service Unavailable",
    )
    game.clock.advance(minutes=2)
    run_once(svc, game.box, None)
    assert _hooks(game)[0].status == "sent" and len(hook_server.posts) == 1
    assert verify(hook_server.posts[0][1], key, hook_server.posts[0][0][SIGNATURE_HEADER.lower()])
    hook_server.statuses = [404]
    svc.execute(GM_ACTOR, FinishTurn(g, "blue"))
    run_once(svc, game.box, None)
    row = _hooks(game)[0]
    assert (row.status, row.last_error) == ("failed", "the webhook answered 404 Not Found")
    set_webhook(svc, game.box, GM_ACTOR, g, None)  # removed: nothing more is posted
    svc.execute(GM_ACTOR, FinishTurn(g, "green"))
    run_once(svc, game.box, None)
    assert len(hook_server.posts) == 1 and len(_hooks(game)) == 2


BAD = [
    ("http://chat.example.org/hook", None, "must start https:// (http:// only for localhost)"),
    ("https://user:pw@chat.example.org/hook", None, "may not hold a user name or password"),
    ("ftp://chat.example.org/", None, "must start https:// and name a host"),
    ("https://chat.example.org/a b", None, "printable ASCII without spaces"),
    ("https://chat.example.org/hook#x", None, "no #fragment"),
    ("https://chat.example.org/hook", "short", "a webhook secret is 16 to 200 characters"),
]


def test_bad_webhooks_are_refused_with_a_clear_reason(game: Game) -> None:
    for url, secret, reason in BAD:
        with pytest.raises(BadRequest) as e:
            set_webhook(game.svc, game.box, GM_ACTOR, game.id, url, secret)
        assert reason in str(e.value), url
    with pytest.raises(BadRequest, match="one of bbcode, markdown, plain"):
        set_webhook(game.svc, game.box, GM_ACTOR, game.id, "https://chat.example.org/hook", None, "html")
    assert game.box.settings(game.id).webhook_url is None


def test_only_the_gm_sets_a_webhook(game: Game) -> None:
    with pytest.raises(PermissionDenied):
        set_webhook(game.svc, game.box, player("red"), game.id, "https://chat.example.org/hook")

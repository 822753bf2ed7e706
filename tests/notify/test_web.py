"""The GM console's notifications page (issue 15, item 11): a seat's e-mail field, the
webhook's settings (its secret shown once, its URL never again), the outbox table; the
addresses and secrets on no player's or public page."""

from __future__ import annotations

import re

from tests.web.conftest import GAME, World, csrf_of, gm_auth

from .conftest import Hooked

PAGE = f"/gm/games/{GAME}/notify"


def test_the_gm_sets_addresses_and_a_webhook_and_sees_the_outbox(world: World, hook_server: Hooked) -> None:
    gm, csrf = world.gm()
    r = gm.get(PAGE)
    assert r.status_code == 200 and "E-mail addresses" in r.text and 'id="email-red"' in r.text
    assert "no SMTP server is set" in r.text
    csrf = csrf_of(r.text)
    r = gm.post(
        f"{PAGE}/email", data={"faction": "red", "email": "Ann <ann@example.org>", "csrf_token": csrf}
    )
    assert r.status_code == 400 and "one bare address" in r.text
    r = gm.post(f"{PAGE}/email", data={"faction": "red", "email": "ann@example.org", "csrf_token": csrf})
    assert r.status_code == 200 and 'value="ann@example.org"' in r.text  # after the redirect
    r = gm.post(f"{PAGE}/webhook", data={"url": "http://chat.example.org/x", "csrf_token": csrf})
    assert r.status_code == 400 and "must start https://" in r.text
    r = gm.post(f"{PAGE}/webhook", data={"url": hook_server.url, "format": "bbcode", "csrf_token": csrf})
    secret = re.search(r'<code class="wrap" id="new-secret">([^<]+)</code>', r.text)
    assert r.status_code == 200 and secret is not None
    r = gm.get(PAGE)
    assert secret.group(1) not in r.text and hook_server.url not in r.text and "127.0.0.1" in r.text
    assert world.api.post(f"/api/games/{GAME}/finish-turn", headers=gm_auth()).status_code in (200, 201)
    r = gm.post(f"{PAGE}/send", data={"csrf_token": csrf_of(r.text)})
    assert r.status_code == 200 and 'id="outbox"' in r.text
    assert len(hook_server.posts) == 1 and "[b]" in hook_server.json(0)["text"]
    rows = re.findall(r"<tr>\s*<td>(\d+)</td>", r.text)
    assert len(rows) == 2  # red's private report (waiting for a server) and the webhook's post
    assert "queued" in r.text and "sent" in r.text
    # never on a player's or a public page, nor in the API's answers to players
    for faction in ("red", "blue"):
        c, _ = world.player(faction)
        for path in (world.page(faction), f"/play/{GAME}/{world.tokens[faction]}/inbox"):
            text = c.get(path).text
            assert (
                "ann@example.org" not in text and secret.group(1) not in text and "Notifications" not in text
            )
    assert world.client().get(PAGE, follow_redirects=False).status_code == 303  # the GM's only

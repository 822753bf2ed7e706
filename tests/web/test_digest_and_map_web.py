"""Issue 15 §8 and §10 on the web: the round's digest through the API (each reader its
own), on the GM's reports page (to copy, beside the turn's reports) and on a player's
reports page; the map to post, 1600 pixels wide, from the GM's page (after the turn
reported), the player's link and the API."""

from __future__ import annotations

import io

from PIL import Image

from .conftest import GAME, World, bearer, gm_auth


def _play_a_turn(world: World) -> None:
    red = bearer(world.tokens["red"])
    r = world.api.post(
        f"/api/games/{GAME}/orders/text", json={"text": "Red ALLIES WITH Blue AS rb"}, headers=red
    )
    assert r.status_code == 200
    assert world.api.post(f"/api/games/{GAME}/finish-turn", headers=red).status_code == 200


def test_the_round_digest_through_the_api_and_the_pages(world: World) -> None:
    _play_a_turn(world)
    base = f"/api/games/{GAME}/digest"
    pub = world.api.get(base, params={"format": "plain", "faction": "public"}, headers=gm_auth())
    assert pub.status_code == 200, pub.text
    body = pub.json()
    assert body["round"] == 1 and body["rounds"] == [1] and body["viewer"] == "public"
    assert body["turns"][:2] == ["red", "blue"]
    assert body["digest"].startswith("Round 1 digest\n") and "red-rb" not in body["digest"]
    red = world.api.get(base, params={"format": "bbcode"}, headers=bearer(world.tokens["red"])).json()
    assert red["viewer"] == "red" and red["digest"].startswith("[b][u]Round 1 digest (for Red)")
    assert "red-rb" in red["digest"]  # Red's own declaration, its to read
    blue = world.api.get(base, params={"format": "markdown"}, headers=bearer(world.tokens["blue"])).json()
    assert blue["digest"].startswith("# Round 1 digest (for Blue)")
    # a player reads only their own; a round not played is not found
    assert (
        world.api.get(base, params={"faction": "red"}, headers=bearer(world.tokens["gold"])).status_code
        == 403
    )
    assert world.api.get(base, params={"round": 5}, headers=gm_auth()).status_code == 404

    gm, _ = world.gm()
    page = gm.get(f"/gm/games/{GAME}/reports", params={"round": 1, "turn": "red"})
    assert page.status_code == 200
    assert "Round 1 digest for the thread" in page.text and 'id="bb-digest"' in page.text
    assert "map.png?viewer=public&amp;round=1&amp;turn=red" in page.text
    player = world.client().get(world.page("red") + "/reports", params={"round": 1, "digest": 1})
    assert player.status_code == 200 and "Round 1 digest (for Red)" in player.text
    assert 'href="?round=1&amp;digest=1" aria-current="page"' in player.text


def test_the_map_to_post_is_1600_pixels_wide_everywhere(world: World) -> None:
    _play_a_turn(world)
    gm, _ = world.gm()
    for client, url, headers in (  # (each PNG takes a few seconds: two of the four ways)
        (gm, f"/gm/games/{GAME}/map.png?viewer=blue&round=1&turn=red", {}),
        (world.api, f"/api/games/{GAME}/map.png", bearer(world.tokens["green"])),
    ):
        r = client.get(url, headers=headers)
        assert r.status_code == 200, (url, r.text[:200])
        img = Image.open(io.BytesIO(r.content))
        assert (img.format, img.width) == ("PNG", 1600), url
    assert gm.get(f"/gm/games/{GAME}/map.png?round=7&turn=red").status_code == 404

"""Smaller checks in the browser: the map asks the server where a unit may go and rings
those places; hovering or tapping shows a place's or a unit's details; the map can be
driven from the keyboard; no page shows another faction's secrets."""

from __future__ import annotations

import secrets

import pytest

from kingmaker.rules import legal_destinations

from .conftest import Browsers, artifacts_dir, need_playwright
from .scenario import Plan, deal

need_playwright()

from playwright.sync_api import Locator, Page, Position, expect  # noqa: E402

from .pages import PNG, GmConsole, Player, seat_players  # noqa: E402

pytestmark = pytest.mark.browser


def _game() -> str:
    return f"g{secrets.token_hex(4)}"


def _details_match(page: Page, group: Locator) -> None:
    """The details panel shows the hovered (or tapped) map element's title and details."""
    title = group.locator("title").text_content()
    details = group.get_attribute("data-details")
    assert title and details
    expect(page.locator("#details h2")).to_have_text(title)
    expect(page.locator("#details p")).to_have_text(details)


def _at_symbol(group: Locator) -> Position:
    """Where to point in a map group: the middle of its first shape (a place's symbol,
    not its label), relative to the group's box."""
    box = group.bounding_box()
    shape = group.locator(":is(circle, rect, polygon)").first.bounding_box()
    assert box and shape
    return {"x": shape["x"] + shape["width"] / 2 - box["x"], "y": shape["y"] + shape["height"] / 2 - box["y"]}


def _place(page: Page, place: str) -> Locator:
    return page.locator(f'#map-svg g.place[data-place="{place}"]')


def test_choosing_a_unit_rings_the_destinations_the_server_gives(
    gm: GmConsole, browsers: Browsers, plan: Plan
) -> None:
    red = seat_players(gm, browsers, _game(), plan.seed, ("red", "blue"))["red"]
    p = red.open()
    unit = plan.blocked
    name = plan.name(unit)
    expect(p.locator("#map-overlay g.dest")).to_have_count(0)
    # from the list of units this time (the full turn uses the map's markers)
    p.locator("#units").get_by_role("link", name=name).click()
    expect(p.locator("#order-panel h2")).to_have_text(name)
    expected = {
        d.place
        for d in legal_destinations(deal(plan.seed), unit).places
        if len(d.path) > 1 or d.enter or d.siege
    }
    assert expected, "the unit has somewhere to go"
    expect(p.locator("#map-overlay g.dest")).to_have_count(len(expected))
    assert red.rings() == expected
    listed = p.locator("#order-panel ul.dests li a")
    expect(listed).to_have_count(len(expected))
    shot = artifacts_dir() / "browser-map-destinations.png"
    p.locator("#map-wrap").screenshot(path=shot)
    assert shot.read_bytes().startswith(PNG)
    # the keyboard: a ring takes the focus and Enter asks for the confirmation
    target = sorted(expected)[0]
    red.ring(target).focus()
    p.keyboard.press("Enter")
    expect(p.locator("#order-panel h3")).to_have_text(deal(plan.seed).board.name_of(target))
    expect(p.locator("#order-panel").get_by_role("button", name="Confirm:").first).to_be_visible()
    p.get_by_role("link", name="Back to the destinations").click()
    expect(p.locator("#order-panel ul.dests li a")).to_have_count(len(expected))
    expect(p.locator("#map-overlay g.dest")).to_have_count(len(expected))
    # nothing was sent: the GM console still says Red has not ordered
    gm.page.reload()
    red_row = gm.page.locator("tr", has=gm.page.locator("th[scope=row]", has_text="Red"))
    expect(red_row.locator(".no")).to_have_text("no")
    # the server's PNG of the map, linked from the page
    png = p.context.request.get(p.get_by_role("link", name="Map as PNG").get_attribute("href") or "")
    assert png.ok and png.headers["content-type"] == "image/png" and png.body().startswith(PNG)


def test_hover_and_tap_show_details(gm: GmConsole, browsers: Browsers, plan: Plan) -> None:
    game = _game()
    links = seat_players(gm, browsers, game, plan.seed, ("red", "blue"))
    red = links["red"]
    p = red.open()
    expect(p.locator("#details")).to_contain_text("Hover or tap")
    place = _place(p, plan.meeting)
    place.hover(position=_at_symbol(place))
    _details_match(p, place)
    expect(p.locator("#details h2")).to_contain_text(plan.name(plan.meeting))
    marker = red.unit(plan.mover)
    marker.hover()
    _details_match(p, marker)
    expect(p.locator("#details p")).to_contain_text(plan.name(plan.mover))
    # on a phone: a tap shows the details (and a tap on a unit of one's own chooses it)
    tp = browsers.page(
        "red on a phone", viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    tp.goto(red.link)
    place = _place(tp, plan.route[1])
    place.tap(position=_at_symbol(place))
    _details_match(tp, place)
    mine = Player(tp, red.link).unit(plan.mover)
    mine.tap()
    _details_match(tp, mine)
    expect(tp.locator("#order-panel h2")).to_have_text(plan.name(plan.mover))


def test_no_page_shows_another_factions_secrets(gm: GmConsole, browsers: Browsers, plan: Plan) -> None:
    game = _game()
    players = seat_players(gm, browsers, game, plan.seed, ("red", "blue", "green"))
    red, blue, green = players["red"], players["blue"], players["green"]
    secret = "whiteroseplot"
    red.open()
    verdicts = red.text_orders(f"Red ALLIES WITH Blue AS {secret}", "Send")
    expect(verdicts.first).to_contain_text("pending")
    # Blue, invited, sees it awaiting its answer; Red sees it awaiting Blue
    blue.open("/inbox")
    expect(blue.page.locator("article.card")).to_contain_text(secret)
    red.open("/inbox")
    expect(red.page.get_by_role("region", name="Your declarations and requests")).to_contain_text(secret)
    # Green, outside it, finds nothing of it on any page, nor anyone else's link, nor
    # the game's seed (secret until the GM reveals it)
    for sub in ("", "/inbox", "/position", "/log", "/reports"):
        html = green.open(sub).content()
        assert secret not in html and plan.seed not in html, sub
        assert red.token not in html and blue.token not in html, sub
    # and no player's page holds another player's link
    for who in (red, blue):
        html = who.open().content()
        assert not any(x.token in html for x in players.values() if x is not who)
        assert plan.seed not in html
    # naming the secret id in a text order tells Green no more than a made-up id
    green.open()
    said = {}
    for ident in (secret, "nosuchplot"):
        verdicts = green.text_orders(f"Green ACCEPTS ALLIANCE {ident}", "Check (send nothing)")
        said[ident] = verdicts.first.inner_text().replace(ident, "<id>")
    assert said[secret] == said["nosuchplot"], said
    # a player's session is no key to the GM console
    green.page.goto("/gm")
    expect(green.page.get_by_role("heading", name="Game master")).to_be_visible()
    assert "/gm/login" in green.page.url

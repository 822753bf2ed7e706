"""A forum turn played in a real browser: the GM creates and seats a game in the GM
console, two players (and a third, outside their alliance) open their private links,
ally, give and confirm an allied order, have a move through a neutral castle refused
with its rule, and the GM ends the turn and reads it all in the turn report."""

from __future__ import annotations

import pytest

from kingmaker.rules import legal_destinations

from .conftest import Browsers, artifacts_dir, need_playwright
from .scenario import FACTIONS, NEUTRAL_ROAD, Plan, state_after_alliance

need_playwright()

from playwright.sync_api import expect  # noqa: E402

from .pages import PNG, GmConsole, seat_players  # noqa: E402

pytestmark = pytest.mark.browser


def test_a_forum_turn_in_the_browser(gm: GmConsole, browsers: Browsers, plan: Plan) -> None:
    game = "roses"
    players = seat_players(gm, browsers, game, plan.seed, FACTIONS)
    red, ally, outsider = players["red"], players[plan.ally], players[plan.outsider]
    ally_name = plan.ally.capitalize()
    pact = "rosepact"

    # -- the private links open each player's own map -----------------------------------
    p = red.open()
    expect(p.locator("#status-line")).to_contain_text("You play Red")
    expect(p.locator("#status-line")).to_contain_text("it is your turn")
    expect(ally.open().locator("#status-line")).to_contain_text(f"You play {ally_name}")

    # -- Red declares an alliance as text; the ally accepts it in the inbox -------------
    verdicts = red.text_orders(f"Red ALLIES WITH {ally_name} AS {pact}", "Check (send nothing)")
    expect(verdicts).to_have_count(1)
    expect(verdicts.first).to_contain_text("pending")
    expect(verdicts.first).to_contain_text("[ALLY.2]")
    verdicts = red.text_orders(f"Red ALLIES WITH {ally_name} AS {pact}", "Send")
    expect(verdicts.first).to_contain_text("pending")
    p = ally.open()
    expect(p.get_by_role("link", name="Inbox")).to_contain_text("1")  # the badge
    said = ally.answer("Alliance declared by Red", "Accept")
    assert said.startswith("accepted") and "[ALLY.1]" in said and pact in said, said
    expect(ally.page.get_by_text("Nothing awaits your answer.")).to_be_visible()

    # -- a faction outside the alliance sees nothing of it, nor anyone's link -----------
    for sub in ("", "/inbox", "/position", "/log", "/reports"):
        html = outsider.open(sub).content()
        assert pact not in html, sub
        assert red.token not in html and ally.token not in html, sub

    # -- Red's noble joins the ally's noble, chosen on the map --------------------------
    p = red.open()
    red.unit(plan.mover).hover()
    expect(p.locator("#details")).to_contain_text(plan.name(plan.mover))
    red.choose(plan.mover, plan.name(plan.mover))
    state = state_after_alliance(plan, pact)
    expected = {
        d.place for d in legal_destinations(state, plan.mover).places if len(d.path) > 1 or d.enter or d.siege
    }
    assert red.rings() == expected  # the rings on the map are the server's destinations
    expect(p.locator("#order-panel ul.dests li")).to_have_count(len(expected))
    outcome = red.order_on_map(plan.meeting, plan.name(plan.meeting))
    expect(outcome).to_contain_text("accepted")
    expect(p.locator("#units")).to_contain_text(f"{plan.name(plan.allied)}")
    expect(p.locator("#units")).to_contain_text("allied: needs its owner's consent")

    # -- Red orders the ally's noble (ALLY.4); the ally confirms in one click -----------
    red.choose(plan.allied, plan.name(plan.allied))
    outcome = red.order_on_map(plan.allied_to, plan.name(plan.allied_to))
    expect(outcome).to_contain_text("pending")
    expect(outcome).to_contain_text(f"awaiting {plan.ally}")
    said = ally.answer("Allied order from Red", "Confirm")
    assert said.startswith("accepted"), said
    ally.open()
    where = ally.page.locator(f'#map-svg g.unit[data-unit="{plan.allied}"] title')
    expect(where).to_contain_text(plan.name(plan.allied_to))

    # -- a move through a neutral castle is refused, with its rule ----------------------
    red.open()
    verdicts = red.text_orders(plan.refused_text, "Check (send nothing)")
    expect(verdicts.first).to_contain_text("refused")
    expect(verdicts.first).to_contain_text(f"[{NEUTRAL_ROAD}]")
    expect(verdicts.first).to_contain_text(plan.name(plan.route[1]))
    verdicts = red.text_orders(plan.refused_text, "Send")
    expect(verdicts.first).to_contain_text("refused")
    expect(verdicts.first).to_contain_text(f"[{NEUTRAL_ROAD}]")

    # -- the map, as a PNG artifact ---------------------------------------------------------
    shot = artifacts_dir() / "browser-map-red.png"
    red.page.locator("#map-wrap").screenshot(path=shot)
    data = shot.read_bytes()
    assert data.startswith(PNG) and len(data) > 10_000

    # -- the GM ends the turn; the report shows it all -------------------------------------
    said = gm.end_turn("Red")
    assert "[TURN.end]" in said, said
    gp = gm.page
    expect(gp.locator("main > p").first).to_contain_text(f"{plan.outsider.capitalize()} to play")
    gp.get_by_role("link", name="Reports").click()
    gp.wait_for_url(f"**/gm/games/{game}/reports")
    expect(gp.locator("nav.turn-links a[aria-current=page]")).to_have_text("round 1, Red")
    alliance = f"red-{pact}"  # the service names a declared alliance after its founder
    refusal = (
        f"refused [{NEUTRAL_ROAD}]: {plan.name(plan.blocked)} may not pass through {plan.name(plan.route[1])}"
    )
    # the report for the thread: its preview, and the BBCode to paste
    gp.locator("section[aria-labelledby=h-public]").get_by_text("Preview").click()
    public = gp.locator("section[aria-labelledby=h-public] .report").inner_text()
    bbcode = gp.locator("#bb-public").input_value()
    for text in (public, bbcode):
        assert "Orders as given" in text
        assert plan.name(plan.mover) in text and plan.name(plan.meeting) in text  # Red's own orders
        assert plan.refused_text in text  # the refused order as given ...
        assert NEUTRAL_ROAD in text and plan.name(plan.route[1]) in text  # ... and its refusal
        assert f"{plan.name(plan.allied)} moves to {plan.name(plan.allied_to)}" in text  # the allied order
        assert f"alliance {alliance}" in text or f"alliance [b]{alliance}" in text  # public now (R7)
        assert "ALLIES WITH" not in text and "req-" not in text  # diplomacy stays private
    assert refusal in public
    assert f"{alliance}: {ally_name}, Red" in public  # in the position's alliances
    # the round's digest beside it (issue 15 §8): the same turn, one position so far
    digest = gp.locator("#bb-digest").input_value()
    assert digest.startswith("[b][u]Round 1 digest[/u][/b]") and plan.refused_text in digest
    assert "ALLIES WITH" not in digest and digest.count("Position") == 1
    # the GM's own copy has everything, the declaration and the allied order as given
    gm_copy = gp.locator("#bb-gm").input_value()
    assert f"Red ALLIES WITH {ally_name} AS {alliance}" in gm_copy
    assert f"{plan.name(plan.allied)} MOVES" in gm_copy and "[ALLY.4]" in gm_copy

    # -- the players' reports pages --------------------------------------------------------
    p = outsider.open("/reports")
    report = p.get_by_label("The turn's reports").inner_text()
    assert refusal in report and f"{alliance}: {ally_name}, Red" in report
    assert "ALLIES WITH" not in report
    p = red.open("/reports")
    report = p.get_by_label("The turn's reports").inner_text()
    assert f"{plan.name(plan.allied)} MOVES" in report and "[ALLY.4]" in report and refusal in report
    expect(p.get_by_label("Your private report")).to_contain_text(
        f"{plan.name(plan.allied)}: movement order in Red's turn, given by Red."
    )
    assert browsers.errors == []

"""The pages as people use them: the GM console and a player's private link, each
driven through its forms, links and map in a browser of its own."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .conftest import GM_PASSWORD, Browsers, need_playwright

need_playwright()

from playwright.sync_api import Locator, Page, expect  # noqa: E402

PNG = b"\x89PNG\r\n\x1a\n"


class GmConsole:
    """The GM in their own browser: every step through the GM console's forms."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.game = ""

    def login(self) -> None:
        p = self.page
        p.goto("/gm")
        assert "/gm/login" in p.url  # the console asks for the password first
        p.get_by_label("Password").fill(GM_PASSWORD)
        p.get_by_role("button", name="Log in").click()
        p.wait_for_url("**/gm")
        assert p.get_by_role("heading", name="Games", exact=True).is_visible()

    def create_game(
        self, game_id: str, seed: str, factions: str = "red, blue, green, gold", adjudication: str = "hand"
    ) -> None:
        """A game from the default data folder (the data folder field left empty); by
        default one the GM settles by hand (the scenario is a turn of moves and alliances)."""
        p = self.page
        p.goto("/gm")
        p.get_by_label("Name", exact=True).fill(f"Browser {game_id}")
        p.get_by_label("Factions").fill(factions)
        assert p.get_by_label("Data folder on the server").input_value() == ""
        ident = p.get_by_label("Game id")
        ident.fill("Not an id")  # the browser checks the id's pattern before sending
        assert ident.evaluate("el => el.checkValidity()") is False
        ident.fill(game_id)
        assert ident.evaluate("el => el.checkValidity()") is True
        p.get_by_label("Seed").fill(seed)
        p.get_by_label("Adjudication").select_option(adjudication)
        p.get_by_role("button", name="Create the game").click()
        p.wait_for_url(f"**/gm/games/{game_id}")
        flash = p.locator(".flash").first.inner_text()
        assert flash.startswith("done:") and game_id in flash, flash
        self.game = game_id

    def seat(self, faction: str, player: str) -> str:
        """Seats ``player`` for ``faction``; the private link, read from the page."""
        p = self.page
        if not p.url.endswith(f"/gm/games/{self.game}"):
            p.goto(f"/gm/games/{self.game}")
        p.get_by_label("Faction", exact=True).select_option(faction)
        p.get_by_label("Player's name").fill(player)
        p.get_by_role("button", name="Seat and make a private link").click()
        p.wait_for_url(f"**/gm/games/{self.game}/seat")
        link = p.get_by_label("Private link").input_value()
        assert re.fullmatch(rf"http://127\.0\.0\.1:\d+/play/{self.game}/[A-Za-z0-9_\-]{{20,}}", link), link
        p.get_by_role("link", name="Back to the console").click()
        p.wait_for_url(f"**/gm/games/{self.game}")
        row = p.locator("tr", has=p.locator("th[scope=row]", has_text=faction.capitalize()))
        assert player in row.inner_text()
        return link

    def end_turn(self, faction_name: str) -> str:
        p = self.page
        p.goto(f"/gm/games/{self.game}")
        p.get_by_role("button", name=f"End {faction_name}'s turn").click()
        p.wait_for_url(f"**/gm/games/{self.game}")
        return p.locator(".flash").first.inner_text()


@dataclass
class Player:
    """One player in their own browser context, on their private link."""

    page: Page
    link: str

    @property
    def token(self) -> str:
        return self.link.rsplit("/", 1)[1]

    def open(self, sub: str = "") -> Page:
        self.page.goto(self.link + sub)
        return self.page

    def unit(self, unit: str) -> Locator:
        return self.page.locator(f'#map-svg g.unit.selectable[data-unit="{unit}"]')

    def ring(self, place: str) -> Locator:
        return self.page.locator(f'#map-overlay g.dest[data-url$="&to={place}"]')

    def rings(self) -> set[str]:
        urls: list[str] = self.page.locator("#map-overlay g.dest").evaluate_all(
            "els => els.map(e => e.getAttribute('data-url'))"
        )
        return {re.sub(r".*&to=", "", u) for u in urls}

    def text_orders(self, text: str, button: str) -> Locator:
        """Types ``text`` in the text-order box and presses ``button`` (Check or Send);
        the verdict list that comes back."""
        p = self.page
        p.get_by_label("One order a line").fill(text)
        p.locator("#verdicts").evaluate("el => el.setAttribute('data-stale', '1')")
        p.get_by_role("button", name=button, exact=True).click()
        fresh = p.locator("#verdicts:not([data-stale])")  # htmx swapped in the server's answer
        heading = "Sent" if button == "Send" else "Check"
        expect(fresh.locator("h3")).to_contain_text(heading)
        return fresh.locator("li.verdict")

    def choose(self, unit: str, unit_name: str) -> None:
        """Chooses ``unit`` on the map: the order panel shows its destinations."""
        self.unit(unit).click()
        expect(self.page.locator("#order-panel h2")).to_have_text(unit_name)
        expect(self.page.locator("#map-overlay g.dest").first).to_be_visible()

    def order_on_map(self, place: str, place_name: str) -> Locator:
        """With a unit chosen: the ring of ``place`` on the map, then the confirmation of
        a move into the open; the outcome shown in the order panel."""
        p = self.page
        self.ring(place).click()
        expect(p.locator("#order-panel h3")).to_have_text(place_name)
        p.get_by_role("button", name="Confirm: Move there (stay in the open)").click()
        outcome = p.locator("#order-panel p.outcome")
        expect(outcome).to_be_visible()
        return outcome

    def answer(self, heading: str, button: str) -> str:
        """In the inbox, answers the item whose heading starts with ``heading`` (one
        click); the message the page shows after it."""
        p = self.open("/inbox")
        card = p.locator("article.card", has=p.locator("h3", has_text=heading))
        expect(card).to_have_count(1)
        card.get_by_role("button", name=button).click()
        p.wait_for_url("**/inbox")
        return p.locator(".flash").first.inner_text()


def seat_players(
    gm: GmConsole, browsers: Browsers, game: str, seed: str, factions: Sequence[str]
) -> dict[str, Player]:
    """The GM creates ``game`` and seats a player for each of ``factions``; each player
    opens their own browser on the private link the console showed."""
    gm.create_game(game, seed)
    links = {f: gm.seat(f, f"{f.capitalize()} player") for f in factions}
    assert len(set(links.values())) == len(factions)
    # the console shows a link once, at seating: never again
    gm.page.goto(f"/gm/games/{game}")
    console = gm.page.content()
    assert not any(link.rsplit("/", 1)[1] in console for link in links.values())
    return {f: Player(browsers.page(f), link) for f, link in links.items()}

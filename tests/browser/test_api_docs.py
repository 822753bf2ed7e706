"""The API docs (Swagger UI) in the browser: served from the package, under the site's
Content-Security-Policy, with no request leaving the server (the GM console works
offline) and no console error (a CSP violation would be one)."""

from __future__ import annotations

import pytest

from .conftest import Browsers, need_playwright

need_playwright()

from playwright.sync_api import Request, expect  # noqa: E402

pytestmark = pytest.mark.browser


def test_the_api_docs_render_from_the_server_alone(browsers: Browsers) -> None:
    p = browsers.page("gm")
    asked: list[str] = []

    def record(request: Request) -> None:
        asked.append(request.url)

    p.on("request", record)
    p.goto("/api/docs")
    expect(p.get_by_text("Create a game (GM)")).to_be_visible()
    expect(p.locator(".swagger-ui .info .title")).to_contain_text("Kingmaker GM")
    p.get_by_text("Create a game (GM)").click()  # an operation opens (React state, no eval)
    expect(p.get_by_role("button", name="Try it out")).to_be_visible()
    assert asked and all(u.startswith(browsers.base_url + "/") for u in asked), asked

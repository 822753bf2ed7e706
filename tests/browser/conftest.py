"""Real-browser tests: ``kingmaker serve`` in a subprocess on a SQLite file, driven by
Playwright in Debian's Chromium (``/usr/bin/chromium``; never a downloaded browser).

Without the browser (or Playwright) the tests are skipped, unless
``KINGMAKER_REQUIRE_BROWSER`` is set (CI sets it): then they fail. Screenshots go to
``KINGMAKER_ARTIFACTS`` (default: ``test-artifacts/`` in the checkout).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from .scenario import Plan, find_plan

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Error, Page

    from .pages import GmConsole

CHROMIUM = Path(os.environ.get("KINGMAKER_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
GM_PASSWORD = "rose-and-sun-in-splendour"
REPO = Path(__file__).resolve().parents[2]
TIMEOUT_MS = 10_000


def artifacts_dir() -> Path:
    d = Path(os.environ.get("KINGMAKER_ARTIFACTS") or REPO / "test-artifacts")
    d.mkdir(parents=True, exist_ok=True)
    return d


def _unavailable(reason: str, *, module: bool = False) -> None:
    if os.environ.get("KINGMAKER_REQUIRE_BROWSER"):
        pytest.fail(f"{reason} (KINGMAKER_REQUIRE_BROWSER is set, so this fails instead of skipping)")
    pytest.skip(
        f"{reason}; set KINGMAKER_REQUIRE_BROWSER=1 to make this a failure", allow_module_level=module
    )


def need_playwright() -> None:
    """At the top of a test module: skip it (or fail, under KINGMAKER_REQUIRE_BROWSER)
    when Playwright is not installed."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        _unavailable("Playwright is not installed (pip install -e '.[test]')", module=True)


# -- the server ---------------------------------------------------------------------------


@dataclass
class Server:
    url: str
    db: Path
    log: Path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``kingmaker serve`` on a free port, over a SQLite file, with a fixed GM password."""
    root = tmp_path_factory.mktemp("browser-server")
    db, log = root / "games.db", root / "server.log"
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("KINGMAKER_")}
    env["KINGMAKER_GM_PASSWORD"] = GM_PASSWORD  # never on the command line
    cmd = [
        sys.executable,
        "-m",
        "kingmaker.cli.app",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--db",
        f"sqlite:///{db}",
    ]
    url = f"http://127.0.0.1:{port}"
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=root)
        try:
            deadline = time.monotonic() + 30
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"the server exited ({proc.returncode}):\n{log.read_text()}")
                try:
                    with urllib.request.urlopen(url + "/healthz", timeout=1) as r:
                        if r.status == 200:
                            break
                except OSError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the server did not start:\n{log.read_text()}")
                time.sleep(0.1)
            yield Server(url, db, log)
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


# -- the browser --------------------------------------------------------------------------


@pytest.fixture(scope="session")
def chromium() -> Iterator[Browser]:
    """Debian's Chromium, headless, kept off the network."""
    if not CHROMIUM.exists():
        _unavailable(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    need_playwright()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class Browsers:
    """Browser contexts (one per person: their own cookies) whose pages report every
    JavaScript error and console error to ``errors``."""

    browser: Browser
    base_url: str
    contexts: list[BrowserContext] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def page(self, who: str, **options: Any) -> Page:
        """A page in a new context (``options``: Playwright's context options)."""
        options.setdefault("viewport", {"width": 1400, "height": 1000})
        ctx = self.browser.new_context(base_url=self.base_url, **options)
        ctx.set_default_timeout(TIMEOUT_MS)
        self.contexts.append(ctx)
        page = ctx.new_page()
        self.watch(page, who)
        return page

    def watch(self, page: Page, who: str) -> None:
        """Records ``page``'s console errors, uncaught JavaScript errors and
        Content-Security-Policy violations."""

        def console(msg: ConsoleMessage) -> None:
            if msg.type == "error":
                self.errors.append(f"{who}: console error: {msg.text} ({page.url})")

        def crash(exc: Error) -> None:
            self.errors.append(f"{who}: uncaught JavaScript error: {exc} ({page.url})")

        def violation(_source: Any, text: str) -> None:
            self.errors.append(f"{who}: Content-Security-Policy violation: {text} ({page.url})")

        page.on("console", console)
        page.on("pageerror", crash)
        # every page reports what its CSP refused (Chromium only logs it, Playwright sees no console call)
        page.expose_binding("__kingmakerCsp", violation)
        page.add_init_script(
            "document.addEventListener('securitypolicyviolation', e => window.__kingmakerCsp("
            "e.effectiveDirective + ' refused ' + (e.blockedURI || 'inline') + ' at ' + e.sourceFile"
            " + ':' + e.lineNumber));"
        )

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()


@pytest.fixture
def browsers(chromium: Browser, server: Server) -> Iterator[Browsers]:
    """Fresh browser contexts for one test; the test fails on any JavaScript error."""
    b = Browsers(chromium, server.url)
    try:
        yield b
    finally:
        b.close()
    assert b.errors == [], "JavaScript or console errors:\n" + "\n".join(b.errors)


@pytest.fixture(scope="session")
def plan() -> Plan:
    """The scenario for the game's seed (see ``scenario.py``)."""
    return find_plan()


@pytest.fixture
def gm(browsers: Browsers) -> GmConsole:
    """The GM, logged in to the console in a browser of their own."""
    from .pages import GmConsole

    console = GmConsole(browsers.page("gm"))
    console.login()
    return console

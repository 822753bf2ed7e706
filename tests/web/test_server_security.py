"""What only a real server process shows (``kingmaker serve``, uvicorn): whose
``X-Forwarded-For`` is believed (finding 3.3)."""

from __future__ import annotations

from pathlib import Path

import httpx

from .apps import gm_bearer, server


def test_a_forwarded_address_from_an_untrusted_client_is_not_believed(tmp_path: Path) -> None:
    with server(tmp_path / "games.db") as s, httpx.Client(base_url=s.url, timeout=30) as c:
        codes = []
        for i in range(30):  # a new "address" each time
            r = c.get(
                "/api/games",
                headers={**gm_bearer(f"guess-{i}"), "X-Forwarded-For": f"10.1.{i}.{i + 1}"},
            )
            codes.append(r.status_code)
        assert codes[:5] == [403] * 5
        assert set(codes[5:]) == {429}


def test_a_trusted_proxys_forwarded_address_is_the_client(tmp_path: Path) -> None:
    with (
        server(tmp_path / "games.db", "--trusted-proxies", "127.0.0.1") as s,
        httpx.Client(base_url=s.url, timeout=30) as c,
    ):
        attacker = {"X-Forwarded-For": "203.0.113.66"}
        for i in range(5):
            assert c.get("/api/games", headers={**gm_bearer(f"guess-{i}"), **attacker}).status_code == 403
        assert c.get("/api/games", headers={**gm_bearer(), **attacker}).status_code == 429
        # the GM, behind the same proxy from another address, is not locked out
        gm = {"X-Forwarded-For": "198.51.100.23"}
        assert c.get("/api/games", headers={**gm_bearer(), **gm}).status_code == 200
        # a client cannot pose as another by prepending to the proxy's list
        spoof = {"X-Forwarded-For": "198.51.100.23, 203.0.113.66"}
        assert c.get("/api/games", headers={**gm_bearer(), **spoof}).status_code == 429

"""What only a real server process shows (``kingmaker serve``, uvicorn): whose
``X-Forwarded-For`` is believed (finding 3.3), what the access log writes and how the
GM password reaches the server (finding 3.7)."""

from __future__ import annotations

import os
import re
import subprocess
import time
from pathlib import Path

import httpx

from .apps import clean_env, free_port, gm_bearer, serve_command, server
from .conftest import FACTIONS, GAME, GM_PASSWORD


def _create_and_seat(url: str) -> dict[str, str]:
    with httpx.Client(base_url=url, headers=gm_bearer(), timeout=30) as c:
        r = c.post("/api/games", json={"name": "Wars", "factions": list(FACTIONS), "seed": "s", "game_id": GAME})
        assert r.status_code == 201, r.text
        tokens = {}
        for f in FACTIONS:
            r = c.post(f"/api/games/{GAME}/seats", json={"faction": f, "player": f"{f} player"})
            assert r.status_code == 201, r.text
            tokens[f] = r.json()["token"]
    return tokens


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


def test_the_access_log_never_shows_a_token_or_a_password(tmp_path: Path) -> None:
    with server(tmp_path / "games.db") as s:
        tokens = _create_and_seat(s.url)
        red = tokens["red"]
        with httpx.Client(base_url=s.url, timeout=30) as c:
            assert c.get(f"/play/{GAME}/{red}").status_code == 200
            assert c.get(f"/play/{GAME}/{red}/inbox?x=1").status_code == 200
            assert c.get(f"/api/games/{GAME}/view", headers={"Authorization": f"Bearer {red}"}).status_code == 200
            assert c.get(f"/play/{GAME}/not-a-token").status_code == 403
        log = s.log_text()
        for secret in (*tokens.values(), GM_PASSWORD, "not-a-token"):
            assert secret not in log
        assert f'"GET /play/{GAME}/… HTTP/1.1" 200' in log
        assert f'"GET /play/{GAME}/…/inbox?x=1 HTTP/1.1" 200' in log
        assert f'"GET /api/games/{GAME}/view HTTP/1.1" 200' in log


def test_a_gm_password_on_the_command_line_is_refused(tmp_path: Path) -> None:
    for command in ("serve", "demo"):
        args = serve_command("--gm-password", "secret", "--port", str(free_port()), "--db", str(tmp_path / "x.db"))
        args[args.index("serve")] = command
        done = subprocess.run(args, capture_output=True, text=True, env=clean_env(), timeout=60)
        assert done.returncode == 2, (command, done.stdout, done.stderr)
        assert "shows in `ps`" in done.stderr and "KINGMAKER_GM_PASSWORD" in done.stderr
        assert "--gm-password-file" in done.stderr and "Traceback" not in done.stderr
    # without a password at all, serve says where to put one
    done = subprocess.run(
        serve_command("--db", str(tmp_path / "x.db")), capture_output=True, text=True, env=clean_env(), timeout=60
    )
    assert done.returncode == 2 and "KINGMAKER_GM_PASSWORD" in done.stderr


def test_the_gm_password_from_a_file(tmp_path: Path) -> None:
    secret = tmp_path / "gm-password"
    secret.write_text("from-a-file\n")
    os.chmod(secret, 0o600)
    port = free_port()
    log = tmp_path / "server.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            serve_command("--port", str(port), "--db", f"sqlite:///{tmp_path / 'g.db'}", "--gm-password-file", str(secret)),
            stdout=out,
            stderr=subprocess.STDOUT,
            env=clean_env(),
        )
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, log.read_text()
            try:
                r = httpx.get(url + "/api/games", headers=gm_bearer("from-a-file"), timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.05)
        assert r.status_code == 200, r.text
        assert "from-a-file" not in " ".join(Path(f"/proc/{proc.pid}/cmdline").read_text().split("\0"))
    finally:
        proc.terminate()
        proc.wait(10)
    # an empty or missing file is a clear error
    secret.write_text("\n")
    done = subprocess.run(
        serve_command("--gm-password-file", str(secret), "--db", str(tmp_path / "x.db")),
        capture_output=True,
        text=True,
        env=clean_env(),
        timeout=60,
    )
    # the error box wraps a long message (the file's path is in it) at the terminal's width
    assert done.returncode == 2 and "holdsnopassword" in re.sub(r"[\s│┃]", "", done.stderr), done.stderr

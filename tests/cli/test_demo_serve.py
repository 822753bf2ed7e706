"""``kingmaker demo`` (what ``make demo`` runs): a real server process with a demo game
in a SQLite file, the GM's and players' links printed, the map served."""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from kingmaker.storage import open_store

LINK = re.compile(r"^\s+(\w+)\s+(http://\S+/play/(demo-\d+)/\S+)$")
GM = re.compile(r"GM console\s+(http://\S+/gm)\s+password: (\S+)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(db: Path, port: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "kingmaker.cli.app", "demo", "--db", f"sqlite:///{db}", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _links(proc: subprocess.Popen[str]) -> tuple[dict[str, str], str, str]:
    assert proc.stdout is not None
    players: dict[str, str] = {}
    gm_url = password = ""
    for line in proc.stdout:
        if m := GM.search(line):
            gm_url, password = m.group(1), m.group(2)
        elif m := LINK.match(line):
            players[m.group(1)] = m.group(2)
        elif "Ctrl-C" in line:
            break
    return players, gm_url, password


def _wait_until_served(url: str, proc: subprocess.Popen[str]) -> httpx.Response:
    for _ in range(200):
        assert proc.poll() is None, "the demo server stopped"
        try:
            return httpx.get(url, timeout=5)
        except httpx.TransportError:
            time.sleep(0.05)
    pytest.fail(f"nothing served at {url}")


def _stop(proc: subprocess.Popen[str]) -> str:
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
    return err


def test_demo_serves_a_game_with_its_links(tmp_path: Path) -> None:
    db = tmp_path / "demo.db"
    proc = _start(db, _free_port())
    try:
        players, gm_url, password = _links(proc)
        assert sorted(players) == ["blue", "gold", "green", "red"]
        assert gm_url and len(password) >= 8
        page = _wait_until_served(players["red"], proc)
        assert page.status_code == 200
        assert "<svg" in page.text and "Kingmaker" in page.text
        # Each link is its own faction's: a token that is not red's is not on red's page.
        assert players["blue"].rsplit("/", 1)[1] not in page.text
        with httpx.Client(base_url=gm_url.removesuffix("/gm"), follow_redirects=True) as gm:
            login = gm.get("/gm/login")
            token = re.search(r'name="csrf_token" value="([^"]+)"', login.text)
            assert token
            r = gm.post("/gm/login", data={"password": password, "csrf_token": token.group(1), "next": "/gm"})
            assert r.status_code == 200 and r.url.path == "/gm"
            assert "demo-1" in r.text
    finally:
        err = _stop(proc)
    assert "Traceback" not in err
    assert proc.returncode == 0, err


def test_each_run_adds_a_game_and_keeps_the_earlier_ones(tmp_path: Path) -> None:
    db = tmp_path / "demo.db"
    for expected in ("demo-1", "demo-2"):
        proc = _start(db, _free_port())
        try:
            players, _, _ = _links(proc)
            assert all(f"/play/{expected}/" in url for url in players.values())
        finally:
            _stop(proc)
    store = open_store(f"sqlite:///{db}")
    try:
        assert sorted(g.id for g in store.games()) == ["demo-1", "demo-2"]
    finally:
        store.close()


def test_a_taken_port_moves_to_the_next_free_one(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        proc = _start(tmp_path / "demo.db", port)
        try:
            players, _, _ = _links(proc)
            assert players and all(f":{port}/" not in url for url in players.values())
            assert _wait_until_served(players["red"], proc).status_code == 200
        finally:
            _stop(proc)

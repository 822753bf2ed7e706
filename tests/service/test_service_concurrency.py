"""50 concurrent clients each submitting 100 commands to one game: on SQLite (one app
process), and on PostgreSQL with two app processes. No lost or doubled entries, no
deadlock, and the final state equals a serial replay (issue 5 §4)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from kingmaker.log.service_events import OrderSubmitted
from kingmaker.rules.hashing import state_hash
from kingmaker.service import GM_ACTOR
from kingmaker.service.commands import CreateGame
from kingmaker.service.game_service import GameService
from kingmaker.service.settings import GameSettings
from kingmaker.storage import open_store
from tests.storage.conftest import postgres_schema

CLIENTS, COMMANDS = 50, 100
ROOT = Path(__file__).resolve().parents[2]


def _create(url: str) -> str:
    store = open_store(url)
    svc = GameService(store)
    game = svc.execute(
        GM_ACTOR,
        CreateGame("Busy", ("red", "blue", "green", "gold"), seed="busy", game_id="busy",
                   settings=GameSettings(turn_hours=None, request_hours=None, full_game=False)),
    ).game
    store.close()
    return game


def _run_processes(url: str, game: str, processes: int) -> list[str]:
    per = CLIENTS // processes
    procs = [
        subprocess.Popen(
            [sys.executable, str(Path(__file__).with_name("concurrent_clients.py")), url, game, str(i * per), str(per), str(COMMANDS)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        )
        for i in range(processes)
    ]
    lines: list[str] = []
    for p in procs:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0, err[-2000:]
        lines += out.splitlines()
    return lines


def _check(url: str, game: str, lines: list[str]) -> None:
    errors = [ln for ln in lines if ln.startswith("error")]
    assert errors == []
    acks = [ln.split() for ln in lines if ln.startswith("ack")]
    keys = [a[1] for a in acks]
    assert len(keys) == CLIENTS * COMMANDS and len(set(keys)) == len(keys)
    store = open_store(url)
    svc = GameService(store)
    log = svc.log(game)
    assert [e.seq for e in log] == list(range(1, len(log) + 1))
    submitted = [e for e in log if isinstance(e.event, OrderSubmitted)]
    by_key: dict[str | None, int] = {}
    for e in submitted:
        by_key[e.command] = by_key.get(e.command, 0) + 1
    assert len(submitted) == CLIENTS * COMMANDS  # none lost, none doubled
    assert set(by_key) == set(keys) and set(by_key.values()) == {1}
    for _, key, first, last, _ in acks:  # every acknowledged entry is where it was acknowledged
        assert all(log[s - 1].command == key for s in range(int(first), int(last) + 1))
    assert state_hash(svc.state(game)) == state_hash(svc.replayed_state(game))
    store.close()


def test_fifty_clients_on_sqlite(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'busy.db'}"
    game = _create(url)
    _check(url, game, _run_processes(url, game, 1))


def test_fifty_clients_on_postgres_with_two_app_processes() -> None:
    with postgres_schema() as url:
        game = _create(url)
        _check(url, game, _run_processes(url, game, 2))

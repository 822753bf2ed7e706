"""Old logs keep loading: a stored log of the first schema version (issue 5 §1).

``tests/fixtures/logs/game_v1.jsonl`` is an export whose entries are in schema
version 1 (``at`` instead of ``recorded_at``, no ``command``); it must import into
every store and replay to the state hash it recorded."""

from __future__ import annotations

import json
from pathlib import Path

from kingmaker.log.envelope import SCHEMA_VERSION, envelope_from_data
from kingmaker.rules.hashing import state_hash
from kingmaker.service.game_service import GameService
from kingmaker.service.transfer import import_game
from kingmaker.storage import open_store
from kingmaker.storage.memory import MemoryStore

V1 = Path(__file__).resolve().parents[1] / "fixtures" / "logs" / "game_v1.jsonl"
EXPECTED = "47a53d07fe02c6e35ae14f64afd9a03b16ade53a9936076e4145b1db288ae534"


def test_the_fixture_really_is_version_one() -> None:
    lines = V1.read_text().splitlines()
    entries = [json.loads(ln)["entry"] for ln in lines[1:-1]]
    assert {e["v"] for e in entries} == {1} and all("at" in e and "command" not in e for e in entries)
    assert SCHEMA_VERSION > 1
    env = envelope_from_data(entries[0])
    assert env.recorded_at == entries[0]["at"] and env.command is None


def test_a_version_one_log_imports_and_replays_to_its_recorded_hash(tmp_path: Path) -> None:
    for store in (MemoryStore(), open_store(f"sqlite:///{tmp_path / 'old.db'}")):
        report = import_game(store, V1.read_text().splitlines(keepends=True))
        assert report.state_hash == EXPECTED
        svc = GameService(store)
        assert state_hash(svc.state("v1game")) == EXPECTED == state_hash(svc.replayed_state("v1game"))
        store.close()

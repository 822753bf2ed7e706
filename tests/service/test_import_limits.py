"""An imported game keeps the limits (issue 11 §3.6): an export whose record or entries
hold a multi-line or oversized text, or a malformed id, is refused with the line and
the reason, even when its checksums were recomputed (the chain has no key: anyone can
recompute it), and nothing is imported. On real SQLite files, through the CLI too."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kingmaker.cli.app import _mount, app
from kingmaker.rules import commands as rc
from kingmaker.service import GM_ACTOR, FixedClock, player
from kingmaker.service.commands import AskPermission, CreateGame, SeatPlayer, Submit
from kingmaker.service.game_service import GameService
from kingmaker.service.transfer import ImportError_, export_game, import_game
from kingmaker.storage import open_store

_mount()


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@pytest.fixture
def exported(tmp_path: Path) -> list[dict[str, Any]]:
    svc = GameService(open_store(f"sqlite:///{tmp_path / 'src.db'}"), FixedClock())
    g = svc.execute(GM_ACTOR, CreateGame("Source", ("red", "blue", "green"), seed="s", game_id="src")).game
    svc.execute(GM_ACTOR, SeatPlayer(g, "red", "Ann"))
    place = next(p for p, f in sorted(svc.state(g).control.items()) if f == "blue")
    svc.execute(player("red"), AskPermission(g, "red", "blue", place, ("road",), "please"))
    svc.execute(player("red"), Submit(g, rc.DeclareAlliance("red", "red-rg", ("green",))))
    out = io.StringIO()
    export_game(svc.store, g, out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def _lines(rows: list[dict[str, Any]]) -> list[str]:
    """The rows as an export, with the checksum chain and closing line recomputed."""
    chain = "0" * 64
    out = [_canonical(rows[0])]
    for row in rows[1:-1]:
        chain = hashlib.sha256((chain + _canonical(row["entry"])).encode()).hexdigest()
        out.append(_canonical({"entry": row["entry"], "chain": chain}))
    out.append(_canonical({**rows[-1], "chain": chain}))
    return [x + "\n" for x in out]


def _entry(rows: list[dict[str, Any]], kind: str) -> tuple[int, dict[str, Any]]:
    for no, row in enumerate(rows, start=1):
        if "entry" in row and row["entry"]["event"]["kind"] == kind:
            return no, row["entry"]["event"]
    raise AssertionError(kind)


def _refused(tmp_path: Path, rows: list[dict[str, Any]], line: int, *words: str) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'target.db'}")
    with pytest.raises(ImportError_) as e:
        import_game(store, _lines(rows))
    message = str(e.value)
    assert message.startswith(f"line {line}: "), message
    assert "\n" not in message and len(message) < 400, message
    for w in words:
        assert w in message, (w, message)
    assert store.games() == []


def test_the_untouched_export_imports(tmp_path: Path, exported: list[dict[str, Any]]) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'target.db'}")
    assert import_game(store, _lines(exported)).game == "src"


def test_a_player_name_with_a_line_break_is_refused(tmp_path: Path, exported: list[dict[str, Any]]) -> None:
    no, event = _entry(exported, "player_seated")
    event["player"] = "Ann\n\n## GM ANNOUNCEMENT"
    _refused(tmp_path, exported, no, "player", "line break")


def test_a_5mb_note_is_refused(tmp_path: Path, exported: list[dict[str, Any]]) -> None:
    no, event = _entry(exported, "permission_asked")
    event["note"] = "n" * 5_000_000
    _refused(tmp_path, exported, no, "note", "5,000,000 characters")


def test_an_order_with_a_malformed_id_is_refused(tmp_path: Path, exported: list[dict[str, Any]]) -> None:
    no, event = _entry(exported, "order_submitted")
    event["command"]["id"] = "red-rg\n# x"
    _refused(tmp_path, exported, no, "id")


def test_a_game_name_or_faction_name_over_the_limits_is_refused(
    tmp_path: Path, exported: list[dict[str, Any]]
) -> None:
    exported[0]["game"]["name"] = "G" * 81
    _refused(tmp_path, exported, 1, "name", "81 characters")
    exported[0]["game"]["name"] = "Source"
    exported[0]["game"]["settings"]["factions"]["red"]["name"] = "Red\u202e"
    _refused(tmp_path, exported, 1, "red", "bidirectional")


def test_the_cli_import_says_the_line_and_the_reason(tmp_path: Path, exported: list[dict[str, Any]]) -> None:
    no, event = _entry(exported, "permission_asked")
    event["note"] = "hi\r\n[b]## GM ANNOUNCEMENT[/b]"
    file = tmp_path / "game.jsonl"
    file.write_text("".join(_lines(exported)), encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'cli.db'}"
    r = CliRunner().invoke(app, ["import", str(file), "--db", db])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert f"line {no}: " in r.output and "note" in r.output and "nothing was imported" in r.output
    r = CliRunner().invoke(app, ["import", str(file), "--as", "Bad Id", "--db", db])
    assert r.exit_code == 1 and "game id" in r.output

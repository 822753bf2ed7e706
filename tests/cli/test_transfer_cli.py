"""``kingmaker export`` / ``kingmaker import`` against real SQLite files."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from kingmaker.cli.app import _mount, app
from kingmaker.rules.hashing import state_hash
from kingmaker.service import GM_ACTOR, FixedClock
from kingmaker.service.commands import CreateGame, Submit
from kingmaker.service.game_service import GameService
from kingmaker.service.settings import GameSettings
from kingmaker.simulation import RandomPlayer
from kingmaker.storage import open_store

_mount()


def _game(db: Path) -> str:
    store = open_store(f"sqlite:///{db}")
    svc = GameService(store, FixedClock())
    game = svc.execute(GM_ACTOR, CreateGame("Cli", ("red", "blue", "green"), seed="q", game_id="cli", settings=GameSettings(full_game=False))).game
    rp = RandomPlayer(1)
    for _ in range(80):
        svc.execute(GM_ACTOR, Submit(game, rp.command(svc.state(game))))
    h = state_hash(svc.state(game))
    store.close()
    return h


def test_export_and_import_between_sqlite_files(tmp_path: Path) -> None:
    src, dst, file = tmp_path / "a.db", tmp_path / "b.db", tmp_path / "g.jsonl"
    expected = _game(src)
    r = CliRunner().invoke(app, ["export", "cli", str(file), "--db", f"sqlite:///{src}"])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(app, ["import", str(file), "--db", f"sqlite:///{dst}"])
    assert r.exit_code == 0, r.output
    assert "imported cli" in r.output
    store = open_store(f"sqlite:///{dst}")
    assert state_hash(GameService(store).state("cli")) == expected
    store.close()


def test_a_truncated_export_is_refused_without_a_traceback(tmp_path: Path) -> None:
    src, dst, file = tmp_path / "a.db", tmp_path / "b.db", tmp_path / "g.jsonl"
    _game(src)
    CliRunner().invoke(app, ["export", "cli", str(file), "--db", f"sqlite:///{src}"])
    text = file.read_text().splitlines(keepends=True)
    file.write_text("".join(text[:-3]))
    r = CliRunner().invoke(app, ["import", str(file), "--db", f"sqlite:///{dst}"])
    assert r.exit_code == 1
    assert "truncated" in r.output and "nothing was imported" in r.output
    assert "Traceback" not in r.output
    store = open_store(f"sqlite:///{dst}")
    assert store.games() == []
    store.close()


def test_unknown_game_and_bad_store_urls(tmp_path: Path) -> None:
    r = CliRunner().invoke(app, ["export", "nope", "--db", f"sqlite:///{tmp_path / 'x.db'}"])
    assert r.exit_code == 1 and "no game 'nope'" in r.output
    r = CliRunner().invoke(app, ["export", "nope", "--db", "mysql://nowhere"])
    assert r.exit_code == 2 and "cannot open the game store" in r.output

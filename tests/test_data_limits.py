"""Limits in a GM's own data set (issue 11 §3.6): ids of at most 40 characters (a
faction's of at most 20), names and every other text on one line of at most 80
characters, with no control or format character. ``kingmaker data check`` lists each
problem with its file and key; the service will not create a game from such a set."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kingmaker.data import validate_folder
from kingmaker.service import GM_ACTOR, BadRequest, FixedClock
from kingmaker.service.commands import CreateGame
from kingmaker.service.game_service import GameService
from kingmaker.storage import open_store

from .test_data_check import MINIMAL, cli_app


def _hostile(tmp_path: Path) -> Path:
    folder = tmp_path / "hostile"
    shutil.copytree(MINIMAL, folder)
    setup = (folder / "setup.toml").read_text()
    setup = setup.replace('name = "Red"', 'name = "Red\\u202e deR"')
    setup += "\n[factions." + "b" * 21 + ']\nname = "Long"\ncolour = "#123456"\n'
    (folder / "setup.toml").write_text(setup)
    nobles = (folder / "nobles.toml").read_text()
    nobles = nobles.replace('name = "Percy"', 'name = "Percy\\n\\n## GM ANNOUNCEMENT"')
    nobles = nobles.replace('title = "Earl of Northumberland"', 'title = "' + "E" * 81 + '"')
    nobles += "\n[" + "n" * 41 + ']\nname = "Long"\ntroops = 10\ncastles = ["middleham"]\n'
    (folder / "nobles.toml").write_text(nobles)
    events = (folder / "events.toml").read_text()
    events = events.replace('name = "Percy to York"', 'name = "Percy to York\\u2066"')
    events += "\n[" + "e" * 41 + ']\nbattle = "bad_weather"\n'
    events += '\n[long_name]\nname = "' + "L" * 81 + '"\nbattle = { odds = "2:1" }\n'
    (folder / "events.toml").write_text(events)
    return folder


EXPECTED = [
    (
        "setup.toml",
        "factions.red.name",
        "must be one line of plain text: character 4 is a bidirectional control (U+202E)",
    ),
    ("setup.toml", "factions." + "b" * 21, "a faction id has at most 20 characters"),
    ("nobles.toml", "percy.name", "must be one line of plain text: character 6 is a line break (U+000A)"),
    ("nobles.toml", "percy.title", "is 81 characters long; at most 80 are allowed"),
    ("nobles.toml", "n" * 41, "an id has at most 40 characters"),
    ("events.toml", "percy_to_york.name", "must be one line of plain text: character 14 is a bidirectional"),
    ("events.toml", "e" * 41, "an id has at most 40 characters"),
    ("events.toml", "long_name.name", "is 81 characters long; at most 80 are allowed"),
]


def test_data_check_reports_every_limit_broken(tmp_path: Path) -> None:
    problems = validate_folder(_hostile(tmp_path))
    got = [(p.file, p.key_path, p.reason) for p in problems]
    for file, key, words in EXPECTED:
        assert any(f == file and k == key and words in r for f, k, r in got), (file, key, words, got)
    for _, _, reason in got:
        assert "\n" not in reason


def test_the_cli_lists_them_and_exits_1(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli_app(), ["data", "check", str(_hostile(tmp_path))])
    assert result.exit_code == 1 and "Traceback" not in result.output
    for file, key, _ in EXPECTED:
        assert f"{file}: {key}: " in result.output


def test_no_game_is_made_from_such_a_set(tmp_path: Path) -> None:
    svc = GameService(open_store(f"sqlite:///{tmp_path / 'g.db'}"), FixedClock())
    with pytest.raises(BadRequest) as e:
        svc.execute(GM_ACTOR, CreateGame("G", ("red", "blue"), data_folder=str(_hostile(tmp_path))))
    assert "percy.name" in str(e.value)
    assert svc.store.games() == []


def test_the_packaged_data_set_keeps_the_limits() -> None:
    assert validate_folder(Path(__file__).parents[1] / "src" / "kingmaker" / "data" / "england1455") == []

"""Issue 15 §8 and §10 through the CLI: ``kingmaker report GAME --round N`` prints the
round's digest (every turn's orders and resolution, one position) in each format and
for each reader; ``kingmaker map`` writes the map to post (a PNG 1600 pixels wide, or
the SVG), captioned with the turn it follows."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from .test_forum_game import Cli


def _game(tmp_path: Path) -> Cli:
    cli = Cli(tmp_path / "digest.db")
    cli.run(
        "new",
        "Digest test",
        "--id",
        "e2e",
        "--seed",
        "e2e",
        "--factions",
        "red,blue,green,gold",
        "--hand-adjudication",
    )
    rows = cli.orders(
        "red",
        "Red ALLIES WITH Green AS rg\nMowbray MOVES TO Ipswich\nScrope MOVES TO Middleham IN Middleham\n",
        code=1,  # Scrope may not enter Middleham
    )
    assert [r["result"] for r in rows] == ["pending", "accepted", "refused"]
    cli.orders("green", "Green ACCEPTS ALLIANCE rg\n")
    for _ in range(4):
        cli.end_turn()
    cli.end_turn()  # round 2: Red's turn over, Blue to play
    return cli


def test_round_digest_and_posted_map_through_the_cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    cli = _game(tmp_path)
    digest = cli.run("report", "e2e", "--round", "1", "--format", "plain")
    assert digest.startswith("Round 1 digest\n")
    for faction in ("Red", "Blue", "Green", "Gold"):
        assert f"\n{faction}'s turn\n" in digest
    assert digest.count("Position") == 1 and "Position at the end of round 1" in digest
    assert "Mowbray MOVES" in digest and "Scrope MOVES" in digest  # the orders as given
    assert "LOC.unfriendly.enter" in digest  # and their rulings
    assert "ALLIES WITH" not in digest and "red-rg" not in digest  # diplomacy stays private
    # the same through --kind round, for a faction: its secret alliance is its to read
    green = cli.run(
        "report", "e2e", "--kind", "round", "--round", "1", "--for", "green", "--format", "markdown"
    )
    assert green.startswith("# Round 1 digest (for Green)") and "red-rg" in green
    blue = cli.run("report", "e2e", "--kind", "round", "--round", "1", "--for", "blue", "--format", "bbcode")
    assert blue.startswith("[b][u]Round 1 digest (for Blue)[/u][/b]") and "red-rg" not in blue
    # the round in play, by default the round of the last turn that has ended
    now = cli.run("report", "e2e", "--kind", "round", "--format", "plain")
    assert now.startswith("Round 2 digest\n") and "The round goes on: Blue to play." in now
    assert "Position after Red's turn (round 2)" in now or "Position now" in now
    assert "no turn in round 9" in cli.run("report", "e2e", "--round", "9", code=3)
    # one turn's report is still there, with --turn
    assert cli.run("report", "e2e", "--round", "1", "--turn", "red", "--format", "plain").startswith(
        "Round 1: Red's turn"
    )

    # the map to post: after the last turn that has ended, 1600 pixels wide
    out = tmp_path / "map.png"
    said = cli.run("map", "e2e", "-o", str(out))
    assert "Digest test: round 2, after Red's turn" in said
    img = Image.open(io.BytesIO(out.read_bytes()))
    assert img.format == "PNG" and img.width == 1600 and img.height > 1600
    # after a turn asked for, as SVG: the caption, every place's name, the counters
    svg_out = tmp_path / "r1.svg"
    cli.run("map", "e2e", "--round", "1", "--turn", "red", "--format", "svg", "-o", str(svg_out))
    text = svg_out.read_text(encoding="utf-8")
    assert ">Digest test: round 1, after Red's turn</text>" in text
    assert "Mowbray</text>" in text  # his counter
    for name in (
        "Beaumaris",
        "Conway",
        "Great Yarmouth",
        "Norwich",
        "St Michael's Mount",
        "Scrope",
        "Legend",
    ):
        assert f">{name}</text>" in text, name
    assert "The public map: what every player may see." in text
    # a faction's map now, under a default file name
    said = cli.run("map", "e2e", "--for", "blue", "--now", "--format", "svg")
    assert "Digest test: round 2, Blue to play" in said
    assert "Blue's map: what Blue may see." in (tmp_path / "e2e-round-2-now-blue.svg").read_text(
        encoding="utf-8"
    )
    assert "--for is public, gm or one of" in cli.run("map", "e2e", "--for", "purple", code=1)
    assert "no turn red in round 9" in cli.run("map", "e2e", "--round", "9", "--turn", "red", code=3)

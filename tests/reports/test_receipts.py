"""Receipts (issue 15, item 5): for each post, the receipt the GM sends back to the
player, in BBCode, Markdown and plain text: every line with its verdict, the rule once,
why, how it was read, and "did you mean". One use case (``service.posts``) answers the
post; the CLI and the web render the same receipt from its verdicts. The lines that gave
no order are kept in the player's private report."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from kingmaker.cli.app import command_app
from kingmaker.render.reports import FORMATS, render, reports_for
from kingmaker.render.reports.formats import EXTENSIONS
from kingmaker.render.reports.private import private_report
from kingmaker.render.reports.receipt import receipt_for
from kingmaker.service import GM_ACTOR
from kingmaker.service.commands import CreateGame, SeatPlayer
from kingmaker.service.game_service import GameService
from kingmaker.service.identity import player
from kingmaker.storage import open_store

from .golden import check_golden

FACTIONS = ("red", "blue", "green", "gold")

# red's post in round 1 of the game "receipts" (seed "receipts"): Stanley at Lathom,
# Neville at Warwick, Hastings at Ashby de la Zouch, Nicholas of the Tower at Dover
POST = """Hi GM, orders for Red round 1:
1. Stanley MOVES TO Warrington
2. Neville MOVES TO Banbury
3. Hastings MOVES TO Leicester INSIDE
4. Neville MOVES TO Oxfrod
5. Nicholas of the Tower SAILS TO Newport
6. Hastings marches to Derby
7. Red ALLIES WITH Gold AS rg
8. SET Alnwick TO Red

thanks! -- Alice
"""


def _game(tmp_path: Path) -> tuple[GameService, str]:
    db = f"sqlite:///{tmp_path / 'receipts.db'}"
    svc = GameService(open_store(db))
    svc.execute(GM_ACTOR, CreateGame("Receipts", FACTIONS, seed="receipts", game_id="g"))
    for f in FACTIONS:
        svc.execute(GM_ACTOR, SeatPlayer("g", f, f"{f} player"))
    return svc, db


def test_the_receipt_of_a_post_in_each_format(tmp_path: Path) -> None:
    svc, _ = _game(tmp_path)
    verdicts = svc.post(player("red"), "g", POST, "red", send=True)
    assert [(v.line, v.result, v.rule) for v in verdicts] == [
        (1, "ignored", None),
        (2, "accepted", None),
        (3, "accepted", None),
        (4, "refused", "LOC.neutral.enter"),
        (5, "unknown_name", None),
        (6, "ambiguous_name", None),
        (7, "syntax", None),
        (8, "pending", "ALLY.2"),
        (9, "not allowed", None),
        (11, "ignored", None),
    ]
    assert verdicts[4].suggestions == ("Oxford",)
    assert verdicts[5].suggestions == ("Newport (Gwent)", "Newport (Isle of Wight)")
    assert verdicts[6].example == "Percy MOVES FROM York TO Tadcaster"
    doc = receipt_for(svc, "g", "red", verdicts, at=(1, "red"))
    for fmt in FORMATS:
        text = render(doc, fmt)
        check_golden(f"receipt-red.{EXTENSIONS[fmt]}", text)
        assert text.count("LOC.neutral.enter") == 1, "the rule is named once"
        assert "did you mean Oxford?" in text
        assert "Read as:" in text and "VIA Wigan" in text


def test_the_cli_prints_the_same_receipt_and_exits_as_the_table_would(tmp_path: Path) -> None:
    svc, db = _game(tmp_path)
    cli = command_app()
    out = CliRunner().invoke(
        cli, ["orders", "g", "--as", "red", "--check", "--receipt", "bbcode", "--db", db], input=POST
    )
    assert out.exit_code == 1, out.output  # a line was refused, some did not read
    verdicts = svc.post(GM_ACTOR, "g", POST, "red", send=False)  # the CLI is the GM's
    want = render(receipt_for(svc, "g", "red", verdicts, sent=False, at=(1, "red")), "bbcode")
    assert out.output == want
    assert out.output.startswith("[b][u]Orders checked (not sent) for ")
    ok = CliRunner().invoke(
        cli,
        ["orders", "g", "--as", "red", "--receipt", "plain", "--db", db],
        input="Hello GM!\n2. Neville MOVES TO Banbury\n-- Alice\n",
    )
    assert ok.exit_code == 0, ok.output  # chatter ignored: the post is fine
    assert "1 accepted, 2 ignored." in ok.output
    bad = CliRunner().invoke(cli, ["orders", "g", "--as", "red", "--receipt", "html", "--db", db], input="x")
    assert bad.exit_code == 1 and "bbcode" in bad.output


def test_chatter_does_not_make_the_post_fail(tmp_path: Path) -> None:
    _, db = _game(tmp_path)
    cli = command_app()
    text = "Hi GM, orders for Red round 1:\n\n2. Neville MOVES TO Banbury\nGreen, rnd 2\nthanks! -- Alice\n"
    out = CliRunner().invoke(cli, ["orders", "g", "--as", "red", "--json", "--db", db], input=text)
    assert out.exit_code == 0, out.output
    assert '"ignored"' in out.output


@pytest.mark.parametrize("fmt", FORMATS)
def test_unread_lines_are_kept_in_the_players_private_report(tmp_path: Path, fmt: str) -> None:
    """The lines that gave no order (issue 12 kept them in the log with why) show in the
    author's private report, not in anyone else's; chatter is not kept."""
    svc, _ = _game(tmp_path)
    svc.post(player("red"), "g", POST, "red", send=True)
    ctx = reports_for(svc, "g")
    mine = render(private_report(ctx, (1, "red"), "red"), fmt)  # type: ignore[arg-type]
    assert "Neville MOVES TO Oxfrod" in mine and "did you mean Oxford?" in mine
    assert "Hastings marches to Derby" in mine
    assert "thanks! -- Alice" not in mine and "Hi GM" not in mine
    theirs = render(private_report(ctx, (1, "red"), "blue"), fmt)  # type: ignore[arg-type]
    assert "Oxfrod" not in theirs

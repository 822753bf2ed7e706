"""Issue 12 §1–2: a post of text orders goes through one use case (``service.posts``),
for the CLI, the web pages and the API alike; each order is decided once; the log keeps
the player's own words with the command each line became, and the lines that gave no
order with why; the reports show the words beside the engine's reading."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from kingmaker.cli.app import command_app
from kingmaker.log.service_events import LineUnread, OrderSubmitted
from kingmaker.orders_text import format_order
from kingmaker.render.reports import render, reports_for, turn_report
from kingmaker.rules import commands as rc
from kingmaker.rules.candidates import MOVE, candidate_orders, orderable_units
from kingmaker.service import GM_ACTOR
from kingmaker.service import handlers as service_handlers
from kingmaker.service.commands import CreateGame, FinishTurn, SeatPlayer
from kingmaker.service.game_service import GameService
from kingmaker.service.identity import player
from kingmaker.storage import open_store

FACTIONS = ("red", "blue", "green", "gold")


def _game(tmp_path: Path, name: str = "games") -> tuple[GameService, str]:
    db = f"sqlite:///{tmp_path / f'{name}.db'}"
    svc = GameService(open_store(db))
    svc.execute(GM_ACTOR, CreateGame("Posts", FACTIONS, seed="posts", game_id="g"))
    for f in FACTIONS:
        svc.execute(GM_ACTOR, SeatPlayer("g", f, f"{f} player"))
    return svc, db


def _a_long_move(svc: GameService) -> tuple[str, str, str]:
    """A road move of red's: (noble's name, destination's name,
    the canonical text of the move)."""
    state = svc.state("g")
    for u in orderable_units(state, "red"):
        for c in candidate_orders(state, u.id, "red"):
            if c.action == MOVE and c.allowed:
                noble = state.catalog.name_of(u.id)
                return noble, state.board.name_of(c.target), format_order(c.command, state)
    raise AssertionError("red has no road move")


def test_the_cli_and_the_service_answer_a_post_alike(tmp_path: Path) -> None:
    svc, db = _game(tmp_path)
    noble, dest, _ = _a_long_move(svc)
    text = f"{noble} moves to {dest}\nset Alnwick to Red\nPercy flies to the moon\nRed ALLIES WITH Gold AS rg"
    cli = command_app()
    out = CliRunner().invoke(cli, ["orders", "g", "--as", "red", "--check", "--json", "--db", db], input=text)
    import json

    rows = json.loads(out.output)
    verdicts = svc.post(player("red"), "g", text, "red", send=False)
    assert [(r["line"], r["result"], r["rule"]) for r in rows] == [(v.line, v.result, v.rule) for v in verdicts]
    results = {v.line: v.result for v in verdicts}
    # the GM may set control from the CLI; a player may not, and is told so for that line only
    assert results[1] == "accepted" and results[2] == "not allowed"
    assert results[3] in ("syntax", "unknown_name")  # a line that gives no order
    assert svc.log("g")[-1].seq == len(svc.log("g"))  # nothing was written by checks


def test_each_order_is_decided_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    svc, _ = _game(tmp_path)
    calls: list[rc.Command] = []
    real = service_handlers.decide

    def counting(state, command):  # type: ignore[no-untyped-def]
        calls.append(command)
        return real(state, command)

    monkeypatch.setattr(service_handlers, "decide", counting)
    noble, dest, _ = _a_long_move(svc)
    verdicts = svc.post(player("red"), "g", f"{noble} moves to {dest}\nRed ALLIES WITH Gold", "red", send=True)
    assert [v.result for v in verdicts] == ["accepted", "pending"]
    assert len(calls) == 2


def test_the_log_keeps_the_players_words_and_the_reports_show_them(tmp_path: Path) -> None:
    svc, _ = _game(tmp_path)
    noble, dest, canonical = _a_long_move(svc)
    written = f"{noble.lower()} moves to {dest.lower()} please"
    words = f"{noble.lower()} moves to {dest.lower()}"
    post = f"{words}\nRed ALLIES WITH Gold AS rg\n{written}\npercy marches on yrok"
    verdicts = svc.post(player("red"), "g", post, "red", send=True)
    assert [v.result for v in verdicts][:2] == ["accepted", "pending"]
    assert all(v.result not in ("accepted", "pending") for v in verdicts[2:])
    log = svc.log("g")
    submitted = [e.event for e in log if isinstance(e.event, OrderSubmitted) and e.event.by == "red"]
    assert submitted[0].text == words and submitted[1].text == "Red ALLIES WITH Gold AS rg"
    unread = [e.event for e in log if isinstance(e.event, LineUnread)]
    assert [u.text for u in unread] == [written, "percy marches on yrok"]
    assert all(u.by == "red" and u.message for u in unread)
    svc.execute(player("red"), FinishTurn("g", "red"))
    ctx = reports_for(svc, "g")
    turn = (1, "red")
    red = render(turn_report(ctx, turn, "red"), "plain")
    assert f"\u201c{words}\u201d — read as: {canonical}" in red
    assert f"\u201c{written}\u201d — not read" in red
    public = render(turn_report(ctx, turn, "public"), "plain")
    assert f"\u201c{words}\u201d — read as: {canonical}" in public  # an open order, published with its turn
    for viewer in ("blue", "public"):
        text = render(turn_report(ctx, turn, viewer), "plain")
        assert written not in text and "yrok" not in text  # a line that gave no order stays red's
        assert "ALLIES" not in text  # diplomacy is never published

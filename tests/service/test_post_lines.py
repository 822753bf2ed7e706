"""A post read a line at a time by the one use case (``service.posts``, issue 15): a
label alone on its line labels the lines below it, as the reader does for a whole post;
chatter is answered "ignored" and never logged; a heading with a round number labels
the GM's lines below it."""

from __future__ import annotations

from pathlib import Path

from kingmaker.log.service_events import LineUnread, OrderSubmitted
from kingmaker.rules import commands as rc
from kingmaker.service import GM_ACTOR
from kingmaker.service.commands import CreateGame
from kingmaker.service.game_service import GameService
from kingmaker.storage import open_store


def _game(tmp_path: Path) -> GameService:
    svc = GameService(open_store(f"sqlite:///{tmp_path / 'lines.db'}"))
    svc.execute(GM_ACTOR, CreateGame("Lines", ("red", "blue", "green", "gold"), seed="receipts", game_id="g"))
    return svc


def test_a_label_alone_labels_the_lines_below_it(tmp_path: Path) -> None:
    svc = _game(tmp_path)
    post = "Red:\nNeville MOVES TO Banbury\n\nRed, round 1\nStanley MOVES TO Wigan\n"
    verdicts = svc.post(GM_ACTOR, "g", post, "gm", send=True)
    assert [(v.line, v.result) for v in verdicts] == [(2, "accepted"), (4, "ignored"), (5, "accepted")]
    moves = [
        e.event
        for e in svc.log("g")
        if isinstance(e.event, OrderSubmitted) and isinstance(e.event.command, rc.MOVEMENT_COMMANDS)
    ]
    assert [(m.by, m.command.by) for m in moves] == [("red", "red"), ("red", "red")]


def test_chatter_is_answered_and_not_logged(tmp_path: Path) -> None:
    svc = _game(tmp_path)
    post = "Hi GM, orders for Red round 1:\nNeville MOVES TO Oxfrod\nthanks! -- Alice\n"
    verdicts = svc.post(GM_ACTOR, "g", post, "red", send=True)
    assert [(v.line, v.result, v.ok) for v in verdicts] == [
        (1, "ignored", True),
        (2, "unknown_name", False),
        (3, "ignored", True),
    ]
    assert verdicts[1].suggestions == ("Oxford",)
    unread = [e.event for e in svc.log("g") if isinstance(e.event, LineUnread)]
    assert [u.text for u in unread] == ["Neville MOVES TO Oxfrod"]

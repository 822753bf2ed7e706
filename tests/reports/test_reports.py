"""What the reports say about the scenario game, and to whom."""

from __future__ import annotations

import pytest

from kingmaker.log.fold import Fold
from kingmaker.log.service_events import Undone
from kingmaker.render.reports import (
    Document,
    Reports,
    alliance_request,
    allied_order_request,
    messages_for,
    position,
    private_report,
    render,
    turn_report,
)
from kingmaker.rules import commands as rc
from kingmaker.rules.hashing import state_hash
from kingmaker.rules.state import GameState
from kingmaker.rules.views import PUBLIC, view

from .scenario import FACTIONS, Played, upto


def _everything(reports: Reports, viewer: str) -> str:
    return "".join(render(turn_report(reports, t, viewer), "plain") for t in reports.timeline.turns())


def test_the_public_reports_keep_the_secrets(reports: Reports) -> None:
    public = _everything(reports, PUBLIC)
    gm = _everything(reports, "gm")
    for secret in (
        "secret-bg",  # the secret alliances and the pending declaration
        "secret-bgo",
        "q12",  # the allied order's request
        "embarkation and harbour at Chepstow",  # Gold's permission to Blue
        "Chancery",
    ):
        assert secret not in public, secret
    for shown in (
        "secret-bg",
        "q12",
        "Greystoke MOVES FROM Greystoke Castle TO London",
        "embarkation and harbour at Chepstow",
        "Chancery",
    ):
        assert shown in gm, shown
    # Red's refused move is published with its turn's orders once the turn has ended
    assert "Red: Greystoke MOVES FROM Greystoke Castle TO London DIRECT — refused [ORDER.invalid]" in public
    # what is public is there: the storm, the landing, the kill, the undo, the revealed alliance
    for shown in (
        "A storm drives Jesus into port at Cardiff.",
        "Berkeley lands from Holy Ghost in the open at Chepstow.",
        "Greystoke is killed.",
        "The GM restores the game as it stood after entry",
        "Now public (ruling R7): alliance `red-gold`",
        "Army `army-east`: Bourchier, Mowbray; senior officer Mowbray (ALLY.7.iv)",
        "Green sent no orders in time (policy: hold).",
    ):
        assert shown in public, shown


def test_a_faction_reads_its_own_orders_and_nobody_elses(reports: Reports) -> None:
    red = _everything(reports, "red")
    assert "Red: Greystoke MOVES FROM Greystoke Castle TO London DIRECT — refused [ORDER.invalid]" in red
    assert "Gold GRANTS" not in red and "secret-bg" not in red
    blue = _everything(reports, "blue")
    assert "Gold GRANTS" not in blue.replace("Gold grants Blue", "")  # only its own permission
    assert "Gold grants Blue embarkation and harbour at Chepstow." in blue
    assert "secret-bg" in blue and "red-gold" in blue  # its own, and the one made public


def test_an_undone_order_is_marked(reports: Reports) -> None:
    gm = _everything(reports, "gm")
    assert "Holy Ghost SAILS TO Bristol Channel (undone by the GM)" in gm
    assert "Holy Ghost SAILS TO Chepstow VIA Bristol Channel\n" in gm


def test_the_position_is_the_viewers_view(reports: Reports) -> None:
    state = reports.timeline.now
    public = render(Document(tuple(position(view(state, PUBLIC), reports.names))), "plain")
    assert "Public alliances:\n\n- `red-gold`: Gold, Red\n" in public and "secret" not in public
    assert "Chancery" not in public
    assert "Berkeley, 10 troops: held captive by Gold" in public


def test_the_describe_formatter_is_injected(reports: Reports, played: Played) -> None:
    def shout(command: rc.Command, state: GameState) -> str:
        return f"<{command.kind.upper()}>"

    mine = Reports(reports.timeline, reports.names, shout)
    text = render(turn_report(mine, (1, "red"), "gm"), "plain")
    assert "Red: <MOVE> — accepted" in text and "Gold: <ANSWER_ALLIANCE>" in text
    then = upto(reports, played.moments["allied order"]).timeline.now
    msg = allied_order_request(then, "q12", "gold", reports.names, describe=shout)
    assert "Reply `<CONFIRM>` or `<REJECT>`" in render(msg.body, "plain")


def test_a_message_only_asks_its_reader_about_what_it_may_see(reports: Reports, played: Played) -> None:
    state = upto(reports, played.moments["declared"]).timeline.now
    assert "Red declares an alliance with you" in render(
        alliance_request(state, "red-gold", "gold", reports.names).body, "plain"
    )
    for wrong in ("blue", "red"):  # not part of it / the declarer (it awaits no answer from Red)
        with pytest.raises(LookupError):
            alliance_request(state, "red-gold", wrong, reports.names)
    with pytest.raises(LookupError):
        allied_order_request(
            upto(reports, played.moments["allied order"]).timeline.now, "q12", "blue", reports.names
        )


def test_messages_for_a_faction_are_what_awaits_it(reports: Reports, played: Played) -> None:
    then = upto(reports, played.moments["allied order"])
    assert [m.subject for m in messages_for(then, "gold")] == ["Order q12: your confirmation"]
    assert messages_for(then, "blue") == [] and messages_for(then, "red") == []
    assert [m.subject for m in messages_for(reports, "gold")] == ["Alliance secret-bgo: your answer"]
    # Green has answered: its message is kept, marked so (issue 15 §9)
    assert [m.subject for m in messages_for(reports, "green")] == [
        "Alliance secret-bgo: your answer (answered)"
    ]
    assert messages_for(reports, "green", answered=False) == []


def test_private_reports_say_what_awaits_whom(reports: Reports) -> None:
    last = reports.timeline.turns()[-1]
    text = {f: render(private_report(reports, last, f), "plain") for f in FACTIONS}
    assert "Reply `Gold ACCEPTS ALLIANCE secret-bgo`" in text["gold"]
    assert (
        "Alliance `secret-bgo` declared by Blue with Gold, Green; accepted by Green; awaiting Gold"
        in text["blue"]
    )
    assert "awaiting Gold" in text["green"]
    assert "secret-bgo" not in text["red"]
    assert "It is your turn" in text["blue"] and "It is your turn" not in text["red"]


def test_the_timeline_matches_the_service(reports: Reports, played: Played) -> None:
    tl = reports.timeline
    assert state_hash(tl.now) == state_hash(played.service.state(played.game))
    undo = next(e for e in tl.envelopes if isinstance(e.event, Undone))
    assert state_hash(tl.state_after(undo.seq)) == state_hash(tl.state_after(undo.event.to_seq))
    live = tl.live
    assert all(s not in live for s in range(undo.event.to_seq + 1, undo.seq)) and undo.seq in live
    due = {d.target: d.due for d in played.service.deadlines(played.game)}
    assert {k: v for k, v in tl.position.due().items() if k in due} == due
    assert tl.turns()[:3] == [(1, "red"), (1, "blue"), (1, "green")]


def test_a_timeline_stays_as_it_was_while_its_fold_grows(reports: Reports) -> None:
    tl = reports.timeline
    half = len(tl.envelopes) // 2
    fold = Fold.of(tl.initial, tl.envelopes[:half])
    then = fold.timeline()
    for env in tl.envelopes[half:]:
        fold.step(env)
    assert state_hash(fold.state) == state_hash(tl.now) and fold.head == tl.head
    assert then.head == tl.envelopes[half - 1].seq and len(then.envelopes) == half
    assert state_hash(then.now) == state_hash(tl.state_after(then.head))
    assert then.turns() == [t for t in tl.turns() if tl.last_seq_of(t) and t in then.turns()]

"""The sentence of every end-of-game entry (``render.reports.parliament``), in the cases
the Parliament scenario does not reach: a sitting closed by the GM with a vote open, or
dissolved by the turn's end; a King proclaimed by a motion and the end of it; a ship
coming into play; the VICTORY.hold and EXEC.two_houses counts; a game ended with no winner; a Parliament
without votes. None falls back to the entry's raw fields, and each says its matter in
words."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kingmaker.log.envelope import Envelope
from kingmaker.render.reports import Reports, reports_for
from kingmaker.render.reports.crown_position import parliament_awaiting
from kingmaker.render.reports.document import Italic, plain
from kingmaker.render.reports.happenings import sentence
from kingmaker.render.reports.parliament import END_EVENTS
from kingmaker.rules import events as ev
from kingmaker.rules import ids
from kingmaker.rules.frozen import FrozenDict
from kingmaker.rules.state import GameState, Proposal
from kingmaker.rules.views import as_seen_by, view

from .scenario_full import upto
from .scenario_parliament import Played, play


@pytest.fixture(scope="module")
def sitting() -> tuple[Reports, GameState]:
    """The reports and the state while red's victory motion is open (red, blue and green
    have voted on ``m3``)."""
    played: Played = play(until="m3 voting")
    reports = upto(reports_for(played.service, played.game), played.moments["m3 voting"])
    return reports, reports.timeline.now


def _say(reports: Reports, state: GameState, event: ev.Event, rule: str | None = None) -> str:
    env = Envelope(999, state.round, state.turn, "gm", rule, event, "")
    s = sentence(env, reports.names, reports.describe, state)
    assert s is not None
    assert not any(isinstance(x, Italic) and "(" in plain(x.children) for x in s), s  # no raw fields
    return plain(s)


CASES = [
    (ev.ParliamentClosed("gm"), "The GM closes Parliament at Ipswich; the open vote on m3 lapses"),
    (ev.ParliamentClosed("turn_end"), "Parliament at Ipswich is dissolved as the turn ends; the open vote"),
    (ev.ParliamentClosed("closed"), "Red closes Parliament at Ipswich"),
    (
        ev.SoleKingProclaimed("henry_vi", "red"),
        "Henry VI, kept by Red, is sole King until he dies or is captured.",
    ),
    (ev.ProclamationEnded("henry_vi", "captured"), "Henry VI is captured: he is no longer sole King."),
    (
        ev.ShipEntered("grace_dieu", "green", "southampton"),
        "Grace Dieu comes into play for Green, in port at Southampton.",
    ),
    (
        ev.NobleEntered("talbot", "red", "sheffield", False),
        "Talbot enters play for Red in the open at Sheffield.",
    ),
    (
        ev.KingHeldCounted("henry_vi", "red", 2),
        "Red has kept Henry VI, the sole King, at the end of 2 turns in a row.",
    ),
    (ev.KingHeldCounted("", "", 0), "No faction keeps a sole King now"),
    (
        ev.HousesHeldCounted("red", 2),
        "Red has ended 2 of its turns in a row controlling heirs of both houses.",
    ),
    (ev.HousesHeldCounted("blue", 0), "The count of Blue's turns with heirs of both houses starts again."),
    (
        ev.GameEnded(ids.VICTORY_NONE, None),
        "The game is over. No heir of either house lives, and no faction wins.",
    ),
    (ev.GameEnded(ids.VICTORY_BEAUFORT, "gold"), "Gold wins the game: only an uncrowned Beaufort"),
    (ev.GameEnded(ids.VICTORY_HOLD, "red"), "Red wins the game: it has kept the sole King"),
    (
        ev.VoteCast("m3", "gold", "for", "abstain"),
        "Gold's vote on m3 (the victory motion): for in the Lords, abstain in the Commons",
    ),
    (
        ev.ProposalMade("m4", motion="sole_king", heir="henry_vi", voters=("red", "blue")),
        "Red proposes the motion that Henry VI be sole King (m4); Red and Blue vote",
    ),
    (ev.AttendanceDeclared("gold", ()), "Gold sends no noble to Parliament."),
    (
        ev.HeirCrowned("richard_duke_of_york"),
        "Richard, Duke of York is crowned King.",
    ),  # unescorted: no place
]


@pytest.mark.parametrize(("event", "words"), CASES, ids=[type(e).__name__ for e, _ in CASES])
def test_each_entry_has_its_sentence(sitting: tuple[Reports, GameState], event: ev.Event, words: str) -> None:
    reports, state = sitting
    assert words in _say(reports, state, event)


def test_every_end_of_game_event_is_covered() -> None:
    told = {type(e) for e, _ in CASES} | {ev.ParliamentSummoned, ev.ProposalDecided}
    assert set(END_EVENTS) <= told


def test_a_decision_without_votes(sitting: tuple[Reports, GameState]) -> None:
    """Basic mode (PARL.basic): the presiding faction awards without votes; a proposal
    no faction may vote on fails."""
    reports, state = sitting
    p = state.parliament
    assert p is not None
    basic = replace(
        p, proposals=(*p.proposals[:-1], Proposal("m3", award="treasurer_of_england", to="talbot"))
    )
    before = replace(state, parliament=basic)
    text = _say(reports, before, ev.ProposalDecided("m3", 0, 0, 0, 0, True), ids.PARL_BASIC)
    assert text == "Parliament awarded Treasurer of England to Talbot (m3), without votes."
    text = _say(reports, before, ev.ProposalDecided("m3", 0, 0, 0, 0, False))
    assert text == "Parliament rejected Treasurer of England for Talbot (m3): no faction in it has a vote."


def test_what_parliament_waits_for(sitting: tuple[Reports, GameState]) -> None:
    """Gold alone has still to vote on ``m3``: it is told how to reply; the others are
    asked nothing (red, presiding, waits for the vote to end)."""
    reports, state = sitting

    def asked(faction: str) -> str:
        items = parliament_awaiting(
            view(state, faction), as_seen_by(state, faction), faction, reports.names, reports.describe
        )
        return " | ".join(plain(i.content) for i in items)

    assert "Parliament waits for your vote on m3, the victory motion (PARL.vote)" in asked("gold")
    assert "Gold VOTES FOR m3" in asked("gold") and "Gold ABSTAINS ON m3" in asked("gold")
    assert asked("red") == asked("blue") == asked("green") == ""
    # once the vote is decided, the presiding faction may propose again or close
    p = state.parliament
    assert p is not None and p.open is not None
    done = replace(
        p.open, votes=FrozenDict({**p.open.votes, "gold": ("abstain", "abstain")}), outcome="failed"
    )
    after = replace(state, parliament=replace(p, proposals=(*p.proposals[:-1], done)))
    items = parliament_awaiting(view(after, "red"), after, "red", reports.names, reports.describe)
    assert "Red CLOSES PARLIAMENT" in plain(items[0].content)

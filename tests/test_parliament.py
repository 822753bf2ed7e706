"""Parliament (FULL_GAME 3.7, issue 14): what the vectors cannot say. Votes are secret
until the proposal is decided, in views and in the log; the presiding faction is told
the Chancery's contents while it sits; a sitting replays to the same hash; the vote
table and the blocs; the rulings cite vectors that exist."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from kingmaker.conformance.case import build_board, build_state
from kingmaker.log.envelope import Envelope
from kingmaker.log.visibility import visible_log
from kingmaker.rules import commands as c
from kingmaker.rules import events as ev
from kingmaker.rules.apply import replay
from kingmaker.rules.codec import state_from_data, state_to_data
from kingmaker.rules.commands import GM
from kingmaker.rules.decide import decide, play
from kingmaker.rules.hashing import state_hash
from kingmaker.rules.state import GameState
from kingmaker.rules.views import SECRET_VOTE, as_seen_by, view
from kingmaker.rules.votes import bloc

ROOT = Path(__file__).resolve().parents[1]

BOARD: dict[str, Any] = {
    "places": {"london": {"kind": "city", "cathedral": True}, "york": {"kind": "city"}, "f": {"kind": "country"}}
}
STATE: dict[str, Any] = {
    "turn_order": ["red", "blue", "green"],
    "turn": "red",
    "phase": "parliament",
    "control": {"london": "red", "york": "green"},
    "succession": {"lancaster": ["henry_vi"], "york": ["richard_of_york"]},
    "heirs": {"henry_vi": {"house": "lancaster", "crowned": True, "with": "percy"}, "richard_of_york": {"house": "york", "at": "f"}},
    "chancery": ["marshal_of_england", "earl_of_kent"],
    "votes": {
        "lords": {"percy": 3, "neville": 4, "stanley": 2, "senior_lancaster": 10},
        "commons": {"king": 20, "percy": 2, "neville": 3, "york": 4},
    },
    "nobles": {
        "percy": {"faction": "red", "in": "london", "troops": 100, "titled": True},
        "neville": {"faction": "blue", "at": "f", "troops": 50, "titled": True},
        "stanley": {"faction": "green", "in": "york", "troops": 50},
    },
}


def _state() -> GameState:
    return build_state(STATE, build_board(BOARD, 2), "parl", 2)


def _sitting() -> tuple[GameState, list[ev.Event]]:
    """Red summons and every faction attends; red proposes the Marshal for Percy."""
    s = _state()
    events: list[ev.Event] = []
    for cmd in (
        c.SummonParliament("red", "p1", "london"),
        c.Attend("red", ("percy",)),
        c.Attend("blue", ("neville",)),
        c.Attend("green", ("stanley",)),
        c.Propose("red", "m1", "marshal_of_england", "percy"),
    ):
        d = decide(s, cmd)
        assert not d.refused, d.explanation
        events += d.events
        s = replay(s, d.events)
    return s, events


def test_a_vote_is_secret_until_the_proposal_is_decided() -> None:
    s, _ = _sitting()
    s, d = play(s, c.Vote("red", "m1", "for", "for"))
    assert d.pending and d.awaiting == ("blue", "green")
    assert "for" not in d.explanation.replace("waiting for", "")
    own = view(s, "red").parliament
    other = view(s, "blue").parliament
    assert own is not None and other is not None
    assert own.proposals[-1].votes["red"] == ("for", "for")
    assert other.proposals[-1].votes["red"] == SECRET_VOTE  # cast, stance unseen
    assert other.proposals[-1].awaiting == ("blue", "green")  # who has voted is public
    seen = as_seen_by(s, "green").parliament
    assert seen is not None and seen.proposals[-1].votes["red"] == SECRET_VOTE
    gm = view(s, GM).parliament
    assert gm is not None and gm.proposals[-1].votes["red"] == ("for", "for")
    s, _ = play(s, c.Vote("blue", "m1", "against", "abstain"))
    s, d = play(s, c.Vote("green", "m1", "abstain", "against"))
    assert d.accepted and d.report["vote"]["passed"] is True
    after = view(s, "blue").parliament
    assert after is not None and after.proposals[-1].votes["red"] == ("for", "for")


def test_the_log_keeps_a_vote_to_its_voter_until_the_tally() -> None:
    s, events = _sitting()
    log: list[ev.Event] = list(events)
    for f, stance in (("red", "for"), ("blue", "against")):
        d = decide(s, c.Vote(f, "m1", stance, stance))
        log += d.events
        s = replay(s, d.events)

    def envelopes(evs: list[ev.Event]) -> list[Envelope]:
        actors = {ev.VoteCast: lambda e: e.faction}
        return [
            Envelope(
                seq=i,
                round=1,
                turn="red",
                actor=actors[type(e)](e) if type(e) in actors else "red",
                rule=None,
                event=e,
                recorded_at="",
                command="",
            )
            for i, e in enumerate(evs, start=1)
        ]

    def votes(viewer: str | None, evs: list[ev.Event]) -> list[str]:
        return [e.event.faction for e in visible_log(envelopes(evs), viewer) if isinstance(e.event, ev.VoteCast)]

    assert votes("red", log) == ["red"]
    assert votes("blue", log) == ["blue"]
    assert votes("green", log) == []
    assert votes(None, log) == []
    assert votes(GM, log) == ["red", "blue"]
    d = decide(s, c.Vote("green", "m1", "abstain", "abstain"))
    log += d.events
    assert votes("green", log) == ["red", "blue", "green"]
    assert votes(None, log) == ["red", "blue", "green"]


def test_a_vote_in_a_later_sitting_is_not_opened_by_an_earlier_proposal_of_the_same_id() -> None:
    e1 = [ev.ParliamentSummoned("p1", "london", "red", "red", "PARL.summon.king"), ev.ProposalMade("m1")]
    e1 += [ev.VoteCast("m1", "blue", "for", "for"), ev.ProposalDecided("m1", 1, 0, 1, 0, True), ev.ParliamentClosed("closed")]
    e2 = [ev.ParliamentSummoned("p2", "london", "red", "red", "PARL.summon.king"), ev.ProposalMade("m1")]
    e2 += [ev.VoteCast("m1", "blue", "against", "against")]
    envs = [
        Envelope(seq=i, round=1, turn="red", actor="blue", rule=None, event=e, recorded_at="", command="")
        for i, e in enumerate(e1 + e2, start=1)
    ]
    seen = [e.event for e in visible_log(envs, "red") if isinstance(e.event, ev.VoteCast)]
    assert [v.lords for v in seen] == ["for"]


def test_the_presiding_faction_is_told_the_chancery_while_parliament_sits() -> None:
    s = _state()
    assert view(s, "red").chancery == ()
    s, _ = play(s, c.SummonParliament("red", "p1", "london"))
    assert sorted(view(s, "red").chancery) == ["earl_of_kent", "marshal_of_england"]
    assert sorted(as_seen_by(s, "red").chancery) == ["earl_of_kent", "marshal_of_england"]
    assert view(s, "blue").chancery == () and as_seen_by(s, "blue").chancery == ()
    assert view(s, "blue").chancery_size == 2
    s, _ = play(s, c.Attend("red", ()))
    s, _ = play(s, c.Attend("blue", ()))
    s, _ = play(s, c.Attend("green", ()))
    s, d = play(s, c.CloseParliament("red"))
    assert d.accepted
    assert view(s, "red").chancery == ()


def test_a_sitting_replays_and_round_trips_to_the_same_hash() -> None:
    s, events = _sitting()
    again = replay(_state(), events)
    assert state_hash(again) == state_hash(s)
    back = state_from_data(state_to_data(s), s.board, s.catalog)
    assert back == s and state_hash(back) == state_hash(s)


def test_blocs_count_attendance_control_offices_and_the_king() -> None:
    s, _ = _sitting()
    p = s.parliament
    assert p is not None
    red = bloc(s, p, "red")
    assert (red.lords, red.commons) == (13, 22)  # Percy 3+2, the senior Lancastrian 10, the King 20
    green = bloc(s, p, "green")
    assert (green.lords, green.commons) == (2, 4)  # Stanley 2, York controlled 4
    assert {h for h, _, _ in green.parts} == {"stanley", "york"}


def test_the_default_vote_table_totals_82_lords_and_156_commons() -> None:
    from kingmaker.data.loader import load_dataset

    cat = load_dataset().catalog
    votes = cat.votes
    assert votes is not None
    removed = set(cat.removed)
    lords = sum(v for k, v in votes.lords.items() if k not in removed)
    commons = sum(v for k, v in votes.commons.items() if k not in removed)
    assert (lords, commons) == (82, 156)


def test_parliament_rulings_cite_vectors_that_exist() -> None:
    text = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    part = text.split("### Parliament", 1)
    if len(part) < 2:
        pytest.skip("no Parliament rulings yet")
    cited = set(re.findall(r"\b(P-PARL-[A-Z-]+-\d{3}|PAR-\d{3}(?:-B)?)\b", part[1]))
    assert cited
    ids = set()
    for path in (ROOT / "tests" / "vectors").rglob("*.yaml"):
        m = re.search(r"^id: (\S+)", path.read_text(encoding="utf-8"), re.M)
        if m:
            ids.add(m.group(1))
    assert cited <= ids, sorted(cited - ids)

"""What a faction may do now with its hand, its heirs and Parliament (``rules.choices``),
and what each faction still has to do (``rules.duties``), issue 14: every choice is the
verdict ``decide`` gives, so the web offers exactly the legal holders of a card, crowns
where the rules crown, and the Parliament steps the rules take."""

from __future__ import annotations

from typing import Any

import pytest

from kingmaker.conformance.case import build_board, build_state
from kingmaker.conformance.case_full import castles
from kingmaker.rules import commands as c
from kingmaker.rules import events as ev
from kingmaker.rules.apply import replay
from kingmaker.rules.choices import (
    ASSIGN,
    ENTER_PLAY,
    coronations,
    hand_choices,
    judge,
    parliament_choices,
    proposal_id,
    summons_id,
)
from kingmaker.rules.decide import decide, play
from kingmaker.rules.decision import Result
from kingmaker.rules.duties import duties, duties_of
from kingmaker.rules.state import GameState


def _case(state: dict[str, Any], board: dict[str, Any]) -> GameState:
    return build_state(state, build_board(board, 2), "choices", 2, castles(board))


# -- the hand: the legal holders of each card ----------------------------------------------

HAND_BOARD: dict[str, Any] = {
    "places": {
        "f": {"kind": "country"},
        "bristol": {"kind": "city", "port": ["irish_sea"]},
        "lathom": {"kind": "castle", "castle_of": ["stanley"]},
        "goodrich": {"kind": "castle"},
    },
    "seas": {"irish_sea": {}},
    "roads": [["lathom", "f", "bristol"]],
}
HAND: dict[str, Any] = {
    "turn_order": ["red", "blue"],
    "turn": "red",
    "phase": "movement",
    "hands": {
        "red": ["earl_of_kent", "marshal_of_england", "bishop_of_lincoln", "stanley"],
        "blue": ["saxons"],
    },
    "captives": {"stafford": {"by": "blue", "place": "f"}},
    "nobles": {
        "percy": {"faction": "red", "at": "f", "troops": 100, "titled": True},
        "talbot": {"faction": "red", "at": "f", "troops": 50},
        "stafford": {"faction": "red", "troops": 30},
        "neville": {"faction": "red", "troops": 50},
        "mowbray": {"faction": "blue", "at": "f", "troops": 50},
    },
    "ships": {"grace": {"faction": "red", "capacity": 200, "at": "irish_sea", "passengers": ["neville"]}},
}


def _holders(state: GameState, faction: str) -> dict[str, list[str]]:
    return {
        cc.card: sorted(
            getattr(ch.command, "to", None) or getattr(ch.command, "castle", "") for ch in cc.allowed
        )
        for cc in hand_choices(state, faction)
    }


def test_a_card_is_offered_to_its_legal_holders_only() -> None:
    s = _case(HAND, HAND_BOARD)
    got = _holders(s, "red")
    # a title to the untitled only (DEAL.limits), an office to the titled only; never a
    # captive (Stafford) or a noble at sea (Neville) (DEAL.assign); a see to anyone free
    assert got == {
        "earl_of_kent": ["talbot"],
        "marshal_of_england": ["percy"],
        "bishop_of_lincoln": ["percy", "talbot"],
        "stanley": ["lathom"],
    }
    steps = {cc.card: cc.step for cc in hand_choices(s, "red")}
    assert steps["earl_of_kent"] == ASSIGN and steps["stanley"] == ENTER_PLAY
    # blue's mercenaries may go to its one noble; its hand is its own
    assert _holders(s, "blue") == {"saxons": ["mowbray"]}


def test_every_choice_is_the_verdict_of_decide() -> None:
    s = _case(HAND, HAND_BOARD)
    for faction in ("red", "blue"):
        for cc in hand_choices(s, faction):
            for ch in cc.choices:
                d = decide(s, ch.command)
                assert (ch.result, ch.rule, ch.explanation) == (d.result, d.rule, d.explanation)
    refused = {
        ch.command.to: ch.rule
        for cc in hand_choices(s, "red")
        if cc.card == "earl_of_kent"
        for ch in cc.choices
    }  # type: ignore[attr-defined]
    assert refused == {
        "neville": "DEAL.assign",
        "percy": "DEAL.limits",
        "stafford": "DEAL.assign",
        "talbot": "DEAL.assign",
    }


def test_a_card_no_noble_may_hold_says_why() -> None:
    state = dict(HAND, hands={"red": ["treasurer_of_england"]})
    state["nobles"] = {"talbot": {"faction": "red", "at": "f", "troops": 50}}
    state.pop("ships")
    state.pop("captives")
    s = _case(state, HAND_BOARD)
    (cc,) = hand_choices(s, "red")
    assert cc.allowed == () and cc.why_not.endswith("(DEAL.limits)") and "holds no title" in cc.why_not


def test_a_noble_card_out_of_its_turn_enters_nowhere() -> None:
    s = _case(dict(HAND, turn="blue"), HAND_BOARD)
    (stanley,) = [cc for cc in hand_choices(s, "red") if cc.card == "stanley"]
    assert stanley.allowed == () and stanley.why_not.endswith("(TURN.order)")


# -- coronation ------------------------------------------------------------------------------

CROWN_BOARD: dict[str, Any] = {
    "places": {"york": {"kind": "city", "cathedral": True}, "f": {"kind": "country"}},
    "roads": [["york", "f"]],
}
CROWN: dict[str, Any] = {
    "turn_order": ["red", "blue"],
    "turn": "red",
    "phase": "coronation",
    "control": {"york": "red"},
    "succession": {"york": ["richard_of_york", "edward_of_march"]},
    "heirs": {
        "richard_of_york": {"house": "york", "with": "percy"},
        "edward_of_march": {"house": "york", "with": "percy"},
    },
    "nobles": {
        "percy": {
            "faction": "red",
            "in": "york",
            "troops": 100,
            "awards": [{"id": "archbishop_of_york", "kind": "archbishop"}],
        },
        "neville": {"faction": "blue", "at": "f", "troops": 50},
    },
}


def test_a_coronation_is_offered_where_the_rules_crown_and_nowhere_else() -> None:
    s = _case(CROWN, CROWN_BOARD)
    got = {ch.command.heir: (ch.allowed, ch.rule, ch.place) for ch in coronations(s, "red")}  # type: ignore[attr-defined]
    assert got == {
        "richard_of_york": (True, "CROWN.succession", "york"),
        "edward_of_march": (False, "CROWN.succession", None),  # not the senior heir
    }
    assert coronations(s, "blue") == ()  # it controls no heir
    # in its movement phase the coronation would first move the turn on (implicit advance)
    early = _case(dict(CROWN, phase="movement"), CROWN_BOARD)
    (first, _) = coronations(early, "red")
    assert first.allowed and first.advances_to == "coronation"
    # in the open there is no coronation (CROWN.cathedral)
    nobles = dict(CROWN["nobles"], percy=dict(CROWN["nobles"]["percy"], at="york"))
    nobles["percy"].pop("in")
    (outside, _) = coronations(_case(dict(CROWN, nobles=nobles), CROWN_BOARD), "red")
    assert not outside.allowed and outside.rule == "CROWN.cathedral"


# -- Parliament ----------------------------------------------------------------------------

PARL_BOARD: dict[str, Any] = {
    "places": {
        "london": {"kind": "city", "cathedral": True},
        "york": {"kind": "city"},
        "leeds": {"kind": "town"},
        "tadcaster": {"kind": "castle"},
        "f": {"kind": "country"},
    }
}
PARL: dict[str, Any] = {
    "turn_order": ["red", "blue", "green"],
    "turn": "red",
    "phase": "parliament",
    "control": {"london": "red", "leeds": "red", "tadcaster": "red", "york": "green"},
    "succession": {"lancaster": ["henry_vi"], "york": ["richard_of_york"]},
    "heirs": {
        "henry_vi": {"house": "lancaster", "crowned": True, "with": "percy"},
        "richard_of_york": {"house": "york", "at": "f"},
    },
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


def _parl() -> GameState:
    return _case(PARL, PARL_BOARD)


def test_the_seats_offered_are_the_cities_and_towns_the_summoner_controls() -> None:
    s = _parl()
    pc = parliament_choices(s, "red")
    assert [(ch.command.seat, ch.allowed) for ch in pc.summon] == [("leeds", True), ("london", True)]  # type: ignore[attr-defined]
    assert all(ch.command.id == summons_id(s, "red") == "parliament-1-red" for ch in pc.summon)  # type: ignore[attr-defined]
    green = parliament_choices(s, "green").summon
    assert [(ch.command.seat, ch.allowed, ch.rule) for ch in green] == [("york", False, "PARL.summon.king")]  # type: ignore[attr-defined]
    # earlier in its turn the summons moves the turn on to the Parliament phase first
    early = _case(dict(PARL, phase="movement"), PARL_BOARD)
    assert {ch.advances_to for ch in parliament_choices(early, "red").summon} == {"parliament"}


def _sitting() -> GameState:
    s = _parl()
    s, d = play(s, c.SummonParliament("red", "p1", "london"))
    assert d.accepted, d.explanation
    return s


def test_attendance_is_offered_in_order_and_names_who_may_not_come() -> None:
    s = _sitting()
    red, blue = (parliament_choices(s, f) for f in ("red", "blue"))
    assert red.attend is not None and red.attend.allowed  # the presiding faction first
    assert blue.attend is not None and not blue.attend.allowed and blue.attend.rule == "PARL.attend"
    assert red.attendees == (("percy", ""),) and red.summon == ()
    s, _ = play(s, c.Attend("red", ("percy",)))
    assert parliament_choices(s, "red").attend is None  # declared
    assert parliament_choices(s, "blue").attend.allowed  # type: ignore[union-attr]
    assert [d.who for d in duties(s) if d.kind == "attend"] == ["blue", "green"]
    assert (
        duties_of(s, "blue")[0].must and "declares which of its nobles attend" in duties_of(s, "blue")[0].text
    )


def test_the_presiding_faction_is_offered_the_proposals_the_rules_take() -> None:
    s = _sitting()
    # attendance not complete: one refusal says why
    (wait,) = parliament_choices(s, "red").proposals
    assert not wait.allowed and wait.rule == "PARL.business" and "must declare attendance" in wait.explanation
    for f, nobles in (("red", ("percy",)), ("blue", ("neville",)), ("green", ("stanley",))):
        s, d = play(s, c.Attend(f, nobles))
        assert d.accepted
    pc = parliament_choices(s, "red")
    allowed = {
        (ch.command.award, ch.command.to, ch.command.motion)  # type: ignore[attr-defined]
        for ch in pc.proposals
        if ch.allowed
    }
    # the Marshal only for the titled, the earldom only for the untitled (DEAL.limits);
    # the victory motion: red keeps the sole King
    assert allowed == {
        ("marshal_of_england", "percy", None),
        ("marshal_of_england", "neville", None),
        ("earl_of_kent", "stanley", None),
        (None, None, "victory"),
    }
    assert {ch.command.id for ch in pc.proposals} == {proposal_id(s)} == {"m1"}  # type: ignore[attr-defined]
    assert parliament_choices(s, "blue").proposals == ()  # only the presiding faction proposes
    assert [d.kind for d in duties_of(s, "red")] == ["propose"]
    assert pc.close is not None and pc.close.allowed
    assert not parliament_choices(s, "blue").close.allowed  # type: ignore[union-attr]


def test_the_voters_are_offered_their_vote_and_the_duties_name_who_is_awaited() -> None:
    s = _sitting()
    for f, nobles in (("red", ("percy",)), ("blue", ("neville",)), ("green", ("stanley",))):
        s, _ = play(s, c.Attend(f, nobles))
    s, d = play(s, c.Propose("red", "m1", award="marshal_of_england", to="neville"))
    assert d.result is Result.PENDING
    for f in ("red", "blue", "green"):
        v = parliament_choices(s, f).vote
        assert v is not None and v.allowed
    assert not parliament_choices(s, "red").close.allowed  # type: ignore[union-attr]  # a vote is open
    s, _ = play(s, c.Vote("blue", "m1", "against", "for"))
    assert parliament_choices(s, "blue").vote.allowed is False  # type: ignore[union-attr]
    assert [(d.who, d.kind, d.ref) for d in duties(s)] == [("red", "vote", "m1"), ("green", "vote", "m1")]


def test_a_summons_owed_is_a_duty() -> None:
    state = dict(PARL, heirs={"richard_of_york": {"house": "york", "at": "f"}})
    s = replay(_case(state, PARL_BOARD), [ev.EventFlagSet("parliament_must")])
    (d,) = [d for d in duties(s) if d.kind == "summon"]
    assert (d.who, d.must, d.rule) == ("red", True, "PARL.summon.must")


# -- duties ----------------------------------------------------------------------------------


def test_the_phase_says_who_is_awaited() -> None:
    s = _case(dict(CROWN, phase="movement"), CROWN_BOARD)
    assert [(d.who, d.kind, d.must) for d in duties(s)] == [
        ("red", "orders", True),
        ("gm", "end_phase", False),
    ]
    s = _case(CROWN, CROWN_BOARD)
    crown = [d for d in duties(s) if d.kind == "crown"]
    assert [(d.who, d.ref, d.must) for d in crown] == [("red", "richard_of_york", False)]
    assert crown[0].text == "red may crown Richard of York at York (CROWN.succession)"
    s = _case(dict(CROWN, phase="crown"), CROWN_BOARD)
    assert [d.kind for d in duties(s)] == ["draw_crown", "end_turn"]
    s, d = play(s, c.DrawCrown(c.GM))
    assert d.accepted and [d.kind for d in duties(s)] == ["end_turn"]


def test_answers_awaited_and_captives_are_duties_and_a_game_over_has_none() -> None:
    state = dict(HAND)
    s = _case(state, HAND_BOARD)
    s, d = play(s, c.DeclareAlliance("red", "rb", ("blue",)))
    assert d.result is Result.PENDING
    got = [(x.who, x.kind, x.must) for x in duties(s)]
    assert ("blue", "answer", True) in got
    captive = [x for x in duties(s) if x.kind == "captive"]
    assert [(x.who, x.ref, x.must) for x in captive] == [
        ("blue", "stafford", False),
        ("red", "stafford", False),
    ]
    assert all("(EXEC.unransomed)" in x.text for x in captive)
    over = replay(s, [ev.GameEnded("VICTORY.none", "")])
    assert duties(over) == ()
    assert all(not ch.allowed for cc in hand_choices(over, "red") for ch in cc.choices)


@pytest.mark.parametrize("faction", ["red", "blue", "green"])
def test_judge_matches_decide_for_parliament_steps(faction: str) -> None:
    s = _sitting()
    for cmd in (c.Attend(faction, ()), c.CloseParliament(faction)):
        ch, d = judge(s, cmd), decide(s, cmd)
        assert (ch.result, ch.rule, ch.explanation) == (d.result, d.rule, d.explanation)

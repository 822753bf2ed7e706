"""Crown cards, coronation and victory (issue 14) beyond what the format-2 vectors can
say: the deal's leftovers (DEAL.setup), the Chancery and hands as each viewer sees them
(DEAL.chancery), the end of a sole King's proclamation (PARL.two_kings, F21), the
victory motion's end (VICTORY.parliament), the seed's reveal after the end, and the new
records and state fields round-tripping without changing older hashes."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from kingmaker.conformance.case import build_board, build_state
from kingmaker.data import load_dataset
from kingmaker.rules import commands as c
from kingmaker.rules import events as ev
from kingmaker.rules.apply import replay
from kingmaker.rules.cards import AwardKind
from kingmaker.rules.codec import state_from_data, state_to_data
from kingmaker.rules.deal import assignment, crown_deck, new_game
from kingmaker.rules.decide import decide
from kingmaker.rules.hashing import state_data, state_hash
from kingmaker.rules.kings import sole_king
from kingmaker.rules.records import from_data, to_data
from kingmaker.rules.state import GameState, KingHeld, Proclamation
from kingmaker.rules.victory import victory_motion_passed
from kingmaker.rules.views import GM, as_seen_by, view

DS = load_dataset()


def _case(state: dict[str, Any], places: dict[str, Any] | None = None) -> GameState:
    board = build_board({"places": places or {"f": {"kind": "country"}}}, 2)
    return build_state(state, board, "test", 2)


# -- DEAL.setup ---------------------------------------------------------------------


def test_a_hand_without_a_noble_sends_titles_offices_and_sees_to_the_chancery_the_rest_to_the_discard() -> (
    None
):
    a = assignment(
        DS.catalog, ["earl_of_kent", "marshal_of_england", "bishop_of_lincoln", "saxons", "town_of_coventry"]
    )
    assert a.held == {}
    assert a.chancery == ["earl_of_kent", "marshal_of_england", "bishop_of_lincoln"]
    assert a.discard == ["saxons", "town_of_coventry"]


@pytest.mark.parametrize("seed", ["a", "b", "c"])
def test_every_dealt_card_is_assigned_placed_or_in_the_chancery(seed: str) -> None:
    factions = DS.setup.faction_ids(6)
    g = new_game(DS.board, DS.catalog, factions, seed, 7, DS.setup.removed, full_game=True)
    assert g.crown_discard == ()  # every faction has a noble, who may hold any see, mercenary or town
    held = [a for n in g.nobles.values() for a in n.awards]
    placed = [*g.nobles, *g.ships, *held, *g.chancery]
    assert len(placed) == 6 * 7
    assert Counter(placed) + Counter(g.crown_deck) == Counter(crown_deck(DS.catalog, DS.setup.removed))
    for card in g.chancery:
        assert DS.catalog.awards[card].kind in (AwardKind.TITLE, AwardKind.OFFICE)


# -- DEAL.chancery ----------------------------------------------------------------------


def test_the_chancery_and_the_hands_are_secret_their_sizes_public() -> None:
    s = _case(
        {
            "turn_order": ["red", "blue"],
            "phase": "crown",
            "chancery": ["marshal_of_england", "earl_of_kent"],
            "hands": {"red": ["stanley"], "blue": ["earl_of_essex", "saxons"]},
            "crown_deck": ["audley"],
            "nobles": {"percy": {"faction": "red", "at": "f", "troops": 100}},
        }
    )
    red = view(s, "red")
    assert red.chancery == () and red.chancery_size == 2
    assert red.hands == (("red", ("stanley",)),) and dict(red.hand_sizes) == {"blue": 2, "red": 1}
    assert red.crown_deck_size == 1
    gm = view(s, GM)
    assert gm.chancery == ("marshal_of_england", "earl_of_kent") and len(gm.hands) == 2
    seen = as_seen_by(s, "blue")
    assert (
        seen.chancery == ()
        and seen.crown_deck == ()
        and dict(seen.hands) == {"blue": ("earl_of_essex", "saxons")}
    )
    drawn = decide(s, c.DrawCrown(c.GM))
    assert "Audley" not in drawn.explanation and "audley" not in drawn.explanation  # the card is the drawer's


# -- PARL.two_kings: the sole King a motion made --------------------------------------


def _two_kings() -> GameState:
    s = _case(
        {
            "turn_order": ["red", "blue"],
            "turn": "blue",
            "phase": "movement",
            "succession": {"lancaster": ["henry_vi"], "york": ["richard_of_york"]},
            "heirs": {
                "henry_vi": {"house": "lancaster", "crowned": True, "with": "percy"},
                "richard_of_york": {"house": "york", "crowned": True, "with": "neville"},
            },
            "nobles": {
                "percy": {"faction": "red", "at": "f", "troops": 100},
                "neville": {"faction": "blue", "at": "f", "troops": 50},
            },
        }
    )
    assert sole_king(s) is None
    return replay(s, [ev.SoleKingProclaimed("henry_vi", "red")])


def test_a_proclaimed_king_is_sole_king_until_captured() -> None:
    s = _two_kings()
    assert sole_king(s) == "henry_vi" and s.proclaimed == Proclamation("henry_vi", "red")
    orphaned = decide(s, c.Kill(c.GM, "percy"))  # his escort dies: he is not captured
    assert orphaned.accepted and not any(isinstance(e, ev.ProclamationEnded) for e in orphaned.events)
    s = replay(s, orphaned.events)
    assert sole_king(s) == "henry_vi"
    taken = decide(s, c.CaptureHeir("blue", "neville", "henry_vi"))
    assert taken.accepted and taken.events[-1] == ev.ProclamationEnded("henry_vi", "captured")
    assert "PARL.two_kings" in taken.explanation
    s = replay(s, taken.events)
    assert s.proclaimed is None and sole_king(s) is None


def test_a_proclaimed_king_who_dies_ends_the_proclamation() -> None:
    s = _two_kings()
    d = decide(s, c.Execute("red", heir="henry_vi"))
    assert d.accepted and d.events[-1] == ev.ProclamationEnded("henry_vi", "died")
    s = replay(s, d.events)
    assert s.proclaimed is None and sole_king(s) == "richard_of_york"  # now the only crowned heir


# -- VICTORY.parliament and the end of the game ---------------------------------------


def test_a_passed_victory_motion_ends_the_game_and_only_the_seed_may_be_revealed() -> None:
    s = _two_kings()
    won = victory_motion_passed(s, "red")
    assert won.rule == "VICTORY.parliament" and won.winner == "red" and won.ended
    assert won.events == (ev.GameEnded("VICTORY.parliament", "red"),)
    s = replay(s, won.events)
    assert (s.winner, s.game_over) == ("red", "VICTORY.parliament")
    moved = decide(s, c.EndTurn(c.GM))
    assert moved.refused and moved.rule == "VICTORY.timing" and moved.report.get("winner") == "red"
    assert decide(s, c.RevealSeed(c.GM)).accepted


# -- records and hashes ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "record",
    [
        c.DrawCrown(c.GM),
        c.Assign("red", "earl_of_kent", "percy"),
        c.EnterPlay("red", "stanley", "lathom"),
        c.Crown("red", "richard_of_york"),
        ev.NobleEntered("stanley", "red", "lathom", True),
        ev.ShipEntered("jesus", "red", "bristol"),
        ev.HeirCrowned("richard_of_york"),
        ev.SoleKingProclaimed("henry_vi", "red"),
        ev.ProclamationEnded("henry_vi", "captured"),
        ev.KingHeldCounted("richard_of_york", "red", 2),
        ev.GameEnded("VICTORY.none"),
        ev.GameEnded("VICTORY.last_heir", "red"),
    ],
)
def test_the_new_records_round_trip(record: Any) -> None:
    assert from_data(to_data(record)) == record


def test_the_new_fields_are_left_out_of_the_hash_while_empty_and_round_trip() -> None:
    s = _two_kings()
    plain = s.evolve(proclaimed=None)
    data = state_data(plain)
    for key in ("winner", "game_over", "proclaimed", "king_held"):
        assert key not in data
    ended = s.evolve(winner="red", game_over="VICTORY.hold", king_held=KingHeld("richard_of_york", "red", 3))
    back = state_from_data(state_to_data(ended), ended.board, ended.catalog)
    assert state_hash(back) == state_hash(ended) != state_hash(plain)
    assert back.proclaimed == Proclamation("henry_vi", "red") and back.king_held == KingHeld(
        "richard_of_york", "red", 3
    )


def test_the_rulings_of_crown_cards_coronation_and_victory_cite_vectors_that_exist() -> None:
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    text = (root / "docs" / "rulings.md").read_text(encoding="utf-8")
    part = text.split("### Crown cards, coronation and victory", 1)[1].split("\n### ", 1)[0]
    cited = set(re.findall(r"\b((?:P-(?:DEAL|CROWN|VIC)-[A-Z]+-\d{3})|COR-\d{3}|VIC-\d{3})\b", part))
    ids = set()
    for path in (root / "tests" / "vectors").rglob("*.yaml"):
        m = re.search(r"^id: (\S+)", path.read_text(encoding="utf-8"), re.M)
        if m:
            ids.add(m.group(1))
    assert len(cited) > 30 and cited <= ids, sorted(cited - ids)

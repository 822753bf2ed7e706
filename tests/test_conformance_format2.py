"""The conformance runner reads format 2 (FULL_GAME §5) beside format 1 (F26): the board
and state it adds, cards by id (3.13.7), its steps, and clear refusals of malformed
cases."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from kingmaker.conformance.case import build_board, build_state
from kingmaker.conformance.runner import run_case
from kingmaker.rules.cards import AwardKind

CASE = """
id: T2-001
format: 2
rules: [EVENT.draw]
title: t
board:
  places:
    f: {kind: country}
    york: {kind: city, cathedral: true, regions: [trent]}
    k: {kind: castle, garrison: 50}
    dublin: {kind: town, england: false}
state:
  turn_order: [red, blue]
  turn: red
  hands: {blue: [bristol, city_of_bristol, stanley]}
  chancery: [marshal_of_england]
  crown_deck: [plague_in_london]
  event_deck: [ev1, plague_in_london]
  cards: {ev1: {battle: bad_weather}}
  succession: {lancaster: [henry_vi, margaret_of_anjou]}
  heirs:
    henry_vi: {crowned: true, with: percy}
    margaret_of_anjou: {at: f}
  captives: {clifford: {by: red, place: f}}
  options: {reshuffle: each_draw, deaths_per_side: 1}
  nobles:
    percy: {faction: red, in: york, troops: 100, titled: true, awards: [{id: chancellor_of_england, troops: 50}, bishop_of_lincoln]}
    clifford: {faction: blue, troops: 10}
steps:
- {by: gm, do: end_phase, expect: {result: accepted}, then: {phase: combat, captives: {clifford: {by: red, place: f}}}}
"""


def _write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "case.yaml"
    p.write_text(text, encoding="utf-8")
    return p


def _state(text: str = CASE):  # type: ignore[no-untyped-def]
    raw = yaml.safe_load(text)
    return build_state(raw["state"], build_board(raw["board"], 2), raw["id"], 2)


def test_a_format_2_case_runs(tmp_path: Path) -> None:
    r = run_case(_write(tmp_path, CASE))
    assert r.passed, r.line()


def test_the_board_of_format_2() -> None:
    board = build_board(yaml.safe_load(CASE)["board"], 2)
    places = board.places
    assert places["york"].garrison == 300 and places["york"].cathedral and places["york"].regions == ("trent",)
    assert places["k"].garrison == 50 and places["f"].garrison == 0
    assert places["dublin"].offmap and not places["york"].offmap
    assert build_board(yaml.safe_load(CASE)["board"] | {"places": {"y": {"kind": "city"}}}, 1).places["y"].garrison == 0


def test_the_state_of_format_2() -> None:
    s = _state()
    assert s.phase == "movement"  # the default of format 2
    assert s.hands["blue"] == ("bristol", "city_of_bristol", "stanley")
    assert s.catalog.awards["bristol"].kind is AwardKind.TOWN and "bristol" in s.catalog.awards["bristol"].places
    assert "stanley" in s.catalog.nobles and s.catalog.nobles["percy"].title
    assert s.catalog.awards["chancellor_of_england"].kind is AwardKind.OFFICE  # known id: default kind
    assert s.catalog.awards["chancellor_of_england"].troops == 50
    assert s.catalog.awards["bishop_of_lincoln"].kind is AwardKind.SEE  # by id alone: the default card
    assert s.event_deck == ("ev1", "plague_in_london") and "plague_in_london" in s.catalog.events
    assert s.catalog.events["ev1"].battle is not None and s.catalog.events["ev1"].battle.bad_weather
    assert s.heirs["margaret_of_anjou"].place == "f" and not s.heirs["margaret_of_anjou"].inside
    assert s.heirs["henry_vi"].order == 1 and s.heirs["margaret_of_anjou"].order == 2
    assert s.nobles["clifford"].captive_of == "red" and s.captivity["clifford"].place == "f"
    assert s.options == {"reshuffle": "each_draw", "deaths_per_side": "1"}


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (("format: 2\n", ""), "unknown field(s) cathedral, regions"),  # format 1 keeps its fields (F26)
        (("format: 2", "format: 3"), "expected 1 or 2"),
        (("[bristol,", "[no_such_card,"), "unknown card 'no_such_card'"),
        (("[ev1, plague", "[ev2, plague"), "unknown event card 'ev2'"),
        (("bad_weather}", "worse_weather}"), "bad_weather"),
        (("turn: red\n", "turn: red\n  phase: lunch\n"), "unknown phase 'lunch'"),
        (("turn: red\n", "turn: red\n  votes: {peers: {percy: 3}}\n"), "unknown field(s) peers"),
        (("do: end_phase,", "do: crown,"), "`crown` needs `heir`"),
        (("then: {phase: combat,", "then: {winner: red,"), "winner None (game on)"),
        (("{by: red, place: f}}\n  options", "{by: blue, place: f}}\n  options"), "not another faction"),
        (("f: {kind: country}", "f: {kind: country, castle_of: percy}"), "castle_of"),
    ],
)
def test_malformed_format_2_cases_fail_with_the_reason(tmp_path: Path, change: tuple[str, str], reason: str) -> None:
    text = CASE.replace(*change)
    assert text != CASE
    r = run_case(_write(tmp_path, text))
    assert not r.passed and reason in r.got, r.line()


def test_then_checks_the_full_game_keys(tmp_path: Path) -> None:
    wrong = CASE.replace("then: {phase: combat,", "then: {phase: crown,")
    r = run_case(_write(tmp_path, wrong))
    assert not r.passed and r.expected == "phase crown" and r.got == "phase combat"
    wrong = CASE.replace("captives: {clifford: {by: red, place: f}}}}", "captives: {}}}")
    r = run_case(_write(tmp_path, wrong))
    assert not r.passed and "captives []" in r.expected

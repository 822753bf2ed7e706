"""The GM's rulings on combat outcomes: killed, captured, released, heirs, settled."""

from __future__ import annotations

import yaml

from kingmaker.conformance.case import build_board, build_state
from kingmaker.render.position import noble_whereabouts
from kingmaker.rules import commands as c
from kingmaker.rules.decide import decide, play
from kingmaker.rules.state import GameState

WORLD = """
board:
  places:
    f: {kind: country}
    york: {kind: city}
  roads: [[f, york]]
state:
  turn_order: [red, blue]
  control: {york: blue}
  nobles:
    percy: {faction: red, at: f, troops: 100, awards: [{id: marshal_of_england, troops: 100}]}
    neville: {faction: red, at: f, troops: 50}
    stanley: {faction: red, at: f, troops: 40}
    clifford: {faction: blue, at: f, troops: 10}
  heirs:
    henry_vi: {house: lancaster, crowned: true, with: percy}
  armies:
    a1: {units: [percy, neville, stanley]}
"""


def _world() -> GameState:
    raw = yaml.safe_load(WORLD)
    return build_state(raw["state"], build_board(raw["board"]), "outcomes")


def test_a_killed_noble_leaves_his_army_items_and_heir_behind() -> None:
    s = _world()
    assert s.armies["a1"].senior == "percy"
    s, d = play(s, c.Kill(c.GM, "percy"))
    assert d.accepted and d.rule == "GM.action"
    assert "percy" not in s.nobles
    assert "marshal_of_england" in s.chancery
    assert s.heirs["henry_vi"].with_noble is None and s.heirs["henry_vi"].place == "f"
    assert s.armies["a1"].units == ("neville", "stanley") and s.armies["a1"].senior == "neville"
    s, d = play(s, c.Kill(c.GM, "neville"))
    assert "a1" not in s.armies  # an army of one unit ceases


def test_a_captive_cannot_be_ordered_until_released() -> None:
    s = _world()
    s, d = play(s, c.Capture(c.GM, "clifford", "red"))
    assert d.accepted and noble_whereabouts(s, s.nobles["clifford"]) == "held captive by red"
    s = s.evolve(turn_index=1)
    refused = decide(s, c.MoveRoad("blue", "clifford", ("f", "york")))
    assert refused.rule == "ORDER.invalid" and "not on the map" in refused.explanation
    s, d = play(s, c.Release(c.GM, "clifford", "york", True))
    assert d.accepted and s.nobles["clifford"].inside and s.nobles["clifford"].captive_of is None


def test_only_the_gm_rules_on_outcomes_and_bad_names_are_refused() -> None:
    s = _world()
    assert decide(s, c.Kill("red", "clifford")).rule == "ORDER.invalid"
    assert "no noble 'nobody'" in decide(s, c.Kill(c.GM, "nobody")).explanation
    assert decide(s, c.Release(c.GM, "percy", "york")).rule == "ORDER.invalid"
    assert decide(s, c.ResolveCombat(c.GM, "c99")).rule == "ORDER.invalid"


def test_heirs_change_hands_and_combats_are_settled() -> None:
    s = _world()
    s, d = play(s, c.MoveHeir(c.GM, "henry_vi", with_noble="clifford"))
    assert d.accepted and s.heirs["henry_vi"].with_noble == "clifford"
    s, d = play(s, c.MoveRoad("red", "a1", ("f", "york")))
    assert d.accepted
    s, d = play(s, c.Siege("red", "a1", "york"))
    assert d.accepted and len(s.combats) == 1
    combat = s.combats[0].id
    s, d = play(s, c.ResolveCombat(c.GM, combat, "York falls"))
    assert d.accepted and s.combats == () and "York falls" in d.explanation

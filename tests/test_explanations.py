"""Every answer names its rule, unit and place in one plain sentence (issue 3 §2,
issue 4 §3)."""

from __future__ import annotations

import yaml

from kingmaker.conformance.case import build_board, build_state
from kingmaker.rules import commands as c
from kingmaker.rules.decide import decide, play
from kingmaker.rules.state import GameState

WORLD = """
board:
  places:
    york: {kind: city, capacity: 400}
    tadcaster: {kind: castle}
    leeds: {kind: country}
    coventry: {kind: town, capacity: 100}
  roads: [[york, tadcaster, leeds], [leeds, coventry]]
state:
  turn_order: [red, blue, green]
  control: {york: red, coventry: blue}
  alliances: [{id: rg, members: [red, green], public: false}]
  nobles:
    percy: {faction: red, at: york, troops: 100}
    stanley:
      faction: green
      at: leeds
      troops: 50
      awards: [{id: archbishop_of_york, troops: 0}]
    roos:
      faction: red
      at: leeds
      troops: 20
      awards: [{id: bishop_of_durham, troops: 0}]
"""


def _world() -> GameState:
    raw = yaml.safe_load(WORLD)
    return build_state(raw["state"], build_board(raw["board"]), "explain")


def test_a_refused_road_move_says_who_where_why_and_which_rule() -> None:
    d = decide(_world(), c.MoveRoad("red", "percy", ("york", "tadcaster", "leeds")))
    assert d.refused and d.rule == "LOC.neutral.road"
    assert d.explanation == "Percy may not pass through Tadcaster: a neutral castle blocks road movement (LOC.neutral.road)"
    assert (d.unit, d.place) == ("percy", "tadcaster")


def test_unfriendly_entry_and_capacity_explain_themselves() -> None:
    s = _world()
    d = decide(s, c.MoveRoad("red", "roos", ("leeds", "coventry"), True))
    assert d.rule == "LOC.unfriendly.enter"
    assert "Roos may not enter Coventry" in d.explanation and "blue" in d.explanation
    s, g = play(s, c.Grant("blue", "red", "coventry", ("enter",)))
    assert g.accepted
    s = s.evolve(control=s.control.set("coventry", "red"))
    d = decide(s, c.MoveRoad("red", "percy", ("york",)))
    assert d.rule == "ORDER.invalid" and "at least two places" in d.explanation


def test_turn_and_foreign_orders_explain_themselves() -> None:
    s = _world().evolve(turn_index=1)  # blue's turn
    d = decide(s, c.Move("red", "percy", "tadcaster"))
    assert d.rule == "TURN.order" and "it is blue's turn" in d.explanation
    d = decide(s, c.Move("blue", "percy", "tadcaster"))
    assert d.rule == "ORDER.foreign" and "blue may not order Percy" in d.explanation


def test_seniority_explains_each_criterion() -> None:
    s = _world()
    s, d = play(s, c.FormArmy("red", "a1", ("stanley", "roos")))
    assert d.pending and d.awaiting == ("green",)
    s, d = play(s, c.Confirm("green", "a1"))
    assert d.accepted and d.senior == "stanley" and d.senior_rule == "ALLY.7.iii"
    assert (
        "No crowned monarch present; no senior office present in the army; "
        "Archbishop of York outranks Bishop of Durham: Stanley is senior officer (ALLY.7.iii)"
    ) in d.explanation

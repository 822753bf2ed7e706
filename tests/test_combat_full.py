"""Battles, sieges, captives and ransom (FULL_GAME 3.3-3.6) beyond what the vectors in
``tests/vectors/combat/`` say: records that old logs decode, what the ordering faction
is told, replay, and the helpers other rules call (``besieged``, ``unransomed``)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from kingmaker.conformance.case import build_board, build_state
from kingmaker.rules import commands as c
from kingmaker.rules import events as ev
from kingmaker.rules.apply import replay
from kingmaker.rules.captives import heir_engaged, unransomed
from kingmaker.rules.decide import decide, play
from kingmaker.rules.fighting import category, force
from kingmaker.rules.hashing import state_hash
from kingmaker.rules.records import from_data, to_data
from kingmaker.rules.sieges import besieged, noble_besieged
from kingmaker.rules.state import GameState
from kingmaker.rules.views import as_seen_by


def _state(text: str, fmt: int = 2) -> GameState:
    raw = yaml.safe_load(text)
    return build_state(raw["state"], build_board(raw["board"], fmt), "combat", fmt)


FIELD = """
board: {places: {f: {kind: country}, t: {kind: town}}}
state:
  turn_order: [green, red, blue]
  turn: green
  phase: movement
  alliances: [{id: bg, members: [blue, green]}]
  control: {t: blue}
  cards: {ev1: {battle: {odds: "majority", deaths: [clifford]}}, ev2: {battle: bad_weather}}
  event_deck: [ev1, ev2]
  succession: {lancaster: [henry_vi, margaret_of_anjou]}
  heirs:
    margaret_of_anjou: {house: lancaster, with: stafford}
  nobles:
    percy: {faction: red, at: f, troops: 300}
    neville: {faction: red, at: f, troops: 100}
    stafford: {faction: blue, at: f, troops: 60}
    clifford: {faction: blue, at: f, troops: 40}
    stanley: {faction: green, at: f, troops: 50}
    courtenay: {faction: blue, in: t, troops: 10}
"""


def _red_turn(s: GameState) -> GameState:
    s, d = play(s, c.Defend("green", "stanley", "stafford"))
    assert d.accepted, d.explanation
    s, d = play(s, c.EndTurn(c.GM))
    assert d.accepted and s.turn == "red", d.explanation
    return s


def test_an_attack_without_sally_is_recorded_as_before_and_old_records_decode() -> None:
    plain = c.Attack("red", "percy", "stafford", "b1")
    assert "sally" not in to_data(plain)
    assert (
        from_data({"kind": "attack", "by": "red", "unit": "percy", "target": "stafford", "id": "b1"}) == plain
    )
    sallying = c.Attack("red", "percy", "stafford", "b1", ("neville",))
    assert to_data(sallying)["sally"] == ["neville"]
    assert from_data(to_data(sallying)) == sallying


def test_the_ordering_faction_is_not_told_of_a_secret_defence_pact() -> None:
    s = _red_turn(_state(FIELD))
    cmd = c.Attack("red", "percy", "stafford", "b1")
    real, seen = decide(s, cmd), decide(as_seen_by(s, "red"), cmd)
    assert real.accepted and seen.accepted
    assert real.explanation == seen.explanation == "Percy with Neville attacks Stafford and Clifford at F"
    declared = next(e for e in real.events if isinstance(e, ev.CombatDeclared))
    assert set(declared.attackers) == {"percy", "neville"}  # the whole force (BATTLE.sides)
    assert set(declared.defenders) == {"stafford", "clifford", "stanley"}  # with the pact (R12)


def test_a_battle_replays_to_the_same_state_and_names_its_outcome() -> None:
    s = _red_turn(_state(FIELD))
    log: list[ev.Event] = []
    for cmd in (c.Attack("red", "percy", "stafford", "b1"), c.Battle(c.GM, "b1")):
        d = decide(s, cmd)
        assert d.accepted, d.explanation
        log += d.events
        s = replay(s, d.events)
    assert d.rule == "BATTLE.decisive"
    assert d.report["battle"]["strengths"] == {"red": 400, "blue": 150}
    assert d.explanation.startswith("Red's 400 against Blue's 150 is 2:1")
    assert s.dead == ("clifford",)
    assert {n.id for n in s.nobles.values() if n.captive_of == "red"} == {"stafford", "stanley"}
    assert s.heirs["margaret_of_anjou"].with_noble == "percy"  # the strongest winner keeps her
    start = _red_turn(_state(FIELD))
    assert state_hash(replay(start, log)) == state_hash(s)
    assert unransomed(s) == ["stafford", "stanley"]  # in the order taken


def test_a_battle_in_a_game_without_phases_fights_the_declared_sides() -> None:
    s = _state(FIELD.replace("  phase: movement\n", "").replace("turn: green", "turn: red"), fmt=2)
    s = s.evolve(phase="")
    s, d = play(s, c.Attack("red", "percy", "stafford", "b1"))
    assert d.accepted
    s, d = play(s, c.Battle(c.GM, "b1"))
    assert d.accepted and d.report["battle"]["strengths"] == {"red": 300, "blue": 60}


def test_helpers_for_other_rules() -> None:
    text = FIELD.replace("  heirs:\n", "  sieges: [{place: t, by: [percy]}]\n  heirs:\n").replace(
        "percy: {faction: red, at: f", "percy: {faction: red, at: t"
    )
    s = _state(text)
    assert besieged(s, "t") and not besieged(s, "f") and not besieged(s, None)
    assert noble_besieged(s, "courtenay") and not noble_besieged(s, "percy")
    assert force(s, "stafford") == ("stafford", "clifford")
    assert heir_engaged(s, "margaret_of_anjou") is None
    assert category(1, 0) == "4:1" and category(0, 0) == "even"


def test_an_heir_in_an_accepted_attack_is_engaged_until_the_battle() -> None:
    s = _red_turn(_state(FIELD))
    s, d = play(s, c.Attack("red", "percy", "stafford", "b1"))
    assert d.accepted and heir_engaged(s, "margaret_of_anjou") == "the attack b1 at F"
    s, d = play(s, c.Battle(c.GM, "b1"))
    assert d.accepted and heir_engaged(s, "margaret_of_anjou") is None


def test_the_rulings_cite_combat_vectors_that_exist() -> None:
    root = Path(__file__).resolve().parents[1]
    text = (root / "docs" / "rulings.md").read_text(encoding="utf-8")
    cited = set(re.findall(r"P-(?:BAT|SIE|CAP|RAN|EXEC)-[A-Z]+-\d{3}", text))
    have = {f.stem for f in (root / "tests" / "vectors").rglob("*.yaml")}
    assert cited and cited <= have, sorted(cited - have)


SEALED = """
board: {places: {a: {kind: country}, t: {kind: town}, c: {kind: castle}}, roads: [[a, t], [a, c]]}
state:
  turn_order: [blue, red]
  turn: blue
  control: {t: blue}
  sieges: [{place: t, by: [percy]}]
  nobles:
    percy: {faction: red, at: t, troops: 300}
    stafford: {faction: blue, in: t, troops: 50}
    clifford: {faction: blue, at: a, troops: 40}
    talbot: {faction: blue, at: a, troops: 60}
"""


def test_legal_destinations_know_sealed_places_and_siege_strength() -> None:
    from kingmaker.rules.queries import legal_destinations

    s = _state(SEALED)
    inside = legal_destinations(s, "stafford")
    assert not inside.orderable and "SIEGE.sealed" in inside.reason
    relief = {d.place: d for d in legal_destinations(s, "clifford").places}
    assert not relief["t"].enter and relief["t"].rule == "SIEGE.sealed"
    assert relief["c"].siege is False  # 40 against a castle's garrison of 100
    assert {d.place: d for d in legal_destinations(s, "talbot").places}["c"].siege is False
    s, d = play(s, c.Move("blue", "talbot", "c"))
    assert d.accepted
    at_c = {d.place: d for d in legal_destinations(s, "clifford").places}["c"]
    assert at_c.siege is True  # with Talbot there: 40 + 60
    assert decide(s, c.Move("blue", "clifford", "c")).accepted

"""Rulings R18–R26 of RULE_IDS.md §3: the engine's answers, beyond what the vectors in
``tests/vectors/rulings-r18/`` can say (a noble's death is a GM act with no vector step),
and the vectors themselves (each ruling pinned both ways)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from kingmaker.conformance.case import build_board, build_state
from kingmaker.conformance.runner import run_case, run_paths
from kingmaker.rules import commands as c
from kingmaker.rules.decide import decide, play
from kingmaker.rules.state import GameState

VECTORS = Path(__file__).resolve().parent / "vectors" / "rulings-r18"

FLEET = """
board:
  places:
    p: {kind: town, port: [sea]}
  seas:
    sea: {adjacent: [ocean]}
    ocean: {adjacent: [sea]}
state:
  turn_order: [red, green, blue]
  control: {p: red}
  alliances:
  - {id: rg, members: [red, green], public: true}
  nobles:
    percy: {faction: red, troops: 100}
    stanley: {faction: green, troops: 50}
    neville: {faction: red, at: p, troops: 10}
  ships:
    grace_dieu: {faction: red, in: p, capacity: 300, passengers: [percy]}
    mary: {faction: green, in: p, capacity: 300, passengers: [stanley]}
  armies:
    f1: {units: [grace_dieu, mary], fleet: true}
"""


def _state(text: str) -> GameState:
    raw = yaml.safe_load(text)
    return build_state(raw["state"], build_board(raw["board"]), "r18")


def test_r24_a_fleet_chooses_its_senior_officer_again_when_he_dies_and_has_none_without_nobles() -> None:
    s = _state(FLEET)
    assert s.armies["f1"].senior == "percy"
    s, d = play(s, c.Kill(c.GM, "percy"))
    assert d.accepted and s.armies["f1"].units == ("grace_dieu", "mary")
    assert s.armies["f1"].senior == "stanley"  # the fleet commands through green now
    assert decide(s, c.Sail("red", "f1", "sea")).rule == "ALLY.6"
    s, d = play(s, c.Kill(c.GM, "stanley"))
    assert d.accepted and s.armies["f1"].senior is None
    pending = decide(s, c.Sail("red", "f1", "sea"))  # ship by ship: mary under ALLY.4
    assert pending.pending and pending.awaiting == ("green",)


def test_r24_embarking_on_a_fleet_ship_keeps_the_ship_in_the_fleet() -> None:
    s = _state(FLEET)
    s, d = play(s, c.Embark("red", "grace_dieu", ("neville",)))
    assert d.accepted and s.armies["f1"].units == ("grace_dieu", "mary")
    assert s.nobles["neville"].aboard == "grace_dieu" and s.armies["f1"].senior == "percy"


def test_r18_an_accepted_answer_names_and_explains_its_deciding_rule() -> None:
    s = _state(
        """
board:
  places: {a: {kind: country}, c: {kind: castle}, b: {kind: country}}
  roads: [[a, c, b]]
state:
  turn_order: [red, blue]
  control: {c: red}
  nobles: {percy: {faction: red, at: a, troops: 10}}
"""
    )
    d = decide(s, c.MoveRoad("red", "percy", ("a", "c", "b")))
    assert d.accepted and d.rule == "LOC.friendly.road"
    assert d.explanation == "Percy moves by road to B (LOC.friendly.road)"


def test_the_runner_checks_rule_on_an_accepted_step_only_when_given(tmp_path: Path) -> None:
    case = (VECTORS / "P-R18-001.yaml").read_text(encoding="utf-8")
    assert run_case(VECTORS / "P-R18-001.yaml").passed
    without = tmp_path / "without.yaml"
    without.write_text(case.replace("{result: accepted, rule: LOC.friendly.road}", "{result: accepted}"))
    assert run_case(without).passed
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(case.replace("rule: LOC.friendly.road}", "rule: LOC.permission}"))
    r = run_case(wrong)
    assert not r.passed and r.step == 1
    assert r.expected == "accepted LOC.permission" and r.got.startswith("accepted LOC.friendly.road")


def test_every_ruling_r18_to_r26_is_pinned_by_two_vectors_or_more_both_ways() -> None:
    assert all(r.passed for r in run_paths([VECTORS]))
    for n in range(18, 27):
        files = sorted(VECTORS.glob(f"P-R{n}-*.yaml"))
        assert len(files) >= 2, f"R{n} has {len(files)} vector(s)"
        results: set[str] = set()
        for f in files:
            case = yaml.safe_load(f.read_text(encoding="utf-8"))
            assert re.fullmatch(rf"P-R{n}-\d{{3}}", case["id"]) and f.stem == case["id"]
            for step in case["steps"]:
                if step["by"] == "gm":
                    continue
                results.add(step["expect"]["result"])
                # R20's two outcomes: the alliance becomes public, or stays secret
                for a in (step.get("then") or {}).get("alliances") or ():
                    results.add("public" if a.get("public") else "secret")
        if n == 20:
            assert {"public", "secret"} <= results, f"R{n}: {results}"
        else:
            assert "refused" in results and results & {"accepted", "pending"}, f"R{n}: {results}"


def test_docs_rulings_cites_exactly_the_r18_vectors() -> None:
    text = (Path(__file__).resolve().parents[1] / "docs" / "rulings.md").read_text(encoding="utf-8")
    cited = set(re.findall(r"P-R(?:1[89]|2[0-6])-\d{3}", text))
    assert cited == {f.stem for f in VECTORS.glob("*.yaml")}

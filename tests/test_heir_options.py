"""The two optional heir rules (FULL_GAME 3.6 EXEC.two_houses, §4 ``heir_survival``)
beyond what their vectors say: survival draws come from the recorded source and
``verify-draws`` re-derives them; the count of turns with both houses is a record that
round-trips, left out of a state's record and hash while empty; which house is kept."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from kingmaker.conformance.case import build_board, build_state
from kingmaker.rules import commands as c
from kingmaker.rules import events as ev
from kingmaker.rules.chance import commitment, raw_value
from kingmaker.rules.codec import state_from_data, state_to_data
from kingmaker.rules.decide import play
from kingmaker.rules.draws import verify_draws
from kingmaker.rules.frozen import FrozenDict
from kingmaker.rules.hashing import state_data, state_hash
from kingmaker.rules.records import from_data, to_data
from kingmaker.rules.state import GameState, RandomSource
from kingmaker.rules.two_houses import houses_held, kept_house

VECTORS = Path(__file__).resolve().parent / "vectors" / "combat"


def _case(name: str) -> GameState:
    raw = yaml.safe_load((VECTORS / f"{name}.yaml").read_text(encoding="utf-8"))
    return build_state(raw["state"], build_board(raw["board"], 2), name, 2)


def _seed_whose_first_value_kills() -> str:
    """A seed whose first value v has v mod 36 = 0 (Edward of March, first by id, dies)."""
    return next(
        f"s{k}" for k in range(10_000) if raw_value(f"s{k}", 0) % 36 == 0 and raw_value(f"s{k}", 1) % 36
    )


@pytest.mark.parametrize("seed", ["s3cret", _seed_whose_first_value_kills()])
def test_survival_draws_come_from_the_seed_and_re_derive(seed: str) -> None:
    s = _case("P-BAT-SURVIVAL-001").evolve(rng=RandomSource(seed))
    log: list[ev.Event] = [ev.SeedCommitted(commitment(seed))]
    for cmd in (c.Attack("red", "percy", "stafford", id="b1"), c.Battle(c.GM, "b1")):
        s, d = play(s, cmd)
        assert d.accepted, d.explanation
        log += d.events
    log.append(ev.SeedRevealed(seed))
    draws = [e for e in log if isinstance(e, ev.RandomDrawn)]
    # one value per heir in the battle, heirs sorted by id: v mod 36 of values 0 and 1
    assert [(e.n, e.pick) for e in draws] == [(36, raw_value(seed, k) % 36) for k in range(2)]
    assert [e.purpose for e in draws] == [
        "survival of edward_of_march (battle)",
        "survival of margaret_of_anjou (battle)",
    ]
    died = {e.heir for e in log if isinstance(e, ev.HeirDied)}
    assert died == {
        h for h, e in zip(("edward_of_march", "margaret_of_anjou"), draws, strict=True) if e.pick == 0
    }
    assert ("edward_of_march" in s.heirs) == (draws[0].pick != 0)
    report = verify_draws(log)
    assert report.ok and len(report.draws) == 2


def test_without_the_option_a_battle_draws_nothing() -> None:
    s = _case("P-BAT-SURVIVAL-002").evolve(rng=RandomSource("s3cret"))
    s, d = play(s, c.Attack("red", "percy", "stafford", id="b1"))
    s, d = play(s, c.Battle(c.GM, "b1"))
    assert d.accepted and not any(isinstance(e, ev.RandomDrawn) for e in d.events)
    assert s.rng.counter == 0 and set(s.heirs) >= {"edward_of_march", "margaret_of_anjou"}


@pytest.mark.parametrize("value", ["true", "on", "yes", "1", "TRUE"])
def test_an_on_off_option_is_on(value: str) -> None:
    s = _case("P-EXEC-TWOHOUSES-004")
    assert not s.option_on("two_houses_limit")
    assert s.evolve(options=FrozenDict({"two_houses_limit": value})).option_on("two_houses_limit")
    assert not s.evolve(options=FrozenDict({"two_houses_limit": "false"})).option_on("two_houses_limit")


def test_the_count_of_turns_with_both_houses_round_trips_and_is_left_out_while_empty() -> None:
    s = _case("P-EXEC-TWOHOUSES-001")
    record = ev.HousesHeldCounted("red", 2)
    assert from_data(to_data(record)) == record
    assert "two_houses" not in state_data(s)
    counted, d = play(s, c.EndTurn(c.GM))
    assert d.accepted and counted.two_houses == {"red": 1}
    back = state_from_data(state_to_data(counted), counted.board, counted.catalog)
    assert back.two_houses == {"red": 1} and state_hash(back) == state_hash(counted)
    # without the option the same turn's end counts nothing
    off, d = play(s.evolve(options=FrozenDict()), c.EndTurn(c.GM))
    assert d.accepted and off.two_houses == {} and "two_houses" not in state_data(off)


def test_the_house_kept_is_the_larger_then_the_crowned_then_the_higher_in_succession() -> None:
    s = _case("P-EXEC-TWOHOUSES-001")
    red = houses_held(s, "red")
    assert red == {"lancaster": ("margaret_of_anjou", "edward_prince_of_wales"), "york": ("edward_of_march",)}
    assert kept_house(s, red) == "lancaster"  # two heirs against one
    blue = houses_held(s, "blue")
    assert blue == {"lancaster": ("henry_vi",), "york": ("richard_of_york",)}
    assert kept_house(s, blue) == "lancaster"  # one each: Henry VI is crowned
    henry = s.heirs["henry_vi"]
    margaret = s.heirs["margaret_of_anjou"]
    # one each, none crowned: Richard of York stands first in his line, Margaret second
    swapped = s.evolve(
        heirs=s.heirs.without("henry_vi").set("margaret_of_anjou", replace(margaret, with_noble="stafford"))
    )
    assert houses_held(swapped, "blue") == {"lancaster": ("margaret_of_anjou",), "york": ("richard_of_york",)}
    assert kept_house(swapped, houses_held(swapped, "blue")) == "york"
    # one each, none crowned, both first in their line: the first house by id
    even = s.evolve(heirs=s.heirs.set("henry_vi", replace(henry, crowned=False)))
    assert kept_house(even, houses_held(even, "blue")) == "lancaster"

"""``rules.options``: the one list of FULL_GAME §1's options. Each option's default is
what the rules read while it is not chosen, and each normal value reads as it says."""

from __future__ import annotations

import pytest

from kingmaker.data import load_dataset
from kingmaker.rules.deal import new_game
from kingmaker.rules.fighting import SURVIVAL_OPTION
from kingmaker.rules.options import OPTIONS, OptionError, assignments, chosen, in_force, spec
from kingmaker.rules.parliament import basic
from kingmaker.rules.two_houses import OPTION as TWO_HOUSES
from kingmaker.rules.victory import HOLD_OPTION, hold_turns


def _state(options: dict[str, str]):  # type: ignore[no-untyped-def]
    ds = load_dataset()
    return new_game(ds.board, ds.catalog, ("red", "blue"), "opt", full_game=True, options=options)


def test_the_list_is_the_contracts() -> None:
    assert [o.name for o in OPTIONS] == [
        "parliament", "deaths_per_side", "heir_survival", "reshuffle", "two_houses_limit", "victory_hold_turns",
    ]  # fmt: skip
    assert {SURVIVAL_OPTION, TWO_HOUSES, HOLD_OPTION} <= {o.name for o in OPTIONS}
    assert all(o.description and o.rule for o in OPTIONS)


def test_the_defaults_read_as_no_option() -> None:
    plain, defaults = _state({}), _state({o.name: o.default for o in OPTIONS})
    for s in (plain, defaults):
        assert not basic(s) and hold_turns(s) == 0
        assert not s.option_on(SURVIVAL_OPTION) and not s.option_on(TWO_HOUSES)
        assert s.option("deaths_per_side") != "1" and s.option("reshuffle") != "each_draw"
    assert in_force(plain.options) == in_force(defaults.options) == {o.name: o.default for o in OPTIONS}


def test_chosen_values_read_as_they_say() -> None:
    s = _state(
        chosen(
            {"parliament": "basic", "heir_survival": "yes", "two_houses_limit": True, "victory_hold_turns": 4}
        )
    )
    assert basic(s) and hold_turns(s) == 4 and s.option_on(SURVIVAL_OPTION) and s.option_on(TWO_HOUSES)


@pytest.mark.parametrize(
    ("raw", "needle"),
    [
        ({"parliament": "none"}, "allowed values: voting, basic"),
        ({"heir_survival": 2}, "allowed values: on, off"),
        ({"victory_hold_turns": "four"}, "a whole number from 0 to 99"),
        ({"victory_hold_turns": "٣"}, "a whole number"),
        ({"nope": "1"}, "the options are: parliament, deaths_per_side"),
    ],
)
def test_a_bad_option_names_the_allowed_values(raw: dict[str, object], needle: str) -> None:
    with pytest.raises(OptionError, match=needle):
        chosen(raw)


def test_assignments() -> None:
    assert assignments(["Heir_Survival=ON", "heir_survival=off"]) == {"heir_survival": "off"}
    with pytest.raises(OptionError, match="NAME=VALUE"):
        assignments(["=on"])
    assert spec(" reshuffle ").name == "reshuffle"

"""Mixed routes in text orders (issue 15, item 3): ``holland MOVES FROM Dartington TO
exeter`` finds the legal route (cross-country to Totnes, then the road), VIA names it,
and when no route is legal the reply says why in a sentence. The search is the rules'
(``rules.routes``); the reader only names the places (docs/rulings.md 72-74)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kingmaker.orders_text import format_order, parse_order, parse_post
from kingmaker.rules import commands as c
from kingmaker.rules.decide import decide
from kingmaker.rules.frozen import FrozenDict
from kingmaker.rules.routes import is_mixed, land_route, route_steps, unit_route
from kingmaker.rules.state import GameState
from tests.orders_text.verdicts import check_post

from .conftest import _noble
from .strategies import played_states


@pytest.fixture(scope="module")
def devon(forum_game: GameState) -> GameState:
    """``forum_game`` with Holland (red) in the open at Dartington, a castle off the
    roads joined cross-country to Totnes, on the road from Plymouth to Exeter."""
    nobles = dict(forum_game.nobles)
    nobles["holland"] = _noble(forum_game, "holland", "red", "dartington")
    return forum_game.evolve(nobles=FrozenDict(nobles))


ROUTE = ("dartington", "totnes", "exeter")


def test_the_issues_order_finds_the_route_cross_country_then_by_road(devon: GameState) -> None:
    (v,) = check_post(devon, "holland MOVES FROM Dartington TO exeter", "red")
    assert (v.result, v.rule) == ("accepted", None), v
    assert v.command == c.MoveRoute("red", "holland", ROUTE)
    assert v.explanation == "Holland moves cross-country to Totnes, then by road to Exeter"
    assert format_order(v.command, devon) == "Holland MOVES FROM Dartington TO Exeter VIA Totnes"


@pytest.mark.parametrize(
    "text",
    [
        "holland MOVES TO exeter",
        "Holland MOVES FROM Dartington TO Exeter VIA Totnes",
        "Holland MOVES VIA Totnes TO Exeter",
        "Holland MOVES ALONG Dartington, Totnes, Exeter",
    ],
)
def test_via_and_along_name_a_mixed_route(devon: GameState, text: str) -> None:
    assert parse_order(devon, text, "red").command == c.MoveRoute("red", "holland", ROUTE)


def test_cross_country_and_by_road_keep_their_meaning(devon: GameState) -> None:
    assert parse_order(devon, "Holland MOVES CROSS COUNTRY TO Totnes", "red").command == c.Move(
        "red", "holland", "totnes"
    )
    (v,) = check_post(devon, "Holland MOVES TO Exeter BY ROAD", "red")
    assert (v.result, v.rule) == ("refused", "ORDER.invalid")
    assert isinstance(v.command, c.MoveRoad)
    # BY ROAD on a path with a cross-country link is a road move (refused, naming the link)
    road = c.MoveRoad("red", "holland", ROUTE)
    text = format_order(road, devon)
    assert text == "Holland MOVES FROM Dartington TO Exeter VIA Totnes BY ROAD"
    assert parse_order(devon, text, "red").command == road


def test_going_inside_at_the_end_of_a_route(devon: GameState) -> None:
    cmd = parse_order(devon, "Holland MOVES INTO Exeter", "red").command
    assert cmd == c.MoveRoute("red", "holland", ROUTE, True)
    d = decide(devon, cmd)
    assert (d.result.value, d.rule) == ("refused", "LOC.neutral.enter")


def test_no_route_by_land_is_said_in_a_sentence(devon: GameState) -> None:
    (v,) = check_post(devon, "Holland MOVES TO Newport (Isle of Wight)", "red")
    assert (v.result, v.rule) == ("refused", "ORDER.invalid")
    assert v.explanation == (
        "no road or cross-country route leads from Dartington to Newport (Isle of Wight): "
        "Newport (Isle of Wight) is reached only by sea (ORDER.invalid)"
    )
    # a path with a cross-country link in it and a gap: the route's refusal says which
    (v,) = check_post(devon, "Holland MOVES FROM Dartington TO Honiton VIA Totnes, Exeter, Powderham", "red")
    assert (v.result, v.rule) == ("refused", "ORDER.invalid")
    assert v.explanation == (
        "Powderham and Honiton are not next to each other: no road or cross-country link joins them (ORDER.invalid)"
    )


def test_a_blocked_route_names_the_place_that_blocks(devon: GameState) -> None:
    """Every way to York passes Exeter (a neutral city): the shortest route on the bare
    map is given, and the rules name the first place that blocks."""
    assert unit_route(devon, "holland", "york") is None
    (v,) = check_post(devon, "Holland MOVES TO York", "red")
    assert (v.result, v.rule) == ("refused", "LOC.neutral.road")
    assert v.explanation.startswith("Holland may not pass through Exeter")
    assert isinstance(v.command, c.MoveRoute) and v.command.path[:3] == ROUTE


def test_a_legal_mixed_route_wins_over_a_blocked_road(forum_game: GameState) -> None:
    """Percy at York: Helmsley is by road to Malton, then cross-country."""
    assert unit_route(forum_game, "percy", "helmsley") == ("york", "malton", "helmsley")
    (v,) = check_post(forum_game, "Percy MOVES TO Helmsley", "red")
    assert v.result == "accepted" and v.command == c.MoveRoute("red", "percy", ("york", "malton", "helmsley"))


def test_the_search_is_the_rules_and_its_steps_are_the_rules_deciders(devon: GameState) -> None:
    board = devon.board
    assert land_route(board, "dartington", "exeter") == ROUTE
    steps = route_steps(board, ROUTE)
    assert steps is not None and [(s.road, s.path) for s in steps] == [(False, ROUTE[:2]), (True, ROUTE[1:])]
    assert is_mixed(board, ROUTE) and not is_mixed(board, ("totnes", "exeter"))
    assert land_route(board, "dartington", "newport_iow") is None


def test_a_route_is_refused_as_its_steps_would_be(devon: GameState) -> None:
    """Exeter, a neutral town, blocks the road through it; a route whose road ends at
    Exeter and goes on cross-country only stops there (docs/rulings.md 72)."""
    nobles = dict(devon.nobles)
    nobles["holland"] = replace(nobles["holland"], place="plymouth")
    at_plymouth = devon.evolve(nobles=FrozenDict(nobles))
    d = decide(at_plymouth, c.MoveRoute("red", "holland", ("plymouth", "totnes", "exeter", "powderham")))
    assert d.accepted, d.explanation
    assert d.explanation == "Holland moves by road to Exeter, then cross-country to Powderham"
    d = decide(at_plymouth, c.MoveRoad("red", "holland", ("plymouth", "totnes", "exeter", "honiton")))
    assert (d.result.value, d.rule) == ("refused", "LOC.neutral.road"), d.explanation


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_routes_canonical_text_reads_back(data: st.DataObject) -> None:
    """A mixed route found on a played game's map, for one of its land units, is
    written as ``... VIA ...`` and reads back as the same command."""
    state = data.draw(st.sampled_from(played_states()), label="state")
    units = sorted(n.id for n in state.nobles.values() if n.place is not None and n.aboard is None)
    if not units:
        return
    unit = data.draw(st.sampled_from(units), label="unit")
    start = state.nobles[unit].place
    assert start is not None
    dest = data.draw(st.sampled_from(sorted(state.board.places)), label="dest")
    path = land_route(state.board, start, dest)
    if path is None or not is_mixed(state.board, path):
        return
    faction = state.nobles[unit].faction or state.turn_order[0]
    cmd = c.MoveRoute(faction, unit, path, data.draw(st.booleans(), label="enter"))
    text = format_order(cmd, state)
    got = parse_post(state, text, faction)
    assert not got.problems, (text, got.problems)
    assert got.commands == (cmd,), (text, got.commands)

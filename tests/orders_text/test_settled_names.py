"""Names the state settles (issue 15, item 4): a name that fits several places is
ambiguous only when the game does not settle it: the place the unit is at, the port the
ship is in (or borders), a place the unit can reach."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kingmaker.orders_text import AmbiguousName, parse_order, parse_post
from kingmaker.rules import commands as c
from kingmaker.rules.frozen import FrozenDict
from kingmaker.rules.state import GameState, Ship

from .conftest import _noble


@pytest.fixture(scope="module")
def at_newport(forum_game: GameState) -> GameState:
    """Le Maudeleyn (red) in port at Newport (Isle of Wight); Percy in the open there
    too, Stanley in the open at Newport (Gwent)."""
    ships = dict(forum_game.ships)
    ships["le_maudeleyn"] = Ship("le_maudeleyn", "red", 200, "newport_iow", in_port=True)
    nobles = dict(forum_game.nobles)
    nobles["percy"] = replace(nobles["percy"], place="newport_iow")
    nobles["stanley"] = replace(nobles["stanley"], place="newport_gwent")
    nobles["holland"] = _noble(forum_game, "holland", "red", "dartington")
    return forum_game.evolve(ships=FrozenDict(ships), nobles=FrozenDict(nobles))


def test_the_issues_voyage_from_the_port_the_ship_is_in(at_newport: GameState) -> None:
    cmd = parse_order(at_newport, "Le Maudeleyn sails from newport to ipswich", "red").command
    assert isinstance(cmd, c.Sail) and (cmd.ship, cmd.to) == ("le_maudeleyn", "ipswich")
    # the port it is in is not where it sails to: "to newport" is the other Newport
    cmd = parse_order(at_newport, "Le Maudeleyn SAILS TO Newport", "red").command
    assert isinstance(cmd, c.Sail) and cmd.to == "newport_gwent"


def test_the_place_a_unit_is_at(at_newport: GameState) -> None:
    assert parse_order(at_newport, "Percy LEAVES Newport", "red").command == c.Leave("red", "percy")
    assert parse_order(at_newport, "Stanley ENTERS Newport", "red").command == c.Enter("red", "stanley")
    cmd = parse_order(at_newport, "Percy BESIEGES Newport", "red").command
    assert cmd == c.Siege("red", "percy", "newport_iow")
    cmd = parse_order(at_newport, "Stanley BESIEGES Newport", "red").command
    assert cmd == c.Siege("red", "stanley", "newport_gwent")
    cmd = parse_order(at_newport, "Stanley MOVES FROM Newport TO Chepstow", "red").command
    assert isinstance(cmd, c.MoveRoad) and cmd.path[0] == "newport_gwent"
    assert parse_order(at_newport, "Percy EMBARKS ON Le Maudeleyn", "red").command == c.Embark(
        "red", "le_maudeleyn", ("percy",)
    )


def test_a_place_the_unit_can_reach_by_land(at_newport: GameState) -> None:
    """Holland at Dartington can walk to Newport (Gwent), never to the Isle of Wight."""
    cmd = parse_order(at_newport, "Holland MOVES TO Newport", "red").command
    assert isinstance(cmd, c.MoveRoad | c.MoveRoute) and cmd.path[-1] == "newport_gwent"


def test_a_landing_at_the_port_the_ship_is_in(at_newport: GameState) -> None:
    nobles = dict(at_newport.nobles)
    nobles["percy"] = replace(nobles["percy"], place=None, aboard="le_maudeleyn")
    aboard = at_newport.evolve(nobles=FrozenDict(nobles))
    cmd = parse_order(aboard, "Percy LANDS AT Newport", "red").command
    assert cmd == c.Disembark("red", "le_maudeleyn", ("percy",), "newport_iow")


def test_a_name_the_state_does_not_settle_is_still_ambiguous(forum_game: GameState) -> None:
    """Grace Dieu in the North Sea may sail to either Newport."""
    (p,) = parse_post(forum_game, "Grace Dieu SAILS TO Newport", "red").problems
    assert isinstance(p, AmbiguousName)
    assert p.candidate_ids == ("newport_gwent", "newport_iow")

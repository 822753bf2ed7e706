"""``format_order`` writes a command's canonical text; reading it back in the same state
gives the same command (issue "Forum play")."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kingmaker.orders_text import UnknownName, format_order, parse_order, parse_post
from kingmaker.rules import commands as c
from kingmaker.rules.state import GameState

from .strategies import commands, played_states


def _hidden_ids(state: GameState, faction: str) -> set[str]:
    """Ids a faction may not know: it cannot name them (no hint of secrets)."""
    out = {a.id for a in state.alliances.values() if not a.public and faction not in a.members}
    out |= {d.id for d in state.declarations.values() if faction != d.by and faction not in d.invited}
    out |= {r.id for r in state.requests.values() if faction != r.by and faction not in r.awaiting}
    return out | set(state.closed)


def _round_trip(state: GameState, cmd: c.Command) -> None:
    text = format_order(cmd, state)
    got = parse_post(state, text, cmd.by)
    if cmd.by != c.GM and got.problems:
        # a faction writing an id it may not know reads as an unknown name, like any typo
        assert all(
            isinstance(p, UnknownName) and p.name in _hidden_ids(state, cmd.by) for p in got.problems
        ), (
            text,
            got.problems,
        )
    else:
        assert not got.problems, (text, got.problems)
        assert len(got.orders) == 1, text
        assert got.orders[0].refusal is None, (text, got.orders[0].refusal)
        assert got.orders[0].command == cmd, (text, got.orders[0].command)
    # the GM writing it for the faction, with a label
    labelled = format_order(cmd, state, label=True)
    assert parse_order(state, labelled, c.GM).command == cmd, labelled


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_canonical_text_reads_back_as_the_same_command(data: st.DataObject) -> None:
    state = data.draw(st.sampled_from(played_states()), label="state")
    cmd = data.draw(commands(state), label="command")
    _round_trip(state, cmd)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_round_trip_with_ships_armies_and_passengers(
    data: st.DataObject, forum_game: GameState, at_hull: GameState, aboard: GameState, busy_game: GameState
) -> None:
    state = data.draw(st.sampled_from([forum_game, at_hull, aboard, busy_game]), label="state")
    cmd = data.draw(commands(state), label="command")
    _round_trip(state, cmd)


@settings(max_examples=700, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_round_trip_in_the_full_game(data: st.DataObject, full_game: GameState) -> None:
    """With phases, an attack and a siege open, a captive, hands, a ransom and a storm
    pending: every command, the full game's among them, reads back."""
    cmd = data.draw(commands(full_game), label="command")
    _round_trip(full_game, cmd)


@settings(max_examples=700, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_round_trip_in_parliament(
    data: st.DataObject, parliament_eve: GameState, parliament_game: GameState
) -> None:
    """Before Parliament and while it sits (one proposal decided, one open), with hands
    and a Chancery: every command, the Crown's, coronation's and Parliament's among them,
    reads back."""
    state = data.draw(st.sampled_from([parliament_eve, parliament_game]), label="state")
    cmd = data.draw(commands(state), label="command")
    _round_trip(state, cmd)


def test_canonical_examples(forum_game: GameState) -> None:
    s = forum_game
    assert format_order(c.MoveRoad("red", "percy", ("york", "tadcaster", "leeds")), s) == (
        "Percy MOVES FROM York TO Leeds VIA Tadcaster"
    )
    assert format_order(c.MoveRoad("red", "percy", ("york", "tadcaster")), s) == (
        "Percy MOVES FROM York TO Tadcaster"
    )
    assert format_order(c.MoveRoad("red", "percy", ("york", "ripon"), True, "q7"), s) == (
        "Percy MOVES FROM York INTO Ripon AS q7"
    )
    assert format_order(c.FormArmy("red", "army-1", ("percy", "stanley")), s) == (
        "Percy AND Stanley FORM ARMY army-1 IN York"
    )
    assert format_order(c.DeclareAlliance("red", "alliance-1", ("green", "blue")), s) == (
        "Red ALLIES WITH Green AND Blue AS alliance-1"
    )
    assert format_order(c.Grant("blue", "red", "coventry", ("road", "enter")), s) == (
        "Blue GRANTS Red PASSAGE THROUGH Coventry AND ENTRY TO Coventry"
    )
    assert format_order(c.MoveHeir(c.GM, "edward_prince_of_wales", with_noble="percy"), s) == (
        '"Edward, Prince of Wales" GOES WITH Percy'
    )
    assert format_order(c.EndTurn(c.GM), s, label=True) == "GM: END TURN"
    assert (
        format_order(c.Move("red", "percy", "sheriff_hutton"), s)
        == "Percy MOVES CROSS COUNTRY TO Sheriff Hutton"
    )

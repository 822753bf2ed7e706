"""Posts of several orders (numbering, bullets, comments, labels), and names as players
write them: titles, prefixes, "the", case, punctuation."""

from __future__ import annotations

import pytest

from kingmaker.orders_text import (
    AmbiguousName,
    UnknownName,
    grammar_text,
    names_for,
    normalize,
    parse_order,
    parse_post,
)
from kingmaker.orders_text.names import NOBLES, PLACES, UNIT
from kingmaker.rules import commands as c
from kingmaker.rules.commands import GM
from kingmaker.rules.state import GameState
from tests.orders_text.verdicts import check_post

POST = """\
Orders for turn 3
1. Percy MOVES FROM York TO Ripon
2) Stanley moves to Tadc.

# Clifford is Blue's: the rules will refuse this one
  - Clifford MOVES TO Ripon
* Red ALLIES WITH Green AND Blue   // a secret one
(5) Percy and Stanley FORM ARMY IN York
• Percy MOVES TO Tadcastr
Red: Percy DEFENDS WITH Stanley
"""


def test_a_post_of_several_orders(forum_game: GameState) -> None:
    post = parse_post(forum_game, POST, "red")
    assert [o.line for o in post.orders] == [2, 3, 6, 7, 8, 10]
    assert [o.command for o in post.orders] == [
        c.MoveRoad("red", "percy", ("york", "ripon")),
        c.MoveRoad("red", "stanley", ("york", "tadcaster")),
        c.MoveRoad("red", "clifford", ("york", "ripon")),
        c.DeclareAlliance("red", "alliance-1", ("green", "blue")),
        c.FormArmy("red", "army-1", ("percy", "stanley")),
        c.Defend("red", "percy", "stanley"),
    ]
    assert post.orders[1].column == 4  # after the numbering
    # a heading is chatter, ignored (issue 15)
    assert [(p.line, type(p)) for p in post.problems] == [(9, UnknownName)]
    assert [(x.line, x.reason) for x in post.ignored] == [(1, "a heading (it names round 3; this is round 1)")]
    assert not post.ok
    verdicts = check_post(forum_game, POST, "red")
    assert [(v.line, v.result) for v in verdicts] == [
        (1, "ignored"),
        (2, "accepted"),
        (3, "accepted"),
        (6, "refused"),
        (7, "pending"),
        (8, "accepted"),
        (9, "unknown_name"),
        (10, "refused"),
    ]


def test_generated_ids_are_unique_in_the_state_and_the_post(busy_game: GameState) -> None:
    text = "Red ALLIES WITH Blue\nRed ALLIES WITH Blue AS alliance-4\nRed ALLIES WITH Green AND Blue\n"
    text += "Percy and Stanley FORM ARMY\nPercy and Stanley FORM ARMY\n"
    ids = [getattr(cmd, "id", None) for cmd in parse_post(busy_game, text, "red").commands]
    assert ids == ["alliance-3", "alliance-4", "alliance-5", "army-1", "army-2"]


def test_the_gm_labels_lines_for_the_factions(forum_game: GameState) -> None:
    text = (
        "Red: Percy MOVES TO Ripon\nBlue:\nClifford MOVES TO Ripon\n- Talbot LEAVES Coventry\nGM:\nEND TURN\n"
    )
    post = parse_post(forum_game, text, GM)
    assert not post.problems
    assert post.commands == (
        c.MoveRoad("red", "percy", ("york", "ripon")),
        c.MoveRoad("blue", "clifford", ("york", "ripon")),
        c.Leave("blue", "talbot"),
        c.EndTurn(GM),
    )


def test_a_player_writes_as_itself(forum_game: GameState) -> None:
    text = "Red:\nPercy MOVES TO Ripon\nBlue:\nPercy MOVES TO Ripon\n"
    post = parse_post(forum_game, text, "red")
    assert [o.command.by for o in post.orders if o.command] == ["red", "red"]
    assert [(p.line, p.message.split(":")[0]) for p in post.problems] == [(3, "you post as red")]
    # a player's GM command is the rules' to refuse
    (v,) = check_post(forum_game, "END TURN", "red")
    assert (v.result, v.rule) == ("refused", "ORDER.invalid")


def test_windows_line_ends_and_odd_spaces(forum_game: GameState) -> None:
    post = parse_post(forum_game, "Percy\u00a0MOVES TO Ripon\r\n\r\nGrace\tDieu SAILS TO Hull\r\n", "red")
    assert not post.problems
    assert [o.line for o in post.orders] == [1, 3]


# -- names -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "the Earl of Warwick MOVES TO Kenilworth",
        "Earl of Warwick MOVES TO Kenilworth",
        "THE EARL OF WARWICK moves to kenilworth",
        "Neville MOVES TO Kenilworth",
        "neville MOVES TO Kenil",
    ],
)
def test_a_noble_by_his_title(forum_game: GameState, text: str) -> None:
    cmd = parse_order(forum_game, text, "green").command
    assert cmd == c.MoveRoad("green", "neville", ("warwick", "kenilworth"))


def test_a_noble_by_a_title_he_holds(forum_game: GameState) -> None:
    # Howard holds the title card Earl of Kent
    assert parse_order(forum_game, "The Earl of Kent MOVES TO Ripon", "green").command == c.MoveRoad(
        "green", "howard", ("york", "ripon")
    )
    assert names_for(forum_game).resolve("earl of kent", NOBLES).label() == "Howard (the Earl of Kent)"


def test_names_as_players_write_them(forum_game: GameState) -> None:
    names = names_for(forum_game)
    assert names.resolve("Tadc", PLACES).id == "tadcaster"
    assert names.resolve("TADCASTER", PLACES).id == "tadcaster"
    assert names.resolve("the Wash", frozenset({"sea"})).id == "the_wash"
    assert names.resolve("Wash", frozenset({"sea"})).id == "the_wash"
    assert names.resolve("St. Albans", PLACES).id == "st_albans"
    assert names.resolve("Kings Lynn", PLACES).id == "kings_lynn"
    assert names.resolve("King’s Lynn", PLACES).id == "kings_lynn"
    assert names.resolve("Stow on the Wold", PLACES).id == "stow_on_the_wold"
    assert names.resolve("Hull", PLACES).id == "hull"
    assert names.resolve("Kingston upon Hull", PLACES).id == "hull"
    assert names.resolve("Isle of Wight", PLACES).id == "newport_iow"
    assert names.resolve("Mary", UNIT).id == "mary_of_the_tower"
    assert names.resolve("grace_dieu", UNIT).id == "grace_dieu"
    assert names.resolve("Prince of Wales", frozenset({"heir"})).id == "edward_prince_of_wales"
    assert normalize("  The  Grace-Dieu ") == "grace dieu"
    with pytest.raises(Exception, match="could be"):
        names.resolve("Newport", PLACES)


def test_faction_names_may_be_given(forum_game: GameState) -> None:
    post = parse_post(
        forum_game,
        "Lancaster ALLIES WITH York House",
        "red",
        faction_names={"red": "Lancaster", "blue": "York House"},
    )
    assert post.commands == (c.DeclareAlliance("red", "alliance-1", ("blue",)),)


def test_a_quoted_name_may_hold_keywords(forum_game: GameState) -> None:
    assert parse_order(forum_game, '"Percy" MOVES TO "Ripon"', "red").command == c.MoveRoad(
        "red", "percy", ("york", "ripon")
    )
    p = parse_post(forum_game, 'Percy MOVES TO "Leeds TO York"', "red").problems[0]
    assert isinstance(p, UnknownName) and p.column == 16


def test_prefixes_are_not_ids(busy_game: GameState) -> None:
    p = parse_post(busy_game, "EXPIRE q", GM).problems[0]
    assert isinstance(p, UnknownName)
    p = parse_post(busy_game, "Percy MOVES TO Bri", "red").problems[0]
    assert isinstance(p, AmbiguousName) and "Bristol" in p.candidates


def test_the_grammar_ships_with_the_package() -> None:
    text = grammar_text()
    assert "statement:" in text and "CROSS_COUNTRY" in text

"""The three kinds of problem of a line's text, with line, column and message, and the
verdicts of ``check_post`` (the lines that read well but that the rules refuse)."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from kingmaker.orders_text import (
    AmbiguousName,
    OrderTextError,
    SyntaxProblem,
    UnknownName,
    parse_order,
    parse_post,
)
from kingmaker.rules import commands as c
from kingmaker.rules.frozen import FrozenDict
from kingmaker.rules.state import GameState
from tests.orders_text.verdicts import check_post

TOKEN_NAMES = re.compile(r"\b(WORD|STRING|COLON|COMMA|AMPERSAND|\$END|INT|TEXT|_[A-Z]+)\b")


def only_problem(state: GameState, text: str, author: str = "red") -> object:
    post = parse_post(state, text, author)
    assert not post.orders, post.orders
    assert len(post.problems) == 1, post.problems
    return post.problems[0]


# -- unknown names ------------------------------------------------------------------------------


def test_unknown_place_suggests_the_near_miss(forum_game: GameState) -> None:
    p = only_problem(forum_game, "Percy MOVES TO Tadcastr")
    assert isinstance(p, UnknownName)
    assert (p.line, p.column) == (1, 16)
    assert p.text == "Percy MOVES TO Tadcastr"
    assert p.name == "Tadcastr"
    assert p.suggestions == ("Tadcaster",)
    assert "did you mean Tadcaster?" in p.message
    assert str(p) == "line 1, column 16: there is no place called “Tadcastr”; did you mean Tadcaster?"
    assert p.pointer().splitlines()[1] == " " * 15 + "^"


def test_unknown_noble_and_faction(forum_game: GameState) -> None:
    p = only_problem(forum_game, "Percey MOVES TO York")
    assert isinstance(p, UnknownName) and p.column == 1 and "did you mean Percy?" in p.message
    p = only_problem(forum_game, "Red ALLIES WITH Grene")
    assert isinstance(p, UnknownName) and p.column == 17 and "did you mean Green?" in p.message


def test_a_name_of_the_wrong_kind_says_what_it_is(forum_game: GameState) -> None:
    p = only_problem(forum_game, "Percy MOVES TO North Sea")
    assert isinstance(p, UnknownName)
    assert p.message == "North Sea is a sea zone, not a place"


def test_unknown_ids_are_never_prefixes(busy_game: GameState) -> None:
    p = only_problem(busy_game, "Green CONFIRMS q", "green")
    assert isinstance(p, UnknownName) and p.column == 16
    p = only_problem(busy_game, "Green CONFIRMS q66", "green")
    assert isinstance(p, UnknownName) and "did you mean q6?" in p.message


def test_a_title_no_one_holds(forum_game: GameState) -> None:
    p = only_problem(forum_game, "the Earl of Essex MOVES TO York")
    assert isinstance(p, UnknownName)
    assert p.message == "no noble in play holds the title Earl of Essex"


# -- ambiguous names -----------------------------------------------------------------------------


def test_ambiguous_place_lists_the_candidates(forum_game: GameState) -> None:
    # Grace Dieu in the North Sea may sail to either Newport (Percy at York may walk only
    # to Newport (Gwent): tests/orders_text/test_settled_names.py)
    p = only_problem(forum_game, "Grace Dieu SAILS TO Newport")
    assert isinstance(p, AmbiguousName)
    assert (p.line, p.column) == (1, 21)
    assert p.candidates == ("Newport (Gwent)", "Newport (Isle of Wight)")
    assert p.candidate_ids == ("newport_gwent", "newport_iow")
    assert p.message == "“Newport” could be Newport (Gwent) or Newport (Isle of Wight)"


def test_ambiguous_prefix(forum_game: GameState) -> None:
    p = only_problem(forum_game, "Percy MOVES TO Brid")
    assert isinstance(p, AmbiguousName)
    assert p.candidates == ("Bridgnorth", "Bridgwater")
    # a unique prefix of three letters or more resolves
    assert parse_order(forum_game, "Percy MOVES TO Tadc", "red").command == c.MoveRoad(
        "red", "percy", ("york", "tadcaster")
    )


def test_battle_against_a_faction_with_several_units_there(forum_game: GameState) -> None:
    nobles = dict(forum_game.nobles)
    nobles["talbot"] = replace(nobles["talbot"], place="york", inside=False)
    state = forum_game.evolve(nobles=FrozenDict(nobles))
    p = only_problem(state, "Percy BATTLES Blue IN York")
    assert isinstance(p, AmbiguousName)
    assert p.column == 15
    assert p.candidates == ("Clifford", "Talbot")
    assert "Blue has several units at York: Clifford or Talbot" in p.message
    # one of them inside York: Percy, in the open, can only battle the other
    nobles["talbot"] = replace(nobles["talbot"], inside=True)
    state = forum_game.evolve(nobles=FrozenDict(nobles))
    assert parse_order(state, "Percy BATTLES Blue IN York", "red").command == c.Attack(
        "red", "percy", "clifford"
    )


def test_battle_against_a_faction_with_no_unit_there(forum_game: GameState) -> None:
    order = parse_order(forum_game, "Percy BATTLES Blue IN Ripon", "red")
    assert order.command is None and order.refusal is not None
    assert order.refusal.rule == "ORDER.invalid"
    assert order.refusal.explanation == "Blue has no noble or army at Ripon (ORDER.invalid)"


# -- syntax -------------------------------------------------------------------------------------------


def test_syntax_problem_says_what_was_expected_in_plain_words(forum_game: GameState) -> None:
    p = only_problem(forum_game, "Percy MOVES York")
    assert isinstance(p, SyntaxProblem)
    assert (p.line, p.column) == (1, 13)
    assert p.found == "York"
    assert "TO" in p.expected and "FROM" in p.expected and "VIA" in p.expected
    assert p.message.startswith("“York” is not expected here: expected ")
    assert not TOKEN_NAMES.search(p.message), p.message


@pytest.mark.parametrize(
    ("text", "column", "words"),
    [
        ("Percy MOVES TO", 15, "expected a name"),
        ("Percy MOVES TO York!", 20, "“!” is not expected here"),
        ("Percy MOVES TO York {x} y", 21, "“{x}” is not expected here"),
        ("END TURN NOW", 10, "expected ANYWAY or the end of the line"),
        ("RANDOM 1, x", 11, "expected a number"),
        ("Percy moevs to York", 13, "is “moevs” meant to be MOVES?"),
        ("Percy and Stanley MOVE TO York", 11, "this order is for one unit"),
        ("Percy MOVES TO York TO Leeds", 21, "TO is given twice"),
        ("Percy MOVES FROM York", 1, "a move needs a destination"),
        ("Blue GRANTS Red PASSAGE THROUGH Coventry AND ENTRY TO Leicester", 55, "one place"),
        ("RESOLVE", 8, "expected a name"),
    ],
)
def test_syntax_problems(forum_game: GameState, text: str, column: int, words: str) -> None:
    p = only_problem(forum_game, text, "blue" if text.startswith("Blue") else "red")
    assert isinstance(p, SyntaxProblem)
    assert p.column == column, p
    assert words in p.message, p.message
    assert not TOKEN_NAMES.search(p.message), p.message


def test_a_player_may_not_label_another_factions_line(forum_game: GameState) -> None:
    p = only_problem(forum_game, "2. Blue: Clifford MOVES TO Ripon")
    assert isinstance(p, SyntaxProblem)
    assert p.column == 4
    assert p.message.startswith("you post as red")
    p = only_problem(forum_game, "GM: END TURN")
    assert isinstance(p, SyntaxProblem) and p.message.startswith("you post as red")
    p = only_problem(forum_game, "Green ALLIES WITH Blue")
    assert isinstance(p, SyntaxProblem) and p.message.startswith("you post as red")


def test_parse_order_raises_with_the_problem(forum_game: GameState) -> None:
    with pytest.raises(OrderTextError) as e:
        parse_order(forum_game, "Percy MOVES TO Tadcastr", "red")
    assert isinstance(e.value.problem, UnknownName)
    assert "did you mean Tadcaster?" in str(e.value)


# -- verdicts: reads well, but the rules refuse (or accept) ------------------------------------------


def test_check_post_gives_one_verdict_per_order(forum_game: GameState) -> None:
    post = "\n".join(
        [
            "Percy MOVES TO Ripon",  # 1 accepted
            "Percy MOVES FROM Leeds TO Tadcaster",  # 2 refused: he is at York
            "Stanley MOVES TO Leeds",  # 3 refused: Pontefract blocks
            "",
            "Clifford MOVES TO Ripon",  # 5 refused: not red's
            "Percy MOVES TO Tadcastr",  # 6 unknown name
            "Grace Dieu SAILS TO Newport",  # 7 ambiguous
            "Percy MOVES York",  # 8 syntax
            "Red ALLIES WITH Green",  # 9 pending
            "# done",
        ]
    )
    verdicts = check_post(forum_game, post, "red")
    assert [v.line for v in verdicts] == [1, 2, 3, 5, 6, 7, 8, 9]
    got = [(v.result, v.rule) for v in verdicts]
    assert got == [
        ("accepted", None),
        ("refused", "ORDER.invalid"),
        ("refused", "LOC.neutral.road"),
        ("refused", "ORDER.foreign"),
        ("unknown_name", None),
        ("ambiguous_name", None),
        ("syntax", None),
        ("pending", "ALLY.2"),
    ]
    assert "Percy is at York, not at Leeds" in verdicts[1].explanation
    assert "Pontefract" in verdicts[2].explanation
    assert "did you mean Tadcaster?" in verdicts[4].explanation
    assert verdicts[0].ok and verdicts[7].ok and not verdicts[1].ok
    assert str(verdicts[1]).startswith("line 2: refused [ORDER.invalid]: ")


def test_refusals_found_while_reading(forum_game: GameState, aboard: GameState) -> None:
    cases = [
        (forum_game, "Percy LANDS AT Hull", "Percy is aboard no ship"),
        (aboard, "Percy and Clifford LAND AT Hull", "aboard different ships"),
        (forum_game, "Percy and Stanley FORM ARMY IN Ripon", "Percy is at York, not at Ripon"),
        (forum_game, "Percy MOVES TO Ripon IN York", "Ripon is not in York"),
        (forum_game, "Percy ENTERS Ripon", "Percy is at York, not at Ripon"),
        (forum_game, "Percy MOVES TO York", "Percy is already at York"),
        (
            forum_game,
            "Grace Dieu MOVES FROM Hull TO The Wash",
            "Grace Dieu is at North Sea, not at Kingston upon Hull",
        ),
        (forum_game, "Red LEAVES ALLIANCE WITH Green", "red is in no alliance with green"),
    ]
    for state, text, why in cases:
        (v,) = check_post(state, text, "red")
        assert (v.result, v.rule) == ("refused", "ORDER.invalid"), (text, v)
        assert why in v.explanation, (text, v.explanation)
        assert v.command is None


def test_a_player_gets_no_hint_of_ids_it_may_not_know() -> None:
    """A secret alliance's id is no name for a faction outside it: no "did you mean"."""
    from kingmaker.data import load_dataset
    from kingmaker.orders_text import parse_post
    from kingmaker.rules import commands as rc
    from kingmaker.rules.deal import new_game
    from kingmaker.rules.decide import play

    ds = load_dataset()
    state = new_game(ds.board, ds.catalog, ("red", "blue", "green"), "hint", removed=ds.setup.removed)
    state, _ = play(state, rc.DeclareAlliance("red", "secret-bg", ("green",)))
    outsider = parse_post(state, "Blue LEAVES ALLIANCE secret-bh", "blue")
    assert outsider.problems and "secret-bg" not in outsider.problems[0].message
    insider = parse_post(state, "Green ACCEPTS ALLIANCE secret-bg", "green")
    assert insider.commands == (rc.AnswerAlliance("green", "secret-bg", True),)
    gm = parse_post(state, "Green ACCEPTS ALLIANCE secret-bh", "gm")
    assert gm.problems and "secret-bg" in gm.problems[0].message


def test_a_noble_not_in_play_is_named_as_such(forum_game: GameState) -> None:
    # Audley's card is in the catalogue but not on the map: the reader knows his name,
    # and the rules say he is not in play, not that there is no such noble
    assert "audley" in forum_game.catalog.nobles and "audley" not in forum_game.nobles
    for text in ("Audley MOVES TO Ripon", "Percy BATTLES Audley"):
        (v,) = check_post(forum_game, text, "red")
        assert (v.result, v.rule) == ("refused", "ORDER.invalid"), v
        assert "Audley is not in play: his card is not on the map" in v.explanation, v.explanation
    (v,) = check_post(forum_game, "Percy MOVES TO Ripon", "red")
    assert v.result == "accepted", v

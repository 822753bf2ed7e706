"""The full game's orders (issue 13): the three kinds of problem of their text, and the
refusals of the rules, each with its rule id; the grammar stays free of conflicts."""

from __future__ import annotations

import pytest
from lark import Lark
from lark.parsers import lalr_analysis

from kingmaker.orders_text import (
    AmbiguousName,
    SyntaxProblem,
    UnknownName,
    parse_order,
    parse_post,
)
from kingmaker.orders_text.syntax import grammar_text
from kingmaker.rules import commands as c
from kingmaker.rules.frozen import FrozenDict
from kingmaker.rules.state import Army, GameState, Noble
from tests.orders_text.verdicts import check_post

from .test_problems import TOKEN_NAMES, only_problem


def test_the_grammar_has_no_conflicts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lark's LALR settles a shift/reduce conflict by shifting, quietly: a statement
    could then shadow another (``RELEASE Stafford`` read as the start of the GM's
    ``RELEASE Percy AT York``). The grammar must have none."""
    found: list[str] = []
    monkeypatch.setattr(lalr_analysis.logger, "warning", lambda msg, *a: found.append(msg % a))
    init = lalr_analysis.LALR_Analyzer.__init__

    def with_debug(self: lalr_analysis.LALR_Analyzer, *args: object, **kw: object) -> None:
        kw["debug"] = True
        init(self, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(lalr_analysis.LALR_Analyzer, "__init__", with_debug)
    Lark(grammar_text(), parser="lalr")
    assert not found, found


# -- problems of the text -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "column", "words"),
    [
        ("Red RANSOMS Stafford", 21, "the order stops too soon: expected FOR, FREE or “:”"),
        ("Red RANSOMS Stafford: Blue GIVES", 33, "expected a name or NOTHING"),
        ("Red RANSOMS Stafford FOR Bristol AS", 36, "expected a name"),
        ("Red PLAYS Forced March", 1, "say whom Forced March is played for"),
        ("Percy TO Hull", 1, "“<ship> TO <port>” answers a storm; to move Percy write “Percy MOVES TO Hull”"),
        ("Percy moevs TO York", 13, "is “moevs” meant to be MOVES?"),
        ("Mowbray ATTACKS Neville WITH SALLY FROM Ripon Talbot", 53, "expected “:”"),
        ("DRAW", 5, "expected CROWN or EVENT"),
        ("END", 4, "expected PHASE or TURN"),
        ("Percy and Stanley CAPTURE Margaret", 11, "this order is for one noble"),
    ],
)
def test_syntax_problems(full_game: GameState, text: str, column: int, words: str) -> None:
    p = only_problem(full_game, text, "red")
    assert isinstance(p, SyntaxProblem), p
    assert p.column == column, p
    assert words in p.message, p.message
    assert not TOKEN_NAMES.search(p.message), p.message


@pytest.mark.parametrize(
    ("text", "column", "words"),
    [
        ("Red PLAYS Forced Marhc FOR Percy", 11, "did you mean Forced March?"),
        ("Red RANSOMS Staford FREE", 13, "did you mean Stafford?"),
        ("Red RANSOMS Stafford FOR City of Bristoll", 26, "did you mean City of Bristol?"),
        ("Red EXECUTES Henry VII", 14, "did you mean Henry VI?"),
        ("Percy CAPTURES Margret of Anjou", 16, "did you mean Margaret of Anjou?"),
        ("Grace Dieu TO Hulll", 15, "did you mean"),
        ("ASSAULT Rippon", 9, "did you mean Ripon?"),
        ("RESOLVE c77", 9, "did you mean c7?"),
        ("RESOLVE Rippon", 9, "there is no place or combat called “Rippon”; did you mean Ripon?"),
        ("Red CONFIRMS RANSOM OF Staford", 24, "did you mean Stafford?"),
    ],
)
def test_unknown_names(full_game: GameState, text: str, column: int, words: str) -> None:
    p = only_problem(full_game, text, "gm" if text.startswith(("ASSAULT", "RESOLVE")) else "red")
    assert isinstance(p, UnknownName), p
    assert p.column == column, p
    assert words in p.message, p.message


@pytest.fixture(scope="module")
def two_forces(full_game: GameState) -> GameState:
    """``full_game`` with blue's Clifford and Scrope an army at York, and FitzAlan of
    blue beside them in no army: two forces of blue there."""
    card = full_game.catalog.nobles["fitzalan"]
    nobles = dict(full_game.nobles)
    nobles["fitzalan"] = Noble("fitzalan", "blue", card.troops, place="york")
    armies = {"ba": Army("ba", ("clifford", "scrope"), senior="clifford")}
    return full_game.evolve(nobles=FrozenDict(nobles), armies=FrozenDict(armies))


def test_battle_with_a_faction_of_several_forces_is_ambiguous(two_forces: GameState) -> None:
    p = only_problem(two_forces, "Percy BATTLES Blue IN York")
    assert isinstance(p, AmbiguousName)
    assert p.column == 15
    assert p.candidate_ids == ("ba", "fitzalan")
    assert p.candidates == ("ba (Clifford, Scrope)", "FitzAlan (in the open)")
    assert "Blue has several units at York" in p.message and "name the one to attack" in p.message
    # each named on its own is an attack on that force
    assert parse_order(two_forces, "Percy ATTACKS ba", "red").command == c.Attack("red", "percy", "ba")
    assert parse_order(two_forces, "Percy ATTACKS FitzAlan", "red").command == c.Attack(
        "red", "percy", "fitzalan"
    )


def test_a_card_named_by_a_word_of_two_cards_is_ambiguous(full_game: GameState) -> None:
    p = only_problem(full_game, "Blue RANSOMS Stafford FOR Writ AS r3", "blue")
    assert isinstance(p, AmbiguousName)
    assert "Writ under the Privy Seal" in p.candidates and "Writ under the Signet" in p.candidates


def test_a_card_in_the_authors_hand_wins_over_its_namesakes(full_game: GameState) -> None:
    """ "Writ" is the Writ under the Privy Seal and the Writ under the Signet: a faction
    holding the second means it."""
    hands = dict(full_game.hands)
    hands["red"] = (*hands["red"], "writ_under_the_signet")
    deck = tuple(x for x in full_game.event_deck if x != "writ_under_the_signet")
    state = full_game.evolve(hands=FrozenDict(hands), event_deck=deck)
    order = parse_order(state, "Red PLAYS Writ FOR Stanley", "red")
    assert order.command == c.PlayCard("red", "writ_under_the_signet", "stanley")


def test_a_ransom_without_an_id_gets_one_no_one_can_guess(full_game: GameState) -> None:
    post = parse_post(full_game, "Red RANSOMS Stafford FREE\nRed RANSOMS Stafford FREE", "red")
    ids = [o.command.id for o in post.orders if isinstance(o.command, c.Ransom)]
    assert len(ids) == 2 and ids[0] != ids[1]
    assert all(i.startswith("ransom-") and i not in full_game.requests for i in ids)
    again = parse_post(full_game, "Red RANSOMS Stafford FREE", "red").orders[0].command
    assert isinstance(again, c.Ransom) and again.id == ids[0]  # the same state reads the same


def test_no_ransom_to_answer_is_refused_while_reading(full_game: GameState) -> None:
    order = parse_order(full_game, "Blue CONFIRMS RANSOM OF Stafford", "blue")
    assert order.command is None and order.refusal is not None
    assert order.refusal.rule == "ORDER.invalid"
    assert "no ransom of Stafford awaits blue's answer" in order.refusal.explanation


def test_a_sally_from_elsewhere_is_refused_while_reading(full_game: GameState) -> None:
    order = parse_order(full_game, "Mowbray ATTACKS Neville WITH SALLY FROM York: Talbot", "blue")
    assert order.command is None and order.refusal is not None
    assert "nobles sally to a battle at their own walls, so not from York" in order.refusal.explanation


# -- refusals of the rules, with their rule ids ----------------------------------------------


@pytest.mark.parametrize(
    ("author", "text", "result", "rule"),
    [
        ("red", "Red RANSOMS Henry VI FREE AS r3", "refused", "RANSOM.royal"),
        ("green", "Green RANSOMS Stafford FREE AS r3", "refused", "RANSOM.offer"),
        ("red", "Red RANSOMS Stafford FREE AS r3", "pending", "RANSOM.offer"),
        ("blue", "Blue RELEASES Stafford", "refused", "RANSOM.release"),
        ("red", "Red RELEASES Stafford", "accepted", "RANSOM.release"),
        ("blue", "Blue EXECUTES Stafford", "refused", "EXEC.captive"),
        ("red", "Red EXECUTES Stafford", "accepted", "EXEC.captive"),
        ("red", "Red EXECUTES Henry VI", "refused", "EXEC.heir"),
        ("blue", "Grace Dieu TO Hull", "refused", "EVENT.storm"),
        ("red", "Grace Dieu TO Hull", "accepted", "EVENT.storm"),
        ("red", "Red PLAYS Forced March FOR Percy", "refused", "EVENT.held"),
        ("red", "Percy CAPTURES Margaret of Anjou", "refused", "PHASE.order"),
        ("red", "Red CONFIRMS RANSOM OF Stafford", "accepted", "RANSOM.offer"),
        ("gm", "RESOLVE c7", "accepted", None),
        ("gm", "RESOLVE Ripon", "accepted", None),
        ("gm", "DRAW EVENT", "refused", "PHASE.order"),
        ("gm", "END PHASE", "refused", "PHASE.order"),
        ("red", "END PHASE", "refused", "ORDER.invalid"),
    ],
)
def test_the_rules_answer_each_order_with_its_rule(
    full_game: GameState, author: str, text: str, result: str, rule: str | None
) -> None:
    (v,) = check_post(full_game, text, author)
    assert v.result == result, v
    if rule is not None:
        assert v.rule == rule, v
        assert f"({rule})" in v.explanation, v
    else:
        assert v.rule is not None and v.rule.startswith(("BATTLE.", "SIEGE.")), v

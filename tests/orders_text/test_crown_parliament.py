"""The orders of the Crown's cards, coronation and Parliament (issue 14, FULL_GAME
3.7-3.9): examples both ways, the three kinds of problem of their text, the refusals of
the rules with their rule ids, and a whole sitting read from posts."""

from __future__ import annotations

import pytest

from kingmaker.orders_text import (
    AmbiguousName,
    SyntaxProblem,
    UnknownName,
    format_order,
    parse_order,
    parse_post,
)
from kingmaker.rules import commands as c
from kingmaker.rules.commands import GM
from kingmaker.rules.decide import play
from kingmaker.rules.state import GameState
from tests.orders_text.verdicts import check_post

from .test_problems import TOKEN_NAMES, only_problem

# (state fixture, author, text, command)
EXAMPLES: list[tuple[str, str, str, c.Command]] = [
    # -- Crown cards and coronation
    ("parliament_eve", "red", "Red ASSIGNS Chancellor of England TO Percy", c.Assign("red", "chancellor_of_england", "percy")),
    # "Chancellor" fits three offices and an event card: red holds one of them
    ("parliament_eve", "red", "ASSIGN Chancellor TO Percy", c.Assign("red", "chancellor_of_england", "percy")),
    ("parliament_eve", "blue", "Blue ASSIGNS Chancellor TO Clifford", c.Assign("blue", "chancellor_of_the_duchy_of_lancaster", "clifford")),
    ("parliament_eve", "red", "Red BRINGS Talbot INTO PLAY AT Sheffield", c.EnterPlay("red", "talbot", "sheffield")),
    ("parliament_eve", "red", "Red BRING Talbot INTO PLAY IN Goodrich", c.EnterPlay("red", "talbot", "goodrich")),
    # one castle: it need not be named
    ("parliament_eve", "red", "Red BRINGS Pole INTO PLAY", c.EnterPlay("red", "pole", "wingfield")),
    ("parliament_eve", "red", "Talbot ENTERS PLAY AT Sheffield", c.EnterPlay("red", "talbot", "sheffield")),
    ("parliament_eve", "red", "Pole ENTERS PLAY", c.EnterPlay("red", "pole", "wingfield")),
    ("parliament_eve", "red", "Red CROWNS Richard, Duke of York", c.Crown("red", "richard_duke_of_york")),
    ("parliament_eve", "red", 'CROWN "Edward, Earl of March"', c.Crown("red", "edward_earl_of_march")),
    ("parliament_eve", GM, "DRAW CROWN CARD", c.DrawCrown(GM)),
    ("parliament_eve", GM, "draw crown", c.DrawCrown(GM)),
    # -- Parliament: summons, attendance, closing
    ("parliament_eve", "red", "Red SUMMONS PARLIAMENT AT York", c.SummonParliament("red", "parliament-1-red", "york")),
    ("parliament_eve", "red", "Red SUMMONS PARLIAMENT TO Hull AS p1", c.SummonParliament("red", "p1", "hull")),
    ("parliament_eve", GM, "Red: SUMMON PARLIAMENT IN York", c.SummonParliament("red", "parliament-1-red", "york")),
    ("parliament_game", "red", "Red ATTENDS WITH Percy AND Stanley", c.Attend("red", ("percy", "stanley"))),
    ("parliament_game", "blue", "Blue ATTENDS WITH Clifford", c.Attend("blue", ("clifford",))),
    ("parliament_game", "green", "Green ATTENDS WITH NO ONE", c.Attend("green", ())),
    ("parliament_game", "green", "ATTEND WITH nobody", c.Attend("green", ())),
    ("parliament_game", "red", "Red CLOSES PARLIAMENT", c.CloseParliament("red")),
    ("parliament_game", GM, "CLOSE PARLIAMENT", c.CloseParliament(GM)),
    # -- proposals (the next id of the sitting is m3)
    ("parliament_game", "red", "Red PROPOSES Marshal of England FOR Percy", c.Propose("red", "m3", "marshal_of_england", "percy")),
    # "Treasurer" is the Treasurer of England in the Chancery
    ("parliament_game", "red", "Red PROPOSES Treasurer FOR Percy AS t1", c.Propose("red", "t1", "treasurer_of_england", "percy")),
    ("parliament_game", "red", "Red PROPOSES Henry VI AS SOLE KING", c.Propose("red", "m3", motion="sole_king", heir="henry_vi")),
    ("parliament_game", "red", "Red PROPOSES VICTORY", c.Propose("red", "m3", motion="victory")),
    ("parliament_game", "red", "PROPOSE victory AS win", c.Propose("red", "win", motion="victory")),
    # -- votes: one stance for both houses, or one for each
    ("parliament_game", "red", "Red VOTES FOR m2", c.Vote("red", "m2", "for", "for")),
    ("parliament_game", "red", "Red VOTES FOR ON m2", c.Vote("red", "m2", "for", "for")),
    ("parliament_game", "blue", "Blue VOTES AGAINST m2", c.Vote("blue", "m2", "against", "against")),
    ("parliament_game", "green", "Green ABSTAINS ON m2", c.Vote("green", "m2", "abstain", "abstain")),
    ("parliament_game", "green", "Green ABSTAIN M2", c.Vote("green", "m2", "abstain", "abstain")),
    (
        "parliament_game",
        "red",
        "Red VOTES FOR IN THE LORDS AND AGAINST IN THE COMMONS ON m2",
        c.Vote("red", "m2", "for", "against"),
    ),
    (
        "parliament_game",
        "red",
        "Red VOTES AGAINST IN COMMONS, FOR IN LORDS ON m2",
        c.Vote("red", "m2", "for", "against"),
    ),
    (
        "parliament_game",
        "blue",
        "Blue ABSTAINS IN THE LORDS AND VOTES FOR IN THE COMMONS ON m2",
        c.Vote("blue", "m2", "abstain", "for"),
    ),
    # a proposal named by what it proposes: the Earl of Kent was proposed twice; m2 is open
    ("parliament_game", "red", "Red VOTES FOR Earl of Kent", c.Vote("red", "m2", "for", "for")),
    ("parliament_game", "red", "Red VOTES FOR Earl of Kent FOR Howard", c.Vote("red", "m2", "for", "for")),
    ("parliament_game", "red", "Red VOTES AGAINST Howard", c.Vote("red", "m2", "against", "against")),
    ("parliament_game", "red", "Red VOTES AGAINST Stanley", c.Vote("red", "m1", "against", "against")),
    ("parliament_game", GM, "Blue: Blue VOTES FOR m2", c.Vote("blue", "m2", "for", "for")),
]


@pytest.mark.parametrize(("fixture", "author", "text", "command"), EXAMPLES)
def test_example_reads_as_the_command(
    request: pytest.FixtureRequest, fixture: str, author: str, text: str, command: c.Command
) -> None:
    state: GameState = request.getfixturevalue(fixture)
    order = parse_order(state, text, author)
    assert order.refusal is None, order.refusal
    assert order.command == command


CANONICAL: list[tuple[str, c.Command, str]] = [
    ("parliament_eve", c.Assign("red", "chancellor_of_england", "percy"), "Red ASSIGNS Chancellor of England TO Percy"),
    ("parliament_eve", c.EnterPlay("red", "talbot", "sheffield"), "Red BRINGS Talbot INTO PLAY AT Sheffield"),
    ("parliament_eve", c.Crown("red", "richard_duke_of_york"), "Red CROWNS Richard, Duke of York"),
    ("parliament_game", c.Propose("red", "m3", motion="sole_king", heir="edward_earl_of_march"), "Red PROPOSES Edward, Earl of March AS SOLE KING"),
    ("parliament_eve", c.Crown("red", "henry_vi"), "Red CROWNS Henry VI"),
    ("parliament_eve", c.DrawCrown(GM), "DRAW CROWN CARD"),
    ("parliament_eve", c.SummonParliament("red", "parliament-1-red", "york"), "Red SUMMONS PARLIAMENT AT York"),
    ("parliament_eve", c.SummonParliament("red", "p1", "york"), "Red SUMMONS PARLIAMENT AT York AS p1"),
    ("parliament_game", c.Attend("red", ("percy", "stanley")), "Red ATTENDS WITH Percy AND Stanley"),
    ("parliament_game", c.Attend("green", ()), "Green ATTENDS WITH NO ONE"),
    ("parliament_game", c.Propose("red", "m3", "marshal_of_england", "percy"), "Red PROPOSES Marshal of England FOR Percy"),
    ("parliament_game", c.Propose("red", "m9", "marshal_of_england", "percy"), "Red PROPOSES Marshal of England FOR Percy AS m9"),
    ("parliament_game", c.Propose("red", "m3", motion="sole_king", heir="henry_vi"), "Red PROPOSES Henry VI AS SOLE KING"),
    ("parliament_game", c.Propose("red", "m3", motion="victory"), "Red PROPOSES VICTORY"),
    ("parliament_game", c.Vote("red", "m2", "for", "for"), "Red VOTES FOR m2"),
    ("parliament_game", c.Vote("blue", "m2", "against", "against"), "Blue VOTES AGAINST m2"),
    ("parliament_game", c.Vote("green", "m2", "abstain", "abstain"), "Green ABSTAINS ON m2"),
    ("parliament_game", c.Vote("red", "m2", "for", "against"), "Red VOTES FOR IN THE LORDS AND AGAINST IN THE COMMONS ON m2"),
    ("parliament_game", c.Vote("red", "m2", "against", "abstain"), "Red VOTES AGAINST IN THE LORDS AND ABSTAINS IN THE COMMONS ON m2"),
    ("parliament_game", c.Vote("red", "m2", "abstain", "for"), "Red ABSTAINS IN THE LORDS AND VOTES FOR IN THE COMMONS ON m2"),
    ("parliament_game", c.CloseParliament("red"), "Red CLOSES PARLIAMENT"),
    ("parliament_game", c.CloseParliament(GM), "CLOSE PARLIAMENT"),
]  # fmt: skip


@pytest.mark.parametrize(("fixture", "command", "text"), CANONICAL)
def test_canonical_text(request: pytest.FixtureRequest, fixture: str, command: c.Command, text: str) -> None:
    state: GameState = request.getfixturevalue(fixture)
    assert format_order(command, state) == text
    assert parse_order(state, text, command.by).command == command
    labelled = format_order(command, state, label=True)
    assert parse_order(state, labelled, GM).command == command, labelled


def test_a_stance_the_rules_do_not_know_has_no_text(parliament_game: GameState) -> None:
    with pytest.raises(ValueError, match="no words for the stance"):
        format_order(c.Vote("red", "m2", "maybe", "for"), parliament_game)
    with pytest.raises(ValueError, match="a proposal is"):
        format_order(c.Propose("red", "m3", motion="victory", heir="henry_vi"), parliament_game)


# -- problems of the text -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "column", "words"),
    [
        ("Red SUMMONS", 12, "the order stops too soon: expected PARLIAMENT"),
        ("Red SUMMONS PARLIAMENT AT", 26, "expected a name"),
        ("Red ATTENDS Percy", 13, "expected WITH"),
        ("Red PROPOSES", 13, "expected a name or VICTORY"),
        ("Red PROPOSES Marshal of England", 32, "expected AS or FOR"),
        ("Red PROPOSES Henry VI AS KING", 26, "expected SOLE"),
        ("Red VOTES m2", 11, "expected ABSTAINS, AGAINST or FOR"),
        ("Red VOTES FOR", 14, "the order stops too soon"),
        ("Red VOTES FOR IN LORDS", 23, "expected"),
        ("Red VOTES FOR IN THE LORDS ON m2", 1, "say how red votes in the Commons too"),
        ("Red VOTES FOR IN THE LORDS AND AGAINST IN THE LORDS ON m2", 32, "the Lords are given twice"),
        ("Red VOTES FOR AND AGAINST IN THE COMMONS ON m2", 11, "say which: “… IN THE LORDS AND … IN THE COMMONS”"),
        ("Red CLOSES", 11, "expected PARLIAMENT"),
        ("Red CROWNS", 11, "expected a name"),
        ("Red CROWNS Henry VI and Richard, Duke of York", 25, "this order is for one heir"),
        ("Red ASSIGNS Chancellor of England", 34, "expected TO"),
        ("Red BRINGS Talbot INTO", 23, "expected PLAY"),
        ("Red BRINGS Talbot AND Pole INTO PLAY", 23, "this order is for one noble"),
        ("DRAW", 5, "expected CROWN or EVENT"),
        ("Red sumons PARLIAMENT AT York", 23, "is “sumons” meant to be SUMMONS?"),
    ],
)
def test_syntax_problems(parliament_game: GameState, text: str, column: int, words: str) -> None:
    p = only_problem(parliament_game, text, "red")
    assert isinstance(p, SyntaxProblem), p
    assert p.column == column, p
    assert words in p.message, p.message
    assert not TOKEN_NAMES.search(p.message), p.message


@pytest.mark.parametrize(
    ("text", "column", "words"),
    [
        ("Red SUMMONS PARLIAMENT AT Yrok", 27, "did you mean York?"),
        ("Red ATTENDS WITH Percy AND Stanly", 28, "did you mean Stanley?"),
        ("Red PROPOSES Marshall of England FOR Percy", 14, "did you mean Marshal of England?"),
        ("Red PROPOSES Henri VI AS SOLE KING", 14, "did you mean Henry VI?"),
        ("Red CROWNS Richard, Duke of Yrok", 12, "did you mean Richard, Duke of York?"),
        ("Red ASSIGNS Chancelor of England TO Percy", 13, "did you mean Chancellor of England?"),
        ("Red ASSIGNS Chancellor of England TO Percey", 38, "did you mean Percy?"),
        ("Red BRINGS Talbott INTO PLAY", 12, "did you mean Talbot?"),
        ("Red BRINGS Talbot INTO PLAY AT Sheffeld", 32, "did you mean Sheffield?"),
        ("Red VOTES FOR m3", 15, "there is no proposal “m3” before Parliament; its proposals: m1 (Earl of Kent"),
        ("Red VOTES FOR m", 15, "did you mean m2 or m1?"),
    ],
)
def test_unknown_names(parliament_game: GameState, text: str, column: int, words: str) -> None:
    p = only_problem(parliament_game, text, "red")
    assert isinstance(p, UnknownName), p
    assert p.column == column, p
    assert words in p.message, p.message


def test_ambiguous_names(parliament_game: GameState) -> None:
    p = only_problem(parliament_game, "Red CROWNS Richard", "red")
    assert isinstance(p, AmbiguousName) and p.column == 12
    assert set(p.candidate_ids) == {"richard_duke_of_york", "richard_duke_of_gloucester"}
    # green holds no Chancellor: the name fits several cards
    p = only_problem(parliament_game, "Green ASSIGNS Chancellor TO Howard", "green")
    assert isinstance(p, AmbiguousName)
    assert "Chancellor of England" in p.candidates and "Chancellor of the Duchy of Lancaster" in p.candidates


def test_a_proposal_named_by_its_matter_among_decided_ones_is_ambiguous(parliament_game: GameState) -> None:
    """Once m2 is decided too, "Earl of Kent" fits two decided proposals: give the id."""
    s = parliament_game
    for f in ("red", "blue", "green"):
        s, d = play(s, c.Vote(f, "m2", "against", "against"))
        assert not d.refused, d.explanation
    p = only_problem(s, "Red VOTES FOR Earl of Kent", "red")
    assert isinstance(p, AmbiguousName), p
    assert p.candidate_ids == ("m1", "m2") and "give its id" in p.message


@pytest.mark.parametrize(
    ("fixture", "text", "words"),
    [
        ("parliament_eve", "Red BRINGS Talbot INTO PLAY", "say at which of his castles Talbot comes into play: Goodrich or Sheffield"),
        ("parliament_eve", "Red VOTES FOR VICTORY", "no Parliament sits, so there is no proposal to vote on"),
        ("parliament_game", "Red VOTES FOR VICTORY", "no victory motion is before Parliament; its proposals: m1 (Earl of Kent for Stanley), m2 (Earl of Kent for Howard)"),
        ("parliament_game", "Red VOTES FOR Henry VI AS SOLE KING", "no proposal of Henry VI AS SOLE KING is before Parliament"),
    ],
)  # fmt: skip
def test_orders_refused_while_reading(request: pytest.FixtureRequest, fixture: str, text: str, words: str) -> None:
    state: GameState = request.getfixturevalue(fixture)
    order = parse_order(state, text, "red")
    assert order.command is None and order.refusal is not None
    assert order.refusal.rule == "ORDER.invalid"
    assert words in order.refusal.explanation, order.refusal.explanation


def test_summons_without_a_seat_takes_the_one_the_faction_has(parliament_eve: GameState) -> None:
    """Red holds York and Hull: it must say which; with York alone, York."""
    order = parse_order(parliament_eve, "Red SUMMONS PARLIAMENT", "red")
    assert order.refusal is not None
    assert "say where Parliament sits" in order.refusal.explanation
    assert "red may seat it at Kingston upon Hull or York" in order.refusal.explanation
    control = {k: v for k, v in parliament_eve.control.items() if k != "hull"}
    state = parliament_eve.evolve(control=type(parliament_eve.control)(control))
    cmd = parse_order(state, "Red SUMMONS PARLIAMENT", "red").command
    assert cmd == c.SummonParliament("red", "parliament-1-red", "york")
    blue = parse_order(state, "Blue SUMMONS PARLIAMENT", "blue")
    assert blue.refusal is not None and "blue controls no city or town where it may sit" in blue.refusal.explanation


# -- refusals of the rules, with their rule ids ----------------------------------------------


@pytest.mark.parametrize(
    ("fixture", "author", "text", "result", "rule"),
    [
        ("parliament_eve", "red", "Red SUMMONS PARLIAMENT AT York", "accepted", "PARL.summon.king"),
        ("parliament_eve", "blue", "Blue SUMMONS PARLIAMENT AT York", "refused", "PARL.summon.king"),
        ("parliament_eve", "red", "Red SUMMONS PARLIAMENT AT Warwick", "refused", "PARL.seat"),
        ("parliament_eve", "red", "Red ATTENDS WITH Percy", "refused", "PARL.attend"),
        ("parliament_eve", "red", "Red VOTES FOR m1", "refused", "PARL.vote"),
        ("parliament_eve", "red", "Red PROPOSES VICTORY", "refused", "PARL.business"),
        ("parliament_eve", "red", "Red CLOSES PARLIAMENT", "refused", "PARL.close"),
        ("parliament_eve", "red", "Red CROWNS Richard, Duke of York", "refused", "CROWN.cathedral"),
        ("parliament_eve", "red", "Red CROWNS Edward, Earl of March", "refused", "CROWN.succession"),
        ("parliament_eve", "blue", "Blue CROWNS Richard, Duke of York", "refused", "CROWN.phase"),
        ("parliament_eve", "red", "Red ASSIGNS Chancellor TO Percy", "accepted", "DEAL.assign"),
        ("parliament_eve", "red", "Red ASSIGNS Chancellor TO Stanley", "refused", "DEAL.limits"),
        ("parliament_eve", "blue", "Blue ASSIGNS Chancellor TO Percy", "refused", "ORDER.foreign"),
        ("parliament_eve", "red", "Red ASSIGNS Talbot TO Percy", "refused", "ORDER.invalid"),
        ("parliament_eve", "red", "Red BRINGS Pole INTO PLAY", "refused", "PHASE.order"),
        ("parliament_eve", "gm", "DRAW CROWN CARD", "accepted", "DEAL.draw"),
        ("parliament_game", "red", "Red VOTES FOR m2", "pending", "PARL.vote"),
        ("parliament_game", "red", "Red VOTES FOR Howard", "pending", "PARL.vote"),
        ("parliament_game", "red", "Red VOTES FOR m1", "refused", "PARL.vote"),
        ("parliament_game", "red", "Red VOTES FOR Stanley", "refused", "PARL.vote"),
        ("parliament_game", "blue", "Blue PROPOSES VICTORY", "refused", "PARL.business"),
        ("parliament_game", "red", "Red PROPOSES VICTORY", "refused", "PARL.business"),
        ("parliament_game", "red", "Red CLOSES PARLIAMENT", "refused", "PARL.close"),
        ("parliament_game", "blue", "Blue CLOSES PARLIAMENT", "refused", "PARL.close"),
        ("parliament_game", "gm", "CLOSE PARLIAMENT", "accepted", "PARL.close"),
        ("parliament_game", "red", "Red ATTENDS WITH Percy", "refused", "PARL.attend"),
        ("parliament_game", "gm", "END PHASE", "refused", "PARL.close"),
    ],
)
def test_the_rules_answer_each_order_with_its_rule(
    request: pytest.FixtureRequest, fixture: str, author: str, text: str, result: str, rule: str
) -> None:
    state: GameState = request.getfixturevalue(fixture)
    (v,) = check_post(state, text, author)
    assert v.result == result, v
    assert v.rule == rule, v
    assert f"({rule})" in v.explanation, v


def _play_post(state: GameState, text: str, author: str) -> tuple[GameState, list[str]]:
    """Each line of a post read against the state its earlier lines left, and played."""
    results = []
    for line in text.splitlines():
        post = parse_post(state, line, author)
        assert post.ok and len(post.orders) == 1, (line, post)
        cmd = post.orders[0].command
        assert cmd is not None
        state, d = play(state, cmd)
        results.append(f"{d.result.value} {d.rule}")
    return state, results


def test_a_sitting_from_summons_to_victory_read_from_posts(parliament_eve: GameState) -> None:
    """Red summons Parliament to York; each faction's post declares its attendance; red
    moves the victory motion and votes for it by naming it; blue's vote differs by house;
    the tally carries red's victory (VICTORY.parliament), and nothing follows."""
    s, got = _play_post(
        parliament_eve,
        "Red SUMMONS PARLIAMENT AT York\nRed ATTENDS WITH Percy AND Stanley",
        "red",
    )
    assert got == ["accepted PARL.summon.king", "accepted PARL.attend"]
    s, got = _play_post(s, "Blue ATTENDS WITH Clifford", "blue")
    s, got = _play_post(s, "Green ATTENDS WITH NO ONE", "green")
    assert got == ["accepted PARL.attend"]
    s, got = _play_post(s, "Red PROPOSES VICTORY", "red")
    assert got == ["pending PARL.business"]
    assert s.parliament is not None and s.parliament.open is not None and s.parliament.open.id == "m1"
    s, got = _play_post(s, "Red VOTES FOR VICTORY", "red")
    assert got == ["pending PARL.vote"]
    # green sent no one and holds no city or town: it has no vote, and blue's is the last
    s, got = _play_post(s, "Blue VOTES AGAINST IN THE LORDS AND ABSTAINS IN THE COMMONS ON m1", "blue")
    assert got == ["accepted VICTORY.parliament"]
    assert s.game_over == "VICTORY.parliament" and s.winner == "red"
    (v,) = check_post(s, "Red CLOSES PARLIAMENT", "red")
    assert (v.result, v.rule) == ("refused", "VICTORY.timing")

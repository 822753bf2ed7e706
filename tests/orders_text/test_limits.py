"""Limits in text orders (issue 11 §3.6): an id written with ``AS`` is read in lower
case and must be a short id; a post has at most 20,000 characters and 200 lines."""

from __future__ import annotations

from kingmaker.orders_text import SyntaxProblem, parse_order, parse_post
from kingmaker.orders_text.errors import OrderTextError
from kingmaker.rules import commands as c
from kingmaker.rules.limits import CHOSEN_ID_MAX, ORDERS_MAX_CHARS, ORDERS_MAX_LINES
from kingmaker.rules.state import GameState


def test_an_id_written_in_capitals_is_read_in_lower_case(forum_game: GameState) -> None:
    o = parse_order(forum_game, "Red ALLIES WITH Green AS RG", "red")
    assert o.command == c.DeclareAlliance("red", "rg", ("green",))
    o = parse_order(forum_game, "Percy and Stanley FORM ARMY North-1 IN York", "red")
    assert isinstance(o.command, c.FormArmy) and o.command.id == "north-1"


def test_an_id_that_is_not_a_short_id_is_a_problem_at_its_column(forum_game: GameState) -> None:
    for bad, col in (
        ('Red ALLIES WITH Green AS "two words"', 26),
        ("Red ALLIES WITH Green AS " + "r" * (CHOSEN_ID_MAX + 1), 26),
        ("Red ALLIES WITH Green AS Éire", 26),
    ):
        try:
            parse_order(forum_game, bad, "red")
        except OrderTextError as e:
            p = e.problem
            assert isinstance(p, SyntaxProblem), p
            assert p.column == col, (bad, p)
            assert "id" in p.message and "\n" not in p.message, p.message
            assert len(p.message) < 300
        else:
            raise AssertionError(f"{bad!r} was read")
    o = parse_order(forum_game, "Red ALLIES WITH Green AS " + "r" * CHOSEN_ID_MAX, "red")
    assert isinstance(o.command, c.DeclareAlliance)


def test_a_post_over_the_limits_is_refused_whole(forum_game: GameState) -> None:
    line = "Percy MOVES TO Ripon\n"
    post = parse_post(forum_game, line * (ORDERS_MAX_LINES + 1), "red")
    assert post.orders == ()
    (p,) = post.problems
    assert p.line == ORDERS_MAX_LINES + 1 and str(ORDERS_MAX_LINES) in p.message
    post = parse_post(forum_game, "x" * (ORDERS_MAX_CHARS + 1), "red")
    assert post.orders == ()
    (p,) = post.problems
    assert "20,000" in p.message and len(p.text) <= 100
    # at the limits, the post is read
    post = parse_post(forum_game, line * ORDERS_MAX_LINES, "red")
    assert len(post.orders) == ORDERS_MAX_LINES

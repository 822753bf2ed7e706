"""Forum chatter tolerated (issue 15, item 2): greetings, thanks and signatures, headings
with round numbers and blank lines are ignored, not errors; only a line that looks like
an order and is not one is an error; a real order is never taken for chatter."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kingmaker.orders_text import Ignored, format_order, names_for, parse_post
from kingmaker.orders_text.chatter import looks_like_order
from kingmaker.orders_text.verbs import grammar_verbs
from kingmaker.rules import commands as c
from kingmaker.rules.state import GameState
from tests.orders_text.verdicts import check_post

from .strategies import commands, played_states

ISSUE_POST = """Hi GM, orders for Red round 1:

1. Percy MOVES TO Ripon
Stanley MOVES TO Tadcaster

thanks! -- Alice
"""

CHATTER = [
    "Hi GM, orders for Red round 1:",
    "thanks! -- Alice",
    "Green, rnd 2",
    "Gold round two:",
    "Hello all",
    "Good evening, my lords.",
    "Here are my orders for this round:",
    "Sorry for the late post!",
    "See you next turn!",
    "I hope the weather holds.",
    "Cheers,",
    "Best regards",
    "-- Alice",
    "— Bob",
    "Alice",
    "Thanks to all",
    "Round 3 orders",
    "R2:",
]

# lines that look like orders and are not: errors, never ignored
NOT_CHATTER = [
    "Percy marches to York",  # a unit named
    "Percy York Leeds",
    "Red ALIES WITH Green",  # a misspelt verb
    "Blue GRNATS Red PASSAGE THROUGH Coventry",
    "Grace Deiu TO Hull",  # a misspelt ship
    "I will move Percy next turn",  # a verb
    "1. Hello",  # numbered: meant as an order
    "SET Coventry",  # a GM keyword first
    "END TRUN",
    "Green CONFIRMS",
    "q6",  # an id the author knows
    "Thanks, and Percy MOVES TO Ripon",
]


def test_the_issues_post_is_orders_and_chatter(forum_game: GameState) -> None:
    post = parse_post(forum_game, ISSUE_POST, "red")
    assert not post.problems, post.problems
    assert [o.line for o in post.orders] == [3, 4]
    assert [(x.line, x.reason) for x in post.ignored] == [
        (1, "a greeting with a round number"),
        (6, "thanks or a signature"),
    ]
    verdicts = check_post(forum_game, ISSUE_POST, "red")
    assert [(v.line, v.result) for v in verdicts] == [
        (1, "ignored"),
        (3, "accepted"),
        (4, "accepted"),
        (6, "ignored"),
    ]
    assert all(v.ok for v in verdicts)
    assert verdicts[0].explanation == "a greeting with a round number"


@pytest.mark.parametrize("line", CHATTER)
def test_chatter_is_ignored(busy_game: GameState, line: str) -> None:
    post = parse_post(busy_game, line, "red")
    assert not post.problems and not post.orders, post
    (x,) = post.ignored
    assert isinstance(x, Ignored) and x.line == 1 and x.text == line and x.reason


@pytest.mark.parametrize("line", NOT_CHATTER)
def test_a_line_that_looks_like_an_order_is_an_error(busy_game: GameState, line: str) -> None:
    author = "blue" if line.startswith("Blue") else c.GM if line.startswith(("SET", "END")) else "green"
    post = parse_post(busy_game, line, author)
    assert not post.ignored, post.ignored
    assert post.problems or post.orders, post


def test_a_heading_with_a_round_number_says_when_it_is_not_this_round(forum_game: GameState) -> None:
    (x,) = parse_post(forum_game, "Green, rnd 2", "green").ignored
    assert (x.faction, x.round) == ("green", 2)
    assert x.reason == "a heading (it names round 2; this is round 1)"


def test_the_gms_heading_labels_the_lines_below(forum_game: GameState) -> None:
    post = parse_post(forum_game, "Blue, round 1:\nClifford MOVES TO Ripon\n", c.GM)
    assert post.commands == (c.MoveRoad("blue", "clifford", ("york", "ripon")),)
    # a player's heading naming another faction labels nothing
    post = parse_post(forum_game, "Blue, round 1:\nPercy MOVES TO Ripon\n", "red")
    assert post.commands == (c.MoveRoad("red", "percy", ("york", "ripon")),)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_canonical_order_is_never_chatter(data: st.DataObject) -> None:
    """Every canonical order text (``format_order`` of any command of a played game)
    looks like an order, and so does the same text with a letter of its verb left out
    or doubled: a real order is never silently ignored."""
    state = data.draw(st.sampled_from(played_states()), label="state")
    cmd = data.draw(commands(state), label="command")
    text = format_order(cmd, state)
    author = cmd.by
    names = names_for(state, None, author)
    assert looks_like_order(names, text), text
    assert not parse_post(state, text, author).ignored, text
    labelled = format_order(cmd, state, label=True)
    assert looks_like_order(names_for(state, None, c.GM), labelled), labelled
    words = text.split()
    verbs = [i for i, w in enumerate(words) if w.lower() in grammar_verbs() and len(w) >= 5]
    if verbs:
        rnd = random.Random(text)
        i = rnd.choice(verbs)
        k = rnd.randrange(1, len(words[i]))
        for typo in (words[i][:k] + words[i][k + 1 :], words[i][:k] + words[i][k] + words[i][k:]):
            mutated = " ".join([*words[:i], typo, *words[i + 1 :]])
            assert not parse_post(state, mutated, author).ignored, mutated

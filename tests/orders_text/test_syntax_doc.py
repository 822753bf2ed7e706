"""The order syntax documented (issue 15, item 1): docs/orders.md is written from the
verbs table (``orders_text.verbs``), every statement of the grammar has a verb there,
every example in the doc parses to its verb and reads as an order in a game, and every
syntax error names the closest verb with its example (no list cut off with "…")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lark import Tree
from typer.testing import CliRunner

from kingmaker.cli.app import _mount, app
from kingmaker.orders_text import OrderTextError, SyntaxProblem, parse_order, parse_post
from kingmaker.orders_text.syntax import parser
from kingmaker.orders_text.verbs import (
    VERBS,
    closest_verb,
    grammar_verbs,
    syntax_text,
    verb_named,
    verbs_named,
)
from kingmaker.rules.commands import GM
from kingmaker.rules.state import GameState

_mount()

DOC = Path(__file__).resolve().parents[2] / "docs" / "orders.md"
STATES = ("forum_game", "at_hull", "aboard", "busy_game", "full_game", "parliament_eve", "parliament_game")
AUTHORS = ("red", "blue", "green", GM)


def grammar_statements() -> set[str]:
    """The ``->`` names of the grammar's statements."""
    return {str(r.alias) for r in parser().rules if r.origin.name == "statement"}


def statement_of(line: str) -> str:
    """The statement the grammar reads ``line`` as."""
    tree = parser().parse(line)
    line_tree = tree.children[0]
    assert isinstance(line_tree, Tree)
    st = next(ch for ch in line_tree.children if isinstance(ch, Tree) and ch.data != "label")
    return str(st.data)


def doc_examples(text: str) -> list[tuple[str, str]]:
    """Every example of the doc: (the verb's title, the line), from the code block after
    each "Examples:"."""
    out: list[tuple[str, str]] = []
    for section in re.split(r"^### ", text, flags=re.M)[1:]:
        title = section.splitlines()[0].strip()
        block = section.split("Examples:", 1)[1].split("```", 2)[1]
        out += [(title, line) for line in block.strip().splitlines()]
    return out


def test_the_doc_is_the_text_the_verbs_table_writes() -> None:
    """docs/orders.md cannot drift: regenerate it with `kingmaker orders --syntax > docs/orders.md`."""
    assert DOC.read_text(encoding="utf-8") == syntax_text()


def test_every_statement_of_the_grammar_has_a_verb_and_no_verb_a_statement_it_lacks() -> None:
    documented = {s for v in VERBS for s in v.statements}
    assert grammar_statements() - documented == set(), "undocumented verbs of the grammar"
    assert documented - grammar_statements() == set(), "documented statements the grammar lacks"
    assert len({v.title for v in VERBS}) == len(VERBS)


def test_every_example_in_the_doc_parses_to_its_verb() -> None:
    examples = doc_examples(DOC.read_text(encoding="utf-8"))
    assert len(examples) >= len(grammar_statements())
    seen: set[str] = set()
    for title, line in examples:
        v = verb_named(title)
        assert v is not None, title
        st = statement_of(line)
        assert st in v.statements, (title, line, st)
        seen.add(st)
    assert grammar_statements() - seen == set(), "statements with no example in the doc"


@pytest.mark.parametrize(("title", "line"), doc_examples(syntax_text()), ids=lambda x: str(x))
def test_every_example_reads_as_an_order_in_a_game(
    title: str, line: str, request: pytest.FixtureRequest
) -> None:
    """Each example names things of the default data: in one of the test games, as one
    of its factions or the GM, it reads as an order (no problem, no refusal)."""
    problems = []
    for fixture in STATES:
        state: GameState = request.getfixturevalue(fixture)
        for author in AUTHORS:
            try:
                got = parse_order(state, line, author)
            except OrderTextError as e:
                problems.append(f"{fixture}/{author}: {e}")
                continue
            if got.refusal is None and got.command is not None:
                return
            problems.append(f"{fixture}/{author}: {got.refusal}")
    pytest.fail(f"{title}: {line!r} reads in no test game:\n" + "\n".join(problems[:6]))


def test_every_spelling_of_a_verb_looks_up_a_verb() -> None:
    for w in grammar_verbs():
        assert verbs_named(w), w
    assert [v.title for v in verbs_named("leaves")] == ["LEAVES", "LEAVES ALLIANCE"]
    assert verb_named("MOVE") is verb_named("moves") is VERBS[0]


@pytest.mark.parametrize(
    ("text", "verb"),
    [
        ("Percy MOVES York", "MOVES"),
        ("Percy", "MOVES"),
        ("Percy marches to York", "MOVES"),
        ("Percy moevs to York", "MOVES"),
        ("Grace Dieu SAILS", "SAILS"),
        ("Red ALIES WITH Green", "ALLIES WITH"),
        ("Red ALLIES Green", "ALLIES WITH"),
        ("Blue GRANTS Red THROUGH Coventry", "GRANTS"),
        ("Percy BESIEGES", "BESIEGES"),
        ("Percy and Stanley FORM ARMY IN", "FORM ARMY"),
        ("END TRUN", "END TURN"),
        ("STORM Grace Dieu", "STORM"),
        ("Percy MOVES TO York TO Leeds", "MOVES"),
        ("Percy MOVES FROM York", "MOVES"),
        ("Green CONFIRMS", "CONFIRMS"),
    ],
)
def test_a_syntax_error_names_the_closest_verb_and_shows_its_example(
    forum_game: GameState, text: str, verb: str
) -> None:
    post = parse_post(forum_game, text, "blue" if text.startswith(("Blue", "Green")) else "red")
    if text.startswith(("END", "STORM")):
        post = parse_post(forum_game, text, GM)
    assert not post.orders and not post.ignored, post
    (p,) = post.problems
    assert isinstance(p, SyntaxProblem), p
    v = verb_named(verb)
    assert v is not None
    assert (p.verb, p.example) == (v.title, v.example), p.message
    assert f"for example, {v.title}: “{v.example}”" in p.message
    assert "…" not in p.message


def test_no_list_of_what_was_expected_is_cut_off(forum_game: GameState) -> None:
    for text in ("Percy", "MOVES", "Percy MOVES", "Percy MOVES TO", "Blue GRANTS Red", "Red VOTES", "1. ,"):
        for p in parse_post(forum_game, text, "red").problems:
            assert "…" not in p.message, (text, p.message)


def test_closest_verb_of_a_line_with_no_verb_at_all() -> None:
    assert closest_verb("York Leeds").title == "MOVES"
    assert closest_verb("Percy goes to York").title == "MOVES"
    assert closest_verb("Henry VI goes with Percy").title == "GOES WITH"
    assert closest_verb("Green accepts alliance with Blue").title == "ACCEPTS ALLIANCE"
    assert closest_verb("Red accepts ransom of Stafford").title == "ACCEPTS RANSOM"
    assert closest_verb("draw crwn").title == "DRAW CROWN CARD"


def test_the_cli_prints_the_syntax_and_one_verb() -> None:
    runner = CliRunner()
    whole = runner.invoke(app, ["orders", "--syntax"])
    assert whole.exit_code == 0, whole.output
    assert whole.output == syntax_text()
    one = runner.invoke(app, ["orders", "--syntax", "MOVES"])
    assert one.exit_code == 0 and one.output.startswith("### MOVES\n")
    assert "Percy MOVES FROM York TO Helmsley VIA Malton" in one.output
    gm = runner.invoke(app, ["orders", "--syntax", "end"])
    assert "### END TURN" in gm.output and "### END PHASE" in gm.output
    bad = runner.invoke(app, ["orders", "--syntax", "teleport"])
    assert bad.exit_code == 1 and "MOVES" in bad.output

"""The document model and its three renderers: the same words in every format, markup
that phpBB and CommonMark read, and text that cannot turn into markup."""

from __future__ import annotations

import pytest

from kingmaker.render.reports import FORMATS, render
from kingmaker.render.reports.bbcode import escape as bb_escape
from kingmaker.render.reports.document import (
    Block,
    BulletList,
    Code,
    CodeBlock,
    Colour,
    Document,
    Heading,
    Inline,
    Paragraph,
    Quote,
    Text,
    bold,
    bullets,
    field,
    heading,
    inlines,
    italic,
    item,
    para,
)
from kingmaker.render.reports.markdown import escape as md_escape

RED = Colour("#b22222", (bold("Red"),))

DOC = Document(
    (
        heading(1, "Round 1: ", RED, "'s turn"),
        heading(2, "Orders"),
        para("Reply ", Code("Green CONFIRMS q12"), " before ", italic("noon"), "."),
        bullets(
            [
                field(
                    "Nobles",
                    children=[item("Percy, 20 troops: inside York", children=[field("title", "Earl")])],
                ),
                item(RED, ": 3 places"),
            ]
        ),
        Quote((para("a [b]note[/b] with *stars* and _underscores_"),)),
        CodeBlock("Green CONFIRMS q12"),
    )
)


def test_bbcode() -> None:
    assert render(DOC, "bbcode") == (
        "[b][u]Round 1: [color=#b22222][b]Red[/b][/color]'s turn[/u][/b]\n\n"
        "[b]Orders[/b]\n\n"
        "Reply [b]Green CONFIRMS q12[/b] before [i]noon[/i].\n\n"
        "[list]\n[*][b]Nobles:[/b]\n[list]\n[*]Percy, 20 troops: inside York\n"
        "[list]\n[*][b]title:[/b] Earl\n[/list]\n[/list]\n"
        "[*][color=#b22222][b]Red[/b][/color]: 3 places\n[/list]\n\n"
        "[quote]a [\u200bb]note[\u200b/b] with *stars* and _underscores_[/quote]\n\n"
        "[code]Green CONFIRMS q12[/code]\n"
    )


def test_markdown() -> None:
    assert render(DOC, "markdown") == (
        "# Round 1: **Red**'s turn\n\n"
        "## Orders\n\n"
        "Reply `Green CONFIRMS q12` before *noon*.\n\n"
        "- **Nobles:**\n  - Percy, 20 troops: inside York\n    - **title:** Earl\n- **Red**: 3 places\n\n"
        "> a \\[b\\]note\\[/b\\] with \\*stars\\* and \\_underscores\\_\n\n"
        "```\nGreen CONFIRMS q12\n```\n"
    )


def test_plain() -> None:
    assert render(DOC, "plain") == (
        "Round 1: Red's turn\n===================\n\n"
        "Orders\n------\n\n"
        "Reply `Green CONFIRMS q12` before noon.\n\n"
        "- Nobles:\n  - Percy, 20 troops: inside York\n    - title: Earl\n- Red: 3 places\n\n"
        "> a [b]note[/b] with *stars* and _underscores_\n\n"
        "    Green CONFIRMS q12\n"
    )


def _texts(blocks: tuple[Block, ...]) -> list[str]:
    out: list[str] = []

    def walk(content: tuple[Inline, ...]) -> None:
        for node in content:
            if isinstance(node, Text | Code):
                out.append(node.text)
            else:
                walk(node.children)

    def items(its: tuple) -> None:  # type: ignore[type-arg]
        for it in its:
            walk(it.content)
            items(it.children)

    for b in blocks:
        if isinstance(b, Heading | Paragraph):
            walk(b.content)
        elif isinstance(b, BulletList):
            items(b.items)
        elif isinstance(b, Quote):
            out += _texts(b.blocks)
        elif isinstance(b, CodeBlock):
            out.append(b.text)
    return out


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_word_of_the_document_is_in_every_format(fmt: str) -> None:
    text = render(DOC, fmt)  # type: ignore[arg-type]
    for words in _texts(DOC.blocks):
        assert any(w in text for w in (words, bb_escape(words), md_escape(words))), (fmt, words)


def test_escapes() -> None:
    assert bb_escape("[b]x[/b] [TURN.end] [Color=red]") == "[\u200bb]x[\u200b/b] [TURN.end] [\u200bColor=red]"
    assert md_escape("- a_b *c* <d> #1") == "\\- a\\_b \\*c\\* \\<d\\> \\#1"
    assert render(Document((para(Code("a`b")),)), "markdown") == "``a`b``\n"


def test_builders_merge_text_and_skip_none() -> None:
    assert inlines("a", None, "b", Text("c"), ("d", bold("e"))) == (Text("abcd"), bold("e"))
    assert field("Ships", "none").content == (bold("Ships:"), Text(" none"))
    assert field("Nobles").content == (bold("Nobles:"),)
    assert (DOC + Document((para("x"),))).blocks[-1] == para("x")


def test_colour_is_only_written_when_it_is_a_hex_colour() -> None:
    doc = Document((para(Colour("red];[b", (Text("x"),))),))
    assert render(doc, "bbcode") == "x\n"

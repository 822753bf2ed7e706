"""Markdown (CommonMark): ``#`` headings, ``**bold**``, ``*italic*``, backticks for
what is to be typed exactly, ``-`` lists, ``>`` quotes, fenced code, and tables as the
forums' Markdown writes them (GitHub's pipe tables). Markdown has no colour: a
faction's name is bold."""

from __future__ import annotations

import re
from collections.abc import Iterable

from .document import (
    Block,
    Bold,
    BulletList,
    Code,
    CodeBlock,
    Colour,
    Document,
    Heading,
    Inline,
    Italic,
    Item,
    Paragraph,
    Quote,
    Table,
    Text,
    defang_links,
    one_line,
)

_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~&])")
_SPACES = re.compile(r"\s{2,}")
# what opens a block at the start of a line: a list item, a thematic break, a setext line
# (after any spaces: a paragraph's leading spaces are dropped, so " -" starts a list too)
_LINE_START = re.compile(r"^\s*(?:[-+=]|\d{1,9}[.)])")


def escape(text: str) -> str:
    """Text with Markdown's punctuation escaped, so names and sentences print as written
    and open nothing: on one line (``one_line``), runs of spaces as one (four would start
    a code block), no bare link (``defang_links``)."""
    text = _SPECIAL.sub(r"\\\1", defang_links(_SPACES.sub(" ", one_line(text))))
    return _LINE_START.sub(lambda m: m.group(0)[:-1] + "\\" + m.group(0)[-1], text)


def code(text: str) -> str:
    """A code span holding ``text`` (one line) exactly; nothing for no text."""
    text = one_line(text)
    if not text.strip():
        return escape(text)
    fence = "`"
    while fence in text:
        fence += "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _emphasis(mark: str, inner: str) -> str:
    """``inner`` between ``mark``s, with its outer spaces outside them (CommonMark reads
    ``** x**`` as text)."""
    core = inner.strip()
    if not core:
        return inner
    lead, trail = inner[: len(inner) - len(inner.lstrip())], inner[len(inner.rstrip()) :]
    return f"{lead}{mark}{core}{mark}{trail}"


def inline(content: Iterable[Inline], *, cell: bool = False) -> str:
    """Inline content; in a table ``cell`` a ``|`` inside a code span is escaped too (a
    pipe table splits its rows at every unescaped ``|``, code spans included)."""
    out = []
    for node in content:
        if isinstance(node, Text):
            out.append(escape(node.text))
        elif isinstance(node, Code):
            out.append(code(node.text).replace("|", "\\|") if cell else code(node.text))
        elif isinstance(node, Bold):
            out.append(_emphasis("**", inline(node.children, cell=cell)))
        elif isinstance(node, Italic):
            out.append(_emphasis("*", inline(node.children, cell=cell)))
        elif isinstance(node, Colour):
            out.append(inline(node.children, cell=cell))
    return "".join(out)


def _row(cells: Iterable[tuple[Inline, ...]]) -> str:
    return "| " + " | ".join(inline(c, cell=True) for c in cells) + " |"


def _items(items: Iterable[Item], depth: int) -> list[str]:
    lines = []
    for it in items:
        lines.append("  " * depth + "- " + inline(it.content))
        lines.extend(_items(it.children, depth + 1))
    return lines


def block(b: Block) -> str:
    if isinstance(b, Heading):
        return "#" * b.level + " " + inline(b.content)
    if isinstance(b, Paragraph):
        return inline(b.content)
    if isinstance(b, BulletList):
        return "\n".join(_items(b.items, 0))
    if isinstance(b, Quote):
        inner = "\n\n".join(block(x) for x in b.blocks)
        return "\n".join(("> " + line).rstrip() for line in inner.split("\n"))
    if isinstance(b, CodeBlock):
        fence = "```"
        while fence in b.text:
            fence += "`"
        return f"{fence}\n{b.text}\n{fence}"
    if isinstance(b, Table):
        rule = "| " + " | ".join("---" for _ in b.header) + " |"
        return "\n".join([_row(b.header), rule, *(_row(r) for r in b.rows)])
    raise TypeError(f"unknown block {b!r}")


def render(doc: Document) -> str:
    return "\n\n".join(block(b) for b in doc.blocks) + "\n"

"""A small format-neutral document: what a report says, before any format.

Reports build a ``Document`` once; the BBCode, Markdown and plain-text renderers each
turn the same document into text, so the three formats always say the same thing.

Inline content: ``Text``, ``Bold``, ``Italic``, ``Code`` (an id or a reply to type),
``Colour`` (a faction's name). Blocks: ``Heading``, ``Paragraph``, ``BulletList`` of
``Item`` (an item may hold a nested list: short tables are written as lists of
``label: value`` items), ``Quote``, ``CodeBlock`` and ``Table`` (a header row and rows
of inline cells: a Markdown table, a monospace block in BBCode and plain text).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Text:
    text: str


@dataclass(frozen=True, slots=True)
class Bold:
    children: tuple[Inline, ...]


@dataclass(frozen=True, slots=True)
class Italic:
    children: tuple[Inline, ...]


@dataclass(frozen=True, slots=True)
class Code:
    """Something to type exactly: an id, or a reply."""

    text: str


@dataclass(frozen=True, slots=True)
class Colour:
    """Content in a colour (``#rrggbb``): a faction's name."""

    colour: str
    children: tuple[Inline, ...]


Inline = Text | Bold | Italic | Code | Colour
Part = str | Inline  # what the builders accept: a str is plain text


@dataclass(frozen=True, slots=True)
class Heading:
    level: int  # 1 (a report's title), 2 (a section), 3 (a subsection)
    content: tuple[Inline, ...]


@dataclass(frozen=True, slots=True)
class Paragraph:
    content: tuple[Inline, ...]


@dataclass(frozen=True, slots=True)
class Item:
    content: tuple[Inline, ...]
    children: tuple[Item, ...] = ()


@dataclass(frozen=True, slots=True)
class BulletList:
    items: tuple[Item, ...]


@dataclass(frozen=True, slots=True)
class Quote:
    blocks: tuple[Block, ...]


@dataclass(frozen=True, slots=True)
class CodeBlock:
    text: str


@dataclass(frozen=True, slots=True)
class Table:
    """A small table: ``header`` and each row are cells of inline content, all rows as
    long as the header (``table`` pads or cuts them)."""

    header: tuple[tuple[Inline, ...], ...]
    rows: tuple[tuple[tuple[Inline, ...], ...], ...]


Block = Heading | Paragraph | BulletList | Quote | CodeBlock | Table


@dataclass(frozen=True, slots=True)
class Document:
    blocks: tuple[Block, ...] = ()

    def __add__(self, other: Document) -> Document:
        return Document(self.blocks + other.blocks)


# -- builders ---------------------------------------------------------------------------
def inlines(*parts: Part | Iterable[Inline] | None) -> tuple[Inline, ...]:
    """Inline content from strings, inline nodes and sequences of them (None skipped;
    neighbouring text merged)."""
    out: list[Inline] = []

    def push(node: Inline) -> None:
        if isinstance(node, Text) and out and isinstance(out[-1], Text):
            out[-1] = Text(out[-1].text + node.text)
        elif not (isinstance(node, Text) and not node.text):
            out.append(node)

    for p in parts:
        if p is None:
            continue
        if isinstance(p, str):
            push(Text(p))
        elif isinstance(p, Text | Bold | Italic | Code | Colour):
            push(p)
        else:
            for node in inlines(*p):
                push(node)
    return tuple(out)


Parts = Part | Iterable[Inline] | None


def bold(*parts: Parts) -> Bold:
    return Bold(inlines(*parts))


def italic(*parts: Parts) -> Italic:
    return Italic(inlines(*parts))


def heading(level: int, *parts: Parts) -> Heading:
    return Heading(level, inlines(*parts))


def para(*parts: Parts) -> Paragraph:
    return Paragraph(inlines(*parts))


def item(*parts: Parts, children: Iterable[Item] = ()) -> Item:
    return Item(inlines(*parts), tuple(children))


def field(label: str, *value: Parts, children: Iterable[Item] = ()) -> Item:
    """A ``label: value`` row of a table written as a list."""
    content = inlines(*value)
    return Item(inlines(bold(label + ":"), " " if content else None, content), tuple(children))


def bullets(items: Iterable[Item]) -> BulletList:
    return BulletList(tuple(items))


def table(header: Iterable[Parts], rows: Iterable[Iterable[Parts]]) -> Table:
    """A table with ``header`` and ``rows`` (each cell one part or a tuple of inline
    content); a short row is padded with empty cells, a long one cut."""
    head = tuple(inlines(c) for c in header)
    body = []
    for row in rows:
        cells = [inlines(c) for c in row][: len(head)]
        body.append(tuple(cells + [()] * (len(head) - len(cells))))
    return Table(head, tuple(body))


def joined(parts: Iterable[tuple[Inline, ...] | Inline | str], sep: str = ", ") -> tuple[Inline, ...]:
    """Pieces separated by ``sep``."""
    out: list[Part | Iterable[Inline]] = []
    for i, p in enumerate(parts):
        if i:
            out.append(sep)
        out.append(p)
    return inlines(*out)


def plain(content: Iterable[Inline]) -> str:
    """The bare words of inline content (no markup)."""
    out = []
    for node in content:
        if isinstance(node, Text | Code):
            out.append(node.text)
        else:
            out.append(plain(node.children))
    return "".join(out)


# -- one line of text ---------------------------------------------------------------------
_BREAKS = re.compile(r"[ \t]*[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]\s*")
_DROPPED = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def one_line(text: str) -> str:
    """``text`` as one line: each run of line breaks becomes a space, a tab a space, and
    other control and invisible format characters (Unicode Cc, Cf, Cs: the right-to-left
    override among them) are dropped. Every renderer passes the text it prints through
    this, so no text, whoever wrote it, can start a line of its own in a report (the
    service refuses such text anyway; this keeps old logs safe too)."""
    if text.isprintable():
        return text
    text = _BREAKS.sub(" ", text).replace("\t", " ")
    if text.isprintable():
        return text
    return "".join(ch for ch in text if ch.isprintable() or unicodedata.category(ch) not in _DROPPED)


_LINK_STARTS = re.compile(r"(?<=[A-Za-z0-9+.\-]:)(?=//)|(?<=www)(?=\.)|(?<=@)(?=\w)", re.I)


def width(text: str) -> int:
    """How many columns ``text`` takes in a monospace font: wide East Asian characters
    two, combining and zero-width ones none."""
    total = 0
    for ch in text:
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            continue
        total += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return total


def aligned(rows: Iterable[Iterable[str]]) -> list[str]:
    """Rows of one-line cell texts as lines of a monospace table: the cells padded to
    their column's width and separated by `` | ``, the header ruled off with ``-+-``."""
    grid = [list(r) for r in rows]
    if not grid:
        return []
    widths = [max(width(r[i]) for r in grid) for i in range(len(grid[0]))]

    def line(cells: list[str]) -> str:
        return " | ".join(c + " " * (w - width(c)) for c, w in zip(cells, widths, strict=True)).rstrip()

    rule = "-+-".join("-" * w for w in widths)
    return [line(grid[0]), rule, *(line(r) for r in grid[1:])]


def defang_links(text: str) -> str:
    """``text`` with a zero-width space where a forum would otherwise see the start of a
    bare link (after the ``:`` of ``http://``, after ``www``, after the ``@`` of an
    address): it reads the same, and links nowhere."""
    return _LINK_STARTS.sub("\u200b", text)

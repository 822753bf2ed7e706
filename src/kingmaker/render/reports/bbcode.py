"""BBCode for phpBB: only ``[b]``, ``[i]``, ``[u]``, ``[color=#hex]``, ``[list][*]``,
``[quote]`` and ``[code]``. Headings are bold (and underlined at the top level); what
is to be typed exactly is bold, as phpBB has no inline code tag. A table is a ``[code]``
block of aligned columns: ``[table]`` is an extension few boards have."""

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
    aligned,
    defang_links,
    one_line,
    plain,
)

# a "[" that could open or close a tag, phpBB's own or any a board adds ([spoiler], ...):
# a tag name, then "]", "=" or a space ("[TURN.end]" is no tag)
_TAG = re.compile(r"\[(?=/?(?:\*|[A-Za-z][A-Za-z0-9_-]*)(?:[\]=]|\s|$))")
_CODE_END = re.compile(r"\[(?=/code\])", re.I)
_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


def escape(text: str) -> str:
    """Text that phpBB prints as written, on one line (``one_line``): a ``[`` that could
    open a tag is followed by a zero-width space, and so are the starts of what the
    board would turn into a link by itself (``http://``, ``www.``, ``name@host``)."""
    return _TAG.sub("[\u200b", defang_links(one_line(text)))


def inline(content: Iterable[Inline]) -> str:
    out = []
    for node in content:
        if isinstance(node, Text):
            out.append(escape(node.text))
        elif isinstance(node, Code):
            out.append(f"[b]{escape(node.text)}[/b]")
        elif isinstance(node, Bold):
            out.append(f"[b]{inline(node.children)}[/b]")
        elif isinstance(node, Italic):
            out.append(f"[i]{inline(node.children)}[/i]")
        elif isinstance(node, Colour):
            inner = inline(node.children)
            out.append(f"[color={node.colour}]{inner}[/color]" if _HEX.match(node.colour) else inner)
    return "".join(out)


def _list(items: Iterable[Item]) -> str:
    lines = ["[list]"]
    for it in items:
        lines.append("[*]" + inline(it.content))
        if it.children:
            lines.append(_list(it.children))
    lines.append("[/list]")
    return "\n".join(lines)


def block(b: Block) -> str:
    if isinstance(b, Heading):
        text = inline(b.content)
        return {1: f"[b][u]{text}[/u][/b]", 2: f"[b]{text}[/b]"}.get(b.level, f"[u]{text}[/u]")
    if isinstance(b, Paragraph):
        return inline(b.content)
    if isinstance(b, BulletList):
        return _list(b.items)
    if isinstance(b, Quote):
        return "[quote]" + "\n\n".join(block(x) for x in b.blocks) + "[/quote]"
    if isinstance(b, CodeBlock):
        return "[code]" + _CODE_END.sub("[\u200b", b.text) + "[/code]"
    if isinstance(b, Table):
        rows = [[escape(plain(cell)) for cell in row] for row in (b.header, *b.rows)]
        return "[code]" + "\n".join(aligned(rows)) + "[/code]"
    raise TypeError(f"unknown block {b!r}")


def render(doc: Document) -> str:
    return "\n\n".join(block(b) for b in doc.blocks) + "\n"

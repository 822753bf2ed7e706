"""Plain text: headings underlined, lists with hyphens, quotes with ``>``, tables as
aligned columns; no markup beyond backticks around what is to be typed exactly."""

from __future__ import annotations

from collections.abc import Iterable

from .document import (
    Block,
    BulletList,
    Code,
    CodeBlock,
    Document,
    Heading,
    Inline,
    Item,
    Paragraph,
    Quote,
    Table,
    Text,
    aligned,
    one_line,
)

_UNDERLINE = {1: "=", 2: "-"}


def inline(content: Iterable[Inline]) -> str:
    out = []
    for node in content:
        if isinstance(node, Text):
            out.append(one_line(node.text))
        elif isinstance(node, Code):
            out.append(f"`{one_line(node.text)}`")
        else:
            out.append(inline(node.children))
    return "".join(out)


def _items(items: Iterable[Item], depth: int) -> list[str]:
    lines = []
    for it in items:
        lines.append("  " * depth + "- " + inline(it.content))
        lines.extend(_items(it.children, depth + 1))
    return lines


def block(b: Block) -> str:
    if isinstance(b, Heading):
        text = inline(b.content)
        mark = _UNDERLINE.get(b.level)
        return f"{text}\n{mark * len(text)}" if mark else f"{text}:"
    if isinstance(b, Paragraph):
        return inline(b.content)
    if isinstance(b, BulletList):
        return "\n".join(_items(b.items, 0))
    if isinstance(b, Quote):
        inner = "\n\n".join(block(x) for x in b.blocks)
        return "\n".join(("> " + line).rstrip() for line in inner.split("\n"))
    if isinstance(b, CodeBlock):
        return "\n".join("    " + line for line in b.text.split("\n"))
    if isinstance(b, Table):
        return "\n".join(aligned([inline(cell) for cell in row] for row in (b.header, *b.rows)))
    raise TypeError(f"unknown block {b!r}")


def render(doc: Document) -> str:
    return "\n\n".join(block(b) for b in doc.blocks) + "\n"

"""HTML for the reports' ``Document`` model (beside its BBCode, Markdown and plain text
renderers): headings, paragraphs, nested lists, quotes, code, tables; faction names in
their colours. Every text is escaped; a colour is used only when it is a ``#rgb`` or
``#rrggbb`` value."""

from __future__ import annotations

import re
from collections.abc import Iterable
from html import escape

from markupsafe import Markup

from kingmaker.render.reports.document import (
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
)

_COLOUR = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")


def inline(content: Iterable[Inline]) -> str:
    out = []
    for node in content:
        if isinstance(node, Text):
            out.append(escape(node.text))
        elif isinstance(node, Code):
            out.append(f"<code>{escape(node.text)}</code>")
        elif isinstance(node, Bold):
            out.append(f"<strong>{inline(node.children)}</strong>")
        elif isinstance(node, Italic):
            out.append(f"<em>{inline(node.children)}</em>")
        elif isinstance(node, Colour):
            style = f' style="color:{node.colour}"' if _COLOUR.match(node.colour) else ""
            out.append(f'<span class="faction"{style}>{inline(node.children)}</span>')
    return "".join(out)


def _items(items: Iterable[Item]) -> str:
    parts = []
    for it in items:
        sub = f"<ul>{_items(it.children)}</ul>" if it.children else ""
        parts.append(f"<li>{inline(it.content)}{sub}</li>")
    return "".join(parts)


def _rows(t: Table) -> str:
    """Each row with its first cell as the row's header."""
    out = []
    for row in t.rows:
        first, rest = (row[0], row[1:]) if row else ((), ())
        cells = "".join(f"<td>{inline(c)}</td>" for c in rest)
        out.append(f'<tr><th scope="row">{inline(first)}</th>{cells}</tr>')
    return "".join(out)


def block(b: Block, shift: int = 1) -> str:
    if isinstance(b, Heading):
        level = min(6, b.level + shift)
        return f"<h{level}>{inline(b.content)}</h{level}>"
    if isinstance(b, Paragraph):
        return f"<p>{inline(b.content)}</p>"
    if isinstance(b, BulletList):
        return f"<ul>{_items(b.items)}</ul>"
    if isinstance(b, Quote):
        return "<blockquote>" + "".join(block(x, shift) for x in b.blocks) + "</blockquote>"
    if isinstance(b, CodeBlock):
        return f"<pre><code>{escape(b.text)}</code></pre>"
    if isinstance(b, Table):
        head = "".join(f'<th scope="col">{inline(c)}</th>' for c in b.header)
        return f'<table class="report-table"><thead><tr>{head}</tr></thead><tbody>{_rows(b)}</tbody></table>'
    raise TypeError(f"unknown block {b!r}")


def render_html(doc: Document, *, shift: int = 1) -> Markup:
    """``doc`` as an HTML fragment; headings moved down ``shift`` levels (the page has
    its own ``<h1>``)."""
    return Markup("\n".join(block(b, shift) for b in doc.blocks))  # every text is escaped above

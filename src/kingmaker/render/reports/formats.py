"""One entry point for the three formats."""

from __future__ import annotations

from typing import Literal, get_args

from . import bbcode, markdown, plain
from .document import Document

Format = Literal["bbcode", "markdown", "plain"]
FORMATS: tuple[Format, ...] = get_args(Format)
EXTENSIONS: dict[Format, str] = {"bbcode": "bbcode", "markdown": "md", "plain": "txt"}


def render(doc: Document, fmt: Format) -> str:
    """``doc`` as BBCode, Markdown or plain text."""
    if fmt == "bbcode":
        return bbcode.render(doc)
    if fmt == "markdown":
        return markdown.render(doc)
    if fmt == "plain":
        return plain.render(doc)
    raise ValueError(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})")

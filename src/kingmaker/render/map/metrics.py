"""How much room a line of text takes on the map: DejaVu Sans's advance widths (the font
the SVG names first and CairoSVG and Pillow draw with), read from ``dejavu_widths.json``
so that label boxes are the same on every machine, with or without the font installed.

A character outside the table counts a full em, as wide as the widest Latin letters
and the ideographs of the fonts that stand in for it.

>>> round(text_width("London", 10), 1)
36.8
>>> round(text_width("London", 10, bold=True), 1)
41.5
>>> box = text_box(100, 50, "York", 10, "start")
>>> (box.x0, round(box.y0, 1), round(box.x1, 1), round(box.y1, 1))
(100, 40.7, 122.1, 52.4)
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from importlib import resources
from typing import Any, Literal

Anchor = Literal["start", "middle", "end"]


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned rectangle: left, top, right, bottom (y grows downwards)."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    def overlaps(self, other: Box) -> bool:
        """Whether the two boxes share any area (touching edges do not)."""
        return self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1

    def inside(self, outer: Box) -> bool:
        return self.x0 >= outer.x0 and self.y0 >= outer.y0 and self.x1 <= outer.x1 and self.y1 <= outer.y1

    def grown(self, by: float) -> Box:
        return Box(self.x0 - by, self.y0 - by, self.x1 + by, self.y1 + by)

    def moved(self, dx: float, dy: float) -> Box:
        return Box(self.x0 + dx, self.y0 + dy, self.x1 + dx, self.y1 + dy)


@functools.cache
def _table() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("dejavu_widths.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@functools.cache
def _widths(style: str) -> tuple[dict[str, float], float]:
    t = _table()
    per_em = float(t["units_per_em"])
    st = t["styles"][style]
    first = int(t["first"])
    out = {chr(first + i): w / per_em for i, w in enumerate(st["range"]) if w}
    out.update({chr(int(k, 16)): w / per_em for k, w in st["extra"].items()})
    return out, max(out["M"], 1.0)  # a character the table lacks: a full em (CJK, symbols)


def _style(bold: bool, italic: bool) -> str:
    return {(False, False): "regular", (True, False): "bold", (False, True): "italic"}.get(
        (bold, italic), "bold_italic"
    )


def text_width(text: str, size: float, *, bold: bool = False, italic: bool = False) -> float:
    """The advance width of ``text`` at font ``size`` (the sum of its characters')."""
    widths, wide = _widths(_style(bold, italic))
    return sum(widths.get(ch, wide) for ch in text) * size


def ascent(size: float) -> float:
    """How far the font's tallest glyphs (accents included) rise above the baseline."""
    t = _table()
    return size * float(t["ascent"]) / float(t["units_per_em"])


def descent(size: float) -> float:
    """How far the font's glyphs reach below the baseline."""
    t = _table()
    return size * float(t["descent"]) / float(t["units_per_em"])


def text_box(
    x: float, y: float, text: str, size: float, anchor: Anchor, *, bold: bool = False, italic: bool = False
) -> Box:
    """The box a line of ``text`` drawn at (x, y) (baseline, ``anchor`` as SVG's
    ``text-anchor``) covers."""
    w = text_width(text, size, bold=bold, italic=italic)
    left = {"start": x, "middle": x - w / 2, "end": x - w}[anchor]
    return Box(left, y - ascent(size), left + w, y + descent(size))

"""The map as plain shapes (``Shape``, grouped under one tooltip in a ``Group``) and
the palette: what ``build_map`` draws and both renderers (``svg``, ``png``) read."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Point = tuple[float, float]
ShapeKind = Literal["polygon", "polyline", "circle", "rect", "text"]


SEA = "#cfe3f0"
LAND = "#f4efe1"
COAST = "#8a9a8a"
ROAD = "#9c5a33"
CROSS = "#8d8d8d"
INK = "#2b2b2b"
SEA_INK = "#2c5d85"
NEUTRAL = "#ffffff"
LANCASTER = "#c62828"
YORK = "#fafafa"


@dataclass(frozen=True, slots=True)
class Shape:
    kind: ShapeKind
    points: tuple[Point, ...]
    r: float = 0.0  # circle radius; rect: (points[0] = top left, points[1] = size)
    fill: str | None = None
    stroke: str | None = None
    width: float = 1.0
    dash: bool = False
    opacity: float = 1.0
    text: str = ""
    size: float = 8.0
    anchor: Literal["start", "middle", "end"] = "start"
    italic: bool = False
    bold: bool = False
    halo: bool = False  # text drawn over a white outline


@dataclass(frozen=True, slots=True)
class Group:
    """Shapes with one tooltip: ``title`` (the SVG <title>), ``details`` (the details
    panel), and data attributes (``data-place``, ``data-unit``, ...)."""

    cls: str
    shapes: tuple[Shape, ...]
    title: str = ""
    details: str = ""
    data: tuple[tuple[str, str], ...] = ()
    ident: str | None = None


@dataclass(frozen=True)
class MapModel:
    width: int
    height: int
    title: str
    description: str
    groups: tuple[Group, ...]

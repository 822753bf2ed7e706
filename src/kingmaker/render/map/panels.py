"""The panels of the posted map: the caption, the legend (with who is held captive)
and the panel of crowded places (the counters of a place with no room for them near
it, numbered). Each is a group of shapes and the box the labels keep off."""

from __future__ import annotations

from kingmaker.rules.board import Board, PlaceKind
from kingmaker.rules.cards import Catalog
from kingmaker.rules.views import View
from kingmaker.service.settings import GREY

from .counters import ARMY, COUNTER_H, GOLD, SHIP, Block, Counter, NameStyle, stack_shapes
from .draw import KIND_LABELS, Styles, place_symbol
from .geometry import Geometry
from .metrics import Box, ascent, descent, text_width
from .shapes import COAST, CROSS, INK, NEUTRAL, ROAD, SEA_INK, Group, Shape


def panel(x: float, y: float, w: float, h: float) -> Shape:
    return Shape("rect", ((x, y), (w, h)), fill="#ffffff", stroke=COAST, width=1.0, opacity=0.94)


def caption_panel(caption: str, note: str) -> tuple[Group, Box]:
    big, small = 13.0, 8.0
    w = max(text_width(caption, big, bold=True), text_width(note, small, italic=True)) + 16
    h = 10 + ascent(big) + descent(big) + 4 + ascent(small) + descent(small) + 6
    x0, y0 = 8.0, 8.0
    shapes = [
        panel(x0, y0, w, h),
        Shape("text", ((x0 + 8, y0 + 8 + ascent(big)),), text=caption, size=big, bold=True, fill=INK),
        Shape(
            "text",
            ((x0 + 8, y0 + 8 + ascent(big) + descent(big) + 4 + ascent(small)),),
            text=note,
            size=small,
            italic=True,
            fill=INK,
        ),
    ]
    return Group("caption", tuple(shapes), caption), Box(x0, y0, x0 + w, y0 + h)


LEGEND_ROW = 12.5
LEGEND_TEXT = 8.0


def legend_panel(
    geo: Geometry, v: View, styles: Styles, board: Board, catalog: Catalog, *, top: float
) -> tuple[Group, Box]:
    """The key: place kinds, sides, counters, roads; and who is held captive."""
    kinds = [k for k in KIND_LABELS if any(p.kind is k for p in board.places.values())]
    rows: list[
        tuple[list[Shape], str, bool]
    ] = []  # (sample shapes at (0, 0) = the row's middle left, text, italic)
    for k in kinds:
        label = KIND_LABELS[k] + (" (name in italics)" if k is PlaceKind.COUNTRY else "")
        rows.append((place_symbol(k, 8, 0, NEUTRAL), label, False))
    for f in v.turn_order:
        swatch = [Shape("rect", ((2, -5), (12, 10)), fill=styles.colour(f), stroke=INK, width=0.8)]
        rows.append((swatch, styles.name(f) + (" (to play)" if f == v.turn else ""), False))

    def sample(text: str, fill: str, *, inside: bool = False, border: str = INK) -> list[Shape]:
        c = Counter(text, fill, inside, border)
        return stack_shapes([c], Box(0, -COUNTER_H / 2, c.width, COUNTER_H / 2))

    rows += [
        (sample("Noble", GREY, inside=True), "Noble (the dot: inside the walls)", False),
        (sample(ARMY + "Army", GREY), "Army: its nobles, senior first", False),
        (sample(SHIP + "Ship", GREY), "Ship, and who is aboard", False),
        (
            sample("Heir (Y2)", "#fafafa", border=GOLD),
            "Royal heir: Y2 is York's second (\u2654 crowned)",
            False,
        ),
        (
            [
                Shape("circle", ((8, 0),), r=6, fill=None, stroke=INK, width=3.2),
                Shape("circle", ((8, 0),), r=6, fill=None, stroke="#ffffff", width=1.6, dash=True),
            ],
            "Siege: ringed in the besieger's colour",
            False,
        ),
        ([Shape("polyline", ((0, 0), (16, 0)), stroke=ROAD, width=1.4)], "Road", False),
        (
            [Shape("polyline", ((0, 0), (16, 0)), stroke=CROSS, width=0.8, dash=True)],
            "Cross-country link",
            False,
        ),
        (
            [Shape("circle", ((8, 0),), r=6, fill=None, stroke=SEA_INK, dash=True)],
            "Off-map (reached by sea)",
            False,
        ),
    ]
    captives = sorted((n for n in v.nobles if n.captive_of), key=lambda n: n.id)
    extra = [f"{catalog.name_of(n.id)} (held by {styles.name(n.captive_of)})" for n in captives]
    text_x = 8 + max(_right_of(shapes) for shapes, _, _ in rows) + 8
    width = max(
        [text_width(t, LEGEND_TEXT) for _, t, _ in rows]
        + [text_width(t, LEGEND_TEXT) + 6 for t in extra]
        + [text_width("Held captive", LEGEND_TEXT, bold=True)]
    )
    w = text_x + width + 10
    h = 22 + len(rows) * LEGEND_ROW + (8 + (len(extra) + 1) * LEGEND_ROW if extra else 0) + 4
    x0, y0 = geo.width - w - 8, top
    shapes: list[Shape] = [panel(x0, y0, w, h)]
    shapes.append(Shape("text", ((x0 + 8, y0 + 15),), text="Legend", size=10, bold=True, fill=INK))
    y = y0 + 22 + LEGEND_ROW / 2
    for sample_shapes, text, italic in rows:
        shapes += [_moved(s, x0 + 8, y) for s in sample_shapes]
        shapes.append(
            Shape("text", ((x0 + text_x, y + 3),), text=text, size=LEGEND_TEXT, italic=italic, fill=INK)
        )
        y += LEGEND_ROW
    if extra:
        y += 8
        shapes.append(
            Shape("text", ((x0 + 8, y + 3),), text="Held captive", size=LEGEND_TEXT, bold=True, fill=INK)
        )
        for t in extra:
            y += LEGEND_ROW
            shapes.append(Shape("text", ((x0 + 14, y + 3),), text=t, size=LEGEND_TEXT, fill=INK))
    return Group("legend", tuple(shapes), "Legend"), Box(x0, y0, x0 + w, y0 + h)


def _right_of(shapes: list[Shape]) -> float:
    """How far right a legend sample reaches from its left edge."""
    right = 0.0
    for s in shapes:
        if s.kind == "rect":
            right = max(right, s.points[0][0] + s.points[1][0])
        elif s.kind == "circle":
            right = max(right, s.points[0][0] + s.r)
        elif s.kind == "text":
            x = s.points[0][0]
            right = max(right, x + text_width(s.text, s.size, bold=s.bold, italic=s.italic))
        else:
            right = max(right, *(x for x, _ in s.points))
    return right


def _moved(s: Shape, dx: float, dy: float) -> Shape:
    if s.kind == "rect":
        (x, y), size = s.points
        pts: tuple[tuple[float, float], ...] = ((x + dx, y + dy), size)
    else:
        pts = tuple((x + dx, y + dy) for x, y in s.points)
    return Shape(
        s.kind,
        pts,
        s.r,
        s.fill,
        s.stroke,
        s.width,
        s.dash,
        s.opacity,
        s.text,
        s.size,
        s.anchor,
        s.italic,
        s.bold,
        s.halo,
    )


def crowded_panel(
    items: list[tuple[int, str, tuple[Counter, ...]]], geo: Geometry, avoid: list[Box]
) -> tuple[Group, Box]:
    """The panel of crowded places: for each, its number and name, and its counters in
    columns; side by side, in rows no wider than half the map; in a corner that covers
    no place (bottom left first)."""
    title = "Crowded places (the counters of each)"
    pad, gap = 7.0, 12.0
    cells: list[tuple[float, float, Block]] = []
    for k, name, counters in items:
        block = Block(f"{k}  {name}", NameStyle(8.0, bold=True), counters)
        w, h = block.size
        cells.append((w, h, block))
    max_w = geo.width * 0.5
    rows: list[list[tuple[float, float, Block]]] = [[]]
    for cell in cells:
        row_w = sum(c[0] for c in rows[-1]) + gap * len(rows[-1])
        if rows[-1] and row_w + cell[0] > max_w:
            rows.append([])
        rows[-1].append(cell)
    head = ascent(9.0) + descent(9.0) + 4
    width = max(text_width(title, 9.0, bold=True), *(sum(c[0] for c in r) + gap * (len(r) - 1) for r in rows))
    height = head + sum(max(c[1] for c in r) for r in rows) + gap * (len(rows) - 1)
    w, h = width + 2 * pad, height + 2 * pad
    corners = [
        (8.0, geo.height - 8 - h),
        (geo.width - 8 - w, geo.height - 8 - h),
        (8.0, geo.height / 2 - h / 2),
    ]
    x0, y0 = corners[0]
    for cx, cy in corners:
        box = Box(cx, cy, cx + w, cy + h)
        if not any(box.overlaps(b) for b in avoid):
            x0, y0 = cx, cy
            break
    shapes: list[Shape] = [
        panel(x0, y0, w, h),
        Shape("text", ((x0 + pad, y0 + pad + ascent(9.0)),), text=title, size=9.0, bold=True, fill=INK),
    ]
    y = y0 + pad + head
    for r in rows:
        x = x0 + pad
        for cw, ch, block in r:
            n, c = block.shapes(Box(x, y, x + cw, y + ch), right=False)
            shapes += [*n, *c]
            x += cw + gap
        y += max(c[1] for c in r) + gap
    return Group("crowded", tuple(shapes), title), Box(x0, y0, x0 + w, y0 + h)

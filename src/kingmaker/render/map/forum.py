"""The map a GM posts in the thread: 1600 pixels wide, every place named, every noble,
army, ship and heir a labelled counter in its side's colour, sieges ringed and told, a
caption ("Round 4, after Red's turn") and the legend; no two labels overlapping
(``labels.place`` finds each one room, with a leader line when it must stand off).

Like ``build_map`` it is a pure function of the board, the card names, the factions'
names and colours and one viewer's ``View``: the public's map shows what the thread may
see, a faction's what its player may (``rules.views`` decides it; nothing else is read).
``ForumMap.labels`` keeps every label's box, so tests can check the layout itself.

>>> from kingmaker.data import load_dataset
>>> from kingmaker.rules.deal import new_game
>>> from kingmaker.rules.views import view
>>> ds = load_dataset()
>>> state = new_game(ds.board, ds.catalog, ("red", "blue"), "doc")
>>> fm = forum_map(ds.board, ds.catalog, view(state, "public"), Styles({}, {}), caption="Round 1")
>>> round(fm.model.width * fm.scale)
1600
>>> overlapping(fm.labels)
[]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from kingmaker.rules.board import Board, Place, PlaceKind
from kingmaker.rules.cards import Catalog
from kingmaker.rules.views import PUBLIC, View

from .counters import Block, Counter, NameStyle, heir_label, stacks_of
from .draw import Styles, place_symbol
from .geometry import Geometry, geometry
from .labels import CENTRED, Placed, Request, overlapping, place
from .metrics import Box
from .panels import caption_panel, crowded_panel, legend_panel
from .png import png
from .shapes import COAST, CROSS, INK, LAND, NEUTRAL, ROAD, SEA, SEA_INK, Group, MapModel, Shape

__all__ = [
    "FORUM_WIDTH",
    "SCALE",
    "ForumMap",
    "forum_geometry",
    "forum_map",
    "forum_png",
    "heir_label",
    "overlapping",
]

FORUM_WIDTH = 1600  # pixels: what reads in a forum post without zooming
DRAW_WIDTH = 1000  # the drawing's own units; the PNG is drawn FORUM_WIDTH / DRAW_WIDTH larger
SCALE = FORUM_WIDTH / DRAW_WIDTH
LEADER = "#3a3a3a"

NAME_STYLES: dict[PlaceKind, NameStyle] = {
    PlaceKind.CITY: NameStyle(9.5, bold=True, priority=1),
    PlaceKind.TOWN: NameStyle(8.2, priority=2),
    PlaceKind.ROYAL_CASTLE: NameStyle(7.8, bold=True, fill="#5c4300", priority=3),
    PlaceKind.CASTLE: NameStyle(7.2, priority=4),
    PlaceKind.UNFORTIFIED_TOWN: NameStyle(6.9, fill="#3d3d3d", priority=5),
    PlaceKind.OPEN_TOWN: NameStyle(6.9, fill="#3d3d3d", priority=5),
    PlaceKind.COUNTRY: NameStyle(6.4, italic=True, fill="#5e5e5e", priority=6),
}
SYMBOL_RADIUS: dict[PlaceKind, float] = {
    PlaceKind.CITY: 7.0,
    PlaceKind.TOWN: 6.4,
    PlaceKind.ROYAL_CASTLE: 8.6,
    PlaceKind.CASTLE: 7.0,
    PlaceKind.UNFORTIFIED_TOWN: 4.2,
    PlaceKind.OPEN_TOWN: 4.2,
    PlaceKind.COUNTRY: 2.2,
}
SEA_STYLE = NameStyle(9.0, italic=True, fill=SEA_INK, priority=7)
SIEGE_RADIUS = 14.0
BLOCK_REACH = 95.0  # how far a stack may stand from its place (with a leader) before it goes to the panel
OFFMAP_RADIUS = 11.0


@dataclass(frozen=True)
class ForumMap:
    """The posted map: the drawing, every label's box (a place's or a sea's name, with
    the counters that stand there under it), the panels the labels keep off (caption,
    legend, and the crowded places when there are any), the picture's bounds, what each
    label says (for a crowded place, what stands there), the crowded places in their
    panel's order, and how much larger the PNG is drawn (``scale``)."""

    model: MapModel
    labels: tuple[Placed, ...]
    panels: tuple[Box, ...]
    bounds: Box
    contents: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # label -> its name, its counters
    crowded: tuple[str, ...] = ()  # the labels whose counters stand in the panel of crowded places, in order
    scale: float = SCALE


def forum_geometry(board: Board) -> Geometry:
    """The board projected for the posted map (``DRAW_WIDTH`` units wide)."""
    return geometry(board, DRAW_WIDTH)


def forum_png(fm: ForumMap) -> bytes:
    """The posted map as a PNG, ``FORUM_WIDTH`` pixels wide."""
    return png(fm.model, scale=fm.scale)


def _symbol_radius(p: Place, besieged: bool) -> float:
    r = SYMBOL_RADIUS[p.kind]
    if p.offmap:
        r = max(r, OFFMAP_RADIUS)
    if besieged:
        r = max(r, SIEGE_RADIUS)
    return r


def forum_map(
    board: Board,
    catalog: Catalog,
    v: View,
    styles: Styles,
    *,
    caption: str,
    note: str | None = None,
    geo: Geometry | None = None,
) -> ForumMap:
    """The map to post for ``v``'s viewer, with ``caption`` ("Wars of the Roses: round
    4, after Red's turn") and a ``note`` under it (default: whose view it is)."""
    geo = geo or forum_geometry(board)
    bounds = Box(0, 0, geo.width, geo.height)
    control = dict(v.control)
    sieges = {s.place: s for s in v.sieges}
    stacks = stacks_of(board, catalog, v, styles)
    note = note if note is not None else _whose(v, styles)
    caption_group, caption_box = caption_panel(caption, note)
    legend_group, legend_box = legend_panel(geo, v, styles, board, catalog, top=8.0)
    panels = (caption_box, legend_box)

    groups: list[Group] = [
        Group("sea", (Shape("rect", ((0, 0), (geo.width, geo.height)), fill=SEA),)),
        Group("land", tuple(Shape("polygon", poly, fill=LAND, stroke=COAST, width=1.0) for poly in geo.land)),
        Group(
            "cross",
            tuple(
                Shape("polyline", pair, stroke=CROSS, width=0.8, dash=True, opacity=0.7) for pair in geo.cross
            ),
        ),
        Group(
            "roads",
            tuple(Shape("polyline", line, stroke=ROAD, width=1.4, opacity=0.75) for line in geo.roads),
        ),
    ]
    symbols: list[Shape] = []
    points: list[tuple[str, Place, float]] = []  # (key, place, the radius its label keeps clear)
    for p in sorted(board.places.values(), key=lambda p: (p.kind is not PlaceKind.COUNTRY, p.id)):
        if p.id not in geo.places:
            continue
        x, y = geo.places[p.id]
        holder = control.get(p.id)
        fill = styles.colour(holder) if p.kind.controllable else (NEUTRAL if p.kind.is_location else CROSS)
        shapes = place_symbol(p.kind, x, y, fill)
        if p.offmap:
            shapes.insert(
                0, Shape("circle", ((x, y),), r=10.5, fill=None, stroke=SEA_INK, width=1.0, dash=True)
            )
        siege = sieges.get(p.id)
        if siege is not None:
            shapes[:0] = [
                Shape("circle", ((x, y),), r=12.5, fill=None, stroke=INK, width=4.2),
                Shape(
                    "circle",
                    ((x, y),),
                    r=12.5,
                    fill=None,
                    stroke=styles.colour(siege.by),
                    width=2.6,
                    dash=True,
                ),
            ]
        symbols += shapes
        points.append((f"place:{p.id}", p, _symbol_radius(p, siege is not None)))
    symbol_boxes = [Box(*_sq(geo.places[p.id], r)) for _, p, r in points]

    # the stacks stand under their place's name, beside it; a stack with no room near
    # its place (a crowded county) goes to the panel of crowded places, numbered, and
    # its place's label says where (a second layout keeps off that panel)
    crowded: list[str] = []
    callout: tuple[Group, Box] | None = None
    for attempt in range(3):
        last = attempt == 2
        blocks: dict[str, Block] = {}
        requests: list[Request] = []
        for key, p, r in points:
            x, y = geo.places[p.id]
            here = tuple(stacks.get(p.id, ()))
            if key in crowded:
                here = (Counter(f"\u2192 see {crowded.index(key) + 1}", "#3a3a3a"),)
            block = Block(p.name, NAME_STYLES[p.kind], here)
            blocks[key] = block
            w, h = block.size
            priority = 0 if block.counters else block.style.priority
            own = Box(*_sq((x, y), r))
            reach = BLOCK_REACH if block.counters else 110.0
            optional = bool(block.counters) and key not in crowded and not last
            requests.append(
                Request(key, w, h, (x, y), r, priority, gap=1.0, reach=reach, symbol=own, optional=optional)
            )
        for sid, (x, y) in sorted(geo.seas.items()):
            block = Block(board.seas[sid].name, SEA_STYLE, tuple(stacks.get(sid, ())), centred=True)
            key = f"sea:{sid}"
            blocks[key] = block
            w, h = block.size
            priority = 0 if block.counters else 7  # a sea's name makes way for the places' (it may move)
            requests.append(
                Request(key, w, h, (x, y), 0.0, priority, CENTRED, gap=0.0, reach=90, leader=False)
            )
        # the biggest stacks choose first: they are the hardest to fit near their place
        requests.sort(key=lambda r: (r.priority, -r.width * r.height if r.priority == 0 else 0.0))
        obstacles = [*panels, callout[1]] if callout is not None else list(panels)
        placed = place(requests, bounds=bounds, obstacles=obstacles)
        missing = [k for k in blocks if k not in placed]
        if not missing:
            break
        crowded += sorted(missing, key=lambda k: blocks[k].name)
        items = [
            (i + 1, board.name_of(k.split(":", 1)[1]), tuple(stacks[k.split(":", 1)[1]]))
            for i, k in enumerate(crowded)
        ]
        callout = crowded_panel(items, geo, [*panels, *symbol_boxes])

    leaders: list[Shape] = []
    for pl in placed.values():
        if pl.leader is not None:
            leaders += [
                Shape("polyline", pl.leader, stroke="#ffffff", width=2.2, opacity=0.8),
                Shape("polyline", pl.leader, stroke=LEADER, width=0.8),
                Shape("circle", (pl.leader[0],), r=1.1, fill=LEADER),
            ]
    groups.append(Group("leaders", tuple(leaders)))
    groups.append(Group("places", tuple(symbols)))
    names: list[Shape] = []
    counters: list[Shape] = []
    for key, pl in placed.items():
        block = blocks[key]
        right = pl.box.x1 <= pl.at[0] + 0.5  # left of its point: aligned to the point's side
        n, c = block.shapes(pl.box, right)
        names += n
        counters += c
    groups.append(Group("names", tuple(names)))
    groups.append(Group("counters", tuple(counters)))
    groups += [legend_group, caption_group]
    if callout is not None:
        groups.append(callout[0])
    all_panels = (*panels, callout[1]) if callout is not None else panels
    desc = (
        "Map of England and Wales for the thread: every place named, nobles, armies, ships and heirs as "
        "counters in their side's colours, sieges, the caption and the legend."
    )
    model = MapModel(geo.width, geo.height, caption, desc, tuple(groups))
    contents = {k: (b.name, *(c.text for c in b.counters)) for k, b in blocks.items()}
    for k in crowded:  # what stands there is in the panel
        contents[k] = (blocks[k].name, *(c.text for c in stacks[k.split(":", 1)[1]]))
    return ForumMap(model, tuple(placed.values()), all_panels, bounds, contents, tuple(crowded))


def _sq(at: tuple[float, float], r: float) -> tuple[float, float, float, float]:
    return (at[0] - r, at[1] - r, at[0] + r, at[1] + r)


def _whose(v: View, styles: Styles) -> str:
    if v.viewer == PUBLIC:
        return "The public map: what every player may see."
    if v.viewer == "gm":
        return "The GM's map."
    return f"{styles.name(v.viewer)}'s map: what {styles.name(v.viewer)} may see."


# -- panels -------------------------------------------------------------------------------

"""What a label on the posted map holds: a place's (or a sea's) name and, under it, the
counters that stand there, each a small box in its side's colour (``Counter``, laid out
by ``Block``), read from one viewer's ``View`` (``stacks_of``)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from kingmaker.rules.board import Board
from kingmaker.rules.cards import Catalog
from kingmaker.rules.views import View

from .draw import Styles
from .metrics import Box, ascent, descent, text_width
from .shapes import INK, Shape

HALO = 1.2  # the white outline round a place's name
GOLD = "#b8860b"


@dataclass(frozen=True)
class NameStyle:
    """How a name is written: its size and face, its colour, and how early its label is
    placed (lower first)."""

    size: float
    bold: bool = False
    italic: bool = False
    fill: str = INK
    priority: int = 5


# counters
COUNTER_SIZE = 7.0  # font size of a counter's text
COUNTER_PAD = 2.2
COUNTER_H = ascent(COUNTER_SIZE) + descent(COUNTER_SIZE) + 2 * 1.3
COUNTER_GAP = 1.2
DOT = 4.2  # room for the "inside" dot
ARMY = "\u2694 "  # crossed swords
SHIP = "\u2693 "  # anchor
CROWN = "\u2654 "  # a crowned heir


def ink_on(colour: str) -> str:
    """Black or white text, whichever reads on ``colour``."""
    c = colour.lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    try:
        r, g, b = (int(c[i : i + 2], 16) for i in (0, 2, 4))
    except ValueError:
        return "#ffffff"
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


@dataclass(frozen=True)
class Counter:
    """One counter of a stack: ``text`` on ``fill``, a dot when inside the walls, a
    gold border for a royal heir, a dashed one for a siege."""

    text: str
    fill: str
    inside: bool = False
    border: str = INK
    dashed: bool = False
    italic: bool = False

    @property
    def width(self) -> float:
        w = text_width(self.text, COUNTER_SIZE, bold=not self.italic, italic=self.italic)
        return w + 2 * COUNTER_PAD + (DOT if self.inside else 0.0)


def stacks_of(board: Board, catalog: Catalog, v: View, styles: Styles) -> dict[str, list[Counter]]:
    """The counters at each place or sea zone, from the view: a siege first, then the
    nobles (an army as one counter naming its nobles, senior first), ships (with who is
    aboard), heirs."""
    spots: dict[str, list[Counter]] = {}
    nobles = {n.id: n for n in v.nobles}
    army_of = {u: a for a in v.armies if not a.fleet for u in a.units}
    name = catalog.name_of
    for siege in v.sieges:
        spots.setdefault(siege.place, []).append(
            Counter(
                f"{ARMY}besieged by {styles.name(siege.by)}",
                "#ffffff",
                border=styles.colour(siege.by),
                dashed=True,
                italic=True,
            )
        )
    heir_nobles = {
        card.noble: h
        for h in v.heirs
        if (card := catalog.heirs.get(h.id)) is not None
        and card.noble is not None
        and card.noble == h.with_noble
    }
    done: set[str] = set()
    for n in sorted(v.nobles, key=lambda x: (x.faction or "~", x.id)):
        if n.place is None or n.aboard is not None or n.captive_of is not None or n.id in done:
            continue
        army = army_of.get(n.id)
        if army is not None:
            members = [m for m in army.units if m in nobles]
            senior = army.senior if army.senior in members else members[0]
            ordered = [senior, *(m for m in members if m != senior)]
            done.update(members)
            colour = styles.colour(nobles[senior].faction)
            text = ARMY + ", ".join(name(m) for m in ordered)
            spots.setdefault(n.place, []).append(Counter(text, colour, n.inside))
            continue
        done.add(n.id)
        heir = heir_nobles.get(n.id)
        if heir is not None:  # a noble who is himself an heir (Beaufort)
            text = (CROWN if heir.crowned else "") + f"{name(n.id)} ({heir.house[:1].upper()}{heir.order})"
            counter = Counter(text, styles.colour(n.faction), n.inside, border=GOLD)
        else:
            counter = Counter(name(n.id), styles.colour(n.faction), n.inside)
        spots.setdefault(n.place, []).append(counter)
    for ship in sorted(v.ships, key=lambda x: (x.faction or "~", x.id)):
        aboard = [name(p) for p in ship.passengers if p in nobles]
        text = SHIP + name(ship.id) + (": " + ", ".join(aboard) if aboard else "")
        spots.setdefault(ship.place, []).append(Counter(text, styles.colour(ship.faction)))
    for h in sorted(v.heirs, key=lambda x: (x.house, x.order)):
        escort = nobles.get(h.with_noble) if h.with_noble else None
        spot = escort.place if escort is not None else h.place
        if spot is None or (escort is not None and escort.aboard is not None):
            continue  # nowhere, or at sea with his escort (the ship's counter names the escort)
        card = catalog.heirs.get(h.id)
        if card is not None and card.noble is not None and card.noble == h.with_noble:
            continue  # an heir who is a noble (Beaufort): his noble's counter stands for him
        colour = "#c62828" if h.house == "lancaster" else "#fafafa"
        text = (CROWN if h.crowned else "") + heir_label(name(h.id), h.house, h.order)
        inside = escort.inside if escort is not None else h.inside
        spots.setdefault(spot, []).append(Counter(text, colour, inside, border=GOLD))
    return spots


def heir_label(name: str, house: str, order: int) -> str:
    """An heir's counter: the name before its title, and the place in the succession
    (``L3``: third of Lancaster's line).

    >>> heir_label("Edward, Earl of March", "york", 2)
    'Edward (Y2)'
    >>> heir_label("Margaret of Anjou", "lancaster", 2)
    'Margaret of Anjou (L2)'
    """
    return f"{name.split(',')[0].strip()} ({house[:1].upper()}{order})"


def stack_shapes(counters: list[Counter], box: Box) -> list[Shape]:
    out: list[Shape] = []
    y = box.y0
    for c in counters:
        w = c.width
        ink = ink_on(c.fill)
        out.append(
            Shape(
                "rect",
                ((box.x0, y), (w, COUNTER_H)),
                fill=c.fill,
                stroke=c.border,
                width=1.4 if c.border == GOLD else 0.9,
                dash=c.dashed,
            )
        )
        x = box.x0 + COUNTER_PAD
        if c.inside:
            out.append(Shape("circle", ((x + 1.6, y + COUNTER_H / 2),), r=1.6, fill=ink))
            x += DOT
        base = y + 1.3 + ascent(COUNTER_SIZE)
        out.append(
            Shape(
                "text",
                ((x, base),),
                text=c.text,
                size=COUNTER_SIZE,
                fill=ink if not c.dashed else INK,
                bold=not c.italic,
                italic=c.italic,
            )
        )
        y += COUNTER_H + COUNTER_GAP
    return out


MAX_ROWS = 4  # a stack taller than this stands in columns


@dataclass(frozen=True)
class Block:
    """A place's (or a sea's) label: its name, and under it the counters that stand
    there (in columns of at most ``MAX_ROWS``); ``centred`` (a sea's) or aligned to the
    side of its point."""

    name: str
    style: NameStyle
    counters: tuple[Counter, ...] = ()
    centred: bool = False

    def columns(self) -> list[tuple[Counter, ...]]:
        n = len(self.counters)
        if not n:
            return []
        cols = math.ceil(n / MAX_ROWS)
        rows = math.ceil(n / cols)
        return [self.counters[i : i + rows] for i in range(0, n, rows)]

    def _widths(self) -> list[float]:
        return [max(c.width for c in col) for col in self.columns()]

    @property
    def size(self) -> tuple[float, float]:
        w, h = name_size(self.name, self.style)
        cols = self.columns()
        if not cols:
            return w, h
        sw = sum(self._widths()) + COUNTER_GAP * 2 * (len(cols) - 1)
        rows = max(len(col) for col in cols)
        return max(w, sw), h + COUNTER_GAP + rows * COUNTER_H + (rows - 1) * COUNTER_GAP

    def shapes(self, box: Box, right: bool) -> tuple[list[Shape], list[Shape]]:
        """The name's text, and the counters' shapes, in ``box``: flush right when
        ``right`` (the block stands left of its point), centred for a sea."""
        w, h = name_size(self.name, self.style)
        bw = box.x1 - box.x0

        def left_for(width: float) -> float:
            if self.centred:
                return box.x0 + (bw - width) / 2
            return box.x1 - width if right else box.x0

        x = left_for(w)
        name = [name_shape(self.name, self.style, Box(x, box.y0, x + w, box.y0 + h))]
        out: list[Shape] = []
        cols, widths = self.columns(), self._widths()
        if len(cols) == 1:  # one column: each counter to the block's side
            y = box.y0 + h + COUNTER_GAP
            for c in cols[0]:
                cx = left_for(c.width)
                out += stack_shapes([c], Box(cx, y, cx + c.width, y + COUNTER_H))
                y += COUNTER_H + COUNTER_GAP
            return name, out
        cx = left_for(sum(widths) + COUNTER_GAP * 2 * (len(cols) - 1))
        for col, cw in zip(cols, widths, strict=True):
            out += stack_shapes(list(col), Box(cx, box.y0 + h + COUNTER_GAP, cx + cw, box.y1))
            cx += cw + 2 * COUNTER_GAP
        return name, out


def name_size(text: str, st: NameStyle) -> tuple[float, float]:
    w = text_width(text, st.size, bold=st.bold, italic=st.italic) + 2 * HALO
    return w, ascent(st.size) + descent(st.size) + 2 * HALO


def name_shape(text: str, st: NameStyle, box: Box, fill: str | None = None) -> Shape:
    return Shape(
        "text",
        ((box.x0 + HALO, box.y0 + HALO + ascent(st.size)),),
        text=text,
        size=st.size,
        fill=fill or st.fill,
        bold=st.bold,
        italic=st.italic,
        halo=True,
    )

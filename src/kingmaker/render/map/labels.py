"""Label placement for the posted map: every label (a place's name, a sea's, a stack
of counters) gets a box that overlaps no other label, no place's symbol, no reserved
panel (legend, caption) and no leader line, and stays inside the picture.

Greedy, in the order of the requests' ``priority`` (counters first, then cities,
towns, castles, ..., seas): for each, candidate boxes are tried around its point, close
first (right of the point, left, the corners, above, below, each slid a little), then
on rings further out with a leader line back to the point, then further still. The
first candidate (by cost: distance, then the request's own order of sides) that
breaks no rule wins. A spatial grid keeps the checks local.

>>> from .metrics import Box
>>> reqs = [Request("a", 30, 10, (50, 50), 4), Request("b", 30, 10, (56, 50), 4)]
>>> out = place(reqs, bounds=Box(0, 0, 200, 100))
>>> out["a"].box.overlaps(out["b"].box)
False
>>> all(p.box.inside(Box(0, 0, 200, 100)) for p in out.values())
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from .metrics import Box

Point = tuple[float, float]
Segment = tuple[Point, Point]

# sides a label may take next to its point, in the order a map-maker prefers them for a
# place's name (right, left, the corners, above, below); (dx, dy) of the box's side
NAME_SIDES: tuple[tuple[int, int], ...] = (
    (1, 0),
    (-1, 0),
    (1, -1),
    (1, 1),
    (-1, -1),
    (-1, 1),
    (0, -1),
    (0, 1),
)
# a stack of counters: above the point first (the name then goes beside it)
STACK_SIDES: tuple[tuple[int, int], ...] = (
    (0, -1),
    (1, -1),
    (-1, -1),
    (1, 0),
    (-1, 0),
    (0, 1),
    (1, 1),
    (-1, 1),
)
CENTRED: tuple[tuple[int, int], ...] = ((0, 0),)


@dataclass(frozen=True, slots=True)
class Request:
    """A label to place: a ``width`` x ``height`` box naming the point ``at``, kept
    ``clear`` of it (the symbol's radius), at most ``reach`` away (with a leader line
    beyond ``gap``); ``sides`` in order of preference; lower ``priority`` first.
    ``symbol``: the box of the point's own symbol (an obstacle to every other label;
    its own leader may start inside it). ``leader``: False for a label that names an
    area rather than a point (a sea): it may stand off without a line. ``optional``:
    left out (``place`` does not return it) when it finds no room within its reach,
    for the caller to show another way."""

    key: str
    width: float
    height: float
    at: Point
    clear: float
    priority: int = 0
    sides: tuple[tuple[int, int], ...] = NAME_SIDES
    gap: float = 1.5
    reach: float = 150.0
    symbol: Box | None = None
    leader: bool = True
    optional: bool = False


@dataclass(frozen=True, slots=True)
class Placed:
    """Where a label went: its box, and the leader line from its point (or None when
    the box stands next to the point)."""

    key: str
    box: Box
    at: Point
    leader: Segment | None = None


@dataclass
class _Grid:
    """Boxes and segments by the grid cells they touch; a label's (``key``) may be
    taken out again, an obstacle's (key None) never."""

    cell: float = 24.0
    boxes: dict[tuple[int, int], list[tuple[str | None, Box]]] = field(default_factory=dict)
    segments: dict[tuple[int, int], list[tuple[str | None, Segment]]] = field(default_factory=dict)

    def _cells(self, b: Box) -> Iterator[tuple[int, int]]:
        c = self.cell
        for i in range(math.floor(b.x0 / c), math.floor(b.x1 / c) + 1):
            for j in range(math.floor(b.y0 / c), math.floor(b.y1 / c) + 1):
                yield (i, j)

    def add_box(self, b: Box, key: str | None = None) -> None:
        for k in self._cells(b):
            self.boxes.setdefault(k, []).append((key, b))

    def add_segment(self, s: Segment, key: str | None = None) -> None:
        for k in self._cells(_segment_box(s)):
            self.segments.setdefault(k, []).append((key, s))

    def add(self, pl: Placed) -> None:
        self.add_box(pl.box, pl.key)
        if pl.leader is not None:
            self.add_segment(pl.leader, pl.key)

    def remove(self, pl: Placed) -> None:
        for k in self._cells(pl.box):
            self.boxes[k] = [e for e in self.boxes.get(k, ()) if e[0] != pl.key]
        if pl.leader is not None:
            for k in self._cells(_segment_box(pl.leader)):
                self.segments[k] = [e for e in self.segments.get(k, ()) if e[0] != pl.key]

    def box_free(self, b: Box) -> bool:
        for k in self._cells(b):
            for _, other in self.boxes.get(k, ()):
                if b.overlaps(other):
                    return False
            for _, s in self.segments.get(k, ()):
                if segment_hits_box(s, b):
                    return False
        return True

    def segment_free(self, s: Segment, at: Point) -> bool:
        """Whether the leader ``s`` from the point ``at`` crosses no box but the
        symbols round that point (its own, and a neighbour's it stands in) and no
        other leader."""
        for k in self._cells(_segment_box(s)):
            for _, other in self.boxes.get(k, ()):
                if segment_hits_box(s, other) and not _within(at, other):
                    return False
            for _, t in self.segments.get(k, ()):
                if segments_cross(s, t):
                    return False
        return True


def _within(p: Point, b: Box) -> bool:
    return b.x0 <= p[0] <= b.x1 and b.y0 <= p[1] <= b.y1


def _segment_box(s: Segment) -> Box:
    (x0, y0), (x1, y1) = s
    return Box(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def segment_hits_box(s: Segment, b: Box) -> bool:
    """Whether the segment ``s`` passes through the inside of ``b`` (Liang-Barsky)."""
    (x0, y0), (x1, y1) = s
    dx, dy = x1 - x0, y1 - y0
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, x0 - b.x0), (dx, b.x1 - x0), (-dy, y0 - b.y0), (dy, b.y1 - y0)):
        if p == 0:
            if q <= 0:
                return False
            continue
        t = q / p
        if p < 0:
            if t > t1:
                return False
            t0 = max(t0, t)
        else:
            if t < t0:
                return False
            t1 = min(t1, t)
    return t1 - t0 > 1e-9


def segments_cross(s: Segment, t: Segment) -> bool:
    """Whether two segments cross (sharing an end point does not count)."""
    (ax, ay), (bx, by) = s
    (cx, cy), (dx, dy) = t

    def orient(px: float, py: float, qx: float, qy: float, rx: float, ry: float) -> float:
        return (qx - px) * (ry - py) - (qy - py) * (rx - px)

    d1 = orient(cx, cy, dx, dy, ax, ay)
    d2 = orient(cx, cy, dx, dy, bx, by)
    d3 = orient(ax, ay, bx, by, cx, cy)
    d4 = orient(ax, ay, bx, by, dx, dy)
    return d1 * d2 < 0 and d3 * d4 < 0


def nearest_on_box(p: Point, b: Box) -> Point:
    return (min(max(p[0], b.x0), b.x1), min(max(p[1], b.y0), b.y1))


def _distance(p: Point, b: Box) -> float:
    q = nearest_on_box(p, b)
    return math.hypot(q[0] - p[0], q[1] - p[1])


def _beside(r: Request, side: tuple[int, int], d: float, slide: float) -> Box:
    """The box on ``side`` of the point, its near edge ``d`` away, slid by ``slide``
    (a fraction of its size) along that edge."""
    x, y = r.at
    w, h = r.width, r.height
    sx, sy = side
    if sx == 0 and sy == 0:  # centred on the point
        return Box(x - w / 2, y - h / 2, x + w / 2, y + h / 2).moved(slide * w, 0)
    diag = 0.7071 if sx and sy else 1.0
    if sx > 0:
        left = x + d * diag
    elif sx < 0:
        left = x - d * diag - w
    else:
        left = x - w / 2 + slide * w
    if sy > 0:
        top = y + d * diag
    elif sy < 0:
        top = y - d * diag - h
    else:
        top = y - h / 2 + slide * h
    return Box(left, top, left + w, top + h)


def _around(r: Request, d: float, steps: int) -> Iterator[Box]:
    """Boxes on a ring ``d`` out from the point, in ``steps`` directions, each also slid
    along the side that faces the point."""
    x, y = r.at
    w, h = r.width, r.height
    for k in range(steps):
        a = 2 * math.pi * k / steps
        ux, uy = math.cos(a), math.sin(a)
        # the box's nearest point to the anchor on the ray, d out
        cx = x + ux * d + (w / 2 if ux > 0.3 else -w / 2 if ux < -0.3 else 0.0)
        cy = y + uy * d + (h / 2 if uy > 0.3 else -h / 2 if uy < -0.3 else 0.0)
        yield Box(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
        if abs(uy) <= 0.3:  # beside the point: slid up and down
            for f in (-0.35, 0.35):
                yield Box(cx - w / 2, cy - h / 2 + f * h, cx + w / 2, cy + h / 2 + f * h)
        elif abs(ux) <= 0.3:  # above or below: slid left and right
            for f in (-0.35, 0.35):
                yield Box(cx - w / 2 + f * w, cy - h / 2, cx + w / 2 + f * w, cy + h / 2)


SLIDES = (0.0, -0.25, 0.25, -0.45, 0.45)


def candidates(r: Request) -> Iterator[tuple[Box, bool]]:
    """Candidate boxes for ``r``, best first, each with whether it needs a leader."""
    near = r.clear + r.gap
    for slide in SLIDES:
        for side in r.sides:
            if side == (0, 0) and slide:
                continue
            if slide and side[0] and side[1]:
                continue  # the corners are not slid
            yield _beside(r, side, near, slide), False
    d = near + 4.0
    while d <= r.reach:
        steps = max(16, int(2 * math.pi * d / 8))
        for b in _around(r, d, steps):
            yield b, True
        d += 4.0 if d < 40 else 6.0 if d < 80 else 10.0


def _leader(r: Request, b: Box) -> Segment:
    """From the edge of the point's symbol to the nearest point of the box."""
    end = nearest_on_box(r.at, b)
    x, y = r.at
    dx, dy = end[0] - x, end[1] - y
    n = math.hypot(dx, dy) or 1.0
    start = (x + dx / n * r.clear, y + dy / n * r.clear)
    return (round(start[0], 1), round(start[1], 1)), (round(end[0], 1), round(end[1], 1))


def place(
    requests: Sequence[Request],
    *,
    bounds: Box,
    obstacles: Iterable[Box] = (),
    fixed: Iterable[Placed] = (),
    margin: float = 2.0,
) -> dict[str, Placed]:
    """A box for every request, by ``priority`` (then as given): inside ``bounds``
    (less ``margin``), overlapping no other label, no obstacle (panels, and every
    request's ``symbol``), no label placed before (``fixed``) and no leader line.

    A label that finds no room (its neighbours, placed first, have closed it in) takes
    the room it needs: the labels near its point that matter no more than it does (of
    its priority or after; from the second try, any but those of priority 0) are taken
    out, it is placed, and they are placed again after it, each in turn; a label closed
    in again and again looks further each time, and at last takes any free room, its
    leader crossing what it must. ``ValueError`` only if the picture is full. An
    ``optional`` label with no room within its reach is left out of the answer."""
    inner = Box(bounds.x0 + margin, bounds.y0 + margin, bounds.x1 - margin, bounds.y1 - margin)
    grid = _Grid()
    for o in obstacles:
        grid.add_box(o)
    for pl in fixed:
        grid.add_box(pl.box)
        if pl.leader is not None:
            grid.add_segment(pl.leader)
    for sym in {r.symbol for r in requests if r.symbol is not None}:
        grid.add_box(sym)
    by_key = {r.key: r for r in requests}
    rank = {r.key: (r.priority, i) for i, r in enumerate(requests)}
    queue = sorted(by_key, key=rank.__getitem__)
    out: dict[str, Placed] = {}
    closed_in: dict[str, int] = {}
    while queue:
        key = queue.pop(0)
        r = by_key[key]
        tries = closed_in.get(key, 0)
        if tries:
            r = replace(r, reach=r.reach * min(1 + tries / 2, 3))
        found = _first_free(r, grid, inner)
        if found is None and r.optional:
            continue  # the caller shows it another way
        if found is None:
            tries = closed_in[key] = tries + 1
            if tries > MAX_TRIES:  # the last resort: any free room, the leader crossing what it must
                found = _first_free(
                    replace(r, reach=max(bounds.width, bounds.height)), grid, inner, strict=False
                )
                if found is None:
                    raise ValueError(f"no room on the map for the label {key!r}")
                grid.add(found)
                out[key] = found
                continue
            near = [
                pl
                for pl in _neighbours(out.values(), r.at, REPAIR_RADIUS * tries)
                if by_key[pl.key].priority >= (r.priority if tries <= 1 else min(r.priority, 1))
            ]
            for pl in near:
                grid.remove(pl)
                del out[pl.key]
            queue[:0] = [key, *sorted((pl.key for pl in near), key=rank.__getitem__)]
            continue
        grid.add(found)
        out[key] = found
    return {r.key: out[r.key] for r in requests if r.key in out}


MAX_TRIES = 5
REPAIR_RADIUS = 28.0


def _neighbours(placed: Iterable[Placed], at: Point, radius: float) -> list[Placed]:
    """The labels whose box or leader comes within ``radius`` of ``at``."""
    out = []
    for pl in placed:
        if _distance(at, pl.box) <= radius or (
            pl.leader is not None and _distance(at, _segment_box(pl.leader)) <= radius
        ):
            out.append(pl)
    return out


def _first_free(r: Request, grid: _Grid, inner: Box, *, strict: bool = True) -> Placed | None:
    """The first candidate box that is free, whose leader (if it needs one) crosses
    nothing (``strict``; otherwise anything)."""
    for b, needs_leader in candidates(r):
        if not b.inside(inner) or not grid.box_free(b):
            continue
        if not r.leader or (not needs_leader and _distance(r.at, b) <= r.clear + r.gap + 0.5):
            return Placed(r.key, b, r.at)
        seg = _leader(r, b)
        if strict and not grid.segment_free(seg, r.at):
            continue
        return Placed(r.key, b, r.at, seg)
    return None


def overlapping(placed: Iterable[Placed]) -> list[tuple[str, str]]:
    """Pairs of labels whose boxes overlap (none, when ``place`` made them)."""
    items = list(placed)
    out = []
    for a in range(len(items)):
        for b in range(a + 1, len(items)):
            if items[a].box.overlaps(items[b].box):
                out.append((items[a].key, items[b].key))
    return out

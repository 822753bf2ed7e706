"""The map as SVG: the drawing (``svg``), and the transparent overlay that rings a
unit's legal destinations on the player's page (``overlay_svg``)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from xml.sax import saxutils

from .geometry import Geometry
from .shapes import INK, MapModel, Point, Shape

# characters XML 1.0 cannot hold (control characters, lone surrogates, U+FFFE/U+FFFF):
# a game named with one must still draw
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def escape(text: str) -> str:
    return saxutils.escape(_NOT_XML.sub("\ufffd", text))


def quoteattr(text: str) -> str:
    return saxutils.quoteattr(_NOT_XML.sub("\ufffd", text))


def _num(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _pts(points: Sequence[Point]) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in points)


def _paint(s: Shape) -> str:
    out = [f'fill="{s.fill or "none"}"']
    if s.stroke:
        out.append(f'stroke="{s.stroke}" stroke-width="{_num(s.width)}"')
        if s.dash:
            out.append('stroke-dasharray="3,2"')
    if s.opacity < 1:
        out.append(f'opacity="{s.opacity}"')
    return " ".join(out)


def shape_svg(s: Shape) -> str:
    if s.kind == "polygon":
        return f'<polygon points="{_pts(s.points)}" {_paint(s)}/>'
    if s.kind == "polyline":
        return f'<polyline points="{_pts(s.points)}" {_paint(s)} stroke-linecap="round" stroke-linejoin="round"/>'
    if s.kind == "circle":
        (x, y) = s.points[0]
        return f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(s.r)}" {_paint(s)}/>'
    if s.kind == "rect":
        (x, y), (w, h) = s.points[0], s.points[1]
        return f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" height="{_num(h)}" {_paint(s)}/>'
    (x, y) = s.points[0]
    font = (
        f'font-family="DejaVu Sans, Verdana, sans-serif" font-size="{_num(s.size)}" text-anchor="{s.anchor}"'
        + (' font-style="italic"' if s.italic else "")
        + (' font-weight="bold"' if s.bold else "")
    )
    text = escape(s.text)
    halo = (
        f'<text x="{_num(x)}" y="{_num(y)}" {font} fill="none" stroke="#ffffff" stroke-width="2.6" '
        f'stroke-linejoin="round" opacity="0.85">{text}</text>'
        if s.halo
        else ""
    )
    return f'{halo}<text x="{_num(x)}" y="{_num(y)}" {font} fill="{s.fill or INK}">{text}</text>'


def svg(model: MapModel, *, element_id: str = "map-svg") -> str:
    """A standalone SVG document of the map (also embedded as it is in the pages)."""
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" id="{element_id}" class="map" '
        f'viewBox="0 0 {model.width} {model.height}" width="{model.width}" height="{model.height}" '
        f'role="img" aria-labelledby="{element_id}-title {element_id}-desc">',
        f'<title id="{element_id}-title">{escape(model.title)}</title>',
        f'<desc id="{element_id}-desc">{escape(model.description)}</desc>',
    ]
    for g in model.groups:
        attrs = [f"class={quoteattr(g.cls)}"]
        if g.ident and not g.cls.startswith("unit"):
            attrs.append(f"id={quoteattr(g.ident)}")
        attrs += [f"data-{k}={quoteattr(v)}" for k, v in g.data]
        if g.details:
            attrs.append(f"data-details={quoteattr(g.details)}")
        if "selectable" in g.cls:
            attrs.append('tabindex="0" role="button"')
        title = f"<title>{escape(g.title)}</title>" if g.title else ""
        out.append(f"<g {' '.join(attrs)}>{title}{''.join(shape_svg(s) for s in g.shapes)}</g>")
    out.append("</svg>")
    return "\n".join(out)


# -- the legal-destination overlay -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Mark:
    """A highlighted destination: ``status`` "enter" (may go inside), "open" (may stop
    in the open), "siege" (may lay siege) or "sea"."""

    ident: str
    name: str
    status: str
    url: str = ""


_MARK_COLOURS = {
    "enter": "#1b8a3a",
    "open": "#1f63b5",
    "siege": "#c25400",
    "sea": "#6a1b9a",
    "from": "#000000",
}


def overlay_svg(geo: Geometry, marks: Iterable[Mark], *, origin: str | None = None) -> str:
    """A transparent SVG, the size of the map, that rings each legal destination (and
    the unit's own place); each ring's ``data-url`` asks the server for the confirm form."""
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" id="map-overlay" class="map-overlay" '
        f'viewBox="0 0 {geo.width} {geo.height}" hx-swap-oob="true">'
    ]
    if origin is not None:
        at = geo.places.get(origin) or geo.seas.get(origin)
        if at is not None:
            out.append(
                f'<circle cx="{_num(at[0])}" cy="{_num(at[1])}" r="13" fill="none" stroke="#000" stroke-width="2.5"/>'
            )
    for m in marks:
        at = geo.places.get(m.ident) or geo.seas.get(m.ident)
        if at is None:
            continue
        colour = _MARK_COLOURS.get(m.status, "#000")
        attrs = f' data-url={quoteattr(m.url)} class="dest" tabindex="0" role="button"' if m.url else ""
        out.append(
            f"<g{attrs}><title>{escape(m.name)}: {escape(m.status)}</title>"
            f'<circle cx="{_num(at[0])}" cy="{_num(at[1])}" r="10" fill="{colour}" fill-opacity="0.25" '
            f'stroke="{colour}" stroke-width="2.5"/></g>'
        )
    out.append("</svg>")
    return "".join(out)

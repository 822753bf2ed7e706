"""The map as a PNG for the forum post: the same drawing as the SVG (``MapModel``).

CairoSVG renders the SVG when it is installed (and finds its cairo library); otherwise
Pillow draws the same shapes. Either way the picture comes from the drawing built from
one viewer's ``View``, so it shows nothing the SVG does not.
"""

from __future__ import annotations

import io
from functools import cache
from typing import Any

from .shapes import MapModel, Shape
from .svg import svg


def png(model: MapModel, *, scale: float = 1.5) -> bytes:
    """A PNG of ``model`` (``scale`` times its size in pixels)."""
    try:
        import cairosvg  # type: ignore[import-untyped]  # CairoSVG ships no type hints
    except (ImportError, OSError):
        return pillow_png(model, scale=scale)
    try:
        data: bytes = cairosvg.svg2png(bytestring=svg(model).encode("utf-8"), scale=scale)
    except OSError:  # the cairo library itself is missing
        return pillow_png(model, scale=scale)
    return data


@cache
def _font(size: int, bold: bool = False, italic: bool = False) -> Any:
    from PIL import ImageFont

    name = "DejaVuSans" + ("-Bold" if bold else "-Oblique" if italic else "") + ".ttf"
    for path in (name, f"/usr/share/fonts/truetype/dejavu/{name}"):
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            continue
    return ImageFont.load_default()


def _rgb(colour: str | None) -> tuple[int, int, int] | None:
    if not colour or colour == "none":
        return None
    c = colour.lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    try:
        return (int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16))
    except ValueError:
        return (119, 119, 119)


def pillow_png(model: MapModel, *, scale: float = 1.5) -> bytes:
    """Pillow's drawing of the same shapes (no CairoSVG here)."""
    from PIL import Image, ImageDraw

    w, h = round(model.width * scale), round(model.height * scale)
    img = Image.new("RGB", (w, h), (255, 255, 255))
    draw = ImageDraw.Draw(img, "RGBA")

    def pt(p: tuple[float, float]) -> tuple[float, float]:
        return (p[0] * scale, p[1] * scale)

    for g in model.groups:
        for s in g.shapes:
            _draw(draw, s, pt, scale)
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _draw(draw: Any, s: Shape, pt: Any, scale: float) -> None:
    alpha = round(255 * s.opacity)
    fill = _rgb(s.fill)
    stroke = _rgb(s.stroke)
    f = (*fill, alpha) if fill else None
    o = (*stroke, alpha) if stroke else None
    width = max(1, round(s.width * scale))
    if s.kind == "polygon":
        draw.polygon([pt(p) for p in s.points], fill=f, outline=o, width=width)
    elif s.kind == "polyline":
        draw.line([pt(p) for p in s.points], fill=o, width=width, joint="curve")
    elif s.kind == "circle":
        x, y = pt(s.points[0])
        r = s.r * scale
        draw.ellipse((x - r, y - r, x + r, y + r), fill=f, outline=o, width=width)
    elif s.kind == "rect":
        (x, y), (rw, rh) = pt(s.points[0]), (s.points[1][0] * scale, s.points[1][1] * scale)
        draw.rectangle((x, y, x + rw, y + rh), fill=f, outline=o, width=width)
    else:
        font = _font(max(6, round(s.size * scale)), s.bold, s.italic)
        x, y = pt(s.points[0])
        anchor = {"start": "ls", "middle": "ms", "end": "rs"}[s.anchor]
        if s.halo:
            draw.text(
                (x, y),
                s.text,
                font=font,
                fill=(255, 255, 255, 220),
                anchor=anchor,
                stroke_width=2,
                stroke_fill=(255, 255, 255, 220),
            )
        draw.text((x, y), s.text, font=font, fill=f or (43, 43, 43, 255), anchor=anchor)

"""The map of a game as one viewer may see it: a pure function of the board, the card
names, the factions' names and colours, and that viewer's ``View`` (no I/O beyond the
package's own coastline, nothing of the web). ``build_map`` draws it once as plain
shapes; ``svg`` and ``png`` render those same shapes."""

from .draw import Styles, build_map
from .geometry import Geometry, geometry
from .png import pillow_png, png
from .shapes import MapModel
from .svg import Mark, overlay_svg, svg

__all__ = [
    "Geometry",
    "MapModel",
    "Mark",
    "Styles",
    "build_map",
    "geometry",
    "overlay_svg",
    "pillow_png",
    "png",
    "svg",
]

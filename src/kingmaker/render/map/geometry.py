"""Where everything of one board stands on the drawing: an equirectangular projection
of the places' lon/lat (longitude scaled by the cosine of the map's middle latitude),
the coastline, roads and sea labels (a sea zone stands at the mean of its ports'
coordinates, or where ``coastline.json`` places it when that mean falls on land)."""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from kingmaker.rules.board import Board

from .shapes import Point


@functools.cache
def coastline() -> dict[str, Any]:
    """The outline of Great Britain and Ireland (lon/lat) and sea label positions."""
    text = resources.files(__package__).joinpath("coastline.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@dataclass(frozen=True)
class Geometry:
    """Where everything of one board stands on the drawing (pixels)."""

    width: int
    height: int
    lon_min: float
    lat_max: float
    kx: float  # pixels per degree of longitude
    ky: float  # pixels per degree of latitude
    places: Mapping[str, Point]
    seas: Mapping[str, Point]
    land: tuple[tuple[Point, ...], ...]
    roads: tuple[tuple[Point, ...], ...]
    cross: tuple[tuple[Point, Point], ...]
    legend_at: Point = (10.0, 10.0)
    extra: Mapping[str, Any] = field(default_factory=dict)

    def xy(self, lon: float, lat: float) -> Point:
        return (round((lon - self.lon_min) * self.kx, 1), round((self.lat_max - lat) * self.ky, 1))


def geometry(board: Board, width: int = 900) -> Geometry:
    """Project the board: the frame is the places' extent with a margin."""
    located = [p for p in board.places.values() if p.lon is not None and p.lat is not None]
    lons = [p.lon for p in located if p.lon is not None] or [-6.0, 2.0]
    lats = [p.lat for p in located if p.lat is not None] or [50.0, 56.0]
    lon_min, lon_max = min(lons) - 0.6, max(lons) + 1.0
    lat_min, lat_max = min(lats) - 0.55, max(lats) + 0.45
    k = math.cos(math.radians((lat_min + lat_max) / 2))
    ky = width / ((lon_max - lon_min) * k)
    kx = ky * k
    height = round((lat_max - lat_min) * ky)
    g = Geometry(width, height, lon_min, lat_max, kx, ky, {}, {}, (), (), ())
    places = {p.id: g.xy(p.lon, p.lat) for p in located if p.lon is not None and p.lat is not None}
    hints = coastline().get("sea_labels", {})
    seas: dict[str, Point] = {}
    for sid in board.seas:
        hint = hints.get(sid)
        if isinstance(hint, list) and len(hint) == 2:
            seas[sid] = g.xy(float(hint[0]), float(hint[1]))
            continue
        ports = [board.places[p] for p in board.ports_of_sea.get(sid, ())]
        coords = [(p.lon, p.lat) for p in ports if p.lon is not None and p.lat is not None]
        if coords:
            lon = sum(c[0] for c in coords) / len(coords)
            lat = sum(c[1] for c in coords) / len(coords)
            seas[sid] = g.xy(lon, lat)
    land = tuple(
        tuple(g.xy(float(lon), float(lat)) for lon, lat in poly["points"]) for poly in coastline()["polygons"]
    )
    roads = tuple(
        tuple(places[pid] for pid in road.places if pid in places)
        for road in board.roads
        if sum(pid in places for pid in road.places) >= 2
    )
    cross = tuple((places[a], places[b]) for a, b in board.adjacent if a in places and b in places)
    return Geometry(
        width, height, lon_min, lat_max, kx, ky, places, seas, land, roads, cross, (width - 178.0, 8.0)
    )

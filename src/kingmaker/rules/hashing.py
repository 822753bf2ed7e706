"""A stable state hash: the same in every process and run (no ``hash()``, no
insertion-order dependence)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from enum import Enum
from typing import Any

from .board import Board
from .cards import Catalog
from .frozen import omitted
from .records import Record, to_data
from .state import GameState

_FIELDS: dict[type, tuple[str, ...]] = {}


def encode(value: Any) -> Any:
    """A JSON-ready canonical form of model values (dataclasses, maps, tuples)."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return value.value if isinstance(value, Enum) else value
    if isinstance(value, Record):
        return to_data(value)
    if isinstance(value, dict):
        return [[k, encode(v)] for k, v in sorted(value.items())]
    if isinstance(value, (tuple, list)):
        return [encode(v) for v in value]
    if isinstance(value, (frozenset, set)):
        return sorted(encode(v) for v in value)
    if dataclasses.is_dataclass(value):
        cls = type(value)
        names = _FIELDS.get(cls)
        if names is None:
            names = tuple(f.name for f in dataclasses.fields(value))
            _FIELDS[cls] = names
        return [cls.__name__, *(encode(getattr(value, n)) for n in names)]
    raise TypeError(f"cannot encode {type(value).__name__}")


_STATIC: dict[int, tuple[Board | Catalog, str]] = {}


def static_fingerprint(obj: Board | Catalog) -> str:
    """SHA-256 of a board's or catalog's canonical form (computed once per object)."""
    cached = _STATIC.get(id(obj))
    if cached is not None and cached[0] is obj:
        return cached[1]
    data = {
        f.name: encode(getattr(obj, f.name))
        for f in dataclasses.fields(obj)
        if f.init and not omitted(f, getattr(obj, f.name))
    }
    digest = hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    _STATIC[id(obj)] = (obj, digest)
    return digest


def state_data(state: GameState) -> dict[str, Any]:
    """The state's dynamic fields in canonical form, with fingerprints of the board
    and the card set."""
    out: dict[str, Any] = {
        "board": static_fingerprint(state.board),
        "catalog": static_fingerprint(state.catalog),
    }
    for f in dataclasses.fields(state):
        if f.name in ("board", "catalog") or omitted(f, getattr(state, f.name)):
            continue
        out[f.name] = encode(getattr(state, f.name))
    return out


def state_hash(state: GameState) -> str:
    """A hex SHA-256 of the state, stable across processes and runs."""
    text = json.dumps(state_data(state), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()

"""JSON-ready encoding of the model (states, boards, card sets) and back.

Generic over the frozen dataclasses of the model: each field is encoded by its declared
type, so a snapshot decodes to an equal state. Boards and card sets are encoded the same
way, so a game's data set can be stored with the game. An event card's event section
carries its ``kind`` (``{"kind": "plague", "places": ["bristol"]}``, as FULL_GAME 3.13.1
writes it); a field added later (``frozen.ADDED_LATER``) is left out while empty, so a
game stored before it existed still decodes (to the field's default).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from enum import Enum
from functools import cache
from typing import Any

from .board import Board
from .cards import Catalog, EventSection
from .frozen import FrozenDict, omitted
from .records import Record, from_data, to_data
from .state import GameState


class CodecError(ValueError):
    """Data that does not decode to the model."""


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _init_fields(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    return tuple(f for f in dataclasses.fields(cls) if f.init)


def encode(value: Any) -> Any:
    """A JSON-ready form of a model value."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value.value if isinstance(value, Enum) else value
    if isinstance(value, Record):
        return to_data(value)
    if isinstance(value, dict):
        return {str(k): encode(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [encode(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {"kind": value.kind.value} if isinstance(value, EventSection) else {}
        for f in _init_fields(type(value)):
            v = getattr(value, f.name)
            if not omitted(f, v):
                out[f.name] = encode(v)
        return out
    raise CodecError(f"cannot encode a {type(value).__name__}")


def decode(tp: Any, data: Any, where: str = "$") -> Any:
    """The value of type ``tp`` that ``encode`` gave ``data`` for."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is Any:
        return from_data(data) if isinstance(data, dict) and "kind" in data else data
    if origin in (typing.Union, types.UnionType):
        if data is None and type(None) in args:
            return None
        options = [a for a in args if a is not type(None)]
        if len(options) == 1:
            return decode(options[0], data, where)
        for a in options:
            try:
                return decode(a, data, where)
            except CodecError:
                continue
        raise CodecError(f"{where}: {data!r} fits none of {tp}")
    if origin is tuple:
        if not isinstance(data, list):
            raise CodecError(f"{where}: expected a list")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode(args[0], v, f"{where}[{i}]") for i, v in enumerate(data))
        if len(args) != len(data):
            raise CodecError(f"{where}: expected {len(args)} items")
        return tuple(decode(a, v, f"{where}[{i}]") for i, (a, v) in enumerate(zip(args, data, strict=True)))
    if origin in (FrozenDict, dict):
        if not isinstance(data, dict):
            raise CodecError(f"{where}: expected a mapping")
        vt = args[1] if len(args) == 2 else Any
        d = {k: decode(vt, v, f"{where}.{k}") for k, v in data.items()}
        return FrozenDict(d) if origin is FrozenDict else d
    if origin is frozenset:
        return frozenset(decode(args[0], v, where) for v in data)
    if isinstance(tp, type) and issubclass(tp, Enum):
        try:
            return tp(data)
        except ValueError:
            raise CodecError(f"{where}: {data!r} is not a {tp.__name__}") from None
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(data, dict):
            raise CodecError(f"{where}: expected a mapping for {tp.__name__}")
        if issubclass(tp, EventSection):
            if data.get("kind") != tp.kind.value:
                raise CodecError(f"{where}: not a {tp.kind.value} event")
            data = {k: v for k, v in data.items() if k != "kind"}
        hints = _hints(tp)
        kwargs = {}
        for f in _init_fields(tp):
            if f.name in data:
                kwargs[f.name] = decode(hints[f.name], data[f.name], f"{where}.{f.name}")
        extra = set(data) - set(kwargs)
        if extra:
            raise CodecError(f"{where}: unknown field(s) {', '.join(sorted(extra))} for {tp.__name__}")
        try:
            return tp(**kwargs)
        except TypeError as e:
            raise CodecError(f"{where}: {e}") from None
    if tp in (str, int, float, bool):
        if tp is float and isinstance(data, int) and not isinstance(data, bool):
            return float(data)
        if not isinstance(data, tp) or (tp is int and isinstance(data, bool)):
            raise CodecError(f"{where}: expected {tp.__name__}, got {data!r}")
        return data
    raise CodecError(f"{where}: cannot decode type {tp}")


def state_to_data(state: GameState) -> dict[str, Any]:
    """A state's dynamic fields (the board and card set are stored with the game)."""
    return {
        f.name: encode(getattr(state, f.name))
        for f in _init_fields(GameState)
        if f.name not in ("board", "catalog")
    }


def state_from_data(data: dict[str, Any], board: Board, catalog: Catalog) -> GameState:
    fields = dict(data)
    fields["board"] = board
    fields["catalog"] = catalog
    hints = _hints(GameState)
    kwargs = {}
    for f in _init_fields(GameState):
        if f.name in ("board", "catalog"):
            continue
        if f.name in fields:
            kwargs[f.name] = decode(hints[f.name], fields[f.name], f"state.{f.name}")
    return GameState(board=board, catalog=catalog, **kwargs)


def board_to_data(board: Board) -> dict[str, Any]:
    return typing.cast(dict[str, Any], encode(board))


def board_from_data(data: dict[str, Any]) -> Board:
    return typing.cast(Board, decode(Board, data, "board"))


def catalog_to_data(catalog: Catalog) -> dict[str, Any]:
    return typing.cast(dict[str, Any], encode(catalog))


def catalog_from_data(data: dict[str, Any]) -> Catalog:
    return typing.cast(Catalog, decode(Catalog, data, "catalog"))

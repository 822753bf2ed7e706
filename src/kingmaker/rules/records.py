"""Plain-data records (events and commands) and their JSON-ready encoding.

A record is a frozen dataclass whose fields hold str, int, bool, None, tuples of
those, or another record. ``to_data``/``from_data`` turn it into dicts and lists and
back, with the record's ``kind`` as the discriminator.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar, TypeVar

from .frozen import omitted

R = TypeVar("R", bound="Record")

_REGISTRY: dict[str, type[Record]] = {}


class Record:
    """Base of events and commands."""

    kind: ClassVar[str] = ""
    # every record is a dataclass (declared, not set: @dataclass sets it on each record)
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.kind:
            old = _REGISTRY.get(cls.kind)
            if old is not None and old.__qualname__ != cls.__qualname__:
                raise TypeError(f"record kind {cls.kind!r} defined twice")
            _REGISTRY[cls.kind] = cls


def _encode(value: Any) -> Any:
    if isinstance(value, Record):
        return to_data(value)
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    return value


def to_data(record: Record) -> dict[str, Any]:
    """A JSON-ready dict of ``record``, with its ``kind``."""
    out: dict[str, Any] = {"kind": record.kind}
    for f in dataclasses.fields(record):
        value = getattr(record, f.name)
        if not omitted(f, value):  # a field added later, empty: as records written before it
            out[f.name] = _encode(value)
    return out


def _decode(value: Any) -> Any:
    if isinstance(value, dict) and "kind" in value:
        return from_data(value)
    if isinstance(value, list):
        return tuple(_decode(v) for v in value)
    return value


class RecordError(ValueError):
    """A record's data is malformed."""


def from_data(data: dict[str, Any]) -> Any:
    """The record that ``to_data`` encoded."""
    kind = data.get("kind")
    cls = _REGISTRY.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise RecordError(f"unknown record kind {kind!r}")
    names = {f.name for f in dataclasses.fields(cls)}
    extra = set(data) - names - {"kind"}
    if extra:
        raise RecordError(f"{kind}: unknown field(s) {', '.join(sorted(extra))}")
    try:
        return cls(**{k: _decode(v) for k, v in data.items() if k != "kind"})
    except TypeError as e:
        raise RecordError(f"{kind}: {e}") from None

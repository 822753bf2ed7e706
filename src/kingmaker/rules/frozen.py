"""An immutable mapping that reads as fast as a dict."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any, NoReturn, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class FrozenDict(dict[K, V]):
    """A ``dict`` whose mutating methods raise; hashable when its values are.

    >>> d = FrozenDict({"a": 1})
    >>> d["a"]
    1
    >>> d.set("b", 2)["b"]
    2
    """

    __slots__ = ("_hash",)
    _hash: int

    def _immutable(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("FrozenDict is immutable")

    __setitem__ = _immutable
    __delitem__ = _immutable
    clear = _immutable
    pop = _immutable
    popitem = _immutable
    setdefault = _immutable
    update = _immutable
    __ior__ = _immutable

    def __hash__(self) -> int:  # type: ignore[override]  # dict says None (unhashable); this one is hashable
        try:
            return self._hash
        except AttributeError:
            h = hash(frozenset(self.items()))
            object.__setattr__(self, "_hash", h)
            return h

    def __repr__(self) -> str:
        return f"FrozenDict({dict.__repr__(self)})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenDict, (dict(self),))

    def set(self, key: K, value: V) -> FrozenDict[K, V]:
        """A copy with ``key`` set to ``value``."""
        d = dict(self)
        d[key] = value
        return FrozenDict(d)

    def set_many(self, items: Mapping[K, V] | Iterable[tuple[K, V]]) -> FrozenDict[K, V]:
        """A copy with every pair of ``items`` set."""
        d = dict(self)
        d.update(items)
        return FrozenDict(d)

    def without(self, *keys: K) -> FrozenDict[K, V]:
        """A copy without ``keys`` (absent keys are ignored)."""
        d = dict(self)
        for k in keys:
            d.pop(k, None)
        return FrozenDict(d)


# Metadata of a dataclass field added after games were stored: while its value is empty
# it is left out of the encoded form (``codec``) and of the fingerprints and hashes
# (``hashing``, top-level fields of a state, board or card set), so those games keep
# their records and their hashes.
ADDED_LATER: Mapping[str, bool] = MappingProxyType({"omit_when_empty": True})


def omitted(f: dataclasses.Field[Any], value: object) -> bool:
    """Whether field ``f`` holding ``value`` is left out (``ADDED_LATER`` and empty).

    >>> from kingmaker.rules.cards import Catalog
    >>> events = next(f for f in dataclasses.fields(Catalog) if f.name == "events")
    >>> omitted(events, FrozenDict()), omitted(events, FrozenDict({"a": 1}))
    (True, False)
    """
    return bool(f.metadata.get("omit_when_empty")) and not value

"""Writing TOML by hand: the few value types the data files use.

>>> toml_value(["a", 1, True, 2.5])
'["a", 1, true, 2.5]'
>>> toml_value('say "hi"\\n')
'"say \\\\"hi\\\\"\\\\n"'
"""

from __future__ import annotations

import math
from collections.abc import Iterable

_SHORT = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string, every control character escaped."""
    out = []
    for ch in text:
        if ch in _SHORT:
            out.append(_SHORT[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def toml_value(value: object) -> str:
    """A string, integer, float, boolean or list (of those) as TOML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        return repr(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, tuple | list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")


def inline_table(pairs: Iterable[tuple[str, object]]) -> str:
    """Pairs as a TOML inline table: ``{ london = 200 }`` (keys must be bare keys)."""
    items = [f"{k} = {toml_value(v)}" for k, v in pairs]
    return "{ " + ", ".join(items) + " }" if items else "{}"


def comment(text: str) -> list[str]:
    """Comment lines (``# ...``) for ``text``, one per line of it."""
    return [f"# {line}".rstrip() for line in text.splitlines()]

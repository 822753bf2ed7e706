"""Typed reading of TOML tables: every field checked, every problem recorded.

A :class:`FileReader` reads the tables of one file against a field specification
(:class:`Field`) and appends a :class:`DataProblem` for each missing, mistyped or
unknown field instead of raising.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from kingmaker.rules.limits import CHOSEN_ID_MAX, NAME_MAX, text_problem

from .problems import DataProblem

IDENT = re.compile(r"^[a-z][a-z0-9_]*$")

STR = "str"
INT = "int"
NUMBER = "number"
BOOL = "bool"
STR_LIST = "str_list"
INT_TABLE = "int_table"
PAIRS = "pairs"

_EXPECTED = {
    STR: "a string",
    INT: "an integer",
    NUMBER: "a number",
    BOOL: "true or false",
    STR_LIST: "a list of strings",
    INT_TABLE: "a table of integers",
    PAIRS: "a list of [a, b] pairs of strings",
}


@dataclass(frozen=True, slots=True)
class Field:
    """One field of a table: its type, whether it must be given, its lowest value."""

    kind: str
    required: bool = False
    minimum: int | None = None


def describe(value: Any) -> str:
    """How a TOML value reads in a message.

    >>> describe("abc")
    "a string ('abc')"
    >>> describe(True)
    'true or false (true)'
    """
    if isinstance(value, bool):
        return f"true or false ({'true' if value else 'false'})"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"a string ({shown!r})"
    if isinstance(value, int):
        return f"an integer ({value})"
    if isinstance(value, float):
        return f"a number ({value})"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return f"a {type(value).__name__}"


def is_ident(text: str) -> bool:
    """Ids are lower_snake_case: a letter, then letters, digits and underscores."""
    return bool(IDENT.match(text))


class FileReader:
    """Reads the tables of one data file and records every problem found."""

    def __init__(self, file: str, problems: list[DataProblem]) -> None:
        self.file = file
        self.problems = problems

    def report(self, key_path: str, reason: str) -> None:
        """Record a problem at ``key_path`` of this file."""
        self.problems.append(DataProblem(self.file, key_path, reason))

    def tables(self, data: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, str, dict[str, Any]]]:
        """Each ``(id, key path, table)`` of ``data`` whose value is a table with a good id."""
        for key, value in data.items():
            path = f"{prefix}{key}"
            if not isinstance(value, dict):
                self.report(path, f"expected a table, got {describe(value)}")
                continue
            if not is_ident(key):
                self.report(path, "an id must be lower_snake_case (a-z, 0-9, _; starting with a letter)")
                continue
            if len(key) > CHOSEN_ID_MAX:
                self.report(path, f"an id has at most {CHOSEN_ID_MAX} characters, this one {len(key)}")
                continue
            yield key, path, value

    def fields(self, path: str, table: Mapping[str, Any], spec: Mapping[str, Field]) -> dict[str, Any] | None:
        """The fields of ``table`` converted to Python values, or None if any is wrong.

        Fields not given are left out of the result; every problem is reported.
        """
        ok = True
        out: dict[str, Any] = {}
        for name in table:
            if name not in spec:
                self.report(f"{path}.{name}", f"unknown field; expected one of: {', '.join(spec)}")
                ok = False
        for name, field in spec.items():
            if name not in table:
                if field.required:
                    self.report(f"{path}.{name}", f"missing required field ({_EXPECTED[field.kind]})")
                    ok = False
                continue
            value, good = self.value(f"{path}.{name}", table[name], field)
            if good:
                out[name] = value
            else:
                ok = False
        return out if ok else None

    def value(self, path: str, raw: Any, field: Field) -> tuple[Any, bool]:
        """``raw`` converted to the field's type, and whether it was acceptable."""
        kind = field.kind
        if kind == STR:
            if not isinstance(raw, str):
                return self._wrong(path, raw, kind)
            return self._text(path, raw)
        if kind == BOOL:
            return (raw, True) if isinstance(raw, bool) else self._wrong(path, raw, kind)
        if kind == INT:
            if isinstance(raw, bool) or not isinstance(raw, int):
                return self._wrong(path, raw, kind)
            return self._at_least(path, raw, field.minimum), field.minimum is None or raw >= field.minimum
        if kind == NUMBER:
            if isinstance(raw, bool) or not isinstance(raw, int | float):
                return self._wrong(path, raw, kind)
            return float(raw), True
        if kind == STR_LIST:
            return self._str_list(path, raw)
        if kind == INT_TABLE:
            return self._int_table(path, raw, field.minimum)
        if kind == PAIRS:
            return self._pairs(path, raw)
        raise ValueError(f"unknown field kind {kind!r}")

    def _text(self, path: str, raw: str) -> tuple[str | None, bool]:
        """A name or other text: one line of at most ``NAME_MAX`` characters, no control
        or format character (``kingmaker.rules.limits``)."""
        problem = text_problem(raw, "text", NAME_MAX)
        if problem is None:
            return raw, True
        self.report(path, problem.removeprefix("the text "))
        return None, False

    def _wrong(self, path: str, raw: Any, kind: str) -> tuple[None, bool]:
        self.report(path, f"expected {_EXPECTED[kind]}, got {describe(raw)}")
        return None, False

    def _at_least(self, path: str, value: int, minimum: int | None) -> int:
        if minimum is not None and value < minimum:
            self.report(path, f"must be at least {minimum}, got {value}")
        return value

    def _str_list(self, path: str, raw: Any) -> tuple[tuple[str, ...] | None, bool]:
        if not isinstance(raw, list):
            return self._wrong(path, raw, STR_LIST)
        ok = True
        for i, item in enumerate(raw):
            if not isinstance(item, str):
                self.report(f"{path}[{i}]", f"expected a string, got {describe(item)}")
                ok = False
            elif self._text(f"{path}[{i}]", item)[0] is None:
                ok = False
        return (tuple(raw), True) if ok else (None, False)

    def _int_table(self, path: str, raw: Any, minimum: int | None) -> tuple[Any, bool]:
        if not isinstance(raw, dict):
            return self._wrong(path, raw, INT_TABLE)
        ok = True
        for key, item in raw.items():
            if isinstance(item, bool) or not isinstance(item, int):
                self.report(f"{path}.{key}", f"expected an integer, got {describe(item)}")
                ok = False
            elif minimum is not None and item < minimum:
                self._at_least(f"{path}.{key}", item, minimum)
                ok = False
        return (tuple(raw.items()), True) if ok else (None, False)

    def _pairs(self, path: str, raw: Any) -> tuple[Any, bool]:
        if not isinstance(raw, list):
            return self._wrong(path, raw, PAIRS)
        ok = True
        for i, item in enumerate(raw):
            if not (isinstance(item, list) and len(item) == 2 and all(isinstance(x, str) for x in item)):
                self.report(f"{path}[{i}]", f"expected a pair [a, b] of place ids, got {describe(item)}")
                ok = False
        return (tuple((a, b) for a, b in raw), True) if ok else (None, False)

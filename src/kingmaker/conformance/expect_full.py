"""Format 2's `expect` fields (FULL_GAME §5): compared to what the decision reports
(``Decision.report``). Only the keys a case lists are compared; lists compare in any
order; a field the decision does not report reads as null (a list as empty)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kingmaker.rules.decision import REPORT_KEYS, Decision

from .schema import CaseError
from .schema_full import EXPECT_KEYS_2

assert EXPECT_KEYS_2 <= REPORT_KEYS


def _same(expected: Any, got: Any) -> bool:
    if isinstance(expected, Mapping):
        if not isinstance(got, Mapping):
            return False
        return all(_same(v, got.get(k)) for k, v in expected.items())
    if isinstance(expected, list):
        if got is None:
            got = ()
        if not isinstance(got, (list, tuple)):
            return False
        left = list(got)
        for item in expected:
            for i, g in enumerate(left):
                if _same(item, g):
                    del left[i]
                    break
            else:
                return False
        return not left
    if isinstance(expected, bool) or isinstance(got, bool):
        return isinstance(expected, bool) and isinstance(got, bool) and expected == got
    if expected is None:
        return got is None
    if isinstance(expected, int) and isinstance(got, int):
        return expected == got
    return str(expected) == str(got) if got is not None else False


def _shown(value: Any) -> str:
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {_shown(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    return "null" if value is None else str(value)


def check_report(where: str, exp: Mapping[str, Any], d: Decision) -> tuple[list[str], list[str], bool]:
    """What the case expects of the report, what the decision reported, and whether they agree."""
    want: list[str] = []
    got: list[str] = []
    ok = True
    report: Mapping[str, Any] = d.report
    for key in sorted(EXPECT_KEYS_2 & set(exp)):
        value = exp[key]
        if key in ("killed", "executed") and not isinstance(value, list):
            raise CaseError(f"{where}.expect.{key}: expected a list")
        if key in ("event", "battle", "siege", "vote") and not isinstance(value, Mapping):
            raise CaseError(f"{where}.expect.{key}: expected a mapping")
        have = report.get(key, [] if key in ("killed", "executed") else None)
        want.append(f"{key} {_shown(value)}")
        got.append(f"{key} {_shown(have)}")
        ok = ok and _same(value, have)
    return want, got, ok

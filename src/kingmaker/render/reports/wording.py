"""Small rules of wording shared by the reports: a rule id said once, one full stop at
the end of a sentence whatever the GM or a player typed."""

from __future__ import annotations

_ENDS = (".", "!", "?", "…")


def without_rule(explanation: str, rule: str | None) -> str:
    """``explanation`` without its closing ``(rule)`` when the report prints ``rule``
    beside it already (``[LOC.neutral.road]: ... blocks road movement``).

    >>> without_rule("a neutral castle blocks road movement (LOC.neutral.road)", "LOC.neutral.road")
    'a neutral castle blocks road movement'
    >>> without_rule("army a1 is formed; Mowbray is senior officer (ALLY.7.iv)", "ALLY.6")
    'army a1 is formed; Mowbray is senior officer (ALLY.7.iv)'
    """
    if not rule:
        return explanation
    tail = f" ({rule})"
    return explanation[: -len(tail)] if explanation.endswith(tail) else explanation


def full_stop(text: str) -> str:
    """``text`` ending in one full stop: none added after a sentence that ends already
    (the GM's "the garrison holds." stays one sentence).

    >>> full_stop("the garrison holds"), full_stop("the garrison holds."), full_stop("Why?")
    ('the garrison holds.', 'the garrison holds.', 'Why?')
    """
    t = text.rstrip()
    return t if t.endswith(_ENDS) else f"{t}."

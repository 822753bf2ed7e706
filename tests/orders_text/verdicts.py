"""The tests' own check of a post, without a game service: one verdict per order, from
the text (``parse_post``) and from the rules (``decide``), every order judged against the
same ``state`` as if it were the only one, nothing applied.

The product has one way through a post, ``service.posts.post`` (the CLI, the web pages
and the API); this helper lets the tests of the text orders see what the rules say of a
line without a store.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from kingmaker.orders_text.errors import Problem
from kingmaker.orders_text.parse import ParsedOrder, parse_post
from kingmaker.rules import commands as c
from kingmaker.rules.decide import decide
from kingmaker.rules.decision import Decision
from kingmaker.rules.state import GameState

ACCEPTED: Final = "accepted"
REFUSED: Final = "refused"
PENDING: Final = "pending"
IGNORED: Final = "ignored"  # chatter: a greeting, a signature, a heading (``chatter``)


@dataclass(frozen=True, slots=True)
class Verdict:
    """What one order line comes to.

    ``result`` is the rules' answer (``accepted``, ``refused``, ``pending``) for an order
    that reads well, the kind of problem of its text (``syntax``, ``ambiguous_name``,
    ``unknown_name``), or ``ignored`` for chatter; ``rule`` is the deciding rule id (None for a problem of the text or
    an order no rule had to decide); ``explanation`` is one plain sentence."""

    line: int
    column: int
    text: str
    result: str
    rule: str | None
    explanation: str
    command: c.Command | None = None
    decision: Decision | None = None
    problem: Problem | None = None

    @property
    def ok(self) -> bool:
        """Accepted, pending other factions' answers, or chatter ignored."""
        return self.result in (ACCEPTED, PENDING, IGNORED)

    def __str__(self) -> str:
        rule = f" [{self.rule}]" if self.rule else ""
        return f"line {self.line}: {self.result}{rule}: {self.explanation}"


def _order_verdict(state: GameState, order: ParsedOrder) -> Verdict:
    if order.command is None:
        d = order.refusal
        assert d is not None
    else:
        d = decide(state, order.command)
    return Verdict(
        order.line,
        order.column,
        order.text,
        str(d.result),
        d.rule,
        d.explanation,
        order.command,
        d,
    )


def check_post(
    state: GameState,
    text: str,
    author: str,
    *,
    faction_names: Mapping[str, str] | None = None,
) -> list[Verdict]:
    """One verdict per order line of ``text`` posted by ``author``, in line order."""
    post = parse_post(state, text, author, faction_names=faction_names)
    out = [_order_verdict(state, o) for o in post.orders]
    out += [Verdict(p.line, p.column, p.text, p.kind, None, p.message, problem=p) for p in post.problems]
    out += [Verdict(x.line, 1, x.text, IGNORED, None, x.reason) for x in post.ignored]
    out.sort(key=lambda v: v.line)
    return out

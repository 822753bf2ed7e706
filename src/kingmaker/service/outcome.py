"""What the service answers for a command."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from kingmaker.rules.decision import Decision


@dataclass(frozen=True)
class Outcome:
    game: str
    result: str  # "accepted" | "refused" | "pending" | "done"
    explanation: str
    rule: str | None = None
    awaiting: tuple[str, ...] = ()
    request: str | None = None
    first_seq: int | None = None
    last_seq: int | None = None
    token: str | None = None  # a new seat's secret token, shown once
    replayed: bool = False  # an idempotent retry: the first answer, nothing written again
    decision: Decision | None = None

    def with_seqs(self, first: int, last: int) -> Outcome:
        return replace(self, first_seq=first, last_seq=last)

    def to_data(self) -> dict[str, Any]:
        """JSON-ready, without the token (it is never stored)."""
        return {
            "game": self.game,
            "result": self.result,
            "explanation": self.explanation,
            "rule": self.rule,
            "awaiting": list(self.awaiting),
            "request": self.request,
            "first_seq": self.first_seq,
            "last_seq": self.last_seq,
        }

    @classmethod
    def from_data(cls, data: dict[str, Any], *, replayed: bool = False) -> Outcome:
        return cls(
            game=str(data["game"]),
            result=str(data["result"]),
            explanation=str(data["explanation"]),
            rule=data.get("rule"),
            awaiting=tuple(data.get("awaiting") or ()),
            request=data.get("request"),
            first_seq=data.get("first_seq"),
            last_seq=data.get("last_seq"),
            replayed=replayed,
        )

    @classmethod
    def of(cls, game: str, d: Decision) -> Outcome:
        return cls(game, d.result.value, d.explanation, d.rule, d.awaiting, d.request, decision=d)
